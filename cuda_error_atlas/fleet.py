"""cuda-atlas fleet: the corpus across a Slurm cluster (docs/fleet.md).

    cuda-atlas fleet plan PLAN N          element N of the plan, as shell assignments (atlas.sbatch evals them)
    cuda-atlas fleet plan PLAN --sbatch   check the plan; print one sbatch command per partition
    cuda-atlas fleet stamp FILE --job J --task T --node N ...
                                          add an element's provenance to the results file it wrote
    cuda-atlas fleet merge DIR... --out OUTDIR
                                          one results file per environment, every machine in its provenance

This module is the one reader of plan files. Results files are read by
results.py, as everywhere; what this module adds to them is "provenance" (a
top-level object, README "The results file") and, in a merged file, "machines"
on each run. Standard library only."""
import argparse
import json
import os
import re
import shlex
import sys
import tempfile

from .results import MODE_ORDER, ROOT, expand, plain_name, read_bytes, read_results_file

PLAN_FIELDS = ("partition", "toolkit", "mode", "prebuilt")
ANY = "-"           # a partition or prebuilt field that says "none in particular"


# ---- the plan ----------------------------------------------------------------

class PlanError(Exception):
    """A plan line that cannot be run, as "file:line: why"."""


class Element:
    """One array element: one line of the plan (element N is the Nth line that is not blank or a comment)."""

    def __init__(self, number, where, text, fields):
        self.number, self.where, self.text = number, where, text
        self.partition, self.toolkit, self.mode = fields[:3]
        self.prebuilt = fields[3] if len(fields) > 3 and fields[3] != ANY else ""
        self.error = None


def presets(root=ROOT):
    """(configure preset names, {test preset name: environment}) from CMakePresets.json, with inheritance
    resolved and the macros a preset environment uses here expanded (${sourceDir}, $env{X}, $penv{X})."""
    with open(os.path.join(root, "CMakePresets.json"), encoding="utf-8") as f:
        data = json.load(f)
    configure = {p["name"] for p in data.get("configurePresets", [])}
    tests = {p["name"]: p for p in data.get("testPresets", [])}

    def environment(name, seen=()):
        if name in seen or name not in tests:
            return {}
        preset, env = tests[name], {}
        inherits = preset.get("inherits", [])
        for parent in [inherits] if isinstance(inherits, str) else inherits:
            env.update(environment(parent, seen + (name,)))
        env.update(preset.get("environment", {}))
        return env

    def expand_macros(value):
        value = value.replace("${sourceDir}", root)
        value = re.sub(r"\$p?env\{(\w+)\}", lambda m: os.environ.get(m.group(1), ""), value)
        if "$" in value:
            raise PlanError("CMakePresets.json: %r uses a macro fleet does not expand" % value)
        return value

    return configure, {name: {k: expand_macros(v) for k, v in environment(name).items()} for name in tests}


def mode_preset(mode):
    """The test preset that runs a mode: launch_blocking -> launch-blocking; default -> none."""
    return None if mode == "default" else mode.replace("_", "-")


def read_plan(path, root=ROOT):
    """Every element of the plan, in order; an element whose line cannot be run has .error ("file:line: why")."""
    configure, tests = presets(root)
    elements = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            fields = text.split()
            where = "%s:%d" % (path, number)
            element = Element(len(elements) + 1, where, " ".join(fields), fields + [""] * (3 - len(fields)))
            if not 3 <= len(fields) <= 4:
                element.error = "%s: %d fields; a plan line is: %s (the last may be left out)" % (
                    where, len(fields), " ".join(PLAN_FIELDS))
            elif fields[1] not in configure:
                element.error = "%s: toolkit %r is not a configure preset in CMakePresets.json (%s)" % (
                    where, fields[1], ", ".join(sorted(configure)))
            elif fields[2] not in MODE_ORDER:
                element.error = "%s: mode %r is not one of %s" % (where, fields[2], ", ".join(MODE_ORDER))
            elif mode_preset(fields[2]) and mode_preset(fields[2]) not in tests:
                element.error = "%s: mode %s has no test preset %r in CMakePresets.json" % (
                    where, fields[2], mode_preset(fields[2]))
            elements.append(element)
    return elements


