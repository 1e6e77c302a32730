"""The compatibility matrix: rows are case / variant / step, columns are
environments; and its renderings (HTML, Markdown, CSV, JSON) and diffs."""
import csv
import html
import io
import json

from atlas_data import short

VARIANTS = ("fixed", "broken")


class Cell:
    """What one environment observed for one row."""
    __slots__ = ("value", "status", "details")

    def __init__(self, value, status, details=None):
        self.value = value      # the short form shown, e.g. "IllegalAddress"
        self.status = status    # match | differs | crashed | timeout | skipped | error | not-run | unreached | pytorch
        self.details = details or {}


NOT_RUN = Cell("not run", "not-run")


def _run_status(run):
    end = run.get("end", {})
    if run.get("verdict") == "skip":
        return "skipped"
    if run.get("verdict") == "error":
        return "error"
    if end.get("kind") == "timeout":
        return "timeout"
    if run.get("verdict") in ("mismatch", "flaky"):
        return "differs"
    if end.get("kind") == "signal":
        return "crashed"
    return "match"


def summary_cell(run):
    if run is None:
        return NOT_RUN
    end = run.get("end", {})
    first = run.get("first_error")
    if run.get("verdict") == "skip":
        value = "skipped"
    elif end.get("kind") in ("signal", "timeout"):
        value = end.get("outcome", "").replace("signal:", "")
    elif first:
        value = short(first.get("name", "?"))
    else:
        value = "ok"
    details = {
        "verdict": run.get("verdict"), "end": end.get("outcome"), "first error": first and "%s at %s (%s)" % (
            first.get("name"), first.get("step"), first.get("surfaced")),
        "context after": {True: "lost (sticky)", False: "usable", None: "not probed"}.get(run.get("sticky")),
        "library says": "; ".join(run.get("library_messages") or []) or None,
        "skipped because": run.get("skip_reason"), "mismatches": "; ".join(run.get("mismatches") or []) or None,
        "quantities": ", ".join("%s = %s %s" % (k, v.get("value"), v.get("unit")) for k, v in (run.get("quantities") or {}).items()) or None,
        "seconds": run.get("seconds"),
    }
    return Cell(value, _run_status(run), details)


def step_cell(run, step):
    if run is None:
        return NOT_RUN
    if step == "end":
        end = run.get("end", {})
        status = {"match": "match", "mismatch": "differs"}.get(end.get("verdict"), "match")
        if status == "match" and end.get("kind") == "signal":
            status = "crashed"
        if end.get("kind") == "timeout":
            status = "timeout"
        return Cell(end.get("outcome", "?").replace("signal:", ""), status,
                    {"expected": end.get("expected"), "rule": end.get("rule"), "stderr": (run.get("stderr_tail") or "")[-300:] or None})
    records = [s for s in run.get("steps", []) if s.get("step") == step]
    if not records:
        for missing in run.get("unreached", []):
            if missing.get("step") == step:
                return Cell("not reached", "differs" if missing.get("verdict") == "mismatch" else "unreached",
                            {"expected": missing.get("expected"), "rule": missing.get("rule"), "why": missing.get("verdict")})
        return Cell("not reached", "unreached")
    record = next((s for s in records if not s.get("success")), records[0])
    status = "differs" if record.get("verdict") == "mismatch" else "match"
    return Cell(short(record.get("name", "?")), status, {
        "call": record.get("call"), "status": "%s (%s)" % (record.get("name"), record.get("code")),
        "surfaced": record.get("surfaced"), "expected": record.get("expected"), "rule": record.get("rule"),
        "evidence": record.get("cite"), "recorded": len(records) if len(records) > 1 else None})


def pytorch_cell(run):
    if run is None:
        return NOT_RUN
    exception = run.get("exception")
    if not exception:
        return Cell("no error", "pytorch", {"torch": run.get("torch")})
    message = (run.get("message") or "").strip().splitlines()
    return Cell(exception.split(".")[-1] + ": " + (message[0] if message else ""), "pytorch",
                {"exception": exception, "message": run.get("message"), "raised at": run.get("where")})


