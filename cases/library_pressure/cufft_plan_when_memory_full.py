"""cufft_plan_when_memory_full through PyTorch: fill the GPU with tensors,
then torch.fft.fft of a size whose plan does not exist yet (prime: a large
work area)."""
import mirror
import torch

NX = 999983


def fill():
    held, chunk = [], 1 << 32
    while chunk >= 1 << 20 and len(held) < 4096:
        try:
            held.append(torch.empty(chunk, dtype=torch.uint8, device="cuda"))
        except torch.OutOfMemoryError:
            chunk //= 4
    return held


def transform(early):
    x = torch.zeros(4, NX, dtype=torch.complex64, device="cuda")
    if early:
        torch.fft.fft(x)  # the plan is cached before memory fills
    held = fill()
    torch.fft.fft(x)
    del held


def fixed():
    transform(True)


def broken():
    transform(False)


mirror.run(fixed, broken)
