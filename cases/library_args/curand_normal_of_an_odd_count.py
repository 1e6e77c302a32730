"""curand_normal_of_an_odd_count through PyTorch: normally distributed values
of an odd count (CNTK#441's layer of 511 units) with torch.randn on the GPU,
and torch.Tensor.normal_ on a buffer of that size."""
import mirror
import torch


def normal_values(count):
    torch.manual_seed(1462459807)
    x = torch.randn(count, device="cuda")
    w = torch.empty(count, device="cuda").normal_(0.0, 1.0)
    torch.cuda.synchronize()
    assert torch.isfinite(x).all() and torch.isfinite(w).all()


def fixed():
    normal_values(512)


def broken():
    normal_values(511)


mirror.run(fixed, broken)
