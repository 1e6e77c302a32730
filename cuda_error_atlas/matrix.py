"""The compatibility matrix as data: a row per case variant, a column per
environment, each cell the outcome of one run in a few characters; the steps
behind a row on demand; comparisons between columns. Plain text renderings
(Markdown, CSV, JSON) are here too; HTML is in atlas_pages.py."""
import csv
import functools
import re
import io
import json

from .results import SUCCESS, VARIANTS
from .version_numbers import version_key
from .libraries import STATUS_NAME
from .statuses import short

# What a cell can say, in the order of the legend. Each has a symbol, so that
# no meaning is carried by colour alone.
KINDS = [
    ("ok", "ok", "no error: every call succeeded and the process exited 0"),
    ("error", "", "the first error's status (short name) — returned at the call, the context still usable"),
    ("sticky", "†", "the context was lost (sticky error): every later call fails the same way"),
    ("wrong", "≠", "every call succeeded but the result was wrong"),
    ("exit", "exit", "the process exited non-zero without a failed call"),
    ("crashed", "☠", "the process was killed by a signal"),
    ("timeout", "⏱", "the process ran past its time limit"),
    ("skipped", "skip", "skipped here, with the reason in the drill-down"),
    ("harness", "!", "the harness could not run or judge the case"),
    ("unreadable", "?", "the results file has this run, but it could not be read (see the note at the top)"),
    ("not-run", "–", "not run in this environment"),
    ("unreached", "not reached", "the variant stopped before this step"),
]
MARKS = [
    ("@sync", "the error surfaced at a later synchronize, not at the call that caused it"),
    ("@query", "the error surfaced at a later query (cudaGetLastError, cudaPeekAtLastError)"),
    ("✗", "differs from the case's rules for this environment (a finding, or a rule to fix)"),
    ("≈", "flaky: repeated runs gave different outcomes"),
    ("Δ", "changed by a partial run (ctest -R/-L) laid over the complete one: old and new in the drill-down"),
]
SURFACED = {"synchronize": "@sync", "query": "@query"}


class Cell:
    """One environment's outcome for a row (a variant, or one step of it).
    value: the few characters shown; kind: one of KINDS; status: the status
    (or signal:NAME) it is about, for links; details: [(label, text)]."""
    __slots__ = ("value", "kind", "status", "_details", "changed", "note")

    def __init__(self, value, kind, status=None, details=None, changed=None):
        self.value, self.kind, self.status = value, kind, status
        self._details = details         # a list, or a function that makes it when first asked
        self.changed = changed          # (old Cell, partial Results) where a partial run changed it
        self.note = None                # the whole text, where the value is cut short

    @property
    def details(self):
        if callable(self._details):
            self._details = self._details()
        return self._details or []

    @details.setter
    def details(self, value):
        self._details = value

    @property
    def text(self):
        return ("Δ " if self.changed else "") + self.value

    @property
    def title(self):
        if not self.changed:
            return self.note
        old, partial = self.changed
        return "was %s in the complete run; %s in the partial run %s" % (old.value if old else "not run", self.value,
                                                                         partial.collected or partial.path)


NOT_RUN = Cell("–", "not-run")


def _mark(run):
    verdict = run.get("verdict")
    return "✗ " if verdict == "mismatch" or (run.get("end") or {}).get("verdict") == "mismatch" else (
        "≈ " if verdict == "flaky" or run.get("flaky") else "")


