"""cuda-error-atlas reports: the compatibility matrix, the teaching atlas,
what changed between environments, and explain.

    python3 reports/atlas.py build [--out DIR] [RESULTS.json ...]
    python3 reports/atlas.py diff X Y [RESULTS.json ...]
    python3 reports/atlas.py explain "RuntimeError: CUDA error: ..." [RESULTS.json ...]

With no results files named, every file in reports/results/ is read; a folder
stands for the .json files in it, and the first file of an environment wins.
X and Y are column names (an environment id, or a results file's name) or any
unambiguous part of one.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from atlas_data import ROOT, default_results_paths, load_cases, load_results, load_status_table  # noqa: E402
from atlas_matrix import (Matrix, changes_html, differences, matrix_csv, matrix_html, matrix_json,  # noqa: E402
                          matrix_markdown)
from atlas_pages import atlas_index, case_page, status_index  # noqa: E402
from explain import explain, format_explanation  # noqa: E402
import atlas_versions  # noqa: E402


def load(paths):
    results, problems = load_results(paths or default_results_paths())
    for path, reason in problems:
        print("left out %s: %s" % (path, reason), file=sys.stderr)
    return Matrix(results, load_cases()), problems


def comparison_pairs(matrix):
    """Each environment against the first default column of its GPU, and the
    default columns of different GPUs against each other."""
    columns = matrix.columns + matrix.pytorch
    defaults = {}
    for column in matrix.columns:
        if column.group[2] == "default":
            defaults.setdefault(column.group[0], column)
    pairs = []
    for column in columns:
        base = defaults.get(column.group[0]) or next(iter(defaults.values()), None)
        if base is not None and base is not column:
            pairs.append((base, column))
    bases = list(defaults.values())
    pairs += [(a, b) for i, a in enumerate(bases) for b in bases[i + 1:]]
    return pairs


def build(matrix, problems, out):
    os.makedirs(os.path.join(out, "case"), exist_ok=True)
    files = {
        "index.html": matrix_html(matrix, problems),
        "matrix.md": matrix_markdown(matrix),
        "matrix.csv": matrix_csv(matrix),
        "matrix.json": matrix_json(matrix, problems),
        "atlas.html": atlas_index(matrix),
        "status.html": status_index(matrix, load_status_table()),
        "changes.html": changes_html(matrix, comparison_pairs(matrix)),
    }
    for name, case in matrix.cases.items():
        files[os.path.join("case", name + ".html")] = case_page(matrix, case)
    for name, text in files.items():
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)
    atlas_versions.write_pages(matrix.columns, out)    # versions.html, compare/, sticky.html, sticky.json
    return os.path.join(out, "index.html")


def find_column(matrix, name):
    columns = matrix.columns + matrix.pytorch
    matches = ([c for c in columns if c.id == name] or [c for c in columns if c.id.startswith(name)]
               or [c for c in columns if name in c.id])
    if len(matches) != 1:
        raise SystemExit("atlas: %r names %s; columns are:\n  %s" % (
            name, "no column" if not matches else "%d columns" % len(matches), "\n  ".join(c.id for c in columns)))
    return matches[0]


def main(argv=None):
    parser = argparse.ArgumentParser(description="cuda-error-atlas reports")
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build", help="write the matrix, the atlas and the status index")
    b.add_argument("--out", default=os.path.join(ROOT, "build", "report"))
    b.add_argument("results", nargs="*")
    d = commands.add_parser("diff", help="what changed between two environments")
    d.add_argument("left")
    d.add_argument("right")
    d.add_argument("results", nargs="*")
    x = commands.add_parser("explain", help="likely causes of an error message, status name or number")
    x.add_argument("text")
    x.add_argument("results", nargs="*")
    x.add_argument("--report", help="where the built report is, to link its pages")
    args = parser.parse_args(argv)

    matrix, problems = load(args.results)
    if args.command == "build":
        index = build(matrix, problems, args.out)
        print("report: %s (%d cases × %d environments, %d PyTorch columns%s)" % (
            index, len(matrix.case_names), len(matrix.columns), len(matrix.pytorch),
            ", %d results files left out" % len(problems) if problems else ""))
    elif args.command == "diff":
        left, right = find_column(matrix, args.left), find_column(matrix, args.right)
        changed = differences(matrix, left, right)
        print("%s → %s: %d rows differ" % (left.id, right.id, len(changed)))
        for row, a, b in changed:
            print("  %-70s %-28s → %s" % (row.label, a.value, b.value))
    else:
        statuses, ranked = explain(args.text, matrix, load_status_table())
        print(format_explanation(args.text, statuses, ranked, matrix, load_status_table(), args.report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
