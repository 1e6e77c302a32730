#!/usr/bin/env python3
"""Prints parameters.tsv: which argument cuBLAS means by
"** On entry to NAME  parameter number N had an illegal value".

    python3 harness/tables/make_cublas_parameters.py /usr/local/cuda/include/cublas_api.h \
        [--version 13.0] [--probe observed/probe_*.log ...] \
        [--results ../results --cases ../../cases] > parameters.tsv

Only the header is required. Without --probe the numbers are the header
positions counted from the first argument after the handle (the rule the
project's GPU runs confirmed for cublasSgemm and cublasGemmEx); printed names
then come from the thread citations below or are inferred (marked so).
With --probe (logs written by probe.cu, see harness/tables/make_cublas_parameter_probe.py) the printed name and
number of every parameter the probe made invalid are taken from what cuBLAS
printed; where a routine's printed numbers are not its header positions, the
numbering is re-derived by dropping a class of parameters (the data-type
arguments of cublasSgemmEx/cublasCgemmEx, the strides of the
*gemmStridedBatched routines), the dropped ones getting number '-'.
With --results/--cases, the (printed name, number) pairs found in the
project's result files are cited for the rows whose function the case's
source calls. Standard library only.
"""
import argparse
import collections
import glob
import gzip
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cublas_prototypes as cp  # noqa: E402

MSG = re.compile(r"On entry to (.+?)\s+parameter number\s+(\d+)")

# Printed names users pasted (thread URL), for routines the probe did not make print.
THREADS = {
    "SGEMV": "https://github.com/torch/cutorch/issues/55",          # SGEMV parameter number 6 (2014)
    "DGEMM": "https://github.com/cp2k/dbcsr/issues/28",             # DGEMM parameter number 10
    "GEMM_EX": "https://github.com/tensorflow/tensorflow/issues/25761",  # GEMM_EX 9 with cudart 9.0
    "HgemmStridedBatched": "https://github.com/aredden/torch-cublas-hgemm/issues/1",  # number 10
}
THREAD_FUNCS = {"SGEMV": ["cublasSgemv"], "DGEMM": ["cublasDgemm"],
                "GEMM_EX": ["cublasGemmEx"], "HgemmStridedBatched": ["cublasHgemmStridedBatched"]}

DROP_CLASSES = [("type", re.compile(r"^[ABC]type$")), ("stride", re.compile(r"^stride"))]


def read_probe(paths):
    """{function: {'printed': set, 'obs': {param: (printed, number)}, 'silent': set(params), 'log': path}}"""
    out = collections.defaultdict(lambda: {"printed": set(), "obs": {}, "silent": set(), "log": None})
    for path in paths:
        cur = None
        for line in open(path, encoding="utf-8", errors="replace"):
            line = line.rstrip("\n")
            if line.startswith("PROBE\t"):
                _, fn, idx, pname, val = line.split("\t")[:5]
                cur = [fn, pname, None]
                out[fn]["log"] = path
            elif line.startswith("STATUS\t") and cur:
                if cur[1] != "-" and cur[2] is None:
                    out[cur[0]]["silent"].add(cur[1])
                cur = None
            elif cur:
                m = MSG.search(line)
                if m:
                    cur[2] = (m.group(1).strip(), int(m.group(2)))
                    out[cur[0]]["printed"].add(cur[2][0])
                    out[cur[0]]["obs"][cur[1]] = cur[2]
    for d in out.values():
        d["silent"] -= set(d["obs"])
    return out


