"""cuda-error-atlas reports: the compatibility matrix, the teaching atlas,
what changed between environments, and explain.

    cuda-atlas report build [--out DIR] [RESULTS.json ...]
    cuda-atlas report diff X Y [RESULTS.json ...]
    cuda-atlas explain "RuntimeError: CUDA error: ..." | -   (explain --help)
    cuda-atlas report lessons      (lesson prose that says less than the results)

With no results files named, every file in data/results/ is read; a folder
stands for the .json files in it, and the first file of an environment wins.
For build, when more than one path is given, the first is this machine's run:
its columns come first and are marked. A partial results file (a filtered
run, <id>.partial.json) is laid over the complete column of its environment.
Exit status 1 when no results file could be read.
X and Y are column names (an environment id, or a results file's name) or any
unambiguous part of one.
"""
import argparse
import os
import sys


from .results import ROOT, default_results_paths, load_results
from .lessons import load_cases
from .statuses import load_status_table
from .matrix import Matrix, changed_variants, differences, matrix_csv, matrix_json, matrix_markdown, stale_lessons
from .pages import atlas_index, case_page, changes_html, copy_assets, matrix_html, status_index, steps_script
from . import explainer as explain
from . import versions as atlas_versions


def load(paths, here=()):
    """(Matrix, problems). `here`: the paths of this machine's run."""
    results, problems = load_results(paths or default_results_paths(), here)
    for problem in problems:
        print("%s: %s" % (problem[0], problem[1]), file=sys.stderr)
    return Matrix(results, load_cases()), problems


# The pages of the report: each builder takes (matrix, problems) and returns
# {relative path: text}. Another page is one more entry here.
def matrix_pages(matrix, problems):
    return {"index.html": matrix_html(matrix, problems), "matrix.md": matrix_markdown(matrix),
            "matrix.csv": matrix_csv(matrix), "matrix.json": matrix_json(matrix, problems)}


def case_pages(matrix, problems):
    files = {"atlas.html": atlas_index(matrix)}
    for name in matrix.case_names:
        files["steps/%s.js" % name] = steps_script(matrix, name)
        # a case the results name but this checkout lacks gets a page of what was recorded
        files["case/%s.html" % name] = case_page(matrix, matrix.cases.get(name, name))
    return files


def status_pages(matrix, problems):
    return {"status.html": status_index(matrix, load_status_table())}


def change_pages(matrix, problems):
    return {"changes.html": changes_html(matrix)}


def version_pages(matrix, problems):
    """versions.html, compare/*.html, sticky.html and sticky.json (reports/atlas_versions.py)."""
    return atlas_versions.pages(matrix.columns)


PAGE_BUILDERS = [matrix_pages, case_pages, status_pages, change_pages, version_pages]


def build(matrix, problems, out, builders=None):
    """Write the site into `out`; returns the path of its index.html."""
    files = {}
    for builder in builders or PAGE_BUILDERS:
        files.update(builder(matrix, problems))
    copy_assets(out)
    for name, text in files.items():
        path = os.path.join(out, *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return os.path.join(out, "index.html")


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
    b.add_argument("results", nargs="*")
    d = commands.add_parser("diff", help="what changed between two environments")
    d.add_argument("left")
    d.add_argument("right")
    d.add_argument("results", nargs="*")
    commands.add_parser("lessons", help="lessons whose prose says less than, or other than, the recorded results")
    commands.add_parser("explain", help="which case reproduces an error message (explain --help)")
    args = parser.parse_args(argv)

    # `build OURS COMMITTED...`: the first path is this machine's run
    paths = getattr(args, "results", [])
    here = paths[:1] if args.command == "build" and len(paths) > 1 else ()
    matrix, problems = load(paths, here)
    if not matrix.columns and not matrix.pytorch:
        print("atlas: no results could be read%s" % (" (%d problems above)" % len(problems) if problems else ""),
              file=sys.stderr)
        return 1
    if args.command == "build":
        try:
            index = build(matrix, problems, args.out)
        except OSError as error:
            print("atlas: cannot write the report into %s: %s" % (args.out, error.strerror or error), file=sys.stderr)
            return 1
        real = [p for p in problems if getattr(p, "scope", "file") != "superseded"]
        print("report: %s (%d cases × %d environments, %d PyTorch columns%s)" % (
            index, len(matrix.case_names), len(matrix.columns), len(matrix.pytorch),
            ", %d problems in the results files (named above)" % len(real) if real else ""))
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
