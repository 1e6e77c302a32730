"""malloc_larger_than_gpu through PyTorch: a tensor larger than the GPU."""
import mirror
import torch


def fixed():
    torch.empty(256 << 20, dtype=torch.uint8, device="cuda")


def broken():
    total = torch.cuda.get_device_properties(0).total_memory
    torch.empty(total + (1 << 30), dtype=torch.uint8, device="cuda")


mirror.run(fixed, broken)
