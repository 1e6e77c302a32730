"""Versions in the report: behaviours as version ranges, what changed
between any two versions, and what is sticky.

    cuda-atlas versions [--out DIR] [--sticky-json PATH] [RESULTS.json|DIR ...]
    cuda-atlas versions --changed X Y [--axis cudart|cublas] [RESULTS.json|DIR ...]

Writes DIR/versions.html (every behaviour that changes along the runtime
and cuBLAS axes: the last version with the old behaviour, the first with the
new one, and the releases not tested between them), DIR/compare/X_Y.html
(what changed between versions X and Y, for every pair) and DIR/sticky.html
with its data, sticky.json. The report and the site call pages() with the
columns their dataset holds.

sticky.json (schema "cuda-error-atlas/sticky/1") has one entry per status
that was a run's first error on a GPU, in any recorded run:

    {"status": "cudaErrorIllegalAddress",
     "runs": 174,                         how many runs it was the first error of
     "cases": ["kernel_writes_bad_address", ...],
     "context": {"usable": OBS, "unusable": OBS, "not probed": OBS, "never made": OBS},
     "other_devices": {...},              steps named other_device* after the error, or the
                                          per-device checks (usable_N) of the two-GPU cases
     "new_cublas_handle": {...},          cublasCreate called after the error
     "pytorch_async": true,               in PyTorch's list (see PYTORCH_RULE)
     "disagrees": "..."}                  where PyTorch's list and the runs differ, else null

where OBS is {"runs": N, "cudart": [versions], "cublas": [versions],
"statuses": [what the later call returned]}; a property with no
observation is {} ("not measured"). "context" is the harness's probe after
the variant (allocate, set, synchronize); "never made" when the first error
says the runtime could not start (RUNTIME_NEVER_STARTED) and the probe fails
the same way, so the probe's failure says nothing about stickiness.
"""
import argparse
import collections
import json
import os
import re
import sys


from . import version_ranges
from .results import COMPANION_FOLDERS, PYTORCH_RULE, ROOT, default_results_paths, expand, load_results
from .pages import e, page, status_href

# Extra folders of columns that only the versions pages read (the runtime
# columns without a driver: fifteen columns that would crowd the matrix).
EXTRA_FOLDERS = [os.path.join(ROOT, folder) for folder in COMPANION_FOLDERS]
AXES = ("cudart", "cublas")

# Statuses that say the runtime could not start at all (driver_types.h, CUDA 13.0: "the CUDA driver and
# runtime could not be initialized", "a stub library", "the installed NVIDIA CUDA driver is older than the
# CUDA runtime library", "no CUDA-capable devices were detected", "not yet initialized", "a mismatch between
# the versions of the display driver and the CUDA driver", "forward compatibility ... not supported"): after
# one, a failing probe shows that no context was ever made, not that one was lost.
RUNTIME_NEVER_STARTED = {"cudaErrorInitializationError", "cudaErrorStubLibrary", "cudaErrorInsufficientDriver",
                         "cudaErrorNoDevice", "cudaErrorSystemNotReady", "cudaErrorSystemDriverMismatch",
                         "cudaErrorCompatNotSupportedOnDevice"}


# ---- stickiness ---------------------------------------------------------------

PER_DEVICE_STEP = re.compile(r"usable_\d+$")          # the two-GPU cases' check of each device


def _after(steps, index):
    return steps[index + 1:] if index is not None else []


def _first_error_index(run):
    first = run.get("first_error") or {}
    for i, step in enumerate(run.get("steps", [])):
        if step["step"] == first.get("step") and step["name"] == first.get("name"):
            return i
    return None


