"""How CTest is wired to the runner, read from the configured build itself:

- a filtered run (ctest -R ONE, ctest -L FAMILY) still runs atlas/begin and
  atlas/collect, so it is collected as a partial run (issue 12, item 1);
- collect is given the registered variants, and they are exactly the case tests;
- every case test's CTest TIMEOUT leaves the runner its whole --budget, so a
  hang is the runner's timeout, never CTest's kill (item 3);
- every case source is a configure dependency, so an edited marker or include
  takes effect on the next build (item 4).

    python3 harness/tests/test_ctest_wiring.py --build build/test --source .
"""
import argparse
import json
import os
import subprocess
import sys


def show(build, *select):
    out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1", *select],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["tests"]


def prop(test, name, default=None):
    return next((p["value"] for p in test.get("properties", []) if p["name"] == name), default)


def arg(command, name):
    return command[command.index(name) + 1] if name in command else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="a configured build folder")
    parser.add_argument("--source", required=True, help="the source folder")
    args = parser.parse_args()
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    tests = show(args.build)
    cases = [t for t in tests if "case" in (prop(t, "LABELS") or [])]
    check(len(cases) > 0, "the build registers case tests (%d)" % len(cases))

    for select in (["-R", "lda_smaller_than_rows/broken"], ["-L", "blas_args"]):
        names = [t["name"] for t in show(args.build, *select)]
        check(any(n == "atlas/begin" for n in names) and any(n.startswith("atlas/collect:") for n in names),
              "ctest %s also runs atlas/begin and atlas/collect (a partial run is collected)" % " ".join(select))

    collect = next(t for t in tests if t["name"].startswith("atlas/collect:"))
    registered = arg(collect["command"], "--registered")
    check(registered is not None and os.path.exists(registered), "collect is given the registered variants")
    if registered and os.path.exists(registered):
        with open(registered) as f:
            listed = [line.strip() for line in f if line.strip()]
        check(sorted(listed) == sorted(t["name"] for t in cases),
              "the registered variants are exactly the case tests (%d)" % len(listed))

    short = []
    for t in cases:
        budget = arg(t["command"], "--budget")
        timeout = arg(t["command"], "--timeout")
        if budget is None or float(prop(t, "TIMEOUT", 0)) < float(budget) + 20 or float(budget) < 2 * float(timeout):
            short.append("%s (timeout %s, budget %s, CTest TIMEOUT %s)" % (t["name"], timeout, budget, prop(t, "TIMEOUT")))
    check(not short, "every case's CTest TIMEOUT exceeds the runner's budget by 20 s or more%s"
          % ("" if not short else ": " + ", ".join(short[:5])))

    ninja = os.path.join(args.build, "build.ninja")
    if os.path.exists(ninja):
        with open(ninja) as f:
            rerun = next((line for line in f if line.startswith("build build.ninja: RERUN_CMAKE")), "")
        sources = sorted({os.path.join(args.source, t["command"][t["command"].index("--source") + 1]) for t in cases})
        missing = [s for s in sources if os.path.realpath(s) not in {os.path.realpath(p) for p in rerun.split()}]
        check(not missing, "every case source re-runs the configure step when edited%s"
              % ("" if not missing else ": not " + ", ".join(missing[:5])))
    else:
        print("skip  configure dependencies: not a Ninja build")

    print("%d checks failed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
