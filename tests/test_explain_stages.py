"""explain's stages one by one (what each adds to the candidates), the shortcuts that keep it fast without changing
an answer, and the one reader of version numbers."""
import collections
import difflib
import glob
import os
import random
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from cuda_error_atlas import explainer as E  # noqa: E402
from cuda_error_atlas import rules, version_numbers as V  # noqa: E402
from cuda_error_atlas.dataset import open_dataset  # noqa: E402
from cuda_error_atlas import libraries  # noqa: E402
from cuda_error_atlas.results import ROOT  # noqa: E402
from cuda_error_atlas.statuses import NAME_TOKEN, read_status_table  # noqa: E402

CORPUS = None


def corpus():
    global CORPUS
    if CORPUS is None:
        CORPUS = open_dataset().corpus()
    return CORPUS


def weighed(text, *stages):
    reading = E.Reading(text, corpus(), None)
    candidates = E.Candidates()
    for stage in stages:
        stage(reading, corpus(), candidates)
    return reading, candidates


class Stages(unittest.TestCase):
    def test_reading_recognises_the_status_the_call_and_the_wrapper(self):
        reading, _ = weighed("RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle)`")
        self.assertIn("CUBLAS_STATUS_EXECUTION_FAILED", [s.name for s in reading.errors])
        self.assertIn("cublasSgemm", reading.user_calls)
        self.assertIn("PyTorch", reading.answer.wrappers)

    def test_every_status_table_belongs_to_a_library_of_the_table_and_its_names_are_read(self):
        # one table of libraries (cuda_error_atlas/libraries.py) feeds explain's names, titles and numbers: every API a
        # status table under data/status_names/ names has a row, and every name it lists is read as a name
        names = collections.defaultdict(set)
        for path in glob.glob(os.path.join(ROOT, "data", "status_names", "*.tsv")):
            if os.path.basename(path).startswith(("meanings_", "legacy_")):
                continue
            for api, _, name, _ in read_status_table(path, 4):
                names[api].add(name)
        self.assertEqual(set(names) - set(libraries.BY_API), set())
        for api, found in names.items():
            self.assertIn(libraries.BY_API[api].success, found, api)
            self.assertEqual(sorted(n for n in found if not NAME_TOKEN.fullmatch(n)), [], api)
        self.assertIsNone(NAME_TOKEN.search("cudaSuccessful cudaMalloc CUFFT_R2C ncclAllReduce CUDA_VISIBLE_DEVICES"))

    def test_cusparse_statuses_are_read_by_name(self):
        # cuSPARSE's statuses (data/status_names/cusparse-*.tsv, from cusparse.h) are named as such, with their API
        reading, _ = weighed("terminate called after throwing: CUSPARSE_STATUS_INSUFFICIENT_RESOURCES")
        named = [s for s in reading.errors if s.name == "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES"]
        self.assertTrue(named, [s.name for s in reading.errors])
        self.assertEqual(corpus().vocabulary.describe("CUSPARSE_STATUS_INSUFFICIENT_RESOURCES")["api"], "cuSPARSE")

    def test_a_status_text_less_its_closing_hint_is_the_status(self):
        # NCCL's "unhandled cuda error (run with NCCL_DEBUG=INFO for details)" is pasted without its hint (older
        # releases printed none), and read as whole words
        reading, _ = weighed("Test NCCL failure common.cu:777 'unhandled cuda error'")
        self.assertIn("ncclUnhandledCudaError", [s.name for s in reading.errors])
        reading, _ = weighed("an unhandled cuda errors list")
        self.assertNotIn("ncclUnhandledCudaError", [s.name for s in reading.errors])

    def test_a_framework_message_brings_the_status_it_wraps(self):
        reading, _ = weighed("RuntimeError: No CUDA GPUs are available")
        self.assertTrue(reading.answer.frameworks)
        self.assertTrue(any("wrapped by" in s.how for s in reading.errors), [s.how for s in reading.errors])

    def test_weigh_statuses_adds_the_cases_that_returned_the_status(self):
        _, candidates = weighed("cudaErrorIllegalAddress", E.weigh_statuses)
        self.assertIn("kernel_writes_bad_address", candidates)
        self.assertTrue(all("status" in c.parts for c in candidates.values()))
        _, none = weighed("nothing a status table knows", E.weigh_statuses)
        self.assertEqual(dict(none), {})

    def test_weigh_messages_finds_a_recorded_message(self):
        _, candidates = weighed("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
                                "multiprocessing, you must use the 'spawn' start method", E.weigh_messages)
        self.assertGreaterEqual(candidates["fork_after_cuda_init"].parts["message"], 90)

    def test_weigh_messages_decodes_cublas_parameter_numbers(self):
        reading, candidates = weighed("** On entry to SGEMM  parameter number 8 had an illegal value", E.weigh_messages)
        self.assertIsNotNone(reading.answer.parameter)
        self.assertTrue(any("lda" in name for name in candidates), sorted(candidates))

    def test_decide_confidence_names_the_cause_only_where_the_evidence_singles_it_out(self):
        stages = (E.weigh_statuses, E.weigh_messages, E.weigh_lessons, E.weigh_words, E.decide_confidence)
        _, one = weighed("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
                         "multiprocessing, you must use the 'spawn' start method", *stages)
        self.assertEqual(one["fork_after_cuda_init"].confidence, E.CAUSE)
        _, many = weighed("cudaErrorIllegalAddress", *stages)
        self.assertFalse([c.case for c in many.values() if c.confidence == E.CAUSE])

    def test_weigh_sizes_contradicts_a_request_larger_than_the_gpu(self):
        text = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity "
                "of 79.11 GiB of which 1.02 GiB is free.")
        reading, candidates = weighed(text, E.weigh_statuses, E.weigh_words)
        larger = [c for c in candidates.values() if E.ONE_REQUEST_TOO_LARGE.search(c.case)]
        self.assertTrue(larger)
        E.weigh_sizes(reading, candidates)
        self.assertTrue(all(c.parts.get("contradicted") for c in larger))

    def test_rank_and_kind(self):
        text = "cudaErrorIllegalAddress"
        reading, candidates = weighed(text, E.weigh_statuses, E.decide_confidence)
        ranked = E.rank(reading, corpus(), candidates, corpus().real_world)
        self.assertEqual([c.case for c in ranked], [c.case for c in reading.answer.candidates])
        self.assertEqual(ranked, sorted(ranked, key=lambda c: {E.CAUSE: 0, E.POSSIBLE: 1, E.RELATED: 2}[c.confidence]))
        self.assertEqual(E.answer_kind(reading.answer, ranked), "possible")
        self.assertEqual(E.answer_kind(reading.answer, []), "none")

    def test_the_stages_together_are_explain(self):
        text = "CUBLAS_STATUS_EXECUTION_FAILED when calling cublasSgemmStridedBatched"
        reading, candidates = weighed(text, E.weigh_statuses, E.weigh_messages, E.weigh_lessons, E.weigh_words,
                                      E.weigh_header_meaning, E.weigh_framework_causes, E.weigh_calls,
                                      E.decide_confidence)
        E.weigh_sizes(reading, candidates)
        E.find_documented(reading, corpus(), candidates)
        ranked = E.rank(reading, corpus(), candidates, corpus().real_world)
        answer = E.explain(text, corpus())
        self.assertEqual([c.case for c in ranked], [c.case for c in answer.candidates])


