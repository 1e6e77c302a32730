"""explain: recognition of what people paste, ranking by cause, honesty, the
command line — on the committed corpus, and on a small tree made here for
what the committed one cannot show (a case with rules but no results, a
documented-only cause)."""
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from cuda_error_atlas import report as atlas  # noqa: E402
from cuda_error_atlas import benchmark_explain  # noqa: E402
from cuda_error_atlas import explainer as explain  # noqa: E402
from cuda_error_atlas.results import ROOT, default_results_paths  # noqa: E402
from cuda_error_atlas.explainer import CAUSE, Corpus  # noqa: E402
from cuda_error_atlas.statuses import recognise, wrappers  # noqa: E402
from cuda_error_atlas import statuses as explain_status  # noqa: E402

CORPUS = None


def corpus():
    global CORPUS
    if CORPUS is None:
        CORPUS = Corpus(ROOT, default_results_paths(ROOT))
    return CORPUS


def run_main(argv, stdin=None):
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = io.StringIO(stdin)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = explain.main(argv)
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


class Recognition(unittest.TestCase):
    """Every way a status is written, and what printed it."""

    def names(self, text):
        return [(s.name, s.role) for s in recognise(text, corpus().vocabulary)]

    def errors(self, text):
        return [s.name for s in recognise(text, corpus().vocabulary) if s.role == "error"]

    def test_each_wrapper_format(self):
        forms = [
            # (text in the form the wrapper prints it, wrapper, the status it stands for)
            ("RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be "
             "asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
             "PyTorch", "cudaErrorIllegalAddress"),
            ("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
             "PyTorch", "CUBLAS_STATUS_ALLOC_FAILED"),
            ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.19 GiB",
             "PyTorch", "cudaErrorMemoryAllocation"),
            ("E tensorflow/stream_executor/cuda/cuda_driver.cc:328] failed call to cuInit: CUDA_ERROR_NO_DEVICE: "
             "no CUDA-capable device is detected", "TensorFlow", "CUDA_ERROR_NO_DEVICE"),
            ("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4770354232 bytes.",
             "JAX/XLA", "cudaErrorMemoryAllocation"),
            ("cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorInsufficientDriver: CUDA driver version is "
             "insufficient for CUDA runtime version", "CuPy", "cudaErrorInsufficientDriver"),
            ("numba.cuda.cudadrv.driver.CudaAPIError: [700] Call to cuMemcpyDtoH results in UNKNOWN_CUDA_ERROR",
             "numba", "CUDA_ERROR_ILLEGAL_ADDRESS"),
            ("RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered", "Triton", "cudaErrorIllegalAddress"),
            ("[01/13/2023-16:35:26] [TRT] [E] 1: [cudaResources.cpp::~ScopedCudaEvent::24] Error Code 1: Cuda Runtime "
             "(an illegal memory access was encountered)", "TensorRT", "cudaErrorIllegalAddress"),
            ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, "
             "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1",
             "NCCL/ProcessGroup", "ncclUnhandledCudaError"),
            ('CUDA error at kernel.cu:596 code=700(cudaErrorIllegalAddress) "cudaDeviceSynchronize()"',
             "check macro", "cudaErrorIllegalAddress"),
            ("GPUassert: too many resources requested for launch kernel.cu 42", "check macro", "cudaErrorLaunchOutOfResources"),
            ('========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API '
             'call to cudaDeviceSynchronize.', "compute-sanitizer", "cudaErrorLaunchFailure"),
            ("========= Invalid __global__ write of size 4 bytes\n=========     at kernel(int*)+0x70",
             "compute-sanitizer", "cudaErrorIllegalAddress"),
            ("terminate called after throwing an instance of 'thrust::system::system_error'\n  what():  parallel_for failed: "
             "cudaErrorInvalidDeviceFunction: invalid device function", "Thrust/CUB", "cudaErrorInvalidDeviceFunction"),
            ("F0323 caffe/src/caffe/util/math_functions.cu:28] Check failed: error == cudaSuccess (2 vs. 0)  out of memory",
             "check macro", "cudaErrorMemoryAllocation"),
            ("ggml-cuda.cu:3211: ERROR: CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA arch 520.",
             "check macro", "cudaErrorNoKernelImageForDevice"),
            ("UserWarning: NVIDIA RTX A6000 with CUDA capability sm_86 is not compatible with the current PyTorch installation.",
             "PyTorch", "cudaErrorNoKernelImageForDevice"),
        ]
        for text, wrapper, status in forms:
            with self.subTest(wrapper=wrapper, text=text[:60]):
                if wrapper != "check macro" or wrappers(text):
                    self.assertIn(wrapper, wrappers(text) or ["check macro"])
                found = recognise(text, corpus().vocabulary)
                errors = [s for s in found if s.role == "error"]
                self.assertTrue(errors, "nothing recognised in %r" % text)
                self.assertIn(status, errors[0].same_as)

    def test_driver_and_runtime_names_of_one_number(self):
        found = recognise("CUDA_ERROR_OUT_OF_MEMORY: out of memory", corpus().vocabulary)
        self.assertEqual([s.name for s in found], ["CUDA_ERROR_OUT_OF_MEMORY"])    # its text is the same error
        self.assertIn("cudaErrorMemoryAllocation", found[0].same_as)

    def test_library_statuses_by_name_and_text(self):
        self.assertEqual(self.errors("Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR"), ["CUDNN_STATUS_INTERNAL_ERROR"])
        self.assertEqual(self.errors("CUSOLVER_STATUS_ALLOC_FAILED"), ["CUSOLVER_STATUS_ALLOC_FAILED"])
        self.assertEqual(self.errors("cufft error: CUFFT_ALLOC_FAILED"), ["CUFFT_ALLOC_FAILED"])
        self.assertEqual(self.errors("NCCL WARN ... remote process exited or there was a network error"), ["ncclRemoteError"])

    def test_numbers_alone_and_embedded(self):
        self.assertEqual(self.errors("700"), ["cudaErrorIllegalAddress"])
        self.assertIn("CUBLAS_STATUS_EXECUTION_FAILED", self.errors("cublas returned status 13"))
        self.assertEqual(self.errors("Cuda failure: 222 at foo.cu:10")[:1], ["cudaErrorUnsupportedPtxVersion"])
        self.assertEqual(self.errors("ERROR: CUDA error = 803 at main.cu:12")[:1], ["cudaErrorSystemDriverMismatch"])

    def test_legacy_numbering_names_its_era(self):
        # helper_cuda.h prints the number with the name: the name decides, the number dates the log
        [status] = recognise('CUDA error at a.cu:9 code=4(cudaErrorLaunchFailure) "cudaDeviceSynchronize()"', corpus().vocabulary)
        self.assertEqual(status.name, "cudaErrorLaunchFailure")
        self.assertIn("before CUDA 10.1", status.era)
        [status] = recognise('CUDA error at a.cu:9 code=719(cudaErrorLaunchFailure) "x"', corpus().vocabulary)
        self.assertIsNone(status.era)
        # PyTorch 0.4's THC printed the old number in parentheses
        [status] = recognise("RuntimeError: cuda runtime error (30) : unknown error at THCGeneral.cpp:51", corpus().vocabulary)
        self.assertEqual(status.name, "cudaErrorUnknown")
        self.assertIn("30 then, 999 now", status.era)
        # a bare old number: every reading, each with its era
        found = {s.name: s for s in recognise("error 11", corpus().vocabulary)}
        self.assertIn("cudaErrorInvalidValue", found)          # 11 before CUDA 10.1 (1 now)
        self.assertIn("CUDA 10.0 or older", found["cudaErrorInvalidValue"].era)
        self.assertIn("CUBLAS_STATUS_MAPPING_ERROR", found)   # 11 in cuBLAS, any era
        self.assertIsNone(found["CUBLAS_STATUS_MAPPING_ERROR"].era)

    def test_statuses_some_runtimes_lack_are_dated(self):
        vocabulary = corpus().vocabulary
        self.assertEqual(vocabulary.era_of("cudaErrorIllegalAddress"), "")                     # every runtime has it
        self.assertIn("CUDA 13.0 or newer", vocabulary.era_of("cudaErrorTensorMemoryLeak"))     # new in 13.0
        self.assertIn("CUDA 12.4 or older", vocabulary.era_of("cudaErrorApiFailureBase"))       # gone in 13.0
        self.assertIn("era:", explain.format_text(explain.explain("error 225", corpus()), corpus()))

    def test_a_status_named_only_in_the_failed_check_is_not_the_error(self):
        self.assertEqual(self.names("Assertion `err == cudaSuccess' failed."), [("cudaSuccess", "check")])
        self.assertEqual(self.names("Check failed: error == cudaSuccess (2 vs. 0) out of memory"),
                         [("cudaErrorMemoryAllocation", "error"), ("cudaSuccess", "check")])
        self.assertEqual(self.names("assert(status == CUBLAS_STATUS_SUCCESS && cudaStatus != cudaErrorNotReady)")[0][1], "check")
        # the API in the check is context, not a status; the error is the text after it
        found = recognise("CUDA_CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice)) failed: an illegal memory access was encountered",
                          corpus().vocabulary)
        self.assertEqual([s.name for s in found], ["cudaErrorIllegalAddress"])


    def test_rust_variants_and_a_trailing_status_number(self):
        # cust / RustaCUDA print the driver API's status in CamelCase
        self.assertEqual(self.errors("CudaError::OutOfMemory"), ["CUDA_ERROR_OUT_OF_MEMORY"])
        self.assertEqual(self.errors("Err(CudaError::InvalidValue)"), ["CUDA_ERROR_INVALID_VALUE"])
        # TensorFlow: "failed to create cuFFT batched plan:2" — cuFFT's status 2 first
        self.assertEqual(self.errors("failed to create cuFFT batched plan:2")[0], "CUFFT_ALLOC_FAILED")
        # a line number after a file name, or after "line:", is not a status
        self.assertEqual(self.errors("error at kernel.cu:700"), [])
        self.assertEqual(self.errors("Error: line:30"), [])

    def test_accelerator_error_is_pytorch(self):
        self.assertIn("PyTorch", wrappers("torch.AcceleratorError: CUDA error: invalid device ordinal"))
        self.assertIn("PyTorch", wrappers("AcceleratorError: CUDA error: invalid device ordinal"))