class Matrix:
    def __init__(self, results, cases):
        self.columns = sorted((r for r in results if r.kind == "c"), key=lambda r: (r.group, r.id))
        self.pytorch = sorted((r for r in results if r.kind == "pytorch"), key=lambda r: r.id)
        self.cases = cases
        index = {r.id: {(run["case"], run["variant"]): run for run in r.runs} for r in results}
        self._index = index
        names = list(cases)
        for r in results:
            for run in r.runs:
                if run["case"] not in cases and run["case"] not in names:
                    names.append(run["case"])
        family = lambda name: cases[name].family if name in cases else next(
            (run.get("family", "") for r in results for run in r.runs if run["case"] == name), "")
        self.case_names = sorted(names, key=lambda n: (family(n), n))
        self.family = {name: family(name) for name in self.case_names}
        self.rows = list(self._rows())

    def run(self, results, case, variant):
        return self._index[results.id].get((case, variant))

    def _steps(self, case, variant):
        steps, end = [], False
        for column in self.columns:
            run = self.run(column, case, variant)
            if not run:
                continue
            for record in run.get("steps", []):
                interesting = not record.get("success") or record.get("rule")
                if interesting and record["step"] not in steps:
                    steps.append(record["step"])
            end = end or run.get("end", {}).get("outcome") != "exit:0" or bool(run.get("end", {}).get("rule"))
        return steps + (["end"] if end else [])

    def _rows(self):
        for case in self.case_names:
            for variant in VARIANTS:
                cells = [summary_cell(self.run(c, case, variant)) for c in self.columns]
                mirrors = [pytorch_cell(self.run(p, case, variant)) for p in self.pytorch]
                yield Row(case, variant, None, cells, mirrors, self)
                for step in self._steps(case, variant):
                    yield Row(case, variant, step, [step_cell(self.run(c, case, variant), step) for c in self.columns],
                              [], self)


class Row:
    def __init__(self, case, variant, step, cells, mirrors, matrix):
        self.case, self.variant, self.step = case, variant, step
        self.cells, self.mirrors = cells, mirrors
        # Disagreement among the GPUs: no-driver differs from everything by design.
        values = {cell.value for cell, column in zip(cells, matrix.columns) if column.has_device and cell.status != "not-run"}
        self.disagree = len(values) > 1

    @property
    def label(self):
        return " / ".join(x for x in (self.case, self.variant, self.step) if x)


