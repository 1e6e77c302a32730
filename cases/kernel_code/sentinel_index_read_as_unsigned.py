"""sentinel_index_read_as_unsigned through PyTorch: an index tensor that
marks "no entry" with -1, used to gather rows. In PyTorch indexing -1 is the
last row: no error, and wrong data."""
import mirror
import torch


def gather(index):
    table = torch.arange(1024, device="cuda", dtype=torch.float32)
    return table[torch.tensor(index, device="cuda")].sum()


def fixed():
    index = torch.tensor([4, 8, 15, 16, 23, 42, -1, -1])
    gather(index[index >= 0].tolist())


def broken():
    gather([4, 8, 15, 16, 23, 42, -1, -1])


mirror.run(fixed, broken)
