"""explain, part one: read what people paste.

Finds, in a pasted error (a PyTorch traceback, a check macro's line, a
sanitizer report, a bare number), the statuses it names — by name (runtime,
driver API, cuBLAS, cuSOLVER, cuFFT, cuDNN, NCCL), by the text the library
prints for them, or by number (with the runtime's numbering before CUDA 10.1
where only that numbering makes sense) — and tells the error apart from a
status that is only part of the check that failed (`err == cudaSuccess`).
Also: what printed it (the wrapper), the API calls it names, the versions it
prints and the words that narrow the cause. Standard library only.

The wrapper forms come from the projects' own sources: PyTorch's
c10/cuda/CUDAException.h ("CUDA error: %s", "CUDA kernel errors might be
asynchronously reported"), its caching allocator ("CUDA out of memory. Tried
to allocate"), CUDABlas ("when calling `%s`"), ProcessGroupNCCL ("NCCL error
in: %s:%d, %s, NCCL version %s"); Triton's driver.c ("Triton Error [CUDA]: "
then cuGetErrorString); the CUDA samples' helper_cuda.h ("CUDA error at
%s:%d code=%d(%s) \"%s\""); numba's driver ("[%d] Call to %s results in
%s"); CuPy's CUDARuntimeError ("%s: %s" name and text); compute-sanitizer
("Program hit %s (error %d) due to \"%s\" on CUDA API call to %s"); Thrust
("%s: %s" after the algorithm's name, in thrust::system_error).
"""
import collections
import glob
import os
import re

from . import libraries
from .results import ROOT
from .version_numbers import version_key

API_TITLE = dict(libraries.TITLES, legacy="CUDA runtime before 10.1")

# What printed the error: (wrapper, pattern). Order matters only for the name shown first.
WRAPPERS = [
    ("compute-sanitizer", r"^=+ (?:Invalid|Program hit|Error|ERROR SUMMARY|COMPUTE-SANITIZER)|Program hit \w+ \(error \d+\)"),
    ("NCCL/ProcessGroup", r"ProcessGroupNCCL|NCCL error|ncclUnhandledCudaError|ncclInternalError|ncclInvalidUsage|"
                          r"ncclSystemError|ncclRemoteError|ncclInvalidArgument|NCCL WARN|NCCL version \d|DistBackendError"),
    ("Triton", r"Triton Error \[CUDA\]|triton\.runtime|OutOfResources: out of resource"),
    # TensorRT's logger: "[TRT] [E] 1: [checkMacros.cpp::catchCudaError::212] Error Code 1: Cuda Runtime (an illegal
    # memory access was encountered)" (open-mmlab/mmdeploy#1645, NVIDIA/TensorRT#2464), "[TensorRT] ERROR: ..."
    ("TensorRT", r"\[TRT\]|\[TensorRT\]|TensorRT|Error Code \d+: (?:Cuda Runtime|Myelin|CuTensor)|Cuda Runtime \(|"
                 r"IExecutionContext::|enqueueV[23]\b"),
    ("JAX/XLA", r"XlaRuntimeError|jaxlib|RESOURCE_EXHAUSTED|INTERNAL: |xla/"),
    ("TensorFlow", r"tensorflow|tf\.|OOM when allocating tensor|failed call to cuInit|Could not create cudnn handle|"
                   r"Failed to create cuBLAS handle|stream_executor|InternalError: "),
    ("CuPy", r"cupy|CUDARuntimeError|CUDADriverError|CUBLASError|CUSOLVERError|CUFFTError"),
    ("numba", r"numba|CudaAPIError|CudaSupportError|Call to \w+ results in"),
    ("Thrust/CUB", r"thrust::|cub::|system_error|bad_alloc|parallel_for failed|radix_sort"),
    ("PyTorch", r"torch|(?:RuntimeError|AcceleratorError): CUDA error|CUDA kernel errors might be asynchronously reported|"
                r"CUDA_LAUNCH_BLOCKING|TORCH_USE_CUDA_DSA|CUDA out of memory|c10::|when calling `|"
                r"Cannot re-initialize CUDA in forked subprocess|cuDNN error|CUBLAS_WORKSPACE_CONFIG|"
                r"current PyTorch installation"),
    ("check macro", r"\b(?:CUDA_CHECK|checkCudaErrors|CHECK_CUDA|cudaCheck|gpuErrchk|GPUassert|CUBLAS_CHECK|CUDA_SAFE_CALL|"
                    r"HANDLE_ERROR|CUDA_CALL|cudaSafeCall|CHECK_CUBLAS)\b|CUDA error at \S+:\d+|code=\d+\(|"
                    r"CUDA (?:error|Error|ERROR)[: ]|cuda(?:Error|error)[: ]|failed with error|Assertion .* failed"),
]
MACRO_NAMES = re.compile(r"\b(?:CUDA_CHECK|checkCudaErrors|CHECK_CUDA|cudaCheck\w*|gpuErrchk|GPUassert|CUBLAS_CHECK|CUDA_SAFE_CALL|"
                         r"HANDLE_ERROR|CUDA_CALL|cudaSafeCall|CHECK_CUBLAS|Check failed)\b|CUDA error at \S+:\d+|code=\d+\(")
