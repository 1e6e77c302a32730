"""cuda-atlas lint: the rules against their evidence.

    cuda-atlas lint [--root DIR]

`atlas-run lint` (C, the authority on the grammar) checks that every rule
parses, names a case and a step that case records, expects statuses a status
table knows and cites files that exist. This checks what needs the results:
every rule that cites runs (cite=run:FILE ...) matches at least one run in
the files it cites — the case and variant it names, an environment where its
conditions hold, and the step returning one of the statuses it expects. A
rule that no cited run bears out is a claim without evidence, or one that can
never match. Each problem is `file:line: why`; exit 1 when there is one.
"""
import argparse
import os

from . import rules as rules_reader
from .results import ROOT, read_results_file


def fingerprint(environment):
    """A results file's environment as the rules see it: env.X fields flattened, missing ones "none"."""
    flat = {k: v for k, v in (environment or {}).items() if not isinstance(v, dict)}
    for key, value in ((environment or {}).get("env") or {}).items():
        flat["env." + key] = value
    return flat


def run_bears_out(rule, run, environment):
    """Does this run, recorded in this environment, show what the rule expects?"""
    if rule.case not in ("*", run.get("case")) or rule.variant not in ("*", run.get("variant")):
        return False
    if not rule.applies(fingerprint(environment)):
        return False
    alternatives = set(rule.alternatives)
    if rule.step == "end":
        return (run.get("end") or {}).get("outcome") in alternatives
    steps = [s for s in run.get("steps") or [] if rule.step in ("*", s.get("step"))]
    if not steps:
        return "not-reached" in alternatives or bool(run.get("unreached") and rule.step in run.get("unreached", []))
    return any(s.get("name") in alternatives for s in steps)


def problems(root=ROOT):
    """[file:line: why] for every rule its cited runs do not bear out, and every rule that does not parse."""
    parsed, errors = rules_reader.read_dir(os.path.join(root, "expected"), root)
    found = [str(e) for e in errors]
    files = {}
    for rule in parsed:
        cited = rule.cited_runs()
        if not cited:
            continue                                  # doc: citations: documented, not observed
        runs = []
        for relative in cited:
            path = os.path.join(root, relative)
            if relative not in files:
                files[relative] = read_results_file(path)
            results, trouble = files[relative]
            if results is None:
                found.append("%s: cites %s, which cannot be read (%s)" % (
                    rule.where, relative, trouble[0].reason if trouble else "unknown"))
                continue
            runs += [(run, results.environment) for run in results.runs]
        if runs and not any(run_bears_out(rule, run, env) for run, env in runs):
            found.append("%s: no run in %s shows %s %s step %s returning %s%s" % (
                rule.where, " or ".join(cited), rule.case, rule.variant, rule.step, rule.expected,
                " where %s" % " ".join(map(repr, rule.conditions)) if rule.conditions else ""))
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(prog="cuda-atlas lint", description=__doc__.split("\n\n")[0],
                                     epilog="Exit status: 0 every cited rule is borne out; 1 a problem (listed).")
    parser.add_argument("--root", default=ROOT, help="the tree whose expected/ and data/ to check")
    args = parser.parse_args(argv)
    found = problems(args.root)
    for line in found:
        print(line)
    print("%d problem%s" % (len(found), "" if len(found) == 1 else "s"))
    return 1 if found else 0
