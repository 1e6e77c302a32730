"""The static site, from the compiled dataset alone (no results file, no case file is read).

    cuda-atlas site [--out DIR] [--dataset PATH]

DIR (default build/site) gets:
    index.html               where to start, and the search box
    search.html              what a pasted error line names (assets/search.js over search-index.js)
    matrix.html              every case variant × every environment (+ matrix.md, .csv, .json, steps/*.js)
    atlas.html, case/*.html  every case, and one page per case: the lesson and what each environment recorded
    status.html, status/*.html   a short index of statuses, and one page per status (meaning, numbers and texts,
                             the mistakes that produce it and where, stickiness, framework messages, older names)
    changes.html, compare/*.html what changed: one page per comparison of two environments or two versions
    versions.html, sticky.html, sticky.json
    notes.html               what the dataset could not use
Every link is relative; nothing is loaded from elsewhere; no page names a path on this machine.
"""
import argparse
import collections
import json
import os
import re
import shutil
import sys
import time

from . import libraries as status_libraries
from . import pages
from . import versions as atlas_versions
from .dataset import default_path, open_dataset
from .matrix import Matrix, STATUS_WORD, comparisons, differences, matrix_csv, matrix_json, matrix_markdown
from .pages import anchor, atlas_index, case_page, e, page, script_json, statuses, steps_script, where_html
from .results import ROOT, SUCCESS
from .statuses import short

NAV = [("index.html", "Home"), ("matrix.html", "Matrix"), ("atlas.html", "Cases"), ("status.html", "Statuses"),
       ("changes.html", "What changed"), ("versions.html", "Versions"), ("sticky.html", "What is sticky"),
       ("search.html", "Search")]
# What the harness records that is no library's status, said for a reader.
OWN_WORDS = {"result_wrong": "every call succeeded but the result was wrong",
             "timeout": "the process ran past its time limit and was killed"}
LIBRARIES = {library.api: "%s (%s)" % (library.title, library.status_type) for library in status_libraries.LIBRARIES}


def rows(dataset, table):
    """A table's rows as dicts; none when the table is an empty placeholder."""
    found = dataset.query('SELECT * FROM "%s"' % table)
    return [dict(r) for r in found if "empty" not in r.keys()]


# A path on the machine that ran or built something (a library a run loaded from a work tree, a temporary folder):
# a page keeps only its file name.
LOCAL_PATH = re.compile(r"(?<![\w.])/(?:work|home|root|scratch|mnt)/[^\s\"'<>\\,;()]*")


def scrub(text):
    """No path of this machine in a page: the checkout's root is dropped from any text that names it, and any other
    local path is cut to its file name."""
    text = str(text).replace(ROOT + os.sep, "").replace(ROOT, ".")
    return LOCAL_PATH.sub(lambda m: "…/" + m.group(0).rstrip("/").rsplit("/", 1)[-1], text)


class Site:
    """Everything the pages need, read once from the dataset."""

    def __init__(self, dataset):
        self.dataset = dataset
        results, problems = dataset.results()
        self.problems = [(scrub(p[0]), scrub(p[1]), getattr(p, "scope", "file")) for p in problems]
        self.matrix = Matrix(results, dataset.cases())
        self.results = results
        self.companions, _ = dataset.results("versions")        # the columns only the versions pages read
        self.tables = collections.defaultdict(list)              # name -> [(api, code, text, source)]
        for row in dataset.query("SELECT api, code, name, text, source FROM statuses"):
            self.tables[row["name"]].append((row["api"], row["code"], row["text"], row["source"]))
        self.meanings = {row[0]: row[1] for row in dataset.query("SELECT name, meaning FROM meanings")}
        self.sticky = {row[0]: json.loads(row[1]) for row in dataset.query("SELECT status, entry FROM sticky")}
        self.framework = rows(dataset, "framework_messages")
        self.history = rows(dataset, "status_history")
        self.rules = [dict(r) for r in dataset.query("SELECT file, line, case_name, variant, step, expected FROM rules")]
        self.found = statuses(self.matrix)                       # status -> [(case, variant, step, surfaced, columns)]
        self.names = self._names()

    def _names(self):
        """Every status that a run, a rule or a lesson involves (a page each)."""
        names = set(self.found)
        for column in self.matrix.columns:
            for run in column.runs:
                first = (run.get("first_error") or {}).get("name")
                if first:
                    names.add(first)
        self.by_rule = collections.defaultdict(list)
        for rule in self.rules:
            for word in (rule["expected"] or "").split("|"):
                if word and word not in SUCCESS and not word.startswith("exit:") and word != "not-reached":
                    names.add(word)
                    self.by_rule[word].append(rule)
        self.by_lesson = collections.defaultdict(list)
        for name, case in self.matrix.cases.items():
            said = set(STATUS_WORD.findall(" ".join(case.sections.values())))
            for word in said - SUCCESS:
                if word.startswith("SIG"):
                    word = "signal:" + word
                if word in self.tables or word in self.found or word.startswith("signal:"):
                    self.by_lesson[word].append(name)
                    names.add(word)
        names |= set(self.sticky)
        return sorted(n for n in names if n not in SUCCESS)

    def href(self, name):
        return "status/%s.html" % anchor(name)

    def title(self, case):
        return self.matrix.cases[case].human_title if case in self.matrix.cases else case


