"""host_register_twice through PyTorch: torch.cuda.cudart().cudaHostRegister
called twice on a CPU tensor's memory, its status ignored (as it usually is:
the binding returns it, it raises nothing), then an ordinary CUDA operation,
whose launch check reads the last-error slot."""
import mirror
import torch


def pin(twice):
    torch.cuda.init()
    host = torch.empty(1 << 20, dtype=torch.uint8)
    cudart = torch.cuda.cudart()
    cudart.cudaHostRegister(host.data_ptr(), host.numel(), 0)
    if twice:
        cudart.cudaHostRegister(host.data_ptr(), host.numel(), 0)
    (torch.ones(4, device="cuda") + 1).sum().item()
    cudart.cudaHostUnregister(host.data_ptr())


def fixed():
    pin(False)


def broken():
    pin(True)


mirror.run(fixed, broken)
