"""cublas_after_sticky_error through PyTorch: a device-side index error,
then a matmul, then the first synchronizing call."""
import mirror
import torch


def after_lookup(token):
    table = torch.nn.Embedding(10, 64).cuda()
    table(torch.tensor([token], device="cuda"))  # asynchronous: nothing raised yet
    product = torch.randn(64, 64, device="cuda") @ torch.randn(64, 64, device="cuda")
    return product.cpu()


def fixed():
    after_lookup(3)


def broken():
    after_lookup(10)


mirror.run(fixed, broken)
