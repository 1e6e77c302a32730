"""cusolver_query_past_the_32_bit_api through PyTorch: torch.linalg.lstsq of
Paddle#74280's [253522376, 9] matrix against a [253522376, 5] right-hand
side (about 28 GB of GPU memory with PyTorch's column-major copies), and of
a matrix with fewer rows (the fixed case's row count)."""
import mirror
import torch

N, NRHS = 9, 5


def least_squares(m):
    a = torch.randn(m, N, device="cuda")
    b = torch.randn(m, NRHS, device="cuda")
    x = torch.linalg.lstsq(a, b).solution
    assert x.shape == (N, NRHS) and torch.isfinite(x).all()


def fixed():
    least_squares(8000000)


def broken():
    least_squares(253522376)


mirror.run(fixed, broken)
