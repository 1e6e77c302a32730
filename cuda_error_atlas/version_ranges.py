"""Versions as ranges: what each recorded run saw, along one version axis
(cudart, cublas, driver), as segments of versions that behaved alike, the
changes between them, and the narrowest rule condition the runs support.

Pure functions over results (atlas_data.Results, or anything with
`environment`, `runs`, `path` and `kind`); nothing here reads files or
prints. Used by reports/draft_rules.py (--range) and reports/atlas_versions.py.

Versions are ordered number by number: 11.8 < 12.0 < 12.4 < 12.10 < 13.0.
"""
import functools
import collections
import os

from .version_numbers import parse_version, range_key as version_key  # noqa: F401  (version_key: versions.py sorts by it)

# The CUDA releases that exist (there is no 12.7), so that a change between
# two tested versions can say whether a release between them went untested.
CUDA_RELEASES = ("11.0", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.7", "11.8",
                 "12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.8", "12.9",
                 "13.0", "13.1", "13.2", "13.3", "13.4", "13.5")
# cuBLAS releases (major.minor.patch) as NVIDIA's wheels list them on the Python package index
# (nvidia-cublas-cu12: 12.0.1 ... 12.9.3; nvidia-cublas: 13.0.0 ... 13.10.0; read 2026-11-22), and
# CUDA 11.8's 11.11.3 — the versions a change along cuBLAS may lie between.
CUBLAS_RELEASES = ("11.11.3",
                   "12.0.1", "12.0.2", "12.1.0", "12.1.3", "12.2.1", "12.2.4", "12.2.5", "12.3.2", "12.3.4",
                   "12.4.2", "12.4.5", "12.5.2", "12.5.3", "12.6.0", "12.6.1", "12.6.3", "12.6.4", "12.8.3",
                   "12.8.4", "12.8.5", "12.9.0", "12.9.1", "12.9.2", "12.9.3",
                   "13.0.0", "13.0.2", "13.1.0", "13.1.1", "13.1.2", "13.2.0", "13.2.1", "13.2.2", "13.3.0",
                   "13.4.0", "13.4.1", "13.4.2", "13.4.3", "13.5.1", "13.6.0", "13.6.1", "13.6.2", "13.7.0",
                   "13.8.0", "13.8.1", "13.8.2", "13.10.0")
KNOWN_RELEASES = {"cudart": CUDA_RELEASES, "cuda": CUDA_RELEASES, "cublas": CUBLAS_RELEASES}

NOT_RUN = "not run"


def sort_versions(versions):
    return list(_sorted_versions(tuple(versions)))


@functools.lru_cache(maxsize=4096)
def _sorted_versions(versions):
    # the steps of one group share their versions: sorted once, not per step
    return tuple(sorted(set(versions), key=version_key))


def column_version(environment, field):
    """The column's version on the axis. A CUDA 11 runtime cannot say its
    version without a driver: the version it was built with stands in."""
    version = environment.get(field, "none")
    if field == "cudart" and parse_version(version) is None:
        version = environment.get("cudart_header", "none")
    return version


def group_of(results, field):
    """The columns that may be compared along `field`: same GPU (or no
    driver), same driver when the axis is not the driver, same mode."""
    e = results.environment
    gpu = "no driver" if e.get("driver", "none") == "none" else e.get("gpu", "none")
    driver = e.get("driver", "none") if field != "driver" else "*"
    return (gpu, driver, e.get("mode") or "default")


def comparable(results_list, field):
    """The columns of results_list that observations() can compare along `field`: those whose group (group_of) has
    more than one version."""
    versions = collections.defaultdict(set)
    for results in results_list:
        if getattr(results, "kind", "c") == "c":
            version = column_version(results.environment, field)
            if parse_version(version) is not None:
                versions[group_of(results, field)].add(version)
    return [r for r in results_list if getattr(r, "kind", "c") == "c" and len(versions.get(group_of(r, field), ())) > 1]


