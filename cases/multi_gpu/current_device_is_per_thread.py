"""current_device_is_per_thread through PyTorch: set_device(1) in the main
thread, "cuda" in a worker thread (needs two GPUs)."""
import threading

import mirror
import torch


def in_worker(sets_device):
    outcome = {}

    def work():
        try:
            if sets_device:
                torch.cuda.set_device(1)
            made_here = torch.ones(4, device="cuda")
            outcome["sum"] = made_here + torch.ones(4, device="cuda:1")
            torch.cuda.synchronize()
        except Exception as error:  # hand it to the main thread, which mirror.run watches
            outcome["error"] = error

    torch.cuda.set_device(1)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]


def fixed():
    in_worker(True)


def broken():
    in_worker(False)


mirror.run(fixed, broken)
