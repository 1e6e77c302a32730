"""The atlas as an import API for tools and frameworks, and the `status` and
`sticky` commands. Every answer is plain data (dicts, lists, strings) read
from the compiled dataset.

    >>> import cuda_error_atlas as atlas
    >>> atlas.sticky("cudaErrorIllegalAddress")["context_usable"]
    False
    >>> [c["case"] for c in atlas.status(700)["mistakes"]][:2]
    ['cublas_after_sticky_error', 'device_reset_after_illegal_address']
    >>> atlas.explain("CUBLAS_STATUS_EXECUTION_FAILED when calling cublasSgemm")["answers"][0]["cause"]

    cuda-atlas status NAME_OR_NUMBER [--json]
    cuda-atlas sticky NAME_OR_NUMBER [--json]
"""
import argparse
import json

from .dataset import open_dataset

_DATASET = None


def dataset():
    global _DATASET
    if _DATASET is None:
        _DATASET = open_dataset()
    return _DATASET


def _resolve(name_or_number):
    """[(api, number, name, printed text)] for a status name, an old name, or a number (the runtime's first)."""
    db = dataset()
    text = str(name_or_number).strip()
    if text.lstrip("-").isdigit():
        rows = db.query("SELECT api, code, name, text FROM statuses WHERE code = ? AND source NOT LIKE 'legacy%' "
                        "ORDER BY CASE api WHEN 'cuda' THEN 0 WHEN 'cu' THEN 1 ELSE 2 END, source DESC", (int(text),))
    else:
        rows = db.query("SELECT api, code, name, text FROM statuses WHERE name = ? AND source NOT LIKE 'legacy%' "
                        "ORDER BY source DESC", (text,))
        if not rows:                                   # a name older toolkits used: today's name for it
            today = db.query("SELECT DISTINCT today FROM status_history WHERE name = ? AND today NOT IN ('', '-', "
                             "'removed')", (text,)) if _has_table("status_history") else []
            for (name,) in today:
                rows += db.query("SELECT api, code, name, text FROM statuses WHERE name = ? ORDER BY source DESC",
                                 (name,))
    seen, out = set(), []
    for api, code, name, printed in rows:
        if name not in seen:
            seen.add(name)
            out.append((api, code, name, printed))
    return out


def _has_table(name):
    return bool(dataset().query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)))


def _columns(table):
    return [row[1] for row in dataset().query('PRAGMA table_info("%s")' % table)]


def sticky(name_or_number):
    """Whether the context, other devices and a new cuBLAS handle were still usable after this status, on which
    versions, and the cases that show it — from the stickiness table; measured=False ("not measured") where no run
    says."""
    resolved = _resolve(name_or_number)
    name = resolved[0][2] if resolved else str(name_or_number)
    row = dataset().query("SELECT entry FROM sticky WHERE status = ?", (name,))
    if not row:
        return {"status": name, "measured": False, "note": "not measured: no recorded run returned %s as its first "
                                                           "error and then probed the context" % name}
    entry = json.loads(row[0][0])

    def usable(part):
        seen = entry.get(part) or {}
        if not seen:
            return None, {}
        if "unusable" in seen and "usable" in seen:
            return "sometimes", seen
        return ("usable" in seen), seen

    out = {"status": name, "measured": True, "runs": entry.get("runs"), "cases": entry.get("cases", []),
           "pytorch_treats_as_asynchronous_kernel_error": entry.get("pytorch_async")}
    for part, key in (("context", "context_usable"), ("other_devices", "other_devices_usable"),
                      ("new_cublas_handle", "new_cublas_handle_usable")):
        verdict, seen = usable(part)
        out[key] = verdict                              # True, False, "sometimes", or None: not measured
        out[key.replace("_usable", "_versions")] = {state: {"cudart": v.get("cudart", []), "cublas": v.get("cublas", []),
                                                            "runs": v.get("runs"), "statuses": v.get("statuses", [])}
                                                    for state, v in seen.items()}
    if entry.get("disagrees"):
        out["disagrees_with_pytorch"] = entry["disagrees"]
    return out