def summary_cell(run, invalid=None):
    """What one run of a variant came to, in a few characters."""
    if run is None:
        return Cell("?", "unreadable", None, [("could not be read", invalid)]) if invalid else NOT_RUN
    end = run.get("end") or {}
    first = run.get("first_error")
    outcome = end.get("outcome") or "?"
    status = None
    if run.get("verdict") == "skip":
        value, kind = "skip", "skipped"
    elif run.get("verdict") == "error":
        value, kind = "! harness", "harness"
    elif end.get("kind") == "timeout":
        value, kind, status = "⏱ timeout", "timeout", "timeout"
    elif end.get("kind") == "signal":
        value, kind, status = "☠ " + outcome.replace("signal:", ""), "crashed", outcome
    elif first and first.get("name") == "result_wrong":
        value, kind, status = "≠ wrong result", "wrong", "result_wrong"
    elif first:
        status = first["name"]
        value = short(status) + ("" if not SURFACED.get(first.get("surfaced")) else " " + SURFACED[first["surfaced"]])
        kind = "sticky" if run.get("sticky") else "error"
        if run.get("sticky"):
            value += " †"
    elif outcome not in ("exit:0", "?"):
        value, kind = outcome.replace(":", " "), "exit"
    else:
        value, kind = "ok", "ok"
    value = _mark(run) + value
    return Cell(value, kind, status, lambda: run_details(run))


CONTEXT_AFTER = {True: "lost (sticky)", False: "usable", None: "not probed"}


def run_details(run):
    """[(label, text)] of what a run recorded, the empty ones left out."""
    get = run.get
    end = get("end") or {}
    first = get("first_error")
    details = []
    for label, value in (("verdict", get("verdict")), ("ended", end.get("outcome"))):
        if value:
            details.append((label, str(value)))
    if first:
        details.append(("first error", "%s at step %s (surfaced at the %s)" % (
            first.get("name"), first.get("step"), first.get("surfaced") or "call")))
    context = CONTEXT_AFTER.get(get("sticky"))
    if context:
        details.append(("context after", context))
    for label, value in (("library said", "; ".join(get("library_messages") or ())),
                         ("skipped because", get("skip_reason")), ("harness error", get("error")),
                         ("differs from rules", "; ".join(get("mismatches") or ()))):
        if value:
            details.append((label, str(value)))
    quantities, truncated = get("quantities"), get("truncated")
    if quantities:
        details.append(("measured", ", ".join("%s = %s %s" % (k, v.get("value"), v.get("unit") or "")
                                              for k, v in quantities.items())))
    if truncated:
        details.append(("cut from the output", ", ".join("%s: %d bytes cut" % (k.replace("_", " "), v)
                                                         for k, v in truncated.items())))
    seconds = get("seconds")
    if seconds is not None and seconds != "":
        details.append(("seconds", str(seconds)))
    if end.get("kind") in ("signal", "timeout"):
        tail = (get("stderr_tail") or "")[-200:]
        if tail:
            details.append(("stderr ends", tail))
    return details


def _steps_of(run):
    """{step: (the record to show, how many, any mismatch, worth a row)} in
    the order the steps first ran; built once per run."""
    index = run.get("_steps_of")
    if index is None:
        index = {}
        for record in run.get("steps") or ():
            step, failed = record["step"], not record["success"]
            worth = failed or record.get("rule") is not None
            entry = index.get(step)
            if entry is None:
                index[step] = [record, 1, record.get("verdict") == "mismatch", worth]
            else:
                entry[1] += 1
                if worth:
                    entry[3] = True
                    if failed and entry[0]["success"]:
                        entry[0] = record
                    if record.get("verdict") == "mismatch":
                        entry[2] = True
        run["_steps_of"] = index
    return index


@functools.lru_cache(maxsize=4096)
def _step_value(name, success, surfaced, mismatch):
    """(the few characters a step's cell shows, whether it succeeded)."""
    ok = bool(success) or name in SUCCESS
    value = short(name) + ("" if ok or not SURFACED.get(surfaced) else " " + SURFACED[surfaced])
    return ("✗ " if mismatch else "") + value, ok


