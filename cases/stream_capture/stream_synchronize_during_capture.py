"""stream_synchronize_during_capture through PyTorch: `.item()` (a copy to
the host and a wait for it) inside torch.cuda.graph, or after it."""
import mirror
import torch


def capture(sync_inside):
    x = torch.ones(1024, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm up off the default stream, as the docs advise
        y = x * 2
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = x * 2
        if sync_inside:
            y.sum().item()
    graph.replay()
    y.sum().item()


def fixed():
    capture(False)


def broken():
    capture(True)


mirror.run(fixed, broken)
