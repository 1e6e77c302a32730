"""cuda-error-atlas reports: the compatibility matrix, the teaching atlas,
what changed between environments, and explain.

    cuda-atlas report build [--out DIR] [--dataset PATH] [RESULTS.json ...]
    cuda-atlas report diff X Y [--dataset PATH] [RESULTS.json ...]
    cuda-atlas explain "RuntimeError: CUDA error: ..." | -   (explain --help)
    cuda-atlas report lessons [--dataset PATH]   (lesson prose that says less than the results)

Every page is rendered from a compiled dataset (docs/dataset.md), never from
results files. With none named, that is the checkout's dataset of the
committed results (build/dataset/atlas.sqlite, rebuilt when stale), or the
one --dataset names. Named results files are compiled first, by the same
compiler, into a dataset of their own that holds their columns: --dataset, or
for build DIR.sqlite beside the report (kept while current, rebuilt when any
input changed), else a temporary one. A folder stands for the .json files in
it, and the first file of an environment wins. For build, when more than one
path is given, the first is this machine's run: its columns come first and
are marked. A partial results file (a filtered run, <id>.partial.json) is laid
over the complete column of its environment.
Exit status 1 when no results file could be read.
X and Y are column names (an environment id, or a results file's name) or any
unambiguous part of one.
"""
import argparse
import collections
import contextlib
import gc
import os
import shutil
import sys
import tempfile


from .results import ROOT
from .dataset import in_checkout, open_dataset
from .matrix import Matrix, changed_variants, differences, matrix_csv, matrix_json, matrix_markdown, stale_lessons
from .pages import atlas_index, case_page, changes_html, copy_assets, matrix_html, status_index, steps_script
from . import explainer as explain
from . import versions as atlas_versions

# What the pages are rendered from: the matrix (the columns and the lessons), what the results reader could not
# use, the companion columns only the versions pages read, and the status table ([(api, code, name, text)]).
Report = collections.namedtuple("Report", "matrix problems companions status_table")


