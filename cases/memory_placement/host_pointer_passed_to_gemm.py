"""host_pointer_passed_to_gemm through PyTorch: one operand left on the CPU."""
import mirror
import torch


def fixed():
    torch.randn(256, 256).cuda() @ torch.randn(256, 256, device="cuda")


def broken():
    torch.randn(256, 256) @ torch.randn(256, 256, device="cuda")


mirror.run(fixed, broken)
