"""device_synchronize_during_capture through PyTorch: torch.cuda.synchronize()
inside torch.cuda.graph, or after it."""
import mirror
import torch


def capture(sync_inside):
    x = torch.ones(1024, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = x * 2
        if sync_inside:
            torch.cuda.synchronize()
    graph.replay()
    torch.cuda.synchronize()
    return y


def fixed():
    capture(False)


def broken():
    capture(True)


mirror.run(fixed, broken)
