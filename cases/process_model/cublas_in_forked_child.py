"""cublas_in_forked_child through PyTorch: the parent runs a matmul, then a
forked worker runs one (the worker's exception is raised again here)."""
import mirror


def matmul():
    import torch
    a = torch.randn(64, 64, device="cuda")
    (a @ a).sum().item()


def fixed():
    mirror.in_worker(matmul, "fork")  # fork before the parent uses cuBLAS
    matmul()


def broken():
    matmul()
    mirror.in_worker(matmul, "fork")


if __name__ == "__main__":
    mirror.run(fixed, broken)
