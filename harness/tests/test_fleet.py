"""The fleet on a real Slurm (issue 23): MUNGE, a controller and a node daemon
started here on localhost from a configuration generated into a temporary
folder; a job array of harness/fleet/atlas.sbatch whose elements run the
corpus (the no-driver columns: default mode and eager loading, the case
programs of --build reused, the run itself real) and a third element whose
plan line names another partition, which must fail alone; then fleet merge.
Every daemon it started is stopped by its PID, also when the test fails.
Skips (77) with the reason where Slurm or MUNGE is not installed (.ci/run
installs them: slurmctld slurmd slurm-client munge) or does not start.

    python3 harness/tests/test_fleet.py --build build/test --source .
"""
import argparse
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

SKIP = 77
ARGS = None
CLUSTER = None
PARTITION = "atlas"
PROGRAMS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scancel")


class Unavailable(Exception):
    """Slurm cannot be brought up here, and why."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, lines=25):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError as error:
        return "(%s)" % error


class Cluster:
    """A one-node Slurm cluster on localhost, in a folder of its own."""

    def __init__(self, folder):
        self.dir = folder
        self.daemons = []       # (name, Popen, its output file)
        self.jobs = []
        self.env = dict(os.environ, SLURM_CONF=os.path.join(folder, "slurm.conf"))

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def start_daemon(self, name, command):
        out = self.path(name + ".out")
        with open(out, "w") as f:
            process = subprocess.Popen(command, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       env=self.env, start_new_session=True)
        self.daemons.append((name, process, out))
        return process

    def wait_for(self, what, ready, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if ready():
                return
            for name, process, out in self.daemons:
                if process.poll() is not None:
                    raise Unavailable("%s exited (%s) before %s:\n%s" % (name, process.returncode, what, tail(out)))
            time.sleep(0.25)
        raise Unavailable("%s not within %d s:\n%s" % (what, seconds, "\n".join(
            "%s: %s" % (name, tail(out, 8)) for name, _, out in self.daemons)))

    def start(self):
        # MUNGE is strict about its files: the socket's folder must be reachable by all and writable by none
        # but its owner; the key readable by its owner alone.
        os.chmod(self.dir, 0o755)
        os.mkdir(self.path("key"), 0o700)
        for name in ("state", "spool"):
            os.mkdir(self.path(name), 0o755)
        key = self.path("key", "munge.key")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as f:
            f.write(os.urandom(1024))
        sock = self.path("munge.socket")
        self.start_daemon("munged", ["munged", "--foreground", "--key-file=" + key, "--socket=" + sock,
                                     "--pid-file=" + self.path("munged.pid"), "--log-file=" + self.path("munged.log"),
                                     "--seed-file=" + self.path("munged.seed")])
        self.wait_for("MUNGE's socket appeared", lambda: os.path.exists(sock), 15)
        user = pwd.getpwuid(os.getuid()).pw_name
        cpus = len(os.sched_getaffinity(0))
        conf = {
            "ClusterName": "atlas-fleet-test", "SlurmctldHost": "localhost(127.0.0.1)",
            "SlurmctldPort": free_port(), "SlurmdPort": free_port(), "SlurmUser": user, "SlurmdUser": user,
            "AuthType": "auth/munge", "CredType": "cred/munge", "AuthInfo": "socket=" + sock,
            "StateSaveLocation": self.path("state"), "SlurmdSpoolDir": self.path("spool"),
            "SlurmctldPidFile": self.path("slurmctld.pid"), "SlurmdPidFile": self.path("slurmd.pid"),
            "SlurmctldLogFile": self.path("slurmctld.log"), "SlurmdLogFile": self.path("slurmd.log"),
            # no systemd, no cgroups: processes tracked by their parentage, tasks not confined
            "ProctrackType": "proctrack/linuxproc", "TaskPlugin": "task/none",
            "SelectType": "select/cons_tres", "SelectTypeParameters": "CR_CPU",
            "JobAcctGatherType": "jobacct_gather/none", "AccountingStorageType": "accounting_storage/none",
            "JobCompType": "jobcomp/none", "MpiDefault": "none", "ReturnToService": 2,
            "NodeName": "localhost NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN" % cpus,
            "PartitionName": "%s Nodes=localhost Default=YES MaxTime=INFINITE State=UP" % PARTITION,
        }
        with open(self.env["SLURM_CONF"], "w") as f:
            f.writelines("%s=%s\n" % item for item in conf.items())
        self.start_daemon("slurmctld", ["slurmctld", "-D", "-f", self.env["SLURM_CONF"]])
        self.start_daemon("slurmd", ["slurmd", "-D", "-f", self.env["SLURM_CONF"], "-N", "localhost"])

        def idle():
            done = self.client("sinfo", "-h", "-n", "localhost", "-o", "%T")
            return done.returncode == 0 and done.stdout.strip() == "idle"
        self.wait_for("the node was idle", idle, 60)
        # A cluster that is up but cannot run a job (a container that forbids what slurmd does) is this
        # machine's limit, not the fleet's: found with a trivial job first.
        probe = self.path("probe.out")
        done = self.client("sbatch", "--parsable", "--output=" + probe, "--wrap", "echo ran")
        if done.returncode != 0:
            raise Unavailable("sbatch of a trivial job failed: %s" % done.stderr.strip())
        self.wait_for("a trivial job ran", lambda: "ran" in tail(probe), 60)

    def client(self, *command, timeout=30):
        return subprocess.run(list(command), capture_output=True, text=True, env=self.env, timeout=timeout)

    def submit(self, *args, env=None, cwd=None):
        done = subprocess.run(["sbatch", "--parsable"] + list(args), capture_output=True, text=True,
                              env=dict(self.env, **(env or {})), cwd=cwd, timeout=30)
        if done.returncode != 0:
            raise AssertionError("sbatch failed (%d): %s" % (done.returncode, done.stderr))
        job = done.stdout.strip().split(";")[0]
        self.jobs.append(job)
        return job

    def wait_job(self, job, seconds):
        """True when no element of the job is queued or running any more."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            done = self.client("squeue", "-h", "-j", job, "-o", "%i %T")
            if done.returncode == 0 and not done.stdout.strip():
                return True
            time.sleep(2)
        return False

    def stop(self):
        """Cancels what it submitted, then stops each daemon it started, by PID, newest first."""
        for job in self.jobs:
            try:
                self.client("scancel", job)
                self.wait_job(job, 20)
            except (OSError, subprocess.SubprocessError):
                pass
        for name, process, _ in reversed(self.daemons):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)


