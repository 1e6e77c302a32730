"""The wheel, as a user gets it: `pip wheel .` builds it with the compiled
dataset inside; installed into a fresh virtual environment with no network
and run from a folder outside any checkout, `cuda-atlas` answers as it does
in the checkout, and the import API works."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import venv

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MESSAGE = "CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`"


class Wheel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="atlas-wheel-")
        built = subprocess.run([sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "-w", cls.work, "-q"],
                               capture_output=True, text=True, timeout=600)
        wheels = [f for f in os.listdir(cls.work) if f.endswith(".whl")]
        if built.returncode != 0 or not wheels:
            shutil.rmtree(cls.work, ignore_errors=True)
            if "No matching distribution" in built.stderr or "Could not fetch" in built.stderr \
                    or "Failed to establish" in built.stderr:
                raise unittest.SkipTest("pip cannot reach the package index for the build backend: %s"
                                        % built.stderr.strip().splitlines()[-1:])
            raise AssertionError("pip wheel failed:\n%s%s" % (built.stdout, built.stderr))
        cls.wheel = os.path.join(cls.work, wheels[0])
        cls.env = os.path.join(cls.work, "venv")
        venv.create(cls.env, with_pip=True)
        cls.python = os.path.join(cls.env, "bin", "python")
        installed = subprocess.run([cls.python, "-m", "pip", "install", "-q", "--no-index", cls.wheel],
                                   capture_output=True, text=True, timeout=300)
        assert installed.returncode == 0, installed.stderr
        cls.outside = os.path.join(cls.work, "elsewhere")
        os.makedirs(cls.outside)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def run_installed(self, *args):
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CUDA_ATLAS_DATASET")}
        return subprocess.run([os.path.join(self.env, "bin", "cuda-atlas")] + list(args), capture_output=True,
                              text=True, timeout=120, cwd=self.outside, env=env)

    def test_the_wheel_carries_the_dataset(self):
        import zipfile
        names = zipfile.ZipFile(self.wheel).namelist()
        self.assertIn("cuda_error_atlas/atlas.sqlite", names)
        self.assertTrue(any(n.startswith("cuda_error_atlas/site_assets/") for n in names))

    def test_explain_answers_as_in_the_checkout(self):
        installed = self.run_installed("explain", "--json", MESSAGE)
        self.assertEqual(installed.returncode, 0, installed.stderr)
        here = subprocess.run([sys.executable, "-m", "cuda_error_atlas", "explain", "--json", MESSAGE],
                              capture_output=True, text=True, timeout=120, cwd=ROOT)
        ours, theirs = json.loads(installed.stdout), json.loads(here.stdout)
        self.assertEqual([a["cause"] for a in ours["answers"]], [a["cause"] for a in theirs["answers"]])
        self.assertEqual([c["case"] for c in ours["cases"]], [c["case"] for c in theirs["cases"]])
        self.assertNotIn("/work/", installed.stdout.replace(ROOT, ""))

    def test_status_and_sticky_commands(self):
        status = self.run_installed("status", "700")
        self.assertEqual(status.returncode, 0, status.stderr)
        self.assertIn("cudaErrorIllegalAddress", status.stdout)
        sticky = self.run_installed("sticky", "cudaErrorIllegalAddress", "--json")
        self.assertEqual(json.loads(sticky.stdout)["context_usable"], False)

    def test_import_api(self):
        code = ("import cuda_error_atlas as a, json; print(json.dumps([a.sticky('cudaErrorIllegalAddress')['measured'], "
                "a.status(700)['name'], a.explain('CUDA error: an illegal memory access was encountered')['answers'][0]"
                "['cause'] is not None, a.sticky('cudaErrorNotYetImplemented')['measured']]))")
        done = subprocess.run([self.python, "-c", code], capture_output=True, text=True, timeout=120, cwd=self.outside)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(json.loads(done.stdout), [True, "cudaErrorIllegalAddress", True, False])


if __name__ == "__main__":
    unittest.main()