# ---- a page per status ----------------------------------------------------------

def numbers_html(site, name):
    """Its number and printed text in each library table, one line per distinct (library, number, text)."""
    seen = collections.OrderedDict()
    for api, code, text, source in sorted(site.tables.get(name, []), key=lambda t: t[3]):
        seen.setdefault((api, code, text), []).append(source.replace(".tsv", ""))
    if not seen:
        return "<p class=note>No header table of this project lists it: it is the harness's own word.</p>" if \
            name in OWN_WORDS or name.startswith("signal:") else "<p class=note>No header table lists it.</p>"
    items = "".join("<tr><td>%s</td><td class=mono>%s</td><td>%s</td><td class=note>%s</td></tr>" % (
        e(LIBRARIES.get(api, api)), e(code), "<q>%s</q>" % e(text) if text else "<i>no text in this table</i>",
        e(", ".join(sources))) for (api, code, text), sources in seen.items())
    return ("<div class=wrap><table class=outcomes><tr><th>library</th><th>number</th><th>printed text "
            "(<code>cudaGetErrorString</code> and its kin)</th><th>table</th></tr>%s</table></div>" % items)


def meaning_of(site, name):
    if name in site.meanings:
        return site.meanings[name]
    if name in OWN_WORDS:
        return OWN_WORDS[name]
    if name.startswith("signal:"):
        return "The process was killed by %s." % name.replace("signal:", "")
    return None


def produced_html(site, name):
    places = site.found.get(name, [])
    matrix = site.matrix
    if not places:
        return "<p>No recorded run returned it.</p>"
    by_case = collections.OrderedDict()
    for case, variant, step, surfaced, columns in sorted(places, key=lambda p: (p[1] != "broken", p[0], p[2])):
        by_case.setdefault((case, variant), []).append((step, surfaced, columns))
    items = []
    for (case, variant), found in by_case.items():
        fix = matrix.cases[case].sections.get("fix", "") if case in matrix.cases else ""
        fix = re.sub(r"^The fix\s*:?\s*", "", fix).split("\n\n")[0]
        steps = "".join("<li>step <code>%s</code>, surfaced at the %s — %s</li>" % (
            e(step), e(surfaced), where_html(columns, matrix.columns)) for step, surfaced, columns in found[:6])
        if len(found) > 6:
            steps += "<li>and %d more steps</li>" % (len(found) - 6)
        items.append("<li><a href='../case/%s.html'>%s</a> <code class=note>%s</code> · <b>%s</b> variant<ul>%s</ul>%s</li>"
                     % (e(case), e(site.title(case)), e(case), e(variant), steps,
                        "<p class=note>The fix: %s</p>" % e(fix[:300] + ("…" if len(fix) > 300 else "")) if fix and
                        variant == "broken" else ""))
    return "<ul class=cases>%s</ul>" % "".join(items)


STICKY_PROPERTIES = [("context", "the CUDA context (the harness's probe: allocate, set, synchronize)"),
                     ("other_devices", "other devices"), ("new_cublas_handle", "a new cuBLAS handle (cublasCreate)")]


