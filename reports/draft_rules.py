"""Draft rule lines for what a results file observed but the rules did not
expect — for review, never applied automatically.

    python3 reports/draft_rules.py RESULTS.json [--when FIELD=VALUE ...]

Prints, per family, one line per mismatching step or process end, with the
observed outcome as the expectation, the given conditions, and the results
file as the evidence. When both variants of a case observed the same thing
for the same step, the line says '*' for the variant. The loop is: run on a
new machine, draft, review the lines (which are findings and which are
flakes or bugs?), add them to expected/<family>.rules, commit the results
file with them.
"""
import argparse
import collections
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("more", nargs="*", metavar="RESULTS", help="with --range: the other columns of the axis")
    parser.add_argument("--range", metavar="FIELD",
                        help="draft version ranges along FIELD (cudart, cublas, driver) from all the files: "
                             "the narrowest range each behaviour was seen in (reports/version_ranges.py)")
    parser.add_argument("--when", action="append", default=[], metavar="FIELD=VALUE",
                        help="a condition for every drafted rule (repeatable), e.g. driver=none, cudart=12.4")
    args = parser.parse_args(argv)
    if args.range:
        import atlas_data
        import version_ranges
        columns, problems = atlas_data.load_results([args.results] + args.more)
        for path, reason in problems:
            print("draft_rules: left out %s: %s" % (path, reason), file=sys.stderr)
        for line in version_ranges.draft_range_rules(columns, args.range, ROOT):
            print(line)
        return
    try:
        with open(args.results) as f:
            results = json.load(f)
    except (OSError, ValueError) as error:
        sys.exit("draft_rules: cannot read %s: %s" % (args.results, error))
    cite = "run:" + os.path.relpath(os.path.abspath(args.results), ROOT)
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
