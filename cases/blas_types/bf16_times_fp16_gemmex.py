"""bf16_times_fp16_gemmex through PyTorch: a bf16 model meets fp16 weights."""
import mirror
import torch


def fixed():
    torch.randn(64, 64, device="cuda", dtype=torch.bfloat16) @ torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)


def broken():
    torch.randn(64, 64, device="cuda", dtype=torch.bfloat16) @ torch.randn(64, 64, device="cuda", dtype=torch.float16)


mirror.run(fixed, broken)
