"""fork_after_cuda_init through PyTorch: a worker forked after the parent
made a CUDA tensor uses CUDA (the worker's exception is raised again here)."""
import mirror


def worker():
    import torch
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()


def fixed():
    mirror.in_worker(worker, "fork")  # fork first
    import torch
    torch.zeros(1, device="cuda")


def broken():
    import torch
    torch.zeros(1, device="cuda")  # CUDA initialised in the parent
    mirror.in_worker(worker, "fork")


if __name__ == "__main__":
    mirror.run(fixed, broken)