class History(unittest.TestCase):
    """A status an older toolkit gave for a mistake finds today's case (data/status_history/mistakes.tsv)."""

    def test_legacy_invalid_device_pointer_is_a_free_of_what_cudamalloc_did_not_give(self):
        # a host pointer (ArrayFire, CUDA 8) or a pointer freed already (compute-sanitizer's report of a double free)
        answer = E.explain("CUDA Error (17): invalid device pointer", corpus())
        self.assertEqual({a.key for a in answer.answers[:2]}, {"free_of_pointer_not_from_cudamalloc", "device_memory_freed_twice"})
        self.assertEqual([c.case for c in answer.candidates if c.confidence == E.CAUSE], [])
        said = " ".join(r for c in answer.candidates if c.case == "free_host_pointer" for r in c.best_reasons(3))
        self.assertIn("arrayfire/arrayfire#1635", said)
        self.assertIn("cudaErrorInvalidValue", said)          # what the runs here observed, from the runs

    def test_invalid_device_function_is_a_missing_kernel_image(self):
        for text in ("Error: invalid device function 8", "CUDA error 98: invalid device function"):
            answer = E.explain(text, corpus())
            self.assertEqual(answer.answers[0].key, "no_kernel_image_for_arch", text)
            self.assertNotEqual(answer.candidates[0].confidence, E.CAUSE)

    def test_a_status_two_mistakes_give_names_neither_the_cause(self):
        # cudaMemcpyToSymbol of a host variable returns it here; a library with no image for the GPU gave it too
        answer = E.explain("invalid device symbol in /home/x/kernels.cu at line 18", corpus())
        self.assertEqual([c.case for c in answer.candidates if c.confidence == E.CAUSE], [])
        self.assertIn("no_kernel_image_for_arch", [a.key for a in answer.answers[:3]])

    def test_every_row_names_a_known_status_and_cause(self):
        causes = set(corpus().cause_sentences)
        for row in corpus().mistake_history:
            self.assertIn(row["status"], corpus().vocabulary.by_name, row)
            self.assertIn(row["cause_key"], causes, row)
            self.assertTrue(row["source"], row)
            self.assertTrue(any(corpus().cause_of.get(n) == row["cause_key"] for n in corpus().case_names()), row)


