"""malloc_in_another_thread_during_capture through PyTorch: while the main
thread captures (torch.cuda.graph's default capture_error_mode, "global"),
another thread allocates a new, large tensor — a cudaMalloc, since the
caching allocator has no block of that size yet. The fix: capture_error_mode
"thread_local". The other thread's exception is raised again here."""
import threading
import mirror
import torch


def capture(mode):
    x = torch.ones(1024, device="cuda")
    failures = []

    def allocate():
        try:
            torch.empty(256 << 20, dtype=torch.uint8, device="cuda").fill_(1)
        except Exception as error:
            failures.append(error)

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, capture_error_mode=mode):
        y = x * 2
        worker = threading.Thread(target=allocate)
        worker.start()
        worker.join(60)
        if failures:
            raise failures[0]  # the other thread's error, inside the capture
    graph.replay()
    return y


def fixed():
    capture("thread_local")


def broken():
    capture("global")


mirror.run(fixed, broken)
