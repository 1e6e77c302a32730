"""invalid_device_ordinal through PyTorch: "cuda:N" on a machine with N GPUs."""
import mirror
import torch


def fixed():
    torch.zeros(1, device="cuda:%d" % (torch.cuda.device_count() - 1))


def broken():
    torch.zeros(1, device="cuda:%d" % torch.cuda.device_count())


mirror.run(fixed, broken)
