"""cublas_and_cublaslt_from_two_builds through PyTorch: a float matmul on the
GPU, with PyTorch's own cuBLAS pair (fixed), and with another cuBLAS 13
version's libcublasLt.so.13 loaded first (broken), as an earlier entry on
LD_LIBRARY_PATH or a preload would: PyTorch's libcublas then binds to it."""
import ctypes
import os
import sys

import mirror

OTHER = os.path.join(os.environ.get("ATLAS_OTHER_CUBLASLT", "/opt/cublas-13.0.0.19/lib"), "libcublasLt.so.13")


def fixed():
    import torch
    a = torch.ones(64, 64, device="cuda")
    (a @ a).sum().item()


def broken():
    fixed()       # the same matmul; what differs is the libcublasLt already loaded (below)


if __name__ == "__main__":
    if sys.argv[1:] == ["broken"]:
        if not os.path.exists(OTHER):
            sys.exit("needs another cuBLAS 13 version's libcublasLt.so.13: harness/toolkit.sh fetch cublas-13.0.0.19 "
                     "(or ATLAS_OTHER_CUBLASLT=<folder>)")
        ctypes.CDLL(OTHER, mode=ctypes.RTLD_GLOBAL)     # before PyTorch loads its libcublas
    mirror.run(fixed, broken)
