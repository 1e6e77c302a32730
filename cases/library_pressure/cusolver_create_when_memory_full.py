"""cusolver_create_when_memory_full through PyTorch: fill the GPU with
tensors, then the process's first torch.linalg call, which creates the
cuSOLVER handle."""
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


def factorise(early):
    a = torch.eye(64, device="cuda") * 2
    if early:
        torch.linalg.lu_factor(a)  # the handle exists before memory fills
    held = fill()
    torch.linalg.lu_factor(a)
    del held


def fixed():
    factorise(True)


def broken():
    factorise(False)


mirror.run(fixed, broken)
