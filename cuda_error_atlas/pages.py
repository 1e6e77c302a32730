"""The report's pages, rendered from the model (atlas_matrix.Matrix). Every
text that comes from a results file or a case goes through e() (or, in the
matrix's script, into textContent): escaping is done here and only here.
Links are relative and nothing is loaded from elsewhere: the folder is a
static site."""
import collections
import contextlib
import difflib
import html
import json
import os
import re
import shutil

from .lessons import SECTIONS, sentence
from .results import SUCCESS
from .version_numbers import version_key
from .matrix import KINDS, MARKS, changed_variants, comparisons, differences, pytorch_cell

SECTION_TITLES = dict(SECTIONS)
# The harness's own steps, said for a reader.
STEP_NAMES = {"probe": "probe (is the context still usable?)", "end": "end (how the process ended)"}


def e(text):
    return html.escape("" if text is None else str(text), quote=True)


NOT_IN_AN_ID = re.compile(r"[^A-Za-z0-9_.-]")


def anchor(name):
    """The id of a status on status.html (and of anything else named by data)."""
    return NOT_IN_AN_ID.sub("-", str(name))


def script_json(data):
    """JSON safe inside <script type=application/json>."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c").replace(
        ">", "\\u003e").replace("&", "\\u0026").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


# The stylesheets and scripts are real files in site_assets/ (shipped in the wheel beside this module), copied into
# every site as assets/; a page names the ones it needs.
ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "site_assets")
STYLE = "atlas.css"

MATRIX_STYLE = "matrix.css"

NAV = [("index.html", "Matrix"), ("atlas.html", "Cases"), ("status.html", "Statuses"), ("changes.html", "What changed"),
       ("versions.html", "Versions"), ("sticky.html", "What is sticky")]


def copy_assets(out):
    """Copy site_assets/ into out/assets/: the pages link them there."""
    target = os.path.join(out, "assets")
    os.makedirs(target, exist_ok=True)
    for name in sorted(os.listdir(ASSETS)):
        if not name.startswith(".") and name.endswith((".css", ".js")):
            shutil.copyfile(os.path.join(ASSETS, name), os.path.join(target, name))


def page(title, body, depth=0, current=None, style="", script="", wide=False, nav=None, head="", scripts=()):
    """A whole page. style/script: the name of an asset beside atlas.css (site_assets/); scripts: more assets or
    relative paths of scripts, loaded before it."""
    up = "../" * depth
    links = "".join('<a href="%s%s"%s>%s</a>' % (up, href, " aria-current=page" if href == current else "", text)
                    for href, text in (nav or STATUS_HREF["nav"] or NAV))
    sheets = "".join("<link rel=stylesheet href='%sassets/%s'>" % (up, name) for name in (STYLE, style) if name)
    loaded = "".join("<script src='%s%s'></script>" % (up, name if "/" in name else "assets/" + name)
                     for name in list(scripts) + ([script] if script else []))
    return ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1,minimum-scale=1'><title>%s</title>%s%s</head>"
            "<body><nav class=top>%s</nav><main%s><h1%s>%s</h1>%s</main>%s</body></html>"
            % (e(title), sheets, head, links, " class=wide" if wide else "", " class=intro" if wide else "", e(title), body,
               loaded))


def problems_html(problems):
    if not problems:
        return ""
    # a file a newer one of its column replaces is not a problem: said, not alarmed
    replaced = [p for p in problems if getattr(p, "scope", "file") == "superseded"]
    note = ("<p class=note>Shown instead of the committed file of the same column: %s.</p>" % "; ".join(
        "<code>%s</code> (%s)" % (e(p[0]), e(p[1])) for p in replaced)) if replaced else ""
    problems = [p for p in problems if getattr(p, "scope", "file") != "superseded"]
    if not problems:
        return note
    by_file = collections.OrderedDict()
    for p in problems:
        by_file.setdefault(p[0], []).append((p[1], getattr(p, "scope", "file")))
    items = []
    for path, reasons in by_file.items():
        lost = "left out" if any(scope == "file" for _, scope in reasons) else "read, with these parts ignored"
        items.append("<li><code>%s</code> — %s:<ul>%s</ul></li>" % (
            e(path), lost, "".join("<li>%s</li>" % e(r) for r, _ in reasons[:20]) +
            ("<li>and %d more</li>" % (len(reasons) - 20) if len(reasons) > 20 else "")))
    return note + "<div class=problems role=alert><b>Some results could not be used.</b><ul>%s</ul></div>" % "".join(items)


def link_text(text):
    """Escaped text with its URLs made links."""
    parts, last = [], 0
    for match in re.finditer(r"https?://[^\s<>\"')]+[^\s<>\"').,;:]", text):
        parts.append(e(text[last:match.start()]))
        parts.append('<a href="%s">%s</a>' % (e(match.group(0)), e(match.group(0))))
        last = match.end()
    parts.append(e(text[last:]))
    return "".join(parts)


def paragraphs(text, prefix="", code=""):
    if prefix and text.startswith(prefix):
        text = sentence(text[len(prefix):].lstrip(":").lstrip(), code)  # the heading already says it
    return "".join("<p>%s</p>" % link_text(p) for p in text.split("\n\n") if p.strip())


# Where a status is explained: the report's one status.html (an anchor per status), or the site's page per status
# (site.py switches it while it writes). {} is the status's anchor().
STATUS_HREF = {"template": "status.html#{}", "matrix": "index.html", "nav": None}


@contextlib.contextmanager
def links(**where):
    """Within it, status links use where["template"], the matrix is where["matrix"] and the bar is where["nav"]."""
    saved = dict(STATUS_HREF)
    STATUS_HREF.update(where)
    try:
        yield
    finally:
        STATUS_HREF.clear()
        STATUS_HREF.update(saved)


def status_href(name, depth=0):
    return "../" * depth + STATUS_HREF["template"].format(anchor(name))


def status_link(name, depth=0, text=None):
    if not name or name in SUCCESS:
        return e(text or name or "")
    return '<a href="%s">%s</a>' % (e(status_href(name, depth)), e(text or name))


# ---- the matrix ---------------------------------------------------------------

MATRIX_SCRIPT = "matrix.js"


class KindTable:
    """Distinct cells, each stored once: [text, kind, status anchor, title]."""

    def __init__(self):
        self.index, self.kinds = {}, []

    def __call__(self, cell):
        key = (cell.text, cell.kind, cell.status and anchor(cell.status), cell.title)
        if key not in self.index:
            self.index[key] = len(self.kinds)
            self.kinds.append([cell.text, cell.kind, anchor(cell.status) if cell.status and cell.status not in SUCCESS else "",
                               cell.title or ""])
        return self.index[key]


def column_data(column):
    return {"id": column.id, "label": column.label, "here": column.here, "collected": column.collected,
            "version": list(version_key(column.environment.get("cudart") if column.environment.get("cudart") != "none"
                                        else column.environment.get("cudart_header")))}


def matrix_data(matrix):
    kinds = KindTable()
    rows = [[row.case, row.family, row.variant, 1 if matrix.disagrees(row) else 0,
             [kinds(c) for c in row.cells + row.mirrors]] for row in matrix.rows]
    return {"columns": [column_data(c) for c in matrix.columns + matrix.pytorch], "kinds": kinds.kinds, "rows": rows,
            "statusHref": STATUS_HREF["template"]}


def steps_script(matrix, case):
    """steps/<case>.js: the drill-down of a case's rows, loaded on demand."""
    kinds = KindTable()
    variants = {}
    for variant in ("fixed", "broken"):
        steps = [[STEP_NAMES.get(s.step, s.step), [kinds(c) for c in s.cells]] for s in matrix.step_rows(case, variant)]
        details = []
        for column in matrix.columns + matrix.pytorch:
            cell = matrix.cell(column, case, variant)
            details.append("\n".join("%s: %s" % (k, v) for k, v in cell.details) or cell.value)
        variants[variant] = {"steps": steps, "details": details}
    return "atlasSteps(%s, %s);\n" % (script_json(case), script_json({"kinds": kinds.kinds, "variants": variants}))


