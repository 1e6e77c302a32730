"""Draft rule lines for what a results file observed but the rules did not
expect — for review, never applied automatically.

    cuda-atlas draft-rules RESULTS.json [--when FIELD=VALUE ...] [--unconditional]

Prints, per family, one line per mismatching step or process end, with the
observed outcome as the expectation, the conditions, and the results file as
the evidence. When both variants of a case observed the same thing for the
same step, the line says '*' for the variant. The loop is: run on a new
machine, draft, review the lines (which are findings and which are flakes or
bugs?), add them to expected/<family>.rules, commit the results file with
them.

A rule drafted from one environment is conditioned on it: a run without a
driver drafts `driver=none` rules, a run mode other than the default drafts
`mode=MODE` rules, and --when adds conditions of your own. A rule with no
condition at all holds in every environment, also ones never run: the tool
warns before drafting one (--unconditional: you mean it).
"""
import argparse
import collections
import json
import os
import sys

from .results import ROOT, read_bytes


SCHEMA = "cuda-error-atlas/results/1"


def is_text(value):
    return isinstance(value, str) and value != ""


def readable_runs(results, path, problems):
    """The runs a draft can use; each one it cannot is named in problems (file, run, field, why)."""
    if not isinstance(results, dict):
        problems.append("%s: not a results file (a JSON object with \"runs\")" % path)
        return []
    if results.get("schema") != SCHEMA:
        problems.append("%s: schema %r is not %s, the one this tool reads" % (path, results.get("schema"), SCHEMA))
        return []
    runs = results.get("runs")
    if not isinstance(runs, list):
        problems.append("%s: \"runs\" is %s, not a list" % (path, type(runs).__name__))
        return []
    usable = []
    for i, run in enumerate(runs):
        where = "%s: run %d" % (path, i + 1)
        if not isinstance(run, dict):
            problems.append("%s: not an object" % where)
            continue
        bad = [f for f in ("family", "case", "variant") if not is_text(run.get(f))]
        if bad:
            problems.append("%s: field %r is %r, not a name; left out" % (where, bad[0], run.get(bad[0])))
            continue
        where = "%s (%s/%s)" % (where, run["case"], run["variant"])
        for field, kind in (("steps", list), ("unreached", list), ("end", dict)):
            if not isinstance(run.get(field, kind()), kind):
                problems.append("%s: field %r is %r, not a %s; read as empty" % (where, field, run.get(field), kind.__name__))
                run = dict(run, **{field: kind()})
        usable.append(run)
    return usable


def drafts(runs, when, cite):
    """(family, case, variant, step, expected, conditions, cite) for each mismatch."""
    seen = collections.OrderedDict()
    for run in runs:
        if run.get("verdict") != "mismatch":
            continue
        key = (run["family"], run["case"])
        observed = [(s.get("step"), s.get("name")) for s in run.get("steps", [])
                    if isinstance(s, dict) and s.get("verdict") == "mismatch"]
        observed += [(m.get("step"), "not-reached") for m in run.get("unreached", [])
                     if isinstance(m, dict) and m.get("verdict") == "mismatch"]
        end = run.get("end", {})
        if end.get("verdict") == "mismatch":
            observed.append(("end", end.get("outcome")))
        for step, outcome in observed:
            if is_text(step) and is_text(outcome):
                seen.setdefault(key + (step,), {}).setdefault(run["variant"], set()).add(outcome)
    for (family, case, step), by_variant in sorted(seen.items(), key=lambda item: item[0][:2]):
        values = {v: "|".join(sorted(names)) for v, names in by_variant.items()}
        if len(values) == 2 and values.get("fixed") == values.get("broken"):
            values = {"*": values["fixed"]}
        for variant, expected in sorted(values.items()):
            yield family, case, variant, step, expected, " ".join(when), cite


def conditions_of(environment):
    """The conditions that say which environment a run was: no driver, a run mode."""
    found = []
    if environment.get("driver") == "none":
        found.append("driver=none")
    mode = environment.get("mode")
    if mode and mode != "default":
        found.append("mode=%s" % mode)
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", help="a results file")
    parser.add_argument("more", nargs="*", metavar="RESULTS", help="with --range: the other columns of the axis")
    parser.add_argument("--range", metavar="FIELD",
                        help="draft version ranges along FIELD (cudart, cublas, driver) from all the files: "
                             "the narrowest range each behaviour was seen in (reports/version_ranges.py)")
    parser.add_argument("--when", action="append", default=[], metavar="FIELD=VALUE",
                        help="a condition for every drafted rule (repeatable), e.g. cudart=12.4, gpu~H200 "
                             "(default: only those the fingerprint implies, driver=none and mode=MODE)")
    parser.add_argument("--unconditional", action="store_true",
                        help="draft without the fingerprint's conditions, and without the warning")
    args = parser.parse_args(argv)
    if args.range:
        from . import results as atlas_data
        from . import version_ranges
        columns, problems = atlas_data.load_results([args.results] + args.more)
        for problem in problems:
            print("draft_rules: left out %s: %s" % (problem[0], problem[1]), file=sys.stderr)
        for line in version_ranges.draft_range_rules(columns, args.range, ROOT):
            print(line)
        return
    if args.more:
        parser.error("more than one results file is only for --range")
    try:
        results = json.loads(read_bytes(args.results).decode("utf-8"))
    except (OSError, ValueError) as error:
        sys.exit("draft_rules: cannot read %s: %s" % (args.results, error))
    problems = []
    runs = readable_runs(results, args.results, problems)
    for problem in problems:
        print("draft_rules: " + problem, file=sys.stderr)
    if not runs:
        sys.exit("draft_rules: nothing could be read from %s" % args.results)
    environment = results.get("environment") if isinstance(results.get("environment"), dict) else {}
    cite = "run:" + os.path.relpath(os.path.abspath(args.results), ROOT)
    implied = [] if args.unconditional else [c for c in conditions_of(environment) if c not in args.when]
    if implied:
        print("# conditioned on the fingerprint of %s: %s" % (environment.get("id", args.results), " ".join(implied)),
              file=sys.stderr)
    args.when = implied + args.when
    if not args.when and not args.unconditional:
        print("draft_rules: warning: these rules have no condition, so they will hold in every environment,\n"
              "  also ones never run; give --when FIELD=VALUE (gpu~H200, cudart=13.0, driver>=580) for what\n"
              "  this run was, or --unconditional if they truly hold everywhere", file=sys.stderr)
    family = None
    count = 0
    for fam, case, variant, step, expected, when, cite in drafts(runs, args.when, cite):
        if fam != family:
            print("\n# -> expected/%s.rules" % fam)
            family = fam
        print("  ".join(x for x in (case, variant, step, expected, when, "cite=" + cite) if x))
        count += 1
    print("\n# %d rule%s drafted from %s" % (count, "" if count == 1 else "s", args.results), file=sys.stderr)


if __name__ == "__main__":
    main()
