"""Benchmark the report (a script that prints figures, not a test): the report
of N environments × M cases, rendered as `cuda-atlas report build` renders
one, from a compiled dataset. The evidence is derived from a real column of
the checkout's dataset: its runs repeated under new case names, each case a
copy of a real lesson under its new name, its environment under new ids. A
temporary tree holds those cases and columns beside this checkout's rules and
data; its dataset is compiled once (timed apart: compiling happens once per
change of the evidence), then the report is rendered from it three times,
each time in a process of its own forked for it, so that nothing one
rendering computed is there for the next. It prints how long opening the
dataset, reading it and writing the pages took, and how large the matrix page
is. The issue's target: 30 environments × 250 cases rendered in under 2 s, a
matrix page under 1 MB.

    cuda-atlas benchmark-report [--environments 30] [--cases 250] [--profile]
"""
import argparse
import copy
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time


from . import report as atlas
from .dataset import open_dataset
from .results import ROOT


def tree(where, environments, cases):
    """A tree in `where` shaped like a checkout: cases/ holds `cases` copies of real lessons (each under its own
    name, <case>_NNN, with its PyTorch mirror), expected/ and data/ are this checkout's, but for data/results/, which
    holds `environments` columns derived from a real one. Everything is read from the checkout's dataset."""
    dataset = open_dataset()
    lessons = dataset.cases()
    real = min((r for r in dataset.results()[0] if os.path.basename(r.path).startswith("nvidia-h100")),
               key=lambda r: r.path)
    by_case = {}
    for run in real.runs:
        by_case.setdefault(run["case"], []).append(run)
    names = sorted(n for n in by_case if n in lessons)
    os.makedirs(where)
    os.symlink(os.path.join(ROOT, "expected"), os.path.join(where, "expected"))
    os.makedirs(os.path.join(where, "data", "results"))
    for name in os.listdir(os.path.join(ROOT, "data")):
        if name != "results":
            os.symlink(os.path.join(ROOT, "data", name), os.path.join(where, "data", name))
    fake = []
    for c in range(cases):
        lesson = lessons[names[c % len(names)]]
        name = "%s_%03d" % (lesson.name, c)
        folder = os.path.join(where, "cases", lesson.family)
        os.makedirs(folder, exist_ok=True)
        for suffix, text in ((os.path.splitext(lesson.source_path)[1], lesson.source), (".py", lesson.mirror_source)):
            if text is not None:
                with open(os.path.join(folder, name + suffix), "w", encoding="utf-8") as f:
                    f.write(text)
        fake.append((name, lesson.name))
    cudarts = ["11.8"] + ["12.%d" % i for i in range(10)] + ["13.0", "13.1"]
    for e in range(environments):
        env = dict(real.environment, cudart=cudarts[e % len(cudarts)],
                   mode=("default", "launch_blocking", "sanitizer")[e // len(cudarts) % 3],
                   id="%s_fixture%02d" % (real.environment["id"], e))
        runs = []
        for name, source in fake:
            for run in by_case[source]:
                runs.append(dict(copy.deepcopy(run), case=name))
        with open(os.path.join(where, "data", "results", env["id"] + ".json"), "w", encoding="utf-8") as f:
            json.dump({"schema": real.data["schema"], "collected": "2026-11-%02dT00:00:00Z" % (1 + e % 28),
                       "environment": env, "runs": runs}, f)
    return where


def render(dataset_path, root, out, profile=False):
    """Render the report from the dataset as `report build` does; returns the seconds each part took and the size
    of what was rendered. Runs in a process of its own."""
    if profile:
        import cProfile
        import pstats
        profiler = cProfile.Profile()
        profiler.enable()
    started, cpu = time.perf_counter(), time.process_time()
    dataset = open_dataset(dataset_path, root, rebuild=False, as_compiled=True)   # current? (it says why not)
    opened = time.perf_counter()
    with atlas.collector_paused():                    # as `report build` reads and renders
        report = atlas.read(dataset)
        read = time.perf_counter()
        atlas.write(report, out)
        done, cpu = time.perf_counter(), time.process_time() - cpu
    if profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
        sys.stdout.flush()
    matrix = report.matrix
    return {"open": opened - started, "read": read - opened, "pages": done - read, "total": done - started,
            "cpu": cpu, "rows": len(matrix.rows), "cells": len(matrix.rows) * len(matrix.columns),
            "cases": len(matrix.cases)}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="cuda-atlas benchmark-report", description=__doc__.split("\n\n")[0])
    parser.add_argument("--environments", type=int, default=30)
    parser.add_argument("--cases", type=int, default=250)
    parser.add_argument("--profile", action="store_true", help="print where the time of one rendering goes")
    args = parser.parse_args(argv)
    where = tempfile.mkdtemp(prefix="atlas-bench-")
    try:
        root = tree(os.path.join(where, "tree"), args.environments, args.cases)
        path, out = os.path.join(where, "atlas.sqlite"), os.path.join(where, "report")
        # compiled by the command a user runs, in a process of its own (none of its work is left in this one)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "cuda_error_atlas", "data", "build", "--root", root, "--out", path],
                              capture_output=True, text=True, cwd=ROOT)
        if done.returncode != 0:
            raise SystemExit("benchmark-report: compiling the dataset failed:\n%s" % done.stderr)
        compiled = time.perf_counter() - start
        os.sync()           # the compiled dataset and the results files on disk: their writing is no rendering's
        size = sum(os.path.getsize(os.path.join(root, "data", "results", f))
                   for f in os.listdir(os.path.join(root, "data", "results")))
        # each rendering in a process forked for it alone (maxtasksperchild=1): none finds another's work done
        with multiprocessing.get_context("fork").Pool(1, maxtasksperchild=1) as pool:
            if args.profile:
                pool.apply(render, (path, root, out, True))
            runs = [pool.apply(render, (path, root, out)) for _ in range(3)]
        best, worst = min(runs, key=lambda r: r["total"]), max(runs, key=lambda r: r["total"])
        index = os.path.getsize(os.path.join(out, "index.html"))
        total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
        files = sum(len(fs) for _, _, fs in os.walk(out))
        print("report of %d environments × %d cases (%d variant rows, %d cells, %d case pages)"
              % (args.environments, args.cases, best["rows"], best["cells"], best["cases"]))
        print("  dataset: compiled in %.1f s from %.1f MB of results files (once per change of the evidence; %.1f MB)"
              % (compiled, size / 1e6, os.path.getsize(path) / 1e6))
        print("  rendered from the dataset: best of 3 %.2f s, worst %.2f s (target < 2 s); CPU time best %.2f s"
              % (best["total"], worst["total"], min(r["cpu"] for r in runs)))
        print("    best: opening the dataset %.2f s, reading it (columns, lessons, statuses) %.2f s, the pages %.2f s"
              % (best["open"], best["read"], best["pages"]))
        print("  matrix page (index.html): %d bytes = %.2f MB (target < 1 MB)" % (index, index / 1e6))
        print("  whole site: %d files, %.1f MB" % (files, total / 1e6))
    finally:
        shutil.rmtree(where)


if __name__ == "__main__":
    main()