def header_html(matrix):
    columns = matrix.columns + matrix.pytorch
    levels = []
    for level in range(4):
        cells, previous = [], None
        for column in columns:
            key = (column.here, column.kind) + column.heading[:level + 1]
            if key == previous:
                cells[-1][1] += 1
            else:
                text = column.heading[level]
                if level == 0 and column.here:
                    text = "▶ this machine: " + text
                cells.append([text, 1, column])
            previous = key
        row = "".join('<th colspan=%d%s%s>%s</th>' % (
            span, " class=here" if column.here else "",
            " title='%s'" % e(column.label + "\n" + column.path) if level == 3 else "", "<span>%s</span>" % e(text))
            for text, span, column in cells)
        corner = ('<th class=corner rowspan=4 scope=col>case / variant<br><small>▸ opens the steps · ◆ GPUs disagree</small></th>'
                  if level == 0 else "")
        levels.append("<tr>%s%s</tr>" % (corner, row))
    return "<thead>%s</thead>" % "".join(levels)


def legend_html():
    rows = "".join("<tr><td class='c k-%s'><span class=mono>%s</span></td><td>%s</td></tr>" % (
        kind, e(symbol or "STATUS"), e(meaning)) for kind, symbol, meaning in KINDS)
    rows += "".join("<tr><td><span class=mono>%s</span></td><td>%s</td></tr>" % (e(symbol), e(meaning)) for symbol, meaning in MARKS)
    key = ("<p class=note><b>Key:</b> <code>ok</code> no error · <code>STATUS</code> the first error · <code>@sync</code> / "
           "<code>@query</code> it surfaced later · <code>†</code> context lost · <code>☠</code> killed by a signal · "
           "<code>≠</code> wrong result · <code>–</code> not run · <code>✗</code> differs from the rules · "
           "<code>Δ</code> changed by a partial run.</p>")
    return key + ("<details class=legend><summary>How to read a cell (the full legend)</summary><table class=legend>%s</table>"
            "<p class=note>A status is shown by its short name (<code>IllegalAddress</code> is "
            "<code>cudaErrorIllegalAddress</code>, <code>INVALID_VALUE</code> is <code>CUBLAS_STATUS_INVALID_VALUE</code>); "
            "it links to every case that produces it. A case name links to its lesson.</p></details>" % rows)


