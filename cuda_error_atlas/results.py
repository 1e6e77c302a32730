"""The one reader of results files: validated field by field against the
schema (data/results.schema.json describes it), never silently dropped; read
plain or gzip-compressed. Standard library only; no HTML here."""
import glob
import gzip
import json
import os
import re

from .version_numbers import version_key

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS_SCHEMA = "cuda-error-atlas/results/"
PYTORCH_SCHEMA = "cuda-error-atlas/pytorch/"
KNOWN_VERSIONS = {RESULTS_SCHEMA: {1}, PYTORCH_SCHEMA: {1}}
SUCCESS = {"cudaSuccess", "CUBLAS_STATUS_SUCCESS", "CUDA_SUCCESS", "result_correct",
           "CUSOLVER_STATUS_SUCCESS", "CUFFT_SUCCESS", "CUDNN_STATUS_SUCCESS", "ncclSuccess",
           "NVRTC_SUCCESS"}

# PyTorch decides from the status which errors are "asynchronously reported"
# kernel errors, those after which it tells the user the stack trace may be
# wrong — the errors it treats as poisoning later calls. It never tests the
# context; this is the rule to hold against the runs.
PYTORCH_RULE = {
    "source": "https://github.com/pytorch/pytorch/blob/0ac83aeb35494c139d2634d868b81b5cff666ec9/"
              "c10/cuda/CUDAMiscFunctions.cpp",
    "function": "c10::cuda::get_cuda_async_error_suffix",
    "statuses": ["cudaErrorLaunchFailure", "cudaErrorIllegalAddress", "cudaErrorAssert",
                 "cudaErrorIllegalInstruction", "cudaErrorMisalignedAddress"],
}

VERDICTS = ("match", "mismatch", "skip", "error", "flaky")
VARIANTS = ("fixed", "broken")
# A case name becomes a file name (case/<name>.html): nothing else gets in.
CASE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,120}$")
MODE_ORDER = ("default", "launch_blocking", "eager_loading", "workspace_0", "sanitizer")


class Problem(tuple):
    """(path, reason): something in a results file the report could not use.
    scope says how much was lost: "file" (the whole file), "run" (one run,
    shown as unreadable), "field" (one field, treated as absent) or
    "superseded" (nothing wrong: a newer file of the same column is shown)."""

    def __new__(cls, path, reason, scope="file"):
        problem = super().__new__(cls, (path, reason))
        problem.scope = scope
        return problem

    path = property(lambda self: self[0])
    reason = property(lambda self: self[1])

    def __reduce__(self):
        # pickled with its scope (a tuple subclass with its own __new__ is not rebuilt from its items alone)
        return (Problem, (self.path, self.reason, self.scope))


class Unusable(Exception):
    """A results file that cannot be used at all, and why."""


