"""cuda_visible_devices_set_after_init through PyTorch: hide every GPU with
os.environ before or after CUDA started, then make a CUDA tensor. Hidden,
the tensor raises; set too late, it is made on the GPU anyway."""
import os
import mirror


def fixed():
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    import torch
    torch.zeros(1, device="cuda")


def broken():
    import torch
    torch.zeros(1, device="cuda")
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    torch.zeros(1, device="cuda")


if __name__ == "__main__":
    mirror.run(fixed, broken)
