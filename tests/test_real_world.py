"""The real-world evaluation set (data/real_world/) is well formed.

Checks the two tables' shape and vocabulary, and that every case a row names is
a case of this repository (or one of the cases other helpers are adding, listed
in PENDING_CASES until they are merged).
"""
import glob
import os
import re
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RW = os.path.join(ROOT, "data", "real_world")

REPORT_COLUMNS = ["id", "source", "wrapper", "error_text", "root_cause",
                  "established_by", "cause_key", "cases", "notes"]
DOC_COLUMNS = ["key", "status_or_text_patterns", "cause", "fix", "source", "source_kind"]
WRAPPERS = set("pytorch tensorflow jax cupy numba triton nccl vllm huggingface deepspeed onnxruntime "
               "megatron llama.cpp tensorrt cudnn mxnet caffe c-cuda compute-sanitizer "
               "thrust other".split())
ESTABLISHED = {"maintainer", "accepted-answer", "confirmed-fix"}
THREAD = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+#[0-9]+$")
URL = re.compile(r"^https?://\S+$")
KEY = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*$")
# Cases other helpers are still writing (cases/driver_versions/); a name here that
# now exists under cases/ is simply found there.
PENDING_CASES = set()


def read(name, columns):
    path = os.path.join(RW, name)
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    lines = text.split("\n")
    assert lines[-1] == "", f"{name}: must end with a newline"
    rows = []
    for number, line in enumerate(lines[:-1], 1):
        fields = line.split("\t")
        if number == 1:
            assert fields == columns, f"{name}:1: header {fields}"
            continue
        assert len(fields) == len(columns), f"{name}:{number}: {len(fields)} fields"
        rows.append((number, dict(zip(columns, fields))))
    return rows


def repository_cases():
    return {os.path.splitext(os.path.basename(p))[0]
            for p in glob.glob(os.path.join(ROOT, "cases", "*", "*.c*"))}


class Reports(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = read("reports.tsv", REPORT_COLUMNS)

    def test_fields(self):
        sources = set()
        for number, row in self.rows:
            where = f"reports.tsv:{number}"
            self.assertEqual(row["id"], "rw%03d" % (number - 1), where)
            for column in REPORT_COLUMNS:
                self.assertTrue(row[column].strip(), f"{where}: empty {column}")
            self.assertTrue(THREAD.match(row["source"]) or URL.match(row["source"]), where)
            self.assertNotIn(row["source"], sources, f"{where}: source listed twice")
            sources.add(row["source"])
            self.assertIn(row["wrapper"], WRAPPERS, where)
            self.assertIn(row["established_by"], ESTABLISHED, where)
            self.assertTrue(KEY.match(row["cause_key"]), f"{where}: cause_key {row['cause_key']!r}")

    def test_cases_exist(self):
        known = repository_cases() | PENDING_CASES
        for number, row in self.rows:
            if row["cases"] == "none":
                continue
            for case in row["cases"].split(" "):
                self.assertTrue(case in known, f"reports.tsv:{number}: unknown case {case!r}")

    def test_spread(self):
        self.assertGreaterEqual(len(self.rows), 90)
        self.assertGreaterEqual(len({r["cause_key"] for _, r in self.rows}), 35)
        self.assertGreaterEqual(len({r["wrapper"] for _, r in self.rows}), 12)
        # Rows were chosen without looking at coverage; new cases lower the
        # share of rows without one, so the share is reported, not held.


class DocumentedCauses(unittest.TestCase):
    def test_documented_causes_have_no_case(self):
        # a cause is either reproduced by a case or documented as not reproduced, never both
        documented = {row["key"] for _, row in read("documented_causes.tsv", DOC_COLUMNS)}
        for number, row in read("reports.tsv", REPORT_COLUMNS):
            if row["cause_key"] in documented:
                self.assertEqual(row["cases"], "none", f"reports.tsv:{number}: {row['cause_key']} is documented "
                                 f"as not reproduced, yet the row names {row['cases']}")

    def test_fields(self):
        rows = read("documented_causes.tsv", DOC_COLUMNS)
        self.assertGreaterEqual(len(rows), 15)
        keys = set()
        for number, row in rows:
            where = f"documented_causes.tsv:{number}"
            for column in DOC_COLUMNS:
                self.assertTrue(row[column].strip(), f"{where}: empty {column}")
            self.assertTrue(KEY.match(row["key"]), where)
            self.assertNotIn(row["key"], keys, where)
            keys.add(row["key"])
            self.assertIn(row["source_kind"], {"thread", "doc"}, where)
            pattern = THREAD if row["source_kind"] == "thread" else URL
            self.assertTrue(pattern.match(row["source"]), f"{where}: source {row['source']!r}")
            self.assertTrue(all(p.strip() for p in row["status_or_text_patterns"].split("|")), where)


if __name__ == "__main__":
    unittest.main()
