"""The harness's tools: replay (through the one record writer), draft_rules
(conditioned on the fingerprint it drafts from) and --help on every program
and script.

    python3 harness/tests/test_tools.py --build build/test --source .
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

ARGS = None


def run(*command, **kwargs):
    return subprocess.run(list(command), capture_output=True, text=True, timeout=120, **kwargs)


def results(environment, runs):
    return {"schema": "cuda-error-atlas/results/1", "environment": environment, "runs": runs}


def tool(script, content, *extra, keep=None):
    """Runs cuda-atlas SCRIPT (draft-rules, replay) on a results file holding content (an object, or raw text) in a
    temporary folder (keep: this folder instead); "{dir}" in extra names that folder."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or tmp
        path = os.path.join(folder, "r.json")
        with open(path, "w") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        if script == "replay":
            extra = ("{dir}", "--atlas-run", os.path.join(ARGS.build, "atlas-run")) + extra
        return run(sys.executable, "-m", "cuda_error_atlas", script, path,
                   *[a.replace("{dir}", folder) for a in extra])


def mismatch_run(case="lda_smaller_than_rows", variant="broken"):
    return {"verdict": "mismatch", "case": case, "family": "blas_args", "variant": variant, "seconds": 0.1,
            "end": {"outcome": "exit:0", "code": 0, "verdict": "match", "reached_end_of_variant": True},
            "steps": [{"step": "create", "api": "cublas", "call": "cublasCreate(&h)", "code": 1,
                       "name": "CUBLAS_STATUS_NOT_INITIALIZED", "success": False, "verdict": "mismatch"},
                      {"step": "probe", "api": "cuda", "call": "cudaMalloc(&p, 256)", "code": 0,
                       "name": "cudaSuccess", "success": True, "verdict": "match"}],
            "quantities": {"bytes": {"value": 4, "unit": "B"}}, "notes": ["a\tnote"]}