def matrix_html(matrix, problems, notes=None):
    """notes: the page that names the results files' problems (the site's notes.html); without it they are listed
    below the table."""
    data = matrix_data(matrix)
    families = sorted(set(matrix.family.values()))
    here = [c for c in matrix.columns if c.here]
    options = "".join("<option value='%s'>%s</option>" % (e(kind), e(symbol + " " + kind if symbol and symbol != kind else kind))
                      for kind, symbol, _ in KINDS if kind != "unreached")
    intro = ("<p>%d cases, each a fixed and a broken variant, in %d environments (%d with a GPU)%s. A row is one variant; "
             "a cell is what that environment returned: the first error, where it surfaced, whether the context "
             "survived. Read across a row to see where an outcome changes; open a row (▸) for its steps.%s</p>" % (
                 len(matrix.case_names), len(matrix.columns), sum(1 for c in matrix.columns if c.has_device),
                 ", with the PyTorch mirrors" if matrix.pytorch else "",
                 " The first column%s, marked ▶, %s this machine's run." % (
                     "s" if len(here) > 1 else "", "are" if len(here) > 1 else "is") if here else ""))
    filters = ("<div class=filters role=search><input type=search id=f-search placeholder='search cases and statuses' "
               "aria-label='search cases and statuses'>"
               "<select id=f-variant aria-label=variant><option value=''>both variants</option>"
               "<option value=broken>broken only</option><option value=fixed>fixed only</option></select>"
               "<select id=f-family aria-label=family><option value=''>every family</option>%s</select>"
               "<select id=f-kind aria-label=outcome><option value=''>any outcome</option>%s"
               "<option value=differs>✗ differs from its rules</option><option value=changed>Δ changed by a partial run</option>"
               "</select><label><input type=checkbox id=f-disagree> ◆ only where GPU environments disagree</label>"
               "<span id=f-count class=note></span></div>") % (
        "".join("<option>%s</option>" % e(f) for f in families), options)
    below = problems_html(problems) if not notes else (
        "<p class='note intro'>Some results files had problems: <a href='%s'>the notes</a> name them.</p>" % e(notes)
        if [p for p in problems if getattr(p, "scope", "file") != "superseded"] else "")
    body = ("<div class=intro>%s%s%s</div><noscript><p>The table needs JavaScript; <a href=matrix.md>matrix.md</a> and "
            "<a href=matrix.csv>matrix.csv</a> have the same.</p></noscript>"
            "<div class='%s' id=scroll><table id=matrix>%s<tbody></tbody></table></div>"
            "<p class='note intro'>Also as <a href=matrix.md>Markdown</a>, <a href=matrix.csv>CSV</a> (with the steps) and "
            "<a href=matrix.json>JSON</a>.</p><div class=intro>%s</div>"
            "<script type=application/json id=atlas-data>%s</script>") % (
        intro, legend_html(), filters, "scroll boxed" if notes else "scroll", header_html(matrix), below, script_json(data))
    return page("cuda-error-atlas: what each mistake returns, everywhere", body, current=STATUS_HREF["matrix"],
                style=MATRIX_STYLE, script=MATRIX_SCRIPT, wide=True)


# ---- case pages ---------------------------------------------------------------

def where_lines(columns, all_columns):
    """The environments a list names, every label part kept, grouped by GPU
    and driver, then runtime: ["H100 · driver 580: cudart 13.0 · cuBLAS 13.1.0
    (default, launch_blocking); cudart 12.4 · cuBLAS 12.4.5 (default)", ...]."""
    gpu = [c for c in all_columns if c.has_device]
    nodriver = [c for c in all_columns if not c.has_device]
    ids = set(map(id, columns))
    if ids == set(map(id, all_columns)) and len(columns) > 1:
        return ["every environment (%d)" % len(columns)]
    lines = []
    if gpu and set(map(id, gpu)) <= ids and len(gpu) > 1:
        lines.append("every GPU environment (%d)" % len(gpu))
        columns = [c for c in columns if not c.has_device]
    if nodriver and set(map(id, nodriver)) <= ids and len(nodriver) > 1:
        lines.append("every environment without a driver (%d)" % len(nodriver))
        columns = [c for c in columns if c.has_device]
    groups = collections.OrderedDict()
    for c in columns:
        gpu_driver = " · ".join(x for x in c.heading[:2] if x != "no driver") if c.has_device else c.heading[0]
        groups.setdefault(gpu_driver, collections.OrderedDict()).setdefault(c.heading[2], []).append(c.heading[3])
    for head, stacks in groups.items():
        lines.append("%s: %s" % (head, "; ".join("%s (%s)" % (stack, ", ".join(modes)) for stack, modes in stacks.items())))
    return lines


