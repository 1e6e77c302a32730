"""allocations_until_out_of_memory through PyTorch: a list that keeps every
1 GiB buffer (a tensor kept per iteration), bounded."""
import mirror
import torch


def fixed():
    for _ in range(200):
        buffer = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
        del buffer


def broken():
    kept = []
    for _ in range(1024):
        kept.append(torch.empty(1 << 30, dtype=torch.uint8, device="cuda"))


mirror.run(fixed, broken)