@contextlib.contextmanager
def collector_paused():
    """The evidence is millions of small objects without a cycle among them (the runs, their steps, the cells): the
    cyclic garbage collector finds nothing there, yet walks all of them again whenever enough new ones were made —
    a fifth to a third of the report's time. Paused while a report is read and rendered; reference counting frees as
    before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read(dataset):
    """The report of a dataset: everything in it is read from the dataset."""
    results, problems = dataset.results()
    companions, _ = dataset.results("versions")
    return Report(Matrix(results, dataset.cases()), problems, companions, dataset.status_table())


def open_for(results=(), here=(), path=None):
    """The dataset a report reads: with no results files named, the one at path as it was compiled (default: the
    checkout's, of the committed results); else the one at path that holds exactly these files' columns, compiled
    (or rebuilt, saying why) when it does not."""
    if not results:
        return open_dataset(path, as_compiled=path is not None)
    if not in_checkout():
        raise RuntimeError("results files are compiled with a checkout's cases, rules and data (cases/, expected/, "
                           "data/), and there is none here; without results files named, the report renders the "
                           "package's own dataset")
    return open_dataset(path, results=results, here=here)


# The pages of the report: each builder takes the Report and returns {relative path: text}. Another page is one
# more entry here.
def matrix_pages(report):
    matrix, problems = report.matrix, report.problems
    return {"index.html": matrix_html(matrix, problems), "matrix.md": matrix_markdown(matrix),
            "matrix.csv": matrix_csv(matrix), "matrix.json": matrix_json(matrix, problems)}


def case_pages(report):
    matrix = report.matrix
    files = {"atlas.html": atlas_index(matrix)}
    for name in matrix.case_names:
        files["steps/%s.js" % name] = steps_script(matrix, name)
        # a case the results name but this checkout lacks gets a page of what was recorded
        files["case/%s.html" % name] = case_page(matrix, matrix.cases.get(name, name))
    return files


def status_pages(report):
    return {"status.html": status_index(report.matrix, report.status_table)}


def change_pages(report):
    return {"changes.html": changes_html(report.matrix)}


def version_pages(report):
    """versions.html, compare/*.html, sticky.html and sticky.json (versions.py), with the companion columns."""
    return atlas_versions.pages(atlas_versions.with_companions(report.matrix.columns, report.companions))


PAGE_BUILDERS = [matrix_pages, case_pages, status_pages, change_pages, version_pages]


def write(report, out, builders=None):
    """Write the report's pages into `out`; returns the path of its index.html."""
    files = {}
    for builder in builders or PAGE_BUILDERS:
        files.update(builder(report))
    copy_assets(out)
    for name, text in files.items():
        path = os.path.join(out, *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return os.path.join(out, "index.html")


def build(matrix, problems, out, builders=None, companions=(), status_table=None):
    """Write the report of a matrix made elsewhere (a test's own results files) into `out`; the status table is the
    checkout's dataset's unless given. Returns the path of its index.html."""
    if status_table is None:
        status_table = open_dataset().status_table()
    return write(Report(matrix, problems, list(companions), status_table), out, builders)


def find_column(matrix, name):
    columns = matrix.columns + matrix.pytorch
    matches = ([c for c in columns if c.id == name] or [c for c in columns if c.id.startswith(name)]
               or [c for c in columns if name in c.id])
    if len(matches) > 1:    # an environment's own column before a repeat, a history file or PyTorch
        matches = [c for c in matches if c.kind == "c" and c.id == c.environment.get("id")] or matches
    if len(matches) != 1:
        raise SystemExit("atlas: %r names %s; columns are:\n  %s" % (
            name, "no column" if not matches else "%d columns" % len(matches),
            "\n  ".join("%s  (%s)" % (c.id, c.label) for c in columns)))
    return matches[0]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["explain"]:
        return explain.main(argv[1:])          # explain has its own options (explain --help)
    parser = argparse.ArgumentParser(description="cuda-error-atlas reports")
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build", help="write the matrix, the atlas and the status index")
    b.add_argument("--out", default=os.path.join(ROOT, "build", "report"))
    d = commands.add_parser("diff", help="what changed between two environments")
    d.add_argument("left")
    d.add_argument("right")
    lessons = commands.add_parser("lessons", help="lessons whose prose says less than, or other than, the recorded results")
    for command in (b, d, lessons):
        command.add_argument("--dataset", help="the dataset to read; with results files named, the one they are compiled "
                                               "into (build: DIR.sqlite beside the report; else a temporary one)")
    for command in (b, d):
        command.add_argument("results", nargs="*", help="results files or folders (default: the committed results)")
    commands.add_parser("explain", help="which case reproduces an error message (explain --help)")
    args = parser.parse_args(argv)

    # `build OURS COMMITTED...`: the first path is this machine's run
    paths = getattr(args, "results", [])
    here = paths[:1] if args.command == "build" and len(paths) > 1 else ()
    where, temporary = args.dataset, None
    if paths and not where:
        if args.command == "build":
            where = os.path.abspath(args.out).rstrip(os.sep) + ".sqlite"
        else:
            temporary = tempfile.mkdtemp(prefix="atlas-report-")
            where = os.path.join(temporary, "atlas.sqlite")
    try:
        try:
            dataset = open_for(paths, here, where)
        except RuntimeError as error:
            print("atlas: %s" % error, file=sys.stderr)
            return 1
        except OSError as error:
            print("atlas: cannot %s: cannot compile its dataset into %s: %s" % (
                "write the report into %s" % args.out if args.command == "build" else "read the results",
                where, error.strerror or error), file=sys.stderr)
            return 1
        with collector_paused():
            return run(args, read(dataset), dataset.path)
    finally:
        if temporary:
            shutil.rmtree(temporary, ignore_errors=True)


def run(args, report, source):
    """The command, on the report read from the dataset at `source`."""
    matrix, problems = report.matrix, report.problems
    for problem in problems:
        print("%s: %s" % (problem[0], problem[1]), file=sys.stderr)
    if not matrix.columns and not matrix.pytorch:
        print("atlas: no results could be read%s" % (" (%d problems above)" % len(problems) if problems else ""),
              file=sys.stderr)
        return 1
    if args.command == "build":
        try:
            index = write(report, args.out)
        except OSError as error:
            print("atlas: cannot write the report into %s: %s" % (args.out, error.strerror or error), file=sys.stderr)
            return 1
        real = [p for p in problems if getattr(p, "scope", "file") != "superseded"]
        print("report: %s (%d cases × %d environments, %d PyTorch columns%s; from %s)" % (
            index, len(matrix.case_names), len(matrix.columns), len(matrix.pytorch),
            ", %d problems in the results files (named above)" % len(real) if real else "", source))
    elif args.command == "lessons":
        found = stale_lessons(matrix)
        for path, problem in found:
            print("%s: %s" % (path, problem))
        print("%d lessons to look at" % len(found))
        return 1 if found else 0
    elif args.command == "diff":
        left, right = find_column(matrix, args.left), find_column(matrix, args.right)
        changed = differences(matrix, left, right)
        print("%s\n  → %s\n%d variants differ (%d rows with their steps; a variant skipped or not run on either side "
              "is not a change)" % (left.label, right.label, changed_variants(changed), len(changed)))
        for row, a, b in changed:
            print("  %-70s %-28s → %s" % (row.label, a.text, b.text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