def where_text(columns, all_columns):
    return "; ".join(where_lines(columns, all_columns))


def where_html(columns, all_columns):
    return "<br>".join(e(line) for line in where_lines(columns, all_columns))


def outcome_sentence(cell, depth):
    """A cell, said in words, with its status linked."""
    if cell.kind in ("error", "sticky"):
        value = cell.value.lstrip("✗≈Δ ")
        where = "at a later synchronize" if "@sync" in value else "at a later query" if "@query" in value else "at the call"
        context = "the context is lost (sticky)" if cell.kind == "sticky" else "the context stays usable"
        return "%s %s; %s" % (status_link(cell.status, depth), where, context)
    if cell.kind == "crashed":
        return "the process dies: %s" % status_link(cell.status, depth, cell.status.replace("signal:", ""))
    if cell.kind == "wrong":
        return "no error, but a %s" % status_link("result_wrong", depth, "wrong result")
    if cell.kind == "timeout":
        return "the process hangs until its %s" % status_link("timeout", depth, "time limit")
    if cell.kind == "ok":
        return "no error (every call succeeds, exit 0)"
    if cell.kind == "skipped":
        reason = dict(cell.details).get("skipped because")
        return "skipped%s" % (": " + e(reason) if reason else "")
    if cell.kind == "exit":
        return "the process exits with %s" % e(cell.value.replace("exit ", "code ").lstrip("✗ "))
    return e(cell.value)


def outcomes_html(matrix, case, variant, depth, skips=None):
    """The variant's distinct outcomes, a row each. skips: a list that gets (reason, [columns]) of each reason the
    variant did not run, instead of a row for it (the caller says each reason once for both variants)."""
    groups = matrix.outcomes(case, variant)
    if not groups:
        return None
    rows = []
    # "every GPU environment" means every one that ran the variant: a column
    # that skipped it (a runtime column without cuBLAS) is not counted against it
    ran = [c for c in matrix.columns if matrix.cell(c, case, variant).kind not in ("skipped", "not-run")]
    split = []
    for cell, columns in groups:
        if cell.kind != "skipped":
            split.append((cell, columns, outcome_sentence(cell, depth)))
            continue
        # one row per reason a variant did not run (the version a reason names is the column's own)
        by_reason = collections.OrderedDict()
        for column in columns:
            reason = dict(matrix.cell(column, case, variant).details).get("skipped because") or ""
            by_reason.setdefault(re.sub(r"\b\d+(?:\.\d+)+\b", "…", reason) if len(columns) > 1 else reason, []).append(column)
        for reason, some in by_reason.items():
            exact = dict(matrix.cell(some[0], case, variant).details).get("skipped because") or ""
            shown = exact if len(some) == 1 else reason
            if skips is not None:
                skips.append((shown, some))
                continue
            split.append((cell, some, "skipped%s" % (": " + e(shown) if shown else "")))
    if not split:
        return ""
    for cell, columns, said in split:
        mark = " <span class=note>(✗ differs from its rules)</span>" if cell.value.startswith("✗") else ""
        everywhere = matrix.columns if cell.kind == "skipped" else ran
        rows.append("<tr><td class='k-%s'><span class=mono>%s</span></td><td>%s%s</td><td class=where>%s</td></tr>" % (
            e(cell.kind), e(cell.value.lstrip("Δ ")), said, mark, where_html(columns, everywhere)))
    return ("<div class=wrap><table class='outcomes got'><tr><th>cell</th><th>what the program sees</th><th>where it was recorded</th>"
            "</tr>%s</table></div>" % "".join(rows))


def pytorch_html(matrix, case, depth):
    recorded = [(column, matrix.run(column, case.name, "broken"), matrix.run(column, case.name, "fixed"))
                for column in matrix.pytorch]
    recorded = [r for r in recorded if r[1] or r[2]]
    if not recorded:
        return "<p><i>No PyTorch mirror recorded.</i></p>%s" % paragraphs(case.sections.get("pytorch", ""),
                                                                          SECTION_TITLES["pytorch"])
    parts = []
    for column, broken, fixed in recorded:
        raised = (broken or {}).get("exception")
        parts.append("<p><b>%s</b>: the broken program %s</p>%s<p class=note>The fixed one: %s.</p>" % (
            e(column.label), "raises" if raised else "raises nothing",
            "<pre style='white-space:pre-wrap'>%s</pre>" % e("%s: %s" % (raised, broken.get("message"))) if raised else "",
            e(pytorch_cell(fixed).value)))
    if case.mirror_path:
        parts.append("<details><summary>the mirror, <code>%s</code></summary><pre>%s</pre></details>"
                     % (e(case.mirror_path), e(case.mirror_source)))
    return "".join(parts)


