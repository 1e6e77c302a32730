"""Versions as ranges and what is sticky: the pure functions on made-up
columns, then the pages and the drafting tool on the committed results."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from cuda_error_atlas import versions as atlas_versions  # noqa: E402
from cuda_error_atlas import version_ranges as vr  # noqa: E402
from cuda_error_atlas.results import ROOT, default_results_paths, load_results  # noqa: E402


class Column:
    """The part of atlas_data.Results the functions read."""

    def __init__(self, cudart, runs, gpu="NVIDIA H200", driver="580.159.04", cublas="none", path=None):
        self.environment = {"cudart": cudart, "cudart_header": cudart, "cublas": cublas, "gpu": gpu,
                            "driver": driver, "mode": "default"}
        self.runs = runs
        self.kind = "c"
        self.path = path or os.path.join(ROOT, "data", "results", "fake_cudart-%s.json" % cudart)
        self.id = os.path.basename(self.path)[:-5]

    @property
    def has_device(self):
        return self.environment["driver"] != "none"


def run(case, variant, steps, end="exit:0", skip=None, first_error=None):
    made = {"case": case, "variant": variant, "verdict": "skip" if skip else "match", "skip_reason": skip,
            "end": {"outcome": "exit:77" if skip else end},
            "steps": [{"step": s, "name": n, "success": n in ("cudaSuccess", "CUBLAS_STATUS_SUCCESS"),
                       "call": c} for s, n, c in steps]}
    if first_error:
        made["first_error"] = {"step": first_error[0], "name": first_error[1]}
    return made


def launch(cudart, status):
    return Column(cudart, [run("empty_grid", "broken", [("launch", status, "launch"), ("probe", "cudaSuccess", "p")])])


class VersionOrder(unittest.TestCase):
    def test_numeric_not_textual(self):
        self.assertEqual(vr.sort_versions(["13.0", "12.10", "12.4", "11.8", "12.0"]),
                         ["11.8", "12.0", "12.4", "12.10", "13.0"])

    def test_non_versions_are_not_versions(self):
        self.assertIsNone(vr.parse_version("none"))
        self.assertIsNone(vr.parse_version("12.x"))
        self.assertEqual(vr.parse_version("13.1.0"), (13, 1, 0))


class Ranges(unittest.TestCase):
    def setUp(self):
        self.columns = [launch("11.8", "cudaErrorInvalidConfiguration"), launch("12.4", "cudaErrorInvalidConfiguration"),
                        launch("12.9", "cudaErrorInvalidConfiguration"), launch("13.0", "cudaErrorInvalidValue"),
                        launch("13.5", "cudaErrorInvalidValue")]
        per_group, self.files = vr.observations(self.columns, "cudart")
        (self.group, steps), = per_group.items()
        self.launch = steps[("empty_grid", "broken", "launch")]

    def test_segments_and_the_pinned_change(self):
        self.assertEqual(vr.segments(self.launch), [("11.8", "12.9", "cudaErrorInvalidConfiguration"),
                                                    ("13.0", "13.5", "cudaErrorInvalidValue")])
        change, = vr.changes(self.launch)
        self.assertEqual((change["last_old"], change["first_new"]), ("12.9", "13.0"))
        self.assertEqual(change["not_tested_between"], [])        # no release between 12.9 and 13.0

    def test_untested_releases_between_are_named(self):
        del self.launch["12.9"]
        change, = vr.changes(self.launch)
        self.assertEqual(change["last_old"], "12.4")
        self.assertEqual(change["not_tested_between"], ["12.5", "12.6", "12.8", "12.9"])   # 12.7 does not exist

    def test_cublas_releases_between_are_named(self):
        steps = {"11.11.3": "CUBLAS_STATUS_EXECUTION_FAILED", "12.4.5": "CUBLAS_STATUS_SUCCESS",
                 "13.0.0": "CUBLAS_STATUS_SUCCESS"}
        change, = vr.changes(steps, "cublas")
        self.assertEqual((change["last_old"], change["first_new"]), ("11.11.3", "12.4.5"))
        self.assertEqual(change["not_tested_between"][:2], ["12.0.1", "12.0.2"])
        self.assertNotIn("12.4.5", change["not_tested_between"])
        adjacent = {"13.0.0": "a", "13.0.2": "b"}
        self.assertEqual(vr.changes(adjacent, "cublas")[0]["not_tested_between"], [])     # pinned

    def test_narrowest_range_and_condition(self):
        low, high = vr.narrowest_range(self.launch, "cudaErrorInvalidConfiguration")
        self.assertEqual(vr.condition("cudart", low, high), "cudart=11.8..12.9")
        self.assertEqual(vr.condition("cublas", "11.11.3", "11.11.3"), "cublas=11.11.3")

    def test_an_outcome_seen_in_two_places_is_not_a_range(self):
        self.launch["13.5"] = "cudaErrorInvalidConfiguration"
        self.assertIsNone(vr.narrowest_range(self.launch, "cudaErrorInvalidConfiguration"))

    def test_not_run_is_a_gap_never_a_behaviour(self):
        skipped = Column("12.6", [run("empty_grid", "broken", [], skip="needs nvcc 12.6")])
        per_group, _ = vr.observations(self.columns + [skipped], "cudart")
        launch = per_group[self.group][("empty_grid", "broken", "launch")]
        self.assertTrue(launch["12.6"].startswith("not run: needs nvcc 12.6"))
        self.assertNotIn("12.6", vr.tested(launch))
        self.assertEqual(len(vr.changes(launch)), 1)

    def test_draft_proposes_the_range_with_its_two_ends_as_evidence(self):
        lines = vr.draft_range_rules(self.columns, "cudart", ROOT)
        self.assertEqual(len(lines), 1)
        fields = lines[0].split("  ")
        self.assertEqual(fields[:5], ["empty_grid", "broken", "launch", "cudaErrorInvalidConfiguration",
                                      "cudart=11.8..12.9"])
        self.assertIn("run:data/results/fake_cudart-11.8.json", fields[5])
        self.assertIn("run:data/results/fake_cudart-12.9.json", fields[5])

    def test_what_changed_between_any_two(self):
        self.assertEqual(vr.what_changed(self.columns, "cudart", "11.8", "12.9"), [])
        (_, case, _, step, a, b), = vr.what_changed(self.columns, "cudart", "12.4", "13.5")
        self.assertEqual((case, step, a, b), ("empty_grid", "launch", "cudaErrorInvalidConfiguration",
                                              "cudaErrorInvalidValue"))

    def test_not_run_on_one_side_is_no_change(self):
        skipped = Column("13.1", [run("empty_grid", "broken", [], skip="not run: no nvcc 13.1")])
        per_group, _ = vr.observations(self.columns + [skipped], "cudart")
        steps = per_group[self.group]
        self.assertEqual(vr.changed_steps(steps, "13.0", "13.1"), [])
        self.assertEqual(vr.not_run_on_one_side(steps, "13.0", "13.1"),
                         {("empty_grid", "broken"): "not run: no nvcc 13.1"})       # not "not run: not run: ..."

    def test_two_columns_of_one_version_what_ran_counts(self):
        # a runtime-only column (cuBLAS cases "not run") and a cuBLAS column of the same cudart, in either order
        blas = run("lda_smaller_than_rows", "broken", [("gemm", "CUBLAS_STATUS_INVALID_VALUE", "cublasSgemm")])
        stub = run("lda_smaller_than_rows", "broken", [], skip="not run: a runtime column carries libcudart alone")
        with_blas = Column("12.4", [blas], cublas="12.4.5", path=os.path.join(ROOT, "x", "blas.json"))
        alone = Column("12.4", [stub], path=os.path.join(ROOT, "x", "alone.json"))
        for order in ([with_blas, alone], [alone, with_blas]):
            per_group, files = vr.observations(self.columns + order, "cudart")
            steps = per_group[self.group]
            self.assertEqual(steps[("lda_smaller_than_rows", "broken", "gemm")]["12.4"], "CUBLAS_STATUS_INVALID_VALUE")
            self.assertEqual(len(files[self.group]["12.4"]), 3)

    def test_a_change_along_cublas_says_whose_it_is(self):
        # the cuBLAS columns differ in cudart too: where runtime-only columns pin the same change along cudart,
        # the page says it is the runtime's; where nothing separates them, it says so
        def both(cudart, cublas, launch_status, gemm_status):
            path = os.path.join(ROOT, "x", "c%s_b%s.json" % (cudart, cublas))
            runs = [run("empty_grid", "broken", [("launch", launch_status, "launch")])]
            if cublas != "none":
                runs.append(run("handle_used_after_destroy", "broken", [("gemm", gemm_status, "cublasSgemm")]))
            return Column(cudart, runs, cublas=cublas, path=path)
        columns = [both("12.4", "12.4.5", "cudaErrorInvalidConfiguration", "CUBLAS_STATUS_EXECUTION_FAILED"),
                   both("12.9", "none", "cudaErrorInvalidConfiguration", None),
                   both("13.0", "13.0.0", "cudaErrorInvalidValue", "CUBLAS_STATUS_NOT_SUPPORTED")]
        html = atlas_versions.versions_page(columns)
        along_cublas = html[html.index("along cublas"):]
        launch = along_cublas[along_cublas.index("empty_grid"):along_cublas.index("</tr>", along_cublas.index("empty_grid"))]
        self.assertIn("the runtime's: the same change along cudart, pinned 12.9 → 13.0", launch)
        gemm = along_cublas[along_cublas.index("handle_used_after_destroy"):]
        gemm = gemm[:gemm.index("</tr>")]
        self.assertIn("no column tells them apart", gemm)
        self.assertNotIn("pinned", gemm)

    def test_other_gpus_and_drivers_are_other_groups(self):
        other = Column("13.0", launch("13.0", "cudaErrorInvalidValue").runs, gpu="NVIDIA H100")
        per_group, _ = vr.observations(self.columns + [other], "cudart")
        self.assertEqual(len(per_group), 2)


class Sticky(unittest.TestCase):
    def columns(self):
        fault = run("kernel_writes_bad_address", "broken",
                    [("sync", "cudaErrorIllegalAddress", "cudaDeviceSynchronize()"),
                     ("create_another", "CUBLAS_STATUS_NOT_INITIALIZED", "cublasCreate(&another)"),
                     ("probe", "cudaErrorIllegalAddress", "cudaMalloc(&p, 256)")],
                    first_error=("sync", "cudaErrorIllegalAddress"))
        bad_value = run("free_twice", "broken", [("free_again", "cudaErrorInvalidValue", "cudaFree(p)"),
                                                 ("probe", "cudaSuccess", "cudaDeviceSynchronize()")],
                        first_error=("free_again", "cudaErrorInvalidValue"))
        space = run("reads_past_b", "broken", [("sync", "cudaErrorInvalidAddressSpace", "s"),
                                               ("probe", "cudaErrorInvalidAddressSpace", "p")],
                    first_error=("sync", "cudaErrorInvalidAddressSpace"))
        return [Column("12.9", [fault, bad_value]), Column("13.0", [fault, space]),
                Column("13.0", [bad_value], driver="none", path=os.path.join(ROOT, "nd.json"))]

    def test_table(self):
        rows = {r["status"]: r for r in atlas_versions.sticky_table(self.columns())}
        illegal = rows["cudaErrorIllegalAddress"]
        self.assertEqual(illegal["runs"], 2)
        self.assertEqual(illegal["context"]["unusable"]["cudart"], ["12.9", "13.0"])
        self.assertEqual(illegal["new_cublas_handle"]["unusable"]["statuses"], ["CUBLAS_STATUS_NOT_INITIALIZED"])
        self.assertEqual(illegal["other_devices"], {})                       # not measured
        self.assertIsNone(illegal["disagrees"])                              # PyTorch lists it, and it is sticky
        value = rows["cudaErrorInvalidValue"]
        self.assertEqual(value["runs"], 1)                                   # the no-driver column is left out
        self.assertEqual(list(value["context"]), ["usable"])
        self.assertIn("not in PyTorch's list", rows["cudaErrorInvalidAddressSpace"]["disagrees"])

    def test_a_runtime_that_never_started_lost_no_context(self):
        # an old driver: the first call and the probe fail alike — no context was ever made, so it is not sticky,
        # and PyTorch's list has nothing to disagree with; a kernel fault at the first recorded call still is
        old_driver = run("driver_too_old_for_the_runtime", "broken",
                         [("count", "cudaErrorInsufficientDriver", "cudaGetDeviceCount(&count)"),
                          ("probe", "cudaErrorInsufficientDriver", "cudaMalloc(&p, 256)")],
                         first_error=("count", "cudaErrorInsufficientDriver"))
        blocking = run("kernel_writes_host_pointer", "broken",
                       [("launch", "cudaErrorIllegalAddress", "cudaGetLastError()"),
                        ("probe", "cudaErrorIllegalAddress", "cudaMalloc(&p, 256)")],
                       first_error=("launch", "cudaErrorIllegalAddress"))
        rows = {r["status"]: r for r in atlas_versions.sticky_table([Column("13.0", [old_driver, blocking])])}
        self.assertEqual(list(rows["cudaErrorInsufficientDriver"]["context"]), ["never made"])
        self.assertIsNone(rows["cudaErrorInsufficientDriver"]["disagrees"])
        self.assertEqual(list(rows["cudaErrorIllegalAddress"]["context"]), ["unusable"])
        self.assertIn("never made", atlas_versions.sticky_page(atlas_versions.sticky_table([Column("13.0", [old_driver])])))

    def test_results_checks_are_not_statuses(self):
        check = run("x", "broken", [("result", "result_wrong", "r"), ("probe", "cudaSuccess", "p")],
                    first_error=("result", "result_wrong"))
        self.assertIsNone(atlas_versions.run_stickiness(check))


class FromCommittedResults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="atlas-versions-")
        results, _ = load_results(default_results_paths())
        cls.data = atlas_versions.write_pages(results, cls.out)
        with open(os.path.join(cls.out, "versions.html"), encoding="utf-8") as f:
            cls.html = f.read()

    def test_launch_configuration_change_pinned_on_the_h200(self):
        per_group, _ = vr.observations(atlas_versions.with_extra_columns(load_results(default_results_paths())[0]),
                                       "cudart")
        group = next(g for g in per_group if g[0] == "NVIDIA H200")
        change, = vr.changes(per_group[group][("empty_grid", "broken", "launch")])
        self.assertEqual((change["last_old"], change["first_new"], change["not_tested_between"]),
                         ("12.9", "13.0", []))
        self.assertIn("none: pinned", self.html)

    def test_pages_link_back_and_compare_pages_exist(self):
        self.assertIn('href="case/empty_grid.html"', self.html)
        self.assertTrue(os.path.exists(os.path.join(self.out, "compare",
                                                    "cudart_nvidiah200-580.159.04-default_12.9_13.0.html")))
        with open(os.path.join(self.out, "sticky.html"), encoding="utf-8") as f:
            self.assertIn('href="status.html#cudaErrorIllegalAddress"', f.read())

    def test_sticky_json_is_the_committed_one(self):
        with open(os.path.join(ROOT, "data", "sticky.json"), encoding="utf-8") as f:
            committed = json.load(f)
        self.assertEqual(committed["schema"], "cuda-error-atlas/sticky/1")
        self.assertEqual([s["status"] for s in committed["statuses"]], [s["status"] for s in self.data["statuses"]],
                         "data/sticky.json is stale: cuda-atlas versions --sticky-json data/sticky.json")
        illegal = next(s for s in committed["statuses"] if s["status"] == "cudaErrorIllegalAddress")
        self.assertIn("unusable", illegal["context"])

    def test_draft_rules_range_matches_the_rules(self):
        files = [p for p in default_results_paths() if "nvidia-h200_" in os.path.basename(p)]
        out = subprocess.run([sys.executable, "-m", "cuda_error_atlas", "draft-rules", "--range", "cudart"]
                             + files, capture_output=True, text=True, check=True, cwd=ROOT).stdout
        drafted = {tuple(line.split("  ")[:5]) for line in out.splitlines() if line and not line.startswith("#")}
        with open(os.path.join(ROOT, "expected", "launch_config.rules"), encoding="utf-8") as f:
            rules = {tuple(line.split()[:5]) for line in f if "cudart=11.8..12.9" in line}
        self.assertTrue(rules)
        self.assertLessEqual(rules, drafted)


if __name__ == "__main__":
    unittest.main()
