"""The report and the atlas, on the committed results of real runs (explain: test_explain.py)."""
import glob
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

import atlas  # noqa: E402
from atlas_data import ROOT, default_results_paths, load_cases, load_results  # noqa: E402
from atlas_matrix import Matrix, differences  # noqa: E402


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class ReportFromCommittedResults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="atlas-report-")
        cls.results, cls.problems = load_results(default_results_paths())
        cls.matrix = Matrix(cls.results, load_cases())
        cls.index = atlas.build(cls.matrix, cls.problems, cls.out)
        with open(cls.index, encoding="utf-8") as f:
            cls.html = f.read()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out)

    def test_committed_results_all_load(self):
        self.assertEqual(self.problems, [])
        self.assertGreaterEqual(len([r for r in self.results if r.kind == "c" and r.has_device]), 2)
        self.assertTrue(any(r.kind == "pytorch" for r in self.results))

    def test_every_case_and_environment_appears(self):
        cases = load_cases()
        self.assertGreaterEqual(len(cases), 60)
        for name in cases:
            self.assertIn('href="case/%s.html"' % name, self.html, name)
            self.assertTrue(os.path.exists(os.path.join(self.out, "case", name + ".html")), name)
        for column in self.matrix.columns + self.matrix.pytorch:
            self.assertIn(column.id, self.html)

    def test_every_case_reads_as_a_lesson(self):
        for case in load_cases().values():
            missing = [k for k in ("mistake", "sees", "pytorch", "why", "fix", "references") if k not in case.sections]
            self.assertEqual(missing, [], "%s lacks %s" % (case.source_path, missing))
            self.assertEqual(set(case.variant_lines()), {"fixed", "broken"}, case.source_path)

    def test_atlas_pages_show_both_sides(self):
        with open(os.path.join(self.out, "case", "cublas_create_when_memory_full.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn("CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`", page)  # what PyTorch says
        self.assertIn("ALLOC_FAILED", page)                                                   # what cuBLAS returns
        self.assertIn('<mark class=broken>', page)
        with open(os.path.join(self.out, "case", "null_handle.html"), encoding="utf-8") as f:
            self.assertIn("No PyTorch mirror", f.read())

    def test_status_index(self):
        with open(os.path.join(self.out, "status.html"), encoding="utf-8") as f:
            page = f.read()
        for name in ("cudaErrorIllegalAddress", "CUBLAS_STATUS_ALLOC_FAILED", "cudaErrorInvalidValue", "signal:SIGABRT"):
            self.assertIn("id='%s'" % name, page)
        self.assertIn("an illegal memory access was encountered", page)

    def test_markdown_csv_json(self):
        with open(os.path.join(self.out, "matrix.md"), encoding="utf-8") as f:
            rows = [l for l in f if l.startswith("| ") and not l.startswith("| case")]
        self.assertEqual(len(rows), 2 * len(self.matrix.case_names))
        with open(os.path.join(self.out, "matrix.csv"), encoding="utf-8") as f:
            self.assertTrue(f.readline().startswith("case,family,variant,step,environment,observed,status"))
        with open(os.path.join(self.out, "matrix.json"), encoding="utf-8") as f:
            merged = json.load(f)
        self.assertEqual(len(merged["environments"]), len(self.matrix.columns) + len(self.matrix.pytorch))

    def test_disagreeing_rows_are_marked(self):
        row = next(r for r in self.matrix.rows if (r.case, r.variant, r.step) == ("kernel_writes_bad_address", "broken", "launch"))
        self.assertTrue(row.disagree)  # the launch is clean, except under launch blocking and the sanitizer
        self.assertIn('class="row step disagree" id="kernel_writes_bad_address--broken--launch"', self.html)

    def test_what_changed_between_two_environments(self):
        columns = {c.environment.get("mode"): c for c in self.matrix.columns if "h100" in c.id and c.id.startswith("nvidia")}
        changed = {(row.case, row.variant, row.step): (a.value, b.value)
                   for row, a, b in differences(self.matrix, columns["default"], columns["launch_blocking"])}
        self.assertEqual(changed[("kernel_writes_bad_address", "broken", "launch")], ("cudaSuccess", "IllegalAddress"))
        self.assertNotIn(("lda_smaller_than_rows", "broken", "gemm"), changed)


    def test_what_changed_between_cuda_versions(self):
        h100 = {c.environment.get("cudart"): c for c in self.matrix.columns
                if c.id.startswith("nvidia-h100") and c.environment.get("mode") == "default" and c.id == c.environment.get("id")}
        self.assertTrue({"11.8", "12.4", "13.0"} <= set(h100), sorted(h100))
        changed = {(row.case, row.variant, row.step): (a.value, b.value)
                   for row, a, b in differences(self.matrix, h100["12.4"], h100["13.0"])}
        self.assertEqual(changed[("block_over_1024_threads", "broken", "launch")], ("InvalidConfiguration", "InvalidValue"))
        changed = {(row.case, row.variant, row.step): (a.value, b.value)
                   for row, a, b in differences(self.matrix, h100["11.8"], h100["12.4"])}
        self.assertEqual(changed[("host_pointer_passed_to_gemm", "broken", "gemm")], ("EXECUTION_FAILED", "SUCCESS"))
        self.assertNotIn(("block_over_1024_threads", "broken", "launch"), changed)


class BadInput(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="atlas-bad-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_unreadable_files_are_named_and_the_rest_rendered(self):
        real = default_results_paths()[0]
        paths = [real, self.write("truncated.json", '{"schema": "cuda-error-atlas/results/1", "runs": ['),
                 self.write("other.json", '{"schema": "something-else", "runs": []}'),
                 self.write("no-steps.json", json.dumps({"schema": "cuda-error-atlas/results/1", "environment": {"id": "x"},
                                                         "runs": [{"case": "a", "variant": "broken", "verdict": "match"}]})),
                 os.path.join(self.dir, "missing.json")]
        results, problems = load_results(paths)
        self.assertEqual([r.path for r in results], [real])
        reasons = dict(problems)
        self.assertIn("Expecting", reasons[paths[1]])
        self.assertIn("schema is 'something-else'", reasons[paths[2]])
        self.assertIn("lacks steps, end or verdict", reasons[paths[3]])
        self.assertIn("No such file", reasons[paths[4]])
        out = os.path.join(self.dir, "report")
        index = atlas.build(Matrix(results, load_cases()), problems, out)
        with open(index, encoding="utf-8") as f:
            page = f.read()
        self.assertIn("Results files left out", page)
        for path in paths[1:]:
            self.assertIn(path, page)

    def test_everything_from_results_files_is_escaped(self):
        gpu_column = next(p for p in default_results_paths() if os.path.basename(p).startswith("nvidia-h100"))
        with open(gpu_column, encoding="utf-8") as f:
            data = json.load(f)
        data["environment"]["id"] = "evil<script>alert(1)</script>"
        data["environment"]["gpu"] = "<img src=x onerror=alert(2)>"
        data["runs"][0]["library_messages"] = ["<script>alert(3)</script>"]
        data["runs"][0]["first_error"] = {"step": "<b>", "name": "<i>x</i>", "surfaced": "call"}
        path = self.write("evil.json", json.dumps(data))
        out = os.path.join(self.dir, "report")
        results, problems = load_results([path])
        atlas.build(Matrix(results, load_cases()), problems, out)
        for name in ["index.html", "status.html", "changes.html"] + [os.path.join("case", n) for n in os.listdir(os.path.join(out, "case"))]:
            with open(os.path.join(out, name), encoding="utf-8") as f:
                page = f.read()
            self.assertNotIn("<script>alert", page, name)
            self.assertNotIn("<img src=x", page, name)
            self.assertNotIn("<i>x</i>", page, name)
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn("&lt;img src=x onerror=alert(2)&gt;", page)      # the GPU name, in the header
        self.assertIn("&lt;script&gt;alert(3)&lt;/script&gt;", page)   # a library message, in a cell's details


@unittest.skipUnless(chromium(), "no Chromium here (.ci/run installs Debian's chromium)")
class RenderedInChromium(unittest.TestCase):
    def test_screenshot_and_dom(self):
        out = tempfile.mkdtemp(prefix="atlas-chromium-")
        try:
            results, problems = load_results(default_results_paths())
            matrix = Matrix(results, load_cases())
            index = atlas.build(matrix, problems, out)
            flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--user-data-dir=" + os.path.join(out, "profile")]
            screenshot = os.path.join(out, "matrix.png")
            subprocess.run([chromium()] + flags + ["--window-size=1600,1200", "--screenshot=" + screenshot,
                                                   "file://" + index], capture_output=True, timeout=120)
            self.assertGreater(os.path.getsize(screenshot), 20000)
            with open(screenshot, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            dom = subprocess.run([chromium()] + flags + ["--dump-dom", "file://" + index],
                                 capture_output=True, text=True, timeout=120).stdout
            for name in matrix.case_names:
                self.assertIn(">%s / fixed<" % name, dom)
                self.assertIn(">%s / broken<" % name, dom)
            for column in matrix.columns + matrix.pytorch:
                self.assertIn(column.id, dom)
        finally:
            shutil.rmtree(out)


if __name__ == "__main__":
    unittest.main()
