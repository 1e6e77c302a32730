"""The static site (cuda-atlas site), built from the compiled dataset: every internal link resolves, no page names a
path on this machine, the pages and the search index stay small, what changed counts only real changes, the search
finds a pasted line's status and cases, and in headless Chromium no page is wider than a 1280-px window or a 390-px
phone."""
import glob
import html.parser
import os
import re
import shutil
import sys
import tempfile
import time
import unittest
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from cuda_error_atlas import site as atlas_site  # noqa: E402
from cuda_error_atlas.dataset import open_dataset  # noqa: E402
from browser import Browser, chromium  # noqa: E402

# one page of every kind, and a search
KINDS = {"index": "index.html", "matrix": "matrix.html", "status": "status/cudaErrorIllegalAddress.html",
         "status index": "status.html", "case": "case/lda_smaller_than_rows.html", "versions": "versions.html",
         "sticky": "sticky.html", "changes": "changes.html", "notes": "notes.html", "cases": "atlas.html",
         "search": "search.html?q=" + urllib.parse.quote(
             "RuntimeError: CUDA error: an illegal memory access was encountered")}
LOCAL = re.compile(r"(?<![\w.])/(?:work|home|root)/|(?<![\w./-])build/(?:report|run|dataset|site)\b")


class Refs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for key in ("href", "src", "action"):
            if attrs.get(key):
                self.refs.append(attrs[key])


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class Site(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="atlas-site-")
        dataset = open_dataset()
        started = time.perf_counter()
        atlas_site.build(cls.out, dataset)
        cls.seconds = time.perf_counter() - started
        cls.pages = sorted(glob.glob(os.path.join(cls.out, "**", "*.html"), recursive=True))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def test_every_internal_link_resolves(self):
        parsed = {}
        for path in self.pages:
            parser = Refs()
            parser.feed(read(path))
            parsed[os.path.abspath(path)] = parser
        broken, checked = [], 0
        for path, parser in parsed.items():
            for ref in parser.refs:
                if re.match(r"^(?:https?:|mailto:)", ref):
                    continue
                self.assertNotRegex(ref, r"^(?:[a-z]+:|//|/)", "%s links %s" % (path, ref))
                target, _, fragment = ref.split("?")[0].partition("#")
                full = os.path.abspath(os.path.join(os.path.dirname(path), target)) if target else path
                checked += 1
                if not os.path.isfile(full) or (fragment and full in parsed and fragment not in parsed[full].ids):
                    broken.append("%s → %s" % (os.path.relpath(path, self.out), ref))
        self.assertEqual(broken, [])
        self.assertGreater(checked, 5000)

    def test_no_page_names_a_local_path(self):
        for path in glob.glob(os.path.join(self.out, "**", "*"), recursive=True):
            if os.path.isfile(path):
                found = LOCAL.search(read(path))
                self.assertIsNone(found, "%s: %s" % (path, found and read(path)[found.start() - 60:found.end() + 60]))

    def test_a_page_per_status_and_per_case_and_small_pages(self):
        self.assertTrue(os.path.exists(os.path.join(self.out, "status", "cudaErrorIllegalAddress.html")))
        self.assertTrue(os.path.exists(os.path.join(self.out, "status", "CUBLAS_STATUS_INVALID_VALUE.html")))
        self.assertTrue(os.path.exists(os.path.join(self.out, "case", "lda_smaller_than_rows.html")))
        for path in glob.glob(os.path.join(self.out, "compare", "*.html")):
            self.assertLess(os.path.getsize(path), 200_000, path)
        self.assertLess(os.path.getsize(os.path.join(self.out, "status.html")), 100_000)
        self.assertLess(os.path.getsize(os.path.join(self.out, "search-index.js")), 300_000)

    def test_status_page_reads_like_an_error_index(self):
        page = read(os.path.join(self.out, "status", "cudaErrorIllegalAddress.html"))
        for said in ("What it means", "an illegal memory access was encountered", "700", "The mistakes that produce it",
                     "Is it sticky?", "What a framework prints", "../case/kernel_writes_bad_address.html"):
            self.assertIn(said, page)
        self.assertIn("not measured", read(os.path.join(self.out, "status", "CUBLAS_STATUS_INVALID_VALUE.html")))

    def test_what_changed_counts_real_changes_and_bookkeeping_comes_last(self):
        changes = read(os.path.join(self.out, "changes.html"))
        self.assertNotIn("Changed by a partial run", changes)
        line = re.search(r"<li><a href='(compare/nvidia-h200_driver-580\.159\.04_cudart-12\.9_[^']*_vs_[^']*13\.0_"
                         r"cublas-[0-9.]+_default\.html)'>[^<]*</a>: (\d+) variants? differ", changes)
        self.assertIsNotNone(line, "the 12.9 → 13.0 comparison")
        self.assertLess(int(line.group(2)), 20)
        self.assertIn("Changed by a partial run", read(os.path.join(self.out, "notes.html")))

    def test_the_matrix_opens_with_how_to_read_it(self):
        page = read(os.path.join(self.out, "matrix.html"))
        main = page[page.index("<main"):]
        self.assertLess(main.index("A row is one variant"), 600)
        self.assertNotIn("superseded", page)

    def test_case_page_says_each_skip_reason_once(self):
        for path in glob.glob(os.path.join(self.out, "case", "*.html")):
            page = read(path)
            reasons = re.findall(r"<b>skipped</b>(?: \(the \w+ variant\))?: ([^<]+) <span", page)
            self.assertNotIn("<td>skipped: ", page, path)
            self.assertEqual(len(reasons), len(set(reasons)), path)

    def test_the_site_is_built_quickly(self):
        print("site built in %.2f s" % self.seconds, file=sys.stderr)
        self.assertLess(self.seconds, 6)

    @unittest.skipUnless(chromium(), "no Chromium here (apt-get install -y chromium)")
    def test_no_page_is_wider_than_the_window_and_search_finds_the_status(self):
        browser = Browser()
        try:
            for width, height in ((1280, 900), (390, 844)):
                browser.size(width, height, mobile=width < 500)
                for kind, name in KINDS.items():
                    browser.open("file://" + os.path.join(self.out, name))
                    wide = browser.js("[document.documentElement.scrollWidth, innerWidth]")
                    self.assertLessEqual(wide[0], wide[1], "%s (%s) at %d px" % (kind, name, width))
            browser.wait_for("document.querySelectorAll('#found a').length > 0")
            found = browser.js("[...document.querySelectorAll('#found a')].map(a => a.getAttribute('href'))")
            self.assertEqual(found[0], "status/cudaErrorIllegalAddress.html")
            self.assertIn("case/kernel_writes_bad_address.html", found)
        finally:
            browser.close()


if __name__ == "__main__":
    unittest.main()
