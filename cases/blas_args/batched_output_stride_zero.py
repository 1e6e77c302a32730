"""batched_output_stride_zero through PyTorch: bmm into an expanded output
(every batch the same memory)."""
import mirror
import torch


def multiply(out):
    a, b = torch.randn(4, 16, 16, device="cuda"), torch.randn(4, 16, 16, device="cuda")
    torch.bmm(a, b, out=out)


def fixed():
    multiply(torch.empty(4, 16, 16, device="cuda"))


def broken():
    multiply(torch.empty(1, 16, 16, device="cuda").expand(4, 16, 16))


mirror.run(fixed, broken)
