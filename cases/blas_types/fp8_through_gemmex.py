"""fp8_through_gemmex through PyTorch: a plain matmul on float8 tensors."""
import mirror
import torch


def fixed():
    a = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    a @ a.t()


def broken():
    a = torch.randn(64, 64, device="cuda").to(torch.float8_e4m3fn)
    a @ a.t()


mirror.run(fixed, broken)
