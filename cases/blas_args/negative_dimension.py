"""negative_dimension through PyTorch: a size that went negative."""
import mirror
import torch


def fixed():
    torch.empty(64, 48, device="cuda") @ torch.empty(48, 32, device="cuda")


def broken():
    rows = 10 - 11  # a size computed by subtraction
    torch.empty(rows, 48, device="cuda") @ torch.empty(48, 32, device="cuda")


mirror.run(fixed, broken)
