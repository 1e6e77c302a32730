"""The report and the atlas, on the committed results of real runs, on bad
input, and rendered in headless Chromium (desktop and phone widths)."""
import copy
import glob
import html
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from cuda_error_atlas import dataset  # noqa: E402
from cuda_error_atlas import report as atlas  # noqa: E402
from cuda_error_atlas.results import ROOT, default_results_paths, load_results, read_bytes  # noqa: E402
from cuda_error_atlas.version_numbers import version_key  # noqa: E402
from cuda_error_atlas.lessons import load_cases  # noqa: E402
from cuda_error_atlas.matrix import STATUS_WORD, Matrix, comparisons, differences, stale_lessons  # noqa: E402
from browser import Browser, chromium  # noqa: E402
import fuzz_results  # noqa: E402

COMMITTED = os.path.join(ROOT, "data", "results")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def page_data(text, element_id="atlas-data"):
    match = re.search(r"<script type=application/json id=%s>(.*?)</script>" % element_id, text, re.S)
    return json.loads(match.group(1))


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids, self.assets = [], set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in ("script", "img", "iframe") and attrs.get("src") or tag == "link" and attrs.get("href"):
            self.assets.append(attrs.get("src") or attrs.get("href"))


def parse(path):
    parser = Links()
    parser.feed(read(path))
    return parser


def check_links(out):
    """([what is wrong], links checked, {page: ids}) for a built site: every
    relative link leads to a file (and an id in it); nothing is loaded from
    elsewhere."""
    pages = glob.glob(os.path.join(out, "*.html")) + glob.glob(os.path.join(out, "case", "*.html"))
    ids = {os.path.abspath(path): parse(path).ids for path in pages}
    problems, checked = [], 0
    for path in pages:
        parsed = parse(path)
        for asset in parsed.assets:
            if re.match(r"^(?:[a-z]+:|//|/)", asset):
                problems.append("%s loads %s" % (path, asset))
        for link in parsed.links:
            if re.match(r"^https?://", link):
                continue                    # a reference, not an asset
            target, _, fragment = link.partition("#")
            full = os.path.abspath(os.path.join(os.path.dirname(path), target)) if target else os.path.abspath(path)
            if re.match(r"^(?:[a-z]+:|//|/)", link) or not os.path.exists(full) or (
                    fragment and full in ids and fragment not in ids[full]):
                problems.append("%s links %s" % (path, link))
            checked += 1
    return problems, checked, ids


class Built:
    """The report of the committed results, built once for the tests."""
    out = None

    @classmethod
    def get(cls):
        if cls.out is None:
            cls.out = tempfile.mkdtemp(prefix="atlas-report-")
            cls.results, cls.problems = load_results(default_results_paths())
            cls.matrix = Matrix(cls.results, load_cases())
            atlas.build(cls.matrix, cls.problems, cls.out)
        return cls


def tearDownModule():
    if Built.out:
        shutil.rmtree(Built.out)