class CallNames(unittest.TestCase):
    def test_a_driver_call_named_in_words(self):
        # numba: "Call to cuLinkComplete results in CUDA_ERROR_UNKNOWN" names the linker's call without parentheses
        self.assertEqual(explain_status.calls("LinkerError: [999] Call to cuLinkComplete results in CUDA_ERROR_UNKNOWN"),
                         ["cuLinkComplete"])

    def test_the_function_a_recorded_member_call_names(self):
        # driver entry points kept in a struct named after their functions
        self.assertEqual(explain._called("cu.cuLinkComplete(link, &cubin, &size)"), "cuLinkComplete")
        self.assertEqual(explain._called("g->fn.cuCtxEnablePeerAccess(ctx[1], 0)"), "cuCtxEnablePeerAccess")
        self.assertEqual(explain._called("cublasSgemm(handle, CUBLAS_OP_N)"), "cublasSgemm")


class Ranking(unittest.TestCase):
    def answer(self, text, **wanted):
        return explain.explain(text, corpus(), wanted)

    def test_the_words_name_the_kind_of_call(self):
        # every capture case returns the status: the call the user names (in words, or .item()) separates them
        allocation = self.answer("RMM allocation during CUDA graph capture (cudaErrorStreamCaptureUnsupported)")
        self.assertEqual(allocation.candidates[0].case, "malloc_during_capture")
        item = self.answer("RuntimeError: CUDA error: operation not permitted when stream is capturing\n"
                           "    loss_value = loss.item()")
        self.assertTrue(all("sync" in c.case for c in item.candidates[:2]), [c.case for c in item.candidates[:3]])
        self.assertNotEqual(item.kind, "cause")           # no case is singled out: they remain possible causes

    def test_a_report_the_lesson_quotes_but_the_gpu_runs_never_returned_is_documentation(self):
        # int8_gemm_dims_not_multiple_of_4 quotes CTranslate2's NOT_SUPPORTED (sm_120); on the H200 it succeeds
        answer = self.answer("RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED")
        by_case = {c.case: c for c in answer.candidates}
        quoted = by_case["int8_gemm_dims_not_multiple_of_4"]
        self.assertTrue(quoted.documents_only)
        self.assertEqual(quoted.confidence, explain.RELATED)
        self.assertTrue(any("documented, not reproduced" in r for _, r in quoted.reasons), quoted.reasons)
        self.assertEqual(by_case["int8_times_fp32_gemmex"].confidence, explain.POSSIBLE)   # its runs return it
        ranked = [c.case for c in answer.candidates]
        self.assertLess(ranked.index("int8_times_fp32_gemmex"), ranked.index("int8_gemm_dims_not_multiple_of_4"))
        # the documented cause of that report is shown as documented
        self.assertIn("int8_gemm_dims_not_multiple_of_4_on_sm120", [d[2]["key"] for d in answer.documented])

    def test_a_plainer_case_before_one_with_an_unstated_condition(self):
        # malloc_in_another_thread_during_capture is malloc_during_capture and a second thread; the text names no thread
        answer = self.answer("cudaMalloc(256 bytes) failed: operation not permitted when stream is capturing")
        ranked = [c.case for c in answer.candidates]
        self.assertLess(ranked.index("malloc_during_capture"), ranked.index("malloc_in_another_thread_during_capture"))
        threaded = self.answer("cudaMalloc from another thread failed: operation not permitted when stream is capturing")
        self.assertEqual(threaded.candidates[0].case, "malloc_in_another_thread_during_capture")

    def test_what_a_tool_reports_is_weighed_for_the_tool(self):
        # grid_rounded_up_without_bound_check fails only under compute-sanitizer (cudaErrorLaunchFailure there)
        plain = self.answer("RuntimeError: CUDA error: unspecified launch failure")
        tool = self.answer("========= Invalid __global__ write of size 4 bytes\n========= Program hit cudaErrorLaunchFailure "
                           "(error 719) due to \"unspecified launch failure\" on CUDA API call to cudaDeviceSynchronize.")
        def score(answer, case):
            return next((c.score for c in answer.candidates if c.case == case), 0)
        self.assertGreater(score(tool, "grid_rounded_up_without_bound_check") - score(tool, "kernel_writes_bad_address"),
                           score(plain, "grid_rounded_up_without_bound_check") - score(plain, "kernel_writes_bad_address"))

    def test_pytorch_says_something_else_for_some_mistakes(self):
        # PyTorch refuses to capture on the legacy stream with its own message: for PyTorch's "operation not
        # permitted", that case ranks below those whose PyTorch message is this one
        answer = self.answer("RuntimeError: CUDA error: operation not permitted when stream is capturing")
        legacy = next(c for c in answer.candidates if c.case == "capture_legacy_default_stream")
        self.assertIn("unlike_pytorch", legacy.parts)
        self.assertGreater(answer.candidates[0].score, legacy.score)

    def test_every_recorded_pytorch_message_finds_its_case(self):
        recorded = [(run["case"], run["message"]) for r in corpus().results if r.kind == "pytorch" for run in r.runs
                    if run["variant"] == "broken" and run.get("message")]
        self.assertGreaterEqual(len(recorded), 20)
        for case, message in recorded:
            with self.subTest(case=case):
                line = message.splitlines()[0]
                answer = self.answer(line)
                rest = explain._normalize(explain.context_text(line, answer.statuses, answer.calls, corpus().vocabulary))
                if len(rest) >= 12:
                    # it says more than its status ("CUDA error: " and the status's text say no more): the message is weighed
                    self.assertIn(case, [c.case for c in answer.candidates if c.parts.get("message", 0) >= 80])
                if any(c.message_exact for c in answer.candidates):
                    # it says more than its status: it singles out its case (two mirrors may record the same
                    # message, a CPU operand: each is right)
                    self.assertIn(case, [c.case for c in answer.candidates if c.message_exact])
                    self.assertIn(case, [c.case for c in answer.candidates[:3]])
                else:
                    # "CUDA error: out of memory" says only the status: its case is the cause only where no other
                    # case returns that status, else a possible cause among those that do
                    top = [c.case for c in answer.candidates[:3]]
                    self.assertTrue(case in top or answer.kind == "possible", (case, answer.kind, top))

    def test_cublas_parameter_lines(self):
        # four cases print this very line (recorded); their lessons quote it, so none is ranked above the others
        answer = self.answer(" ** On entry to SGEMM  parameter number 8 had an illegal value")
        self.assertEqual(sorted(answer.ties), ["lda_checked_when_k_is_zero", "lda_smaller_than_rows",
                                               "lda_too_small_for_transposed_a", "matmul_after_permute_rejected"])
        self.assertIn(answer.candidates[0].case, answer.ties)
        self.assertEqual(self.answer("On entry to SGEMM parameter number 3 had an illegal value").candidates[0].case,
                         "negative_dimension")

    def test_same_status_at_the_same_kind_of_call(self):
        answer = self.answer("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`")
        self.assertEqual(answer.kind, "cause")
        self.assertEqual(answer.candidates[0].case, "cublas_create_when_memory_full")
        answer = self.answer("too many resources requested for launch")
        self.assertEqual(answer.candidates[0].case, "too_many_registers_for_block")
        self.assertEqual(answer.candidates[0].confidence, CAUSE)       # the only case that returns it

    def test_words_two_causes_print_single_neither_out(self):
        # NVRTC prints the same log for an architecture its release dropped and one newer than it knows (both runs
        # recorded it): words another cause's case recorded, or only quotes, single neither case out
        answer = self.answer("RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)")
        self.assertFalse(answer.causes())
        self.assertEqual({c.case for c in answer.candidates[:2]}, {"nvrtc_older_than_the_gpu", "nvrtc_arch_older_than_it_supports"})

    def test_sizes_of_an_out_of_memory_message_narrow_the_cause(self):
        too_big = self.answer("RuntimeError: CUDA out of memory. Tried to allocate 120.00 GiB (GPU 0; 79.35 GiB total "
                              "capacity; 1.50 GiB already allocated; 77.19 GiB free; 1.60 GiB reserved in total by PyTorch)")
        self.assertIn("one request larger than the whole GPU", too_big.memory[1])
        self.assertEqual((too_big.candidates[0].case, too_big.candidates[0].confidence), ("malloc_larger_than_gpu", CAUSE))
        elsewhere = self.answer("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
                                "capacity of 79.19 GiB of which 5.06 MiB is free. Of the allocated memory 2.50 GiB is "
                                "allocated by PyTorch, and 150.00 MiB is reserved by PyTorch but unallocated.")
        self.assertEqual(elsewhere.memory[0]["free"], 5.06 * (1 << 20))
        self.assertEqual(elsewhere.candidates[0].case, "create_when_another_process_holds_memory")
        self.assertIsNone(self.answer("CUDA error: out of memory").memory)

    def test_a_status_nothing_returns_here_finds_the_mistake_by_its_history_and_header_meaning(self):
        # no run here returns "invalid device function": older toolkits (and some builds) gave it for a missing kernel
        # image (data/status_history/mistakes.tsv), and the header says "not compiled for the proper device
        # architecture"; a possible cause, not the cause
        answer = self.answer("what():  extrema failed on 1st step: invalid device function")
        self.assertEqual(answer.kind, "possible")
        self.assertEqual(answer.candidates[0].case, "no_code_for_this_gpu")
        self.assertEqual(answer.candidates[0].confidence, "possible")
        reasons = " ".join(answer.candidates[0].best_reasons(3))
        self.assertIn("header says cudaErrorInvalidDeviceFunction means", reasons)
        self.assertIn("niuzhiheng/caffe#1", reasons)

    def test_fuzzy_match_must_agree_on_the_status(self):
        # the mirror recorded ALLOC_FAILED at cublasCreate: the same words with another status are not that message
        answer = self.answer("RuntimeError: CUDA error: CUBLAS_STATUS_LICENSE_ERROR when calling `cublasCreate(handle)`")
        self.assertFalse([c for c in answer.candidates if c.message_exact or c.parts.get("message")])

    def test_ties_are_said(self):
        answer = self.answer("700")
        self.assertEqual(answer.kind, "possible")
        self.assertGreaterEqual(len(answer.ties), 2)
        text = explain.format_text(answer, corpus())
        self.assertIn("equally likely", text)
        # and ranking within a tie is by real reports, then by evidence, not by name: of two cases as many real reports
        # had, on the same score, the one seen in more environments first
        tied = [c for c in answer.candidates if c.case in answer.ties]
        self.assertEqual([c.real_world for c in tied], sorted((c.real_world for c in tied), reverse=True))
        alike = [(a, b) for a, b in zip(tied, tied[1:]) if a.real_world == b.real_world and a.score == b.score]
        self.assertTrue(alike)
        for a, b in alike:
            self.assertGreaterEqual(a.evidence_count, b.evidence_count, (a.case, b.case))

    def test_the_words_that_say_a_launch_are_not_counted_again(self):
        # "kernel launch failed" says the call was a launch (weighed as such): every launch-configuration case is one,
        # and the words do not favour those whose title says "kernel launched"
        answer = self.answer("RuntimeError: kernel launch failed: invalid configuration argument")
        for case in ("grid_y_over_65535", "block_over_1024_threads", "empty_grid", "block_z_over_64"):
            self.assertIn(case, answer.ties)

    def test_aftermath_is_marked_and_ranks_below_causes(self):
        # cuBLAS fails after a kernel's illegal address: the case shows it, but as the aftermath of that fault
        answer = self.answer("CUBLAS_STATUS_EXECUTION_FAILED")
        after = [c for c in answer.candidates if c.case == "cublas_after_sticky_error"]
        self.assertTrue(after and after[0].aftermath)
        for i, c in enumerate(answer.candidates):
            for d in answer.candidates[i + 1:]:
                if d.confidence == c.confidence and d.score == c.score and d.evidence_count == c.evidence_count:
                    self.assertLessEqual(c.aftermath, d.aftermath)
        self.assertIn("aftermath of an earlier fault", explain.format_text(answer, corpus(), every=True))

    def test_a_fix_that_only_moves_the_status_is_not_its_cause(self):
        # the fixed variant of stale_error_blamed_on_next_launch returns the same status at another step (its runs
        # and its rules say so alike): its mistake decides where the error is reported, not that it happens, and
        # the four mistakes that cause it lead
        answer = self.answer("cudaErrorInvalidConfiguration")
        order = [c.case for c in answer.candidates]
        causes = ("grid_y_over_65535", "block_over_1024_threads", "empty_grid", "block_z_over_64")
        self.assertGreater(order.index("stale_error_blamed_on_next_launch"), max(order.index(c) for c in causes), order)
        self.assertNotIn("stale_error_blamed_on_next_launch", answer.ties)
        self.assertTrue(set(causes) <= set(answer.ties), answer.ties)

    def test_a_status_every_case_returns_without_a_driver_singles_none_out(self):
        # two cases return it on a GPU (an old driver, another release's libcuda), but a machine without a driver
        # returns it for every case (expected/environment.rules): possible causes, never the cause
        self.assertIn("cudaErrorInsufficientDriver", corpus().environment_statuses)
        answer = self.answer("CUDA driver version is insufficient for CUDA runtime version")
        self.assertEqual(answer.kind, "possible")
        self.assertFalse(answer.causes())
        self.assertIn("driver_too_old_for_the_runtime", [c.case for c in answer.candidates[:2]])

    def test_an_argument_status_is_a_cause_only_at_the_call_the_text_names(self):
        # one case returns CUDNN_STATUS_BAD_PARAM (a zero batch in a tensor descriptor), but every parameter of every
        # cuDNN call can be the wrong one: without the call, that case is an example, not the cause
        bare = self.answer("Check failed: status == CUDNN_STATUS_SUCCESS (3 vs. 0)  CUDNN_STATUS_BAD_PARAM")
        self.assertFalse(bare.causes())
        self.assertEqual(bare.candidates[0].case, "cudnn_tensor_descriptor_zero_dimension")
        named = self.answer("cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 0, 3, 8, 8) "
                            "returned CUDNN_STATUS_BAD_PARAM")
        self.assertEqual([c.case for c in named.causes()], ["cudnn_tensor_descriptor_zero_dimension"])

    def test_a_kernel_fault_a_library_reports_from_its_own_kernels_singles_out_no_case(self):
        # one case returns a misaligned address, from a kernel of its own; TensorRT reporting one from its engine
        # ran its own kernels (or a plugin's): that case is an example of the status, not the cause
        own = self.answer("CUDA error: misaligned address")
        # first, yet a possibility: real reports of a misaligned address had causes no case reproduces (library bugs)
        self.assertEqual(own.candidates[0].case, "misaligned_access_in_kernel")
        self.assertEqual(own.causes(), [])
        trt = self.answer("[TRT] [E] 1: [runner.cpp::execute::795] Error Code 1: Cuda Runtime (misaligned address)")
        self.assertEqual(trt.wrappers, ["TensorRT"])
        self.assertFalse(trt.causes())
        self.assertEqual(trt.candidates[0].case, "misaligned_access_in_kernel")
        self.assertIn("TensorRT's own execution", trt.why_not_one)
        self.assertIn("no case here is the cause", explain.format_text(trt, corpus()))
        # a status that is not a kernel fault, from TensorRT's runtime, still names its cause
        handle = self.answer("[reformat.cu::operator()::1606] Error Code 1: Cuda Runtime (invalid resource handle)")
        self.assertIsNone(handle.why_not_one)
        self.assertTrue(handle.candidates)
        self.assertNotEqual(handle.candidates[0].confidence, explain.RELATED)

    def test_what_pytorch_raised_is_weighed_only_for_a_pytorch_text(self):
        # the bare text of a status is what every program prints; with PyTorch's prefix, the cases for which PyTorch
        # raised this very message are the likelier
        bare = self.answer("operation not permitted when stream is capturing")
        torch_line = self.answer("RuntimeError: CUDA error: operation not permitted when stream is capturing")
        self.assertFalse([c.case for c in bare.candidates if c.parts.get("message")])
        self.assertTrue([c.case for c in torch_line.candidates if c.parts.get("message")])
        self.assertIn("malloc_during_capture", bare.ties)
        self.assertNotIn("malloc_during_capture", torch_line.ties)

    def test_a_status_no_environment_returns_found_through_the_lessons(self):
        answer = self.answer("RuntimeError: CUDA error: invalid configuration argument", cudart="13.0")
        self.assertIn("block_over_1024_threads", [c.case for c in answer.candidates[:5]])
        self.assertTrue(all("status" not in c.parts for c in answer.candidates))   # CUDA 13 returns InvalidValue


