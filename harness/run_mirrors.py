"""Run every PyTorch mirror (cases/*/*.py), each variant in its own process
with a time limit, and write what PyTorch said as one JSON file.

    python3 harness/run_mirrors.py --out DIR
"""
import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "harness"))
    runs = []
    for script in sorted(glob.glob(os.path.join(ROOT, "cases", "*", "*.py"))):
        family = os.path.basename(os.path.dirname(script))
        case = os.path.splitext(os.path.basename(script))[0]
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
    path = os.path.join(args.out, "pytorch-mirrors.json")
    with open(path, "w") as f:
        json.dump({"schema": "cuda-error-atlas/pytorch-mirrors/1", "runs": runs}, f, indent=1)
    print("mirror results:", path)


if __name__ == "__main__":
    main()
