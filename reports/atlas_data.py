"""What the report is made of: results files (validated, never silently
dropped), the cases' lessons (parsed from their headers) and the table of
status names and texts. Standard library only."""
import glob
import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS_SCHEMA = "cuda-error-atlas/results/"
PYTORCH_SCHEMA = "cuda-error-atlas/pytorch/"
SUCCESS = {"cudaSuccess", "CUBLAS_STATUS_SUCCESS", "CUDA_SUCCESS", "result_correct",
           "CUSOLVER_STATUS_SUCCESS", "CUFFT_SUCCESS", "CUDNN_STATUS_SUCCESS", "ncclSuccess"}


class Problem(Exception):
    """A results file that cannot be used, and why."""


class Results:
    """One results file: an environment (a column) and its runs."""

    def __init__(self, path, data):
        self.path = path
        self.data = data
        self.kind = "pytorch" if data["schema"].startswith(PYTORCH_SCHEMA) else "c"
        self.environment = data["environment"]
        self.runs = data["runs"]
        stem = os.path.splitext(os.path.basename(path))[0]
        base = self.environment.get("id") or stem
        # A file whose name is not its environment id (a repeated run, a
        # history file, PyTorch) is a column of its own, named by the file.
        self.id = stem if stem != base else base

    @property
    def has_device(self):
        return self.environment.get("driver", "none") != "none" and self.environment.get("gpu", "none") != "none"

    @property
    def group(self):
        """(GPU, driver and toolkit, mode): the column's place in the header."""
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
    def label(self):
        label = environment_label(self.environment, self.kind)
        if self.id != self.environment.get("id") and self.kind != "pytorch":
            label += " (%s)" % self.id.split("_")[0]      # a repeated run, a history file
        return label

    def run(self, case, variant):
        for run in self.runs:
            if run.get("case") == case and run.get("variant") == variant:
                return run
        return None


def environment_label(environment, kind="c"):
    """The one way an environment is named to a reader, everywhere (matrix,
    changes, explain): GPU (with its count), driver, cudart, cuBLAS, mode.
    "H200 · driver 580.159.04 · cudart 13.0 · cuBLAS 13.1.0 · default"."""
    e = environment
    if e.get("driver", "none") == "none":
        gpu = "no driver"
    else:
        gpu = (e.get("gpu") or "no device").replace("NVIDIA ", "")
        try:
            count = int(e.get("devices", 1))
        except (TypeError, ValueError):
            count = 1
        if count > 1:
            gpu = "%d× %s" % (count, gpu)
    parts = [gpu]
    if e.get("driver", "none") != "none":
        parts.append("driver %s" % e.get("driver"))
    cudart = e.get("cudart", "?")
    if cudart == "none" and e.get("cudart_header", "none") != "none":
        cudart = "%s (built with)" % e.get("cudart_header")       # a runtime that cannot say without a driver
    parts.append("cudart %s" % cudart)
    parts.append("cuBLAS %s" % e.get("cublas", "?"))
    if kind == "pytorch":
        parts.append("PyTorch %s" % e.get("torch", "?"))
    else:
        parts.append(e.get("mode") or "default")
    return " · ".join(parts)


def _validate(data):
    if not isinstance(data, dict):
        raise Problem("not a JSON object")
    schema = data.get("schema")
    if not isinstance(schema, str) or not (schema.startswith(RESULTS_SCHEMA) or schema.startswith(PYTORCH_SCHEMA)):
        raise Problem("schema is %r, not %s* or %s*" % (schema, RESULTS_SCHEMA, PYTORCH_SCHEMA))
    if not isinstance(data.get("environment"), dict):
        raise Problem("no environment object")
    runs = data.get("runs")
    if not isinstance(runs, list):
        raise Problem("no runs list")
    pytorch = schema.startswith(PYTORCH_SCHEMA)
    for i, run in enumerate(runs):
        if not isinstance(run, dict) or not isinstance(run.get("case"), str) or run.get("variant") not in ("fixed", "broken"):
            raise Problem("run %d has no case or variant" % i)
        if not pytorch and (not isinstance(run.get("steps"), list) or not isinstance(run.get("end"), dict)
                            or not isinstance(run.get("verdict"), str)):
            raise Problem("run %d (%s %s) lacks steps, end or verdict" % (i, run["case"], run["variant"]))


