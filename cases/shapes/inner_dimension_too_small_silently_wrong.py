"""inner_dimension_too_small_silently_wrong through PyTorch: k taken from
the wrong tensor. PyTorch refuses instead of multiplying part of A."""
import mirror
import torch


def fixed():
    torch.randn(32, 16, device="cuda") @ torch.randn(16, 24, device="cuda")


def broken():
    torch.randn(32, 16, device="cuda") @ torch.randn(8, 24, device="cuda")


mirror.run(fixed, broken)
