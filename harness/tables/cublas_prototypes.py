"""Prototypes of cuBLAS API functions read from cublas_api.h (standard library only).

parse(path) -> {symbol: (line, [(type, name), ...])} for every
`cublasStatus_t CUBLASWINAPI name(...);` declaration (inline C++ wrappers,
which have a body, are skipped). The handle is the first parameter.

FUNCTIONS lists the API names the project's tables cover; symbol(api, protos)
finds the header symbol (cublasSgemm is declared as cublasSgemm_v2;
cublas_v2.h maps the plain name to it).
"""
import re

FUNCTIONS = [
    # level 3 gemm family
    "cublasSgemm", "cublasDgemm", "cublasCgemm", "cublasZgemm", "cublasHgemm",
    "cublasCgemm3m", "cublasSgemmEx", "cublasCgemmEx", "cublasGemmEx",
    "cublasSgemmBatched", "cublasDgemmBatched", "cublasCgemmBatched", "cublasZgemmBatched", "cublasHgemmBatched",
    "cublasSgemmStridedBatched", "cublasDgemmStridedBatched", "cublasCgemmStridedBatched",
    "cublasZgemmStridedBatched", "cublasHgemmStridedBatched",
    "cublasGemmBatchedEx", "cublasGemmStridedBatchedEx",
    # other level 3
    "cublasSsymm", "cublasSsyrk", "cublasDsyrk", "cublasSsyr2k", "cublasStrmm",
    "cublasStrsm", "cublasDtrsm", "cublasStrsmBatched",
    # BLAS-like extensions
    "cublasSgeam", "cublasDgeam", "cublasSdgmm",
    # level 2
    "cublasSgemv", "cublasDgemv", "cublasSgemvBatched", "cublasSgemvStridedBatched",
    "cublasSger", "cublasSsymv", "cublasStrmv", "cublasStrsv",
    # level 1
    "cublasSaxpy", "cublasDaxpy", "cublasSdot", "cublasDdot", "cublasSscal", "cublasDscal",
    "cublasSnrm2", "cublasScopy", "cublasIsamax", "cublasSasum",
]

_PROTO = re.compile(r"cublasStatus_t\s+CUBLASWINAPI\s+(\w+)\s*\(([^;{}]*?)\)\s*;", re.S)


def _param(decl):
    decl = " ".join(decl.split())
    arr = decl.endswith("[]")
    if arr:
        decl = decl[:-2].rstrip()
    m = re.match(r"(.*?)(\w+)$", decl)
    typ, name = m.group(1).strip(), m.group(2)
    typ = re.sub(r"\s*\*", "*", typ)
    if arr:
        typ += "*"
    return typ, name


def parse(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    # blank comments out but keep offsets (and so line numbers)
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    text = re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), text)
    out = {}
    for m in _PROTO.finditer(text):
        name = m.group(1)
        line = text.count("\n", 0, m.start(1)) + 1
        params = [_param(p) for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
        out.setdefault(name, (line, params))
    return out


def symbol(api, protos):
    for cand in (api + "_v2", api):
        if cand in protos:
            return cand
    return None
