"""The PyTorch side of a case: the same mistake made through PyTorch.

A mirror is a script beside its case (cases/<family>/<case>.py) that defines
fixed() and broken() and ends with `mirror.run(fixed, broken)`. Run with the
variant as its argument, it prints one JSON line: the exception PyTorch
raised (type and message) or none, after synchronizing so that asynchronous
errors surface too.
"""
import json
import sys
import traceback


def run(fixed, broken):
    variant = sys.argv[1] if len(sys.argv) == 2 else ""
    if variant in ("-h", "--help"):
        print("usage: %s fixed|broken\nMakes the case's mistake (broken) or not (fixed) through PyTorch and prints\n"
              "one JSON line: the exception raised (type, message, where) or none." % sys.argv[0])
        sys.exit(0)
    if variant not in ("fixed", "broken"):
        sys.exit("usage: %s fixed|broken" % sys.argv[0])
    import torch

    outcome = {"exception": None, "message": None}
    try:
        (fixed if variant == "fixed" else broken)()
        torch.cuda.synchronize()
    except Exception as error:  # the outcome, whatever it is
        outcome = {"exception": type(error).__module__ + "." + type(error).__name__,
                   "message": str(error),
                   "where": traceback.format_exc(limit=-1).strip().splitlines()[-2].strip()}
    outcome["torch"] = torch.__version__
    outcome["torch_cuda"] = torch.version.cuda
    print(json.dumps(outcome))
