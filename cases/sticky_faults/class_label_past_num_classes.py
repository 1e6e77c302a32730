"""class_label_past_num_classes through PyTorch: a 10-class cross-entropy
given the dataset's labels 1 to 10 instead of 0 to 9."""
import mirror
import torch


def loss(first_label):
    logits = torch.zeros(8, 10, device="cuda")
    labels = torch.arange(8, device="cuda") % 10 + 2 + first_label
    labels[-1] = first_label + 9                  # the highest label of the dataset
    return torch.nn.functional.cross_entropy(logits, labels).item()


def fixed():
    loss(0)


def broken():
    loss(1)


mirror.run(fixed, broken)
