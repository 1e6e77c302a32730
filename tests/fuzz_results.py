"""Fuzz the results loader and the report with mutated committed results
files: a mutation may make a run unreadable or a field ignored, never an
exception. Crashing inputs are saved in tests/fuzz_cases/ (where the
tests replay them for good).

    python3 tests/fuzz_results.py --seconds 600 [--seed N]
"""
import argparse
import copy
import hashlib
import json
import os
import random
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from cuda_error_atlas.results import default_results_paths, load_results, read_bytes  # noqa: E402
from cuda_error_atlas.lessons import load_cases  # noqa: E402
from cuda_error_atlas.matrix import Matrix, matrix_csv, matrix_json, matrix_markdown  # noqa: E402
from cuda_error_atlas.pages import case_page, changes_html, matrix_html, status_index, steps_script  # noqa: E402

CASES_DIR = os.path.join(HERE, "fuzz_cases")
WEIRD = [None, True, False, 0, -1, 2 ** 70, 1.5, float("inf"), "", "x" * 5000, "</script><b>", "../../x", "NaN",
         "\u2028", "signal:", "exit:", "timeout", "fixed", "broken", [], {}, [None], {"": None}, [[[]]],
         {"name": 5}, {"step": "s", "name": "n", "surfaced": 3}, "cudaErrorIllegalAddress", "\x00"]


def _containers(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _containers(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _containers(item, path + (i,))


def mutate(data, rng):
    """One random change somewhere in the tree (in place), or a damaged text."""
    spots = [(p, v) for p, v in _containers(data) if isinstance(v, (dict, list))]
    path, node = rng.choice(spots)
    choice = rng.random()
    if isinstance(node, dict) and node:
        key = rng.choice(list(node))
        if choice < 0.2:
            del node[key]
        elif choice < 0.8:
            node[key] = weird(rng)
        else:
            node[rng.choice(["verdict", "end", "steps", "case", "variant", "first_error", "truncated", "coverage",
                             "schema", "environment", "runs", "sticky", "quantities"])] = weird(rng)
    elif isinstance(node, list) and node:
        i = rng.randrange(len(node))
        if choice < 0.3:
            node.insert(i, copy.deepcopy(node[i]))            # a duplicate
        elif choice < 0.5:
            del node[i]
        else:
            node[i] = weird(rng)
    return data


def weird(rng):
    """A fresh copy of an awkward value (a shared one could end up inside itself)."""
    return copy.deepcopy(rng.choice(WEIRD))


def sample(rng):
    paths = default_results_paths()
    data = json.loads(read_bytes(rng.choice(paths)).decode("utf-8"))
    data["runs"] = rng.sample(data["runs"], min(6, len(data["runs"])))
    if rng.random() < 0.3:
        data["coverage"] = {"registered": 166, "ran": 6, "complete": rng.random() < 0.5, "not_run": []}
    return data


_CASES = None


def check(path, cases=None):
    """Load and render one file; raises what the report would raise."""
    global _CASES
    if cases is None:
        _CASES = _CASES or load_cases()
        cases = _CASES
    results, problems = load_results([path])
    matrix = Matrix(results, cases)
    matrix_html(matrix, problems)
    matrix_markdown(matrix)
    matrix_csv(matrix)
    matrix_json(matrix, problems)
    status_index(matrix, [])
    changes_html(matrix)
    for name in matrix.case_names:
        steps_script(matrix, name)
        case_page(matrix, matrix.cases.get(name, name))
    return problems


def fuzz(seconds, seed=0, save=True):
    """Mutate for `seconds`; returns [(saved path, traceback)] of crashes."""
    rng = random.Random(seed)
    crashes, runs = [], 0
    work = tempfile.mkdtemp(prefix="atlas-fuzz-")
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            data = sample(rng)
            for _ in range(rng.randint(1, 4)):
                data = mutate(data, rng)
            text = json.dumps(data, allow_nan=True)
            if rng.random() < 0.1:                      # damaged text as well
                cut = rng.randrange(len(text))
                text = text[:cut] + rng.choice(["", "\x00", "{", "\"", "\udcff".encode("utf-8", "surrogatepass").decode("latin-1")]) + text[cut + 1:]
            path = os.path.join(work, "fuzz.json")
            with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write(text)
            runs += 1
            try:
                check(path)
            except Exception:                           # noqa: BLE001 - any exception is a finding
                name = "crash-%s.json" % hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
                saved = os.path.join(CASES_DIR, name) if save else path
                if save:
                    os.makedirs(CASES_DIR, exist_ok=True)
                    with open(saved, "w", encoding="utf-8", errors="surrogatepass") as f:
                        f.write(text)
                crashes.append((saved, traceback.format_exc()))
    finally:
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)
    print("fuzz: %d inputs in %.0f s (seed %d), %d crashes" % (runs, seconds, seed, len(crashes)), file=sys.stderr)
    return crashes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    crashes = fuzz(args.seconds, args.seed)
    for path, trace in crashes:
        print("%s\n%s" % (path, trace))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
