"""driver_call_in_a_new_thread through PyTorch: a Triton kernel compiled and
run on the main thread, then launched again from a new thread that has made
no CUDA call of its own (the program of triton-lang/triton#3729, writing into
a tensor). The fixed thread first makes a runtime call (cudaDeviceSynchronize,
through torch.cuda.synchronize), which binds the context to it."""
import threading

import mirror
import triton
import triton.language as tl


@triton.jit
def write_answer(out_ptr):
    tl.store(out_ptr, 42)


def in_a_new_thread(work, timeout=60):
    """Run work() on a new thread and raise here what it raised."""
    failures = []

    def target():
        try:
            work()
        except Exception as error:  # raised again on the main thread
            failures.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError("the thread did not finish in %d s" % timeout)
    if failures:
        raise failures[0]


def launch_from_a_new_thread(bind_first):
    import torch
    out = torch.zeros(1, dtype=torch.int32, device="cuda")
    write_answer[(1,)](out)  # compiled and loaded on the main thread
    torch.cuda.synchronize()
    out.zero_()

    def launch():
        if bind_first:
            torch.cuda.synchronize()
        write_answer[(1,)](out)

    in_a_new_thread(launch)
    torch.cuda.synchronize()
    if out.item() != 42:
        raise RuntimeError("the kernel wrote %d (42 expected)" % out.item())


def fixed():
    launch_from_a_new_thread(True)


def broken():
    launch_from_a_new_thread(False)


if __name__ == "__main__":
    mirror.run(fixed, broken)