class Results:
    """One column: an environment and its runs (after validation). A complete
    results file may carry the overlay of a partial run of the same
    environment (overlay: {(case, variant): (old run or None, new run)})."""

    def __init__(self, path, data, invalid=None):
        self.path = path
        self.data = data
        self.kind = "pytorch" if data["schema"].startswith(PYTORCH_SCHEMA) else "c"
        self.environment = data["environment"]
        self.runs = data["runs"]
        self.invalid = invalid or {}          # (case, variant) -> why the run could not be read
        self.collected = data.get("collected")
        self.coverage = data.get("coverage")  # absent in older files: complete
        self.partial = (self.coverage is not None and self.coverage.get("complete") is False) \
            or plain_name(path).endswith(".partial.json")
        # a filtered run (ctest -R): laid over its column; a column whose run left some variants out (a runtime
        # column runs only what needs no other library) is partial too, but a filtered run may still lie over it
        self.filtered = plain_name(path).endswith(".partial.json")
        stem = os.path.basename(plain_name(path))
        stem = stem[:-len(".partial.json")] if stem.endswith(".partial.json") else os.path.splitext(stem)[0]
        base = self.environment.get("id") or stem
        # A file whose name is not its environment id (a repeated run, a
        # history file, PyTorch) is a column of its own, named by the file.
        self.id = stem if stem != base else base
        self.here = False                     # this machine's run (the first path given)
        self.overlay = {}
        self.overlay_from = None              # the partial Results laid over this one
        self.partial_invalid = {}             # (case, variant) -> why the partial run's record was unreadable

    @property
    def has_device(self):
        return self.environment.get("driver", "none") != "none" and self.environment.get("gpu", "none") != "none"

    @property
    def group(self):
        """(GPU, driver and toolkit, mode): kept for callers that group columns."""
        e = self.environment
        gpu = e.get("gpu", "none")
        gpu = "no driver" if e.get("driver") == "none" else ("no device" if gpu == "none" else gpu)
        stack = "driver %s · cudart %s · cuBLAS %s" % (e.get("driver", "?"), e.get("cudart", "?"), e.get("cublas", "?"))
        if self.kind == "pytorch":
            mode = "PyTorch %s" % e.get("torch", "?")
        else:
            mode = e.get("mode", "default")
            if self.id != e.get("id"):
                mode += " (%s)" % self.id.split("_")[0]
        return gpu, stack, mode

    @property
    def heading(self):
        """The header rows of the column, one per level: GPU, driver, cudart
        and cuBLAS, mode. Together they are environment_label."""
        parts = label_parts(self.environment, self.kind)
        mode = parts["mode"] + self.suffix
        return parts["gpu"], parts.get("driver", "no driver"), "%s · %s" % (parts["cudart"], parts["cublas"]), mode

    @property
    def suffix(self):
        suffix = ""
        if self.id != self.environment.get("id") and self.kind != "pytorch":
            suffix += " (%s)" % self.id.split("_")[0]      # a repeated run, a history file
        if self.partial:
            suffix += " " + self.partial_note
        return suffix

    @property
    def partial_note(self):
        c = self.coverage or {}
        if isinstance(c.get("ran"), int) and isinstance(c.get("registered"), int):
            return "partial (%d of %d)" % (c["ran"], c["registered"])
        return "partial"

    @property
    def label(self):
        return environment_label(self.environment, self.kind) + self.suffix

    @property
    def sort_key(self):
        """Columns in reading order: GPUs before no driver, then GPU, driver,
        runtime versions in numeric order, default mode first."""
        e = self.environment
        mode = e.get("mode") or "default"
        return (self.kind == "pytorch", not self.has_device, str(e.get("gpu")), version_key(e.get("devices")),
                version_key(e.get("driver")),
                version_key(e.get("cudart") if e.get("cudart") != "none" else e.get("cudart_header")),
                version_key(e.get("cublas")), MODE_ORDER.index(mode) if mode in MODE_ORDER else len(MODE_ORDER),
                mode, self.id)

    def run(self, case, variant):
        for run in self.runs:
            if run.get("case") == case and run.get("variant") == variant:
                return run
        return None


def label_parts(environment, kind="c"):
    e = environment
    parts = {}
    if e.get("driver", "none") == "none":
        parts["gpu"] = "no driver"
    else:
        gpu = (e.get("gpu") or "no device").replace("NVIDIA ", "")
        if gpu == "none":
            gpu = "no device"
        try:
            count = int(e.get("devices", 1))
        except (TypeError, ValueError):
            count = 1
        parts["gpu"] = "%d× %s" % (count, gpu) if count > 1 else gpu
        parts["driver"] = "driver %s" % e.get("driver")
    cudart = e.get("cudart", "?")
    if cudart == "none" and e.get("cudart_header", "none") != "none":
        cudart = "%s (built with)" % e.get("cudart_header")       # a runtime that cannot say without a driver
    parts["cudart"] = "cudart %s" % cudart
    parts["cublas"] = "cuBLAS %s" % e.get("cublas", "?")
    parts["mode"] = "PyTorch %s" % e.get("torch", "?") if kind == "pytorch" else (e.get("mode") or "default")
    return parts


def environment_label(environment, kind="c"):
    """The one way an environment is named to a reader, everywhere (matrix,
    changes, explain): GPU (with its count), driver, cudart, cuBLAS, mode.
    "H200 · driver 580.159.04 · cudart 13.0 · cuBLAS 13.1.0 · default"."""
    p = label_parts(environment, kind)
    return " · ".join(p[k] for k in ("gpu", "driver", "cudart", "cublas", "mode") if k in p)


# ---- validation, field by field ---------------------------------------------

def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v


