"""cuda-atlas fleet without a cluster: the plan reader, stamp, and merge —
machines that agree are one run with their count, machines that disagree make
the run flaky with each machine named, an unreadable file is named and the rest
merged, and what merge writes is an ordinary results file."""
import contextlib
import copy
import io
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from cuda_error_atlas import fleet  # noqa: E402
from cuda_error_atlas.results import load_results  # noqa: E402

ENV_ID = "nvidia-h200_driver-580.159.04_cudart-13.0_cublas-13.1.0_default"


def run(case, variant, verdict="match", status="cudaSuccess", end="exit:0"):
    return {"verdict": verdict, "case": case, "family": "launch_config", "variant": variant,
            "source": "cases/launch_config/%s.c" % case, "seconds": 0.2,
            "end": {"outcome": end, "kind": "exit", "code": 0, "verdict": verdict},
            "steps": [{"step": "launch", "name": status, "success": status == "cudaSuccess", "code": 0}],
            "repeats": 1, "flaky": False, "signatures": ["launch=%s end=%s" % (status, end)]}


def element(node, task, runs, env_id=ENV_ID, mode="default", collected="2026-11-24T10:00:0%dZ"):
    return {"schema": "cuda-error-atlas/results/1", "collected": collected % task,
            "environment": {"id": env_id, "gpu": "NVIDIA H200", "driver": "580.159.04", "cudart": "13.0",
                            "cublas": "13.1.0", "mode": mode,
                            "kernel": "6.8.%d" % task},
            "coverage": {"registered": 4, "ran": 4, "complete": True, "not_run": [], "errors": []},
            "provenance": {"slurm_job_id": str(100 + task), "slurm_array_job_id": "100", "slurm_array_task_id": str(task),
                           "node": node, "host": node + ".lab", "plan_line": "h200 run default"},
            "runs": runs}


def write(folder, name, content):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        f.write(content if isinstance(content, str) else json.dumps(content))


def merge(folder, out):
    err, outp = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(outp):
        code = fleet.main(["merge", folder, "--out", out])
    return code, outp.getvalue(), err.getvalue()