WRAPPER_PATTERNS = [(name, re.compile(pattern, re.M)) for name, pattern in WRAPPERS]

# Guards that print no status name but stand for one (the wrapper's own
# message for it): the status they mean and where the form comes from.
GUARDS = [
    (r"CUDA out of memory\. Tried to allocate|OutOfMemoryError|torch\.cuda\.OutOfMemoryError", "cudaErrorMemoryAllocation",
     "PyTorch's caching allocator (c10/cuda/CUDACachingAllocator.cpp) raises it when cudaMalloc fails"),
    (r"RESOURCE_EXHAUSTED: Out of memory|Out of memory while trying to allocate", "cudaErrorMemoryAllocation",
     "XLA's allocator: RESOURCE_EXHAUSTED"),
    (r"OOM when allocating tensor", "cudaErrorMemoryAllocation", "TensorFlow's allocator (OOM)"),
    (r"Out of memory allocating [\d,]+ bytes", "cudaErrorMemoryAllocation", "CuPy's memory pool (OutOfMemoryError)"),
    (r"std::bad_alloc: cudaErrorMemoryAllocation|thrust::system::detail::bad_alloc", "cudaErrorMemoryAllocation",
     "Thrust's bad_alloc"),
    # compute-sanitizer's memcheck names the bad access itself; without the
    # sanitizer the same kernel fails with an illegal address (this corpus's
    # sanitizer column: cudaErrorLaunchFailure under the tool, IllegalAddress without)
    (r"Invalid __(?:global|shared|local)__ (?:read|write) of size", "cudaErrorIllegalAddress",
     "compute-sanitizer's memcheck report of an out-of-bounds access"),
    (r"Invalid __(?:global|shared|local)__ (?:read|write) of size", "cudaErrorLaunchFailure",
     "what the program itself sees under compute-sanitizer"),
    (r"Address 0x[0-9a-f]+ is misaligned", "cudaErrorMisalignedAddress", "compute-sanitizer's misaligned-access report"),
    # "no kernel image" in the words of projects that check before launching
    (r"has no device code compatible with CUDA arch", "cudaErrorNoKernelImageForDevice",
     "ggml-cuda's check (llama.cpp): the binary has no code for this GPU's architecture"),
    (r"with CUDA capability sm_\d+ is not compatible with the current PyTorch installation", "cudaErrorNoKernelImageForDevice",
     "PyTorch's warning at start-up: its build has no code for this GPU's architecture"),
    (r"Segmentation fault|SIGSEGV|signal 11\b", "signal:SIGSEGV", "the process was killed by a signal"),
    (r"Aborted \(core dumped\)|SIGABRT|double free or corruption|free\(\): double free|free\(\): invalid pointer", "signal:SIGABRT",
     "the process aborted"),
    (r"Floating point exception|SIGFPE", "signal:SIGFPE", "the process was killed by a signal"),
]
GUARD_PATTERNS = [(re.compile(p, re.I), name, how) for p, name, how in GUARDS]

