"""cuda_visible_devices_empty through PyTorch: the variable set to nothing."""
import os
import mirror


def fixed():
    os.environ["CUDA_VISIBLE_DEVICES"] = "0"
    import torch
    torch.zeros(1, device="cuda")


def broken():
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    import torch
    torch.zeros(1, device="cuda")


mirror.run(fixed, broken)
