"""Run every PyTorch mirror (cases/*/*.py), each variant in its own process
with a time limit, and write what PyTorch said as one results file: the
environment's fingerprint (from atlas-fingerprint, plus the PyTorch version)
and one entry per case and variant.

    python3 harness/run_mirrors.py --out DIR [--fingerprint-program build/run/atlas-fingerprint]
                                  [--family F ...] [--case NAME ...]

A run of some families or cases only is written as a partial results file
(NAME.partial.json): it lies over the complete column of the same
environment, whose other mirrors keep what they recorded.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fingerprint(program):
    """The C harness's fingerprint of this machine, plus PyTorch's versions."""
    environment = {}
    try:
        out = subprocess.run([program], capture_output=True, text=True, timeout=60).stdout
        environment = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    except (OSError, subprocess.TimeoutExpired) as error:
        environment["fingerprint_error"] = str(error)
    import torch
    environment["torch"] = torch.__version__
    environment["torch_cuda"] = torch.version.cuda
    environment["mode"] = "pytorch"
    return environment


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--out", required=True, help="the folder for the results file")
    parser.add_argument("--timeout", type=float, default=120, help="seconds one mirror may run")
    parser.add_argument("--fingerprint-program", default=os.path.relpath(os.path.join(ROOT, "build", "run", "atlas-fingerprint")),
                        help="the built atlas-fingerprint, for the environment")
    parser.add_argument("--family", action="append", default=[],
                        help="run only this family's mirrors (repeatable; default: every family)")
    parser.add_argument("--case", action="append", default=[],
                        help="run only this case's mirror (repeatable; default: every case)")
    args = parser.parse_args()
    environment = fingerprint(args.fingerprint_program)
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "harness"))
    runs = []
    for script in sorted(glob.glob(os.path.join(ROOT, "cases", "*", "*.py"))):
        family = os.path.basename(os.path.dirname(script))
        case = os.path.splitext(os.path.basename(script))[0]
        if (args.family and family not in args.family) or (args.case and case not in args.case):
            continue
        for variant in ("fixed", "broken"):
            run = {"case": case, "family": family, "variant": variant,
                   "source": os.path.relpath(script, ROOT)}
            try:
                done = subprocess.run([sys.executable, script, variant], env=env, capture_output=True,
                                      text=True, timeout=args.timeout)
                run["returncode"] = done.returncode
                lines = [l for l in done.stdout.splitlines() if l.startswith("{")]
                run.update(json.loads(lines[-1]) if lines else {"exception": "<no outcome printed>"})
                run["stderr_tail"] = done.stderr[-2000:]
            except subprocess.TimeoutExpired:
                run["returncode"] = None
                run["exception"] = "<timeout>"
            runs.append(run)
            print("%s %s: %s %s" % (case, variant, run.get("exception"), (run.get("message") or "")[:200]))
    os.makedirs(args.out, exist_ok=True)
    name = "pytorch-%s_%s" % (environment["torch"], environment.get("id", "unknown"))
    partial = bool(args.family or args.case)
    path = os.path.join(args.out, re.sub(r"[^A-Za-z0-9._-]", "-", name) + (".partial.json" if partial else ".json"))
    with open(path, "w") as f:
        json.dump({"schema": "cuda-error-atlas/pytorch/1", "environment": environment, "runs": runs}, f, indent=1)
    print("mirror results:", path)


if __name__ == "__main__":
    main()
