"""old_graph_exec_launched_after_failed_update through PyTorch: a CUDA graph
captured for a batch of 4 rows replayed after the input changed to 8 rows
(the new tensor bound to the old name, not copied into the captured input).
PyTorch raises nothing; the mirror compares the output with the eager
result and raises when the replay computed the old work."""
import mirror
import torch


def replay_with_batch(rows):
    weight = torch.randn(8, 8, device="cuda")
    static_input = torch.randn(4, 8, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        static_input @ weight  # warm-up outside the capture, as PyTorch asks
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_output = static_input @ weight
    batch = torch.randn(rows, 8, device="cuda")
    if batch.shape == static_input.shape:
        static_input.copy_(batch)
    else:
        static_input = batch  # the work changed shape; the graph did not
    graph.replay()
    torch.cuda.synchronize()
    expected = static_input @ weight
    if static_output.shape != expected.shape or not torch.allclose(static_output, expected, atol=1e-4):
        raise RuntimeError("the replayed graph computed the captured work: output %s, %s expected"
                           % (tuple(static_output.shape), tuple(expected.shape)))


def fixed():
    replay_with_batch(4)


def broken():
    replay_with_batch(8)


mirror.run(fixed, broken)
