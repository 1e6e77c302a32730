"""capture_legacy_default_stream through PyTorch: torch.cuda.graph told to
capture on the default stream instead of its own side stream."""
import mirror
import torch


def capture(stream):
    x = torch.ones(1024, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        y = x * 2
    graph.replay()
    return y


def fixed():
    capture(torch.cuda.Stream())


def broken():
    capture(torch.cuda.default_stream())


mirror.run(fixed, broken)