def run_stickiness(run):
    """(status, {property: (outcome, later status)}) for one run whose first
    error is a library status, else None. outcome is 'usable'/'unusable'
    ('not probed' for the context when no probe ran); a property no step
    measured is left out. The context is 'never made' when the first error
    says the runtime could not start and the probe fails the same way."""
    first = run.get("first_error")
    if not first or first.get("name", "").startswith("result_") or first.get("name", "").endswith("_SUCCESS"):
        return None
    steps = run.get("steps", [])
    after = _after(steps, _first_error_index(run))
    found = {}
    probe = [s for s in steps if s["step"] == "probe"]
    if probe and first["name"] in RUNTIME_NEVER_STARTED and probe[-1]["name"] == first["name"]:
        # the runtime could not start (an old driver, no device): no context was ever made, and the probe
        # fails for the same reason — nothing was lost
        found["context"] = ("never made", probe[-1]["name"])
    elif probe:
        found["context"] = ("usable" if probe[-1]["success"] else "unusable", probe[-1]["name"])
    else:
        found["context"] = ("not probed", run.get("end", {}).get("outcome", "?"))
    others = [s for s in after if s["step"].startswith("other_device")]
    if others:
        found["other_devices"] = ("usable" if all(s["success"] for s in others) else "unusable", others[0]["name"])
    # The two-GPU cases check every device after the mistake (usable_0,
    # usable_1): one fault is on one device, so another device was usable
    # when any check passed, and lost when every check failed.
    per_device = [s for s in after if PER_DEVICE_STEP.match(s["step"])]
    if len(per_device) > 1 and not others:
        working = [s for s in per_device if s["success"]]
        found["other_devices"] = (("usable", working[0]["name"]) if working
                                  else ("unusable", per_device[0]["name"]))
    handles = [s for s in after if "cublasCreate(" in (s.get("call") or "")]
    if handles:
        found["new_cublas_handle"] = ("usable" if handles[0]["success"] else "unusable", handles[0]["name"])
    return first["name"], found


def sticky_table(results_list):
    """The table behind sticky.json: one entry per first-error status seen
    on a GPU, sorted by status name."""
    table = {}
    for results in results_list:
        if getattr(results, "kind", "c") != "c" or not results.has_device:
            continue
        cudart = version_ranges.column_version(results.environment, "cudart")
        cublas = results.environment.get("cublas", "none")
        for run in results.runs:
            seen = run_stickiness(run)
            if not seen:
                continue
            status, found = seen
            entry = table.setdefault(status, {"status": status, "runs": 0, "cases": set(), "context": {},
                                              "other_devices": {}, "new_cublas_handle": {}})
            entry["runs"] += 1
            entry["cases"].add(run["case"])
            for prop, (outcome, later) in found.items():
                obs = entry[prop].setdefault(outcome, {"runs": 0, "cudart": set(), "cublas": set(), "statuses": set()})
                obs["runs"] += 1
                obs["cudart"].add(cudart)
                obs["cublas"].add(cublas)
                obs["statuses"].add(later)
    rows = []
    for status in sorted(table):
        entry = table[status]
        for prop in ("context", "other_devices", "new_cublas_handle"):
            for obs in entry[prop].values():
                for key in ("cudart", "cublas"):
                    obs[key] = version_ranges.sort_versions(obs[key])
                obs["statuses"] = sorted(obs["statuses"])
        entry["cases"] = sorted(entry["cases"])
        entry["pytorch_async"] = status in PYTORCH_RULE["statuses"]
        entry["disagrees"] = disagreement(entry)
        rows.append(entry)
    return rows


def disagreement(entry):
    """Where PyTorch's list and the runs differ for one status, in words; None when they agree.
    The list holds runtime statuses (cudaError_t) only: cuBLAS and driver-API
    statuses reach PyTorch users through other checks, and are not compared."""
    if not entry["status"].startswith("cuda"):
        return None
    context = entry["context"]
    lost = "unusable" in context
    kept = "usable" in context
    if entry["pytorch_async"] and kept and not lost:
        return "PyTorch treats it as a kernel error that poisons later calls; every run kept the context"
    if entry["pytorch_async"] and kept:
        return "PyTorch treats it as a kernel error; some runs kept the context"
    if not entry["pytorch_async"] and lost:
        later = sorted(set(context["unusable"]["statuses"]))
        return ("not in PyTorch's list, yet the probe after it failed too (%s)" % ", ".join(later))
    return None


def sticky_json(results_list):
    return {"schema": "cuda-error-atlas/sticky/1", "pytorch_rule": PYTORCH_RULE,
            "columns": sorted(r.id for r in results_list if getattr(r, "kind", "c") == "c" and r.has_device),
            "statuses": sticky_table(results_list)}


def _observed(prop):
    if not prop:
        return "<td class=muted>not measured</td>"
    parts = []
    for outcome in ("usable", "unusable", "not probed", "never made"):
        if outcome in prop:
            obs = prop[outcome]
            parts.append("<b>%s</b> (%d run%s; cudart %s; then %s)" % (
                e(outcome), obs["runs"], "" if obs["runs"] == 1 else "s", e(_span(obs["cudart"])),
                e(", ".join(obs["statuses"]))))
    return "<td>%s</td>" % "<br>".join(parts)