def source_html(case):
    marks = {number: variant for variant, (number, _) in case.variant_lines().items()}
    lines = []
    header_end = case.source.find("*/")
    first = case.source[:header_end].count("\n") + 2 if header_end >= 0 else 1  # the lesson is shown above
    for number, text in enumerate(case.source.splitlines(), 1):
        if number < first:
            continue
        if number in marks:
            lines.append('<mark>%s</mark>   ← the %s variant' % (e(text), marks[number]))
        else:
            lines.append(e(text))
    return "<pre>%s</pre>" % "\n".join(lines)


_DIFFS = {}


def fix_diff_html(case):
    bodies = case.variant_bodies()
    if set(bodies) != {"fixed", "broken"}:
        return ""
    key = (case.source_path, tuple(bodies["broken"]), tuple(bodies["fixed"]))
    if key not in _DIFFS:
        a, b = bodies["broken"], bodies["fixed"]
        out = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if op == "equal":
                out += ["<span>  %s</span>" % e(line) for line in a[i1:i2]]
                continue
            out += ["<span class=del>− %s</span>" % e(line) for line in a[i1:i2]]
            out += ["<span class=add>+ %s</span>" % e(line) for line in b[j1:j2]]
        _DIFFS[key] = ("<p class=note>The broken variant (−) and the fixed one (+), from <code>%s</code>:</p>"
                       "<pre class=diff>%s</pre>" % (e(case.source_path), "".join(out)))
    return _DIFFS[key]


def broken_statuses(matrix):
    """{status: [cases whose broken variant returns it somewhere]}, computed once per matrix."""
    if not hasattr(matrix, "_broken_statuses"):
        index = collections.defaultdict(list)
        for name in matrix.case_names:
            for cell, _ in matrix.outcomes(name, "broken", gpu_columns(matrix)):
                if cell.status and name not in index[cell.status]:
                    index[cell.status].append(name)
        matrix._broken_statuses = index
    return matrix._broken_statuses


def gpu_columns(matrix):
    """Where a mistake's own status shows (without a driver every case fails alike)."""
    return [c for c, device in zip(matrix.columns, matrix.device) if device] or matrix.columns


def related_items(matrix):
    """({family: [case]}, {case: the start of its item in a list of related cases}), made once per matrix: every case
    page lists the others of its family."""
    if not hasattr(matrix, "_related_items"):
        families, items = collections.defaultdict(list), {}
        for name in matrix.case_names:
            families[matrix.family.get(name)].append(name)
            title = matrix.cases[name].human_title if name in matrix.cases else name
            items[name] = "<li><a href='%s.html'>%s</a> <code>%s</code>" % (e(name), e(title), e(name))
        matrix._related_items = families, items
    return matrix._related_items


def related_html(matrix, case, depth):
    mine = {cell.status for cell, _ in matrix.outcomes(case.name, "broken", gpu_columns(matrix)) if cell.status}
    families, items = related_items(matrix)
    family = [n for n in families.get(case.family, ()) if n != case.name]
    in_family = set(family)
    by_status = broken_statuses(matrix)
    same_status = collections.OrderedDict()
    for status in sorted(mine):
        for name in by_status.get(status, ()):
            if name != case.name and name not in in_family:
                same_status.setdefault(name, []).append(status)
    same_status = list(same_status.items())
    def item(name, extra=""):
        return items[name] + extra + "</li>"
    parts = []
    if mine:
        parts.append("<p>The broken variant's statuses on a GPU: %s.</p>" % ", ".join(status_link(s, depth) for s in sorted(mine)))
    if family:
        parts.append("<h3>The same family (%s)</h3><ul class=cases>%s</ul>" % (e(case.family), "".join(item(n) for n in family)))
    if same_status:
        parts.append("<h3>Other mistakes with the same status</h3><ul class=cases>%s</ul>" % "".join(
            item(n, " — " + ", ".join(status_link(s, depth) for s in shared)) for n, shared in same_status[:12]))
    return "".join(parts)


