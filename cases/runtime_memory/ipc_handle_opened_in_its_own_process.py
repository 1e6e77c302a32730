"""ipc_handle_opened_in_its_own_process through PyTorch: a CUDA tensor's IPC
handle (what torch.multiprocessing sends to another process) opened in the
process that made it. The fixed variant makes the handle and keeps using the
tensor; the broken one opens the handle with UntypedStorage._new_shared_cuda,
which is what torch.multiprocessing's rebuild_cuda_tensor calls (rebuilding
with reduce_tensor's own rebuild function in the same process failed the same
way on the H100: see the lesson)."""
import mirror
import torch


def share(open_handle):
    tensor = torch.ones(1 << 18, device="cuda")
    handle = tensor.untyped_storage()._share_cuda_()
    if open_handle:
        torch.UntypedStorage._new_shared_cuda(*handle)
    tensor.add_(1)


def fixed():
    share(False)


def broken():
    share(True)


mirror.run(fixed, broken)
