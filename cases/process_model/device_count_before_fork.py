"""device_count_before_fork through PyTorch: the parent only counts GPUs,
then a forked worker uses CUDA. torch.cuda.device_count() is the common
call; the worker's exception, if any, is raised again here."""
import mirror


def worker():
    import torch
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()


def fixed():
    mirror.in_worker(worker, "fork")
    import torch
    torch.cuda.device_count()


def broken():
    import torch
    torch.cuda.device_count()  # only counts, before forking
    mirror.in_worker(worker, "fork")


if __name__ == "__main__":
    mirror.run(fixed, broken)
