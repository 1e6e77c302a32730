"""Benchmark the report (a script that prints figures, not a test): build
the whole report from 10 environments × 100 cases, derived from a real
results file (its runs repeated under new case names, its environment under
new ids), and print how long it took.

    python3 reports/benchmark_report.py [--environments 10] [--cases 100]
"""
import argparse
import copy
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import atlas  # noqa: E402
from atlas_data import default_results_paths, load_cases, load_results  # noqa: E402
from atlas_matrix import Matrix  # noqa: E402


def fixtures(source, environments, cases, where):
    with open(source) as f:
        real = json.load(f)
    by_case = {}
    for run in real["runs"]:
        by_case.setdefault(run["case"], []).append(run)
    names = sorted(by_case)
    paths = []
    for e in range(environments):
        data = {"schema": real["schema"], "environment": dict(real["environment"]), "runs": []}
        data["environment"]["id"] = "%s_fixture%02d" % (real["environment"]["id"], e)
        data["environment"]["mode"] = "fixture%02d" % e
        for c in range(cases):
            for run in by_case[names[c % len(names)]]:
                copied = copy.deepcopy(run)
                copied["case"] = "%s_%03d" % (names[c % len(names)], c)
                data["runs"].append(copied)
        path = os.path.join(where, data["environment"]["id"] + ".json")
        with open(path, "w") as f:
            json.dump(data, f)
        paths.append(path)
    return paths


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--environments", type=int, default=10)
    parser.add_argument("--cases", type=int, default=100)
    args = parser.parse_args()
    source = next(p for p in default_results_paths() if os.path.basename(p).startswith("nvidia-h100"))
    where = tempfile.mkdtemp(prefix="atlas-bench-")
    try:
        paths = fixtures(source, args.environments, args.cases, where)
        timings = []
        for _ in range(3):
            start = time.perf_counter()
            results, problems = load_results(paths)
            matrix = Matrix(results, load_cases())
            atlas.build(matrix, problems, os.path.join(where, "report"))
            timings.append(time.perf_counter() - start)
        rows = len(matrix.rows)
        print("report of %d environments × %d cases (%d rows, %d cells, %d atlas pages): best of 3 %.3f s, worst %.3f s"
              % (args.environments, args.cases, rows, rows * len(matrix.columns), len(matrix.cases), min(timings), max(timings)))
    finally:
        shutil.rmtree(where)


if __name__ == "__main__":
    main()
