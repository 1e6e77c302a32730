"""Writes the status tables explain reads besides error_strings_*.tsv:
names and numbers from the toolkit's own headers, and the text the library
prints where the library can say it without a GPU (ncclGetErrorString,
cudnnGetErrorString through ctypes). Run on a machine with the toolkit:

    cuda-atlas status-tables [/usr/local/cuda]
    cuda-atlas status-tables --runtime LIBCUDART.so SOURCE

The second form writes what an older runtime's cudaGetErrorName and
cudaGetErrorString print (they need no driver), e.g. from Debian's
libcudart11.0 11.8.89~11.8.0-5~deb12u1 (bookworm) or libcudart12
12.4.127~12.4.1-2 (trixie), unpacked with dpkg -x.

Each table says, in its header lines, the header (and version) it came from.
Standard library only.
"""
import ctypes
import os
import re
import sys

from .results import ROOT

# the tables explain reads (cuda-atlas status-tables writes them here)
STATUS_NAMES = os.path.join(ROOT, "data", "status_names")


def enum_values(text, first, prefix):
    """[(name, value)] of the enum that contains `first`, for names starting with prefix."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    start = text.index(first)
    start = text.rfind("{", 0, start)
    body = text[start + 1:text.index("}", start)]
    values, known = [], {}
    for match in re.finditer(r"\b(%s\w+)\s*(?:\w+\s*)?=\s*(0x[0-9a-fA-F]+|-?\d+|\w+)" % prefix, body):
        name, value = match.groups()
        value = known[value] if value in known else int(value, 0)
        known[name] = value
        values.append((name, value))
    return values


def meanings(text, pattern):
    """{name: the header's doc comment on it, in one line} for enumerators matching pattern."""
    found = {}
    for comment, name in re.findall(r"/\*\*((?:(?!\*/).)*?)\*/\s*(%s)\s*=" % pattern, text, re.S):
        comment = re.sub(r"\s*\*\s*", " ", comment).replace("\\deprecated", "(deprecated)").replace("::", "")
        found[name] = re.sub(r"\s+", " ", comment).strip()
    return found


def version(include, macro_names):
    for header, macro in macro_names:
        path = os.path.join(include, header)
        if os.path.exists(path):
            found = re.search(r"#define\s+%s\s+(\d+)" % macro, open(path, encoding="utf-8", errors="replace").read())
            if found:
                return found.group(1)
    return "?"


def release(include, header, *macros):
    """A library's version from its header's macros, joined with dots (NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH: 2.28.9)."""
    return ".".join(version(include, [(header, macro)]) for macro in macros)


def library_text(library, function, value):
    try:
        lib = ctypes.CDLL(library)
        getter = getattr(lib, function)
        getter.restype = ctypes.c_char_p
        getter.argtypes = [ctypes.c_int]
        return (getter(value) or b"").decode("utf-8", "replace")
    except (OSError, AttributeError):
        return ""


def write(name, api, rows, source):
    path = os.path.join(STATUS_NAMES, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# %s\n# Columns: api, code, name, text (what the library prints; empty where it cannot say without a GPU)\n" % source)
        for row_name, value, text in rows:
            text = "" if text == row_name and api != "cuda" else text     # cuDNN prints the name itself
            f.write("%s\t%d\t%s\t%s\n" % (api, value, row_name, text))
    print("%s: %d statuses" % (path, len(rows)))


def runtime_strings(library, source):
    lib = ctypes.CDLL(library)
    for name in ("cudaGetErrorName", "cudaGetErrorString"):
        getattr(lib, name).restype = ctypes.c_char_p
        getattr(lib, name).argtypes = [ctypes.c_int]
    # the file's name says the version (CUDA 11.8's cudaRuntimeGetVersion fails without a driver)
    major, minor = (int(x) for x in re.search(r"\.so\.(\d+)\.(\d+)", library).groups())
    rows = []
    for code in range(0, 10001):
        name = lib.cudaGetErrorName(code).decode()
        if name.startswith("cuda"):
            rows.append((name, code, lib.cudaGetErrorString(code).decode()))
    write("cudart-%d.%d.tsv" % (major, minor), "cuda", rows,
          "What CUDA runtime %d.%d's cudaGetErrorName/cudaGetErrorString print: %s (%s)" % (major, minor, os.path.basename(library), source))


def main(argv):
    if len(argv) > 1 and argv[1] == "--runtime":
        return runtime_strings(argv[2], argv[3])
    cuda = argv[1] if len(argv) > 1 else "/usr/local/cuda"
    include, lib = os.path.join(cuda, "include"), os.path.join(cuda, "lib64")
    read = lambda header: open(os.path.join(include, header), encoding="utf-8", errors="replace").read()
    with open(os.path.join(STATUS_NAMES, "meanings_cuda-%s.tsv" % version(include, [("cuda.h", "CUDA_VERSION")])), "w", encoding="utf-8") as f:
        f.write("# What each status means, from the doc comments of %s/include/driver_types.h (runtime) and cuda.h (driver API)\n"
                "# Columns: name, meaning\n" % cuda)
        for header, pattern in (("driver_types.h", r"cudaError\w+"), ("cuda.h", r"CUDA_ERROR_\w+")):
            for name, meaning in meanings(read(header), pattern).items():
                f.write("%s\t%s\n" % (name, meaning))
    cuda_version = version(include, [("cuda.h", "CUDA_VERSION")])
    write("driver_api_cuda-%s.tsv" % cuda_version, "cu",
          [(n, v, "") for n, v in enum_values(read("cuda.h"), "CUDA_ERROR_INVALID_VALUE", "CUDA_")],
          "Driver API CUresult (cuGetErrorName): %s/include/cuda.h, CUDA_VERSION %s" % (cuda, cuda_version))
    nccl = release(include, "nccl.h", "NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH")
    write("nccl-%s.tsv" % nccl, "nccl",
          [(n, v, library_text(os.path.join(lib, "libnccl.so.2"), "ncclGetErrorString", v))
           for n, v in enum_values(read("nccl.h"), "ncclUnhandledCudaError", "nccl") if n != "ncclNumResults"],
          "NCCL ncclResult_t: %s/include/nccl.h (NCCL %s); text from ncclGetErrorString" % (cuda, nccl))
    cudnn = release(include, "cudnn_version.h", "CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL")
    write("cudnn-%s.tsv" % cudnn, "cudnn",
          [(n, v, library_text(os.path.join(lib, "libcudnn.so.9"), "cudnnGetErrorString", v))
           for n, v in enum_values(read("cudnn_graph.h"), "CUDNN_STATUS_NOT_INITIALIZED", "CUDNN_STATUS_")],
          "cuDNN cudnnStatus_t: %s/include/cudnn_graph.h (cuDNN %s; cuDNN 8 numbered these 0-14); text from cudnnGetErrorString" % (cuda, cudnn))
    cusolver = release(include, "cusolver_common.h", "CUSOLVER_VER_MAJOR", "CUSOLVER_VER_MINOR", "CUSOLVER_VER_PATCH")
    write("cusolver-%s.tsv" % cusolver, "cusolver",
          [(n, v, "") for n, v in enum_values(read("cusolver_common.h"), "CUSOLVER_STATUS_NOT_INITIALIZED", "CUSOLVER_STATUS_")],
          "cuSOLVER cusolverStatus_t: %s/include/cusolver_common.h (cuSOLVER %s)" % (cuda, cusolver))
    nvrtc = "%d.%d" % (int(cuda_version) // 1000, int(cuda_version) % 1000 // 10)     # NVRTC is the toolkit's version
    write("nvrtc-%s.tsv" % nvrtc, "nvrtc",
          [(n, v, library_text(os.path.join(lib, "libnvrtc.so.%d" % (int(cuda_version) // 1000)), "nvrtcGetErrorString", v))
           for n, v in enum_values(read("nvrtc.h"), "NVRTC_ERROR_OUT_OF_MEMORY", "NVRTC_")],
          "NVRTC nvrtcResult: %s/include/nvrtc.h (CUDA %s); text from nvrtcGetErrorString (its enumerator's name)" % (cuda, nvrtc))
    cufft = version(include, [("cufft.h", "CUFFT_VERSION")])
    write("cufft-%s.tsv" % cufft, "cufft",
          [(n, v, "") for n, v in enum_values(read("cufft.h"), "CUFFT_ALLOC_FAILED", "CUFFT_")],
          "cuFFT cufftResult: %s/include/cufft.h (CUFFT_VERSION %s)" % (cuda, cufft))
    curand = release(include, "curand.h", "CURAND_VER_MAJOR", "CURAND_VER_MINOR", "CURAND_VER_PATCH")
    write("curand-%s.tsv" % curand, "curand",
          [(n, v, "") for n, v in enum_values(read("curand.h"), "CURAND_STATUS_VERSION_MISMATCH", "CURAND_STATUS_")],
          "cuRAND curandStatus_t: %s/include/curand.h (cuRAND %s)" % (cuda, curand))
    cusparse = release(include, "cusparse.h", "CUSPARSE_VER_MAJOR", "CUSPARSE_VER_MINOR", "CUSPARSE_VER_PATCH")
    write("cusparse-%s.tsv" % cusparse, "cusparse",
          [(n, v, "") for n, v in enum_values(read("cusparse.h"), "CUSPARSE_STATUS_NOT_INITIALIZED", "CUSPARSE_STATUS_")],
          "cuSPARSE cusparseStatus_t: %s/include/cusparse.h (cuSPARSE %s)" % (cuda, cusparse))
    # cuRAND documents each status in a trailing ///< comment
    with open(os.path.join(STATUS_NAMES, "meanings_curand-%s.tsv" % curand), "w", encoding="utf-8") as f:
        f.write("# What each status means, from the ///< comments of %s/include/curand.h (cuRAND %s)\n"
                "# Columns: name, meaning\n" % (cuda, curand))
        for name, meaning in re.findall(r"\b(CURAND_STATUS_\w+)\s*=\s*\d+\s*,?\s*///<\s*(.*)", read("curand.h")):
            f.write("%s\t%s\n" % (name, meaning.strip()))


if __name__ == "__main__":
    main(sys.argv)
