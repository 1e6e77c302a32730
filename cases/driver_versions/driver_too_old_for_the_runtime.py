"""driver_too_old_for_the_runtime through PyTorch: the first CUDA tensor of a
PyTorch built for CUDA 13, with the system's driver (fixed), and with driver
535's libcuda.so.1 (CUDA 12.2) loaded first (broken), as a machine whose
driver was never updated has it: PyTorch's runtime then asks that driver."""
import ctypes
import os
import sys

import mirror

DRIVER_535 = os.path.join(os.environ.get("ATLAS_DRIVER_535", "/opt/driver-535/lib"), "libcuda.so.1")


def fixed():
    import torch
    torch.ones(4, device="cuda").sum().item()


def broken():
    fixed()       # the same tensor; what differs is the libcuda already loaded (below)


if __name__ == "__main__":
    if sys.argv[1:] == ["broken"]:
        if not os.path.exists(DRIVER_535):
            sys.exit("needs driver 535's libcuda.so.1: harness/toolkit.sh fetch driver-535 (or ATLAS_DRIVER_535=<folder>)")
        ctypes.CDLL(DRIVER_535, mode=ctypes.RTLD_GLOBAL)     # before PyTorch loads libcuda.so.1
    mirror.run(fixed, broken)