def _span(versions):
    versions = [v for v in versions if version_ranges.parse_version(v)]
    if not versions:
        return "?"
    return versions[0] if len(versions) == 1 else "%s … %s (%d versions)" % (versions[0], versions[-1], len(versions))


def sticky_page(rows):
    body = ["<p>Every status that was the first error of a recorded run on a GPU, and what worked after it: the "
            "CUDA context (the harness's probe after each variant: allocate, set, synchronize), other devices "
            "(steps named <code>other_device…</code>), a new cuBLAS handle (<code>cublasCreate</code> called after "
            "the error). <b>never made</b>: the first error said the runtime could not start (an old driver, no "
            "device) and the probe failed the same way, so no context existed to lose. Data: "
            "<a href=sticky.json>sticky.json</a>. The last column holds PyTorch's rule — the "
            "statuses <code>%s</code> (<a href=\"%s\">%s</a>) get the message that kernel errors are reported "
            "asynchronously — against the runs.</p>" % (
                e(PYTORCH_RULE["function"]), e(PYTORCH_RULE["source"]), "c10/cuda/CUDAMiscFunctions.cpp")]
    body.append("<div class=wrap><table class='outcomes keyed'><tr><th>status</th><th>runs</th><th>context afterwards</th><th>other devices</th>"
                "<th>new cuBLAS handle</th><th>PyTorch</th></tr>")
    for row in rows:
        cases = ", ".join('<a href="case/%s.html">%s</a>' % (e(c), e(c)) for c in row["cases"][:6])
        more = " and %d more" % (len(row["cases"]) - 6) if len(row["cases"]) > 6 else ""
        verdict = "async kernel error" if row["pytorch_async"] else "not in the list"
        if row["disagrees"]:
            verdict += "<br><b>disagrees:</b> " + e(row["disagrees"])
        body.append("<tr><th><a href=\"%s\"><code>%s</code></a><br><small>%s%s</small></th><td>%d</td>%s%s%s<td>%s</td></tr>" % (
            e(status_href(row["status"])), e(row["status"]), cases, e(more), row["runs"], _observed(row["context"]),
            _observed(row["other_devices"]), _observed(row["new_cublas_handle"]), verdict))
    body.append("</table></div>")
    return page("What is sticky", "".join(body), current="sticky.html")


# ---- ranges and comparisons ---------------------------------------------------

def _group_label(group):
    gpu, driver, mode = group
    return " · ".join(x for x in (gpu.replace("NVIDIA ", ""), driver != "none" and driver != "*" and "driver " + driver, mode) if x)


def _compare_name(field, group, x, y):
    slug = "-".join(g.replace(" ", "").replace("/", "") for g in group).lower()
    return "compare/%s_%s_%s_%s.html" % (field, slug, x, y)


