"""Re-run the explain commands a markdown file shows and put their current output under them.

    python3 data/real_world/refresh_explain_section.py [data/real_world/EXPLAIN_README_SECTION.md] [--check]

A shown command is an indented line `$ cuda-atlas explain ARGS`;
its output is the indented lines after it, up to and including `rc=N`. The
prose around the blocks is kept as it is. --check changes nothing and exits 1
when an output is not what the command prints now (the results moved on).
"""
import os
import re
import shlex
import subprocess
import sys

from .results import ROOT

SECTION = os.path.join(ROOT, "docs", "explain_section.md")
COMMAND = re.compile(r"^(?P<indent>\s+)\$ cuda-atlas explain (?P<args>.*)$")


def run(args, root=ROOT):
    done = subprocess.run([sys.executable, "-m", "cuda_error_atlas", "explain"] + args,
                          capture_output=True, text=True, cwd=root)
    return done.stdout.rstrip("\n").split("\n") + ["rc=%d" % done.returncode]


def refresh(text, root=ROOT):
    """(new text, number of blocks, number changed)."""
    lines, out, blocks, changed = text.split("\n"), [], 0, 0
    i = 0
    while i < len(lines):
        match = COMMAND.match(lines[i])
        out.append(lines[i])
        i += 1
        if not match:
            continue
        indent, old = match.group("indent"), []
        while i < len(lines) and (lines[i].startswith(indent) or not lines[i].strip()) and not COMMAND.match(lines[i]):
            old.append(lines[i])
            i += 1
            if re.match(r"^\s*rc=\d+$", old[-1]):
                break
        new = [(indent + line) if line else "" for line in run(shlex.split(match.group("args")), root)]
        blocks += 1
        changed += new != old
        out.extend(new)
    return "\n".join(out), blocks, changed


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    paths = [a for a in args if a != "--check"] or [SECTION]
    status = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new, blocks, changed = refresh(text)
        if not blocks:
            print("%s: no `$ cuda-atlas explain` block" % path, file=sys.stderr)
            status = 2
        elif check:
            print("%s: %d of %d outputs differ from what explain prints now" % (path, changed, blocks))
            status = max(status, 1 if changed else 0)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print("%s: %d outputs, %d refreshed" % (path, blocks, changed))
    return status


if __name__ == "__main__":
    sys.exit(main())
