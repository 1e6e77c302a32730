"""device_side_assert through PyTorch: a token id past the end of an
embedding table, then a matmul."""
import mirror
import torch


def lookup(token):
    table = torch.nn.Embedding(10, 16).cuda()
    hidden = table(torch.tensor([token], device="cuda"))
    return hidden @ torch.randn(16, 16, device="cuda")


def fixed():
    lookup(3)


def broken():
    lookup(10)


mirror.run(fixed, broken)