class SignalledCauses(unittest.TestCase):
    def test_a_message_that_signals_another_cause_makes_no_case_the_cause(self):
        text = ("/pytorch/aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
                "thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.")
        answer = E.explain(text, corpus())
        self.assertTrue(answer.frameworks)
        self.assertFalse([c.case for c in answer.candidates if c.confidence == E.CAUSE])
        self.assertIn("prints this for", E.format_text(answer, corpus()))

    def test_a_catalogue_message_shows_the_documented_cause_it_signals(self):
        documented = {row["key"] for row in corpus().documented}
        entries = [e for e in corpus().frameworks if e.get("cause_key") in documented and e.get("example")]
        self.assertTrue(entries)
        for entry in entries:
            answer = E.explain(entry["example"], corpus())
            self.assertIn(entry["cause_key"], [d[2]["key"] for d in answer.documented[:3]], entry["id"])


class WhatAStatusSays(unittest.TestCase):
    """Statuses that say less than they seem to single no case out."""

    def claimed(self, text):
        return [c.case for c in E.explain(text, corpus()).candidates if c.confidence == E.CAUSE]

    def test_an_internal_error_names_no_cause_alone(self):
        self.assertEqual(self.claimed("RuntimeError: cuFFT error: CUFFT_INTERNAL_ERROR"), [])

    def test_nccl_saying_a_call_beneath_it_failed_names_no_cause_alone(self):
        # with no real report to weigh it either way: "unhandled cuda error" says only that some CUDA call NCCL made
        # failed (its WARN lines say which), so the one case that returns it is an example, not the cause
        for text in ("Test NCCL failure common.cu:777 'unhandled cuda error'",
                     "NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)"):
            answer = E.explain(text, corpus(), real_world=E.RealWorld())
            self.assertTrue(answer.candidates, text)
            self.assertEqual([c.case for c in answer.candidates if c.confidence == E.CAUSE], [], text)

    def test_an_assert_that_names_no_known_check_names_no_cause(self):
        self.assertEqual(self.claimed("RuntimeError: CUDA error: device-side assert triggered"), [])
        answer = E.explain("RuntimeError: CUDA error: device-side assert triggered", corpus())
        self.assertIn("device_side_assert", [c.case for c in answer.candidates[:3]])

    def test_a_fault_in_a_generated_kernel_names_no_case(self):
        answer = E.explain("Triton Error [CUDA]: misaligned address from inductor generated kernel", corpus())
        self.assertEqual([c.case for c in answer.candidates if c.confidence == E.CAUSE], [])
        self.assertIn("compiler generated", answer.why_not_one)

    def test_named_symbol_not_found_is_also_a_missing_architecture(self):
        answer = E.explain("Cuda failure: named symbol not found", corpus())
        self.assertIn("no_kernel_image_for_arch", [a.key for a in answer.answers[:3]])
        self.assertEqual([c.case for c in answer.candidates if c.confidence == E.CAUSE], [])


class FrameworkMessages(unittest.TestCase):
    def test_a_context_that_could_not_be_created_for_want_of_memory_is_memory_held_elsewhere(self):
        # TensorFlow's cuDevicePrimaryCtxRetain failing with out of memory: the context's creation, not one request
        answer = E.explain("E tensorflow/stream_executor/cuda/cuda_driver.cc:399] failed call to cuDevicePrimaryCtxRetain: "
                           "CUDA_ERROR_OUT_OF_MEMORY: out of memory; total memory reported: 11554717696", corpus())
        self.assertEqual(answer.answers[0].key, "gpu_memory_held_by_other_process")

    def test_what_a_framework_prints_a_message_for_is_said_only_where_it_printed_it(self):
        bare = E.format_text(E.explain("CUDA error: an illegal memory access was encountered", corpus()), corpus())
        self.assertNotIn("pytorch prints this for", bare)
        torch = E.format_text(E.explain("RuntimeError: CUDA error: an illegal memory access was encountered", corpus()),
                              corpus())
        self.assertIn("pytorch prints this for", torch)


