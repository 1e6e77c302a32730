#!/usr/bin/env python3
"""Builds statuses.tsv: status names, numbers and printed strings across the
toolkit/library versions whose headers were unpacked (see README.md).

    python3 harness/tables/make_status_history.py SOURCES.tsv > statuses.tsv

SOURCES.tsv lines: library<TAB>version<TAB>header path<TAB>label<TAB>[libcudart path]
(label is what the source column says, e.g. "cuda-11.8 (Debian nvidia-cuda-dev 11.8.89)").
For cudart the printed string is cudaGetErrorString from that version's
libcudart (called in a subprocess: no GPU or driver is needed). The pre-10.1
runtime numbering comes from legacy_cudart_enum.tsv (a transcription; see its
header). Standard library only.
"""
import collections
import ctypes
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

FIRST = {  # library -> (first enumerator of the status enum, name prefix regex)
    "cudart": ("cudaSuccess", r"cuda(Success|Error\w+)"),
    "driver": ("CUDA_SUCCESS", r"CUDA_(SUCCESS|ERROR_\w+)"),
    "cublas": ("CUBLAS_STATUS_SUCCESS", r"CUBLAS_STATUS_\w+"),
    "cufft": ("CUFFT_SUCCESS", r"CUFFT_\w+"),
    "cusolver": ("CUSOLVER_STATUS_SUCCESS", r"CUSOLVER_STATUS_\w+"),
    "cusparse": ("CUSPARSE_STATUS_SUCCESS", r"CUSPARSE_STATUS_\w+"),
    "curand": ("CURAND_STATUS_SUCCESS", r"CURAND_STATUS_\w+"),
    "nvrtc": ("NVRTC_SUCCESS", r"NVRTC_\w+"),
    "nccl": ("ncclSuccess", r"nccl\w+"),
    "cudnn": ("CUDNN_STATUS_SUCCESS", r"CUDNN_STATUS_\w+"),
}


def blank_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), text)


def enum_entries(path, lib):
    """[(name, value, line)] of the status enum in the header at path."""
    raw = open(path, encoding="utf-8", errors="replace").read()
    text = blank_comments(raw)
    first, rx = FIRST[lib]
    m = re.search(r"\b%s\b\s*=" % first, text)
    if not m:
        return []
    start = text.rfind("{", 0, m.start())
    end = text.index("}", m.start())
    out, nxt, known = [], 0, {}
    pos = start + 1
    for item in text[start + 1:end].split(","):
        item_start = pos
        pos += len(item) + 1
        s = item.strip()
        if not s:
            continue
        mm = re.match(r"(%s)\s*(?:=\s*(.+))?$" % rx, s, re.S)
        if not mm:
            continue
        name, expr = mm.group(1), mm.group(mm.lastindex) if mm.group(0).find("=") >= 0 else None
        if expr is not None:
            e = expr.strip()
            for k, v in known.items():
                e = re.sub(r"\b%s\b" % k, str(v), e)
            e = re.sub(r"(0x[0-9a-fA-F]+|\d+)[uUlL]+", r"\1", e)
            try:
                val = int(eval(e, {"__builtins__": {}}))
            except Exception:
                continue
        else:
            val = nxt
        known[name] = val
        nxt = val + 1
        line = text.count("\n", 0, item_start + len(item) - len(item.lstrip())) + 1
        out.append((name, val, line))
    return out


def cudart_strings(lib, codes):
    """{code: cudaGetErrorString(code)} from lib, in a subprocess."""
    prog = ("import ctypes,json,sys\nl=ctypes.CDLL(sys.argv[1])\nf=l.cudaGetErrorString\nf.restype=ctypes.c_char_p\n"
            "f.argtypes=[ctypes.c_int]\nprint(json.dumps({c:f(c).decode() for c in json.loads(sys.argv[2])}))")
    r = subprocess.run([sys.executable, "-c", prog, lib, json.dumps(sorted(codes))],
                       capture_output=True, text=True, timeout=60)
    if r.returncode:
        print("strings from %s failed: %s" % (lib, r.stderr[-300:]), file=sys.stderr)
        return {}
    return {int(k): v for k, v in json.loads(r.stdout).items()}


def vkey(v):
    return tuple(int(x) if x.isdigit() else 0 for x in re.split(r"[.]", v))


def main(sources):
    per = collections.defaultdict(list)  # lib -> [(version, {name: (num, string, src)})]
    for line in open(sources, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        lib, ver, path, label = f[:4]
        so = f[4] if len(f) > 4 and f[4] else None
        ents = enum_entries(path, lib)
        if not ents:
            print("%s %s: no enum in %s" % (lib, ver, path), file=sys.stderr)
            continue
        strings = cudart_strings(so, {v for _, v, _ in ents}) if so else {}
        d = {}
        for name, val, ln in ents:
            d[name] = (val, strings.get(val, "-"), "%s %s:%d" % (label, os.path.basename(path), ln))
        per[lib].append((ver, d))
    # the pre-10.1 runtime numbering
    legacy = {}
    for line in open(os.path.join(HERE, "legacy_cudart_enum.tsv"), encoding="utf-8"):
        if line.startswith("#") or line.startswith("name\t"):
            continue
        n, v = line.rstrip("\n").split("\t")
        legacy[n] = int(v)

    print("library\tname\tnumber\tstring\tfirst_version\tlast_version\ttoday\tsource")
    for lib in FIRST:
        vers = sorted(per.get(lib, []), key=lambda x: vkey(x[0]))
        if not vers:
            continue
        newest_v, newest = vers[-1]
        oldest_v = vers[0][0]
        by_num_today = {}
        for n, (v, s, _) in newest.items():
            by_num_today.setdefault(v, n)
        names = []
        for _, d in vers:
            for n in d:
                if n not in names:
                    names.append(n)

        def today_of(name, num=None):
            if name in newest:
                return "%s %d" % (name, newest[name][0])
            return "removed (not in %s %s)" % (lib, newest_v)

        if lib == "cudart":
            for n, v in legacy.items():
                # string: what the first runtime read prints for the same name, if it has it (see README)
                src = ("github triton-lang/triton@506fd4e32c70d8d29b5ad2f415d7b91e9a587469 "
                       "include/isaac/external/CUDA/driver_types.h (pre-10.1 header, CUDA 9 era; "
                       "first_version = that header, the oldest read; last_version 10.0 = before the 10.1 renumbering; "
                       "transcribed in data/status_history/legacy_cudart_enum.tsv)")
                print("\t".join([lib, n, str(v), "-", "9", "10.0", today_of(n), src]))
        for n in names:
            spans = []  # [first, last, num, string, src]
            for ver, d in vers:
                if n not in d:
                    if spans and spans[-1][1] is not None and spans[-1][4] != "closed":
                        spans[-1][4] = "closed"
                    continue
                num, s, src = d[n]
                if spans and spans[-1][4] != "closed" and spans[-1][2] == num and spans[-1][3] == s:
                    spans[-1][1] = ver
                    spans[-1][5].append(src)
                else:
                    spans.append([ver, ver, num, s, None, [src]])
            for sp in spans:
                first, last, num, s, _, srcs = sp
                lastv = "-" if last == newest_v else last
                note = srcs[0] if len(srcs) == 1 else "%s .. %s" % (srcs[0], srcs[-1].split(" ")[0] + " " + srcs[-1].split(" ")[-1])
                if first == oldest_v:
                    note += " (first_version is the oldest %s read)" % lib
                print("\t".join([lib, n, str(num), s, first, lastv, today_of(n, num), note]))


if __name__ == "__main__":
    main(sys.argv[1])