# ---- renderings -------------------------------------------------------------

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;font-size:12px}th,td{border:1px solid #ccc;padding:2px 5px;vertical-align:top}
th{background:#f3f3f3;position:sticky;top:0}td.label{white-space:nowrap;font-family:monospace}
tr.summary td.label{font-weight:bold;border-top:2px solid #888}tr.step td.label{padding-left:2em;color:#555}
td.cell{cursor:pointer;white-space:nowrap;font-family:monospace}
.match{background:#dff3df}.differs{background:#f8c9c9}.crashed{background:#f4d4f4}.timeout{background:#f9e3b9}
.skipped{background:#e4e4f7}.error{background:#ffb0b0}.not-run{background:#eee;color:#999}.unreached{background:#f7f7f7;color:#888}
.pytorch{background:#e6f0fb;white-space:normal!important;min-width:18em}
tr.disagree td.label::before{content:"◆ ";color:#c00}
body.only-disagree tr.row:not(.disagree){display:none}
.details{display:none;white-space:pre-wrap;font-size:11px;background:#fff;border:1px solid #999;padding:4px;margin-top:3px;max-width:40em}
td.open .details{display:block}.legend span{padding:1px 6px;margin-right:4px}
.problems{background:#fff3cd;border:1px solid #d6b656;padding:.5em 1em}nav a{margin-right:1em}
pre{background:#f7f7f7;padding:.8em;overflow:auto}mark.fixed{background:#bfe8bf}mark.broken{background:#f4b5b5}
"""

SCRIPT = """
document.addEventListener('click', function (e) {
  var td = e.target.closest('td.cell'); if (td) td.classList.toggle('open');
});
function onlyDisagree(box) { document.body.classList.toggle('only-disagree', box.checked); }
"""

LEGEND = [("match", "matches its rules"), ("differs", "differs from its rules"), ("crashed", "process killed by a signal"),
          ("timeout", "timed out"), ("skipped", "skipped"), ("error", "harness error"), ("not-run", "not run"),
          ("unreached", "step not reached"), ("pytorch", "what PyTorch raised")]


def e(text):
    return html.escape("" if text is None else str(text), quote=True)


def page(title, body, depth=0):
    up = "../" * depth
    nav = ('<nav><a href="%sindex.html">matrix</a><a href="%satlas.html">atlas</a><a href="%sstatus.html">by status</a>'
           '<a href="%schanges.html">what changed</a></nav>' % (up, up, up, up))
    return ("<!doctype html><html><head><meta charset=utf-8><title>%s</title><style>%s</style></head>"
            "<body>%s<h1>%s</h1>%s<script>%s</script></body></html>" % (e(title), STYLE, nav, e(title), body, SCRIPT))


def problems_html(problems):
    if not problems:
        return ""
    items = "".join("<li><code>%s</code>: %s</li>" % (e(path), e(reason)) for path, reason in problems)
    return "<div class=problems><b>Results files left out:</b><ul>%s</ul></div>" % items


def cell_html(cell):
    details = "\n".join("%s: %s" % (k, v) for k, v in cell.details.items() if v not in (None, ""))
    return '<td class="cell %s" title="%s">%s<div class=details>%s</div></td>' % (
        cell.status, e(cell.status), e(cell.value), e(details))


def matrix_html(matrix, problems):
    columns = matrix.columns
    header = []
    for level in range(3):
        cells, previous = [], None
        for column in columns:
            key = column.group[:level + 1]
            if key == previous:
                cells[-1][1] += 1
            else:
                cells.append([key[-1], 1])
            previous = key
        row = "".join('<th colspan=%d>%s</th>' % (span, e(text)) for text, span in cells)
        extra = ""
        if matrix.pytorch:  # the PyTorch columns: a title, a blank, then each column's name
            extra = ["<th colspan=%d>PyTorch mirror</th>" % len(matrix.pytorch),
                     "<th colspan=%d></th>" % len(matrix.pytorch),
                     "".join("<th>%s</th>" % e(p.group[2] + " · " + p.group[0]) for p in matrix.pytorch)][level]
        header.append("<tr><th>%s</th>%s%s</tr>" % ("case / variant / step" if level == 2 else "", row, extra))
    ids = "<tr><th>results file</th>%s%s</tr>" % ("".join("<th><small>%s</small></th>" % e(c.id) for c in columns),
                                                   "".join("<th><small>%s</small></th>" % e(p.id) for p in matrix.pytorch))
    body_rows = []
    for row in matrix.rows:
        classes = "row %s%s" % ("summary" if row.step is None else "step", " disagree" if row.disagree else "")
        label = row.label if row.step is None else row.step
        link = '<a href="case/%s.html">%s</a>' % (e(row.case), e(label)) if row.step is None else e(label)
        mirrors = "".join(cell_html(c) for c in row.mirrors) if row.step is None else (
            "<td></td>" * len(matrix.pytorch))
        body_rows.append('<tr class="%s" id="%s"><td class=label>%s</td>%s%s</tr>' % (
            classes, e(row.label.replace(" / ", "--")), link, "".join(cell_html(c) for c in row.cells), mirrors))
    legend = "".join('<span class="%s">%s</span>' % (cls, e(text)) for cls, text in LEGEND)
    differing = sum(1 for r in matrix.rows if r.disagree)
    body = ("%s<p>%d cases, %d environments (%d with a GPU), %d PyTorch columns. Click a cell for its details. "
            "<label><input type=checkbox onchange='onlyDisagree(this)'> only the %d rows where GPU environments "
            "disagree (◆)</label></p><p class=legend>%s</p><table>%s%s%s</table>") % (
        problems_html(problems), len(matrix.case_names), len(columns), sum(1 for c in columns if c.has_device),
        len(matrix.pytorch), differing, legend, "".join(header), ids, "".join(body_rows))
    return page("cuda-error-atlas: compatibility matrix", body)


def matrix_markdown(matrix):
    columns = matrix.columns
    lines = ["| case | variant | %s |" % " | ".join("%s %s" % (c.group[0], c.group[2]) for c in columns),
             "|---|---|%s|" % "|".join("---" for _ in columns)]
    marks = {"match": "", "differs": " ✗", "crashed": " ☠", "timeout": " ⏱", "skipped": " (skip)", "error": " !",
             "not-run": "", "unreached": ""}
    for row in matrix.rows:
        if row.step is None:
            cells = ["%s%s" % (c.value, marks.get(c.status, "")) for c in row.cells]
            lines.append("| %s | %s | %s |" % (row.case, row.variant, " | ".join(cells)))
    return "\n".join(lines) + "\n"


def matrix_csv(matrix):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["case", "family", "variant", "step", "environment", "observed", "status"])
    for row in matrix.rows:
        for column, cell in zip(matrix.columns, row.cells):
            writer.writerow([row.case, matrix.family[row.case], row.variant, row.step or "", column.id, cell.value, cell.status])
        for column, cell in zip(matrix.pytorch, row.mirrors):
            writer.writerow([row.case, matrix.family[row.case], row.variant, "", column.id, cell.value, cell.status])
    return out.getvalue()


def matrix_json(matrix, problems):
    return json.dumps({
        "schema": "cuda-error-atlas/matrix/1",
        "environments": [dict(c.environment, column=c.id, path=c.path) for c in matrix.columns + matrix.pytorch],
        "left_out": [{"path": p, "reason": r} for p, r in problems],
        "rows": [{"case": row.case, "family": matrix.family[row.case], "variant": row.variant, "step": row.step,
                  "disagree": row.disagree,
                  "cells": {c.id: {"value": cell.value, "status": cell.status, "details": cell.details}
                            for c, cell in zip(matrix.columns + matrix.pytorch, row.cells + row.mirrors)}}
                 for row in matrix.rows],
    }, indent=1, default=str)


def differences(matrix, left, right):
    """Rows whose observed value differs between two columns: [(row, left cell, right cell)]."""
    columns = matrix.columns + matrix.pytorch
    i, j = columns.index(left), columns.index(right)
    changed = []
    for row in matrix.rows:
        cells = row.cells + row.mirrors
        if i < len(cells) and j < len(cells) and cells[i].value != cells[j].value:
            changed.append((row, cells[i], cells[j]))
    return changed


def changes_html(matrix, pairs):
    sections = []
    for left, right in pairs:
        changed = differences(matrix, left, right)
        rows = "".join("<tr><td class=label>%s</td><td class='cell %s'>%s</td><td class='cell %s'>%s</td></tr>" % (
            e(row.label), a.status, e(a.value), b.status, e(b.value)) for row, a, b in changed)
        sections.append("<h2>%s → %s</h2><p>%d rows differ.</p><table><tr><th>row</th><th>%s</th><th>%s</th></tr>%s</table>"
                        % (e(left.id), e(right.id), len(changed), e(left.id), e(right.id), rows))
    intro = ("<p>For two environments, the rows whose outcome differs, with both values. Any pair: "
             "<code>python3 reports/atlas.py diff X Y</code>.</p>")
    return page("What changed between environments", intro + "".join(sections))
