"""The article's permute example, with its shapes as it gives them: the one
it calls correct fails, and the one it calls incorrect works."""
import mirror
import torch

weight = None


def multiply(shape):
    global weight
    weight = torch.randn(10, 20, device="cuda")
    x = torch.randn(*shape, device="cuda").permute(0, 2, 1)
    return torch.matmul(x, weight)


def fixed():
    multiply((1, 10, 20))  # the article's "incorrect" input: (1, 20, 10) @ (10, 20) conforms


def broken():
    multiply((1, 20, 10))  # the article's "correct" input: (1, 10, 20) @ (10, 20) does not


mirror.run(fixed, broken)
