"""host_pointer_passed_as_c through PyTorch: out= a CPU tensor."""
import mirror
import torch


def multiply_into(out):
    a, b = torch.randn(256, 256, device="cuda"), torch.randn(256, 256, device="cuda")
    torch.mm(a, b, out=out)


def fixed():
    multiply_into(torch.empty(256, 256, device="cuda"))


def broken():
    multiply_into(torch.empty(256, 256))


mirror.run(fixed, broken)