class Merge(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = os.path.join(self.tmp.name, "fleet")
        self.out = os.path.join(self.tmp.name, "merged")
        os.mkdir(self.dir)
        same = [run("block_of_1025_threads", "fixed"), run("block_of_1025_threads", "broken", status="cudaErrorInvalidValue")]
        a = same + [run("peer_read", "broken", status="cudaErrorIllegalAddress")]
        b = copy.deepcopy(same) + [run("peer_read", "broken", verdict="mismatch", status="cudaSuccess")]
        b[0]["repeats"], b[0]["signatures"] = 3, b[0]["signatures"] * 3     # repeats of one outcome: still agreement
        write(self.dir, "100_1_%s.json" % ENV_ID, element("gpu-a", 1, a))
        write(self.dir, "100_2_%s.json" % ENV_ID, element("gpu-b", 2, b))
        # another mode: a column of its own
        other = ENV_ID.replace("_default", "_launch_blocking")
        write(self.dir, "100_3_%s.json" % other, element("gpu-a", 3, copy.deepcopy(same), env_id=other, mode="launch_blocking"))
        write(self.dir, "100_4_broken.json", "{\"schema\": \"cuda-error-atlas/results/1\", \"runs\": [")
        write(self.dir, "100_5.failed", "configure failed: cmake --preset toolkit-12.4 (see 100_5.log)\n")
        self.code, self.stdout, self.stderr = merge(self.dir, self.out)

    def merged(self, env_id=ENV_ID):
        with open(os.path.join(self.out, env_id + ".json"), encoding="utf-8") as f:
            return json.load(f)

    def test_one_file_per_environment_every_machine_in_its_provenance(self):
        self.assertEqual(self.code, 0, self.stderr)
        self.assertEqual(sorted(os.listdir(self.out)),
                         sorted([ENV_ID + ".json", ENV_ID.replace("_default", "_launch_blocking") + ".json"]))
        p = self.merged()["provenance"]
        self.assertEqual(p["observed_on"], "observed on 2 machines")
        self.assertEqual([(m["node"], m["job"], m["task"]) for m in p["machines"]], [("gpu-a", "100", "1"), ("gpu-b", "100", "2")])
        self.assertEqual([m["collected"] for m in p["machines"]], ["2026-11-24T10:00:01Z", "2026-11-24T10:00:02Z"])
        self.assertEqual(p["environment_differences"], {"kernel": {"gpu-a (job 100 task 1)": "6.8.1",
                                                                   "gpu-b (job 100 task 2)": "6.8.2"}})
        self.assertIn("observed on 2 machines", self.stdout)

    def test_machines_that_agree_keep_the_run_once_with_their_count(self):
        runs = {(r["case"], r["variant"]): r for r in self.merged()["runs"]}
        self.assertEqual(len(runs), 3)
        kept = runs[("block_of_1025_threads", "broken")]
        self.assertEqual((kept["verdict"], kept["machines"], kept["repeats"]), ("match", 2, 1))
        self.assertNotIn("machine_outcomes", kept)

    def test_machines_that_disagree_make_the_run_flaky_with_both_named(self):
        run_ = [r for r in self.merged()["runs"] if r["case"] == "peer_read"][0]
        self.assertEqual(run_["verdict"], "flaky")
        self.assertTrue(run_["flaky"])
        self.assertEqual(run_["machines"], 2)
        note = run_["notes"][-1]
        self.assertIn("gpu-a (job 100 task 1) saw match (launch=cudaErrorIllegalAddress end=exit:0)", note)
        self.assertIn("gpu-b (job 100 task 2) saw mismatch (launch=cudaSuccess end=exit:0)", note)
        self.assertEqual([o["verdict"] for o in run_["machine_outcomes"]], ["match", "mismatch"])
        self.assertEqual(self.merged()["provenance"]["disagreements"], ["peer_read/broken"])
        self.assertIn("1 disagreement (flaky): peer_read/broken", self.stdout)

    def test_an_unreadable_file_and_a_failed_element_are_named_and_the_rest_merged(self):
        self.assertIn("100_4_broken.json: not JSON", self.stderr)
        self.assertIn("(not merged)", self.stderr)
        self.assertIn("failed element: %s: configure failed" % os.path.join(self.dir, "100_5.failed"), self.stderr)

    def test_the_merged_files_are_ordinary_results_files(self):
        columns, problems = load_results([self.out])
        self.assertEqual(problems, [])
        self.assertEqual(sorted(c.id for c in columns), sorted([ENV_ID, ENV_ID.replace("_default", "_launch_blocking")]))
        column = [c for c in columns if c.id == ENV_ID][0]
        self.assertFalse(column.partial)
        self.assertEqual(column.run("peer_read", "broken")["verdict"], "flaky")

    def test_nothing_to_merge_fails(self):
        empty = os.path.join(self.tmp.name, "empty")
        os.mkdir(empty)
        write(empty, "x.json", "not json")
        code, _, err = merge(empty, os.path.join(self.tmp.name, "none"))
        self.assertEqual(code, 1)
        self.assertIn("x.json: not JSON", err)
        self.assertIn("nothing could be merged", err)


class Plan(unittest.TestCase):
    def plan(self, text):
        tmp = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        self.addCleanup(os.unlink, tmp.name)
        tmp.write(text)
        tmp.close()
        return tmp.name

    def test_the_example_plan_reads(self):
        path = os.path.join(os.path.dirname(HERE), "harness", "fleet", "plan.example")
        elements = fleet.read_plan(path)
        self.assertEqual([e.error for e in elements], [None] * len(elements))
        self.assertEqual(fleet.sbatch_commands(elements, "plan.example")[0],
                         "sbatch --partition=h200 --array=1,2,3 harness/fleet/atlas.sbatch plan.example")

    def test_an_element_reads_as_shell_with_its_mode_from_the_test_preset(self):
        path = self.plan("# partition toolkit mode prebuilt\n\nh200 run   launch_blocking  build/test  # a comment\n")
        shell = fleet.element_shell(fleet.read_plan(path)[0])
        self.assertIn("plan_line='h200 run launch_blocking build/test'", shell)
        self.assertIn("plan_where=%s:3" % path, shell)
        self.assertIn("prebuilt=build/test", shell)
        self.assertIn("-uCUDA_MODULE_LOADING", shell)        # the submitter's shell does not choose the mode
        self.assertIn(" CUDA_LAUNCH_BLOCKING=1)", shell)

    def test_bad_lines_name_file_line_and_why(self):
        path = self.plan("h200 run default\nh200 no-such-preset default\nh200 run fast\nh200\n")
        errors = [e.error for e in fleet.read_plan(path)]
        self.assertIsNone(errors[0])
        self.assertIn("%s:2: toolkit 'no-such-preset' is not a configure preset" % path, errors[1])
        self.assertIn("%s:3: mode 'fast' is not one of default" % path, errors[2])
        self.assertIn("%s:4: 1 fields" % path, errors[3])


class Stamp(unittest.TestCase):
    def test_provenance_is_added_and_the_mode_checked(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "r.json")
            data = element("n", 1, [run("a", "fixed")])
            del data["provenance"]
            write(tmp, "r.json", data)
            args = ["stamp", path, "--job", "12", "--array-job", "11", "--task", "1", "--node", "n1",
                    "--plan-line", "h200 run default", "--ctest-exit", "0", "--expect-mode", "default"]
            self.assertEqual(fleet.main(args), 0)
            with open(path) as f:
                p = json.load(f)["provenance"]
            self.assertEqual((p["slurm_job_id"], p["slurm_array_job_id"], p["slurm_array_task_id"], p["node"],
                              p["plan_line"], p["ctest_exit"]), ("12", "11", "1", "n1", "h200 run default", 0))
            with contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertEqual(fleet.main(args[:-1] + ["eager_loading"]), 1)
            self.assertIn("the plan asks for mode eager_loading, the run's fingerprint says default", err.getvalue())


if __name__ == "__main__":
    unittest.main()
