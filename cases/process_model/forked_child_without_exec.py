"""forked_child_without_exec through PyTorch: after the parent used CUDA,
a worker started with "spawn" (fork+exec of a fresh interpreter) versus
"fork" (the worker's exception is raised again here)."""
import mirror


def worker():
    import torch
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()


def start_worker(method):
    import torch
    torch.zeros(1, device="cuda")  # the parent has used CUDA
    mirror.in_worker(worker, method)


def fixed():
    start_worker("spawn")


def broken():
    start_worker("fork")


if __name__ == "__main__":
    mirror.run(fixed, broken)