def run_outcomes(run):
    """{step: outcome} for one run: each step's status names in the order
    seen (joined by ','), 'end' for how the process ended, and for a run that
    did not run, every step reads 'not run: <reason>'. Kept in the run (every
    axis reads it)."""
    cached = run.get("_outcomes")
    if cached is None:
        cached = run["_outcomes"] = _run_outcomes(run)
    return cached


def _run_outcomes(run):
    if run.get("verdict") == "skip" or run.get("end", {}).get("outcome") == "exit:77":
        reason = run.get("skip_reason") or "skipped"
        return {"*": reason if reason.startswith(NOT_RUN) else "%s: %s" % (NOT_RUN, reason)}
    outcomes = {}
    for record in run.get("steps", ()):
        seen = outcomes.get(record["step"])
        if seen is None:
            outcomes[record["step"]] = [record["name"]]
        elif record["name"] not in seen:
            seen.append(record["name"])
    result = {step: ",".join(names) for step, names in outcomes.items()}
    result["end"] = run.get("end", {}).get("outcome", "?")
    return result


def observations(results_list, field="cudart"):
    """{group: {(case, variant, step): {version: outcome}}}, with the files
    each version came from in {group: {version: [path, ...]}}.

    A run that did not run gives every step of its case 'not run: reason';
    a step a run did not record, where another version of the same run did,
    reads 'not reached'."""
    per_group = collections.defaultdict(lambda: collections.defaultdict(dict))
    files = collections.defaultdict(lambda: collections.defaultdict(list))
    runs = collections.defaultdict(dict)          # group -> {(case, variant): {version: outcomes}}
    for results in results_list:
        if getattr(results, "kind", "c") != "c":
            continue
        version = column_version(results.environment, field)
        if parse_version(version) is None:
            continue
        group = group_of(results, field)
        files[group][version].append(results.path)
        for run in results.runs:
            seen = runs.setdefault(group, {}).setdefault((run["case"], run["variant"]), {})
            outcomes = run_outcomes(run)
            # two columns of one version (a runtime-only column and a cuBLAS column of the same cudart):
            # what ran counts, whichever file came first; "not run" only where nothing ran
            if version not in seen or "*" in seen[version] and "*" not in outcomes:
                seen[version] = outcomes
    for group, by_run in runs.items():
        steps_of_group = per_group[group]
        for (case, variant), by_version in by_run.items():
            steps = dict.fromkeys(s for outcomes in by_version.values() for s in outcomes if s != "*")
            for step in steps:
                steps_of_group[(case, variant, step)] = {
                    version: outcomes.get("*") or outcomes.get(step, "not reached")
                    for version, outcomes in by_version.items()}
    return per_group, files


def tested(by_version):
    """The versions where the step really ran, in order."""
    return [v for v in sort_versions(by_version) if not by_version[v].startswith(NOT_RUN)]


def segments(by_version, versions=None):
    """[(first, last, outcome)]: runs of tested versions that behaved alike,
    in version order ('not run' versions are left out, neither breaking
    nor extending a segment). versions: tested(by_version), when the caller
    has it."""
    result = []
    for version in tested(by_version) if versions is None else versions:
        outcome = by_version[version]
        if result and result[-1][2] == outcome:
            result[-1] = (result[-1][0], version, outcome)
        else:
            result.append((version, version, outcome))
    return result


def untested_between(low, high, known):
    """Known releases strictly between two versions that no run tested —
    None when the axis has no list of releases (nothing can be said)."""
    if known is None:
        return None
    lo, hi = parse_version(low), parse_version(high)
    return [r for r in known if lo < parse_version(r) < hi]