def sticky_html(site, name):
    entry = site.sticky.get(name)
    if not entry:
        return "<p>Not measured: no recorded run on a GPU had it as its first error.</p>"
    lines = []
    for key, what in STICKY_PROPERTIES:
        observed = entry.get(key) or {}
        if not observed:
            lines.append("<tr><th>%s</th><td class=note>not measured</td></tr>" % e(what))
            continue
        said = []
        for outcome in ("usable", "unusable", "not probed", "never made"):
            if outcome in observed:
                obs = observed[outcome]
                said.append("<b>%s</b> in %d run%s (cudart %s%s; then %s)" % (
                    e(outcome), obs["runs"], "" if obs["runs"] == 1 else "s", e(", ".join(obs.get("cudart") or ["?"])),
                    "; cuBLAS %s" % e(", ".join(obs["cublas"])) if [v for v in obs.get("cublas") or [] if v != "none"]
                    else "", e(", ".join(obs.get("statuses") or []))))
        lines.append("<tr><th>%s</th><td>%s</td></tr>" % (e(what), "<br>".join(said)))
    cases = ", ".join("<a href='../case/%s.html'>%s</a>" % (e(c), e(c)) for c in entry.get("cases", []))
    pytorch = ("PyTorch treats it as an asynchronous kernel error." if entry.get("pytorch_async") else
               "It is not in PyTorch's list of asynchronous kernel errors.")
    return ("<div class=wrap><table class=outcomes>%s</table></div><p>Shown by: %s.</p><p>%s%s</p>" % (
        "".join(lines), cases, e(pytorch), " <b>Disagrees:</b> %s." % e(entry["disagrees"]) if entry.get("disagrees") else ""))


def framework_html(site, name):
    found = [r for r in site.framework if r.get("wraps_status") == name]
    if not found:
        return "<p class=note>No framework message in the dataset wraps it.</p>"
    return "<ul>%s</ul>" % "".join(
        "<li><b>%s</b>: <pre class=wrapped>%s</pre>%s%s</li>" % (
            e(r.get("framework")), e(r.get("example") or r.get("pattern")), "<p>%s</p>" % e(r["meaning"]) if r.get("meaning")
            else "", "<p class=note>%s</p>" % pages.link_text(r["source"]) if r.get("source") else "") for r in found)


def history_html(site, name):
    found = [r for r in site.history if r.get("today") == name and r.get("name") != name]
    if not found:
        return ""
    return ("<h2>Its names in older toolkits</h2><div class=wrap><table class=outcomes><tr><th>name</th><th>number</th>"
            "<th>text</th><th>first</th><th>last</th><th>source</th></tr>%s</table></div>" % "".join(
                "<tr><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
                    e(r.get("name")), e(r.get("number")), e(r.get("string")), e(r.get("first_version")),
                    e(r.get("last_version")), pages.link_text(r.get("source") or "")) for r in found))


def status_page(site, name):
    meaning = meaning_of(site, name)
    rules = site.by_rule.get(name, [])
    lessons = [c for c in site.by_lesson.get(name, []) if c not in {p[0] for p in site.found.get(name, [])}]
    body = [
        "<p class=sub><code>%s</code>%s</p>" % (e(name), " · short name <code>%s</code>" % e(short(name))
                                              if short(name) != name else ""),
        "<h2>What it means</h2>%s" % ("<p>%s</p>" % e(meaning) if meaning else "<p class=note>No header comment.</p>"),
        numbers_html(site, name),
        "<h2>The mistakes that produce it</h2>", produced_html(site, name),
    ]
    if rules:
        cases = sorted({r["case_name"] for r in rules})
        body.append("<p>Expected by the rules of %s.</p>" % ", ".join(
            "<a href='../case/%s.html'>%s</a>" % (e(c), e(c)) for c in cases if c in site.matrix.family))
    if lessons:
        body.append("<p>Named in the lessons of %s.</p>" % ", ".join(
            "<a href='../case/%s.html'>%s</a>" % (e(c), e(c)) for c in sorted(lessons)))
    body += ["<h2>Is it sticky?</h2>", sticky_html(site, name),
             "<h2>What a framework prints</h2>", framework_html(site, name),
             history_html(site, name),
             "<p class=note><a href='../status.html'>Every status</a> · <a href='../search.html'>search a message</a></p>"]
    return page(name, "".join(body), depth=1)


