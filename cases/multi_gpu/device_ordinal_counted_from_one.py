"""device_ordinal_counted_from_one through PyTorch: the second of two GPUs
called cuda:2 (needs two GPUs)."""
import mirror
import torch


def fixed():
    torch.cuda.set_device(1)
    torch.ones(4, device="cuda")


def broken():
    torch.cuda.set_device(2)
    torch.ones(4, device="cuda")


mirror.run(fixed, broken)