NAME_TOKEN = re.compile(r"\b(%s)\b" % libraries.STATUS_NAME)
CALL_TOKEN = re.compile(r"\b((?:cuda|cu|cublas|cublasLt|cusolver\w*|cufft|cudnn|nccl)[A-Z]\w*)\s*\(")
BARE_CALL = re.compile(r"\b((?:cuda|cublas|cusolverDn|cufft|cudnn|nccl)[A-Z][a-z]\w*|cu(?:Mem|Ctx|Init|Launch|Module|Stream|Event|Device|Graph|Func|Link|Library|Kernel)\w*)\b")
NUMBER_FORMS = [
    re.compile(r"code\s*=\s*(-?\d+)\s*\(\s*(\w+)\s*\)", re.I),                 # helper_cuda.h: code=700(cudaErrorIllegalAddress)
    re.compile(r"\(error (\d+)\)"),                                            # compute-sanitizer: (error 719)
    re.compile(r"\[(\d+)\] Call to"),                                # numba: [700] Call to cuMemcpyDtoH
    re.compile(r"\b(?:error|err|status|code|result|returned|return code|failure|cudaError_t|cublasStatus_t|CUresult)"
               r"\s*[:=#]?\s*\(?\s*(-?\d+)(?![\d.])", re.I),
    re.compile(r"\berror code:?\s*(-?\d+)\b", re.I),
    # a failure line that ends in the status after a colon (TensorFlow: "failed to create cuFFT batched plan:2");
    # the word before the colon is a word, not a file name (kernel.cu:596 is a line number)
    re.compile(r"\b(?:fail\w*|error)\b[^\n]{0,500}(?:^|\s)(?!(?:line|col|column|port|pid|rank|step|epoch|iter\w*|size|id):)[A-Za-z][A-Za-z_]*:\s*(-?\d+)\s*$", re.I | re.M),
]
# cust / RustaCUDA (docs.rs/cust, enum cust::error::CudaError): "CudaError::OutOfMemory"
RUST_VARIANT = re.compile(r"\bCudaError::([A-Z]\w+)")
VERSION_FORMS = [
    ("cudart", re.compile(r"\bCUDA(?: runtime)?(?: version| Version)?[: ]+v?(\d{1,2}\.\d)\b")),
    ("cudart", re.compile(r"\+cu(\d{2})(\d)\b")),                              # wheel tags: 2.1.0+cu121
    ("cudart", re.compile(r"\bcuda-?(\d{1,2}\.\d)\b")),
    ("driver", re.compile(r"\bDriver Version:?\s*(\d{3})(?:\.\d+)*", re.I)),
    ("driver", re.compile(r"\bdriver (?:version )?(\d{3})\.\d+", re.I)),
    ("nccl", re.compile(r"\bNCCL version (\d+\.\d+\.\d+)")),
]
GPU_FORM = re.compile(r"\b((?:NVIDIA |Tesla |GeForce |Quadro )?(?:RTX ?\w+|GTX ?\d+\w*|[AHBLTVK]\d{2,3}[a-zA-Z]*|"
                      r"A100|H100|H200|B200|V100|P100|T4|K80|L4|L40S?))\b")
CONTEXT_WORDS = ["fork", "forked", "multiprocessing", "spawn", "capture", "capturing", "graph", "peer", "p2p", "nccl", "rank",
                 "ranks", "thread", "stream", "event", "handle", "workspace", "assert", "assertion", "kernel", "launch",
                 "shared memory", "registers", "threads", "block", "grid", "driver", "ptx", "stub", "visible", "memory",
                 "allocate", "free", "reset", "sticky", "alignment", "misaligned", "lda", "ldb", "ldc", "stride",
                 "batch", "transpose", "host", "pinned", "managed", "unified", "device", "ordinal", "version",
                 "library", "libcuda", "jit", "architecture", "sm_", "compute capability", "cudnn", "cusolver", "cufft",
                 "cublaslt", "destroy", "leak", "double free", "timeout", "watchdog", "ecc", "xid", "mig", "mps"]


