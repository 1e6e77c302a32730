"""create_when_another_process_holds_memory through PyTorch: a second
process holds the GPU's memory when this one makes its first CUDA tensor."""
import multiprocessing as mp
import mirror


def hold(headroom, ready, stop):
    import torch
    held, chunk = [], 1 << 32
    while chunk >= 1 << 20 and len(held) < 4096:
        free, _ = torch.cuda.mem_get_info()
        if free < headroom + chunk:
            chunk //= 4
            continue
        try:
            held.append(torch.empty(chunk, dtype=torch.uint8, device="cuda"))
        except torch.OutOfMemoryError:
            chunk //= 4
    ready.set()
    stop.wait(60)


def beside(headroom):
    ctx = mp.get_context("spawn")
    ready, stop = ctx.Event(), ctx.Event()
    child = ctx.Process(target=hold, args=(headroom, ready, stop))
    child.start()
    try:
        ready.wait(60)
        import torch
        torch.zeros(1, device="cuda")  # the first CUDA call: this process's context
        torch.randn(64, 64, device="cuda") @ torch.randn(64, 64, device="cuda")
    finally:
        stop.set()
        child.join(60)


def fixed():
    beside(4 << 30)


def broken():
    beside(0)


if __name__ == "__main__":
    mirror.run(fixed, broken)