class VersionLabels(unittest.TestCase):
    def test_every_seen_line_names_the_environment_fully(self):
        for text in ("RuntimeError: CUDA error: invalid configuration argument", "CUBLAS_STATUS_ALLOC_FAILED", "700"):
            answer = explain.explain(text, corpus())
            for c in answer.candidates[:5]:
                for reason in c.best_reasons(6):
                    if " — " in reason and "·" in reason:
                        where = reason.rsplit(" — ", 1)[1]
                        parts = where.split(" · ")
                        self.assertGreaterEqual(len(parts), 4, reason)
                        self.assertTrue(parts[1].startswith(("driver ", "cudart ")), reason)
                        self.assertIn("cuBLAS ", where, reason)
        # evidence from CUDA 11.8 says so, and never reads as plain "default"
        answer = explain.explain("cudaErrorInvalidConfiguration", corpus())
        lines = [r for c in answer.candidates for r in c.best_reasons(6) if re.search(r"cudart 1[12]\.\d+ ", r)]
        self.assertTrue(lines)

    def test_versions_narrow_the_evidence(self):
        old = explain.explain("cudaErrorInvalidConfiguration", corpus(), {"cudart": "12.4"})
        self.assertEqual(old.candidates[0].confidence in (CAUSE, "possible"), True)
        self.assertIn("status", old.candidates[0].parts)
        for c in old.candidates:
            for reason in c.best_reasons(6):
                self.assertNotIn("cudart 13.0", reason)
                self.assertNotIn("cudart 11.8", reason)
        new = explain.explain("cudaErrorInvalidConfiguration", corpus(), {"cudart": "13.0"})
        self.assertFalse([c for c in new.candidates if "status" in c.parts])
        code, out, _ = run_main(["--cuda", "12.4", "cudaErrorInvalidConfiguration"])
        self.assertIn("narrowed to: cudart 12.4", out)


    def test_versions_printed_in_the_log_prefer_that_evidence(self):
        answer = explain.explain("torch 2.1.0+cu118: RuntimeError: CUDA error: invalid configuration argument", corpus())
        self.assertEqual(answer.versions.get("cudart"), "11.8")
        first = answer.candidates[0].best_reasons(1)[0]
        self.assertIn("cudart 11.8", first.rsplit(" — ", 1)[1].split(",")[0])
        answer = explain.explain("torch 2.6.0+cu124: RuntimeError: CUDA error: invalid configuration argument", corpus())
        self.assertIn("cudart 12.4", answer.candidates[0].best_reasons(1)[0].rsplit(" — ", 1)[1].split(",")[0])

    def test_gpu_and_driver_narrow_too(self):
        h200 = explain.explain("CUBLAS_STATUS_ALLOC_FAILED", corpus(), {"gpu": "H200"})
        runs = [r for c in h200.candidates for r in c.best_reasons(6) if "cuBLAS printed" not in r and " · " in r]
        self.assertTrue(runs)
        for reason in runs:
            where = reason.rsplit(" — ", 1)[1]
            # a run names its environment first; a rule, the run it cites ("rule ...:27, observed on H200 · ...")
            self.assertIn("H200", where.split("observed on ", 1)[1] if where.startswith("rule ") else where.split(",")[0])
        old_driver = explain.explain("CUBLAS_STATUS_ALLOC_FAILED", corpus(), {"driver": "535"})
        # no run on driver 580 stands for it; a rule with no version condition still holds there (it says where it was seen)
        self.assertFalse([r for c in old_driver.candidates for r in c.best_reasons(6) if "driver 580" in r and "— rule " not in r])
        self.assertTrue([r for c in old_driver.candidates for r in c.best_reasons(6) if "— rule " in r])


