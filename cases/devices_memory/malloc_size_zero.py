"""malloc_size_zero through PyTorch: an empty tensor is legal; writing to
an element it does not have is not."""
import mirror
import torch


def write_first(n):
    x = torch.empty(n, device="cuda")
    x[0] = 1.0


def fixed():
    write_first(1)


def broken():
    write_first(0)


mirror.run(fixed, broken)
