"""cudnn_create_when_memory_full through PyTorch: fill the GPU with tensors,
then the process's first convolution, which creates the cuDNN handle."""
import mirror
import torch


def fill():
    held, chunk = [], 1 << 32
    while chunk >= 1 << 20 and len(held) < 4096:
        try:
            held.append(torch.empty(chunk, dtype=torch.uint8, device="cuda"))
        except torch.OutOfMemoryError:
            chunk //= 4
    return held


def convolve(early):
    torch.backends.cudnn.enabled = True
    conv = torch.nn.Conv2d(16, 16, 3).cuda()
    x = torch.zeros(1, 16, 32, 32, device="cuda")
    if early:
        conv(x)  # the handle exists before memory fills
    held = fill()
    with torch.no_grad():
        conv(x)
    del held


def fixed():
    convolve(True)


def broken():
    convolve(False)


mirror.run(fixed, broken)
