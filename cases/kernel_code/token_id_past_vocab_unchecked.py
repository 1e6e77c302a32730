"""token_id_past_vocab_unchecked through PyTorch: a lookup table sized by the
vocabulary, indexed with token ids where one equals the vocabulary size
(advanced indexing, as in inseq-team/inseq#306). PyTorch's kernel checks."""
import mirror
import torch

VOCAB = 1000


def look_up(last_id):
    table = torch.arange(VOCAB, device="cuda", dtype=torch.float32).unsqueeze(1).expand(VOCAB, 64).contiguous()
    ids = torch.tensor([5, 17, 3, last_id], device="cuda")
    return table[ids].sum()


def fixed():
    look_up(VOCAB - 1)


def broken():
    look_up(VOCAB)


mirror.run(fixed, broken)