class ReportFromCommittedResults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        built = Built.get()
        cls.out, cls.matrix, cls.results, cls.problems = built.out, built.matrix, built.results, built.problems
        cls.index = read(os.path.join(cls.out, "index.html"))
        cls.data = page_data(cls.index)

    def test_committed_results_all_load(self):
        # nothing unreadable; a file that gives way to a newer one is named, and what it still shows is said
        self.assertEqual([p for p in self.problems if p.scope != "superseded"], [])
        for problem in self.problems:
            self.assertIn("shown only for", problem.reason)
        self.assertGreaterEqual(len([r for r in self.results if r.kind == "c" and r.has_device]), 2)
        self.assertTrue(any(r.kind == "pytorch" for r in self.results))

    def test_one_row_per_case_variant_with_every_case_and_column(self):
        cases = load_cases()
        self.assertGreaterEqual(len(cases), 60)
        rows = {(r[0], r[2]) for r in self.data["rows"]}
        self.assertEqual(len(self.data["rows"]), 2 * len(self.matrix.case_names))
        for name in cases:
            self.assertIn((name, "fixed"), rows)
            self.assertIn((name, "broken"), rows)
            self.assertTrue(os.path.exists(os.path.join(self.out, "case", name + ".html")), name)
            self.assertTrue(os.path.exists(os.path.join(self.out, "steps", name + ".js")), name)
        labels = [c["label"] for c in self.data["columns"]]
        self.assertEqual(len(labels), len(self.matrix.columns) + len(self.matrix.pytorch))
        self.assertEqual(len(set(labels)), len(labels), "two columns read the same: %s" % labels)

    def test_every_label_names_gpu_driver_cudart_cublas_and_mode(self):
        for column in self.matrix.columns:
            label = column.label
            for part in ("cudart ", "cuBLAS ", column.environment.get("mode") or "default"):
                self.assertIn(part, label)
            if column.has_device:
                self.assertIn("driver %s" % column.environment["driver"], label)
                self.assertIn(column.environment["gpu"].replace("NVIDIA ", ""), label)
            # the header shows every part, one level per row
            for part in column.heading:
                self.assertIn("<span>%s</span>" % html.escape(part), self.index)
        markdown = read(os.path.join(self.out, "matrix.md"))
        header = next(l for l in markdown.splitlines() if l.startswith("| case | variant"))
        for column in self.matrix.columns:
            self.assertIn(column.label, header)

    def test_cells_say_first_error_where_and_whether_the_context_survived(self):
        def cell(case, variant, column):
            return self.matrix.cell(column, case, variant)
        h100 = next(c for c in self.matrix.columns if c.id.startswith("nvidia-h100") and c.id.endswith("13.1.0_default"))
        self.assertEqual(cell("lda_smaller_than_rows", "broken", h100).value, "INVALID_VALUE")
        self.assertEqual(cell("lda_smaller_than_rows", "fixed", h100).value, "ok")
        self.assertEqual(cell("kernel_writes_bad_address", "broken", h100).value, "IllegalAddress @sync †")
        self.assertEqual(cell("cublas_destroy_twice", "broken", h100).value, "☠ SIGABRT")
        self.assertEqual(cell("batched_output_stride_zero", "broken", h100).value, "≠ wrong result")
        self.assertEqual(cell("kernel_writes_bad_address", "broken", h100).kind, "sticky")

    def test_lesson_check_holds_for_every_case(self):
        """Every case page names what the program got, from the results files,
        in the environments recorded; a case without results says so."""
        not_on_gpu, missing = [], []
        for name, case in load_cases().items():
            page = read(os.path.join(self.out, "case", name + ".html"))
            section = page.split("<h2>What you get</h2>", 1)[1].split("<h2>", 1)[0]
            recorded = set()
            gpu = False
            for column in self.matrix.columns:
                for variant in ("fixed", "broken"):
                    run = self.matrix.run(column, name, variant)
                    if run:
                        gpu = gpu or column.has_device
                        cell = self.matrix.cell(column, name, variant)
                        recorded.add(cell.status.replace("signal:", "") if cell.status else
                                     {"ok": "no error", "skipped": "skipped", "exit": "exits with"}.get(cell.kind, cell.value))
            if not gpu:
                not_on_gpu.append(name)
                self.assertIn("Not yet run on a GPU", section, name)
            if recorded:
                self.assertTrue(any(r in section for r in recorded), "%s: the page names none of %s" % (name, recorded))
            else:
                missing.append(name)
        if not_on_gpu or missing:
            print("\nnot yet run on a GPU: %s; no results at all: %s" % (not_on_gpu or "none", missing or "none"),
                  file=sys.stderr)

    def test_case_pages_read_like_an_error_index(self):
        page = read(os.path.join(self.out, "case", "cublas_create_when_memory_full.html"))
        self.assertIn("<h1>cublasCreate after this process has taken all free GPU memory</h1>", page)
        for heading in ("The mistake", "What you get", "Why", "The fix", "Related", "References"):
            self.assertIn("<h2>%s</h2>" % heading, page)
        self.assertIn("CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`", page)  # PyTorch, beside
        self.assertIn('href="../status.html#CUBLAS_STATUS_ALLOC_FAILED"', page)
        self.assertIn("<pre class=diff>", page)
        lda = read(os.path.join(self.out, "case", "lda_smaller_than_rows.html"))
        self.assertIn("<span class=del>− static void lda_one_less_than_rows(void) { gemm_with_lda(M - 1); }</span>", lda)
        self.assertIn("<span class=add>+ static void lda_equal_to_rows(void) { gemm_with_lda(M); }</span>", lda)
        self.assertIn('<a href="https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm">', lda)   # references clickable
        self.assertIn("every GPU environment", lda)
        self.assertIn("No PyTorch mirror recorded", read(os.path.join(self.out, "case", "null_handle.html")))

    def test_atlas_index_groups_by_family_and_searches(self):
        page = read(os.path.join(self.out, "atlas.html"))
        for family in set(self.matrix.family.values()):
            self.assertIn("<section class=family id='%s'>" % family, page)
        self.assertIn("id=q", page)
        self.assertIn("href='case/lda_smaller_than_rows.html'>cublasSgemm told that A", page)

    def test_status_index(self):
        page = read(os.path.join(self.out, "status.html"))
        for name in ("cudaErrorIllegalAddress", "CUBLAS_STATUS_ALLOC_FAILED", "cudaErrorInvalidValue", "signal-SIGABRT"):
            self.assertIn("id='%s'" % name, page)
        self.assertIn("an illegal memory access was encountered", page)

    def test_links_resolve_and_nothing_is_loaded_from_elsewhere(self):
        problems, checked, ids = check_links(self.out)
        self.assertEqual(problems, [])
        self.assertGreater(checked, 1000)
        # the matrix's cells link statuses (built by its script from the data)
        status_ids = ids[os.path.abspath(os.path.join(self.out, "status.html"))]
        for kind in self.data["kinds"]:
            if kind[2]:
                self.assertIn(kind[2], status_ids, kind)
        # and so do the steps a row opens
        for path in glob.glob(os.path.join(self.out, "steps", "*.js")):
            text = read(path)
            data = json.loads(text[text.index(", ") + 2:text.rindex(");")])
            for kind in data["kinds"]:
                if kind[2]:
                    self.assertIn(kind[2], status_ids, (path, kind))

    def test_markdown_csv_json(self):
        markdown = read(os.path.join(self.out, "matrix.md"))
        rows = [l for l in markdown.splitlines() if l.startswith("| ") and not l.startswith("| case")]
        self.assertEqual(len(rows), 2 * len(self.matrix.case_names))
        self.assertIn("| kernel_writes_bad_address | broken | ", markdown)
        self.assertIn("IllegalAddress @sync †", markdown)
        self.assertIn("- † the context was lost", markdown)
        with open(os.path.join(self.out, "matrix.csv"), encoding="utf-8") as f:
            self.assertTrue(f.readline().startswith("case,family,variant,step,environment,observed,kind,status"))
        merged = json.loads(read(os.path.join(self.out, "matrix.json")))
        self.assertEqual(len(merged["environments"]), len(self.matrix.columns) + len(self.matrix.pytorch))

    def test_disagreeing_rows_are_marked(self):
        row = next(r for r in self.matrix.rows if (r.case, r.variant) == ("kernel_writes_bad_address", "broken"))
        self.assertTrue(self.matrix.disagrees(row))  # the launch: clean, except under launch blocking and the sanitizer
        data = next(r for r in self.data["rows"] if (r[0], r[2]) == ("kernel_writes_bad_address", "broken"))
        self.assertEqual(data[3], 1)
        row = next(r for r in self.matrix.rows if (r.case, r.variant) == ("lda_smaller_than_rows", "broken"))
        self.assertFalse(self.matrix.disagrees(row))

    def test_what_changed_between_two_modes(self):
        columns = {c.environment.get("mode"): c for c in self.matrix.columns if c.id.startswith("nvidia-h100")
                   and c.environment.get("cudart") == "13.0" and c.id == c.environment.get("id")}
        changed = {(row.case, row.variant, row.step): (a.value, b.value)
                   for row, a, b in differences(self.matrix, columns["default"], columns["launch_blocking"])}
        self.assertEqual(changed[("kernel_writes_bad_address", "broken", "launch")], ("cudaSuccess", "IllegalAddress @query"))
        self.assertNotIn(("lda_smaller_than_rows", "broken", "gemm"), changed)

    def test_what_changed_compares_the_right_pairs(self):
        pairs = {(kind, a.id, b.id) for kind, a, b, _ in comparisons(self.matrix)}
        h100 = "nvidia-h100-80gb-hbm3_driver-580.159.04_cudart-%s_%s"
        # modes against default, same GPU and runtime
        self.assertIn(("mode", h100 % ("13.0", "cublas-13.1.0_default"), h100 % ("13.0", "cublas-13.1.0_sanitizer")), pairs)
        # versions in order, older first, same GPU and mode
        self.assertIn(("version", h100 % ("11.8", "cublas-11.11.3_default"), h100 % ("12.4", "cublas-12.4.5_default")), pairs)
        self.assertIn(("version", h100 % ("12.4", "cublas-12.4.5_default"), h100 % ("13.0", "cublas-13.1.0_default")), pairs)
        # cuBLAS versions of one runtime, older first
        h200 = "nvidia-h200_driver-580.159.04_cudart-13.0_cublas-%s_default"
        self.assertIn(("version", h200 % "13.0.0", h200 % "13.1.0"), pairs)
        # the same runtime across GPUs
        self.assertIn(("gpu", h100 % ("13.0", "cublas-13.1.0_default"),
                       "nvidia-h200_driver-580.159.04_cudart-13.0_cublas-13.1.0_default"), pairs)
        # never a mode of one GPU against a version of another
        for kind, a, b in pairs:
            ea = next(c for c in self.matrix.columns if c.id == a).environment
            eb = next(c for c in self.matrix.columns if c.id == b).environment
            differing = [k for k in ("gpu", "cudart", "mode") if ea.get(k) != eb.get(k)]
            if ea.get("devices", "1") != eb.get("devices", "1"):
                differing.append("devices")          # one H200 against two
            if kind == "version":
                # versions: the runtime, cuBLAS or both differ (a cuBLAS column beside a runtime-only one), nothing else
                self.assertTrue(ea.get("cudart") != eb.get("cudart") or ea.get("cublas") != eb.get("cublas"), (a, b))
                self.assertEqual([k for k in differing if k != "cudart"], [], (kind, a, b))
                continue
            self.assertEqual(len(differing), 1, (kind, a, b))
        page = read(os.path.join(self.out, "changes.html"))
        self.assertIn("older runtime", page)
        self.assertIn("id=pick-a", page)

    def test_what_changed_between_cuda_versions(self):
        h100 = {c.environment.get("cudart"): c for c in self.matrix.columns
                if c.id.startswith("nvidia-h100") and c.environment.get("mode") == "default" and c.id == c.environment.get("id")}
        changed = {(row.case, row.variant, row.step): (a.value, b.value)
                   for row, a, b in differences(self.matrix, h100["12.4"], h100["13.0"])}
        self.assertEqual(changed[("block_over_1024_threads", "broken", "launch")], ("InvalidConfiguration @query", "InvalidValue @query"))
        changed = {(row.case, row.variant, row.step): (a.value, b.value)
                   for row, a, b in differences(self.matrix, h100["11.8"], h100["12.4"])}
        self.assertEqual(changed[("host_pointer_passed_to_gemm", "broken", "gemm")], ("EXECUTION_FAILED", "SUCCESS"))
        self.assertNotIn(("block_over_1024_threads", "broken", "launch"), changed)