def expand(paths):
    """Files as given; a folder stands for the *.json files in it."""
    for path in paths:
        if os.path.isdir(path):
            yield from sorted(glob.glob(os.path.join(path, "*.json")))
        else:
            yield path


def load_results(paths):
    """(list of Results, list of (path, reason)): every file is either used
    or reported with the reason it was not. When two files are the same
    column, the first named wins (a new run supersedes a committed one)."""
    loaded, problems = [], []
    for path in expand(paths):
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            _validate(data)
            loaded.append(Results(path, data))
        except (OSError, ValueError, Problem) as error:
            problems.append((path, str(error)))
    # the same column twice: keep the first, and say which file replaced it
    first, unique = {}, []
    for results in loaded:
        if results.id in first:
            problems.append((results.path, "superseded by %s (the same environment)" % first[results.id]))
            continue
        first[results.id] = results.path
        unique.append(results)
    return unique, problems


def default_results_paths(root=ROOT):
    return sorted(glob.glob(os.path.join(root, "reports", "results", "*.json")))


# ---- the cases' lessons ----------------------------------------------------

SECTIONS = [("mistake", "The mistake"), ("sees", "What the program sees"), ("pytorch", "What a PyTorch user sees"),
            ("why", "Why"), ("fix", "The fix"), ("references", "References")]


class Case:
    def __init__(self, path, root=ROOT):
        self.path = path
        self.source_path = os.path.relpath(path, root)
        self.family = os.path.basename(os.path.dirname(path))
        self.name = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as f:
            self.source = f.read()
        self.title, self.sections, self.markers = parse_lesson(self.source)
        match = re.search(r"ATLAS_CASE\((\w+),\s*(\w+)\)", self.source)
        self.variant_functions = {"fixed": match.group(1), "broken": match.group(2)} if match else {}
        mirror = os.path.splitext(path)[0] + ".py"
        self.mirror_path = os.path.relpath(mirror, root) if os.path.exists(mirror) else None
        self.mirror_source = open(mirror, encoding="utf-8").read() if self.mirror_path else None

    def variant_lines(self):
        """{variant: (line number, text)} of the line that defines each variant."""
        lines = {}
        for number, text in enumerate(self.source.splitlines(), 1):
            for variant, function in self.variant_functions.items():
                if re.match(r"static void %s\(void\)" % re.escape(function), text):
                    lines[variant] = (number, text)
        return lines


def parse_lesson(source):
    """(title, {section: text}, [markers]) from the header comment."""
    match = re.match(r"\s*/\*(.*?)\*/", source, re.S)
    if not match:
        return "", {}, []
    lines = [re.sub(r"^\s*\*\s?", "", line).rstrip() for line in match.group(1).splitlines()]
    paragraphs, current = [], []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    title = paragraphs.pop(0) if paragraphs else ""
    sections, markers, key = {}, [], None
    for paragraph in paragraphs:
        if paragraph.startswith("atlas:"):
            markers.append(paragraph)
            continue
        for name, prefix in SECTIONS:
            if paragraph.startswith(prefix):
                key = name
                sections[key] = paragraph
                break
        else:
            if key:
                sections[key] += "\n\n" + paragraph
    return title, sections, markers


def load_cases(root=ROOT):
    paths = sorted(glob.glob(os.path.join(root, "cases", "*", "*.c")) + glob.glob(os.path.join(root, "cases", "*", "*.cu")))
    return {case.name: case for case in (Case(p, root) for p in paths)}


# ---- status names and texts ------------------------------------------------

def load_status_table(root=ROOT):
    """[(api, code, name, text)] from the newest reports/error_strings_*.tsv."""
    table = []
    paths = sorted(glob.glob(os.path.join(root, "reports", "error_strings_*.tsv")))
    if paths:
        with open(paths[-1], encoding="utf-8") as f:
            for line in f:
                api, code, name, text = line.rstrip("\n").split("\t", 3)
                table.append((api, int(code), name, text))
    return table


def short(name):
    """cudaErrorIllegalAddress -> IllegalAddress; CUBLAS_STATUS_INVALID_VALUE -> INVALID_VALUE."""
    for prefix in ("cudaError", "CUBLAS_STATUS_", "CUDA_ERROR_"):
        if name.startswith(prefix) and len(name) > len(prefix):
            return name[len(prefix):]
    return name