def step_cell(run, step):
    if run is None:
        return NOT_RUN
    if run.get("verdict") == "skip" and not run.get("steps"):
        return Cell("skip", "skipped", None, [("skipped", str(run.get("skip_reason") or ""))])
    if step == "end":
        end = run.get("end") or {}
        outcome = end.get("outcome") or "?"
        kind = {"signal": "crashed", "timeout": "timeout"}.get(end.get("kind"), "ok" if outcome == "exit:0" else "exit")
        mark = "✗ " if end.get("verdict") == "mismatch" else ""
        return Cell(mark + outcome.replace("signal:", "☠ "), kind, outcome if kind in ("crashed", "timeout") else None,
                    [(k, str(v)) for k, v in (("expected", end.get("expected")), ("rule", end.get("rule"))) if v])
    summary = _steps_of(run).get(step)
    if summary is None:
        for missing in run.get("unreached") or []:
            if missing.get("step") == step:
                return Cell(("✗ " if missing.get("verdict") == "mismatch" else "") + "not reached", "unreached", None,
                            [(k, str(v)) for k, v in (("expected", missing.get("expected")), ("rule", missing.get("rule"))) if v])
        return Cell("not reached", "unreached")
    record, count, mismatch, _ = summary
    name = record.get("name") or "?"
    value, ok = _step_value(name, record.get("success"), record.get("surfaced"), mismatch)
    def details():
        return [(k, str(v)) for k, v in (
            ("call", record.get("call")), ("status", "%s (%s)" % (name, record.get("code"))),
            ("surfaced at", record.get("surfaced")), ("expected", record.get("expected")), ("rule", record.get("rule")),
            ("evidence", record.get("cite")), ("recorded", count if count > 1 else None)) if v is not None]
    return Cell(value, "ok" if ok else "error", None if ok else name, details)


def pytorch_cell(run):
    if run is None:
        return NOT_RUN
    exception = run.get("exception")
    if not exception:
        return Cell("no error", "ok", None, [("returned", str(run.get("returncode")))])
    message = (run.get("message") or "").strip().splitlines()
    whole = exception.split(".")[-1] + ": " + (message[0] if message else "")
    cell = Cell(whole if len(whole) <= 60 else whole[:57] + "…", "error", None,
                [(k, v) for k, v in (("exception", exception), ("message", run.get("message")),
                                     ("raised at", run.get("where"))) if v])
    if len(whole) > 60:
        cell.note = whole
    return cell


class Row:
    """A case variant (step None) or one step of it."""

    def __init__(self, case, variant, step, cells, mirrors, matrix):
        self.case, self.variant, self.step = case, variant, step
        self.cells, self.mirrors = cells, mirrors
        self.family = matrix.family.get(case, "")
        # Disagreement among the GPUs (no driver differs from everything by design).
        values = {cell.value.lstrip("✗≈Δ ") for cell, device in zip(cells, matrix.device)
                  if device and cell.kind not in ("not-run", "unreadable", "skipped")}
        self.disagree = len(values) > 1

    @property
    def label(self):
        return " / ".join(x for x in (self.case, self.variant, self.step) if x)