class Status:
    """A status the text names, and how."""

    def __init__(self, name, api, how, role="error", position=0, era=None):
        self.name, self.api, self.how, self.role, self.position, self.era = name, api, how, role, position, era
        self.same_as = {name}            # the runtime name a driver status shares its number with, and back

    def as_json(self):
        return {"name": self.name, "api": self.api, "how": self.how, "role": self.role, "era": self.era,
                "same_as": sorted(self.same_as - {self.name})}


class Vocabulary:
    """Every status name, number, text and meaning the project knows, with where each came from."""

    def __init__(self, root=ROOT, status_table=None):
        self.rows = []                                   # (api, code, name, text)
        self.runtimes = collections.defaultdict(set)     # runtime status -> the runtime versions whose table has it
        current = sorted(glob.glob(os.path.join(root, "data", "status_names", "error_strings_cudart-*.tsv")))
        current = re.search(r"cudart-([\d.]+)_", current[-1]).group(1) if current else None
        for api, code, name, text in (status_table if status_table is not None else load_status_table(root)):
            self.rows.append((api, code, name, text))
            if api == "cuda" and current:
                self.runtimes[name].add(current)
        self.legacy = []
        for path in sorted(glob.glob(os.path.join(root, "data", "status_names", "*.tsv"))):
            base = os.path.basename(path)
            if base.startswith("meanings_"):
                continue
            for api, code, name, text in read_status_table(path, 4):
                if base.startswith("legacy_"):
                    self.legacy.append(("legacy", int(code), name, ""))
                else:
                    self.rows.append((api, int(code), name, text))
                    version = re.match(r"cudart-([\d.]+)\.tsv$", base)
                    if version:
                        self.runtimes[name].add(version.group(1))
        self.meaning = {}
        for path in sorted(glob.glob(os.path.join(root, "data", "status_names", "meanings_*.tsv"))):
            for name, meaning in read_status_table(path, 2):
                self.meaning[name] = meaning
        self.by_name = {}
        for row in self.rows + self.legacy:
            self.by_name.setdefault(row[2], row)
        self.text, self.runtime_by_code, self.driver_by_code = {}, {}, {}
        for api, code, name, text in self.rows:            # the current toolkit's table first: it wins
            if text:
                self.text.setdefault(name, text)
            if api == "cuda":
                self.runtime_by_code.setdefault(code, name)
            if api == "cu":
                self.driver_by_code.setdefault(code, name)
        self.driver_camel = collections.defaultdict(list)        # "outofmemory" -> [CUDA_ERROR_OUT_OF_MEMORY]
        for api, code, name, text in self.rows:
            if api == "cu" and name.startswith("CUDA_ERROR_"):
                self.driver_camel[name[len("CUDA_ERROR_"):].replace("_", "").lower()].append(name)
        self.legacy_by_name = {name: code for _, code, name, _ in self.legacy}
        self.legacy_by_code = {code: name for _, code, name, _ in self.legacy}
        # the library texts, longest first, that are specific enough to stand for a status
        self.texts = sorted({(text, name, api) for api, code, name, text in self.rows
                             if len(text) >= 12 and name not in libraries.SUCCESS_NAMES}, key=lambda t: (-len(t[0]), t[1]))
        # the words people write for a text in a title or a sentence ("illegal memory access" for "an illegal memory
        # access was encountered"): the text less its article and its closing verb, where what is left still says it
        short = {}
        for text, name, api in self.texts:
            # and the text less the hint it closes with ("unhandled cuda error" of NCCL's "... (run with NCCL_DEBUG=INFO
            # for details)", the words older NCCL releases printed alone)
            verbless = re.sub(r" (?:was encountered|triggered|\(run with [^()]*\))$", "", text.lower())
            core = re.sub(r"^(?:an?|the) ", "", verbless)
            if verbless != text.lower() and (len(core.split()) >= 3 or "-" in core):
                # as whole words: "device-side assertions" is not "device-side assert"
                short.setdefault(core, (core, name, api, re.compile(r"(?<![\w-])%s(?![\w-])" % re.escape(core))))
        self.short_texts = sorted(short.values(), key=lambda t: (-len(t[0]), t[1]))

    def same_as(self, name):
        """A driver status and the runtime status with its number (the numbers agree since CUDA 10.1)."""
        row = self.by_name.get(name)
        names = {name}
        if row and row[0] == "cu" and row[1] in self.runtime_by_code:
            names.add(self.runtime_by_code[row[1]])
        if row and row[0] == "cuda" and row[1] in self.driver_by_code:
            names.add(self.driver_by_code[row[1]])
        return names

    def describe(self, name):
        row = self.by_name.get(name)
        text = self.text.get(name, "")
        meaning = self.meaning.get(name) or next((self.meaning[n] for n in sorted(self.same_as(name)) if n in self.meaning), "")
        return {"name": name, "api": API_TITLE.get(row[0], row[0]) if row else "?", "code": row[1] if row else None,
                "text": text, "meaning": meaning, "runtimes": self.era_of(name)}

    def era_of(self, name):
        """'' when every runtime table here has the status, else which ones do ("CUDA 12.4, 13.0")."""
        every = set().union(*self.runtimes.values()) if self.runtimes else set()
        have = set().union(*(self.runtimes.get(n, set()) for n in self.same_as(name)))
        if not have or have == every:
            return ""
        key = lambda v: tuple(int(x) for x in v.split("."))
        listed = "CUDA " + ", ".join(sorted(have, key=key))
        if max(every, key=key) in have:
            return listed + " (so CUDA %s or newer)" % min(have, key=key)
        if min(every, key=key) in have:
            return listed + " (so CUDA %s or older)" % max(have, key=key)
        return listed