def _dataset_corpus(root):
    """explain's corpus as a user's explain reads it: from the tree's compiled dataset, rebuilt when stale."""
    from cuda_error_atlas import dataset
    with contextlib.redirect_stderr(io.StringIO()):
        return dataset.open_dataset(os.path.join(root, "build", "dataset", "atlas.sqlite"), root).corpus()


class SmallTree(unittest.TestCase):
    """A tree with a case that has rules but no results, and a documented-only cause."""

    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="atlas-explain-")
        shutil.copytree(os.path.join(ROOT, "data", "status_names"), os.path.join(cls.root, "data", "status_names"))
        os.makedirs(os.path.join(cls.root, "cases", "streams"))
        os.makedirs(os.path.join(cls.root, "expected"))
        os.makedirs(os.path.join(cls.root, "data", "real_world"))
        os.makedirs(os.path.join(cls.root, "data", "results"))
        with open(os.path.join(cls.root, "cases", "streams", "stream_used_after_destroy.c"), "w") as f:
            f.write('/* stream_used_after_destroy — a copy queued on a destroyed stream.\n *\n'
                    ' * The mistake: cudaStreamDestroy, then cudaMemcpyAsync on the same stream.\n *\n'
                    ' * What the program sees: the copy returns the recorded status.\n *\n'
                    ' * What a PyTorch user sees: nothing; PyTorch owns its streams.\n *\n'
                    ' * Why: the handle is gone.\n *\n * The fix: destroy streams last.\n *\n * References: none.\n */\n'
                    '#include "atlas.h"\nstatic void fixed(void) {}\nstatic void broken(void)\n{\n'
                    '    ATLAS_CUDA("copy", cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, s));\n}\n'
                    'ATLAS_CASE(fixed, broken)\n')
        with open(os.path.join(cls.root, "expected", "streams.rules"), "w") as f:
            f.write("stream_used_after_destroy  broken  copy  cudaErrorInvalidResourceHandle  "
                    "cite=run:data/results/not-run-yet.json\n")
        with open(os.path.join(cls.root, "data", "real_world", "documented_causes.tsv"), "w") as f:
            f.write("key\tstatus_or_text_patterns\tcause\tfix\tsource\tsource_kind\n"
                    "cosmic_ray\tcudaErrorECCUncorrectable|Xid 48\tA double-bit memory error.\tReplace the card.\t"
                    "https://example.org/ecc\tdoc\n"
                    "stream_pool_bug\tstream pool exhausted\tA framework's stream pool ran dry.\tUpdate the framework.\t"
                    "org/repo#1\tthread\n")
        cls.corpus = Corpus(cls.root, [])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def test_a_case_with_rules_and_no_results_is_found(self):
        answer = explain.explain("cudaMemcpyAsync failed: invalid resource handle", self.corpus)
        self.assertEqual(answer.candidates[0].case, "stream_used_after_destroy")
        self.assertEqual(answer.kind, "cause")
        self.assertIn("rule expected/streams.rules:1", answer.candidates[0].best_reasons(1)[0])

    def test_documented_only_causes_are_never_cases(self):
        answer = explain.explain("RuntimeError: CUDA error: uncorrectable ECC error encountered", self.corpus)
        self.assertEqual(answer.candidates, [])
        self.assertEqual(answer.kind, "documented")
        self.assertEqual(answer.exit_code, 0)
        self.assertEqual([d[2]["key"] for d in answer.documented], ["cosmic_ray"])
        text = explain.format_text(answer, self.corpus)
        self.assertIn("documented, not reproduced here", text)
        self.assertNotIn("\n1. ", text)

    def test_a_documented_cause_named_by_its_text_outranks_a_status_alone(self):
        answer = explain.explain("stream pool exhausted: invalid resource handle", self.corpus)
        self.assertEqual(answer.kind, "documented")
        self.assertEqual(answer.candidates[0].confidence, "possible")   # the case returns the status, no more

    def test_a_documented_cause_naming_the_status_leaves_the_case_possible(self):
        corpus = Corpus(self.root, [])
        corpus.documented.append({"key": "handle_table_bug", "patterns": ["cudaErrorInvalidResourceHandle"], "line": 99,
                                  "cause": "A driver's handle table bug.", "fix": "Update the driver.", "source": "org/repo#2"})
        answer = explain.explain("cudaMemcpyAsync failed: invalid resource handle", corpus)
        # the only case that returns it, at the call the text names — and a documented cause whose symptom is this
        # status: one possible cause among two
        self.assertEqual(answer.candidates[0].case, "stream_used_after_destroy")
        self.assertEqual(answer.candidates[0].confidence, "possible")
        self.assertIn("handle_table_bug", [d[2]["key"] for d in answer.documented])

    def test_a_documented_cause_sharing_rare_words_fills_an_empty_place_and_claims_nothing(self):
        corpus = Corpus(self.root, [])
        corpus.documented.append({"key": "hypervisor_blocks_gpu", "patterns": ["vGPU license expired"], "line": 98,
                                  "cause": "The hypervisor withholds the GPU from a guest whose grid licence lapsed.",
                                  "fix": "Renew the licence.", "source": "org/repo#3"})
        # words are weighed by how few documented causes use them: a table of some size, as the real one is
        for i in range(40):
            corpus.documented.append({"key": "filler_%d" % i, "patterns": ["filler message %d" % i], "line": 100 + i,
                                      "cause": "Another cause.", "fix": "-", "source": "org/repo#4"})
        # no pattern of it: its own sentence's rare words (hypervisor, guest) are shared, and it is shown, weakest
        answer = explain.explain("the hypervisor refused this guest any device", corpus)
        shown = {d[2]["key"]: d for d in answer.documented}
        self.assertIn("hypervisor_blocks_gpu", shown)
        self.assertEqual(shown["hypervisor_blocks_gpu"][0], 0)
        self.assertIn("hypervisor", shown["hypervisor_blocks_gpu"][3][0][1])
        self.assertNotEqual(answer.kind, "documented")      # a shared word is no match: "a documented cause matches" is not said
        # one shared word is chance
        answer = explain.explain("the hypervisor refused", corpus)
        self.assertNotIn("hypervisor_blocks_gpu", [d[2]["key"] for d in answer.documented])
        # three places held by causes shown only because real reports of this status had them: one that shares many
        # rare words with the text takes the last of them
        counts = explain.RealWorld([("r%d" % i, [], "filler_%d" % i, {"cudaErrorUnknown"}) for i in range(3)])
        answer = explain.explain("cudaErrorUnknown: the hypervisor withholds the grid licence from this guest", corpus,
                                 real_world=counts)
        self.assertEqual([d[2]["key"] for d in answer.documented[:3]], ["filler_0", "filler_1", "hypervisor_blocks_gpu"])
        answer = explain.explain("cudaErrorUnknown: the hypervisor said no", corpus, real_world=counts)
        self.assertEqual([d[2]["key"] for d in answer.documented[:3]], ["filler_0", "filler_1", "filler_2"])

    def test_the_dataset_answers_alike_and_notices_changes(self):
        text = "cudaMemcpyAsync failed: invalid resource handle"
        first = Corpus(self.root, [])                       # read afresh from the files
        second = _dataset_corpus(self.root)                 # compiled into the dataset, then read from it
        built = os.stat(os.path.join(self.root, "build", "dataset", "atlas.sqlite")).st_mtime_ns
        self.assertEqual(os.stat(os.path.join(self.root, "build", "dataset", "atlas.sqlite")).st_mtime_ns, built)
        self.assertEqual(explain.format_text(explain.explain(text, first), first, every=True),
                         explain.format_text(explain.explain(text, second), second, every=True))
        rules = os.path.join(self.root, "expected", "streams.rules")
        with open(rules, encoding="utf-8") as f:
            original = f.read()
        try:
            with open(rules, "w", encoding="utf-8") as f:
                f.write(original.replace("cudaErrorInvalidResourceHandle", "cudaErrorInvalidValue"))
            changed = _dataset_corpus(self.root)
            self.assertEqual(explain.explain(text, changed).candidates, [])    # the rule changed: rebuilt
            self.assertNotEqual(os.stat(os.path.join(self.root, "build", "dataset", "atlas.sqlite")).st_mtime_ns, built)
        finally:
            with open(rules, "w", encoding="utf-8") as f:
                f.write(original)

    def test_nothing_matches(self):
        answer = explain.explain("cudaErrorECCUncorrectable", Corpus(self.root, []))
        self.assertEqual(answer.kind, "documented")
        answer = explain.explain("CUBLAS_STATUS_LICENSE_ERROR", self.corpus)
        self.assertEqual((answer.kind, answer.exit_code, answer.candidates), ("none", 1, []))
        text = explain.format_text(answer, self.corpus)
        self.assertIn("no case reproduces this", text)


