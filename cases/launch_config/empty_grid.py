"""empty_grid through PyTorch: an empty batch through a kernel-launching op.
PyTorch's kernels return early on empty tensors."""
import mirror
import torch


def run(n):
    x = torch.randn(n, 256, device="cuda")
    torch.nn.functional.softmax(x, dim=-1).sum()


def fixed():
    run(512)


def broken():
    run(0)


mirror.run(fixed, broken)