def changes(by_version, field="cudart"):
    """Every change of behaviour along the axis: dicts with the outcome
    before and after, the last version with the old one and the first with
    the new one, and the releases not tested between them (None: unknown)."""
    if len(set(by_version.values())) < 2:
        return []                       # one outcome everywhere: one segment at most, no change
    known = KNOWN_RELEASES.get(field)
    versions = tested(by_version)
    found = []
    runs = segments(by_version, versions)
    for (a_first, a_last, old), (b_first, b_last, new) in zip(runs, runs[1:]):
        gap = untested_between(a_last, b_first, known)
        if gap is not None:
            gap = [r for r in gap if r not in versions]
        found.append({"old": old, "new": new, "last_old": a_last, "first_new": b_first,
                      "not_tested_between": gap})
    return found


def narrowest_range(by_version, outcome):
    """(low, high): the smallest and largest tested version with `outcome`,
    when every tested version between them has it too; else None."""
    for first, last, seen in segments(by_version):
        if seen == outcome and sum(1 for s in segments(by_version) if s[2] == outcome) == 1:
            return first, last
    return None


def condition_field(group, field):
    """The fingerprint field a rule names: without a driver a CUDA 11
    runtime reads cudart=none, so the no-driver columns are told apart by
    cudart_header (the same version for every later runtime)."""
    return "cudart_header" if field == "cudart" and group[0] == "no driver" else field


def condition(field, low, high):
    """A rule condition for an inclusive range: cudart=11.8..12.9, or cudart=12.4 for one version."""
    return "%s=%s" % (field, low) if low == high else "%s=%s..%s" % (field, low, high)


def cite(paths, root):
    return " ".join("run:" + os.path.relpath(os.path.abspath(p), root) for p in paths)


def draft_range_rules(results_list, field, root):
    """Rule lines for every behaviour that changes along `field`: one line
    per segment other than the newest (the newest is the unconditioned
    default), with the narrowest range the runs support and the files of
    its two ends as evidence. Outcomes that are not statuses ('not
    reached' and 'not run') are left to review."""
    per_group, files = observations(results_list, field)
    lines = []
    for group, steps in sorted(per_group.items()):
        for (case, variant, step), by_version in sorted(steps.items()):
            found = segments(by_version)
            if len(found) < 2:
                continue
            for first, last, outcome in found[:-1]:
                if narrowest_range(by_version, outcome) is None or outcome == "not reached":
                    lines.append("# %s %s %s: %s at %s..%s also seen elsewhere; review by hand"
                                 % (case, variant, step, outcome, first, last))
                    continue
                expected = outcome.replace(",", "|")
                evidence = cite(sorted(set(files[group][first] + files[group][last])), root)
                lines.append("  ".join([case, variant, step, expected,
                                        condition(condition_field(group, field), first, last),
                                        "cite=" + evidence]))
    return lines


def changed_steps(steps, x, y):
    """[(case, variant, step, outcome at x, outcome at y)] of one group's
    observations where both versions ran the step and saw different things."""
    return [(case, variant, step, by_version[x], by_version[y])
            for (case, variant, step), by_version in sorted(steps.items())
            if x in by_version and y in by_version and by_version[x] != by_version[y]
            and not by_version[x].startswith(NOT_RUN) and not by_version[y].startswith(NOT_RUN)]


def not_run_on_one_side(steps, x, y):
    """{(case, variant): reason} for the runs that ran with only one of x and y."""
    found = {}
    for (case, variant, step), by_version in steps.items():
        a, b = by_version.get(x, NOT_RUN), by_version.get(y, NOT_RUN)
        if a.startswith(NOT_RUN) != b.startswith(NOT_RUN):
            found[(case, variant)] = a if a.startswith(NOT_RUN) else b
    return found


def what_changed(results_list, field, x, y):
    """[(group, case, variant, step, outcome at x, outcome at y)] for every
    step whose outcome differs between versions x and y of the same group
    (steps that did not run with one of them are not changes: see
    not_run_on_one_side)."""
    per_group, _ = observations(results_list, field)
    return [(group,) + change for group, steps in sorted(per_group.items()) for change in changed_steps(steps, x, y)]