class Lessons(unittest.TestCase):
    def test_stale_and_vague_prose_is_found(self):
        built = Built.get()
        cases = dict(load_cases())
        stale = copy.copy(cases["cublas_create_when_memory_full"])          # it has a PyTorch mirror result
        stale.sections = dict(stale.sections, pytorch="What a PyTorch user sees: an out-of-memory error (not recorded yet).",
                              sees="What the program sees: the recorded status at the call.")
        cases[stale.name] = stale
        found = stale_lessons(Matrix(built.results, cases))
        mine = [problem for path, problem in found if path == stale.source_path]
        self.assertEqual(len(mine), 2, mine)
        self.assertIn('stale: the PyTorch paragraph says "not recorded yet"', mine[0])
        self.assertIn("vague", mine[1])
        self.assertNotIn(cases["lda_smaller_than_rows"].source_path, [path for path, _ in found])

    def problems(self, sees):
        built = Built.get()
        cases = dict(load_cases())
        case = copy.copy(cases["cusolver_create_when_memory_full"])
        case.sections = dict(case.sections, sees=sees)
        cases[case.name] = case
        return [problem for path, problem in stale_lessons(Matrix(built.results, cases)) if path == case.source_path]

    def test_a_vague_header_is_found_whatever_its_title(self):
        for sees in ("What the program sees (H200, CUDA 13.0, cuSOLVER 12 (the wheel's)): the recorded status at the call.",
                     "What the program sees: cusolverDnCreate fails with the recorded status.",
                     "What the program sees (H200): cudaMalloc and cufftPlan1d with CUFFT_R2C, then ncclAllReduce."):
            mine = self.problems(sees)
            self.assertEqual(len(mine), 1, (sees, mine))
            self.assertIn("vague", mine[0])
            self.assertNotIn("H200", mine[0])                 # the excerpt starts after the title
        mine = self.problems("What the program sees (H100): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE, as the recorded fault.")
        self.assertEqual(mine, ['vague: "What the program sees" says "the recorded fault" instead of naming it'])

    def test_a_concrete_header_of_any_library_passes(self):
        for sees in ("What the program sees (H200, CUDA 13.0, cuSOLVER 12 (and the wheel's)): cusolverDnCreate returns "
                     "CUSOLVER_STATUS_INTERNAL_ERROR (7).",
                     "What the program sees (H200): cufftPlan1d returns CUFFT_INVALID_SIZE.",
                     "What the program sees: cudnnSetTensor4dDescriptor returns CUDNN_STATUS_BAD_PARAM.",
                     "What the program sees (two H200s): ncclCommInitRank stays ncclInProgress; ncclCommAbort returns ncclSuccess.",
                     "What the program sees: cuModuleLoadData returns CUDA_ERROR_NO_BINARY_FOR_GPU.",
                     "What the program sees: the process dies of SIGSEGV.",
                     "What the program sees: no error, and a wrong result."):
            self.assertEqual(self.problems(sees), [], sees)

    def test_every_recorded_status_name_counts_and_no_function_name_does(self):
        names = set()
        for path in glob.glob(os.path.join(ROOT, "data", "status_names", "*.tsv")):
            with open(path, encoding="utf-8") as f:
                names |= {line.split("\t")[2].strip() for line in f if not line.startswith("#") and line.count("\t") >= 2}
        for lib in ("cudaSuccess", "CUDA_ERROR_INVALID_IMAGE", "CUBLAS_STATUS_SUCCESS", "CUSOLVER_STATUS_SUCCESS",
                    "CUFFT_INVALID_SIZE", "CUDNN_STATUS_BAD_PARAM", "ncclInProgress"):
            self.assertIn(lib, names)
        self.assertEqual([n for n in sorted(names) if not STATUS_WORD.fullmatch(n)], [])
        for word in ("cudaMalloc", "cudaGetLastError", "CUFFT_R2C", "CUFFT_FORWARD", "ncclAllReduce", "ncclCommInitRank",
                     "CUBLAS_OP_N", "CUDNN_DATA_FLOAT", "cusolverDnCreate"):
            self.assertIsNone(STATUS_WORD.search(word), word)