def status_index_page(site):
    groups = collections.OrderedDict()
    for name in site.names:
        api = next((t[0] for t in site.tables.get(name, [])), None)
        group = LIBRARIES.get(api, "the harness's own: signals, timeouts, wrong results")
        groups.setdefault(group, []).append(name)
    parts = []
    for group in sorted(groups, key=lambda g: (g.startswith("the harness"), g)):
        items = []
        for name in groups[group]:
            code = next((t[1] for t in site.tables.get(name, [])), "")
            cases = len({p[0] for p in site.found.get(name, [])})
            entry = site.sticky.get(name) or {}
            lost = "unusable" in (entry.get("context") or {})
            items.append("<tr><th><a href='%s'>%s</a></th><td class=mono>%s</td><td>%s</td><td>%s</td></tr>" % (
                e(site.href(name)), e(name), e(code), cases or "–", "context lost" if lost else
                "context kept" if entry.get("context") else "not measured"))
        parts.append("<h2>%s</h2><div class=wrap><table class='outcomes keyed'><tr><th>status</th><th>number</th>"
                     "<th>cases</th><th>sticky?</th></tr>%s</table></div>" % (e(group), "".join(items)))
    intro = ("<p>Every status that a recorded run returned, a rule expects or a lesson names: %d in all. Each has a "
             "page: what it means, its number and printed text, the mistakes that produce it and where, whether the "
             "context survives it, and what frameworks print for it. Pasting an error line into the "
             "<a href='search.html'>search</a> finds it too.</p>" % len(site.names))
    return page("Every status", intro + "".join(parts), current="status.html")


# ---- what changed: an index and a page per comparison ----------------------------

def compare_name(left, right):
    return "compare/%s_vs_%s.html" % (anchor(left.id), anchor(right.id))


def compare_page(matrix, kind, left, right, why, changed):
    rows = "".join("<tr><th>%s</th><td class='k-%s'>%s</td><td class='k-%s'>%s</td></tr>" % (
        ("<a href='../case/%s.html'>%s</a> / %s" % (e(row.case), e(row.case), e(row.variant)) if row.step is None else
         "<span class=note>&nbsp;&nbsp;· step %s</span>" % e(pages.STEP_NAMES.get(row.step, row.step))),
        e(a.kind), e(a.text), e(b.kind), e(b.text)) for row, a, b in changed)
    skipped = sum(1 for row in matrix.rows if {row.cells[matrix.columns.index(left)].kind,
                                               row.cells[matrix.columns.index(right)].kind} & {"skipped", "not-run"})
    body = ("<p>%s. Left: %s. Right: %s.</p><p><b>%s.</b> %s</p>%s<p class=note><a href='../changes.html'>Every "
            "comparison</a></p>" % (
                e(why[:1].upper() + why[1:]), e(left.label), e(right.label), e(pages.changed_count(changed).capitalize()),
                "%d variants ran on only one side (skipped or not run there): those are not changes." % skipped
                if skipped else "",
                "<div class=wrap><table class='outcomes keyed'><tr><th>case / variant / step</th><th>%s</th><th>%s</th>"
                "</tr>%s</table></div>" % (e(left.label), e(right.label), rows) if rows else ""))
    return page("%s → %s" % (short_side(kind, left), short_side(kind, right)), body, depth=1)


def short_side(kind, column):
    return column.heading[3] if kind == "mode" else column.environment.get("cudart") if kind == "version" \
        else column.heading[0]


def change_pages(site):
    matrix = site.matrix
    titles = {"mode": "Run modes: the same GPU and runtime", "version": "Runtime versions: the same GPU and mode, older → newer",
              "gpu": "GPUs: the same runtime and mode"}
    files, sections = {}, collections.OrderedDict((k, []) for k in titles)
    for kind, left, right, why in comparisons(matrix):
        changed = differences(matrix, left, right)
        name = compare_name(left, right)
        files[name] = compare_page(matrix, kind, left, right, why, changed)
        sections[kind].append("<li><a href='%s'>%s → %s</a>: %s <span class=note>(%s; %s)</span></li>" % (
            e(name), e(short_side(kind, left)), e(short_side(kind, right)), e(pages.changed_count(changed)),
            e(left.heading[0] if kind != "gpu" else left.heading[2]), e(why)))
    body = ["<p>What differs between two environments that differ in one thing, one page per pair. Only real "
            "changes count: a variant skipped or not run on either side is not one. Versions along the runtime and "
            "cuBLAS, pinned to the last old and first new version: <a href='versions.html'>versions</a>. From a shell: "
            "<code>cuda-atlas report diff X Y</code>.</p>"]
    for kind, items in sections.items():
        if items:
            body.append("<h2>%s</h2><ul class=cases>%s</ul>" % (e(titles[kind]), "".join(items)))
    overlays = sum(len(c.overlay) for c in matrix.columns)
    if overlays:
        body.append("<p class=note>%d variants of the matrix come from a partial run laid over a complete one (marked Δ "
                    "there); the <a href='notes.html'>notes</a> list them.</p>" % overlays)
    # any two columns, picked in the page (the matrix's own data; assets/changes.js)
    columns = matrix.columns + matrix.pytorch
    options = "".join("<option value=%d>%s</option>" % (i, e(c.label)) for i, c in enumerate(columns))
    body.append("<h2 id=pick>Any two columns</h2><div class=filters><label>left <select id=pick-a>%s</select></label>"
                "<label>right <select id=pick-b>%s</select></label></div><div id=picked class=wrap></div>"
                "<script type=application/json id=atlas-data>%s</script>" % (
                    options, options.replace("value=1>", "value=1 selected>", 1), script_json(pages.matrix_data(matrix))))
    files["changes.html"] = page("What changed between environments", "".join(body), current="changes.html",
                                 script=pages.CHANGES_SCRIPT)
    return files