class Matrix:
    def __init__(self, results, cases):
        c_columns = [r for r in results if r.kind == "c"]
        # this machine's run first, then the committed ones in reading order
        self.columns = sorted(c_columns, key=lambda r: (not r.here, r.sort_key))
        self.pytorch = sorted((r for r in results if r.kind == "pytorch"), key=lambda r: r.sort_key)
        self.device = [c.has_device for c in self.columns]          # has_device of each column, in column order
        self.labels = [c.label for c in self.columns]               # and its label
        self.cases = cases
        self._index = {r.id: {(run["case"], run["variant"]): run for run in r.runs} for r in results}
        names = list(cases)
        families = {}
        for r in results:
            for run in r.runs:
                if run["case"] not in cases:
                    if run["case"] not in families:
                        names.append(run["case"])
                    families.setdefault(run["case"], run.get("family") or "")
            for case, _ in r.invalid:
                if case not in cases and case not in families:
                    names.append(case)
                    families[case] = ""
        self.family = {n: cases[n].family if n in cases else families.get(n, "") for n in names}
        self.case_names = sorted(names, key=lambda n: (self.family[n], n))
        self._cells, self._steps_cache, self._outcomes = {}, {}, {}
        self.rows = [self._summary_row(case, variant) for case in self.case_names for variant in VARIANTS]

    def run(self, results, case, variant):
        return self._index[results.id].get((case, variant))

    def cell(self, column, case, variant):
        key = (column.id, case, variant)
        if key not in self._cells:
            self._cells[key] = self._cell(column, case, variant)
        return self._cells[key]

    def _cell(self, column, case, variant):
        run = self.run(column, case, variant)
        if column.kind == "pytorch":
            return pytorch_cell(run)
        cell = summary_cell(run, column.invalid.get((case, variant)))
        if (case, variant) in column.partial_invalid:
            cell.details = [("partial run unreadable", "%s: %s; the complete run's outcome is shown" % (
                column.overlay_from.path, column.partial_invalid[(case, variant)]))] + cell.details
        change = column.overlay.get((case, variant))
        if change:
            old = summary_cell(change[0]) if change[0] is not None else None
            cell.changed = (old, column.overlay_from)
            cell.details = [("changed by a partial run", "was %s in %s; now %s in %s%s" % (
                old.value if old else "not run", column.path, cell.value, column.overlay_from.path,
                " (collected %s)" % column.overlay_from.collected if column.overlay_from.collected else ""))] + cell.details
        return cell

    def _summary_row(self, case, variant):
        return Row(case, variant, None, [self.cell(c, case, variant) for c in self.columns],
                   [self.cell(p, case, variant) for p in self.pytorch], self)

    def steps(self, case, variant, runs=None):
        """The steps worth a row: those that fail somewhere or that a rule names."""
        steps, end = [], False
        for run in runs if runs is not None else [self.run(c, case, variant) for c in self.columns]:
            if not run:
                continue
            for step, entry in _steps_of(run).items():
                if entry[3] and step not in steps:
                    steps.append(step)
            for missing in run.get("unreached") or []:
                if missing["step"] not in steps:
                    steps.append(missing["step"])
            end = end or (run.get("end") or {}).get("outcome") != "exit:0" or bool((run.get("end") or {}).get("rule"))
        return steps + (["end"] if end else [])

    def step_rows(self, case, variant):
        key = (case, variant)
        if key not in self._steps_cache:
            runs = [self.run(c, case, variant) for c in self.columns]
            self._steps_cache[key] = [Row(case, variant, step, [step_cell(run, step) for run in runs], [], self)
                                      for step in self.steps(case, variant, runs)]
        return self._steps_cache[key]

    def disagrees(self, row):
        return row.disagree or any(r.disagree for r in self.step_rows(row.case, row.variant))

    def outcomes(self, case, variant, columns=None):
        """[(Cell, [columns])]: the distinct outcomes of a variant and where
        each was recorded, in column order."""
        key = (case, variant, tuple(c.id for c in columns) if columns else None)
        if key not in self._outcomes:
            self._outcomes[key] = self._group_outcomes(case, variant, columns)
        return self._outcomes[key]

    def _group_outcomes(self, case, variant, columns):
        groups = []
        for column in columns or self.columns:
            cell = self.cell(column, case, variant)
            if cell.kind == "not-run":
                continue
            key = (cell.value, cell.kind)
            for group in groups:
                if group[0] == key:
                    group[2].append(column)
                    break
            else:
                groups.append([key, cell, [column]])
        return [(cell, columns) for _, cell, columns in groups]


# ---- comparisons -------------------------------------------------------------

class Change:
    def __init__(self, row, left, right):
        self.row, self.left, self.right = row, left, right

    def __iter__(self):        # (row, left cell, right cell)
        return iter((self.row, self.left, self.right))


# A cell that says nothing about behaviour: a variant not run, or skipped, on one side is not a change.
NO_OUTCOME = ("skipped", "not-run", "unreadable")


def differences(matrix, left, right):
    """Rows (variants, then their steps) whose outcome differs between two columns, where both ran it: a variant
    skipped or not run on either side (a column without cuBLAS, a filtered run) is not a change."""
    columns = matrix.columns + matrix.pytorch
    i, j = columns.index(left), columns.index(right)
    changed = []
    for row in matrix.rows:
        cells = row.cells + row.mirrors
        if cells[i].kind in NO_OUTCOME or cells[j].kind in NO_OUTCOME:
            continue
        if cells[i].value.lstrip("Δ ") != cells[j].value.lstrip("Δ "):
            changed.append(Change(row, cells[i], cells[j]))
        if i < len(matrix.columns) and j < len(matrix.columns):
            for step in matrix.step_rows(row.case, row.variant):
                if step.cells[i].value != step.cells[j].value and not (
                        step.cells[i].kind in NO_OUTCOME or step.cells[j].kind in NO_OUTCOME):
                    changed.append(Change(step, step.cells[i], step.cells[j]))
    return changed


