"""explain: from an error as a user sees it to the cases that reproduce it.

Input is a PyTorch error line, a status name or number, or a cuBLAS
"On entry to SGEMM parameter number 8 had an illegal value" line. Evidence,
strongest first: the same message recorded from a PyTorch mirror; the same
cuBLAS parameter line recorded by a case; a status the text names (by name,
by number, or by the text the CUDA and cuBLAS libraries print for it)
observed in a case's broken variant on a GPU; the same in other places.
"""
import collections
import difflib
import re

ON_ENTRY = re.compile(r"On entry to\s+(\S+)\s+parameter number\s+(\d+)", re.I)
STATUS_NAME = re.compile(r"\b(cuda(?:Error)?[A-Z]\w+|CUBLAS_STATUS_\w+|CUDA_ERROR_\w+)\b")


def _normalize(text):
    text = re.sub(r"0x[0-9a-f]+|\d+(\.\d+)?", "N", text.lower())
    return re.sub(r"\s+", " ", text).strip()


class Cause:
    """A case, and the evidence that it is what the user hit."""

    def __init__(self, case):
        self.case = case
        self.best = {}                                    # kind of evidence -> its best score
        self.evidence = collections.OrderedDict()         # what was seen -> where

    def add(self, kind, score, seen, where):
        self.best[kind] = max(score, self.best.get(kind, 0))
        self.evidence.setdefault(seen, [])
        if where not in self.evidence[seen]:
            self.evidence[seen].append(where)

    @property
    def score(self):
        # the strongest kind of evidence leads; each other kind adds a little
        scores = sorted(self.best.values(), reverse=True)
        return scores[0] + 0.1 * sum(scores[1:]) if scores else 0.0

    @property
    def reasons(self):
        return ["%s — %s" % (seen, ", ".join(where)) for seen, where in self.evidence.items()]


def _where(column):
    gpu, _, mode = column.group
    return "%s %s" % (gpu.replace("NVIDIA ", ""), mode)


def recognised_statuses(text, status_table):
    """[(name, how)] the text names: by name, by the library's own text, or by number."""
    found = collections.OrderedDict()
    for name in STATUS_NAME.findall(text):
        if any(name == n for _, _, n, _ in status_table) or name in ("CUDA_SUCCESS",):
            found.setdefault(name, "named")
    lowered = text.lower()
    for api, code, name, message in sorted(status_table, key=lambda row: -len(row[3])):
        if len(message) >= 12 and message.lower() in lowered and name not in found:
            found[name] = 'its text, "%s"' % message
    bare = re.fullmatch(r"\s*(?:(?:error|status|code)\s*)?(-?\d+)\s*", text, re.I)
    if bare:
        number = int(bare.group(1))
        for api, code, name, message in status_table:
            if code == number:
                found.setdefault(name, "number %d in the %s API" % (number, "CUDA runtime" if api == "cuda" else "cuBLAS"))
    return list(found.items())


