"""syevj_batched_past_its_batch_limit through PyTorch: torch.linalg.eigh of
65536 symmetric 3 x 3 matrices, in chunks of 16384 (mjlab#732's fix) or in
one call."""
import mirror
import torch

TOTAL = 65536


def eigh(chunk):
    one = torch.tensor([[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 5.0]], device="cuda")
    a = one.expand(TOTAL, 3, 3).contiguous()
    values = torch.cat([torch.linalg.eigh(part)[0] for part in a.split(chunk)])
    expected = torch.tensor([1.0, 3.0, 5.0], device="cuda")
    assert torch.allclose(values, expected.expand(TOTAL, 3), atol=1e-4), "wrong eigenvalues"


def fixed():
    eigh(16384)


def broken():
    eigh(TOTAL)


mirror.run(fixed, broken)
