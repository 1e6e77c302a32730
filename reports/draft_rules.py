"""Draft rule lines for what a results file observed but the rules did not
expect — for review, never applied automatically.

    python3 reports/draft_rules.py RESULTS.json [--when FIELD=VALUE ...] [--unconditional]

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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def drafts(results, when, cite):
    """(family, case, variant, step, expected, conditions, cite) for each mismatch."""
    seen = collections.OrderedDict()
    for run in results["runs"]:
        if run.get("verdict") not in ("mismatch",):
            continue
        key = (run["family"], run["case"])
        for step in run.get("steps", []):
            if step.get("verdict") == "mismatch":
                seen.setdefault(key + (step["step"],), {}).setdefault(run["variant"], set()).add(step["name"])
        for missing in run.get("unreached", []):
            if missing.get("verdict") == "mismatch":
                seen.setdefault(key + (missing["step"],), {}).setdefault(run["variant"], set()).add("not-reached")
        end = run.get("end", {})
        if end.get("verdict") == "mismatch":
            seen.setdefault(key + ("end",), {}).setdefault(run["variant"], set()).add(end["outcome"])
    for (family, case, step), by_variant in sorted(seen.items(), key=lambda item: item[0][:2]):
        values = {v: "|".join(sorted(names)) for v, names in by_variant.items()}
        if len(values) == 2 and values["fixed"] == values["broken"]:
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
    parser.add_argument("--when", action="append", default=[], metavar="FIELD=VALUE",
                        help="a condition for every drafted rule (repeatable), e.g. cudart=12.4, gpu~H200 "
                             "(default: only those the fingerprint implies, driver=none and mode=MODE)")
    parser.add_argument("--unconditional", action="store_true",
                        help="draft without the fingerprint's conditions, and without the warning")
    args = parser.parse_args(argv)
    try:
        with open(args.results) as f:
            results = json.load(f)
        environment = results.get("environment") or {}
        results["runs"] = [run for run in results.get("runs") or [] if isinstance(run, dict)]
    except (OSError, ValueError, AttributeError) as error:
        sys.exit("draft_rules: cannot read %s: %s" % (args.results, error))
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
    for fam, case, variant, step, expected, when, cite in drafts(results, args.when, cite):
        if fam != family:
            print("\n# -> expected/%s.rules" % fam)
            family = fam
        print("  ".join(x for x in (case, variant, step, expected, when, "cite=" + cite) if x))
        count += 1
    print("\n# %d rule%s drafted from %s" % (count, "" if count == 1 else "s", args.results), file=sys.stderr)


if __name__ == "__main__":
    main()