def versions_page(results_list, observed=None):
    """`observed`: {field: observations(results_list, field)}, when the caller has them."""
    observed = observed or {field: version_ranges.observations(results_list, field) for field in AXES}
    body = ["<p>Each behaviour that changes with a version, read from the recorded runs: the narrowest range of "
            "versions each outcome was seen in, the last version with the old outcome and the first with the new "
            "one. <i>Not tested between</i> names the releases between them no run covered. Runs that could not "
            "run with a version are <i>not run</i> with their reason, never counted as a behaviour. Columns are "
            "compared only with columns of the same GPU, driver and mode. Versions order number by number "
            "(11.8 &lt; 12.0 &lt; 12.4 &lt; 12.10 &lt; 13.0).</p>"]
    pairs_html = []
    # the same step changing the same way along cudart, in the same GPU, driver and mode: along cuBLAS that change
    # is the runtime's (the cuBLAS columns differ in cudart too)
    # every change of every step, once: {field: {group: {(case, variant, step): [change]}}} (steps that changed)
    changed = {field: {group: {key: found for key, found in ((key, version_ranges.changes(by_version, field))
                                                             for key, by_version in steps.items()) if found}
                       for group, steps in observed[field][0].items()} for field in AXES}
    along_cudart = {}
    for group, steps in changed["cudart"].items():
        for key, found in steps.items():
            for change in found:
                along_cudart[(group, key, change["old"], change["new"])] = (change["last_old"], change["first_new"])
    for field in AXES:
        per_group, files = observed[field]
        for group in sorted(per_group):
            versions = version_ranges.sort_versions(files[group])
            if len(versions) < 2:
                continue
            label = "%s along %s" % (_group_label(group), field)
            body.append("<h2>%s</h2><p>tested: %s</p>" % (e(label), e(", ".join(versions))))
            other = "cublas" if field == "cudart" else "cudart"
            runtimes_of = {v: {version_ranges.column_version(r.environment, "cudart") for r in results_list
                               if r.path in files[group][v]} for v in versions}
            paths = {path for found in files[group].values() for path in found}
            also = version_ranges.sort_versions(
                version_ranges.column_version(r.environment, other) for r in results_list
                if getattr(r, "kind", "c") == "c" and r.path in paths)
            if len(also) > 1:
                body.append("<p><i>These columns also differ in %s (%s): a change listed here may be %s's.</i></p>"
                            % (e(other), e(", ".join(also)), e(other)))
            not_run = collections.Counter()
            rows = []
            for (case, variant, step), by_version in sorted(per_group[group].items()):
                if step == "end":
                    for version, outcome in by_version.items():
                        if outcome.startswith(version_ranges.NOT_RUN):
                            not_run[(version, outcome)] += 1
                for change in changed[field][group].get((case, variant, step), ()):
                    runtime = along_cudart.get((group, (case, variant, step), change["old"], change["new"])) \
                        if field != "cudart" else None
                    if runtime:
                        # the runtime's where runtime-only columns pin it closer than the cuBLAS columns' runtimes do
                        sides = (runtimes_of.get(change["last_old"], set()), runtimes_of.get(change["first_new"], set()))
                        runtime = runtime + (runtime[0] not in sides[0] or runtime[1] not in sides[1],)
                    gap = change["not_tested_between"]
                    gap = "unknown (no list of releases)" if gap is None else (
                        "%d releases, %s … %s" % (len(gap), gap[0], gap[-1]) if len(gap) > 4 else ", ".join(gap) or "none: pinned")
                    ranges = "; ".join("%s: %s" % (version_ranges.condition(field, lo, hi), out)
                                       for lo, hi, out in version_ranges.segments(by_version))
                    rows.append("<tr><th><a href=\"case/%s.html\">%s</a> %s · %s</th><td>%s</td><td>%s</td><td>%s</td>"
                                "<td>%s</td><td>%s</td><td><small>%s</small></td></tr>" % (
                                    e(case), e(case), e(variant), e(step), e(change["old"]), e(change["last_old"]),
                                    e(change["first_new"]), e(change["new"]) + (
                                        ("<br><i>the runtime's: the same change along cudart, pinned %s → %s by "
                                         "columns without cuBLAS</i>" if runtime[2] else
                                         "<br><i>also along cudart, %s → %s: the runtime's or cuBLAS's, no column "
                                         "tells them apart</i>") % (e(runtime[0]), e(runtime[1])) if runtime else ""),
                                    e(gap), e(ranges)))
            if rows:
                body.append("<div class=wrap><table class='outcomes keyed'><tr><th>case · variant · step</th><th>old</th>"
                            "<th>last old</th><th>first new</th><th>new</th><th>not tested between</th><th>ranges</th></tr>"
                            "%s</table></div>" % "".join(rows))
            else:
                body.append("<p>No behaviour changes between the tested versions.</p>")
            if not_run:
                body.append("<details><summary>not run (%d case variants)</summary><ul>%s</ul></details>" % (
                    sum(not_run.values()), "".join("<li>%s: %d × %s</li>" % (e(v), n, e(o)) for (v, o), n in
                                                   sorted(not_run.items(), key=lambda x: version_ranges.version_key(x[0][0])))))
            links = " ".join('<a href="%s">%s → %s</a>' % (e(_compare_name(field, group, x, y)), e(x), e(y))
                             for x, y in zip(versions, versions[1:]))
            pairs_html.append("<h3>%s</h3><p>%s</p>" % (e(label), links))
    body.append("<h2>What changed between two versions</h2><p>Each pair of adjacent tested versions below; any "
                "other two columns: <a href=\"changes.html#pick\">pick them on the changes page</a> (or "
                "<code>cuda-atlas versions --changed X Y</code>).</p>%s" % "".join(pairs_html))
    return page("Versions as ranges", "".join(body), current="versions.html")