def ctest_environment(element, root=ROOT):
    """What the element's ctest runs under, as `env` arguments: every mode's variables unset (the submitter's
    shell must not choose the mode), then the toolkit's test preset and the mode's test preset."""
    _, tests = presets(root)
    names = {"ATLAS_MODE"}
    for mode in MODE_ORDER:
        names.update(tests.get(mode_preset(mode) or "", {}))
    args = ["-u%s" % name for name in sorted(names)]
    env = dict(tests.get(element.toolkit, {}))
    env.update(tests.get(mode_preset(element.mode) or "", {}))
    return args + ["%s=%s" % item for item in sorted(env.items())]


def element_shell(element, root=ROOT):
    """The element as bash assignments, for atlas.sbatch to eval."""
    q = shlex.quote
    lines = ["plan_line=%s" % q(element.text), "plan_where=%s" % q(element.where),
             "partition=%s" % q(element.partition), "toolkit=%s" % q(element.toolkit),
             "mode=%s" % q(element.mode), "prebuilt=%s" % q(element.prebuilt),
             "ctest_env=(%s)" % " ".join(q(a) for a in ctest_environment(element, root))]
    return "\n".join(lines)


def sbatch_commands(elements, plan):
    """One sbatch command per partition, each with the array indices of its lines."""
    by_partition = {}
    for element in elements:
        by_partition.setdefault(element.partition, []).append(element.number)
    commands = []
    for partition, numbers in by_partition.items():
        option = "" if partition == ANY else "--partition=%s " % partition
        commands.append("sbatch %s--array=%s harness/fleet/atlas.sbatch %s" % (
            option, ",".join(str(n) for n in numbers), shlex.quote(plan)))
    return commands


def plan_main(args):
    try:
        elements = read_plan(args.plan)
    except (OSError, UnicodeDecodeError, ValueError, PlanError) as error:
        print("fleet plan: %s: %s" % (args.plan, error), file=sys.stderr)
        return 2
    if args.sbatch or args.element is None:
        bad = [e.error for e in elements if e.error]
        for problem in bad:
            print("fleet plan: %s" % problem, file=sys.stderr)
        if not elements:
            print("fleet plan: %s has no elements" % args.plan, file=sys.stderr)
        if bad or not elements:
            return 2
        print("\n".join(sbatch_commands(elements, args.plan)))
        return 0
    if not 1 <= args.element <= len(elements):
        print("fleet plan: %s has %d elements, not %d (the array's indices are 1 to %d)"
              % (args.plan, len(elements), args.element, len(elements)), file=sys.stderr)
        return 2
    element = elements[args.element - 1]
    if element.error:
        print("fleet plan: %s" % element.error, file=sys.stderr)
        return 2
    try:
        print(element_shell(element))
    except PlanError as error:
        print("fleet plan: %s" % error, file=sys.stderr)
        return 2
    return 0


# ---- stamp: one element's provenance ------------------------------------------

def write_json(path, data):
    """Written whole or not at all: a merge reading the folder never sees half a file."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".fleet-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
            f.write("\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def stamp_main(args):
    results, problems = read_results_file(args.file)
    if results is None:
        for problem in problems:
            print("fleet stamp: %s: %s" % problem, file=sys.stderr)
        return 1
    data = json.loads(read_bytes(args.file).decode("utf-8"))
    provenance = {"slurm_job_id": args.job, "slurm_array_job_id": args.array_job, "slurm_array_task_id": args.task,
                  "node": args.node, "host": args.host, "partition": args.partition, "plan_line": args.plan_line,
                  "plan": args.plan, "ctest_exit": args.ctest_exit}
    data["provenance"] = {k: v for k, v in provenance.items() if v not in (None, "")}
    write_json(args.file, data)
    mode = results.environment.get("mode")
    if args.expect_mode and mode != args.expect_mode:
        print("fleet stamp: %s: the plan asks for mode %s, the run's fingerprint says %s" % (
            args.file, args.expect_mode, mode), file=sys.stderr)
        return 1
    return 0


# ---- merge: one column per environment ------------------------------------------

def machine_of(results):
    """Who ran a file: its provenance (node, job, task, when), or the file's name where it has none."""
    p = results.data.get("provenance")
    p = p if isinstance(p, dict) else {}
    job = p.get("slurm_array_job_id") or p.get("slurm_job_id")
    return {"node": p.get("node") or p.get("host"), "host": p.get("host"), "job": job,
            "task": p.get("slurm_array_task_id"), "plan_line": p.get("plan_line"),
            "collected": results.collected, "file": os.path.basename(results.path)}


