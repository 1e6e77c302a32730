"""malloc_async_past_what_exists through PyTorch: a tensor larger than the
GPU with the cudaMallocAsync backend (PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync)."""
import os

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"

import mirror  # noqa: E402
import torch  # noqa: E402


def fixed():
    torch.empty(256 << 20, dtype=torch.uint8, device="cuda")


def broken():
    total = torch.cuda.get_device_properties(0).total_memory
    torch.empty(total + (1 << 30), dtype=torch.uint8, device="cuda")


mirror.run(fixed, broken)
