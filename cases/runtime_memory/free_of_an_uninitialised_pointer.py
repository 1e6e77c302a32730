"""free_of_an_uninitialised_pointer through PyTorch: a struct of per-device
pointers, one slot allocated with torch.cuda.caching_allocator_alloc and the
other left as a debug heap fills it (0xCDCDCDCDCDCDCDCD), each slot then
handed to torch.cuda.caching_allocator_delete."""
import mirror
import torch


def free_every_slot(unused_slot):
    slots = [torch.cuda.caching_allocator_alloc(1 << 20), unused_slot]
    for pointer in slots:
        torch.cuda.caching_allocator_delete(pointer)


def fixed():
    free_every_slot(0)


def broken():
    free_every_slot(0xCDCDCDCDCDCDCDCD)


mirror.run(fixed, broken)