def _opt(check):
    return lambda v: v is None or check(v)


_str = lambda v: isinstance(v, str)                                    # noqa: E731
_strings = lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)  # noqa: E731
_bool = lambda v: isinstance(v, bool)                                  # noqa: E731

# Fields the report reads, how they must look, and what they become when they
# do not (absent). Fields it does not read are left alone.
RUN_FIELDS = {
    "family": (_opt(_str), "a string", None), "source": (_opt(_str), "a string", None),
    "seconds": (_opt(_is_number), "a number", None), "timeout_seconds": (_opt(_is_number), "a number", None),
    "sticky": (_opt(_bool), "true, false or null", None),
    "skip_reason": (_opt(_str), "a string", None), "error": (_opt(_str), "a string", None),
    "stdout_tail": (_opt(_str), "a string", None), "stderr_tail": (_opt(_str), "a string", None),
    "library_messages": (_opt(_strings), "a list of strings", []), "notes": (_opt(_strings), "a list of strings", []),
    "mismatches": (_opt(_strings), "a list of strings", []),
    "truncated": (lambda v: v is None or isinstance(v, dict) and all(_is_int(x) for x in v.values()),
                  "an object of byte counts", None),
    "quantities": (lambda v: v is None or isinstance(v, dict) and all(
        isinstance(q, dict) and (_is_number(q.get("value")) or isinstance(q.get("value"), str))
        and _opt(_str)(q.get("unit")) for q in v.values()), "an object of {value, unit}", {}),
    "first_error": (lambda v: v is None or isinstance(v, dict) and _str(v.get("step")) and _str(v.get("name"))
                    and _opt(_str)(v.get("surfaced")), "null or {step, name, surfaced}", None),
    "unreached": (lambda v: v is None or isinstance(v, list) and all(
        isinstance(u, dict) and _str(u.get("step")) and _opt(_str)(u.get("verdict")) and _opt(_str)(u.get("expected"))
        and _opt(_str)(u.get("rule")) for u in v), "a list of {step, expected, rule, verdict}", []),
}
PYTORCH_FIELDS = {
    "exception": (_opt(_str), "a string", None), "message": (_opt(_str), "a string", None),
    "returncode": (_opt(_is_int), "an integer", None), "where": (_opt(_str), "a string", None),
    "torch": (_opt(_str), "a string", None), "stderr_tail": (_opt(_str), "a string", None),
    "family": (_opt(_str), "a string", None), "source": (_opt(_str), "a string", None),
}
END_FIELDS = {"outcome": _str, "kind": _str, "code": _opt(_is_int), "expected": _opt(_str), "rule": _opt(_str),
              "verdict": _opt(_str), "reached_end_of_variant": _opt(_bool)}
STEP_FIELDS = {"step": _str, "name": _str, "success": _bool, "code": _opt(_is_int), "api": _opt(_str),
               "call": _opt(_str), "surfaced": _opt(_str), "expected": _opt(_str), "rule": _opt(_str),
               "cite": _opt(_str), "verdict": _opt(_str)}
ESSENTIAL_STEP_FIELDS = ("step", "name", "success")
_OPTIONAL_STEP_STRINGS = ("api", "call", "surfaced", "expected", "rule", "cite", "verdict")


def _plain_step(step):
    """The common case, quickly: a step record every field of which is right."""
    if step.__class__ is not dict or step.get("step").__class__ is not str or step.get("name").__class__ is not str \
            or step.get("success").__class__ is not bool:
        return False
    code = step.get("code")
    if code is not None and code.__class__ is not int:
        return False
    for field in _OPTIONAL_STEP_STRINGS:
        value = step.get(field)
        if value is not None and value.__class__ is not str:
            return False
    return True
# fields whose value is right whenever it has one of these types
_PLAIN = {"family": (str,), "source": (str,), "seconds": (float, int), "timeout_seconds": (float, int), "sticky": (bool,),
          "skip_reason": (str,), "error": (str,), "stdout_tail": (str,), "stderr_tail": (str,), "exception": (str,),
          "message": (str,), "returncode": (int,), "where": (str,), "torch": (str,)}