def status(name_or_number):
    """What a status means, its number and printed text in each library, the mistakes (cases) that produce it with
    the versions where each was seen, its older names, the framework messages that wrap it, and whether it is
    sticky."""
    db = dataset()
    resolved = _resolve(name_or_number)
    if not resolved:
        return {"query": str(name_or_number), "found": False,
                "note": "no status of the runtime, the driver API, cuBLAS, cuSOLVER, cuFFT, cuDNN, NCCL or NVRTC has "
                        "this name or number"}
    api, number, name, printed = resolved[0]
    meaning = db.query("SELECT meaning FROM meanings WHERE name = ?", (name,))
    mistakes = []
    # the mistakes whose broken variant returned it first: where it surfaces afterwards (a probe, a later call) the
    # mistake is another status's
    for case, step in db.query("SELECT DISTINCT case_name, first_error_step FROM runs WHERE first_error = ? "
                               "AND variant = 'broken' ORDER BY case_name", (name,)):
        info = db.query("SELECT family, title, cause FROM cases WHERE name = ?", (case,))
        where = db.query("SELECT DISTINCT f.label, f.environment FROM steps s JOIN results_files f ON f.path = s.path "
                         "WHERE s.case_name = ? AND s.variant = 'broken' AND s.status = ? AND s.step = ?",
                         (case, name, step))
        cudart = sorted({json.loads(env).get("cudart", "none") for _, env in where} - {"none"},
                        key=lambda v: [int(x) for x in v.split(".") if x.isdigit()])
        mistakes.append({"case": case, "family": info[0][0] if info else None, "title": info[0][1] if info else None,
                         "cause": info[0][2] if info else None, "step": step,
                         "environments": sorted({label for label, _ in where if label}), "cudart": cudart})
    history = []
    if _has_table("status_history") and "today" in _columns("status_history"):
        history = [dict(zip(_columns("status_history"), row)) for row in
                   db.query("SELECT * FROM status_history WHERE today = ? OR name = ?", (name, name))]
    wrapped = []
    if _has_table("framework_messages") and "wraps_status" in _columns("framework_messages"):
        wrapped = [dict(zip(_columns("framework_messages"), row)) for row in
                   db.query("SELECT * FROM framework_messages WHERE wraps_status = ?", (name,))]
    return {"query": str(name_or_number), "found": True, "name": name, "api": api, "number": number,
            "text": printed, "meaning": meaning[0][0] if meaning else None,
            "also": [{"api": a, "number": n, "name": m, "text": t} for a, n, m, t in resolved[1:]],
            "mistakes": mistakes, "history": history, "wrapped_by": wrapped, "sticky": sticky(name)}


def explain(text, cudart=None, driver=None, gpu=None, top=3):
    """The ranked answers for an error message, as data: what was recognised, and each answer's cause, confidence,
    the cases that reproduce it and why."""
    from .explainer import as_json, explain as rank
    corpus = dataset().corpus()
    wanted = {k: v for k, v in (("cudart", cudart), ("driver", driver), ("gpu", gpu)) if v}
    return as_json(rank(text, corpus, wanted), corpus)


def _print_status(data):
    if not data["found"]:
        print("%s: %s" % (data["query"], data["note"]))
        return 1
    print("%s (%s, %s) — %s" % (data["name"], data["api"], data["number"], data["text"] or ""))
    if data["meaning"]:
        print("  meaning: %s" % data["meaning"])
    for other in data["also"]:
        print("  also: %s (%s, %s)" % (other["name"], other["api"], other["number"]))
    for row in data["history"]:
        if row.get("name") != data["name"] or str(row.get("number")) != str(data["number"]):
            print("  before: %s = %s in %s %s..%s" % (row.get("name"), row.get("number"), row.get("library"),
                                                      row.get("first_version"), row.get("last_version")))
    print("  mistakes that produce it (%d):" % len(data["mistakes"]))
    for m in data["mistakes"]:
        print("    %s (%s) at step %s — cudart %s" % (m["case"], m["cause"] or m["family"], m["step"],
                                                     ", ".join(m["cudart"]) or "no GPU run"))
    for w in data["wrapped_by"][:8]:
        print("  printed by %s as: %s" % (w.get("framework"), w.get("example")))
    _print_sticky(data["sticky"], indent="  ")
    return 0


def _print_sticky(data, indent=""):
    if not data["measured"]:
        print("%ssticky: %s" % (indent, data["note"]))
        return 0
    words = {True: "usable", False: "NOT usable", "sometimes": "usable in some runs, not in others", None: "not measured"}
    print("%ssticky (%d runs): context %s; other devices %s; a new cuBLAS handle %s" % (
        indent, data["runs"] or 0, words[data["context_usable"]], words[data["other_devices_usable"]],
        words[data["new_cublas_handle_usable"]]))
    for state, seen in data["context_versions"].items():
        print("%s  context %s with cudart %s" % (indent, state, ", ".join(seen["cudart"])))
    print("%s  shown by: %s" % (indent, ", ".join(data["cases"][:8]) + (" …" if len(data["cases"]) > 8 else "")))
    return 0


def main(argv):
    command, rest = argv[0], argv[1:]
    parser = argparse.ArgumentParser(prog="cuda-atlas %s" % command, description=(status if command == "status" else
                                                                                   sticky).__doc__.split("\n\n")[0])
    parser.add_argument("status", help="a status name (cudaErrorIllegalAddress, CUBLAS_STATUS_EXECUTION_FAILED) or "
                                       "number (700)")
    parser.add_argument("--json", action="store_true", help="the answer as JSON")
    args = parser.parse_args(rest)
    data = status(args.status) if command == "status" else sticky(args.status)
    if args.json:
        print(json.dumps(data, indent=1))
        return 0 if data.get("found", True) else 1
    return _print_status(data) if command == "status" else _print_sticky(data)
