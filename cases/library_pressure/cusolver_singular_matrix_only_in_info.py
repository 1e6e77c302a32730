"""cusolver_singular_matrix_only_in_info through PyTorch: torch.linalg.inv
of a singular matrix (PyTorch reads cuSOLVER's info and raises)."""
import mirror
import torch


def invert(singular):
    a = torch.eye(8, device="cuda") * 2
    if singular:
        a[2, 2] = 0
    torch.linalg.inv(a)


def fixed():
    invert(False)


def broken():
    invert(True)


mirror.run(fixed, broken)