_LISTS = {"library_messages", "notes", "mismatches", "unreached"}
_OBJECTS = {"quantities", "truncated"}
ENVIRONMENT_FIELDS = ("id", "gpu", "driver", "cudart", "cudart_header", "cublas", "mode", "devices", "torch", "cuda", "cc")


def _show(value):
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Checker:
    def __init__(self, path):
        self.path, self.problems = path, []

    def note(self, where, field, reason, scope):
        self.problems.append(Problem(self.path, "%s, field %s: %s" % (where, field, reason), scope))

    def run(self, i, run, pytorch):
        """(clean run, None) or (None, reason the run cannot be shown)."""
        if not isinstance(run, dict):
            return None, "run %d: not an object (%s)" % (i, _show(run))
        case, variant = run.get("case"), run.get("variant")
        if not isinstance(case, str) or not CASE_NAME.match(case):
            return None, "run %d, field case: %s is not a case name" % (i, _show(case))
        if variant not in VARIANTS:
            return None, "run %d (%s), field variant: %s is not fixed or broken" % (i, case, _show(variant))
        where = "run %d (%s %s)" % (i, case, variant)
        run = dict(run)
        if not pytorch:
            verdict = run.get("verdict")
            if verdict not in VERDICTS:
                return None, "%s, field verdict: %s is not one of %s" % (where, _show(verdict), ", ".join(VERDICTS))
            end = run.get("end")
            if not isinstance(end, dict):
                return None, "%s, field end: %s is not an object" % (where, _show(end))
            for field, check in END_FIELDS.items():
                if not check(end.get(field)):
                    if field in ("outcome", "kind"):
                        return None, "%s, field end.%s: %s is not a string" % (where, field, _show(end.get(field)))
                    self.note(where, "end." + field, "%s is not valid; ignored" % _show(end.get(field)), "field")
                    end = dict(end, **{field: None})
            run["end"] = end
            steps = run.get("steps")
            if not isinstance(steps, list):
                return None, "%s, field steps: %s is not a list" % (where, _show(steps))
            clean = []
            for j, step in enumerate(steps):
                if _plain_step(step):
                    clean.append(step)
                    continue
                if not isinstance(step, dict):
                    return None, "%s, field steps[%d]: not an object" % (where, j)
                for field in ESSENTIAL_STEP_FIELDS:
                    if not STEP_FIELDS[field](step.get(field)):
                        return None, "%s, field steps[%d].%s: %s is not valid" % (where, j, field, _show(step.get(field)))
                for field, check in STEP_FIELDS.items():
                    if not check(step.get(field)):
                        self.note(where, "steps[%d].%s" % (j, field), "%s is not valid; ignored" % _show(step.get(field)), "field")
                        step = dict(step, **{field: None})
                clean.append(step)
            run["steps"] = clean
        for field, (check, wanted, default) in (PYTORCH_FIELDS if pytorch else RUN_FIELDS).items():
            value = run.get(field)
            if value is None or value.__class__ in _PLAIN.get(field, ()) or (value == [] and field in _LISTS) \
                    or (value == {} and field in _OBJECTS):
                continue                                 # the common case, quickly
            if not check(value):
                self.note(where, field, "%s is not %s; ignored" % (_show(run[field]), wanted), "field")
                run[field] = default
        return run, None

    def file(self, data):
        """Validate a whole file: raises Unusable, or returns (data, invalid runs)."""
        if not isinstance(data, dict):
            raise Unusable("not a JSON object")
        schema = data.get("schema")
        match = re.match(r"^(cuda-error-atlas/(?:results|pytorch)/)(\d+)$", schema) if isinstance(schema, str) else None
        if not match:
            raise Unusable("field schema: %s is not %s<version> or %s<version>" % (_show(schema), RESULTS_SCHEMA, PYTORCH_SCHEMA))
        prefix, version = match.group(1), int(match.group(2))
        if version not in KNOWN_VERSIONS[prefix]:
            raise Unusable("field schema: version %d of %s is not known (this report reads version %s)" % (
                version, prefix, ", ".join(str(v) for v in sorted(KNOWN_VERSIONS[prefix]))))
        pytorch = prefix == PYTORCH_SCHEMA
        environment = data.get("environment")
        if not isinstance(environment, dict):
            raise Unusable("field environment: %s is not an object" % _show(environment))
        environment = dict(environment)
        for field in ENVIRONMENT_FIELDS:
            value = environment.get(field)
            if field in environment and not (isinstance(value, str) and len(value) <= 200):
                self.note("environment", field, "%s is not a string; shown as ?" % _show(value), "field")
                environment[field] = "?" if field != "id" else None
        runs = data.get("runs")
        if not isinstance(runs, list):
            raise Unusable("field runs: %s is not a list" % _show(runs))
        clean = dict(data, environment=environment)
        for field, check in (("collected", _opt(_str)),):
            if not check(data.get(field)):
                self.note("file", field, "%s is not a string; ignored" % _show(data.get(field)), "field")
                clean[field] = None
        coverage = data.get("coverage")
        if coverage is not None and not (isinstance(coverage, dict) and _is_int(coverage.get("registered"))
                                         and _is_int(coverage.get("ran")) and _bool(coverage.get("complete"))
                                         and _opt(_strings)(coverage.get("not_run"))):
            self.note("file", "coverage", "%s is not {registered, ran, complete, not_run}; treated as complete"
                      % _show(coverage), "field")
            clean["coverage"] = None
        kept, invalid, seen = [], {}, set()
        for i, run in enumerate(runs):
            good, reason = self.run(i, run, pytorch)
            if good is None:
                self.problems.append(Problem(self.path, reason + "; the run is shown as unreadable", "run"))
                if isinstance(run, dict) and isinstance(run.get("case"), str) and CASE_NAME.match(run["case"]) \
                        and run.get("variant") in VARIANTS:
                    invalid.setdefault((run["case"], run["variant"]), reason)
                continue
            key = (good["case"], good["variant"])
            if key in seen:
                self.problems.append(Problem(self.path, "run %d (%s %s): a second run of the same variant; the first is kept"
                                             % (i, key[0], key[1]), "run"))
                continue
            seen.add(key)
            kept.append(good)
        clean["runs"] = kept
        return clean, {k: v for k, v in invalid.items() if k not in seen}