def changed_variants(changes):
    """How many variants a list of differences() touches (a variant and its steps count once)."""
    return len({(change.row.case, change.row.variant) for change in changes})


def comparisons(matrix):
    """[(title, older or first column, newer or second column, why)]: the
    pairs worth reading. Same GPU and runtime across modes; the same GPU and
    mode across runtime versions (in version order, older first); the same
    runtime and mode across GPUs; a partial column against nothing (its
    changes are shown in place)."""
    columns = [c for c in matrix.columns if c.id == c.environment.get("id")]  # not repeats or history files
    env = lambda c, *keys: tuple(c.environment.get(k) for k in keys)          # noqa: E731
    pairs = []
    by_stack = {}
    for c in columns:
        by_stack.setdefault(env(c, "gpu", "devices", "driver", "cudart", "cublas"), []).append(c)
    for stack in by_stack.values():
        base = next((c for c in stack if (c.environment.get("mode") or "default") == "default"), None)
        for c in stack:
            if base is not None and c is not base:
                pairs.append(("mode", base, c, "the same GPU and runtime, run mode %s against default"
                              % (c.environment.get("mode") or "?")))
    by_gpu_mode = {}
    for c in columns:
        by_gpu_mode.setdefault(env(c, "gpu", "devices", "driver", "mode"), []).append(c)
    for same in by_gpu_mode.values():
        ordered = sorted(same, key=lambda c: (version_key(c.environment.get("cudart") if c.environment.get("cudart") != "none"
                                                          else c.environment.get("cudart_header")),
                                              version_key(c.environment.get("cublas"))))
        for older, newer in zip(ordered, ordered[1:]):
            runtime = older.environment.get("cudart") != newer.environment.get("cudart")
            blas = older.environment.get("cublas") != newer.environment.get("cublas")
            what = "an older runtime (left) against a newer one (right)" if runtime and not blas else \
                "the same runtime with another cuBLAS" if blas and not runtime else \
                "an older runtime and cuBLAS (left) against newer ones (right)"
            pairs.append(("version", older, newer, "the same GPU and mode, " + what))
    by_runtime = {}
    for c in columns:
        if c.has_device:
            by_runtime.setdefault(env(c, "cudart", "cublas", "mode"), []).append(c)
    for same in by_runtime.values():
        for a, b in zip(same, same[1:]):
            pairs.append(("gpu", a, b, "the same runtime and mode on another GPU"))
    return pairs


# ---- plain renderings ----------------------------------------------------------

def legend_text():
    return ["%s %s" % (symbol or "NAME", meaning) for _, symbol, meaning in KINDS] + \
           ["%s %s" % (symbol, meaning) for symbol, meaning in MARKS]


def matrix_markdown(matrix):
    columns = matrix.columns
    def label(c):
        return ("**this machine:** " if c.here else "") + c.label
    lines = ["# cuda-error-atlas: compatibility matrix", "",
             "One row per case variant; each cell is the first error, where it surfaced and whether the context "
             "survived. Symbols:", ""]
    lines += ["- %s" % line.replace("|", "\\|") for line in legend_text()]
    lines += ["", "| case | variant | %s |" % " | ".join(label(c).replace("|", "\\|") for c in columns),
              "|---|---|%s|" % "|".join("---" for _ in columns)]
    for row in matrix.rows:
        cells = [c.text.replace("|", "\\|") for c in row.cells]
        lines.append("| %s | %s | %s |" % (row.case, row.variant, " | ".join(cells)))
    return "\n".join(lines) + "\n"