# ---- notes, the index, search -----------------------------------------------------

def notes_page(site):
    matrix = site.matrix
    parts = ["<p>What the dataset could not use, and the bookkeeping behind some cells. None of it changes a "
             "recorded outcome.</p>"]
    real = [p for p in site.problems if p[2] != "superseded"]
    replaced = [p for p in site.problems if p[2] == "superseded"]
    if real:
        parts.append("<h2>Results that could not be used</h2><ul>%s</ul>" % "".join(
            "<li><code>%s</code>: %s</li>" % (e(p[0]), e(p[1])) for p in real))
    if replaced:
        parts.append("<h2>Files a newer one replaces</h2><ul>%s</ul>" % "".join(
            "<li><code>%s</code>: %s</li>" % (e(p[0]), e(p[1])) for p in replaced))
    overlays = []
    for column in matrix.columns:
        for (case, variant), (old, new) in sorted(column.overlay.items()):
            cell = matrix.cell(column, case, variant)
            overlays.append("<tr><th><a href='case/%s.html'>%s</a> / %s</th><td>%s</td><td>%s</td><td>%s</td></tr>" % (
                e(case), e(case), e(variant), e(column.label),
                e(cell.changed[0].value if cell.changed and cell.changed[0] else "not run"), e(cell.value)))
    if overlays:
        parts.append("<h2>Changed by a partial run</h2><p class=note>A filtered run (ctest -R/-L) laid over the complete "
                     "run of its environment.</p><div class=wrap><table class='outcomes keyed'><tr><th>case / variant</th>"
                     "<th>environment</th><th>complete run (old)</th><th>partial run (new)</th></tr>%s</table></div>"
                     % "".join(overlays))
    if len(parts) == 1:
        parts.append("<p>Nothing to note.</p>")
    return page("Notes on the data", "".join(parts), current="notes.html")


def index_page(site):
    matrix = site.matrix
    gpus = sum(1 for c in matrix.columns if c.has_device)
    body = ("<p>A corpus of CUDA mistakes, each a small C program with a fixed and a broken variant, run on real GPUs "
            "and toolkits: what each mistake returns, where it surfaces, whether the context survives it, and how "
            "that changed across versions. %d cases in %d environments (%d with a GPU)%s.</p>"
            "<form class=search action='search.html' method=get role=search><label for=q>Paste an error line:</label>"
            "<input type=search id=q name=q placeholder='RuntimeError: CUDA error: an illegal memory access was "
            "encountered'><button type=submit>Find</button></form>"
            "<h2>Where to go</h2><ul class=cases>"
            "<li><a href='matrix.html'>The matrix</a>: every case variant in every environment</li>"
            "<li><a href='atlas.html'>Every case</a>, by family: the mistake, what you get, why, the fix</li>"
            "<li><a href='status.html'>Every status</a> (%d): what it means and the mistakes that produce it</li>"
            "<li><a href='changes.html'>What changed</a> between modes, runtimes and GPUs</li>"
            "<li><a href='versions.html'>Versions as ranges</a>: the last version with the old outcome, the first with "
            "the new</li>"
            "<li><a href='sticky.html'>What is sticky</a>: what still works after each status</li>"
            "<li><a href='notes.html'>Notes on the data</a></li></ul>") % (
        len(matrix.case_names), len(matrix.columns), gpus,
        ", with %d PyTorch mirrors" % len(matrix.pytorch) if matrix.pytorch else "", len(site.names))
    return page("cuda-error-atlas", body, current="index.html")


