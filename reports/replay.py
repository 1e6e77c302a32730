"""Turn a results file back into what its runs recorded, so that the runner
can judge them again against the rules as they are now — without the GPU
they were recorded on:

    python3 reports/replay.py RESULTS.json DIR
    ATLAS_REPLAY=DIR ctest --preset run        # re-judged results: build/run/results/

Only the judgement is redone: steps, statuses, process ends and output are
the recorded ones, and the fingerprint says `replayed_from`. The loop for a
new environment is: run there, draft rules (draft_rules.py), review them,
replay to check them, commit the re-judged results file with the rules.
"""
import json
import os
import sys


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def field(text):
    return str(text if text is not None else "").replace("\t", " ").replace("\n", " ")


def replay(results_path, out):
    with open(results_path, encoding="utf-8") as f:
        results = json.load(f)
    os.makedirs(out, exist_ok=True)
    environment = dict(results["environment"])
    env = environment.pop("env", {})
    lines = ["%s=%s" % (k, v) for k, v in environment.items() if k != "replayed_from"]
    lines += ["env.%s=%s" % (k, v) for k, v in env.items()]
    lines.append("replayed_from=%s" % os.path.relpath(os.path.abspath(results_path)))
    write(os.path.join(out, "fingerprint.txt"), "\n".join(lines) + "\n")
    for run in results["runs"]:
        stem = os.path.join(out, "%s.%s" % (run["case"], run["variant"]))
        record = []
        for step in run.get("steps", []):
            record.append("\t".join(["call", field(step["step"]), field(step["api"]), str(step["code"]),
                                     field(step["name"]), field(step["call"])]))
        for name, quantity in (run.get("quantities") or {}).items():
            record.append("\t".join(["quantity", field(name), str(quantity.get("value")), field(quantity.get("unit"))]))
        record += ["note\t" + field(note) for note in run.get("notes", [])]
        if run.get("skip_reason"):
            record.append("skip\t" + field(run["skip_reason"]))
        # the harness's own line, recorded when the variant returned
        if run.get("end", {}).get("reached_end_of_variant"):
            probe = next((i for i, s in enumerate(run.get("steps", [])) if s["step"] == "probe"), len(record))
            record.insert(probe, "variant_end")
        write(stem + ".record", "\n".join(record) + "\n")
        write(stem + ".end", "%s %s %s\n" % (run["end"]["outcome"], run.get("seconds", 0), run["end"].get("code", 0)))
        write(stem + ".stdout", run.get("stdout_tail") or "")
        write(stem + ".stderr", run.get("stderr_tail") or "")
    return len(results["runs"])


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    print("%d runs of %s ready to judge again: ATLAS_REPLAY=%s ctest --preset run"
          % (replay(sys.argv[1], sys.argv[2]), sys.argv[1], sys.argv[2]))