def matrix_csv(matrix):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["case", "family", "variant", "step", "environment", "observed", "kind", "status"])
    ids = [c.id for c in matrix.columns]

    def lines():
        for row in matrix.rows:
            case, family, variant = row.case, row.family, row.variant
            for i, c in zip(ids, row.cells):
                yield case, family, variant, "", i, c.text, c.kind, c.status or ""
            for c, x in zip(matrix.pytorch, row.mirrors):
                yield case, family, variant, "", c.id, x.text, x.kind, ""
            for step in matrix.step_rows(case, variant):
                for i, c in zip(ids, step.cells):
                    yield case, family, variant, step.step, i, c.text, c.kind, c.status or ""
    writer.writerows(lines())
    return out.getvalue()


def matrix_json(matrix, problems):
    def cell(c, details=True):
        out = {"value": c.text, "kind": c.kind}
        if c.status:
            out["status"] = c.status
        if details and c.kind not in ("ok", "not-run") and c.details:   # an ok cell's details say only ok
            out["details"] = dict(c.details)
        return out
    return json.dumps({
        "schema": "cuda-error-atlas/matrix/2",
        "environments": [dict(c.environment, column=c.id, label=c.label, path=c.path, this_machine=c.here,
                              partial=c.partial, coverage=c.coverage) for c in matrix.columns + matrix.pytorch],
        "left_out": [{"path": p[0], "reason": p[1], "scope": getattr(p, "scope", "file")} for p in problems],
        "rows": [{"case": row.case, "family": row.family, "variant": row.variant, "disagree": matrix.disagrees(row),
                  "cells": {c.id: cell(x) for c, x in zip(matrix.columns + matrix.pytorch, row.cells + row.mirrors)},
                  "steps": [s.step for s in matrix.step_rows(row.case, row.variant)]}
                 for row in matrix.rows],
        "steps": "matrix.csv has every step's cell",
    }, indent=None, separators=(",", ":"), default=str)


# ---- lessons against the data --------------------------------------------------

# What a program can be seen to get back, by library: the runtime's
# cudaSuccess/cudaError*, the driver API's CUDA_*, cuBLAS, cuSOLVER, cuFFT
# (cufftResult only, not CUFFT_R2C or CUFFT_FORWARD), cuRAND, cuSPARSE, cuDNN, NCCL (ncclResult_t
# only, not ncclAllReduce) and a signal. A function name (cudaMalloc) is not one.
STATUS_WORD = re.compile(r"\b(%s|SIG[A-Z]{2,})\b" % STATUS_NAME)
# A lesson's "What the program sees", up to the colon that ends its title; the
# title may name the environments in parentheses, which may nest once.
SEES_TITLE = re.compile(r"What the program sees\s*(?:\((?:[^()]|\([^()]*\))*\))?\s*:?\s*")
VAGUE = re.compile(r"\bthe recorded (?:status(?:es)?|outcome|fault|error)\b", re.I)


def stale_lessons(matrix):
    """[(case source, problem)]: where a lesson's prose says less than, or
    other than, the recorded results. The case pages show the data either
    way; this is for whoever edits the headers."""
    found = []
    for name in matrix.case_names:
        case = matrix.cases.get(name)
        if case is None:
            continue
        mirrored = any(matrix.run(p, name, v) for p in matrix.pytorch for v in VARIANTS)
        said = case.sections.get("pytorch", "")
        if mirrored and re.search(r"not recorded|no mirror", said, re.I):
            found.append((case.source_path, "stale: the PyTorch paragraph says \"%s\", but a PyTorch mirror result is recorded"
                          % re.search(r"[^.(]*(?:not recorded|no mirror)[^.)]*", said, re.I).group(0).strip()))
        sees = case.sections.get("sees", "")
        title = SEES_TITLE.match(sees)
        body = sees[title.end():] if title else sees
        if sees and not STATUS_WORD.search(body) and not re.search(r"wrong|no error|succeed", body, re.I):
            found.append((case.source_path, "vague: \"What the program sees\" names no status, signal or wrong result: \"%s\""
                          % body[:90].strip()))
        elif sees and VAGUE.search(body):
            found.append((case.source_path, "vague: \"What the program sees\" says \"%s\" instead of naming it"
                          % VAGUE.search(body).group(0)))
    return found