class Fixtures(unittest.TestCase):
    """Results files made for one test from a committed one."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="atlas-fixture-")
        self.h100 = os.path.join(COMMITTED, "nvidia-h100-80gb-hbm3_driver-580.159.04_cudart-13.0_cublas-13.1.0_default.json.gz")
        self.real = json.loads(read_bytes(self.h100).decode("utf-8"))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, data):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(data if isinstance(data, str) else json.dumps(data))
        return path

    def copy(self, **environment):
        data = copy.deepcopy(self.real)
        data["environment"].update(environment)
        return data

    def run_index(self, data, case, variant):
        return next(i for i, r in enumerate(data["runs"]) if (r["case"], r["variant"]) == (case, variant))

    def atlas(self, *args):
        return subprocess.run([sys.executable, "-m", "cuda_error_atlas", "report"] + list(args), capture_output=True,
                              text=True, timeout=120, cwd=ROOT)


class BadInput(Fixtures):
    def test_bad_fields_are_named_and_the_rest_rendered(self):
        data = self.copy()
        i = self.run_index(data, "lda_smaller_than_rows", "broken")
        data["runs"][i]["verdict"] = "maybe"                           # an unknown verdict: the run is unreadable
        j = self.run_index(data, "null_handle", "broken")
        data["runs"][j]["library_messages"] = None                    # null where a list is expected: fine
        data["runs"][j]["seconds"] = "fast"                           # wrong type: the field is ignored
        k = self.run_index(data, "negative_k", "broken")
        data["runs"][k]["steps"][0]["name"] = 7                        # a step without a name: the run is unreadable
        data["runs"].append({"case": "../../etc/passwd", "variant": "broken", "verdict": "match", "end": {}, "steps": []})
        data["environment"]["gpu"] = None
        path = self.write("fields.json", data)
        results, problems = load_results([path])
        self.assertEqual(len(results), 1)
        reasons = [p[1] for p in problems]
        self.assertIn("run %d (lda_smaller_than_rows broken), field verdict: 'maybe' is not one of match, mismatch, skip, "
                      "error, flaky; the run is shown as unreadable" % i, reasons)
        self.assertIn("run %d (null_handle broken), field seconds: 'fast' is not a number; ignored" % j, reasons)
        self.assertTrue(any(r.startswith("run %d (negative_k broken), field steps[0].name: 7" % k) for r in reasons), reasons)
        self.assertTrue(any("field case: '../../etc/passwd' is not a case name" in r for r in reasons), reasons)
        self.assertIn("environment, field gpu: null is not a string; shown as ?", reasons)
        self.assertFalse(any("library_messages" in r for r in reasons))
        self.assertTrue(all(p[0] == path for p in problems))
        matrix = Matrix(results, load_cases())
        column = matrix.columns[0]
        self.assertEqual(matrix.cell(column, "lda_smaller_than_rows", "broken").kind, "unreadable")
        self.assertEqual(matrix.cell(column, "null_handle", "broken").value, "NOT_INITIALIZED")
        self.assertEqual(matrix.cell(column, "lda_smaller_than_rows", "fixed").value, "ok")
        out = os.path.join(self.dir, "report")
        atlas.build(matrix, problems, out)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "etc")))
        index = read(os.path.join(out, "index.html"))
        self.assertIn("Some results could not be used", index)
        self.assertIn("field verdict: &#x27;maybe&#x27; is not one of", index)

    def test_a_case_without_a_source_here_still_has_a_page(self):
        data = self.copy()
        run = copy.deepcopy(data["runs"][self.run_index(data, "lda_smaller_than_rows", "broken")])
        run["case"], run["family"] = "case_from_another_branch", "new_family"
        data["runs"].append(run)
        out = os.path.join(self.dir, "report")
        results, problems = load_results([self.write("x.json", data)])
        atlas.build(Matrix(results, load_cases()), problems, out)
        page = read(os.path.join(out, "case", "case_from_another_branch.html"))
        self.assertIn("this checkout has no <code>cases/new_family/case_from_another_branch.c</code>", page)
        self.assertIn("CUBLAS_STATUS_INVALID_VALUE", page)
        self.assertEqual(check_links(out)[0], [])

    def test_unreadable_files_are_named_and_the_rest_rendered(self):
        real = self.h100
        paths = [real,
                 self.write("truncated.json", '{"schema": "cuda-error-atlas/results/1", "runs": ['),
                 self.write("other.json", '{"schema": "something-else", "runs": []}'),
                 self.write("future.json", json.dumps(dict(self.copy(id="future"), schema="cuda-error-atlas/results/2"))),
                 self.write("no-steps.json", json.dumps({"schema": "cuda-error-atlas/results/1", "environment": {"id": "x"},
                                                         "runs": "none"})),
                 self.write("binary.json", "\udcff" if False else "\x00\x01"),
                 os.path.join(self.dir, "missing.json")]
        results, problems = load_results(paths)
        self.assertEqual([r.path for r in results], [real])
        reasons = dict(problems)
        self.assertIn("not JSON", reasons[paths[1]])
        self.assertIn("field schema: 'something-else' is not", reasons[paths[2]])
        self.assertEqual(reasons[paths[3]], "field schema: version 2 of cuda-error-atlas/results/ is not known "
                                            "(this report reads version 1)")
        self.assertEqual(reasons[paths[4]], "field runs: 'none' is not a list")
        self.assertIn("not JSON", reasons[paths[5]])
        self.assertEqual(reasons[paths[6]], "does not exist")
        out = os.path.join(self.dir, "report")
        index = atlas.build(Matrix(results, load_cases()), problems, out)
        page = read(index)
        for path in paths[1:]:
            self.assertIn(path, page)

    def test_command_line_names_problems_without_a_traceback_and_fails_when_nothing_is_read(self):
        bad = self.write("bad.json", '{"schema": "cuda-error-atlas/results/9"}')
        missing = os.path.join(self.dir, "nowhere")
        done = self.atlas("build", "--out", os.path.join(self.dir, "r1"), bad, missing)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        self.assertIn("%s: field schema: version 9" % bad, done.stderr)
        self.assertIn("%s: does not exist" % missing, done.stderr)
        self.assertIn("no results could be read", done.stderr)
        done = self.atlas("build", "--out", os.path.join(self.dir, "r2"), missing, self.h100)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "r2", "index.html")))
        done = self.atlas("diff", "default", "sanitizer", bad)
        self.assertEqual(done.returncode, 1)
        self.assertNotIn("Traceback", done.stderr)
        done = self.atlas("build", "--out", os.path.join(bad, "report"), self.h100)     # a file where a folder should be
        self.assertEqual(done.returncode, 1)
        self.assertIn("cannot write the report into", done.stderr)
        self.assertNotIn("Traceback", done.stderr)

    def test_everything_from_results_files_is_escaped(self):
        data = self.copy(id="evil<script>alert(1)</script>", gpu="<img src=x onerror=alert(2)>")
        data["runs"][0]["library_messages"] = ["</script><script>alert(3)</script>"]
        data["runs"][0]["first_error"] = {"step": "<b>", "name": "<i>x</i>", "surfaced": "call"}
        data["runs"][0]["steps"][0]["name"] = "</script><b>y</b>"
        path = self.write("evil.json", data)
        out = os.path.join(self.dir, "report")
        results, problems = load_results([path])
        atlas.build(Matrix(results, load_cases()), problems, out)
        names = [n for n in glob.glob(os.path.join(out, "**", "*.*"), recursive=True) if n.endswith((".html", ".js"))]
        self.assertGreater(len(names), 100)
        for name in names:
            page = read(name)
            self.assertNotIn("<script>alert", page, name)
            self.assertNotIn("<img src=x", page, name)
            self.assertNotIn("<i>x</i>", page, name)
            self.assertNotIn("</script><b>", page, name)
        index = read(os.path.join(out, "index.html"))
        self.assertIn("&lt;img src=x onerror=alert(2)&gt;", index)      # the GPU name, in the header
        self.assertIn("<img src=x onerror=alert(2)>", page_data(index)["columns"][0]["label"])  # intact in the data


class ColumnsAndRuns(Fixtures):
    def test_runtime_versions_in_numeric_order(self):
        self.assertEqual(sorted(["13.0", "12.10", "12.4", "11.8", "12.0", "12.9"], key=version_key),
                         ["11.8", "12.0", "12.4", "12.9", "12.10", "13.0"])
        paths = []
        for version in ("12.10", "12.9", "13.0", "11.8"):
            data = self.copy(cudart=version, id="nvidia-h100_driver-580_cudart-%s_default" % version)
            paths.append(self.write("%s.json" % data["environment"]["id"], data))
        matrix = Matrix(load_results(paths)[0], load_cases())
        self.assertEqual([c.environment["cudart"] for c in matrix.columns], ["11.8", "12.9", "12.10", "13.0"])
        pairs = [(a.environment["cudart"], b.environment["cudart"]) for kind, a, b, _ in comparisons(matrix) if kind == "version"]
        self.assertEqual(pairs, [("11.8", "12.9"), ("12.9", "12.10"), ("12.10", "13.0")])

    def test_this_machine_first_and_marked(self):
        mine = self.write("mine/nvidia-h200_driver-580.159.04_cudart-13.0_cublas-13.1.0_default.json",
                          self.copy(gpu="NVIDIA H200", id="nvidia-h200_driver-580.159.04_cudart-13.0_cublas-13.1.0_default"))
        out = os.path.join(self.dir, "report")
        done = self.atlas("build", "--out", out, os.path.dirname(mine), COMMITTED)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("superseded by %s" % mine, done.stderr)   # the committed H200 column gives way to this run
        data = page_data(read(os.path.join(out, "index.html")))
        self.assertTrue(data["columns"][0]["here"])
        self.assertEqual(data["columns"][0]["id"], "nvidia-h200_driver-580.159.04_cudart-13.0_cublas-13.1.0_default")
        self.assertEqual(sum(c["here"] for c in data["columns"]), 1)
        self.assertIn("▶ this machine: H200", read(os.path.join(out, "index.html")))
        self.assertIn("**this machine:** H200", read(os.path.join(out, "matrix.md")))
        # rendered from a dataset of this run and the committed columns, compiled beside the report
        self.assertIn("from %s.sqlite" % out, done.stdout)
        self.assertIsNone(dataset.stale(out + ".sqlite", results=[os.path.dirname(mine), COMMITTED],
                                        here=[os.path.dirname(mine)]))
        # this machine runs again: the report's dataset no longer matches its run, so it is rebuilt, saying why
        again = json.loads(read(mine))
        again["runs"][self.run_index(again, "lda_smaller_than_rows", "broken")]["first_error"]["name"] = \
            "CUBLAS_STATUS_NOT_SUPPORTED"
        self.write(os.path.relpath(mine, self.dir), again)
        done = self.atlas("build", "--out", out, os.path.dirname(mine), COMMITTED)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(done.stderr, r"dataset: .* changed since %s\.sqlite was built; rebuilding" % re.escape(out))
        data = page_data(read(os.path.join(out, "index.html")))
        row = next(r for r in data["rows"] if (r[0], r[2]) == ("lda_smaller_than_rows", "broken"))
        self.assertEqual(data["kinds"][row[4][0]][0], "NOT_SUPPORTED")
        done = self.atlas("build", "--out", out, os.path.dirname(mine), COMMITTED)     # current: used as it is
        self.assertNotIn("rebuilding", done.stderr)

    def test_a_partial_run_is_laid_over_the_complete_one(self):
        complete = self.write("complete/x_default.json", self.copy(id="x_default"))
        partial = self.copy(id="x_default")
        partial["coverage"] = {"registered": 166, "ran": 2, "complete": False, "not_run": ["blas_args/other/fixed"]}
        partial["collected"] = "2099-01-01T00:00:00Z"                     # newer than the committed complete run
        runs = [copy.deepcopy(partial["runs"][self.run_index(partial, "lda_smaller_than_rows", v)]) for v in ("fixed", "broken")]
        runs[1]["first_error"]["name"] = "CUBLAS_STATUS_NOT_SUPPORTED"       # what the filtered run changed
        runs[1]["truncated"] = {"stdout_tail": 1234}
        partial["runs"] = runs
        partial_path = self.write("mine/x_default.partial.json", partial)
        results, problems = load_results([os.path.dirname(partial_path), complete])
        self.assertEqual(problems, [])
        self.assertEqual(len(results), 1)                                    # one column, not two
        matrix = Matrix(results, load_cases())
        column = matrix.columns[0]
        cell = matrix.cell(column, "lda_smaller_than_rows", "broken")
        self.assertEqual(cell.text, "Δ NOT_SUPPORTED")
        self.assertIn("was INVALID_VALUE in the complete run; NOT_SUPPORTED in the partial run 2099-01-01T00:00:00Z", cell.title)
        details = dict(cell.details)
        self.assertIn("was INVALID_VALUE in %s; now NOT_SUPPORTED in %s" % (complete, partial_path),
                      details["changed by a partial run"])
        self.assertEqual(details["cut from the output"], "stdout tail: 1234 bytes cut")
        self.assertIsNone(matrix.cell(column, "lda_smaller_than_rows", "fixed").changed)   # the same as before
        self.assertEqual(matrix.cell(column, "null_handle", "broken").value, "NOT_INITIALIZED")  # kept from the complete run
        out = os.path.join(self.dir, "report")
        atlas.build(matrix, problems, out)
        self.assertIn("Changed by a partial run", read(os.path.join(out, "changes.html")))
        self.assertIn("stdout tail: 1234 bytes cut", read(os.path.join(out, "steps", "lda_smaller_than_rows.js")))

    def test_a_partial_run_older_than_the_complete_one_is_not_laid_over_it(self):
        complete = self.write("x_default.json", dict(self.copy(id="x_default"), collected="2026-11-23T12:00:00Z"))
        partial = dict(self.copy(id="x_default"), collected="2026-11-23T10:00:00Z")
        partial["coverage"] = {"registered": 166, "ran": 166, "complete": False, "not_run": []}
        partial["runs"][0]["verdict"] = "mismatch"
        path = self.write("x_default.partial.json", partial)
        results, problems = load_results([complete, path])
        self.assertEqual(len(results), 1)
        self.assertEqual(results[0].overlay, {})
        self.assertIn("a partial run older than the complete run", problems[0][1])
        self.assertRegex(problems[0][1], r"shown only for the \d+ of its \d+ runs that the complete run skipped")

    def test_an_older_partial_run_still_shows_what_the_newer_complete_run_skipped(self):
        # the complete run lacked the files one case needs (driver 535's libcuda) and skipped it; the older filtered
        # run that had them measured it: that observation stays, the rest of the older run gives way
        column = dict(self.copy(id="x_default"), collected="2026-11-23T12:00:00Z")
        skipped = column["runs"][self.run_index(column, "null_handle", "broken")]
        skipped.update(verdict="skip", skip_reason="needs driver 535's libcuda", steps=[], first_error=None)
        partial = dict(self.copy(id="x_default"), collected="2026-11-23T10:00:00Z")
        partial["coverage"] = {"registered": 166, "ran": 2, "complete": False, "not_run": []}
        runs = [copy.deepcopy(partial["runs"][self.run_index(partial, case, "broken")])
                for case in ("null_handle", "lda_smaller_than_rows")]
        runs[1]["first_error"]["name"] = "CUBLAS_STATUS_NOT_SUPPORTED"       # older than the complete run's: not shown
        partial["runs"] = runs
        paths = [self.write("x_default.json", column), self.write("x_default.partial.json", partial)]
        results, problems = load_results(paths)
        self.assertEqual(len(results), 1)
        self.assertEqual([(p[0], p.scope) for p in problems], [(paths[1], "superseded")])
        self.assertIn("shown only for the 1 of its 2 runs", problems[0][1])
        matrix = Matrix(results, load_cases())
        column = matrix.columns[0]
        self.assertEqual(matrix.cell(column, "null_handle", "broken").value, "NOT_INITIALIZED")
        self.assertEqual(matrix.cell(column, "lda_smaller_than_rows", "broken").value, "INVALID_VALUE")

    def test_a_filtered_run_lies_over_a_column_that_left_variants_out(self):
        # a runtime column runs only what needs no other library (its coverage is incomplete); a filtered run of the
        # same environment, newer, is laid over it all the same — and a second such column still gives way
        column = dict(self.copy(id="x_default"), collected="2026-11-23T10:00:00Z")
        column["coverage"] = {"registered": 166, "ran": 160, "complete": False, "not_run": ["blas_args/other/fixed"]}
        partial = dict(self.copy(id="x_default"), collected="2026-11-23T12:00:00Z")
        partial["coverage"] = {"registered": 166, "ran": 1, "complete": False, "not_run": []}
        partial["runs"] = [copy.deepcopy(partial["runs"][self.run_index(partial, "lda_smaller_than_rows", "broken")])]
        partial["runs"][0]["first_error"]["name"] = "CUBLAS_STATUS_NOT_SUPPORTED"
        paths = [self.write("x_default.partial.json", partial), self.write("x_default.json", column)]
        results, problems = load_results(paths)
        self.assertEqual(problems, [])
        self.assertEqual(len(results), 1)
        self.assertEqual(results[0].overlay_from.path, paths[0])
        again = self.write("other/x_default.json", column)
        results, problems = load_results(paths + [again])
        self.assertEqual(len(results), 1)
        self.assertEqual([p[0] for p in problems], [again])

    def test_two_gpus_are_labelled_and_compared_with_one(self):
        one = self.copy(gpu="NVIDIA H200", id="nvidia-h200_default")
        two = self.copy(gpu="NVIDIA H200", devices="2", id="2x-nvidia-h200_default")
        results, _ = load_results([self.write("2x-nvidia-h200_default.json", two), self.write("nvidia-h200_default.json", one)])
        matrix = Matrix(results, load_cases())
        self.assertEqual([c.heading[0] for c in matrix.columns], ["H200", "2× H200"])
        self.assertTrue(matrix.columns[1].label.startswith("2× H200 · driver 580.159.04 · cudart 13.0"))
        self.assertIn(("gpu", "nvidia-h200_default", "2x-nvidia-h200_default"),
                      [(k, a.id, b.id) for k, a, b, _ in comparisons(matrix)])

    def test_a_partial_run_alone_is_its_own_column(self):
        partial = self.copy(id="y_default")
        partial["coverage"] = {"registered": 166, "ran": 4, "complete": False, "not_run": []}
        partial["runs"] = partial["runs"][:4]
        path = self.write("y_default.partial.json", partial)
        results, problems = load_results([path])
        self.assertEqual(problems, [])
        self.assertTrue(results[0].label.endswith("default partial (4 of 166)"), results[0].label)
        matrix = Matrix(results, load_cases())
        self.assertEqual(matrix.cell(matrix.columns[0], "null_handle", "broken").kind, "not-run")
        # and a file without coverage is complete
        self.assertFalse(load_results([self.h100])[0][0].partial)


class FromTheDataset(Fixtures):
    """The report reads nothing but its dataset: a run's results files are compiled, with the committed columns,
    into a dataset of their own, which is refused once it no longer matches them."""

    def test_this_machines_run_is_read_from_its_dataset_alone(self):
        mine = self.copy(gpu="NVIDIA X", id="x_default")
        mine["runs"][self.run_index(mine, "lda_smaller_than_rows", "broken")]["first_error"]["name"] = \
            "CUBLAS_STATUS_NOT_SUPPORTED"
        path = self.write("mine/x_default.json", mine)
        results, here = [os.path.dirname(path), COMMITTED], [os.path.dirname(path)]
        compiled = os.path.join(self.dir, "atlas.sqlite")
        dataset.build(ROOT, compiled, quiet=True, results=results, here=here)
        os.remove(path)                                     # from here on, only the dataset has this run
        report = atlas.read(dataset.Dataset(compiled))
        column = report.matrix.columns[0]
        self.assertEqual((column.id, column.here, column.path), ("x_default", True, path))
        self.assertEqual(sum(c.here for c in report.matrix.columns), 1)
        self.assertEqual(report.matrix.cell(column, "lda_smaller_than_rows", "broken").value, "NOT_SUPPORTED")
        self.assertEqual([p for p in report.problems if p.scope != "superseded"], [])
        self.assertGreater(len(report.matrix.columns), 20)                   # the committed columns too
        self.assertTrue(report.companions)                                   # and those only the versions pages read
        self.assertTrue(all(not c.has_device for c in report.companions))
        self.assertIn("an illegal memory access was encountered", [t for _, _, _, t in report.status_table])
        out = os.path.join(self.dir, "report")
        atlas.write(report, out)
        self.assertIn("▶ this machine: X", read(os.path.join(out, "index.html")))
        # the run's file is gone: the dataset is stale, and is never used as it is
        why = dataset.stale(compiled, results=results, here=here)
        self.assertIn("or a results file it holds, changed since", why)
        with self.assertRaises(RuntimeError):
            dataset.open_dataset(compiled, results=results, here=here, rebuild=False)
        # nor is a dataset of other results files this report's
        self.assertIn("holds the columns of other results files", dataset.stale(compiled, results=[COMMITTED]))
        self.assertIn("holds the columns of other results files", dataset.stale(compiled))

    def test_a_file_that_cannot_be_read_is_named_from_the_dataset(self):
        missing = os.path.join(self.dir, "missing.json")
        compiled = os.path.join(self.dir, "atlas.sqlite")
        dataset.build(ROOT, compiled, quiet=True, results=[self.h100, missing])
        results, problems = dataset.Dataset(compiled).results()
        self.assertEqual([r.id for r in results], [load_results([self.h100])[0][0].id])
        self.assertEqual([(p.path, p.reason, p.scope) for p in problems], [(missing, "does not exist", "file")])


class Fuzz(unittest.TestCase):
    def test_loader_survives_random_mutations(self):
        """A few seconds of mutated committed files; `python3 reports/tests/fuzz_results.py --seconds 600` for longer."""
        seed = int(time.time())
        crashes = fuzz_results.fuzz(seconds=float(os.environ.get("ATLAS_FUZZ_SECONDS", "4")), seed=seed)
        self.assertEqual(crashes, [], "seed %d; the crashing inputs are saved in reports/tests/fuzz_cases/" % seed)

    def test_saved_crashing_inputs_stay_fixed(self):
        cases = sorted(glob.glob(os.path.join(HERE, "fuzz_cases", "*.json")))
        self.assertGreater(len(cases), 0)
        for path in cases:
            fuzz_results.check(path)              # raises on a regression


@unittest.skipUnless(chromium(), "no Chromium here (.ci/run installs Debian's chromium)")
class RenderedInChromium(unittest.TestCase):
    """The matrix scrolled, filtered and drilled into, at desktop and phone
    widths; a screenshot of every kind of page (kept in $ATLAS_SCREENSHOTS)."""

    @classmethod
    def setUpClass(cls):
        built = Built.get()
        cls.out, cls.matrix = built.out, built.matrix
        cls.shots = os.environ.get("ATLAS_SCREENSHOTS") or os.path.join(cls.out, "screenshots")
        os.makedirs(cls.shots, exist_ok=True)
        cls.browser = Browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()

    def url(self, name):
        return "file://" + os.path.join(self.out, name)

    def check_matrix(self, width, height, mobile):
        b = self.browser
        b.size(width, height, mobile)
        b.open(self.url("index.html"))
        tag = "phone" if mobile else "desktop"
        rows = b.js("document.querySelectorAll('#matrix tbody tr.v').length")
        self.assertEqual(rows, 2 * len(self.matrix.case_names))
        b.screenshot(os.path.join(self.shots, "matrix-%s.png" % tag))
        # scrolled down and sideways: the header rows stay at the top, the case names at the left
        b.js("window.scrollTo(600, document.querySelector('#matrix').offsetTop + 2500)")
        time.sleep(0.1)
        state = b.js("""(function () {
          var rows = document.querySelectorAll('#matrix thead tr'), out = {header: []};
          rows.forEach(function (r) { var b = r.getBoundingClientRect(); out.header.push([b.top, b.bottom]); });
          var corner = document.querySelector('#matrix th.corner').getBoundingClientRect();
          var x = corner.right + 20, top = document.elementFromPoint(x, out.header[0][0] + 3);
          out.headerHit = top && top.closest('thead') ? top.closest('th').textContent : null;
          var y = out.header[out.header.length - 1][1] + 40, label = document.elementFromPoint(10, y);
          out.labelHit = label && label.closest('tbody th') ? label.closest('tr').dataset.case : null;
          out.scrollX = window.scrollX; out.scrollY = window.scrollY;
          return out; })()""")
        self.assertGreater(state["scrollY"], 1000)
        self.assertGreater(state["scrollX"], 0, "the matrix should be wider than the window")
        tops = [top for top, _ in state["header"]]
        self.assertAlmostEqual(tops[0], 0, delta=2)
        for (t1, b1), (t2, _) in zip(state["header"], state["header"][1:]):
            self.assertAlmostEqual(b1, t2, delta=2, msg="header rows overlap: %s" % state["header"])
        self.assertIsNotNone(state["headerHit"], "no header cell at the top of the scrolled window")
        self.assertIsNotNone(state["labelHit"], "no case name at the left of the scrolled window")
        b.screenshot(os.path.join(self.shots, "matrix-%s-scrolled.png" % tag))
        # a filter: one family, broken only; every row left names its case
        family = "sticky_faults"
        shown = b.js("""(function () {
          var f = document.getElementById('f-family'); f.value = '%s'; f.dispatchEvent(new Event('change'));
          var v = document.getElementById('f-variant'); v.value = 'broken'; v.dispatchEvent(new Event('change'));
          return [...document.querySelectorAll('#matrix tbody tr.v')].filter(r => !r.hidden)
            .map(r => [r.dataset.family, r.dataset.variant, r.querySelector('th a').textContent]); })()""" % family)
        expected = [n for n in self.matrix.case_names if self.matrix.family[n] == family]
        self.assertEqual(sorted(s[2] for s in shown), sorted(expected))
        self.assertTrue(all(s[0] == family and s[1] == "broken" for s in shown))
        self.assertIn("showing %d of" % len(expected), b.js("document.getElementById('f-count').textContent"))
        # differs across environments, in every family and variant
        disagree = b.js("""(function () {
          ['f-family', 'f-variant'].forEach(function (id) { var f = document.getElementById(id); f.value = '';
            f.dispatchEvent(new Event('change')); });
          var d = document.getElementById('f-disagree'); d.checked = true; d.dispatchEvent(new Event('change'));
          return [...document.querySelectorAll('#matrix tbody tr.v')].filter(r => !r.hidden).map(r => r.dataset.case); })()""")
        self.assertIn("kernel_writes_bad_address", disagree)
        self.assertNotIn("lda_smaller_than_rows", disagree)
        self.assertEqual(len(disagree), sum(1 for r in self.matrix.rows if self.matrix.disagrees(r)))
        # a drill-down, by a real click on the row's button
        b.js("window.scrollTo(0, 0)")
        point = b.js("""(function () {
          var tr = [...document.querySelectorAll('#matrix tr.v')].find(r => r.dataset.case === 'kernel_writes_bad_address'
             && r.dataset.variant === 'broken');
          tr.scrollIntoView({block: 'center'}); var r = tr.querySelector('button.drill').getBoundingClientRect();
          return [r.left + r.width / 2, r.top + r.height / 2]; })()""")
        b.click(*point)
        self.assertTrue(b.wait_for("document.querySelectorAll('#matrix tr.step').length > 0"), "the steps did not open")
        steps = b.js("[...document.querySelectorAll('#matrix tr.step th')].map(t => t.textContent)")
        self.assertIn("step launch", steps)
        details = b.js("document.querySelector('#matrix tr.details td').textContent")
        self.assertIn("context after: lost (sticky)", details)
        b.screenshot(os.path.join(self.shots, "matrix-%s-drilled.png" % tag))
        # links: a status cell and a case name lead to their pages
        href = b.js("""[...document.querySelectorAll('#matrix tr.v')].find(r => !r.hidden)
                       .querySelector('td.c a').getAttribute('href')""")
        self.assertTrue(href.startswith("status.html#"), href)
        b.js("[...document.querySelectorAll('#matrix tr.v')].find(r => !r.hidden).querySelector('th a').click()")
        self.assertTrue(b.wait_for("location.pathname.indexOf('/case/') >= 0 && document.readyState === 'complete'"))
        self.assertIn("What you get", b.js("document.body.textContent"))

    def test_matrix_at_desktop_width(self):
        self.check_matrix(1366, 800, False)

    def test_matrix_at_phone_width(self):
        self.check_matrix(390, 844, True)

    def test_every_page_renders(self):
        b = self.browser
        for tag, width, height, mobile in (("desktop", 1366, 800, False), ("phone", 390, 844, True)):
            b.size(width, height, mobile)
            for name in ("atlas.html", "status.html", "changes.html", "case/lda_smaller_than_rows.html",
                         "case/kernel_writes_bad_address.html"):
                b.open(self.url(name))
                self.assertTrue(b.js("document.querySelector('h1').textContent.length > 0"), name)
                overflow = b.js("document.documentElement.scrollWidth - window.innerWidth")
                self.assertLessEqual(overflow, 2, "%s is wider than a %s screen" % (name, tag))
                b.screenshot(os.path.join(self.shots, "%s-%s.png" % (name.replace("/", "-").replace(".html", ""), tag)))
        # the atlas index's search
        b.open(self.url("atlas.html"))
        visible = b.js("""(function () { var q = document.getElementById('q'); q.value = 'IllegalAddress';
          q.dispatchEvent(new Event('input'));
          return [...document.querySelectorAll('ul.cases li')].filter(li => !li.hidden).length; })()""")
        self.assertGreater(visible, 3)
        self.assertLess(visible, len(self.matrix.case_names))
        # the picker on changes.html
        b.open(self.url("changes.html"))
        self.assertRegex(b.js("document.getElementById('picked').textContent"), r"\d+ variants differ")


if __name__ == "__main__":
    unittest.main()