def machine_label(machine):
    if machine["node"] is None:
        return "file %s" % machine["file"]
    if machine["job"] is None:
        return str(machine["node"])
    return "%s (job %s task %s)" % (machine["node"], machine["job"], machine["task"])


def signature(run):
    """What a machine saw of one variant: the verdict, and the distinct signatures of its repeats (the runner's:
    the steps' statuses and the end), or the same built from the steps where a file has no signatures. Three
    repeats of one outcome and one run of it are the same observation."""
    signatures = run.get("signatures")
    if not (isinstance(signatures, list) and signatures and all(isinstance(s, str) for s in signatures)):
        steps = " ".join("%s=%s" % (s["step"], s["name"]) for s in run.get("steps", []))
        signatures = [(steps + " " if steps else "") + "end=%s" % (run.get("end") or {}).get("outcome")]
    return run.get("verdict"), tuple(dict.fromkeys(signatures))


def merge_runs(contributions):
    """contributions: [(machine, run)] of one variant, one per machine that ran it. Machines that agree: the run
    once, with their count. Machines that disagree: the run is flaky, and a note says which machine saw what."""
    machines = [m for m, _ in contributions]
    first = dict(contributions[0][1])
    seen = [(m, signature(r)) for m, r in contributions]
    outcomes = {s for _, s in seen}
    verdicts = {s[0] for s in outcomes}
    first["machines"] = len(machines)
    # a case whose rules list every outcome (nondeterministic) differs between repeats by design: only a
    # different verdict is a disagreement
    agree = len(outcomes) == 1 or (first.get("nondeterministic") is True and len(verdicts) == 1)
    if agree:
        if len(outcomes) > 1:
            first["notes"] = list(first.get("notes") or []) + [
                "nondeterministic: the machines saw %s" % "; ".join(
                    "%s: %s" % (machine_label(m), " | ".join(s[1])) for m, s in seen)]
        return first, False
    first["verdict"] = "flaky"
    first["flaky"] = True
    first["repeats"] = sum(r.get("repeats") if isinstance(r.get("repeats"), int) else 1 for _, r in contributions)
    first["signatures"] = [sig for _, s in seen for sig in s[1]]
    first["machine_outcomes"] = [{"machine": machine_label(m), "verdict": s[0], "signatures": list(s[1])}
                                 for m, s in seen]
    first["notes"] = list(first.get("notes") or []) + [
        "machines disagree: %s" % "; ".join("%s saw %s (%s)" % (machine_label(m), s[0], " | ".join(s[1]))
                                            for m, s in seen)]
    return first, True


def merge_group(group):
    """One environment's files (Results, oldest first) -> (merged results data, number of disagreements)."""
    machines = [machine_of(r) for r in group]
    base = group[0]
    data = {"schema": base.data["schema"], "collected": max((r.collected or "" for r in group)) or None,
            "environment": dict(base.environment)}
    # an environment field other than those in the id (a kernel, a library's path) may differ between machines
    differing = {}
    for field in sorted({k for r in group for k in r.environment}):
        values = [r.environment.get(field) for r in group]
        if any(v != values[0] for v in values):
            differing[field] = {machine_label(m): v for m, v in zip(machines, values)}
    coverages = [r.coverage for r in group if isinstance(r.coverage, dict)]
    runs, order = {}, []
    for machine, results in zip(machines, group):
        for run in results.runs:
            key = (run["case"], run["variant"])
            if key not in runs:
                runs[key] = []
                order.append(key)
            runs[key].append((machine, run))
    merged, disagreements = [], []
    for key in order:
        run, disagree = merge_runs(runs[key])
        merged.append(run)
        if disagree:
            disagreements.append("%s/%s" % key)
    data["runs"] = merged
    if coverages:
        not_run = set.intersection(*(set(c.get("not_run") or []) for c in coverages))
        errors = sorted({e for c in coverages for e in (c.get("errors") or [])})
        registered = max(c["registered"] for c in coverages)
        data["coverage"] = {"registered": registered, "ran": registered - len(not_run),
                            "complete": not not_run and all(c.get("complete") for c in coverages),
                            "not_run": sorted(not_run), "errors": errors}
    n = len(machines)
    data["provenance"] = {
        "observed_on": "observed on %d machine%s" % (n, "" if n == 1 else "s"),
        "machines": machines,
        "disagreements": disagreements,
        "environment_differences": differing,
    }
    return data, disagreements


