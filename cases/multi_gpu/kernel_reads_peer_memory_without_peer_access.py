"""kernel_reads_peer_memory_without_peer_access through PyTorch: an
operation on cuda:0 given a tensor that lives on cuda:1 (needs two GPUs)."""
import mirror
import torch


def fixed():
    on1 = torch.ones(1 << 20, device="cuda:1")
    on0 = torch.zeros(1 << 20, device="cuda:0")
    on0 + on1.to("cuda:0")  # copy first, then compute


def broken():
    on1 = torch.ones(1 << 20, device="cuda:1")
    on0 = torch.zeros(1 << 20, device="cuda:0")
    on0 + on1


mirror.run(fixed, broken)
