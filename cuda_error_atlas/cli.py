"""cuda-atlas: one command for everything built from the results.

Each subcommand is a module's main(argv); `cuda-atlas SUBCOMMAND --help`
says what it takes."""
import importlib
import sys

# name -> (module, what it does). Kept in the order a newcomer meets them.
COMMANDS = {
    "explain": ("explainer", "which mistake reproduces an error message you paste"),
    "status": ("api", "what a status means, which mistakes produce it, whether it is sticky"),
    "sticky": ("api", "whether a status leaves the context, other devices and new handles usable"),
    "report": ("report", "the compatibility matrix, the atlas and what changed (build, diff, lessons)"),
    "site": ("site", "the static site: a page per status and per case, the matrix, a search box"),
    "data": ("dataset", "compile the evidence into one SQLite dataset (data build), or check it (data check)"),
    "lint": ("lint", "rules against the evidence: every cited run exists and the rule matches a run in it"),
    "versions": ("versions", "versions.html, compare/*.html and the stickiness table"),
    "draft-rules": ("draft_rules", "draft expectation lines from a results file's mismatches"),
    "replay": ("replay", "re-judge a results file's records with the current rules"),
    "fleet": ("fleet", "merge the results a Slurm job array wrote (fleet merge)"),
    "benchmark-explain": ("benchmark_explain", "explain's figures on the real-world set"),
    "benchmark-report": ("benchmark_report", "how long the report takes on many columns"),
    "benchmark-dataset": ("benchmark_dataset", "explain's time as the number of columns grows"),
    "refresh-explain-section": ("refresh_explain_section", "re-run the commands docs/explain_section.md shows"),
    "status-tables": ("status_tables", "regenerate data/status_names/ from a CUDA toolkit's headers"),
}


def usage():
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: cuda-atlas COMMAND [ARGS]   (cuda-atlas COMMAND --help)", "", "commands:"]
    lines += ["  %-*s  %s" % (width, name, what) for name, (_, what) in COMMANDS.items()]
    lines += ["", "examples:",
              '  cuda-atlas explain "CUDA error: an illegal memory access was encountered"',
              "  cuda-atlas status cudaErrorIllegalAddress",
              "  cuda-atlas sticky 700"]
    return "\n".join(lines)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print("cuda-atlas: unknown command %r\n\n%s" % (name, usage()), file=sys.stderr)
        return 2
    module = importlib.import_module("." + COMMANDS[name][0], __package__)
    if name in ("status", "sticky"):
        return module.main([name] + rest)
    return module.main(rest) or 0
