"""The Python rules reader agrees with the C one (the authority) on every
committed rule, rejects what it rejects, and evaluates conditions as the
runner does; and every rule that cites runs is borne out by one of them."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from cuda_error_atlas import libraries, lint, rules  # noqa: E402
from cuda_error_atlas.results import ROOT  # noqa: E402


def atlas_run():
    """The built runner: $ATLAS_RUN, else the test or run build's."""
    for path in (os.environ.get("ATLAS_RUN"), os.path.join(ROOT, "build", "test", "atlas-run"),
                 os.path.join(ROOT, "build", "run", "atlas-run")):
        if path and os.access(path, os.X_OK):
            return path
    return None


@unittest.skipUnless(atlas_run(), "no built atlas-run (cmake --build --preset test, or set ATLAS_RUN)")
class SameParse(unittest.TestCase):
    def c_rules(self, folder):
        done = subprocess.run([atlas_run(), "lint", "--json", "--rules", os.path.relpath(folder, ROOT), "--root", "."],
                              capture_output=True, text=True, timeout=60, cwd=ROOT)
        return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")], done

    def test_every_committed_rule_reads_the_same(self):
        from_c, _ = self.c_rules(os.path.join(ROOT, "expected"))
        from_python, errors = rules.read_dir(os.path.join(ROOT, "expected"), ROOT)
        self.assertEqual(errors, [])
        self.assertGreater(len(from_c), 500)
        self.assertEqual([r.as_dict() for r in from_python], from_c)

    def test_what_c_rejects_python_rejects(self):
        bad = ["x broken gemm CUBLAS_STATUS_INVALID_VALUE driver=>580 cite=run:a.json",
               "x broken gemm CUBLAS_STATUS_INVALID_VALUE cudart==12 cite=run:a.json",
               "x broken gemm CUBLAS_STATUS_INVALID_VALUE cc=<9 cite=run:a.json",
               "x broken gemm CUBLAS_STATUS_INVALID_VALUE gpu=%s cite=run:a.json" % ("H" * 200),
               "x broken gemm CUBLAS_STATUS_INVALID_VALUE nosuchfield=1 cite=run:a.json",
               "x broken gemm CUBLAS_STATUS_INVALID_VALUE gpu>=9 cite=run:a.json",
               "x sometimes gemm CUBLAS_STATUS_INVALID_VALUE cite=run:a.json",
               "x broken gemm NOT_A_STATUS cite=run:a.json",
               "x broken end exit:999 cite=run:a.json",
               "x broken gemm CUBLAS_STATUS_INVALID_VALUE",
               "x broken gemm CUBLAS_STATUS_INVALID_VALUE cite=web:x"]
        good = ["x broken gemm CUBLAS_STATUS_INVALID_VALUE|result_wrong cudart=12.0..12.9 gpu~H100 cite=run:a.json",
                "* * probe cudaErrorNoDevice driver=none cite=doc:https://example.org \"a sentence\""]
        folder = tempfile.mkdtemp(prefix="atlas-rules-")
        try:
            for line in bad + good:
                with open(os.path.join(folder, "one.rules"), "w") as f:
                    f.write(line + "\n")
                from_c, done = self.c_rules(folder)
                with self.assertRaises(rules.RuleError) if line in bad else _nothing():
                    rules.parse_line(line, "one.rules", 1)
                self.assertEqual(bool(from_c), line in good, (line, done.stdout, done.stderr))
        finally:
            shutil.rmtree(folder)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Conditions(unittest.TestCase):
    """The vectors of harness/rules.c's atlas_condition_holds, held against the Python evaluator."""

    def holds(self, token, **fingerprint):
        return rules.parse_line("x broken s cudaErrorInvalidValue %s cite=run:a.json" % token, "f", 1).applies(fingerprint)

    def test_the_c_runner_accepts_the_status_prefixes_of_the_library_table(self):
        # rules.c cannot read cuda_error_atlas/libraries.py: its list of status prefixes must be the table's
        with open(os.path.join(ROOT, "harness", "rules.c"), encoding="utf-8") as f:
            source = f.read()
        start = source.index('strncmp(alt, "<unknown:", 9)')
        body = source[start:source.index("return false;", start)]
        prefixes = set(re.findall(r'strncmp\(alt, "([^"]+)", (\d+)\)', body))
        self.assertTrue(all(len(prefix) == int(n) for prefix, n in prefixes), prefixes)
        self.assertEqual({prefix for prefix, _ in prefixes} - {"<unknown:"}, set(libraries.RULE_PREFIXES))

    def test_versions_compare_number_by_number(self):
        self.assertTrue(self.holds("cudart>=12.10", cudart="12.10"))
        self.assertFalse(self.holds("cudart>=12.10", cudart="12.9"))
        self.assertTrue(self.holds("driver>580", driver="580.159.04"))
        self.assertTrue(self.holds("driver=580.159.04", driver="580.159.04"))
        self.assertTrue(self.holds("cudart=11.8..12.9", cudart="12.4"))
        self.assertFalse(self.holds("cudart=11.8..12.9", cudart="13.0"))
        self.assertFalse(self.holds("cudart>=12", cudart="none"))          # not a version: ordered tests fail

    def test_words_and_missing_fields(self):
        self.assertTrue(self.holds("driver=none"))                           # a missing field reads as none
        self.assertTrue(self.holds("gpu~h100", gpu="NVIDIA H100 80GB HBM3"))  # contains, ignoring case
        self.assertTrue(self.holds("mode!=sanitizer", mode="default"))
        self.assertFalse(self.holds("mode=launch_blocking", mode="default"))

    def test_most_specific_rule_wins(self):
        parsed = [rules.parse_line(t, "f", i) for i, t in enumerate([
            "* * probe cudaErrorNoDevice driver=none cite=run:a.json",
            "x broken probe cudaErrorInsufficientDriver driver=none cudart=12.0..12.1 cite=run:a.json"], 1)]
        self.assertEqual(rules.find(parsed, {"driver": "none", "cudart": "12.1"}, "x", "broken", "probe").line, 2)
        self.assertEqual(rules.find(parsed, {"driver": "none", "cudart": "13.0"}, "x", "broken", "probe").line, 1)
        self.assertIsNone(rules.find(parsed, {"driver": "580"}, "x", "broken", "probe"))


