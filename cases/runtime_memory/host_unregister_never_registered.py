"""host_unregister_never_registered through PyTorch: torch.cuda.cudart().
cudaHostUnregister on a CPU tensor's memory that was never registered, its
status ignored, then an ordinary CUDA operation, whose launch check reads the
last-error slot."""
import mirror
import torch


def unpin(registered):
    torch.cuda.init()
    host = torch.empty(1 << 20, dtype=torch.uint8)
    cudart = torch.cuda.cudart()
    if registered:
        cudart.cudaHostRegister(host.data_ptr(), host.numel(), 0)
    cudart.cudaHostUnregister(host.data_ptr())
    (torch.ones(4, device="cuda") + 1).sum().item()


def fixed():
    unpin(True)


def broken():
    unpin(False)


mirror.run(fixed, broken)
