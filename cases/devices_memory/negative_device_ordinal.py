"""negative_device_ordinal through PyTorch: local_rank = -1 used as a device."""
import mirror
import torch


def fixed():
    torch.zeros(1, device=torch.device("cuda", 0))


def broken():
    local_rank = -1  # "not distributed"
    torch.zeros(1, device=torch.device("cuda", local_rank))


mirror.run(fixed, broken)