class Replay(unittest.TestCase):
    def test_records_go_through_the_one_writer(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = {"id": "x", "driver": "none", "env": {"CUDA_LAUNCH_BLOCKING": "<unset>"},
                   "libraries": [{"name": "libcudart", "path": "/l/libcudart.so.13", "version": "13"}]}
            done = tool("replay", results(env, [mismatch_run()]), keep=tmp)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(os.path.join(tmp, "lda_smaller_than_rows.broken.record")) as f:
                lines = f.read().splitlines()
            self.assertEqual(lines[0], "format\tcuda-error-atlas/record/1")
            self.assertEqual(lines[1], "call\tcreate\tcublas\t1\tCUBLAS_STATUS_NOT_INITIALIZED\t0\tcublasCreate(&h)")
            self.assertEqual(lines[2], "variant_end")  # before the probe, as the case wrote it
            self.assertEqual(lines[3], "call\tprobe\tcuda\t0\tcudaSuccess\t1\tcudaMalloc(&p, 256)")
            self.assertIn("note\ta note", lines)
            with open(os.path.join(tmp, "fingerprint.txt")) as f:
                fingerprint = f.read()
            self.assertIn("env.CUDA_LAUNCH_BLOCKING=<unset>\n", fingerprint)
            self.assertIn("library.libcudart=/l/libcudart.so.13\n", fingerprint)

    def test_a_missing_runner_is_named(self):
        done = run(sys.executable, "-m", "cuda_error_atlas", "replay", "x.json", "out",
                   "--atlas-run", "/nonexistent/atlas-run")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("/nonexistent/atlas-run is not there", done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        done = run(sys.executable, "-m", "cuda_error_atlas", "replay", "/nonexistent/r.json", "out",
                   "--atlas-run", os.path.join(ARGS.build, "atlas-run"))
        self.assertIn("cannot replay /nonexistent/r.json: [Errno 2] No such file or directory", done.stderr)
        self.assertNotIn("Traceback", done.stderr)

    def test_bad_runs_are_named_and_the_rest_replayed(self):
        runs = [mismatch_run(), {"case": None, "variant": "broken", "family": "f"},
                dict(mismatch_run(variant="fixed"), steps="not a list", end={"outcome": None}), 7]
        done = tool("replay", results({"id": "x", "env": None, "libraries": "x"}, runs))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("run 2: field 'case' is None, not a name; left out", done.stderr)
        self.assertIn("run 3 (lda_smaller_than_rows/fixed): field 'steps' is 'not a list', not a list", done.stderr)
        self.assertIn("field 'end.outcome' is None, not a process end; left out", done.stderr)
        self.assertIn("run 4: not an object", done.stderr)
        self.assertIn("1 runs of", done.stdout)
        self.assertNotIn("Traceback", done.stderr)

    def test_nothing_readable_is_a_failure(self):
        for script in ("replay", "draft-rules"):
            done = tool(script, {"schema": "cuda-error-atlas/results/9", "runs": []})
            self.assertNotEqual(done.returncode, 0, script)
            self.assertIn("schema 'cuda-error-atlas/results/9' is not cuda-error-atlas/results/1", done.stderr)
            self.assertIn("nothing could be", done.stderr)
            self.assertNotIn("Traceback", done.stderr)


class DraftRules(unittest.TestCase):
    def draft(self, environment, *options):
        return tool("draft-rules", results(environment, [mismatch_run()]), *options)

    def test_a_no_driver_run_drafts_driver_none_rules(self):
        done = self.draft({"id": "no-driver_x", "driver": "none", "mode": "default"})
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("lda_smaller_than_rows  broken  create  CUBLAS_STATUS_NOT_INITIALIZED  driver=none  cite=run:", done.stdout)
        self.assertNotIn("warning", done.stderr)

    def test_a_run_mode_is_a_condition(self):
        done = self.draft({"id": "g", "driver": "580.159.04", "mode": "launch_blocking"})
        self.assertIn("  mode=launch_blocking  cite=", done.stdout)

    def test_it_warns_before_an_unconditional_rule(self):
        done = self.draft({"id": "g", "driver": "580.159.04", "mode": "default"})
        self.assertIn("warning: these rules have no condition", done.stderr)
        self.assertLess(done.stderr.index("warning"), len(done.stderr))
        done = self.draft({"id": "g", "driver": "580.159.04", "mode": "default"}, "--when", "gpu~H200")
        self.assertNotIn("warning", done.stderr)
        self.assertIn("  gpu~H200  cite=", done.stdout)
        done = self.draft({"id": "g", "driver": "580.159.04"}, "--unconditional")
        self.assertNotIn("warning", done.stderr)

    def test_a_bad_run_is_named_and_the_rest_drafted(self):
        done = tool("draft-rules", results({"driver": "none"}, [{"case": 3, "family": "f", "variant": "broken"},
                                                                   mismatch_run()]))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("r.json: run 1: field 'case' is 3, not a name; left out", done.stderr)
        self.assertIn("lda_smaller_than_rows  broken  create", done.stdout)

    def test_bad_input_is_named_without_a_traceback(self):
        done = tool("draft-rules", "{not json")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("cannot read ", done.stderr)
        self.assertIn("r.json: Expecting property name", done.stderr)
        self.assertNotIn("Traceback", done.stderr)


class Help(unittest.TestCase):
    """--help on every program and script: exit 0, a usage line, defaults named."""

    def check(self, command, words):
        done = run(*command)
        self.assertEqual(done.returncode, 0, "%s: %s" % (command, done.stderr))
        for word in words:
            self.assertIn(word, done.stdout, command)

    def test_programs(self):
        b = ARGS.build
        self.check([os.path.join(b, "atlas-run"), "--help"], ["usage: atlas-run", "(default 60)", "--budget"])
        self.check([os.path.join(b, "atlas-run"), "collect", "--help"], ["partial.json"])
        self.check([os.path.join(b, "atlas-fingerprint"), "--help"], ["usage: atlas-fingerprint"])
        self.check([os.path.join(b, "atlas-error-names"), "--help"], ["usage: atlas-error-names"])
        self.check([os.path.join(b, "atlas-context-floor"), "--help"], ["usage: atlas-context-floor"])
        self.check([os.path.join(b, "cases", "blas_args", "lda_smaller_than_rows"), "--help"], ["fixed|broken"])

    def test_scripts(self):
        s = ARGS.source
        for command, word in (("draft-rules", "--when"), ("replay", "build/run/atlas-run)"), ("explain", "--json"),
                              ("report", "build"), ("versions", "--sticky-json"), ("benchmark-explain", "--split"),
                              ("fleet", "merge")):
            self.check([sys.executable, "-m", "cuda_error_atlas", command, "--help"], [word])
        self.check([sys.executable, "-m", "cuda_error_atlas", "--help"], ["usage: cuda-atlas"])
        for script, word in (("harness/benchmark.py", "default: 8"), ("harness/run_mirrors.py", "default: 120"),
                             ("harness/tests/test_ctest_wiring.py", "--build"), ("harness/tests/test_tools.py", "--build"),
                             ("harness/tests/test_fleet.py", "--build")):
            self.check([sys.executable, os.path.join(s, script), "--help"], [word])
        self.check(["bash", os.path.join(s, "harness", "toolkit.sh"), "--help"], ["fetch VERSION"])
        self.check(["bash", os.path.join(s, ".ci", "run"), "--help"], ["cmake --workflow --preset test"])
        self.check(["bash", os.path.join(s, "harness", "fleet", "atlas.sbatch"), "--help"], ["usage: sbatch --array=1-N"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", required=True, help="a built tree (atlas-run, the cases)")
    parser.add_argument("--source", required=True, help="the source tree")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
