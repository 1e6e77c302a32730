"""The one Python reader of expected/*.rules, and the one condition evaluator.

harness/rules.c is the authority (the runner judges with it); this module
follows the same grammar (expected/README.md), and tests/test_rules_agree.py
checks on every committed rule that both parsers read the same thing
(`atlas-run lint --json`) and that both evaluate conditions alike.

    CASE  VARIANT  STEP  EXPECTED  [CONDITION ...]  cite=EVIDENCE
"""
import os
import re

from .libraries import RULE_PREFIXES
from .version_numbers import compare_versions

# Fingerprint fields a condition may name: True for versions (ordered dotted
# numbers), False for words (=, != and ~ only). The same list as rules.c.
FIELDS = {
    "driver": True, "cuda": True, "cudart": True, "cudart_header": True, "cublas": True, "cublas_header": True,
    "cc": True, "devices": True, "memory_bytes": True,
    "gpu": False, "pageable": False, "pageable_uses_host_page_tables": False, "module_loading": False,
    "mode": False, "os": False, "arch": False, "kernel": False, "driver_source": False,
    "env.CUDA_LAUNCH_BLOCKING": False, "env.CUDA_MODULE_LOADING": False, "env.CUBLAS_WORKSPACE_CONFIG": False,
    "env.CUDA_VISIBLE_DEVICES": False,
}
OPERATORS = ("!=", ">=", "<=", "=", ">", "<", "~")     # tried in this order at each position, as rules.c does
MAX_CONDITIONS = 8
# sizes of rules.c's fields: a longer token is an error there, so it is here
LIMITS = {"case": 95, "variant": 15, "step": 63, "expected": 255, "field": 47, "value": 95, "cite": 511}
NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


class RuleError(ValueError):
    """A line that is not a rule: str() is "file:line: why"."""


class Condition:
    __slots__ = ("field", "op", "value", "high")

    def __init__(self, field, op, value, high=None):
        self.field, self.op, self.value, self.high = field, op, value, high

    def __repr__(self):
        return "%s%s%s" % (self.field, "=" if self.op == "range" else self.op,
                           "%s..%s" % (self.value, self.high) if self.op == "range" else self.value)

    def as_dict(self):
        return {"field": self.field, "op": self.op, "value": self.value, **({"high": self.high} if self.high else {})}

    def holds(self, fingerprint):
        """Does this condition hold for a fingerprint ({field: value}; a missing field reads as "none")?"""
        have = str(fingerprint.get(self.field, "none") or "none")
        cmp = compare_versions(have, self.value)
        if self.op == "=":
            return cmp == 0 if cmp is not None else have == self.value
        if self.op == "!=":
            return cmp != 0 if cmp is not None else have != self.value
        if self.op == "~":
            return self.value.lower() in have.lower()
        if cmp is None:
            return False
        if self.op == "range":
            high = compare_versions(have, self.high)
            return cmp >= 0 and high is not None and high <= 0
        return {">=": cmp >= 0, "<=": cmp <= 0, ">": cmp > 0, "<": cmp < 0}[self.op]


class Rule:
    __slots__ = ("file", "line", "case", "variant", "step", "expected", "conditions", "cite")

    def __init__(self, file, line, case, variant, step, expected, conditions, cite):
        self.file, self.line, self.case, self.variant, self.step = file, line, case, variant, step
        self.expected, self.conditions, self.cite = expected, conditions, cite

    @property
    def alternatives(self):
        return self.expected.split("|")

    @property
    def where(self):
        return "%s:%d" % (self.file, self.line)

    def cited_runs(self):
        """The results files a run: citation names (relative to the tree)."""
        return re.findall(r"run:(\S+)", self.cite) if self.cite.startswith("run:") else []

    def applies(self, fingerprint):
        return all(c.holds(fingerprint) for c in self.conditions)

    def names(self, case, variant, step):
        return all(p in ("*", v) for p, v in ((self.case, case), (self.variant, variant), (self.step, step)))

    def specificity(self):
        return len(self.conditions) * 8 + (self.case != "*") * 4 + (self.variant != "*") * 2 + (self.step != "*")

    def as_dict(self):
        return {"file": self.file, "line": self.line, "case": self.case, "variant": self.variant, "step": self.step,
                "expected": self.alternatives, "conditions": [c.as_dict() for c in self.conditions], "cite": self.cite}


def _valid_alternative(alt, for_end):
    if for_end:
        return alt == "timeout" or bool(re.fullmatch(r"exit:\d{1,3}", alt) and int(alt[5:]) <= 255) or \
            bool(re.fullmatch(r"signal:SIG[A-Za-z0-9_.-]+", alt))
    if alt in ("not-reached", "result_correct", "result_wrong") or alt == "CUDA_SUCCESS":
        return True
    if alt.startswith("<unknown:"):
        return alt.endswith(">")
    return alt.startswith(RULE_PREFIXES) and bool(NAME.match(alt))       # rules.c's too (tests/test_rules_agree.py)


