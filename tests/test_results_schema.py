"""data/results.schema.json against the committed results and against the one reader.

The schema describes a results file as cuda_error_atlas/results.py accepts it (docs/results-schema.md is its prose
companion). Every committed file must satisfy it; that needs the jsonschema package (a distribution packages it:
python3-jsonschema), and the test says so and skips where it is missing. That the schema is JSON and names the
reader's own required fields needs nothing but the standard library."""
import glob
import json
import os
import unittest

from cuda_error_atlas import results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = os.path.join(ROOT, "data", "results.schema.json")
FILES = sorted(glob.glob(os.path.join(ROOT, "data", "results", "**", "*.json.gz"), recursive=True)
               + glob.glob(os.path.join(ROOT, "data", "results", "**", "*.json"), recursive=True))

try:
    import jsonschema
except ImportError:                                   # the standard library has no validator
    jsonschema = None


def load_schema():
    with open(SCHEMA, encoding="utf-8") as f:
        return json.load(f)


class SchemaItself(unittest.TestCase):
    def test_is_json_and_draft_2020_12(self):
        schema = load_schema()
        self.assertEqual(schema["$schema"], "https://json-schema.org/draft/2020-12/schema")
        self.assertEqual(schema["type"], "object")

    def test_requires_what_the_reader_requires(self):
        # results.py's _Checker.file: a file without these is left out whole
        self.assertEqual(set(load_schema()["required"]), {"schema", "environment", "runs"})

    def test_knows_the_versions_the_reader_knows(self):
        known = {prefix + str(version) for prefix, versions in results.KNOWN_VERSIONS.items() for version in versions}
        self.assertEqual(set(load_schema()["properties"]["schema"]["enum"]), known)

    def test_run_fields_match_the_reader(self):
        defs = load_schema()["$defs"]
        run, pytorch_run, step = defs["run"], defs["pytorch_run"], defs["step"]
        self.assertEqual(set(run["properties"]["verdict"]["enum"]), set(results.VERDICTS))
        self.assertEqual(set(run["properties"]["variant"]["enum"]), set(results.VARIANTS))
        self.assertEqual(set(run["required"]), {"case", "variant", "verdict", "end", "steps"})
        self.assertEqual(set(pytorch_run["required"]), {"case", "variant"})
        self.assertEqual(set(step["required"]), set(results.ESSENTIAL_STEP_FIELDS))
        self.assertEqual(run["properties"]["case"]["pattern"], results.CASE_NAME.pattern)
        # every field the reader checks is described, with the types it accepts
        self.assertLessEqual(set(results.RUN_FIELDS), set(run["properties"]))
        self.assertLessEqual(set(results.PYTORCH_FIELDS), set(pytorch_run["properties"]))
        self.assertLessEqual(set(results.STEP_FIELDS), set(step["properties"]))
        self.assertLessEqual(set(results.END_FIELDS), set(run["properties"]["end"]["properties"]))
        environment = load_schema()["properties"]["environment"]["properties"]
        self.assertLessEqual(set(results.ENVIRONMENT_FIELDS), set(environment))


@unittest.skipUnless(jsonschema is not None, "jsonschema is not installed (pip install jsonschema, or python3-jsonschema)")
class CommittedFiles(unittest.TestCase):
    def test_schema_is_a_valid_schema(self):
        jsonschema.Draft202012Validator.check_schema(load_schema())

    def test_every_committed_results_file(self):
        self.assertTrue(FILES, "no results files under data/results/")
        validator = jsonschema.Draft202012Validator(load_schema())
        wrong = []
        for path in FILES:
            data = json.loads(results.read_bytes(path).decode("utf-8"))
            for error in validator.iter_errors(data):
                where = "/".join(str(p) for p in error.absolute_path)
                wrong.append("%s: %s: %s" % (os.path.relpath(path, ROOT), where or "(top)", error.message[:200]))
                if len(wrong) > 50:
                    break
        self.assertEqual(wrong, [], "\n".join(wrong))

    def test_a_wrong_file_is_refused(self):
        # the schema is not vacuous: what the reader refuses, it refuses
        validator = jsonschema.Draft202012Validator(load_schema())
        good = {"schema": "cuda-error-atlas/results/1", "environment": {"id": "x"},
                "runs": [{"case": "a_case", "variant": "broken", "verdict": "match",
                          "end": {"outcome": "exit:0", "kind": "exit"},
                          "steps": [{"step": "s", "name": "cudaSuccess", "success": True}]}]}
        self.assertEqual(list(validator.iter_errors(good)), [])
        for change in (lambda d: d.update(schema="cuda-error-atlas/results/2"),
                       lambda d: d.pop("runs"),
                       lambda d: d["runs"][0].update(verdict="passed"),
                       lambda d: d["runs"][0].update(case="../etc"),
                       lambda d: d["runs"][0]["steps"][0].update(success="yes"),
                       lambda d: d["runs"][0]["end"].pop("kind"),
                       lambda d: d["environment"].update(gpu=7)):
            bad = json.loads(json.dumps(good))
            change(bad)
            self.assertTrue(list(validator.iter_errors(bad)), bad)
        # and the reader refuses or flags the same
        ok, problems = results.read_results_file("x.json", reader=lambda _: json.dumps(good).encode())
        self.assertIsNotNone(ok)
        self.assertEqual(problems, [])


if __name__ == "__main__":
    unittest.main()