def explain(text, matrix, status_table, limit=8):
    causes = {}

    def cause(case):
        if case not in causes:
            causes[case] = Cause(case)
        return causes[case]

    # 1. a PyTorch message recorded from a mirror
    wanted = _normalize(text)
    for column in matrix.pytorch:
        for run in column.runs:
            message = run.get("message")
            if not message or run.get("variant") != "broken":
                continue
            first = _normalize(message.splitlines()[0])
            ratio = 1.0 if first and (first in wanted or wanted in first and len(wanted) > 20) else \
                difflib.SequenceMatcher(None, first, wanted).ratio()
            if ratio >= 0.6:
                cause(run["case"]).add("pytorch", 100 * ratio, "PyTorch raised it in the case's mirror: %s: %s" % (
                    run.get("exception"), message.splitlines()[0]), _where(column))

    # 2. a cuBLAS parameter line
    entry = ON_ENTRY.search(text)
    if entry:
        function, number = entry.group(1).upper(), entry.group(2)
        for column in matrix.columns:
            for run in column.runs:
                for line in run.get("library_messages") or []:
                    seen = ON_ENTRY.search(line)
                    if seen and seen.group(2) == number:
                        same = seen.group(1).upper() == function
                        said = run["case"] in matrix.cases and "parameter number %s" % number in matrix.cases[run["case"]].source
                        cause(run["case"]).add("library", (90 if same else 30) + (5 if said else 0),
                                               "cuBLAS printed \"%s\"" % line, _where(column))

    # 3. statuses the text names
    statuses = recognised_statuses(text, status_table)
    seen_in = collections.defaultdict(set)
    for name, _ in statuses:
        for column in matrix.columns:
            for run in column.runs:
                for record in run.get("steps", []):
                    if record.get("name") == name:
                        seen_in[name].add(run["case"])
    functions = set(re.findall(r"\b(cu\w+|cublas\w+)\s*\(", text))
    for name, how in statuses:
        rarity = 1.0 / max(1, len(seen_in[name])) ** 0.5  # a status few cases produce says more
        for column in matrix.columns:
            for run in column.runs:
                for record in run.get("steps", []):
                    # the probe is the harness's own question, not what the user did
                    if record.get("name") != name or record.get("step") == "probe":
                        continue
                    lesson = run["variant"] == "broken" and column.has_device
                    score = (60 if lesson else 15) + 25 * rarity
                    call = record.get("call", "")
                    if any(call.startswith(f) for f in functions):
                        score += 15
                    if run["case"] in matrix.cases and name in matrix.cases[run["case"]].source[:4000]:
                        score += 10
                    cause(run["case"]).add("status", score, "%s from %s at step %s of the %s variant" % (
                        name, call.split("(")[0], record.get("step"), run["variant"]), _where(column))
    # 4. lessons that discuss the status, also where no recorded run produced it
    #    (CUDA 13 no longer returns some codes the usual answers quote)
    texts = {name: message for _, _, name, message in status_table}
    for name, _ in statuses:
        for case in matrix.cases.values():
            lesson = " ".join(case.sections.values())
            if name in lesson or (len(texts.get(name, "")) >= 12 and texts[name] in lesson):
                cause(case.name).add("lesson", 40 if not seen_in[name] else 20,
                                     "its lesson discusses %s (\"%s\")" % (name, texts.get(name, "")), "the case's header")
    ranked = sorted(causes.values(), key=lambda c: (-c.score, c.case))[:limit]
    return statuses, ranked


def format_explanation(text, statuses, ranked, matrix, status_table, report_dir=None):
    texts = {name: message for _, _, name, message in status_table}
    lines = ["explain: %s" % text.strip().splitlines()[0] if text.strip() else "explain: (empty)"]
    if statuses:
        lines.append("recognised: " + "; ".join("%s (%s) — \"%s\"" % (n, how, texts.get(n, "")) for n, how in statuses))
    if not ranked:
        lines.append("no recorded case reproduces this; try the status name alone")
    for name, _ in statuses:
        if not any(reason.startswith(name + " from ") for c in ranked for reason in c.reasons):
            lines.append("note: no recorded environment returned %s; the cases below discuss it" % name)
    for i, c in enumerate(ranked, 1):
        case = matrix.cases.get(c.case)
        title = case.title.split("—", 1)[-1].strip() if case else ""
        lines.append("\n%d. %s (%s) — %s" % (i, c.case, matrix.family.get(c.case, ""), title))
        for reason in c.reasons[:3]:
            lines.append("   seen: " + reason)
        if case and "fix" in case.sections:
            lines.append("   fix: " + case.sections["fix"].replace("The fix:", "").strip().split("\n\n")[0])
        if report_dir:
            lines.append("   atlas: %s/case/%s.html" % (report_dir, c.case))
    return "\n".join(lines)
