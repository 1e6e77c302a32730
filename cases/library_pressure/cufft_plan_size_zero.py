"""cufft_plan_size_zero through PyTorch: torch.fft.fft of an empty signal."""
import mirror
import torch


def fixed():
    torch.fft.fft(torch.zeros(256, dtype=torch.complex64, device="cuda"))


def broken():
    torch.fft.fft(torch.zeros(0, dtype=torch.complex64, device="cuda"))


mirror.run(fixed, broken)