def read_results(results, cases):
    """{(printed, number): [(relpath, case)]} from the project's result files."""
    found = collections.defaultdict(set)
    files = sorted(glob.glob(os.path.join(results, "**", "*.json*"), recursive=True))
    for f in files:
        opener = gzip.open if f.endswith(".gz") else open
        try:
            text = opener(f, "rt", encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        # runs are JSON objects with "case": "name"; tie each message to the nearest case name before it
        marks = [(c.start(), c.group(1)) for c in re.finditer(r'"case":\s*"([^"]+)"', text)]
        for m in MSG.finditer(text):
            before = [c for pos, c in marks if pos < m.start()]
            case = before[-1] if before else "?"
            found[(m.group(1).strip(), int(m.group(2)))].add((os.path.relpath(f, results), case))
    src = {}
    if cases:
        for p in glob.glob(os.path.join(cases, "*", "*.c")) + glob.glob(os.path.join(cases, "*", "*.cu")):
            src[os.path.splitext(os.path.basename(p))[0]] = open(p, encoding="utf-8", errors="replace").read()
    return found, src


def numbering(params, obs):
    """Positions (1-based after the handle) that fit every observation: the header's,
    or the header's with one class of parameters dropped. Returns ({name: number or None}, note)."""
    names = [n for _, n in params]
    def fits(num):
        return all(num.get(p) == n for p, (_, n) in obs.items())
    plain = {n: i + 1 for i, n in enumerate(names)}
    if fits(plain):
        return plain, None
    for cls, rx in DROP_CLASSES:
        kept = [n for n in names if not rx.match(n)]
        num = {n: (kept.index(n) + 1 if n in kept else None) for n in names}
        if fits(num):
            return num, cls
    return plain, "unexplained"


def inferred_name(api):
    base = api[len("cublas"):]
    return base.upper()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("header")
    ap.add_argument("--version", default="13.0", help="toolkit version of the header, for the source column")
    ap.add_argument("--probe", action="append", default=[])
    ap.add_argument("--results")
    ap.add_argument("--cases")
    a = ap.parse_args()

    protos = cp.parse(a.header)
    probe = read_probe(a.probe) if a.probe else {}
    found, src = read_results(a.results, a.cases) if a.results else ({}, {})
    hdr = os.path.basename(a.header)

    print("printed_name\tfunction\tnumber\tparameter\tsource")
    for api in cp.FUNCTIONS:
        sym = cp.symbol(api, protos)
        if not sym:
            print("%s: not declared in %s" % (api, a.header), file=sys.stderr)
            continue
        line, params = protos[sym]
        params = params[1:]  # the handle is never counted
        pr = probe.get(api)
        obs = pr["obs"] if pr else {}
        num, dropped = numbering(params, obs)
        hsrc = "%s %s:%d (%s)" % (hdr, a.version, line, sym)
        if pr and pr["printed"]:
            printed, pbasis = sorted(pr["printed"])[0], "observed"
        elif any(api in fs for fs in THREAD_FUNCS.values()):
            printed = [k for k, fs in THREAD_FUNCS.items() if api in fs][0]
            pbasis = "thread " + THREADS[printed]
        else:
            printed, pbasis = inferred_name(api), "inferred"
        for i, (typ, name) in enumerate(params):
            n = num.get(name)
            parts = [hsrc]
            if name in obs:
                parts.append("observed:%s printed %s #%d" % (pr["log"], obs[name][0], obs[name][1]))
            else:
                if pr and name in pr["silent"]:
                    parts.append("probe: invalid %s printed nothing" % name)
                if dropped in ("type", "stride"):
                    parts.append("number by the routine's observed numbering (%ss not counted)%s"
                                 % (dropped, "; this parameter has no number in it" if n is None else ""))
                elif dropped == "unexplained":
                    parts.append("header position; observed numbers do not follow it: see README")
                else:
                    parts.append("header position (rule: count from the first argument after the handle)")
            if pbasis != "observed":
                parts.append("printed name %s" % pbasis)
            for (pname, pnum), where in sorted(found.items()):
                if pname == printed and n == pnum:
                    hits = sorted({(f, c) for f, c in where if not src or re.search(r"\b%s\s*\(" % api, src.get(c, ""))})
                    if hits:
                        cases = sorted({c for _, c in hits})
                        files = sorted({f for f, _ in hits})
                        vers = sorted({v for f in files for v in re.findall(r"cublas-([0-9.]+[0-9])", f)})
                        parts.append("observed:data/results/%s (case %s; %d result files, cuBLAS %s)"
                                     % (files[0], ",".join(cases), len(files), " ".join(vers) or "?"))
            print("\t".join([printed, api, str(n) if n else "-", name, "; ".join(parts)]))


if __name__ == "__main__":
    main()
