"""cublas_create_when_memory_full through PyTorch: fill the GPU with tensors,
then do the process's first matmul, which creates the cuBLAS handle."""
import mirror
import torch


def fill():
    held, chunk = [], 1 << 32
    while chunk >= 1 << 20 and len(held) < 4096:
        try:
            held.append(torch.empty(chunk, dtype=torch.uint8, device="cuda"))
        except torch.OutOfMemoryError:
            chunk //= 4
    return held


def fixed():
    a = torch.randn(64, 64, device="cuda")
    a @ a  # the handle exists before memory fills
    held = fill()
    a @ a
    del held


def broken():
    a = torch.randn(64, 64, device="cuda")
    held = fill()
    a @ a
    del held


mirror.run(fixed, broken)
