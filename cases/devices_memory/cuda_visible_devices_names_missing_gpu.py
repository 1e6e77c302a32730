"""cuda_visible_devices_names_missing_gpu through PyTorch."""
import os
import mirror


def fixed():
    os.environ["CUDA_VISIBLE_DEVICES"] = "0"
    import torch
    torch.zeros(1, device="cuda")


def broken():
    os.environ["CUDA_VISIBLE_DEVICES"] = "7"
    import torch
    torch.zeros(1, device="cuda")


mirror.run(fixed, broken)