class Fleet(unittest.TestCase):
    """One array of three elements, submitted once; each test reads what it left."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="atlas-fleet-")
        cls.out = os.path.join(cls.tmp, "results")
        cls.merged = os.path.join(cls.tmp, "merged")
        cls.plan = os.path.join(cls.tmp, "plan.txt")
        build = os.path.abspath(ARGS.build)
        with open(cls.plan, "w") as f:
            f.write("# partition  toolkit  mode  prebuilt\n"
                    "%s run default %s\n%s run eager_loading %s\nelsewhere run default %s\n"
                    % (PARTITION, build, PARTITION, build, build))
        started = time.monotonic()
        cls.job = CLUSTER.submit("--array=1-3", "--partition=" + PARTITION,
                                 "--output=" + os.path.join(cls.tmp, "slurm-%A_%a.out"),
                                 "harness/fleet/atlas.sbatch", cls.plan, cls.out,
                                 env={"ATLAS_FLEET_BUILDS": os.path.join(cls.tmp, "builds")}, cwd=ARGS.source)
        bound = int(os.environ.get("ATLAS_FLEET_WAIT", "240"))
        cls.finished = CLUSTER.wait_job(cls.job, bound)
        cls.seconds = time.monotonic() - started
        print("fleet test: the array ran in %.0f s" % cls.seconds, file=sys.stderr)
        cls.merge = subprocess.run([sys.executable, "-m", "cuda_error_atlas", "fleet", "merge", cls.out,
                                    "--out", cls.merged], capture_output=True, text=True, cwd=ARGS.source, timeout=120)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def diagnostics(self):
        logs = sorted(glob.glob(os.path.join(self.out, "*.log")) + glob.glob(os.path.join(self.tmp, "slurm-*.out")))
        return "\n".join(["%s:\n%s" % (p, tail(p)) for p in logs] + [
            "slurmctld.log:\n" + tail(CLUSTER.path("slurmctld.log")), "slurmd.log:\n" + tail(CLUSTER.path("slurmd.log"))])

    def element(self, task):
        found = glob.glob(os.path.join(self.out, "%s_%d_*.json" % (self.job, task)))
        self.assertEqual(len(found), 1, "element %d: %s\n%s" % (task, found, self.diagnostics()))
        with open(found[0]) as f:
            return json.load(f)

    def test_the_array_finished_within_its_bound(self):
        self.assertTrue(self.finished, "the array was still queued or running:\n" + self.diagnostics())

    def test_each_element_wrote_its_column_and_log_with_its_provenance(self):
        for task, mode in ((1, "default"), (2, "eager_loading")):
            data = self.element(task)
            self.assertEqual(data["environment"]["mode"], mode)
            self.assertEqual(data["environment"]["driver"], "none")
            self.assertFalse(os.path.exists(os.path.join(self.out, "%s_%d.failed" % (self.job, task))),
                             self.diagnostics())
            p = data["provenance"]
            self.assertEqual((p["slurm_array_job_id"], p["slurm_array_task_id"], p["node"], p["partition"]),
                             (self.job, str(task), "localhost", PARTITION))
            self.assertEqual(p["plan"], "%s:%d" % (self.plan, task + 1))
            self.assertTrue(p["plan_line"].startswith("%s run %s " % (PARTITION, mode)), p["plan_line"])
            self.assertEqual(p["host"], socket.gethostname())
            self.assertIn("slurm_job_id", p)
            self.assertTrue(os.path.exists(os.path.join(self.out, "%s_%d.log" % (self.job, task))))

    def test_an_element_that_fails_fails_alone_with_its_reason(self):
        with open(os.path.join(self.out, "%s_3.failed" % self.job)) as f:
            reason = f.read()
        self.assertIn("asks for partition elsewhere, but this array runs in %s" % PARTITION, reason)
        self.assertEqual(glob.glob(os.path.join(self.out, "%s_3_*.json" % self.job)), [])

    def test_the_merge_has_both_columns_with_their_provenance_and_the_reader_loads_them(self):
        sys.path.insert(0, os.path.abspath(ARGS.source))
        from cuda_error_atlas.results import load_results
        self.assertEqual(self.merge.returncode, 0, self.merge.stderr + self.diagnostics())
        self.assertIn("%s_3.failed: %s:4 asks for partition elsewhere" % (self.job, self.plan), self.merge.stderr)
        columns, problems = load_results([self.merged])
        self.assertEqual(problems, [])
        self.assertEqual(sorted(c.environment["mode"] for c in columns), ["default", "eager_loading"])
        for column in columns:
            task = 1 if column.environment["mode"] == "default" else 2
            self.assertEqual(column.id, column.environment["id"])        # named by its environment: a column
            p = column.data["provenance"]
            self.assertEqual(p["observed_on"], "observed on 1 machine")
            self.assertEqual([(m["node"], m["job"], m["task"]) for m in p["machines"]],
                             [("localhost", self.job, str(task))])
            self.assertEqual(len(column.runs), column.coverage["ran"])
            self.assertTrue(all(r["machines"] == 1 for r in column.runs))


def missing():
    """Why Slurm cannot run here, or None."""
    absent = [p for p in PROGRAMS if not shutil.which(p)]
    if absent:
        return "not installed: %s (Debian: apt-get install slurmctld slurmd slurm-client munge)" % ", ".join(absent)
    if not os.path.exists(os.path.join(ARGS.build, "atlas-fingerprint")):
        return "no built tree at %s to reuse" % ARGS.build
    return None


def main():
    global ARGS, CLUSTER
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", required=True, help="a built tree whose case programs the elements run")
    parser.add_argument("--source", required=True, help="the source tree (the checkout the jobs run in)")
    ARGS, rest = parser.parse_known_args()
    ARGS.source = os.path.abspath(ARGS.source)
    reason = missing()
    if reason:
        print("skipped: %s" % reason)
        return SKIP
    CLUSTER = Cluster(tempfile.mkdtemp(prefix="atlas-slurm-"))
    try:
        started = time.monotonic()
        try:
            CLUSTER.start()
        except (Unavailable, OSError, subprocess.SubprocessError) as error:
            print("skipped: Slurm did not start here: %s" % error)
            return SKIP
        print("fleet test: MUNGE, slurmctld and slurmd up in %.1f s" % (time.monotonic() - started), file=sys.stderr)
        result = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2).result
        return 0 if result.wasSuccessful() else 1
    finally:
        CLUSTER.stop()
        shutil.rmtree(CLUSTER.dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