def plain_name(path):
    """A results file's name without the compression suffix: x.json.gz -> x.json."""
    return path[:-3] if path.endswith(".json.gz") else path


def expand(paths):
    """Files as given; a folder stands for the results files in it (*.json and
    *.json.gz; where both forms of one name exist, the plain file is the newer
    writing of the same column and is read)."""
    for path in paths:
        if os.path.isdir(path):
            found = sorted(glob.glob(os.path.join(path, "*.json")) + glob.glob(os.path.join(path, "*.json.gz")))
            plain = set(found)
            yield from (p for p in found if not (p.endswith(".gz") and p[:-3] in plain))
        else:
            yield path


def read_bytes(path):
    """A results file's bytes, decompressed when it is gzip (by its magic, not its name)."""
    with open(path, "rb") as f:
        raw = f.read()
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def read_results_file(path, reader=read_bytes):
    """(Results or None, [Problem]): never raises for bad content. reader: path -> bytes (the compiled dataset
    passes its own)."""
    checker = _Checker(path)
    try:
        data = json.loads(reader(path).decode("utf-8"))
        clean, invalid = checker.file(data)
        return Results(path, clean, invalid), checker.problems
    except FileNotFoundError:
        return None, [Problem(path, "does not exist")]
    except IsADirectoryError:
        return None, [Problem(path, "is a folder")]
    except OSError as error:
        return None, [Problem(path, "cannot be read: %s" % (error.strerror or error))]
    except UnicodeDecodeError as error:
        return None, [Problem(path, "not UTF-8 (%s)" % error.reason)]
    except (gzip.BadGzipFile, EOFError) as error:
        return None, [Problem(path, "not a readable gzip file: %s" % error)]
    except RecursionError:
        return None, [Problem(path, "nested too deeply to read")]
    except ValueError as error:
        return None, [Problem(path, "not JSON: %s" % error)]
    except Unusable as error:
        return None, checker.problems + [Problem(path, str(error))]


def _same(a, b):
    keys = ("verdict", "end", "steps", "first_error", "sticky", "unreached", "library_messages", "skip_reason",
            "exception", "message")
    return all((a or {}).get(k) == (b or {}).get(k) for k in keys)


