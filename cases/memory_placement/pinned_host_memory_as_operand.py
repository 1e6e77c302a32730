"""pinned_host_memory_as_operand through PyTorch: a pinned CPU tensor is
still a CPU tensor to matmul."""
import mirror
import torch


def fixed():
    a = torch.randn(64, 64).pin_memory()
    a.cuda(non_blocking=True) @ torch.randn(64, 64, device="cuda")


def broken():
    a = torch.randn(64, 64).pin_memory()
    a @ torch.randn(64, 64, device="cuda")


mirror.run(fixed, broken)
