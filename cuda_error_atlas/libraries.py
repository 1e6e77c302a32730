"""The libraries whose statuses the project knows, in one table: the names, titles, rule prefixes and call prefixes
every module uses are derived from it (explain's recognition, the report's lesson check, the site's labels, the rules'
grammar). Adding a library is one row here, its status table under data/status_names/ (cuda-atlas status-tables), and
its section in harness/atlas_libraries.h; the C runner's rules.c keeps a prefix list of its own, which
tests/test_rules_agree.py holds to this one."""
import re
from collections import namedtuple

Library = namedtuple("Library", "api title status_type success names rule_prefixes call_prefixes hint by_default")
# api: the short name the results files and status tables use. names: a regular expression for its status names, what
# a program can be seen to get back (cufftResult, not CUFFT_R2C; ncclResult_t, not ncclAllReduce; never a function
# name such as cudaMalloc). rule_prefixes: how a rule's expected status starts. call_prefixes: how its functions start.
# hint: a regular expression whose presence in a text makes a bare number likelier to be this library's (None: never by
# itself); by_default: a bare number is read as this library's where no hint says otherwise. The order is the order a
# bare number's readings are tried in.
LIBRARIES = (
    Library("cuda", "CUDA runtime", "cudaError_t", "cudaSuccess", r"cudaSuccess|cudaError[A-Z]\w*",
            ("cuda",), ("cuda",), None, True),
    Library("cublas", "cuBLAS", "cublasStatus_t", "CUBLAS_STATUS_SUCCESS", r"CUBLAS_STATUS_\w+",
            ("CUBLAS_STATUS_",), ("cublasLt", "cublas"), r"(?i)cublas", True),
    Library("nccl", "NCCL", "ncclResult_t", "ncclSuccess", r"ncclSuccess|ncclInProgress|nccl\w*Error|ncclInvalid\w+",
            ("nccl",), ("nccl",), r"(?i)nccl", False),
    Library("cudnn", "cuDNN", "cudnnStatus_t", "CUDNN_STATUS_SUCCESS", r"CUDNN_STATUS_\w+",
            ("CUDNN_STATUS_",), ("cudnn",), r"(?i)cudnn", False),
    Library("cusolver", "cuSOLVER", "cusolverStatus_t", "CUSOLVER_STATUS_SUCCESS", r"CUSOLVER_STATUS_\w+",
            ("CUSOLVER_STATUS_",), ("cusolver",), r"(?i)cusolver", False),
    Library("cufft", "cuFFT", "cufftResult", "CUFFT_SUCCESS",
            r"CUFFT_(?:SUCCESS|INVALID_\w+|\w+_FAILED|\w+_FAILURE|INTERNAL_ERROR|UNALIGNED_DATA|NO_WORKSPACE"
            r"|NOT_IMPLEMENTED|NOT_SUPPORTED|MISSING_DEPENDENCY|LICENSE_ERROR|INCOMPLETE_PARAMETER_LIST|PARSE_ERROR)",
            ("CUFFT_",), ("cufft",), r"(?i)cufft", False),
    Library("curand", "cuRAND", "curandStatus_t", "CURAND_STATUS_SUCCESS", r"CURAND_STATUS_\w+",
            ("CURAND_STATUS_",), ("curand",), r"(?i)curand", False),
    Library("cusparse", "cuSPARSE", "cusparseStatus_t", "CUSPARSE_STATUS_SUCCESS", r"CUSPARSE_STATUS_\w+",
            ("CUSPARSE_STATUS_",), ("cusparse",), r"(?i)cusparse", False),
    Library("nvrtc", "NVRTC", "nvrtcResult", "NVRTC_SUCCESS", r"NVRTC_SUCCESS|NVRTC_ERROR_\w+",
            ("NVRTC_",), (), None, False),
    Library("cu", "CUDA driver API", "CUresult", "CUDA_SUCCESS", r"CUDA_SUCCESS|CUDA_ERROR_\w+",
            ("CUDA_ERROR_",), ("cu",), r"\bcu[A-Z]\w+|CUresult|driver api", True),
)
BY_API = {library.api: library for library in LIBRARIES}

# what each module needs, derived
SUCCESS_NAMES = frozenset(library.success for library in LIBRARIES)
TITLES = {library.api: library.title for library in LIBRARIES}
STATUS_NAME = "|".join(library.names for library in LIBRARIES)          # one alternation, no group of its own
RULE_PREFIXES = tuple(prefix for library in LIBRARIES for prefix in library.rule_prefixes)
# a function's library: the longest prefix first (cublasLt before cublas, cuda before cu)
CALL_PREFIXES = tuple(sorted((prefix for library in LIBRARIES for prefix in library.call_prefixes), key=lambda p: -len(p)))
NUMBER_HINTS = tuple((library.api, re.compile(library.hint)) for library in LIBRARIES if library.hint)
BY_DEFAULT = tuple(library.api for library in LIBRARIES if library.by_default)


def call_library(function):
    """The prefix of the library a function belongs to ("cublasLt" for cublasLtMatmul), or "" for none known."""
    return next((prefix for prefix in CALL_PREFIXES if (function or "").startswith(prefix)), "")


def number_apis(text):
    """The APIs a bare number in this text may belong to, the likeliest first: those the text hints at, in the table's
    order, then those a number is read as by default."""
    apis = [api for api, hint in NUMBER_HINTS if hint.search(text)]
    return apis + [api for api in BY_DEFAULT if api not in apis]