def _condition(token, where):
    for i in range(len(token)):
        op = next((o for o in OPERATORS if token.startswith(o, i)), None)
        if op:
            break
    else:
        op, i = None, 0
    if not op or i == 0 or i + len(op) == len(token):
        raise RuleError("%s: '%s' is not a condition (FIELD=VALUE, FIELD>=VERSION, FIELD=LOW..HIGH, ...)" % (where, token))
    field, value = token[:i], token[i + len(op):]
    if len(field) > LIMITS["field"]:
        raise RuleError("%s: field name too long in '%s'" % (where, token))
    if field not in FIELDS:
        raise RuleError("%s: unknown field '%s' (fields are those of the fingerprint)" % (where, field))
    if value[:1] in "=<>!~":
        raise RuleError("%s: '%s' is not a condition: '%s%s' is not an operator (one of = != >= <= > < ~)"
                        % (where, token, op, value[:1]))
    high = None
    if op == "=" and ".." in value:
        value, high = value.split("..", 1)
        if compare_versions(value, high) is None:
            raise RuleError("%s: range '%s..%s' needs two versions, LOW..HIGH" % (where, value, high))
        op = "range"
    for part in (value, high or ""):
        if len(part) > LIMITS["value"]:
            raise RuleError("%s: value longer than %d characters in '%s'" % (where, LIMITS["value"], token))
    if op in (">=", "<=", ">", "<", "range") and not FIELDS[field]:
        raise RuleError("%s: field '%s' is not a version: use =, != or ~" % (where, field))
    if op in (">=", "<=", ">", "<") and compare_versions(value, value) is None:
        raise RuleError("%s: '%s' is not a version" % (where, value))
    return Condition(field, op, value, high)


def parse_condition(token, where="condition"):
    """One CONDITION token (driver>=580, cudart=11.8..12.9) as a Condition; RuleError when it is not one."""
    return _condition(token, where)


def parse_line(text, file, line):
    """A Rule, or None for a blank or comment line; RuleError("file:line: why") otherwise."""
    where = "%s:%d" % (file, line)
    text = text.rstrip("\r\n")
    body = text.strip()
    if not body or body.startswith("#"):
        return None
    at = re.search(r"(?:^|\s)cite=", text)
    if not at:
        raise RuleError("%s: no cite= (every rule names its evidence: cite=run:RESULTS.json or cite=doc:URL)" % where)
    head, cite = text[:at.start()], text[at.end():].strip()
    if not cite.startswith(("run:", "doc:")):
        raise RuleError("%s: cite= must start with run: (a results file) or doc: (a documentation section)" % where)
    if len(cite) <= 4:
        raise RuleError("%s: cite= names no evidence" % where)
    if len(cite) > LIMITS["cite"]:
        raise RuleError("%s: cite= longer than %d characters" % (where, LIMITS["cite"]))
    fields = head.split()
    if len(fields) < 4:
        raise RuleError("%s: expected CASE VARIANT STEP EXPECTED [CONDITION...] cite=EVIDENCE, found %d field%s before "
                        "cite=" % (where, len(fields), "" if len(fields) == 1 else "s"))
    if len(fields) > 4 + MAX_CONDITIONS:
        raise RuleError("%s: more than %d conditions" % (where, MAX_CONDITIONS))
    case, variant, step, expected = fields[:4]
    if case != "*" and not NAME.match(case):
        raise RuleError("%s: '%s' is not a case name" % (where, case))
    if variant not in ("fixed", "broken", "*"):
        raise RuleError("%s: variant '%s' is not fixed, broken or *" % (where, variant))
    if step != "*" and not NAME.match(step):
        raise RuleError("%s: '%s' is not a step name" % (where, step))
    if len(case) > LIMITS["case"] or len(step) > LIMITS["step"] or len(expected) > LIMITS["expected"]:
        raise RuleError("%s: a field is too long" % where)
    alternatives = expected.split("|")
    if any(not a for a in alternatives):
        raise RuleError("%s: empty alternative in '%s'" % (where, expected))
    for alt in alternatives:
        if not _valid_alternative(alt, step == "end"):
            raise RuleError("%s: '%s' is not a %s" % (where, alt, "process end (exit:N, signal:SIGNAME, timeout)"
                                                      if step == "end" else "status name"))
    return Rule(file, line, case, variant, step, expected, [_condition(t, where) for t in fields[4:]], cite)


def read_file(path, relative_to=None):
    """([Rule], [RuleError]) of one file: a bad line is named and the others are still read."""
    name = os.path.relpath(path, relative_to) if relative_to else path
    rules, errors = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, text in enumerate(f, 1):
            try:
                rule = parse_line(text, name, number)
            except RuleError as error:
                errors.append(error)
                continue
            if rule:
                rules.append(rule)
    return rules, errors


def read_dir(folder, relative_to=None):
    """([Rule], [RuleError]) of every *.rules file in folder, in name order (as the runner reads them)."""
    rules, errors = [], []
    if not os.path.isdir(folder):
        return rules, errors
    for name in sorted(os.listdir(folder)):
        if name.endswith(".rules"):
            more, bad = read_file(os.path.join(folder, name), relative_to)
            rules += more
            errors += bad
    return rules, errors


def find(rules, fingerprint, case, variant, step):
    """The most specific rule that applies to (case, variant, step) in this fingerprint, or None (success expected)."""
    best = None
    for rule in rules:
        if rule.names(case, variant, step) and rule.applies(fingerprint):
            if best is None or rule.specificity() > best.specificity():
                best = rule
    return best
