"""lda_smaller_than_rows through PyTorch: a view whose column stride is
smaller than its rows. PyTorch never passes such a leading dimension to
cuBLAS: it copies the operand into a layout cuBLAS accepts."""
import mirror
import torch


def fixed():
    a = torch.randn(64 * 48, device="cuda").as_strided((64, 48), (1, 64))
    a @ torch.randn(48, 32, device="cuda")


def broken():
    a = torch.randn(64 * 48, device="cuda").as_strided((64, 48), (1, 63))
    a @ torch.randn(48, 32, device="cuda")


mirror.run(fixed, broken)
