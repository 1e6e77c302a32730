"""Benchmark the report (a script that prints figures, not a test): build the
whole site from N environments × M cases, derived from a real results file
(its runs repeated under new case names, each with a lesson copied from a
real case; its environment under new ids), and print how long loading and
building took and how large the matrix page is. The issue's target: 30
environments × 250 cases in under 2 s, a matrix page under 1 MB.

    cuda-atlas benchmark-report [--environments 30] [--cases 250] [--profile]
"""
import argparse
import copy
import json
import os
import shutil
import sys
import tempfile
import time


from . import report as atlas
from .results import default_results_paths, load_results, read_bytes
from .lessons import load_cases
from .matrix import Matrix


def fixtures(source, environments, cases, where):
    """Results files and a {name: Case} of `cases` cases, all derived from real ones."""
    real = json.loads(read_bytes(source).decode("utf-8"))
    lessons = load_cases()
    by_case = {}
    for run in real["runs"]:
        by_case.setdefault(run["case"], []).append(run)
    names = sorted(n for n in by_case if n in lessons)
    fake_cases = {}
    for c in range(cases):
        name = "%s_%03d" % (names[c % len(names)], c)
        case = copy.copy(lessons[names[c % len(names)]])
        case.name = name
        fake_cases[name] = case
    paths = []
    cudarts = ["11.8"] + ["12.%d" % i for i in range(10)] + ["13.0", "13.1"]
    for e in range(environments):
        data = {"schema": real["schema"], "collected": "2026-11-%02dT00:00:00Z" % (1 + e % 28),
                "environment": dict(real["environment"]), "runs": []}
        env = data["environment"]
        env["cudart"] = cudarts[e % len(cudarts)]
        env["mode"] = ("default", "launch_blocking", "sanitizer")[e // len(cudarts) % 3]
        env["id"] = "%s_fixture%02d" % (real["environment"]["id"], e)
        for c in range(cases):
            for run in by_case[names[c % len(names)]]:
                copied = copy.deepcopy(run)
                copied["case"] = "%s_%03d" % (names[c % len(names)], c)
                data["runs"].append(copied)
        path = os.path.join(where, env["id"] + ".json")
        with open(path, "w") as f:
            json.dump(data, f)
        paths.append(path)
    return paths, fake_cases


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--environments", type=int, default=30)
    parser.add_argument("--cases", type=int, default=250)
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    args = parser.parse_args(argv)
    source = next(p for p in default_results_paths() if os.path.basename(p).startswith("nvidia-h100"))
    where = tempfile.mkdtemp(prefix="atlas-bench-")
    try:
        paths, cases = fixtures(source, args.environments, args.cases, where)
        out = os.path.join(where, "report")

        def once():
            results, problems = load_results(paths)
            matrix = Matrix(results, cases)
            atlas.build(matrix, problems, out)
            return matrix
        if args.profile:
            import cProfile
            import pstats
            cProfile.runctx("once()", globals(), locals(), os.path.join(where, "profile"))
            pstats.Stats(os.path.join(where, "profile")).sort_stats("cumulative").print_stats(30)
        timings, cpu = [], []
        for _ in range(3):
            start, start_cpu = time.perf_counter(), time.process_time()
            matrix = once()
            timings.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        size = os.path.getsize(os.path.join(out, "index.html"))
        total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
        files = sum(len(fs) for _, _, fs in os.walk(out))
        print("report of %d environments × %d cases (%d variant rows, %d cells, %d case pages)"
              % (args.environments, args.cases, len(matrix.rows), len(matrix.rows) * len(matrix.columns), len(matrix.cases)))
        print("  load and build: best of 3 %.2f s, worst %.2f s (target < 2 s); CPU time best %.2f s"
              % (min(timings), max(timings), min(cpu)))
        print("  matrix page (index.html): %d bytes = %.2f MB (target < 1 MB)" % (size, size / 1e6))
        print("  whole site: %d files, %.1f MB" % (files, total / 1e6))
    finally:
        shutil.rmtree(where)


if __name__ == "__main__":
    main()
