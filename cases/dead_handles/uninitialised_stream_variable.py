"""uninitialised_stream_variable through PyTorch: torch.cuda.ExternalStream
given a number that was never a stream (the same fixed pattern as the case)."""
import mirror
import torch

GARBAGE = 0xDEADBEEFDEADBEEF


def on(stream):
    x = torch.zeros(4, device="cuda")
    with torch.cuda.stream(stream):
        x.add_(1)
    torch.cuda.synchronize()


def fixed():
    on(torch.cuda.Stream())


def broken():
    on(torch.cuda.ExternalStream(GARBAGE))


mirror.run(fixed, broken)
