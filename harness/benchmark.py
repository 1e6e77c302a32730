"""Benchmark the harness on this machine (a script that prints figures, not
a test). Build first (cmake --workflow --preset run), then:

    python3 harness/benchmark.py [--build build/run] [--jobs 16]

It measures
  - the floor of one case: a process that only creates a CUDA context
    (atlas-context-floor), median of 10 starts;
  - the whole corpus with CTest at the given parallelism, and serially (-j1);
  - the floor of a parallel run: the cases that must run alone (RUN_SERIAL)
    one after another, plus one context start-up;
and prints the speed-up over serial, the ratio to the floor, and the mean
per-case overhead over a bare context.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(command, **kwargs):
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    return time.monotonic() - start, done


def corpus(build, jobs):
    seconds, done = timed(["ctest", "--test-dir", build, "-j", str(jobs)])
    results = sorted(glob.glob(os.path.join(build, "results", "*.json")), key=os.path.getmtime)
    with open(results[-1]) as f:
        runs = json.load(f)["runs"]
    return seconds, done.returncode, runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--build", default=os.path.relpath(os.path.join(ROOT, "build", "run")),
                        help="a built corpus")
    parser.add_argument("--jobs", type=int, default=8, help="CTest's parallelism for the parallel run")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()

    floor_program = os.path.join(args.build, "atlas-context-floor")
    starts = [timed([floor_program])[0] for _ in range(10)]
    context = statistics.median(starts)
    # Do context start-ups overlap? Start `jobs` bare contexts at once.
    start = time.monotonic()
    together = [subprocess.Popen([floor_program]) for _ in range(args.jobs)]
    for process in together:
        process.wait()
    concurrent_contexts = time.monotonic() - start

    listing = json.loads(subprocess.run(["ctest", "--test-dir", args.build, "--show-only=json-v1"],
                                        capture_output=True, text=True, check=True).stdout)
    alone = set()
    for test in listing["tests"]:
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        if props.get("RUN_SERIAL") and "case" in (props.get("LABELS") or []):
            alone.add(test["name"])

    sweep = {}
    for jobs in sorted({max(2, args.jobs // 2), args.jobs, args.jobs * 2}):
        sweep[jobs] = corpus(args.build, jobs)[0]
    parallel, rc_parallel, runs = corpus(args.build, args.jobs)
    serial, rc_serial, _ = corpus(args.build, 1)

    by_name = {"%s/%s/%s" % (r["family"], r["case"], r["variant"]): r["seconds"] for r in runs}
    alone_seconds = sum(by_name.get(name, 0.0) for name in alone)
    floor = alone_seconds + context
    mean_case = statistics.mean(by_name.values())
    figures = {
        "cases": len(by_name), "jobs": args.jobs,
        "context_startup_s": round(context, 3),
        "concurrent_context_startups_s": round(concurrent_contexts, 3),
        "parallel_s_by_jobs": {str(k): round(v, 2) for k, v in sweep.items()},
        "parallel_s": round(parallel, 2), "serial_s": round(serial, 2),
        "speedup": round(serial / parallel, 2),
        "alone_cases": len(alone), "alone_sum_s": round(alone_seconds, 2),
        "floor_s": round(floor, 2), "parallel_over_floor": round(parallel / floor, 2),
        "mean_case_s": round(mean_case, 3), "mean_overhead_over_context_s": round(mean_case - context, 3),
        "ctest_exit": {"parallel": rc_parallel, "serial": rc_serial},
    }
    print("context start-up (process + cudaFree(0)), median of 10: %.3f s" % context)
    print("%d bare contexts started at once: %.3f s (%.1fx one alone: %s)"
          % (args.jobs, concurrent_contexts, concurrent_contexts / context,
             "start-ups overlap" if concurrent_contexts < 2 * context else "the driver serializes them"))
    print("corpus wall time by parallelism: " + ", ".join("-j%d %.1f s" % kv for kv in sorted(sweep.items())))
    print("corpus, %d case variants: ctest -j%d %.1f s, ctest -j1 %.1f s: %.1fx faster than serial"
          % (len(by_name), args.jobs, parallel, serial, serial / parallel))
    print("floor: %d variants must run alone (%.1f s together) + one context start-up = %.1f s;"
          " the parallel run takes %.2fx the floor" % (len(alone), alone_seconds, floor, parallel / floor))
    print("per case: %.3f s on average, %.3f s over a bare context" % (mean_case, mean_case - context))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