def load_results(paths, here=(), reader=read_bytes):
    """(list of Results, list of Problem): every file is either used or named
    with the reason it was not. When two complete files are the same column,
    the first named wins (a new run supersedes a committed one). A partial
    file (a filtered run) is laid over the complete column of its environment,
    or is a column of its own when there is none. `here`: the files of this
    machine's run."""
    here = {os.path.abspath(p) for p in expand(here)}
    loaded, problems = [], []
    for path in (expand(paths) if reader is read_bytes else paths):
        results, found = read_results_file(path, reader)
        problems += found
        if results is not None:
            results.here = os.path.abspath(path) in here
            loaded.append(results)
    columns, found = as_columns(loaded)
    return columns, problems + found


def accepted_form(results):
    """(JSON text, [[case, variant, reason]]): what read_results_file accepted of a file — its data after validation,
    and the runs it could not read — for read_accepted to make the same Results again (the compiled dataset keeps
    its columns so)."""
    return json.dumps(results.data), sorted([case, variant, why] for (case, variant), why in results.invalid.items())


def read_accepted(path, text, invalid=(), here=False):
    """The Results that read_results_file made of a file, from accepted_form(): nothing is validated again."""
    results = Results(path, json.loads(text), {(case, variant): why for case, variant, why in invalid})
    results.here = here
    return results


def as_columns(loaded):
    """(list of Results, list of Problem): files read (in the order named) made into columns, as load_results says."""
    problems = []
    first, unique, partials = {}, [], []
    for results in loaded:
        if results.partial:
            partials.append(results)
            continue
        if results.id in first:
            problems.append(Problem(results.path, "superseded by %s (the same environment)" % first[results.id].path,
                                    "superseded"))
            continue
        first[results.id] = results
        unique.append(results)
    for partial in sorted(partials, key=lambda r: r.filtered):      # the columns first, the filtered runs over them
        base = first.get(partial.id)
        if base is None:
            first[partial.id] = partial
            unique.append(partial)
        elif base.filtered or not partial.filtered or base.overlay_from is not None:
            problems.append(Problem(partial.path, "superseded by %s (a partial run of the same environment)"
                                    % (base.overlay_from or base).path, "superseded"))
        elif base.collected and partial.collected and partial.collected < base.collected:
            # the newer complete run supersedes what it ran; what it skipped or did not have (a case that needs
            # files that run lacked) the older partial run still shows, rather than losing an observation
            ran = {(r["case"], r["variant"]) for r in base.runs if r.get("verdict") != "skip"}
            kept = [r for r in partial.runs if (r["case"], r["variant"]) not in ran]
            if kept:
                _lay_over(base, partial, kept)
            problems.append(Problem(partial.path, "a partial run older than the complete run %s (collected %s < %s): "
                                    "shown only for the %d of its %d runs that the complete run skipped or lacked"
                                    % (base.path, partial.collected, base.collected, len(kept), len(partial.runs)),
                                    "superseded" if kept else "file"))
        else:
            _lay_over(base, partial)
    return unique, problems


def _lay_over(base, partial, runs_shown=None):
    base.overlay_from = partial
    base.here = base.here or partial.here
    index = {(r["case"], r["variant"]): i for i, r in enumerate(base.runs)}
    runs = list(base.runs)
    for run in partial.runs if runs_shown is None else runs_shown:
        key = (run["case"], run["variant"])
        old = runs[index[key]] if key in index else None
        if key in index:
            runs[index[key]] = run
        else:
            runs.append(run)
        base.invalid.pop(key, None)
        if not _same(old, run):
            base.overlay[key] = (old, run)
    base.runs = runs
    # a run the partial file has but that could not be read: the complete
    # run's outcome stays, and its drill-down says so
    base.partial_invalid = dict(partial.invalid)


def default_results_paths(root=ROOT):
    return list(expand([os.path.join(root, "data", "results")]))


# Columns that only the versions pages read, companions of the committed ones: the runtime columns without a driver
# (fifteen columns that would crowd the matrix).
COMPANION_FOLDERS = [os.path.join("data", "results", "versions-no-driver")]


def companion_paths(root=ROOT):
    """The companion columns' files (COMPANION_FOLDERS under root)."""
    return list(expand([os.path.join(root, f) for f in COMPANION_FOLDERS if os.path.isdir(os.path.join(root, f))]))
