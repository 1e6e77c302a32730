"""int8_times_fp32_gemmex through PyTorch: int8 weights, float input."""
import mirror
import torch


def fixed():
    torch.randn(64, 64, device="cuda") @ torch.randn(64, 64, device="cuda")


def broken():
    weights = torch.randint(-128, 127, (64, 64), dtype=torch.int8, device="cuda")
    torch.randn(64, 64, device="cuda") @ weights


mirror.run(fixed, broken)