def search_index(site):
    """The small index search.js reads: statuses (name, number, texts, other names, whether it has a page), cases
    (name, title, the statuses their broken variant returns) and framework messages."""
    names = set(site.names)
    aliases = collections.defaultdict(set)
    for row in site.history:
        if row.get("today") and row.get("name") and row["name"] != row["today"]:
            aliases[row["today"]].add(row["name"])
    every = sorted(set(site.tables) | names)
    statuses_out = []
    for name in every:
        texts = sorted({t[2] for t in site.tables.get(name, []) if t[2]})
        code = next((t[1] for t in site.tables.get(name, []) if t[0] != "cuda" or "legacy" not in t[3]), None)
        entry = {"n": name, "c": code, "t": texts}
        if aliases.get(name):
            entry["a"] = sorted(aliases[name])
        if name in names:
            entry["p"] = 1
        if name in OWN_WORDS:
            entry["t"] = [OWN_WORDS[name]]
        statuses_out.append(entry)
    by_case = collections.defaultdict(set)
    for name, places in site.found.items():
        for case, variant, _, _, _ in places:
            if variant == "broken":
                by_case[case].add(name)
    cases = [{"n": name, "t": site.title(name), "s": sorted(by_case.get(name, ()))} for name in site.matrix.case_names]
    messages = [{"f": r.get("framework"), "x": r.get("example") or r.get("pattern"), "s": r.get("wraps_status")}
                for r in site.framework if r.get("example") or r.get("pattern")]
    return {"statuses": statuses_out, "cases": cases, "messages": messages}


def search_page():
    body = ("<form class=search action='search.html' method=get role=search><label for=q>Paste an error line, a status "
            "name or number, or a few words:</label><input type=search id=q name=q autofocus>"
            "<button type=submit>Find</button></form><div id=found aria-live=polite></div>"
            "<noscript><p>The search needs JavaScript; <a href='status.html'>every status</a> and "
            "<a href='atlas.html'>every case</a> are plain pages.</p></noscript>")
    return page("Search: which status, which mistake", body, current="search.html",
                scripts=["./search-index.js"], script="search.js")


# ---- the whole site ---------------------------------------------------------------------

def pages_of(site):
    matrix = site.matrix
    files = {}
    with pages.links(template="status/{}.html", matrix="matrix.html", nav=NAV):
        files["index.html"] = index_page(site)
        files["matrix.html"] = pages.matrix_html(matrix, site.problems, notes="notes.html")
        files["matrix.md"] = matrix_markdown(matrix)
        files["matrix.csv"] = matrix_csv(matrix)
        files["matrix.json"] = matrix_json(matrix, site.problems)
        files["atlas.html"] = atlas_index(matrix)
        for name in matrix.case_names:
            files["steps/%s.js" % name] = steps_script(matrix, name)
            files["case/%s.html" % name] = case_page(matrix, matrix.cases.get(name, name))
        files["status.html"] = status_index_page(site)
        for name in site.names:
            files[site.href(name)] = status_page(site, name)
        files.update(change_pages(site))
        files.update(atlas_versions.pages(atlas_versions.with_companions(site.results, site.companions)))
        files["notes.html"] = notes_page(site)
        index = search_index(site)
        files["search-index.json"] = json.dumps(index, separators=(",", ":"), ensure_ascii=False)
        files["search-index.js"] = "window.ATLAS_INDEX = %s;\n" % script_json(index)
        files["search.html"] = search_page()
    return files


def write(files, out):
    if os.path.isdir(out):
        shutil.rmtree(out)
    for name, text in files.items():
        path = os.path.join(out, *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(scrub(text))
    pages.copy_assets(out)


def build(out, dataset=None):
    """Write the site into out from the dataset (open_dataset() when none is given); returns the number of files."""
    site = Site(dataset or open_dataset())
    files = pages_of(site)
    write(files, out)
    return len(files)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="cuda-atlas site", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "site"))
    parser.add_argument("--dataset", help="the dataset to read (default: %s)" % default_path())
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        dataset = open_dataset(args.dataset)
    except RuntimeError as error:
        print("cuda-atlas site: %s" % error, file=sys.stderr)
        return 1
    opened = time.perf_counter()
    try:
        count = build(args.out, dataset)
    except OSError as error:
        print("cuda-atlas site: cannot write into %s: %s" % (args.out, error.strerror or error), file=sys.stderr)
        return 1
    print("site: %s (%d files; %.2f s from the dataset, %.2f s opening it)" % (
        os.path.join(args.out, "index.html"), count, time.perf_counter() - opened, opened - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
