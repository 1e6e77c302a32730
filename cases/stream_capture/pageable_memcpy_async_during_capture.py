"""pageable_memcpy_async_during_capture through PyTorch: a host-to-device
copy_(non_blocking=True) inside torch.cuda.graph from a pinned or an
ordinary (pageable) CPU tensor; the CPU data is changed before the replay,
and the replayed copy must bring the new data."""
import mirror
import torch


def capture(pinned):
    cpu = torch.zeros(1 << 18)
    if pinned:
        cpu = cpu.pin_memory()
    gpu = torch.empty(1 << 18, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        gpu.copy_(cpu, non_blocking=True)
    cpu.fill_(7)
    graph.replay()
    torch.cuda.synchronize()
    if not bool((gpu == 7).all()):
        raise AssertionError("the replayed copy did not bring the CPU tensor's current data")


def fixed():
    capture(True)


def broken():
    capture(False)


mirror.run(fixed, broken)