def what_you_get_html(matrix, case, depth=1):
    """From the recorded results, never from prose: what each variant came to
    in each environment."""
    skipped = {"broken": [], "fixed": []}
    broken = outcomes_html(matrix, case.name, "broken", depth, skipped["broken"])
    fixed = outcomes_html(matrix, case.name, "fixed", depth, skipped["fixed"])
    gpu_runs = any(matrix.run(c, case.name, v) for c in matrix.columns if c.has_device for v in ("fixed", "broken"))
    parts = []
    if not gpu_runs:
        parts.append("<p><b>Not yet run on a GPU.</b>%s</p>" % (
            " Only the outcome without a driver is recorded." if broken or fixed else " No environment has recorded it yet."))
    if broken:
        parts.append("<h3>The broken variant</h3>" + broken)
    if fixed:
        parts.append("<h3>The fixed variant</h3>" + fixed)
    # where a variant did not run: one line per reason, both variants together when they skipped alike
    lines = collections.OrderedDict()
    for variant in ("broken", "fixed"):
        for reason, columns in skipped[variant]:
            line = lines.setdefault(reason, [[], []])
            line[0] += [c for c in columns if c not in line[0]]
            line[1].append(variant)
    if lines:
        parts.append("<h3>Not run</h3><ul class=skips>%s</ul>" % "".join(
            "<li><b>skipped</b>%s: %s <span class=note>— %s</span></li>" % (
                "" if len(variants) == 2 else " (the %s variant)" % variants[0], e(reason or "no reason given"),
                e(where_text([c for c in matrix.columns if c in columns], matrix.columns)))
            for reason, (columns, variants) in lines.items()))
    return "".join(parts)


class Unwritten:
    """A case the results name but this checkout has no source for: its page
    shows what was recorded, so that every link to it leads somewhere."""

    def __init__(self, name, family):
        self.name, self.family = name, family
        self.source_path = "cases/%s/%s.c" % (family or "?", name)
        self.human_title = name.replace("_", " ")
        self.sections, self.markers, self.mirror_path, self.mirror_source, self.source = {}, [], None, None, ""

    def variant_bodies(self):
        return {}


def case_page(matrix, case):
    depth = 1
    if case is None or isinstance(case, str):
        case = Unwritten(case, matrix.family.get(case, ""))
    sections = case.sections
    def section(key, heading=None):
        if key not in sections:
            return ""
        return "<h2>%s</h2>%s" % (e(heading or SECTION_TITLES[key]), paragraphs(sections[key], SECTION_TITLES[key], case.source))
    steps, shown = [], {}

    def td(cell):                   # a step's cell: the same few outcomes recur down every column, each made once
        key = (cell.kind, cell.value, cell.status)
        if key not in shown:
            shown[key] = "<td class='k-%s%s'>%s</td>" % (
                e(cell.kind), " differs" if cell.value.startswith("✗") else "",
                status_link(cell.status, depth, cell.value) if cell.status else e(cell.value))
        return shown[key]
    for variant in ("broken", "fixed"):
        rows = matrix.step_rows(case.name, variant)
        ran = [i for i in range(len(matrix.columns)) if any(r.cells[i].kind not in ("skipped", "not-run") for r in rows)]
        if rows and ran:
            head = "".join("<th>%s</th>" % e(STEP_NAMES.get(r.step, r.step)) for r in rows)
            body = "".join("<tr><th>%s</th>%s</tr>" % (e(matrix.labels[i]), "".join(td(r.cells[i]) for r in rows))
                           for i in ran)
            left = len(matrix.columns) - len(ran)
            steps.append("<h3>%s variant</h3><div class=wrap><table class='outcomes keyed'><tr><th>environment</th>%s</tr>%s"
                         "</table></div>%s" % (variant.capitalize(), head, body, "<p class=note>%d environment%s that did not "
                                               "run it (skipped or not run) left out.</p>" % (left, "s" if left != 1 else "")
                                               if left else ""))
    body = "".join([
        "<p class=sub><code>%s</code> · family <a href='../atlas.html#%s'>%s</a> · <code>%s</code> · "
        "<a href='../%s'>in the matrix</a></p>" % (e(case.name), e(anchor(case.family)), e(case.family), e(case.source_path), e(STATUS_HREF["matrix"])),
        section("mistake"),
        "<h2>What you get</h2>", what_you_get_html(matrix, case, depth),
        "<h3>PyTorch, for the same mistake</h3>", pytorch_html(matrix, case, depth),
        "<details><summary>The lesson's own account</summary>%s</details>" % paragraphs(sections.get("sees", ""), SECTION_TITLES["sees"])
        if "sees" in sections else "",
        section("why"),
        "<h2>The fix</h2>%s%s" % (paragraphs(sections.get("fix", ""), SECTION_TITLES["fix"]), fix_diff_html(case)),
        "<h2>Step by step</h2><details><summary>every recorded step, in every environment</summary>%s</details>"
        % ("".join(steps) or "<p>No step failed or is named by a rule.</p>"),
        "<h2>Related</h2>", related_html(matrix, case, depth),
        section("references"),
        "<p class=note>%s</p>" % e(" ".join(case.markers)) if case.markers else "",
        "<details><summary>The source</summary>%s</details>" % source_html(case) if case.source else
        "<p><b>No lesson:</b> this checkout has no <code>%s</code>; the results above are what was recorded.</p>"
        % e(case.source_path),
    ])
    return page(case.human_title, body, depth=depth)


