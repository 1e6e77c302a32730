"""How long explain takes, as a user runs it, and whether that grows with the columns.

    cuda-atlas benchmark-dataset [--copies 10] [--runs 15]

A benchmark, not a test: it prints figures. It compiles two datasets — the
committed columns, and the committed columns plus COPIES synthetic copies of
each (the same runs under another environment id: more machines of the same
environments, as a fleet adds them) — then times `cuda-atlas explain` as a
fresh process (Python's start-up included) on a few real messages against
each, and prints the medians and their ratio. It also times a 1 MB input on
one line and on many lines. Everything happens in a temporary folder.
"""
import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from .results import ROOT, default_results_paths, read_bytes

MESSAGES = [
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemmStridedBatched( handle, opa, opb, m, n, k, &alpha, a, lda, "
    "stridea, b, ldb, strideb, &beta, c, ldc, stridec, num_batches)`",
    "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the "
    "'spawn' start method",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB "
    "of which 1.02 GiB is free.",
]


def tree_with_copies(root, folder, copies):
    """A tree in folder: cases and expected linked, data copied, each committed column copied `copies` times."""
    for name in ("cases", "expected"):
        os.symlink(os.path.join(root, name), os.path.join(folder, name))
    shutil.copytree(os.path.join(root, "data"), os.path.join(folder, "data"), symlinks=True)
    results = os.path.join(folder, "data", "results")
    for path in default_results_paths(root):
        data = json.loads(read_bytes(path).decode("utf-8"))
        environment = data.get("environment") or {}
        for n in range(1, copies + 1):
            copy = dict(data, environment=dict(environment, id="%s_copy%d" % (environment.get("id", "x"), n)))
            name = os.path.basename(path).replace(".json", "_copy%d.json" % n)
            with gzip.open(os.path.join(results, name if name.endswith(".gz") else name + ".gz"), "wt",
                           encoding="utf-8") as f:
                json.dump(copy, f)
    return folder


def time_explain(dataset, text, runs):
    """Median seconds of `python3 -m cuda_error_atlas explain` as a fresh process, as a user's Python runs it: with
    its bytecode cache (PYTHONDONTWRITEBYTECODE, set on some build machines, is dropped; an untimed first call writes
    the cache, as a user's first call, or pip at install, does)."""
    times = []
    env = dict(os.environ, CUDA_ATLAS_DATASET=dataset)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for run in range(runs + 1):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cuda_error_atlas", "explain", "-"], input=text.encode("utf-8"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT, check=False)
        if run:
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="cuda-atlas benchmark-dataset", description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=10, help="synthetic copies of every committed column")
    parser.add_argument("--runs", type=int, default=15, help="timed calls per message")
    args = parser.parse_args(argv)
    from . import dataset
    work = tempfile.mkdtemp(prefix="atlas-bench-")
    try:
        plain = os.path.join(work, "plain.sqlite")
        dataset.build(ROOT, plain, quiet=True)
        grown = os.path.join(work, "grown.sqlite")
        os.makedirs(os.path.join(work, "tree"))
        tree = tree_with_copies(ROOT, os.path.join(work, "tree"), args.copies)
        dataset.build(tree, grown, quiet=True)
        columns = len(default_results_paths(ROOT))
        print("columns: %d committed; %d with %d copies of each" % (columns, columns * (args.copies + 1), args.copies))
        print("dataset size: %.1f MB and %.1f MB" % (os.path.getsize(plain) / 1e6, os.path.getsize(grown) / 1e6))
        medians = []
        for text in MESSAGES:
            a, b = time_explain(plain, text, args.runs), time_explain(grown, text, args.runs)
            medians.append((a, b))
            print("  %-60s %.3f s  %.3f s" % (text[:60], a, b))
        a = statistics.median(m[0] for m in medians)
        b = statistics.median(m[1] for m in medians)
        print("explain, a fresh process, median over %d messages × %d calls: %.3f s; with %d× the columns: %.3f s; "
              "ratio %.2f" % (len(MESSAGES), args.runs, a, args.copies + 1, b, b / a))
        one_line = ("CUDA error: an illegal memory access was encountered while running the kernel " * 14000)[:1 << 20]
        many = "\n".join(["Epoch 3 step 17 loss 0.123 lr 1e-4"] * 30000)[:(1 << 20) - 80] + \
            "\nRuntimeError: CUDA error: an illegal memory access was encountered"
        for name, text in (("1 MB on one line", one_line), ("1 MB of log lines, the error last", many)):
            print("explain on %s: %.3f s" % (name, time_explain(plain, text, 3)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0
