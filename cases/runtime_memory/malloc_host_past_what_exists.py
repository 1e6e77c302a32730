"""malloc_host_past_what_exists through PyTorch: a pinned CPU tensor of twice
the machine's physical memory (one allocation, freed if it succeeds)."""
import os

import mirror
import torch


def pinned(nbytes):
    torch.empty(nbytes, dtype=torch.uint8, pin_memory=True)


def fixed():
    pinned(64 << 20)


def broken():
    pinned(2 * os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))


mirror.run(fixed, broken)