def headline(matrix, name):
    """The broken variant's most common GPU outcome, as a cell."""
    columns = [c for c in matrix.columns if c.has_device] or matrix.columns
    groups = matrix.outcomes(name, "broken", columns)
    if not groups:
        return None
    return max(groups, key=lambda g: len(g[1]))[0]


INDEX_SCRIPT = "cases.js"


def atlas_index(matrix):
    by_family = collections.defaultdict(list)
    for name in matrix.case_names:
        by_family[matrix.family[name]].append(name)
    parts = []
    for family in sorted(by_family):
        items = []
        for n in by_family[family]:
            title = matrix.cases[n].human_title if n in matrix.cases else n
            cell = headline(matrix, n)
            got = " — %s" % outcome_sentence(cell, 0) if cell else " — <i>not yet run</i>"
            href = "case/%s.html" % n
            items.append("<li><a href='%s'>%s</a> <code class=note>%s</code>%s</li>" % (e(href), e(title), e(n), got))
        parts.append("<section class=family id='%s'><h2>%s <span class=note>(%d)</span></h2><ul class=cases>%s</ul></section>"
                     % (e(anchor(family)), e(family), len(by_family[family]), "".join(items)))
    intro = ("<p>Every mistake in the atlas, by family, with what its broken variant returns on most GPUs. "
             "Each links to its lesson: the mistake, what you get in every environment, why, and the fix.</p>"
             "<p><input type=search id=q placeholder='search: a case, a status, a word' aria-label='search the cases' "
             "style='width:28em'></p><p class=note>Families: %s</p>" % " · ".join(
                 "<a href='#%s'>%s</a> (%d)" % (e(anchor(f)), e(f), len(by_family[f])) for f in sorted(by_family)))
    return page("The atlas: every case", intro + "".join(parts), current="atlas.html", script=INDEX_SCRIPT)


# ---- statuses -----------------------------------------------------------------

def statuses(matrix):
    """{status name: [(case, variant, step, surfaced, [columns])]} for every
    non-success status any environment recorded."""
    seen = collections.defaultdict(lambda: collections.defaultdict(list))
    for column in matrix.columns:
        for run in column.runs:
            for record in run.get("steps") or ():
                if record.get("success") or record.get("name") in SUCCESS:
                    continue
                key = (run["case"], run["variant"], record["step"], record.get("surfaced") or "call")
                where = seen[record["name"]][key]
                if not where or where[-1] is not column:        # the columns come one after another
                    where.append(column)
            end = run.get("end") or {}
            if end.get("kind") in ("signal", "timeout"):
                key = (run["case"], run["variant"], "end", "process")
                if column not in seen[end["outcome"]][key]:
                    seen[end["outcome"]][key].append(column)
    return {name: [k + (v,) for k, v in places.items()] for name, places in seen.items()}


def status_index(matrix, status_table):
    texts = {name: text for _, _, name, text in status_table}
    codes = {name: code for _, code, name, _ in status_table}
    found = statuses(matrix)
    parts, toc = [], []
    for name in sorted(found, key=lambda n: (n.startswith("signal") or n in ("timeout", "result_wrong"), n.lower())):
        places = found[name]
        toc.append('<a href="#%s">%s</a>' % (e(anchor(name)), e(name)))
        rows = []
        for case, variant, step, surfaced, columns in sorted(places, key=lambda p: (p[1] != "broken", p[0], p[2])):
            fix = matrix.cases[case].sections.get("fix", "") if case in matrix.cases else ""
            title = matrix.cases[case].human_title if case in matrix.cases else case
            rows.append("<tr><td><a href='case/%s.html'>%s</a><br><code class=note>%s</code></td><td>%s</td><td>%s</td>"
                        "<td>%s</td><td class=where>%s</td><td>%s</td></tr>" % (
                            e(case), e(title), e(case), e(variant), e(step), e(surfaced),
                            where_html(columns, matrix.columns), e(fix.replace("The fix:", "").strip()[:300])))
        what = texts.get(name) or {"result_wrong": "every call succeeded but the result was wrong",
                                   "timeout": "the process ran past its time limit and was killed"}.get(
            name, "the process was killed by %s" % name.replace("signal:", "") if name.startswith("signal:") else "")
        parts.append("<section id='%s'><h2>%s%s</h2><p><i>%s</i></p><div style='overflow:auto'><table class=outcomes>"
                     "<tr><th>case</th><th>variant</th><th>step</th><th>surfaced at</th><th>where recorded</th>"
                     "<th>the fix</th></tr>%s</table></div></section>"
                     % (e(anchor(name)), e(name), " <span class=note>(%s)</span>" % codes[name] if name in codes else "",
                        e(what), "".join(rows)))
    intro = ("<p>Every status, signal and wrong result any environment recorded, the mistakes that produce it, where "
             "it surfaced, and their fixes. A broken variant's row comes first.</p>")
    return page("Every status, and the mistakes that produce it", intro + "<p>%s</p>%s" % (" · ".join(toc), "".join(parts)),
                current="status.html")


