"""cudnn_batch_norm_per_activation_over_131070_rows through PyTorch:
BatchNorm1d in training of half a million points x 32 features, as
MinkowskiEngine#129's 3-D view (N, C, 1) (fixed) or as the 2-D tensor
(broken: cuDNN's per-activation mode, if PyTorch handed it to cuDNN)."""
import mirror
import torch


def normalise(view_3d):
    torch.backends.cudnn.enabled = True
    bn = torch.nn.BatchNorm1d(32).cuda().train()
    x = torch.randn(500000, 32, device="cuda")
    if view_3d:
        y = bn(x.unsqueeze(2)).squeeze(2)
    else:
        y = bn(x)
    del y


def fixed():
    normalise(True)


def broken():
    normalise(False)


mirror.run(fixed, broken)
