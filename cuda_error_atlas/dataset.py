"""The one compiled dataset: every piece of evidence in one SQLite file.

    cuda-atlas data build [--out PATH]     compile data/, expected/ and cases/ into PATH
    cuda-atlas data check [--dataset PATH] is it current? (exit 1 when an input is newer)
    cuda-atlas data where                  which dataset explain, status and sticky would read

Everything downstream — explain, status, sticky, the report and the site —
reads the dataset, never the raw files. In a checkout the dataset lives in
build/dataset/atlas.sqlite and is rebuilt (saying so on stderr) when any input
is newer than it; an installed package carries its own copy, compiled when the
wheel was built. A report of other results files (this machine's fresh run
beside the committed columns) compiles a dataset of its own, with the same
code and the same tables, from the results files it names (build(results=...)).
docs/dataset.md documents every table.
"""
import argparse
import contextlib
import gzip
import hashlib
import json
import os
import pickle
import sqlite3
import sys
import time

from . import rules as rules_reader
from .lessons import load_cases
from .results import ROOT, Problem, accepted_form, as_columns, companion_paths, default_results_paths, expand, \
    plain_name, read_accepted, read_bytes, read_results_file
from .statuses import read_status_table
from .version_numbers import version_key

# 2: results_files says each file's role, its place in the order read, and this machine's run; 3: it keeps what the
# results reader accepted of each file (gzip, invalid), not the file as it was
SCHEMA_VERSION = 4
PACKAGED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "atlas.sqlite")
# Evidence tables compiled from plain TSV files: (table, path under the tree). A missing file gives an empty table.
TSV_TABLES = [
    ("real_world", "data/real_world/reports.tsv"),
    ("documented_causes", "data/real_world/documented_causes.tsv"),
    ("causes", "data/causes.tsv"),
    ("framework_messages", "data/frameworks/messages.tsv"),
    ("status_history", "data/status_history/statuses.tsv"),
    ("mistake_history", "data/status_history/mistakes.tsv"),
    ("cublas_parameters", "data/cublas_parameters/parameters.tsv"),
]
# What a dataset is compiled from: when any of these is newer than the dataset (or one appears or goes), it is stale.
INPUT_FOLDERS = ("cases", "expected", "data")
CODE = ("dataset.py", "explainer.py", "statuses.py", "results.py", "lessons.py", "rules.py", "version_numbers.py")


def in_checkout(root=ROOT):
    return all(os.path.isdir(os.path.join(root, d)) for d in INPUT_FOLDERS)


def default_path(root=ROOT):
    """build/dataset/atlas.sqlite in a checkout; the package's own copy elsewhere."""
    if os.environ.get("CUDA_ATLAS_DATASET"):
        return os.environ["CUDA_ATLAS_DATASET"]
    if in_checkout(root):
        return os.path.join(root, "build", "dataset", "atlas.sqlite")
    return PACKAGED