# ---- what changed -------------------------------------------------------------

CHANGES_SCRIPT = "changes.js"


def changed_count(changed):
    """"9 variants differ (16 rows with their steps)", or "nothing changed"."""
    variants = changed_variants(changed)
    if not variants:
        return "nothing changed"
    return "%d variant%s differ%s%s" % (variants, "s" if variants != 1 else "", "" if variants != 1 else "s",
                                      " (%d rows with their steps)" % len(changed) if len(changed) != variants else "")


def _side(column, other, kind):
    notes = []
    if kind == "version":
        notes.append("older runtime" if version_key(column.environment.get("cudart")) < version_key(other.environment.get("cudart"))
                     else "newer runtime")
    if column.collected and other.collected and column.collected != other.collected:
        notes.append("older run" if column.collected < other.collected else "newer run")
    return "%s%s" % (e(column.label), " <span class=note>(%s)</span>" % e(", ".join(notes)) if notes else "")


def changes_html(matrix, pairs=None):
    pairs = comparisons(matrix) if pairs is None else pairs
    titles = {"mode": "Run modes: the same GPU and runtime", "version": "Runtime versions: the same GPU and mode, older → newer",
              "gpu": "GPUs: the same runtime and mode"}
    sections = collections.OrderedDict((k, []) for k in titles)
    for kind, left, right, why in pairs:
        changed = differences(matrix, left, right)
        rows = "".join("<tr><th>%s</th><td class='k-%s'>%s</td><td class='k-%s'>%s</td></tr>" % (
            ("<a href='case/%s.html'>%s</a> / %s" % (e(row.case), e(row.case), e(row.variant)) if row.step is None else
             "<span class=note>&nbsp;&nbsp;· step %s</span>" % e(STEP_NAMES.get(row.step, row.step))),
            e(a.kind), e(a.text), e(b.kind), e(b.text)) for row, a, b in changed)
        sections[kind].append("<details%s><summary><b>%s → %s</b>: %s <span class=note>(%s)</span></summary>%s</details>" % (
            " open" if 0 < len(changed) <= 40 else "",
            e(left.heading[3] if kind == "mode" else left.environment.get("cudart") if kind == "version" else left.heading[0]),
            e(right.heading[3] if kind == "mode" else right.environment.get("cudart") if kind == "version" else right.heading[0]),
            changed_count(changed), e(why),
            "<div style='overflow:auto'><table class=outcomes><tr><th>case / variant / step</th><th>%s</th><th>%s</th></tr>%s</table></div>"
            % (_side(left, right, kind), _side(right, left, kind), rows) if changed else ""))
    overlays = []
    for column in matrix.columns:
        for (case, variant), (old, new) in sorted(column.overlay.items()):
            cell = matrix.cell(column, case, variant)
            overlays.append("<tr><th><a href='case/%s.html'>%s</a> / %s</th><td>%s</td><td>%s</td><td>%s</td></tr>" % (
                e(case), e(case), e(variant), e(column.label), e(cell.changed[0].value if cell.changed and cell.changed[0] else "not run"),
                e(cell.value)))
    columns = matrix.columns + matrix.pytorch
    options = "".join("<option value=%d%s>%s</option>" % (i, "", e(c.label)) for i, c in enumerate(columns))
    picker = ("<h2 id=pick>Any two columns</h2><div class=filters><label>left <select id=pick-a style='width:40em'>%s</select></label>"
              "<label>right <select id=pick-b style='width:40em'>%s</select></label></div><div id=picked style='overflow:auto'></div>"
              "<script type=application/json id=atlas-data>%s</script>") % (
        options, options.replace("value=1>", "value=1 selected>", 1) if len(columns) > 1 else options, script_json(matrix_data(matrix)))
    body = ["<p>What differs between environments that differ in one thing. Each table lists the variants (and "
            "their steps) whose outcome changed; for versions the older runtime is on the left. From a shell: "
            "<code>cuda-atlas report diff X Y</code>.</p>"]
    for kind, parts in sections.items():
        if parts:
            body.append("<h2>%s</h2>%s" % (e(titles[kind]), "".join(parts)))
    if overlays:
        body.append("<h2>Changed by a partial run</h2><p class=note>A filtered run (ctest -R/-L) laid over the complete "
                    "run of its environment.</p><div class=wrap><table class=outcomes><tr><th>case / variant</th><th>environment</th>"
                    "<th>complete run (old)</th><th>partial run (new)</th></tr>%s</table></div>" % "".join(overlays))
    body.append(picker)
    return page("What changed between environments", "".join(body), current="changes.html", script=CHANGES_SCRIPT)
