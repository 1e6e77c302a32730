"""Turn a results file back into what its runs recorded, so that the runner
can judge them again against the rules as they are now — without the GPU
they were recorded on:

    cuda-atlas replay RESULTS.json DIR [--atlas-run build/run/atlas-run]
    ATLAS_REPLAY=DIR ctest --preset run        # re-judged results: build/run/results/

Only the judgement is redone: steps, statuses, process ends and output are
the recorded ones, and the fingerprint says `replayed_from`. The records are
written by the harness's one record writer (`atlas-run record`, format in
harness/record.h), so build first. The loop for a new environment is: run
there, draft rules (draft_rules.py), review them, replay to check them,
commit the re-judged results file with the rules.
"""
import argparse
import json
import os
import subprocess
import sys

from .draft_rules import readable_runs
from .results import read_bytes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_RUNNER = os.path.join(ROOT, "build", "run", "atlas-run")


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def text(value):
    """A field as one line of text (None is empty)."""
    return str(value if value is not None else "").replace("\n", " ").replace("\r", " ")


def records(run):
    """The arguments of `atlas-run record` for one run, in recorded order."""
    args = []
    steps = [step for step in run.get("steps") or [] if isinstance(step, dict)]
    probe = next((i for i, s in enumerate(steps) if s.get("step") == "probe"), len(steps))
    for i, step in enumerate(steps):
        # the harness's own line, recorded when the variant returned, before the probe
        if i == probe and (run.get("end") or {}).get("reached_end_of_variant"):
            args.append("variant_end")
        success = step.get("success")
        if success is None:  # results files always say; this is for hand-made ones
            success = step.get("name") in ("cudaSuccess", "CUBLAS_STATUS_SUCCESS", "CUDA_SUCCESS", "result_correct")
        args += ["call", text(step.get("step")), text(step.get("api")), text(step.get("code")),
                 text(step.get("name")), "1" if success else "0", text(step.get("call"))]
    if probe == len(steps) and (run.get("end") or {}).get("reached_end_of_variant"):
        args.append("variant_end")
    quantities = run.get("quantities") if isinstance(run.get("quantities"), dict) else {}
    for name, quantity in quantities.items():
        quantity = quantity if isinstance(quantity, dict) else {"value": quantity}
        args += ["quantity", text(name), text(quantity.get("value")), text(quantity.get("unit"))]
    for note in run.get("notes") if isinstance(run.get("notes"), list) else []:
        args += ["note", text(note)]
    if run.get("skip_reason"):
        args += ["skip", text(run["skip_reason"])]
    return args


def fingerprint(results, results_path):
    environment = dict(results["environment"])
    env = environment.pop("env", None)
    libraries = environment.pop("libraries", None)
    env = env if isinstance(env, dict) else {}
    libraries = [lib for lib in libraries if isinstance(lib, dict)] if isinstance(libraries, list) else []
    lines = ["%s=%s" % (k, text(v)) for k, v in environment.items() if k != "replayed_from"]
    lines += ["env.%s=%s" % (k, text(v)) for k, v in env.items()]
    lines += ["library.%s=%s" % (text(lib.get("name")), lib.get("path") or "none") for lib in libraries]
    lines.append("replayed_from=%s" % os.path.relpath(os.path.abspath(results_path)))
    return "\n".join(lines) + "\n"


def replay(results_path, out, runner=DEFAULT_RUNNER, problems=None):
    """Writes the recordings; returns how many runs could be replayed (the others are named in problems)."""
    problems = [] if problems is None else problems
    results = json.loads(read_bytes(results_path).decode("utf-8"))
    runs = readable_runs(results, results_path, problems)
    if not isinstance(results.get("environment") if isinstance(results, dict) else None, dict):
        problems.append("%s: field 'environment' is not an object: there is no fingerprint to replay" % results_path)
        return 0
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "fingerprint.txt"), fingerprint(results, results_path))
    count = 0
    for i, run in enumerate(runs):
        if not isinstance(run["end"].get("outcome"), str):
            problems.append("%s: run %s/%s: field 'end.outcome' is %r, not a process end; left out"
                            % (results_path, run["case"], run["variant"], run["end"].get("outcome")))
            continue
        count += 1
        stem = os.path.join(out, "%s.%s" % (run["case"], run["variant"]))
        if os.path.exists(stem + ".record"):
            os.remove(stem + ".record")
        subprocess.run([runner, "record", stem + ".record"] + records(run), check=True)
        write(stem + ".end", "%s %s %s\n" % (run["end"]["outcome"], run.get("seconds", 0), run["end"].get("code", 0)))
        write(stem + ".stdout", run.get("stdout_tail") or "")
        write(stem + ".stderr", run.get("stderr_tail") or "")
    return count


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("results", help="a results file")
    parser.add_argument("dir", help="the folder to write the recordings into (then ATLAS_REPLAY=DIR)")
    parser.add_argument("--atlas-run", default=os.path.relpath(DEFAULT_RUNNER),
                        help="the built runner whose record writer to use")
    args = parser.parse_args(argv)
    if not os.access(args.atlas_run, os.X_OK):
        sys.exit("replay: %s is not there: build first (cmake --workflow --preset run) or give --atlas-run"
                 % args.atlas_run)
    problems = []
    try:
        count = replay(args.results, args.dir, args.atlas_run, problems)
    except (OSError, ValueError, subprocess.CalledProcessError) as error:
        sys.exit("replay: cannot replay %s: %s" % (args.results, error))
    for problem in problems:
        print("replay: " + problem, file=sys.stderr)
    if count == 0:
        sys.exit("replay: nothing could be replayed from %s" % args.results)
    print("%d runs of %s ready to judge again: ATLAS_REPLAY=%s ctest --preset run" % (count, args.results, args.dir))


if __name__ == "__main__":
    main()