def input_files(root=ROOT):
    found = []
    for folder in INPUT_FOLDERS:
        for base, dirs, files in os.walk(os.path.join(root, folder)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found += [os.path.join(base, f) for f in sorted(files) if not f.startswith(".")]
    here = os.path.dirname(os.path.abspath(__file__))
    return found + [os.path.join(here, name) for name in CODE]


def input_stamp(root=ROOT, selection=None):
    """A digest of every input's path, size and modification time (cheap: no file is read); with a selection of
    results files (see selection()), of those files too, and of the selection itself."""
    digest = hashlib.sha256()
    paths = input_files(root)
    if selection is not None:
        digest.update(json.dumps(selection, sort_keys=True).encode())
        paths += [disk for _, disk, _, _ in results_files(root, selection)]
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        digest.update(("%s %d %d\n" % (os.path.relpath(path, root), st.st_size, st.st_mtime_ns)).encode())
    return digest.hexdigest()


def selection(results=None, here=()):
    """What a dataset's columns are compiled from, as its meta table keeps it: None for the committed results
    (data/results/); else {"results": the results files and folders named, in order, "here": those of this machine's
    run}, as absolute paths."""
    if results is None:
        return None
    return {"results": [os.path.abspath(p) for p in results], "here": [os.path.abspath(p) for p in here]}


def stored_path(path, root=ROOT):
    """A results file as a dataset names it: relative to the tree when it lies in it (every committed file), else
    absolute (a fresh run's file elsewhere)."""
    path = os.path.abspath(path)
    relative = os.path.relpath(path, os.path.abspath(root))
    return path if relative == os.pardir or relative.startswith(os.pardir + os.sep) else relative


def results_files(root=ROOT, selection=None):
    """[(stored path, path on disk, role, here)]: the results files a dataset of this selection compiles, in the
    order they are read (where two complete files are one column, the first wins). role: "column" (the matrix's),
    or "versions" (a companion column only the versions pages read: COMPANION_FOLDERS, compiled whenever the
    committed results are among the columns); here: a file of this machine's run."""
    if selection is None:
        columns, here = default_results_paths(root), set()
    else:
        columns = list(expand(selection["results"]))
        here = {os.path.abspath(p) for p in expand(selection["here"])}
    committed = os.path.join(os.path.abspath(root), "data", "results") + os.sep
    companions = companion_paths(root) if any(os.path.abspath(p).startswith(committed) for p in columns) else []
    found, seen = [], set()
    for paths, role in ((columns, "column"), (companions, "versions")):
        for path in paths:
            stored = stored_path(path, root)
            if stored not in seen:
                seen.add(stored)
                found.append((stored, path, role, os.path.abspath(path) in here))
    return found


def read_tsv(path):
    """(header, [(line number, {column: value})]) of a data table: tab-separated, a header line, '#' lines comments,
    a short row padded. The one reader of the TSV tables under data/ (causes, the catalogue, the status history,
    cuBLAS's parameters, the real-world set's tables) for the dataset and explain alike; ([], []) where there is none."""
    if not os.path.exists(path):
        return [], []
    header, rows = None, []
    with open(path, encoding="utf-8", newline="") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if header is None:
                header = parts
            else:
                rows.append((number, dict(zip(header, (parts + [""] * len(header))[:len(header)]))))
    return header or [], rows


def _create(db, table, columns, rows):
    names = ", ".join('"%s" TEXT' % c for c in columns)
    db.execute('CREATE TABLE "%s" (%s)' % (table, names))
    db.executemany('INSERT INTO "%s" VALUES (%s)' % (table, ", ".join("?" * len(columns))), rows)


def build(root=ROOT, out=None, quiet=False, results=None, here=()):
    """Compile the dataset into out (default: default_path). results: the results files or folders whose columns it
    holds, in order (default: the committed ones, data/results/); here: those of this machine's run. Returns (path,
    [problem lines])."""
    from .explainer import Corpus                        # explain's own index is compiled here too
    out = out or default_path(root)
    os.makedirs(os.path.dirname(os.path.abspath(out)) or ".", exist_ok=True)
    started = time.time()
    chosen = selection(results, here)
    files = results_files(root, chosen)
    stamp = input_stamp(root, chosen)
    partial = "%s.%d.tmp" % (out, os.getpid())
    with contextlib.suppress(FileNotFoundError):
        os.remove(partial)
    db = sqlite3.connect(partial)
    problems = []
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE results_files (path TEXT PRIMARY KEY, kind TEXT, id TEXT, label TEXT, partial INTEGER,
                                    collected TEXT, environment TEXT, gzip BLOB, invalid TEXT, role TEXT,
                                    position INTEGER, here INTEGER);
        CREATE TABLE runs (path TEXT, column_id TEXT, family TEXT, case_name TEXT, variant TEXT, verdict TEXT,
                           first_error TEXT, first_error_step TEXT, end_kind TEXT, end_outcome TEXT, sticky TEXT);
        CREATE TABLE steps (path TEXT, column_id TEXT, case_name TEXT, variant TEXT, step TEXT, status TEXT,
                            call TEXT, success INTEGER);
        CREATE TABLE problems (path TEXT, scope TEXT, reason TEXT);
        CREATE TABLE rules (file TEXT, line INTEGER, case_name TEXT, variant TEXT, step TEXT, expected TEXT,
                            conditions TEXT, cite TEXT);
        CREATE TABLE cases (name TEXT PRIMARY KEY, family TEXT, path TEXT, title TEXT, cause TEXT, mirror TEXT,
                            sections TEXT, markers TEXT);
        CREATE TABLE statuses (api TEXT, code INTEGER, name TEXT, text TEXT, source TEXT);
        CREATE TABLE meanings (name TEXT PRIMARY KEY, meaning TEXT);
        CREATE TABLE sticky (status TEXT PRIMARY KEY, entry TEXT);
        CREATE TABLE blobs (name TEXT PRIMARY KEY, data BLOB);
        CREATE TABLE sources (path TEXT PRIMARY KEY, text TEXT);
    """)
    # results: every file read and validated once, by the one reader, and named as the dataset names it
    # (stored_path); what the reader accepted of each is kept (accepted_form), and what it could not use as a problem
    accepted, loaded, found = {}, {"column": [], "versions": []}, {"column": [], "versions": []}
    for stored, path, role, mine in files:
        read, said = read_results_file(stored, lambda _, path=path: read_bytes(path))
        found[role] += said
        if read is not None:
            read.here = mine
            accepted[stored] = accepted_form(read)          # before the columns are made: a partial run changes them
            loaded[role].append(read)
    results, made = as_columns(loaded["column"])
    companions, companions_made = as_columns(loaded["versions"])
    for problem in found["column"] + made + found["versions"] + companions_made:
        if getattr(problem, "scope", "file") != "superseded":     # a newer file of the same column: nothing lost
            problems.append("%s: %s" % (problem.path, problem.reason))
        db.execute("INSERT INTO problems VALUES (?,?,?)", (problem.path, getattr(problem, "scope", "file"), problem.reason))
    by_path = {r.path: r for r in results + companions}
    shown = {r.path for r in results}
    for position, (rel, path, role, mine) in enumerate(files):   # the columns, and the files they superseded
        column = by_path.get(rel)
        env = column.environment if column else {}
        text, invalid = accepted.get(rel, (None, None))
        db.execute("INSERT INTO results_files VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                   (rel, column.kind if column else None, column.id if column else plain_name(os.path.basename(path)),
                    column.label if column else None, int(bool(column and column.partial)),
                    column.collected if column else None, json.dumps(env, sort_keys=True),
                    gzip.compress(text.encode("utf-8"), 9, mtime=0) if text is not None else None,
                    json.dumps(invalid) if invalid is not None else None, role, position, int(mine)))
        for run in (column.runs if column and rel in shown else []):
            first = run.get("first_error") or {}
            end = run.get("end") or {}
            db.execute("INSERT INTO runs VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                       (rel, column.id, run.get("family"), run.get("case"), run.get("variant"), run.get("verdict"),
                        first.get("name"), first.get("step"), end.get("kind"), end.get("outcome"),
                        json.dumps(run.get("sticky")) if run.get("sticky") is not None else None))
            db.executemany("INSERT INTO steps VALUES (?,?,?,?,?,?,?,?)",
                           [(rel, column.id, run.get("case"), run.get("variant"), step.get("step"), step.get("name"),
                             step.get("call"), int(bool(step.get("success")))) for step in run.get("steps") or []])
    # rules, through the one Python reader
    parsed, errors = rules_reader.read_dir(os.path.join(root, "expected"), root)
    problems += [str(e) for e in errors]
    db.executemany("INSERT INTO rules VALUES (?,?,?,?,?,?,?,?)",
                   [(r.file, r.line, r.case, r.variant, r.step, r.expected,
                     json.dumps([c.as_dict() for c in r.conditions]), r.cite) for r in parsed])
    # lessons, through the one reader of case headers
    cases = load_cases(root)
    for case in cases.values():
        db.execute("INSERT INTO cases VALUES (?,?,?,?,?,?,?,?)",
                   (case.name, case.family, case.source_path, case.human_title, case.cause, case.mirror_path,
                    json.dumps(case.sections), json.dumps(case.markers)))
        # the lesson's whole text (and its PyTorch mirror's), for the site's case pages
        db.execute("INSERT OR REPLACE INTO sources VALUES (?,?)", (case.source_path, case.source))
        if case.mirror_path:
            db.execute("INSERT OR REPLACE INTO sources VALUES (?,?)", (case.mirror_path, case.mirror_source))
    # status tables: names, numbers and texts of every library, and their meanings
    status_dir = os.path.join(root, "data", "status_names")
    for name in sorted(os.listdir(status_dir)) if os.path.isdir(status_dir) else []:
        path = os.path.join(status_dir, name)
        if not name.endswith(".tsv"):
            continue
        if name.startswith("meanings_"):
            db.executemany("INSERT OR REPLACE INTO meanings VALUES (?,?)", read_status_table(path, 2))
            continue
        db.executemany("INSERT INTO statuses VALUES (?,?,?,?,?)",
                       [(api, int(code), status, text, name) for api, code, status, text in read_status_table(path, 4)
                        if code.lstrip("-").isdigit() and status])
    for table, relative in TSV_TABLES:
        path = os.path.join(root, relative)
        header, rows = read_tsv(path)
        _create(db, table, header or ["empty"], [[row[column] for column in header] for _, row in rows])
    sticky_path = os.path.join(root, "data", "sticky.json")
    if os.path.exists(sticky_path):
        with open(sticky_path, encoding="utf-8") as f:
            sticky = json.load(f)
        for entry in sticky.get("statuses") or []:
            db.execute("INSERT OR REPLACE INTO sticky VALUES (?,?)", (entry.get("status"), json.dumps(entry, sort_keys=True)))
        db.execute("INSERT INTO meta VALUES (?,?)", ("sticky_pytorch_rule", json.dumps(sticky.get("pytorch_rule"))))
    # explain's index: the corpus it ranks against, built from the same evidence, stored whole
    corpus = Corpus(root, None if chosen is None else [path for _, path, role, _ in files if role == "column"])
    corpus.compact()
    db.execute("INSERT INTO blobs VALUES (?,?)", ("explain_corpus", pickle.dumps(corpus, protocol=pickle.HIGHEST_PROTOCOL)))
    for key, value in (("schema", SCHEMA_VERSION), ("stamp", stamp), ("built", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
                       ("columns", len(results)), ("cases", len(cases)), ("rules", len(parsed)),
                       ("problems", len(problems)), ("results", json.dumps(chosen))):
        db.execute("INSERT OR REPLACE INTO meta VALUES (?,?)", (key, str(value)))
    db.execute("CREATE INDEX runs_by_case ON runs (case_name, variant)")
    db.execute("CREATE INDEX runs_by_status ON runs (first_error)")
    db.execute("CREATE INDEX steps_by_status ON steps (status)")
    db.execute("CREATE INDEX steps_by_case ON steps (case_name, variant)")
    db.execute("CREATE INDEX statuses_by_name ON statuses (name)")
    db.commit()
    db.execute("VACUUM")
    db.close()
    os.replace(partial, out)
    if not quiet:
        print("dataset: %s (%d columns, %d cases, %d rules, %d problems; %.1f s)" % (
            os.path.relpath(out) if out.startswith(os.getcwd()) else out, len(results), len(cases), len(parsed),
            len(problems), time.time() - started), file=sys.stderr)
    return out, problems


class Dataset:
    """An open dataset: SQL over its tables, and explain's corpus."""

    def __init__(self, path):
        self.path = path
        self.db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        self.db.row_factory = sqlite3.Row
        self._corpus = None

    def meta(self, key):
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def corpus(self):
        if self._corpus is None:
            blob = self.db.execute("SELECT data FROM blobs WHERE name = 'explain_corpus'").fetchone()
            self._corpus = pickle.loads(blob[0])
        return self._corpus

    def results(self, role="column"):
        """(list of Results, list of Problem) of the columns the dataset was compiled from, as load_results gave
        them when it was compiled (in the order read, this machine's run marked), made again from what the reader
        accepted of each file (nothing is read or validated again); the problems are those it named then. role
        "versions": the companion columns only the versions pages read."""
        loaded = [read_accepted(path, gzip.decompress(blob).decode("utf-8"), json.loads(invalid), bool(here))
                  for path, blob, invalid, here in self.db.execute(
                      "SELECT path, gzip, invalid, here FROM results_files WHERE role = ? AND gzip IS NOT NULL "
                      "ORDER BY position", (role,))]
        columns, _ = as_columns(loaded)                  # what making them columns says is among the problems kept
        problems = [Problem(*row) for row in self.db.execute(
            "SELECT p.path, p.reason, p.scope FROM problems p JOIN results_files f ON f.path = p.path "
            "WHERE f.role = ? ORDER BY p.rowid", (role,))]
        return columns, problems

    def status_table(self):
        """[(api, code, name, text)] of the newest table of the runtime's and cuBLAS's statuses
        (data/status_names/error_strings_*.tsv), in its order."""
        sources = [row[0] for row in self.db.execute("SELECT DISTINCT source FROM statuses")
                   if row[0].startswith("error_strings_")]
        if not sources:
            return []
        return [tuple(row) for row in self.db.execute(
            "SELECT api, code, name, text FROM statuses WHERE source = ? ORDER BY rowid", (max(sources, key=version_key),))]

    def cases(self):
        """{name: lessons.Case} of every lesson, made from the texts the dataset stored (no file is read)."""
        from .lessons import Case
        texts = {row[0]: row[1] for row in self.db.execute("SELECT path, text FROM sources")}
        found = {}
        for row in self.db.execute("SELECT name, path, mirror FROM cases ORDER BY path"):
            if row["path"] in texts:
                mirror = (row["mirror"], texts.get(row["mirror"])) if row["mirror"] in texts else None
                found[row["name"]] = Case(row["path"], source=texts[row["path"]], mirror=mirror)
        return found

    def query(self, sql, params=()):
        return self.db.execute(sql, params).fetchall()


def stale(path, root=ROOT, results=None, here=(), as_compiled=False):
    """Why the dataset at path cannot be used as it is, or None: it is missing or of another schema, it holds the
    columns of other results files than `results` and `here` (None: the committed ones; as_compiled: whichever it
    was compiled from), or one of its inputs changed since it was built (a file under cases/, expected/ or data/, a
    module that compiles it, a results file it was compiled from)."""
    if not os.path.exists(path):
        return "no dataset at %s" % path
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        db.close()
    except sqlite3.Error as error:
        return "%s is not a dataset (%s)" % (path, error)
    if meta.get("schema") != str(SCHEMA_VERSION):
        return "%s has schema %s, not %d" % (path, meta.get("schema"), SCHEMA_VERSION)
    compiled = json.loads(meta.get("results") or "null")
    if not as_compiled and compiled != selection(results, here):
        return "%s holds the columns of other results files" % path
    if in_checkout(root) and path != PACKAGED and meta.get("stamp") != input_stamp(root, compiled):
        return "an input under cases/, expected/ or data/%s changed since %s was built" % (
            "" if compiled is None else ", or a results file it holds,", path)
    return None


def compiled_from(path):
    """(results, here) that the dataset at path was compiled from; (None, ()) for the committed results (or when
    there is no dataset to ask)."""
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        row = db.execute("SELECT value FROM meta WHERE key = 'results'").fetchone()
        db.close()
    except sqlite3.Error:
        return None, ()
    chosen = json.loads(row[0]) if row and row[0] else None
    return (chosen["results"], chosen["here"]) if chosen else (None, ())


def open_dataset(path=None, root=ROOT, rebuild=True, results=None, here=(), as_compiled=False):
    """The current dataset: rebuilt first (and said so on stderr) when it is missing or stale and the inputs are
    here; an error when it cannot be made current. results, here: the results files whose columns it must hold
    (None: the committed ones; see build); as_compiled: whichever it holds (rebuilt from those when stale)."""
    path = path or default_path(root)
    why = stale(path, root, results, here, as_compiled)
    if why:
        if not (rebuild and in_checkout(root)):
            raise RuntimeError("dataset: %s (run: cuda-atlas data build)" % why)
        print("dataset: %s; rebuilding" % why, file=sys.stderr)
        if as_compiled:
            results, here = compiled_from(path)
        build(root, path, results=results, here=here)
    return Dataset(path)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="cuda-atlas data", description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("build", "check", "where"))
    parser.add_argument("--out", "--dataset", dest="path", help="the dataset file (default: %s)" % default_path())
    parser.add_argument("--root", default=ROOT, help="the tree to compile (default: this checkout)")
    args = parser.parse_args(argv)
    path = args.path or default_path(args.root)
    if args.action == "where":
        print(path)
        return 0
    if args.action == "check":
        why = stale(path, args.root, as_compiled=True)
        print("dataset: %s" % (why or "%s is current" % path))
        return 1 if why else 0
    if not in_checkout(args.root):
        print("cuda-atlas data build: %s is not a checkout (it needs cases/, expected/ and data/)" % args.root,
              file=sys.stderr)
        return 2
    _, problems = build(args.root, path)
    for line in problems:
        print("dataset: %s" % line, file=sys.stderr)
    return 0
