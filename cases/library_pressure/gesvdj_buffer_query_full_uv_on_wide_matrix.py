"""gesvdj_buffer_query_full_uv_on_wide_matrix through PyTorch: the SVD of a
1024 x 50257 matrix, full (torch.linalg.svd's default) or economy size
(GaLore#7's fix)."""
import mirror
import torch


def svd(full):
    a = torch.randn(1024, 50257, device="cuda")
    u, s, vh = torch.linalg.svd(a, full_matrices=full)
    del u, s, vh


def fixed():
    svd(False)


def broken():
    svd(True)


mirror.run(fixed, broken)
