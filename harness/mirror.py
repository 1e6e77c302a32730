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
        # An exception raised while handling another (torch.cuda.graph's end
        # after an error inside the capture) hides the first one: keep it.
        chained = error.__cause__ or error.__context__
        if chained is not None:
            outcome["chained"] = {"exception": type(chained).__module__ + "." + type(chained).__name__,
                                  "message": str(chained)}
    outcome["torch"] = torch.__version__
    outcome["torch_cuda"] = torch.version.cuda
    print(json.dumps(outcome))


def _worker(work, conn):
    try:
        work()
        conn.send(None)
    except Exception as error:  # sent to the parent, which raises it again
        conn.send((type(error).__module__, type(error).__name__, str(error)))


def in_worker(work, start_method="fork", timeout=60):
    """Run work() in a multiprocessing worker started with `start_method` and
    raise, in this process, the exception the worker raised (same type where
    it can be rebuilt from its message), so that a mirror records what a
    worker process saw. `work` must be a module-level function."""
    import importlib
    import multiprocessing

    ctx = multiprocessing.get_context(start_method)
    parent_end, child_end = ctx.Pipe()
    child = ctx.Process(target=_worker, args=(work, child_end))
    child.start()
    outcome = parent_end.recv() if parent_end.poll(timeout) else ("builtins", "TimeoutError",
                                                                   "the worker did not answer in %d s" % timeout)
    child.join(timeout)
    if child.is_alive():
        child.kill()
        child.join(timeout)
    if outcome is not None:
        module, name, message = outcome
        try:
            error = getattr(importlib.import_module(module), name)(message)
        except Exception:
            error = RuntimeError("%s.%s: %s" % (module, name, message))
        raise error
