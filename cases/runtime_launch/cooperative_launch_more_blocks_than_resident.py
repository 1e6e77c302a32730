"""cooperative_launch_more_blocks_than_resident through PyTorch's Triton: a
kernel launched with launch_cooperative_grid=True on one block per SM
(fixed) and on far more blocks than can be resident (broken)."""
import mirror
import torch
import triton
import triton.language as tl


@triton.jit
def count_programs(counter):
    tl.atomic_add(counter, 1)


def launch(blocks):
    counter = torch.zeros(1, dtype=torch.int32, device="cuda")
    count_programs[(blocks,)](counter, num_warps=4, launch_cooperative_grid=True)
    torch.cuda.synchronize()
    if counter.item() != blocks:
        raise RuntimeError("%d programs ran, %d launched" % (counter.item(), blocks))


def fixed():
    launch(torch.cuda.get_device_properties(0).multi_processor_count)


def broken():
    launch(torch.cuda.get_device_properties(0).multi_processor_count * 1000)


mirror.run(fixed, broken)
