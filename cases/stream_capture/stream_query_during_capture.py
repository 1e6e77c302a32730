"""stream_query_during_capture through PyTorch: asking the capturing stream
whether it has finished, inside torch.cuda.graph or after it."""
import mirror
import torch


def capture(query_inside):
    x = torch.ones(1024, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = x * 2
        if query_inside:
            torch.cuda.current_stream().query()
    torch.cuda.current_stream().query()
    graph.replay()
    return y


def fixed():
    capture(False)


def broken():
    capture(True)


mirror.run(fixed, broken)
