"""The teaching atlas: a page per case and an index by status code."""
import collections

from atlas_data import SECTIONS, SUCCESS
from atlas_matrix import e, page, pytorch_cell, summary_cell

SECTION_TITLES = dict(SECTIONS)


def _paragraphs(text, prefix=""):
    if prefix and text.startswith(prefix):
        text = text[len(prefix):].lstrip(":").lstrip()  # the heading already says it
    return "".join("<p>%s</p>" % e(p) for p in text.split("\n\n"))


def _source_html(case):
    marks = {number: variant for variant, (number, _) in case.variant_lines().items()}
    lines = []
    header_end = case.source.find("*/")
    first = case.source[:header_end].count("\n") + 2 if header_end >= 0 else 1  # the lesson is shown above
    for number, text in enumerate(case.source.splitlines(), 1):
        if number < first:
            continue
        if number in marks:
            lines.append('<mark class=%s>%s</mark>   ← the %s variant' % (marks[number], e(text), marks[number]))
        else:
            lines.append(e(text))
    return "<pre>%s</pre>" % "\n".join(lines)


def _outcomes_table(matrix, name):
    rows = []
    for column in matrix.columns:
        cells = []
        for variant in ("fixed", "broken"):
            run = matrix.run(column, name, variant)
            cell = summary_cell(run)
            surfaced = run and run.get("first_error") and run["first_error"].get("surfaced")
            sticky = run and {True: "context lost", False: "", None: ""}.get(run.get("sticky"))
            library = run and "; ".join(run.get("library_messages") or [])
            extra = ", ".join(x for x in (surfaced and "at the " + surfaced, sticky, library) if x)
            cells.append("<td class='cell %s'>%s<br><small>%s</small></td>" % (cell.status, e(cell.value), e(extra)))
        rows.append("<tr><td>%s<br><small>%s</small></td>%s</tr>" % (e(" · ".join(column.group)), e(column.id), "".join(cells)))
    return ("<table><tr><th>environment</th><th>fixed</th><th>broken</th></tr>%s</table>" % "".join(rows))


def _pytorch_html(matrix, case):
    recorded = [(column, matrix.run(column, case.name, "broken"), matrix.run(column, case.name, "fixed"))
                for column in matrix.pytorch]
    recorded = [r for r in recorded if r[1] or r[2]]
    if not recorded:
        said = case.sections.get("pytorch", "")
        return ("<p><i>No PyTorch mirror: no PyTorch program makes this mistake the same way.</i></p>%s"
                % _paragraphs(said))
    parts = []
    for column, broken, fixed in recorded:
        b, f = pytorch_cell(broken), pytorch_cell(fixed)
        parts.append("<p><b>%s</b> (%s): the fixed program: %s; the broken one raises:</p><pre style='white-space:pre-wrap'>%s</pre>" % (
            e(column.group[2]), e(column.group[0]), e(f.value),
            e((broken or {}).get("exception") and "%s: %s" % (broken["exception"], broken.get("message")) or "nothing")))
    parts.append("<details><summary>the mirror, <code>%s</code></summary><pre>%s</pre></details>"
                 % (e(case.mirror_path), e(case.mirror_source)))
    return "".join(parts)


def case_page(matrix, case):
    lesson = "".join("<h3>%s</h3>%s" % (e(SECTION_TITLES[key]), _paragraphs(case.sections[key], SECTION_TITLES[key]))
                     for key, _ in SECTIONS if key in case.sections and key != "pytorch")
    c_side = _outcomes_table(matrix, case.name)
    body = ("<p><b>%s</b> — family <code>%s</code>, <code>%s</code></p>"
            "<h2>The lesson</h2>%s"
            "<h2>What the C API returns, and what PyTorch says</h2><div style='display:flex;gap:2em;flex-wrap:wrap'>"
            "<div><h3>C / CUDA / cuBLAS</h3>%s</div><div style='max-width:40em'><h3>PyTorch</h3>%s</div></div>"
            "<h2>The source</h2>%s%s") % (
        e(case.title), e(case.family), e(case.source_path), lesson, c_side, _pytorch_html(matrix, case),
        "<p>%s</p>" % e(" ".join(case.markers)) if case.markers else "", _source_html(case))
    return page(case.name, body, depth=1)


def atlas_index(matrix):
    by_family = collections.defaultdict(list)
    for name in matrix.case_names:
        by_family[matrix.family[name]].append(name)
    parts = []
    for family in sorted(by_family):
        items = "".join('<li><a href="case/%s.html">%s</a> — %s</li>' % (
            e(n), e(n), e(matrix.cases[n].title.split("—", 1)[-1].strip() if n in matrix.cases else ""))
            for n in by_family[family])
        parts.append("<h2>%s</h2><ul>%s</ul>" % (e(family), items))
    return page("The atlas: every case", "".join(parts))


def statuses(matrix):
    """{status name: [(case, variant, step, surfaced, [column ids])]} for every
    non-success status any environment recorded."""
    seen = collections.defaultdict(lambda: collections.defaultdict(list))
    for column in matrix.columns:
        for run in column.runs:
            for record in run.get("steps", []):
                if record.get("name") not in SUCCESS:
                    key = (run["case"], run["variant"], record["step"], record.get("surfaced"))
                    if column.id not in seen[record["name"]][key]:
                        seen[record["name"]][key].append(column.id)
            end = run.get("end", {})
            if end.get("kind") in ("signal", "timeout"):
                key = (run["case"], run["variant"], "end", "process")
                if column.id not in seen[end["outcome"]][key]:
                    seen[end["outcome"]][key].append(column.id)
    return {name: [k + (v,) for k, v in places.items()] for name, places in seen.items()}


def status_index(matrix, status_table):
    texts = {name: text for _, _, name, text in status_table}
    parts, toc = [], []
    for name, places in sorted(statuses(matrix).items()):
        toc.append('<a href="#%s">%s</a>' % (e(name), e(name)))
        cases = []
        for case, variant, step, surfaced, columns in sorted(places):
            fix = matrix.cases[case].sections.get("fix", "") if case in matrix.cases else ""
            cases.append("<tr><td><a href='case/%s.html'>%s</a></td><td>%s</td><td>%s</td><td>%s</td><td><small>%s</small></td><td>%s</td></tr>" % (
                e(case), e(case), e(variant), e(step), e(surfaced), e(", ".join(columns)), e(fix.replace("The fix:", "").strip())))
        parts.append("<h2 id='%s'>%s</h2><p><i>%s</i></p><table><tr><th>case</th><th>variant</th><th>step</th>"
                     "<th>surfaced at</th><th>where observed</th><th>the fix</th></tr>%s</table>"
                     % (e(name), e(name), e(texts.get(name, "")), "".join(cases)))
    return page("Every status code, and the cases that produce it", "<p>%s</p>%s" % (" · ".join(toc), "".join(parts)))