def read_status_table(path, columns):
    """The rows of one table of data/status_names/ ('#' lines are comments), each padded to `columns` fields: the
    one reader of those tables (the Vocabulary and the compiled dataset)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            yield (parts + [""] * columns)[:columns]


def _in_check(text, start, end):
    """Is the token at text[start:end] only part of the check that failed
    (compared against, or inside an assertion's condition)?"""
    before, after = text[max(0, start - 4):start], text[end:end + 4]
    if re.search(r"[=!]=\s*$", before) or re.match(r"\s*[=!]=", after):
        return True
    # the line around the token, at most a thousand characters each way (a megabyte on one line stays linear)
    low, high = max(0, start - 1000), min(len(text), end + 1000)
    line_start, line_end = text.rfind("\n", low, start), text.find("\n", end, high)
    line = text[line_start + 1 if line_start >= 0 else low:line_end if line_end >= 0 else high]
    return bool(re.search(r"\bassert\w*\s*\(", line, re.I) and re.search(r"[=!]=", line))


def recognise(text, vocabulary):
    """[Status] the text names, the error ones first, each once."""
    found = collections.OrderedDict()

    def add(status):
        key = status.name
        if key in found:
            if found[key].role == "check" and status.role == "error":
                found[key] = status
            return
        status.same_as = vocabulary.same_as(status.name)
        if any(key in other.same_as for other in found.values()):
            return                        # the driver's and the runtime's name for one number
        found[key] = status

    # by number and name together: the name decides, the number tells the era
    for match in NUMBER_FORMS[0].finditer(text):
        number, token = int(match.group(1)), match.group(2)
        name = token if token in vocabulary.by_name else None
        if name is None:                  # code=700(an illegal memory access ...) carries the text, not the name
            continue
        row = vocabulary.by_name[name]
        era = None
        if row[0] == "cuda" and row[1] != number and vocabulary.legacy_by_name.get(name) == number:
            era = "before CUDA 10.1 (%s was %d then, %d now)" % (name, number, row[1])
        elif row[1] != number:
            # the number contradicts the name (code=13 beside CUBLAS_STATUS_INVALID_VALUE, which is 7): say so; the
            # name decides, as a program prints the name from the status it got
            era = "the text pairs number %d with %s, whose number is %d (in %s); the name is taken" % (
                number, name, row[1], API_TITLE.get(row[0], row[0]))
        add(Status(name, row[0], "named, with its number %d" % number, position=match.start(), era=era))
    # by name
    for match in NAME_TOKEN.finditer(text):
        name = match.group(1)
        if name not in vocabulary.by_name or name in found and found[name].role == "error":
            continue                      # not a status, or already taken as the error
        row = vocabulary.by_name[name]
        role = "check" if name in libraries.SUCCESS_NAMES or _in_check(text, match.start(), match.end()) else "error"
        add(Status(name, row[0] if row[0] != "legacy" else "cuda", "named", role, match.start()))
    # by the library's own text
    lowered = text.lower()
    taken = []
    for message, name, api in vocabulary.texts:
        at = lowered.find(message.lower())
        if at < 0 or any(a <= at < b for a, b in taken):
            continue
        taken.append((at, at + len(message)))
        if any(s.name == name or name in s.same_as or any(vocabulary.text.get(n, "").lower() == message.lower() for n in s.same_as)
               for s in found.values()):
            continue                      # "CUDA_ERROR_X: its text": one error
        add(Status(name, api, 'by its text, "%s"' % message, "error", at))
    # the text in a writer's own words, where the whole text is not there
    for message, name, api, pattern in vocabulary.short_texts:
        match = pattern.search(lowered)
        at = match.start() if match else -1
        if at < 0 or any(a <= at < b for a, b in taken) or any(name in s.same_as for s in found.values()):
            continue
        taken.append((at, at + len(message)))
        add(Status(name, api, 'by the words of its text, "%s"' % message, "error", at))
    # a runtime name abbreviated (cudaErrIllegalAddress for cudaErrorIllegalAddress)
    for match in re.finditer(r"\bcudaErr([A-Z]\w*)", text):
        name = "cudaError" + match.group(1)
        if name in vocabulary.by_name and not any(name in s.same_as for s in found.values()):
            add(Status(name, "cuda", "named, abbreviated as %s" % match.group(0), "error", match.start()))
    # Rust's bindings (cust, RustaCUDA: `CudaError::OutOfMemory`): the driver API's name in CamelCase
    for match in RUST_VARIANT.finditer(text):
        variant = match.group(1).lower()
        for name in vocabulary.driver_camel.get(variant) or vocabulary.driver_camel.get(re.sub(r"error$", "", variant)) or []:
            add(Status(name, "cu", "named as Rust's CudaError::%s (the driver API's %s)" % (match.group(1), name), "error",
                       match.start()))
    # by wrappers' own guards
    for pattern, name, how in GUARD_PATTERNS:
        match = pattern.search(text)
        if match and not any(name in s.same_as for s in found.values() if s.role == "error"):
            add(Status(name, "signal" if name.startswith("signal:") else "cuda", how, "error", match.start()))
    # glog's CHECK_EQ (Caffe, TensorFlow): "Check failed: call == CUFFT_SUCCESS (2 vs. 0)" — the first value
    # is what the call returned, in the API of the status it was compared with
    versus = re.search(r"\((-?\d+) vs\. (-?\d+)\)", text)
    checks = [s for s in found.values() if s.role == "check"]
    if versus and checks and not any(s.role == "error" for s in found.values()):
        got, api = int(versus.group(1)), vocabulary.by_name.get(checks[0].name, ("cuda",))[0]
        for row_api, code, name, _ in vocabulary.rows:
            if row_api == api and code == got and name not in libraries.SUCCESS_NAMES:
                add(Status(name, api, "number %d, what the check got instead of %s" % (got, checks[0].name), "error",
                           versus.start()))
                break
    # by number alone, where nothing named the status
    numbers = []
    bare = re.fullmatch(r"\s*(-?\d+)\s*", text)
    if bare:
        numbers.append((int(bare.group(1)), 0))
    for form in NUMBER_FORMS[1:]:
        for match in form.finditer(text):
            numbers.append((int(match.group(1)), match.start()))
    errors = [s for s in found.values() if s.role == "error" and not s.name.startswith("signal:")]
    for number, _ in numbers:
        for status in errors:                # "cuda runtime error (30) : unknown error": the number tells the era
            current = vocabulary.by_name.get(status.name, (None, None))[1]
            if status.era is None and number != current and vocabulary.legacy_by_name.get(status.name) == number:
                status.era = "before CUDA 10.1 (%s was %d then, %s now)" % (status.name, number, current)
    apis = libraries.number_apis(text) if numbers else []
    seen_numbers = set()
    for number, position in numbers:
        if number in seen_numbers:
            continue              # a number read once, where it first appears
        seen_numbers.add(number)
        if number == 0 or errors and any(vocabulary.by_name.get(s.name, (None, None))[1] == number for s in errors):
            continue
        if errors and not bare:
            continue              # the error is named; other numbers are line numbers, sizes, ranks
        for status in _by_number(number, apis, vocabulary, position):
            add(status)
    # "ncclUnhandledCudaError ... Last error: Cuda failure 'out of memory'": the CUDA status inside is the cause
    wrapped = {"ncclUnhandledCudaError", "CUBLAS_STATUS_INTERNAL_ERROR", "CUDNN_STATUS_INTERNAL_ERROR"}
    inner = [s for s in found.values() if s.role == "error" and s.api in ("cuda", "cu")]
    ordered = sorted(found.values(), key=lambda s: (s.role != "error", bool(inner) and s.name in wrapped, s.position))
    return ordered


def _by_number(number, apis, vocabulary, position):
    """Every reading of a bare number, the likeliest API first."""
    statuses = []
    if not hasattr(vocabulary, "by_api_code"):
        vocabulary.by_api_code = collections.defaultdict(list)
        for row_api, code, name, _ in vocabulary.rows:
            vocabulary.by_api_code[(row_api, code)].append(name)
    for api in apis:
        for name in vocabulary.by_api_code.get((api, number), ()):
            if name not in libraries.SUCCESS_NAMES:
                statuses.append(Status(name, api, "number %d of %s" % (number, _the(API_TITLE[api])), position=position))
    if number in vocabulary.legacy_by_code:
        name = vocabulary.legacy_by_code[number]
        current = vocabulary.by_name.get(name)
        if not current or current[1] != number:
            statuses.append(Status(name, "cuda", "number %d of the CUDA runtime before 10.1" % number, position=position,
                                   era="only if the program was built with CUDA 10.0 or older (%s is %s now)" % (
                                       name, current[1] if current else "gone")))
    return statuses


def _the(title):
    return "the " + title if title.startswith("CUDA") else title


def wrappers(text):
    found = [name for name, pattern in WRAPPER_PATTERNS if pattern.search(text)]
    if len(found) > 1 and "check macro" in found and not MACRO_NAMES.search(text):
        found.remove("check macro")       # the framework's own check printed it
    return found


def calls(text):
    """API functions the text names (as calls, or as bare names in a known family)."""
    names = collections.OrderedDict()
    for match in CALL_TOKEN.finditer(text):
        if not re.match(r"cudaError|cudaSuccess", match.group(1)):
            names[match.group(1)] = True
    for match in BARE_CALL.finditer(text):
        name = match.group(1)
        if not re.match(r"cudaError|cudaSuccess", name):
            names.setdefault(name, True)
    return list(names)


def versions(text):
    """{field: value} of the versions the log prints."""
    found = {}
    for field, form in VERSION_FORMS:
        match = form.search(text)
        if match and field not in found:
            found[field] = ".".join(g for g in match.groups() if g)
    gpu = GPU_FORM.search(text)
    if gpu:
        found["gpu"] = gpu.group(1)
    return found


def context_words(text):
    lowered = text.lower()
    return [w for w in CONTEXT_WORDS if re.search(r"\b%s%s" % (re.escape(w), "" if w.endswith("_") else r"\b"), lowered)]


# ---- the numbers of an out-of-memory message ---------------------------------

SIZE = r"([\d,]+(?:\.\d+)?)\s*(bytes|B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)\b"
UNITS = {"b": 1, "bytes": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
         "kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40}
MEMORY_FORMS = [
    # PyTorch's caching allocator, 2.x: "Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.19 GiB of which
    # 5.06 MiB is free. ... Of the allocated memory 78.50 GiB is allocated by PyTorch, and 150.00 MiB is reserved by
    # PyTorch but unallocated." 1.x: "(GPU 0; 7.79 GiB total capacity; 6.50 GiB already allocated; 10.19 MiB free;
    # 6.60 GiB reserved in total by PyTorch)"; XLA: "trying to allocate N bytes"; CuPy: "Out of memory allocating N bytes"
    ("tried", r"(?:Tried to allocate|trying to allocate|Out of memory allocating)\s+" + SIZE),
    ("total", r"total capacity of\s+" + SIZE),
    ("total", SIZE + r"\s+total capacity"),
    ("free", r"of which\s+" + SIZE + r"\s+is free"),
    ("free", SIZE + r"\s+free\b"),
    ("mine", r"Of the allocated memory\s+" + SIZE + r"\s+is allocated by PyTorch"),
    ("mine", SIZE + r"\s+already allocated"),
    ("mine", r"allocated so far:\s*" + SIZE),
    ("unused", r"and\s+" + SIZE + r"\s+is reserved by PyTorch but unallocated"),
    ("reserved", SIZE + r"\s+reserved in total by PyTorch"),
]


def memory_context(text):
    """(numbers in bytes, what they say, words for the cases' lessons) of an out-of-memory message, or None."""
    numbers = {}
    for key, form in MEMORY_FORMS:
        match = re.search(form, text, re.I)
        if match and key not in numbers:
            value, unit = match.groups()[-2:]
            numbers[key] = float(value.replace(",", "")) * UNITS[unit.lower()]
    if "tried" not in numbers:
        return None
    if "unused" not in numbers and "reserved" in numbers and "mine" in numbers:
        numbers["unused"] = max(0.0, numbers["reserved"] - numbers["mine"])
    tried, total, free, mine = (numbers.get(k) for k in ("tried", "total", "free", "mine"))
    says, words = [], []
    if total and tried > total:
        says.append("one request larger than the whole GPU")
        words += ["larger", "than", "gpu"]
    elif total and mine is not None and mine < total / 2 and (free is None or free < tried):
        says.append("PyTorch in this process holds little of it: something else holds the memory")
        words += ["another", "process", "holds"]
    elif total and mine is not None and mine >= total / 2:
        says.append("this process filled the GPU itself")
        words += ["allocations", "until", "full"]
    if numbers.get("unused") and (numbers["unused"] >= max(tried, 1 << 30) or total and numbers["unused"] >= total / 10):
        says.append("much reserved but unallocated: fragmentation")
        words += ["fragmentation", "expandable_segments"]
    return numbers, says, words


def load_status_table(root=ROOT):
    """[(api, code, name, text)] from the newest reports/error_strings_*.tsv."""
    table = []
    paths = sorted(glob.glob(os.path.join(root, "data", "status_names", "error_strings_*.tsv")), key=lambda p: version_key(p))
    if paths:
        with open(paths[-1], encoding="utf-8") as f:
            for line in f:
                api, code, name, text = line.rstrip("\n").split("\t", 3)
                table.append((api, int(code), name, text))
    return table


def short(name):
    """cudaErrorIllegalAddress -> IllegalAddress; CUBLAS_STATUS_INVALID_VALUE -> INVALID_VALUE."""
    for prefix in ("cudaError", "CUBLAS_STATUS_", "CUDA_ERROR_"):
        if name.startswith(prefix) and len(name) > len(prefix):
            return name[len(prefix):]
    return name