def merge(paths, out):
    """Merges the results files under paths into out; returns (written paths, problems as (path, reason),
    failed elements as (marker, reason))."""
    groups, problems, failed = {}, [], []
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if name.endswith(".failed"):
                    marker = os.path.join(path, name)
                    try:
                        with open(marker, encoding="utf-8", errors="replace") as f:
                            failed.append((marker, f.read().strip() or "no reason given"))
                    except OSError as error:
                        failed.append((marker, "unreadable marker: %s" % error))
    for path in expand(paths):
        results, found = read_results_file(path)
        problems += [p for p in found]
        if results is None:
            continue
        if results.kind != "c":
            problems.append((path, "a PyTorch mirror's file; fleet merges the corpus's results files"))
            continue
        env_id = results.environment.get("id")
        if not env_id:
            problems.append((path, "its environment has no id, so it cannot be matched with other machines'"))
            continue
        filtered = plain_name(path).endswith(".partial.json")
        groups.setdefault((env_id, filtered), []).append(results)
    written = []
    if groups:
        os.makedirs(out, exist_ok=True)
    for (env_id, filtered), group in sorted(groups.items()):
        group.sort(key=lambda r: (r.collected or "", r.path))
        data, _ = merge_group(group)
        target = os.path.join(out, env_id + (".partial.json" if filtered else ".json"))
        write_json(target, data)
        written.append((target, data))
    return written, problems, failed


def merge_main(args):
    written, problems, failed = merge(args.dirs, args.out)
    for marker, reason in failed:
        print("failed element: %s: %s" % (marker, reason), file=sys.stderr)
    for problem in problems:
        scope = getattr(problem, "scope", "file")
        what = "not merged" if scope == "file" else "merged without it"
        print("%s: %s (%s)" % (problem[0], problem[1], what), file=sys.stderr)
    for target, data in written:
        p = data["provenance"]
        print("%s: %s%s" % (target, p["observed_on"],
                            "; %d disagreement%s (flaky): %s" % (len(p["disagreements"]),
                                                                  "" if len(p["disagreements"]) == 1 else "s",
                                                                  ", ".join(p["disagreements"]))
                            if p["disagreements"] else ""))
    if not written:
        print("fleet merge: nothing could be merged from %s" % ", ".join(args.dirs), file=sys.stderr)
        return 1
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="cuda-atlas fleet", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="How a lab runs it: docs/fleet.md")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plan", help="one element of a plan as shell assignments, or the sbatch commands")
    p.add_argument("plan", help="the plan file (harness/fleet/plan.example describes it)")
    p.add_argument("element", nargs="?", type=int, help="the array index: the Nth element of the plan")
    p.add_argument("--sbatch", action="store_true", help="check every line; print one sbatch command per partition")
    p.set_defaults(run=plan_main)
    s = sub.add_parser("stamp", help="add an element's provenance to its results file (atlas.sbatch does)")
    s.add_argument("file")
    s.add_argument("--job", required=True, help="SLURM_JOB_ID: the element's own job id")
    s.add_argument("--array-job", help="SLURM_ARRAY_JOB_ID: the array's job id")
    s.add_argument("--task", required=True, help="SLURM_ARRAY_TASK_ID")
    s.add_argument("--node", required=True, help="SLURMD_NODENAME")
    s.add_argument("--host", help="the node's hostname")
    s.add_argument("--partition", help="SLURM_JOB_PARTITION")
    s.add_argument("--plan-line", help="the plan line the element ran")
    s.add_argument("--plan", help="where that line is, file:line")
    s.add_argument("--ctest-exit", type=int, help="the exit status of the element's ctest")
    s.add_argument("--expect-mode", help="fail (after stamping) if the fingerprint's mode is not this")
    s.set_defaults(run=stamp_main)
    m = sub.add_parser("merge", help="merge a folder of elements' results: one file per environment")
    m.add_argument("dirs", nargs="+", metavar="DIR", help="folders (or files) of results an array wrote")
    m.add_argument("--out", required=True, help="where the merged results files go")
    m.set_defaults(run=merge_main)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