class Documented(unittest.TestCase):
    def shown(self, text):
        return [d[2]["key"] for d in E.explain(text, corpus()).documented[:3]]

    def test_a_library_bug_is_shown_for_what_library_bugs_return(self):
        self.assertIn("library_kernel_bug", self.shown("RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when "
                                                       "calling `cublasGemmEx( handle, opa, opb, m, n, k)`"))
        self.assertIn("library_kernel_bug", self.shown("RuntimeError: CUDA error: an illegal memory access was encountered"))
        self.assertNotIn("library_kernel_bug", self.shown("CUDA error: out of memory"))

    def test_a_cudnn_version_mismatch_is_shown(self):
        self.assertIn("cudnn_version_mismatch", self.shown(
            "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7003 but linked against 7300"))

    def test_a_status_real_reports_pinned_on_unreproduced_causes_makes_no_case_the_cause(self):
        # the only case of a misaligned address leads, but real reports of the status were library bugs and the like
        # (documented, not reproduced): it is a possibility, shown beside them
        answer = E.explain("CUDA error: misaligned address", corpus())
        self.assertEqual(answer.candidates[0].case, "misaligned_access_in_kernel")
        self.assertEqual(answer.causes(), [])
        self.assertIn("library_kernel_bug", [d[2]["key"] for d in answer.documented[:3]])
        # with no real reports to say so, the only case of the status is the cause
        alone = E.explain("CUDA error: misaligned address", corpus(), real_world=E.RealWorld())
        self.assertEqual([c.case for c in alone.causes()], ["misaligned_access_in_kernel"])


class Shortcuts(unittest.TestCase):
    """What makes explain fast must not change what it answers."""

    def test_common_subsequence_is_the_longest_and_bounds_difflib(self):
        rng = random.Random(7)

        def longest(a, b):
            previous = [0] * (len(b) + 1)
            for x in a:
                row = [0]
                for j, y in enumerate(b):
                    row.append(previous[j] + 1 if x == y else max(previous[j + 1], row[j]))
                previous = row
            return previous[-1]
        for _ in range(400):
            a = "".join(rng.choice("abc d") for _ in range(rng.randint(0, 30)))
            b = "".join(rng.choice("abc d") for _ in range(rng.randint(0, 30)))
            self.assertEqual(E._common_subsequence(a, b), longest(a, b), (a, b))
            matched = sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
            self.assertLessEqual(matched, E._common_subsequence(a, b))

    def test_similar_is_difflib_where_it_reaches_the_floor(self):
        rng = random.Random(3)
        words = "cuda error out of memory illegal address kernel launch failed device the a".split()
        for _ in range(300):
            a = " ".join(rng.choice(words) for _ in range(rng.randint(3, 15)))
            b = " ".join(rng.choice(words) for _ in range(rng.randint(3, 15)))
            plain = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
            got = E._similar.__wrapped__(a, b)
            if plain >= 0.6 and difflib.SequenceMatcher(None, a, b, autojunk=False).real_quick_ratio() >= 0.3:
                self.assertGreaterEqual(got, plain - 1e-9, (a, b))
            if got:
                self.assertGreaterEqual(got, 0.6)

    def test_required_literal_is_what_every_match_starts_with(self):
        cases = {r"Found no NVIDIA driver on your system\.": "Found no NVIDIA driver on your system.",
                 r"DataLoader worker \(pid\(s\) [\d, ]+\) exited": "DataLoader worker (pid(s) ",
                 r"abc?d": "ab", r"ab+c": "ab", r"(?i)cuda": "", r"x|y": "", r"(x|y)z": "", r"\d+ bytes": ""}
        for pattern, literal in cases.items():
            self.assertEqual(E.required_literal(pattern), literal, pattern)

    def test_every_catalogue_entry_still_matches_its_example(self):
        for entry in corpus().frameworks:
            if entry.get("example"):
                self.assertIn(entry["id"], [e["id"] for e in E.framework_hits(entry["example"], corpus())], entry["id"])


class VersionNumbers(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(V.parse_version("580.159.04"), (580, 159, 4))
        for text in ("none", "?", "12.x", "", "12.", " 12.4", None):
            self.assertIsNone(V.parse_version(text), text)

    def test_order(self):
        self.assertEqual(sorted(["13.0", "12.10", "none", "12.4", "11.8"], key=V.version_key),
                         ["none", "11.8", "12.4", "12.10", "13.0"])
        self.assertEqual(sorted(["13.0", "none", "12.10"], key=V.range_key), ["12.10", "13.0", "none"])

    def test_compare_is_the_rules_grammar(self):
        self.assertEqual(V.compare_versions("12", "12.0"), 0)
        self.assertEqual(V.compare_versions("12.10", "12.9"), 1)
        self.assertIsNone(V.compare_versions("none", "12.4"))
        self.assertIs(rules.compare_versions, V.compare_versions)

    def test_a_user_version_is_a_prefix(self):
        self.assertTrue(V.starts_with("535.104.05", "535"))
        self.assertFalse(V.starts_with("5350.1", "535"))
        self.assertTrue(V.starts_with("12.4", "12.4"))
        self.assertFalse(V.starts_with("12.40", "12.4"))


if __name__ == "__main__":
    unittest.main()