def compare_page(steps, field, group, x, y):
    """`steps`: observations(...)[0][group] — computed once for all pairs."""
    found = version_ranges.changed_steps(steps, x, y)
    rows = "".join("<tr><td><a href=\"../case/%s.html\">%s</a></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
        e(case), e(case), e(variant), e(step), e(a), e(b)) for case, variant, step, a, b in found)
    one_side = version_ranges.not_run_on_one_side(steps, x, y)
    reasons = collections.Counter(one_side.values())
    body = ("<p>%s: every step whose outcome differs between %s %s and %s %s. <a href=\"../versions.html\">All "
            "versions</a>.</p>%s%s" % (
                e(_group_label(group)), e(field), e(x), e(field), e(y),
                "<div class=wrap><table class='outcomes keyed'><tr><th>case</th><th>variant</th><th>step</th><th>%s</th>"
                "<th>%s</th></tr>%s</table></div>" % (
                    e(x), e(y), rows) if rows else "<p>Nothing that ran with both changed.</p>",
                "<p>Ran with only one of them (%d case variants):</p><ul>%s</ul>" % (
                    len(one_side), "".join("<li>%d × %s</li>" % (n, e(r)) for r, n in reasons.most_common()))
                if one_side else ""))
    return page("What changed between %s %s and %s" % (field, x, y), body, depth=1)


def with_companions(results_list, companions):
    """The columns given, and the companion columns (those only these pages read) not already among them."""
    ids = {r.id for r in results_list}
    return list(results_list) + [r for r in companions if r.id not in ids]


def with_extra_columns(results_list):
    """For results files read here (this command's own): the columns given, and — when they include the committed
    results, whose companions these are — those of EXTRA_FOLDERS not already among them. The report and the site
    take the companions from the dataset instead (Dataset.results("versions"))."""
    committed = os.path.join(ROOT, "data", "results") + os.sep
    if not any(os.path.abspath(getattr(r, "path", "")).startswith(committed) for r in results_list):
        return list(results_list)
    paths = list(expand([folder for folder in EXTRA_FOLDERS if os.path.isdir(folder)]))
    extra, _ = load_results(paths)
    return with_companions(results_list, extra)


def pages(results_list):
    """{relative path: text}: versions.html, compare/*.html, sticky.html and sticky.json, from these columns (with
    their companions, with_companions()); nothing is read."""
    # along each axis, the columns that have another version of their group to be compared with (a group of one
    # version has no change and no comparison)
    observed = {field: version_ranges.observations(version_ranges.comparable(results_list, field), field)
                for field in AXES}
    files = {"versions.html": versions_page(results_list, observed)}
    for field in AXES:
        per_group, found = observed[field]
        for group in per_group:
            versions = version_ranges.sort_versions(found[group])
            # Only a step that differs somewhere (or is missing somewhere) can
            # differ between two versions: the pages read those alone.
            differing = {key: by_version for key, by_version in per_group[group].items()
                         if len(by_version) < len(versions) or len(set(by_version.values())) > 1}
            # one page per pair of adjacent versions, where every change is
            # pinned; any other two: the picker of changes.html, or
            # atlas_versions.py --changed X Y
            for x, y in zip(versions, versions[1:]):
                files[_compare_name(field, group, x, y)] = compare_page(differing, field, group, x, y)
    data = sticky_json(results_list)
    files["sticky.html"] = sticky_page(data["statuses"])
    files["sticky.json"] = json.dumps(data, indent=1, sort_keys=True) + "\n"
    return files


def write_pages(results_list, out):
    """The pages above, written into `out` (the columns given, with their companions: with_extra_columns()); returns
    the stickiness data."""
    files = pages(with_extra_columns(results_list))
    for name, text in files.items():
        path = os.path.join(out, *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return json.loads(files["sticky.json"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "report"))
    parser.add_argument("--sticky-json", help="also write the stickiness data here (data/sticky.json)")
    parser.add_argument("--changed", nargs=2, metavar=("X", "Y"), help="print what changed between versions X and Y")
    parser.add_argument("--axis", default="cudart", choices=AXES)
    parser.add_argument("results", nargs="*")
    args = parser.parse_args(argv)
    results, problems = load_results(args.results or default_results_paths())
    for path, reason in problems:
        print("left out %s: %s" % (path, reason), file=sys.stderr)
    if args.changed:
        x, y = args.changed
        found = version_ranges.what_changed(with_extra_columns(results), args.axis, x, y)
        for group, case, variant, step, a, b in found:
            print("%-40s %-45s %s → %s" % (_group_label(group), "%s %s %s" % (case, variant, step), a, b))
        print("%s %s → %s: %d steps changed" % (args.axis, x, y, len(found)), file=sys.stderr)
        return 0
    data = write_pages(results, args.out)
    if args.sticky_json:
        with open(args.sticky_json, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print("versions: %s/versions.html, %s/sticky.html (%d statuses)" % (args.out, args.out, len(data["statuses"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