class Evidence(unittest.TestCase):
    def test_every_cited_rule_is_borne_out_by_a_run_it_cites(self):
        self.assertEqual(lint.problems(ROOT), [])

    def test_a_rule_no_cited_run_shows_is_found(self):
        folder = tempfile.mkdtemp(prefix="atlas-evidence-")
        try:
            os.makedirs(os.path.join(folder, "expected"))
            os.makedirs(os.path.join(folder, "data", "results"))
            run = {"case": "x", "family": "f", "variant": "broken", "verdict": "match",
                   "end": {"outcome": "exit:0", "kind": "exit"},
                   "steps": [{"step": "gemm", "name": "CUBLAS_STATUS_INVALID_VALUE", "success": False}]}
            with open(os.path.join(folder, "data", "results", "r.json"), "w") as f:
                json.dump({"schema": "cuda-error-atlas/results/1", "environment": {"id": "r", "driver": "580"},
                           "runs": [run]}, f)
            with open(os.path.join(folder, "expected", "f.rules"), "w") as f:
                f.write("x broken gemm CUBLAS_STATUS_INVALID_VALUE cite=run:data/results/r.json\n"
                        "x broken gemm CUBLAS_STATUS_NOT_SUPPORTED cite=run:data/results/r.json\n"
                        "x broken gemm CUBLAS_STATUS_INVALID_VALUE driver=none cite=run:data/results/r.json\n"
                        "x broken gemm CUBLAS_STATUS_INVALID_VALUE cite=run:data/results/missing.json\n")
            found = lint.problems(folder)
            self.assertEqual([p.split(":")[1] for p in found], ["2", "3", "4"], found)
            self.assertIn("cannot be read", found[2])
        finally:
            shutil.rmtree(folder)


if __name__ == "__main__":
    unittest.main()