class RealWorldTies(unittest.TestCase):
    """Cases the message cannot separate are ordered by how often real reports had each as their cause — and only
    those: a call the text names still wins; a benchmark row never counts for itself."""

    HEADER = "id\tsource\twrapper\terror_text\troot_cause\testablished_by\tcause_key\tcases\tnotes\n"
    CASES = {   # name: (the call its broken variant fails at, what it is about)
        "stream_used_after_destroy": ("cudaMemcpyAsync", "a copy queued on a destroyed stream"),
        "handle_from_other_context": ("cudaMemcpyAsync", "a stream made in another context"),
        "event_as_stream_handle": ("cudaStreamSynchronize", "an event handle passed where a stream is wanted"),
        "peer_stream_on_wrong_device": ("cudaMemcpyAsync", "a stream of the second GPU used on the first"),   # 2 GPUs
    }

    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="atlas-ties-")
        shutil.copytree(os.path.join(ROOT, "data", "status_names"), os.path.join(cls.root, "data", "status_names"))
        for folder in ("cases/streams", "expected", "data/real_world", "data/results"):
            os.makedirs(os.path.join(cls.root, folder))
        rules = []
        for name, (call, about) in cls.CASES.items():
            with open(os.path.join(cls.root, "cases", "streams", name + ".c"), "w") as f:
                f.write('/* %s — %s.\n *\n * The mistake: %s.\n *\n * What the program sees: the call returns the recorded '
                        'status.\n *\n * Why: the handle is not one it can use.\n *\n * The fix: the right handle.\n *\n'
                        ' * References: none.\n */\n#include "atlas.h"\nstatic void fixed(void) {}\nstatic void broken(void)\n'
                        '{\n%s    ATLAS_CUDA("step", %s(s));\n}\nATLAS_CASE(fixed, broken)\n'
                        % (name, about, about, "    atlas_need_two_gpus();\n" if "second GPU" in about else "", call))
            rules.append("%s  broken  step  cudaErrorInvalidResourceHandle  cite=run:data/results/not-run-yet.json\n" % name)
        with open(os.path.join(cls.root, "expected", "streams.rules"), "w") as f:
            f.writelines(rules)
        # odd rows: one report of event_as_stream_handle; even rows: three of stream_used_after_destroy
        cls.write_reports({"rw001": "event_as_stream_handle", "rw002": "stream_used_after_destroy", "rw003": "none",
                           "rw004": "stream_used_after_destroy", "rw006": "stream_used_after_destroy"})
        cls.corpus = Corpus(cls.root, [])

    @classmethod
    def write_reports(cls, causes, text="invalid resource handle"):
        with open(os.path.join(cls.root, "data", "real_world", "reports.tsv"), "w", encoding="utf-8") as f:
            f.write(cls.HEADER)
            for row_id, cases in causes.items():
                f.write("%s\torg/repo#1\tother\t%s\ta handle\tmaintainer\tkey\t%s\t\n" % (row_id, text, cases))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def ranked(self, text, **kw):
        answer = explain.explain(text, self.corpus, **kw)
        return answer, [c.case for c in answer.candidates]

    def test_a_tie_is_ordered_by_real_reports(self):
        self.assertEqual((self.corpus.real_world.total, self.corpus.real_world["stream_used_after_destroy"]), (5, 3))
        answer, ranked = self.ranked("invalid resource handle")
        self.assertEqual(answer.kind, "possible")
        self.assertEqual(sorted(answer.ties), sorted(self.CASES))
        self.assertEqual(ranked[:3], ["stream_used_after_destroy", "event_as_stream_handle", "handle_from_other_context"])
        self.assertEqual([c.real_world for c in answer.candidates[:3]], [3, 1, 0])
        # the counts reversed, the order reverses
        reversed_counts = explain.RealWorld([("a", ["handle_from_other_context"]), ("b", ["handle_from_other_context"]),
                                             ("c", ["event_as_stream_handle"])])
        _, ranked = self.ranked("invalid resource handle", real_world=reversed_counts)
        self.assertEqual(ranked[:3], ["handle_from_other_context", "event_as_stream_handle", "stream_used_after_destroy"])
        # and with no counts, the corpus's own order (by name at last; the two-GPU case a few points below)
        _, ranked = self.ranked("invalid resource handle", real_world=explain.RealWorld())
        self.assertEqual(ranked, ["event_as_stream_handle", "handle_from_other_context", "stream_used_after_destroy",
                                  "peer_stream_on_wrong_device"])

    def test_evidence_is_never_reordered_by_counts(self):
        many = explain.RealWorld([(str(i), ["handle_from_other_context", "stream_used_after_destroy",
                                            "peer_stream_on_wrong_device"]) for i in range(50)])
        # the text names the call one case fails at: that case leads, however often the others were the cause
        answer, ranked = self.ranked("cudaStreamSynchronize(stream) failed: invalid resource handle", real_world=many)
        self.assertEqual(ranked[0], "event_as_stream_handle")
        self.assertEqual(answer.candidates[0].confidence, CAUSE)
        self.assertNotIn("event_as_stream_handle", answer.ties)
        # a case that needs two GPUs, where the text shows one: in the tie, by less than a point, so how often real
        # reports had it decides (it goes after the cases as often the cause, before one never the cause); where the
        # text shows a second GPU, nothing separates it and its count puts it first
        answer, ranked = self.ranked("invalid resource handle", real_world=many)
        self.assertIn("peer_stream_on_wrong_device", answer.ties)
        self.assertEqual(ranked, ["handle_from_other_context", "stream_used_after_destroy", "peer_stream_on_wrong_device",
                                  "event_as_stream_handle"])
        _, ranked = self.ranked("cuda:1 invalid resource handle", real_world=many)
        self.assertEqual(ranked, ["handle_from_other_context", "peer_stream_on_wrong_device", "stream_used_after_destroy",
                                  "event_as_stream_handle"])       # 50 reports each, by name; then the one with none

    def test_the_answer_says_so(self):
        answer, _ = self.ranked("invalid resource handle")
        text = explain.format_text(answer, self.corpus)
        self.assertIn("equally likely from the message; ordered by how often real reports had this cause (3 of 5 reports)",
                      text)
        data = explain.as_json(answer, self.corpus)
        self.assertEqual(data["real_world_reports"], 5)
        self.assertTrue(data["ties_ordered_by_real_world_reports"])
        self.assertEqual([(c["case"], c["real_world_reports"]) for c in data["cases"]],
                         [("stream_used_after_destroy", 3), ("event_as_stream_handle", 1), ("handle_from_other_context", 0)])
        # no counts, nothing said of them
        answer, _ = self.ranked("invalid resource handle", real_world=explain.RealWorld())
        self.assertNotIn("real reports", explain.format_text(answer, self.corpus))

    def test_the_dataset_notices_new_reports(self):
        first = _dataset_corpus(self.root)
        self.assertEqual(first.real_world["handle_from_other_context"], 0)
        path = os.path.join(self.root, "data", "real_world", "reports.tsv")
        with open(path, encoding="utf-8") as f:
            original = f.read()
        try:
            with open(path, "a", encoding="utf-8") as f:
                f.write("rw007\torg/repo#2\tother\tinvalid resource handle\tx\tmaintainer\tkey\thandle_from_other_context\t\n")
            self.assertEqual(_dataset_corpus(self.root).real_world["handle_from_other_context"], 1)
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)

    def test_the_benchmark_never_lets_a_row_vote_for_itself(self):
        text = "invalid resource handle"
        rows = [{"id": "r1", "text": text, "expected": ["event_as_stream_handle"]},
                {"id": "r2", "text": text, "expected": ["handle_from_other_context"]}]
        counts = benchmark_explain.real_world(rows, self.corpus)
        self.assertEqual(counts.without(["r1"])["event_as_stream_handle"], 0)       # its one row is itself
        self.assertEqual(counts.without(["r1"])["handle_from_other_context"], 1)
        self.assertEqual(counts.only(["r1"]).total, 1)
        # counted with itself, r1's cause ties r2's and comes first by name; without, each row's own cause has 0 and the other leads
        self.assertEqual([r["outcome"] for r in benchmark_explain.run(rows, self.corpus, counts)], ["top1", "top3"])
        self.assertEqual([r["outcome"] for r in benchmark_explain.run(rows, self.corpus)], ["top3", "top3"])
        # --split: the even rows answered with the odd rows' counts alone. Leave-one-out, each even row has the two
        # other even rows for its cause (top-1); from the odd rows alone it has none and event_as_stream_handle's
        # one report leads
        path = os.path.join(self.root, "data", "real_world", "reports.tsv")
        code, out, _ = self.bench(["--rows", path, "--root", self.root, "--split", "--json"])
        self.assertEqual(code, 0)
        data = json.loads(out)
        self.assertEqual({r["id"]: r["outcome"] for r in data["rows"]},
                         {"rw001": "top3", "rw002": "top1", "rw003": "honest", "rw004": "top1", "rw006": "top1"})
        halves = data["figures"]["halves"]
        self.assertEqual((halves["even"]["overall"]["covered"], halves["even"]["overall"]["top1"]), (3, 0))
        self.assertEqual((halves["odd"]["overall"]["covered"], halves["odd"]["overall"]["top1"]), (1, 0))

    def bench(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = benchmark_explain.main(argv)
        return code, out.getvalue(), err.getvalue()


class CommandLine(unittest.TestCase):
    def test_exit_codes(self):
        self.assertEqual(run_main(["no kernel image is available for execution on the device"])[0], 0)   # a cause
        self.assertEqual(run_main(["CUBLAS_STATUS_ALLOC_FAILED"])[0], 0)                 # three possible causes
        self.assertEqual(run_main(["the weather is nice today"])[0], 1)                   # nothing recognised
        code, out, _ = run_main(["Assertion `err == cudaSuccess' failed."])
        self.assertEqual(code, 1)                                                        # only the check
        self.assertIn("only part of the check", out)
        code, out, _ = run_main(["700"])
        self.assertEqual(code, 0)                                                        # possible causes: answered
        self.assertIn("meaning of cudaErrorIllegalAddress", out)
        self.assertIn("invalid memory address", out)                                    # from the header's comment
        self.assertEqual(run_main([""])[0], 2)
        self.assertEqual(run_main(["--no-such-option", "x"])[0], 2)
        self.assertEqual(run_main([])[0], 2)

    def test_help_shows_the_defaults(self):
        code, out, _ = run_main(["--help"])
        self.assertEqual(code, 0)
        self.assertIn("--cuda", out)
        self.assertIn("(default: 3)", out)
        self.assertIn("Exit status", out)

    def test_standard_input_and_json(self):
        traceback = ('Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
                     "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n")
        code, out, _ = run_main(["--json", "-"], stdin=traceback)
        self.assertEqual(code, 0)
        data = json.loads(out)
        self.assertEqual(data["answer"], "cause")
        self.assertEqual(data["cases"][0]["case"], "cublas_create_when_memory_full")
        self.assertEqual(data["cases"][0]["confidence"], "cause")
        self.assertEqual(data["recognised"][0]["name"], "CUBLAS_STATUS_ALLOC_FAILED")
        self.assertEqual(data["exit"], 0)
        self.assertLessEqual(len(data["cases"]), 3)
        code, out, _ = run_main(["--json", "--all", "-"], stdin=traceback)
        self.assertGreaterEqual(len(json.loads(out)["cases"]), 3)

    def test_default_output_is_three_cases_with_one_line_of_evidence(self):
        code, out, _ = run_main(["cudaErrorIllegalAddress"])
        self.assertEqual(out.count("\n1. ") + out.count("\n2. ") + out.count("\n3. "), 3)
        self.assertNotIn("\n4. ", out)
        self.assertEqual(out.count("   seen: "), 3)

    def test_atlas_delegates(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = atlas.main(["explain", "CUBLAS_STATUS_ALLOC_FAILED"])
        self.assertEqual(code, 0)                       # answered with possible causes: several cases return it
        self.assertIn("cublas_create_when_memory_full", out.getvalue())


class SectionRefresh(unittest.TestCase):
    """data/real_world/refresh_explain_section.py puts explain's current output under each shown command."""

    def test_a_stale_output_is_replaced_and_prose_kept(self):
        from cuda_error_atlas import refresh_explain_section as refresh
        _dataset_corpus(ROOT)                                 # the dataset current before both runs compare
        text = ("Prose before.\n\n    $ cuda-atlas explain \"cudaErrorNoKernelImageForDevice\"\n"
                "    explain: something old\n    rc=7\n\nProse after.\n")
        new, blocks, changed = refresh.refresh(text)
        self.assertEqual((blocks, changed), (1, 1))
        self.assertTrue(new.startswith("Prose before.\n\n    $ cuda-atlas explain"))
        self.assertTrue(new.endswith("\n\nProse after.\n"))
        self.assertIn("    recognised: cudaErrorNoKernelImageForDevice", new)
        self.assertNotIn("something old", new)
        self.assertEqual(refresh.refresh(new)[2], 0)          # run again: nothing left to change


@unittest.skipUnless(os.path.exists(benchmark_explain.ROWS), "no real-world set in this tree (data/real_world/reports.tsv)")
class RealWorldFloor(unittest.TestCase):
    """Not the benchmark (cuda-atlas benchmark-explain prints the figures): a floor below what it measured,
    so that ranking never silently regresses."""

    def test_floor(self):
        # every row answered with the real-world counts of the other rows (leave one out)
        results = benchmark_explain.run(benchmark_explain.read_rows(benchmark_explain.ROWS), corpus())
        figures = benchmark_explain.figures(results)["overall"]
        # measured 2026-11-24, second round (346 rows, 215 covered): top-1 67.4%, top-3 88.4%, honest 96.9%. Each
        # blind batch brought the top-1 down (from 83% on the first 163 rows): the fifth's first measurement is 47.8%.
        # 2026-11-25 (994 rows, 434 covered): top-1 65.9%, top-3 85.9%, honest 98.8%; the seventeenth batch's rows
        # (top-3 57.1% as first measured) took the top-3 below the 86% this floor had
        self.assertGreaterEqual(figures["covered"], 200)
        self.assertGreaterEqual(figures["top1"] / figures["covered"], 0.64, figures)
        self.assertGreaterEqual(figures["top3"] / figures["covered"], 0.85, figures)
        self.assertGreaterEqual(figures["honest"] / max(1, figures["uncovered"]), 0.92, figures)

    def test_floor_without_the_rows_own_quotes(self):
        # lessons quote the reports they were written from; with no lesson quoting a row's own text, explain must
        # still find its cause (measured 2026-11-25, 933 rows: top-1 66.8%, top-3 86.7%, honest 98.7%; from the twelfth
        # batch on, rows name every case of their cause, and those met another way are the hardest)
        rows = benchmark_explain.read_rows(benchmark_explain.ROWS)
        results = benchmark_explain.run(rows, corpus(), unquoted=True)
        self.assertGreaterEqual(sum(bool(r["quoted_by"]) for r in results), 10)
        figures = benchmark_explain.figures(results)["overall"]
        self.assertGreaterEqual(figures["top1"] / figures["covered"], 0.63, figures)
        self.assertGreaterEqual(figures["top3"] / figures["covered"], 0.84, figures)
        self.assertGreaterEqual(figures["honest"] / max(1, figures["uncovered"]), 0.92, figures)
        # the quotes are put back: the next row, or the next caller, sees the whole corpus
        quoted = next(row for row, r in zip(rows, results) if r["quoted_by"])
        self.assertTrue(benchmark_explain.own_quotes(quoted, corpus()))

    def test_a_row_without_its_cases_stops_the_benchmark_with_its_line(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "reports.tsv")
            with open(path, "w", encoding="utf-8") as f:
                f.write("id\tsource\twrapper\terror_text\troot_cause\testablished_by\tcause_key\tcases\tnotes\n")
                f.write("# a comment\n")
                f.write("rw001\to/r#1\tpytorch\tCUDA error: invalid argument\tx\tmaintainer\tk\tnone\t-\n")
                f.write("rw002\to/r#2\tpytorch\tCUDA error: invalid argument\n")
            with self.assertRaises(SystemExit) as stopped:
                benchmark_explain.read_rows(path)
            self.assertIn("reports.tsv:4: a row needs error_text and cases", str(stopped.exception))
            with open(path, "w", encoding="utf-8") as f:
                f.write("id\terror_text\tcases\n" + "rw001\tCUDA error: invalid argument\tnone\n")
            self.assertEqual([(r["id"], r["expected"]) for r in benchmark_explain.read_rows(path)], [("rw001", [])])

    def test_halves(self):
        # ranking was developed on the odd rows; the even rows are held out: each half keeps a floor of its own. The
        # odd rows are answered with the counts of every other row, the even ones with the odd rows' counts alone, and
        # each blind batch with the counts of the rows before it alone (as benchmark-explain --split answers them)
        rows = benchmark_explain.read_rows(benchmark_explain.ROWS)
        odd = [row for row in rows if benchmark_explain.half(row["id"]) == "odd"]
        every = benchmark_explain.run(rows, corpus())
        answered = {"odd": [r for r in every if benchmark_explain.half(r["id"]) == "odd"],
                    "even": benchmark_explain.run([row for row in rows if row not in odd], corpus(), benchmark_explain.real_world(odd, corpus()))}
        answered.update(benchmark_explain.blind_results(rows, corpus()))
        # measured 2026-11-24 (fourth session, 588 rows), top-1 / top-3 / no case claimed / documented shown: odd
        # 72.5/92.2/100/73.0, even 62.4/80.9/95.6/58.4; the blind batches today 86.4/95.5/100/71.4, 54.3/80.0/100/60.0,
        # 62.1/79.3/100/52.6, 64.0/76.0/93.3/46.7, 46.2/76.9/100/78.9, 38.5/69.2/100/37.0, 73.9/82.6/96.4/71.4,
        # 68.4/94.7/96.4/64.3, 82.4/94.1/96.7/66.7, 50.0/85.7/95.3/58.1 (the seventh's top-3 fell by one row when the
        # driver API's block-size case joined the launch-configuration tie)
        # (sixth session: class_label_past_num_classes gave class labels past num_classes a case of their own, so a bare
        # "device-side assert triggered" is now two causes the message cannot tell apart, ordered by real reports; odd
        # top-1 fell from 68.5% (174/254) to 66.0% (169/256), the ninth batch's from 82.4% to 70.6%, the
        # seventeenth's from 28.6% to 23.8%; the 17 rows of labels past num_classes are covered now)
        floors = {"odd": (0.65, 0.87, 0.97, 0.65), "even": (0.58, 0.78, 0.93, 0.55), "blind": (0.80, 0.90, 0.90, 0.65),
                  "blind2": (0.50, 0.75, 0.90, 0.55), "blind3": (0.58, 0.75, 0.90, 0.50), "blind4": (0.60, 0.72, 0.90, 0.45),
                  "blind5": (0.42, 0.72, 0.90, 0.75), "blind6": (0.35, 0.65, 0.90, 0.35), "blind7": (0.70, 0.80, 0.90, 0.65),
                  "blind8": (0.62, 0.88, 0.90, 0.60), "blind9": (0.70, 0.88, 0.90, 0.60),
                  "blind10": (0.45, 0.80, 0.90, 0.55), "blind11": (0.55, 0.95, 0.90, 0.40),
                  "blind12": (0.30, 0.45, 0.90, 0.70), "blind13": (0.60, 0.95, 0.95, 0.50),
                  "blind14": (0.35, 0.45, 0.90, 0.40), "blind15": (0.50, 0.65, 0.95, 0.40),
                  "blind16": (0.70, 0.85, 0.95, 0.40), "blind17": (0.20, 0.55, 0.95, 0.60),
                  "blind18": (0.50, 0.75, 0.95, 0.42), "blind19": (0.50, 0.70, 0.95, 0.42),
                  "blind20": (0.45, 0.72, 0.95, 0.45), "blind21": (0.60, 0.80, 0.90, 0.50)}
        self.assertEqual(set(floors) - {"odd", "even"}, {name for name, _, _ in benchmark_explain.BLIND_BATCHES})
        for half, (top1, top3, honest, documented) in floors.items():
            figures = benchmark_explain.figures(answered[half])["overall"]
            self.assertGreaterEqual(figures["top1"] / figures["covered"], top1, (half, figures))
            self.assertGreaterEqual(figures["top3"] / figures["covered"], top3, (half, figures))
            self.assertGreaterEqual(figures["honest"] / max(1, figures["uncovered"]), honest, (half, figures))
            self.assertGreaterEqual(figures["documented_shown"] / max(1, figures["uncovered"]), documented, (half, figures))

    def test_half(self):
        self.assertEqual([benchmark_explain.half(i) for i in ("rw001", "rw002", "rw127")], ["odd", "even", "odd"])
        self.assertEqual([benchmark_explain.blind_batch(i) for i in ("rw127", "rw128", "rw163", "rw164", "rw386", "rw387")],
                         [None, "blind", "blind", "blind2", "blind6", "blind7"])
        self.assertEqual(benchmark_explain.blind_batch("rw438"), "blind8")

    def test_how_often_the_cause_was_right(self):
        rows = [{"id": "rw900", "wrapper": "c-cuda", "text": "cudaErrorPeerAccessAlreadyEnabled", "expected": ["peer_access_enabled_twice"]},
                {"id": "rw901", "wrapper": "c-cuda", "text": "cudaErrorPeerAccessAlreadyEnabled", "expected": []},
                {"id": "rw902", "wrapper": "c-cuda", "text": "700", "expected": []}]
        results = benchmark_explain.run(rows, corpus(), benchmark_explain.real_world([], corpus()))
        self.assertEqual([r["claim_right"] for r in results], [True, False, None])
        figures = benchmark_explain.figures(results)["overall"]
        self.assertEqual((figures["claims"], figures["claims_right"]), (2, 1))


if __name__ == "__main__":
    unittest.main()


class CatalogueAndAudit(unittest.TestCase):
    """The frameworks' catalogue, cuBLAS's parameter numbers, sizes, numbers that contradict names, the echo, and
    the input's length (issue 20's audit), each on the committed corpus."""

    def answer(self, text, **wanted):
        return explain.explain(text, corpus(), wanted or None)

    def test_every_catalogue_entry_is_recognised_by_its_example(self):
        entries = corpus().frameworks
        self.assertGreaterEqual(len(entries), 80)
        for entry in entries:
            self.assertIn(entry["id"], [e["id"] for e in explain.framework_hits(entry["example"], corpus())], entry)
            self.assertRegex(entry["source"], r"^[\w.-]+/[\w.-]+@[\w.-]+:\S+:\d+$", entry["id"])

    def test_a_wrapped_status_is_recognised(self):
        answer = self.answer("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
                             "and installed a driver from http://www.nvidia.com/Download/index.aspx")
        self.assertIn("cudaErrorInsufficientDriver", [s.name for s in answer.statuses])

    def test_cublas_parameter_number_is_decoded(self):
        answer = self.answer(" ** On entry to GEMM_EX parameter number 9 had an illegal value")
        self.assertEqual((answer.parameter[0], answer.parameter[1]), ("GEMM_EX", 9))
        self.assertEqual({p for _, p in answer.parameter[2]}, {"lda"})
        self.assertEqual(answer.answers[0].key, "lda_below_minimum")
        self.assertIn("parameter 9 of GEMM_EX is lda", explain.format_text(answer, corpus()))

    def test_an_oom_far_below_the_total_is_not_a_request_larger_than_the_gpu(self):
        answer = self.answer("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                             "capacity of 79.11 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this "
                             "process has 77.89 GiB memory in use.")
        first = [c.case for c in answer.candidates[:3]]
        self.assertNotIn("malloc_larger_than_gpu", first)
        self.assertNotIn("malloc_larger_than_gpu", [c.case for c in answer.causes()])
        larger = self.answer("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 180.00 GiB. GPU 0 has a "
                             "total capacity of 79.11 GiB of which 78.02 GiB is free.")
        self.assertEqual(larger.candidates[0].case, "malloc_larger_than_gpu")

    def test_a_number_that_contradicts_the_name_is_pointed_out(self):
        answer = self.answer("CUDA error code=13(CUBLAS_STATUS_INVALID_VALUE) at gemm.cu:40")
        self.assertIn("whose number is 7", answer.statuses[0].era)

    def test_a_gpu_nothing_was_recorded_on_does_not_narrow(self):
        answer = self.answer("CUDA error: an illegal memory access was encountered", gpu="RTX 4090")
        self.assertEqual(answer.unmatched_gpu, "RTX 4090")
        self.assertEqual(answer.wanted, {})
        self.assertIn("no run was recorded on a GPU named 'RTX 4090'", explain.format_text(answer, corpus()))

    def test_the_echo_escapes_binary_and_cuts_at_a_word(self):
        out = explain.format_text(self.answer("bin\x01\x02 CUDA error: out of memory " + "word " * 100), corpus())
        first = out.splitlines()[0]
        self.assertIn("\\x01\\x02", first)
        self.assertTrue(first.endswith("word …"))

    def test_a_megabyte_is_read_in_bounded_time(self):
        # the recognition once took 147 s on a megabyte on one line; what is read of it is bounded, and the error at
        # the end of a long log is still found (a loose guard, not a benchmark: cuda-atlas benchmark-dataset times it)
        import time
        one_line = ("CUDA error: an illegal memory access was encountered while running " * 16000)[:1 << 20]
        log = "\n".join(["step 17 loss 0.12"] * 50000) + "\nRuntimeError: CUDA error: misaligned address"
        self.assertLessEqual(len(explain._bounded(one_line)), 2 * explain.LONG_INPUT + 1000)
        start = time.perf_counter()
        self.assertEqual(self.answer(one_line).statuses[0].name, "cudaErrorIllegalAddress")
        self.assertEqual(self.answer(log).statuses[0].name, "cudaErrorMisalignedAddress")
        self.assertLess(time.perf_counter() - start, 30)
