/* cuda_result_decoded_with_runtime_strings — a driver API status (CUresult)
 * printed with the runtime's cudaGetErrorName / cudaGetErrorString.
 *
 * The mistake: one error-checking macro for both APIs, casting a CUresult to
 * cudaError_t and asking the runtime for its name. The two enums agree on
 * many numbers but not all: where they differ, the message names another
 * error, or none.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): cuInit succeeds and
 * cuMemGetInfo, with no context current, returns CUDA_ERROR_INVALID_CONTEXT
 * (201) in both variants; the broken variant prints it as
 * "cudaErrorDeviceUninitialized (201): invalid device context" — the
 * runtime's name for 201 (check names_agree: result_wrong) — while the text
 * is the driver's. Over 0..1000, cuGetErrorName names 101 codes and
 * cudaGetErrorName 133; 99 are named by both, and their cuGetErrorString and
 * cudaGetErrorString texts agree for all 99, but 14 names are spelled
 * differently: most are synonyms (2 CUDA_ERROR_OUT_OF_MEMORY /
 * cudaErrorMemoryAllocation, 400 CUDA_ERROR_INVALID_HANDLE /
 * cudaErrorInvalidResourceHandle, 209 CUDA_ERROR_NO_BINARY_FOR_GPU /
 * cudaErrorNoKernelImageForDevice), some name another thing (201
 * INVALID_CONTEXT / DeviceUninitialized, 4 DEINITIALIZED / CudartUnloading,
 * 708 PRIMARY_CONTEXT_ACTIVE / SetOnActiveProcess, 216
 * CONTEXT_ALREADY_IN_USE / DeviceAlreadyInUse). Two driver codes, 202
 * (CUDA_ERROR_CONTEXT_ALREADY_CURRENT) and 916 (CUDA_ERROR_KEY_ROTATION), have no runtime name at all.
 * cudaGetErrorName needs no driver (133 names without one); the driver's
 * half of the table needs libcuda, so without a driver only open_driver is
 * recorded.
 *
 * What a PyTorch user sees: the wrong name in an extension's or a framework's
 * message for a driver-API failure (vllm-project/vllm#35612); PyTorch's own
 * driver-API checks use cuGetErrorString (not recorded here).
 *
 * Why: CUresult and cudaError_t are separate enums that were numbered alike
 * where they could be; the runtime has errors the driver lacks and the
 * reverse, and cudaGetErrorName knows only its own.
 *
 * The fix: decode a CUresult with cuGetErrorName / cuGetErrorString (the
 * fixed variant), or keep one macro per API.
 *
 * References: vllm-project/vllm#35612; eyalroz/cuda-api-wrappers#543, the
 * reverse gap, "Some of our status codes are Runtime-API-only errors ... we
 * fail to obtain error strings for them, since we only try cuGetErrorString()"
 * (https://github.com/eyalroz/cuda-api-wrappers/issues/543); CUDA Driver API,
 * cuGetErrorName (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__ERROR.html);
 * CUDA Runtime API, cudaGetErrorName
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__ERROR.html).
 *
 * atlas:cause driver_status_decoded_as_runtime_status
 */
#include "atlas_driver.h"

#include <ctype.h>
#include <string.h>

/* libcuda's functions, found at run time (harness/atlas_driver.h) */
static struct atlas_driver cu;

/* CUDA_ERROR_INVALID_CONTEXT and cudaErrorInvalidContext as one spelling:
 * without prefix and underscores, lower case. */
static void normalise(const char *name, char *out, size_t size)
{
    size_t k = 0;
    if (strncmp(name, "CUDA_ERROR_", 11) == 0)
        name += 11;
    else if (strncmp(name, "CUDA_", 5) == 0)
        name += 5;
    else if (strncmp(name, "cudaError", 9) == 0)
        name += 9;
    else if (strncmp(name, "cuda", 4) == 0)
        name += 4;
    for (; *name && k + 1 < size; name++)
        if (*name != '_')
            out[k++] = (char)tolower((unsigned char)*name);
    out[k] = '\0';
}

/* Every number 0..1000 through both decoders: which ones each enum knows, and
 * where a number known to both names different errors or prints different
 * text. */
static void compare_the_enums(void)
{
    int driver_known = 0, runtime_known = 0, both = 0, names_differ = 0, strings_differ = 0, driver_only = 0;
    char differ[900] = "", only[900] = "";
    for (int code = 0; code <= 1000; code++) {
        const char *dname = NULL, *dstring = NULL;
        bool in_driver = cu.cuGetErrorName((CUresult)code, &dname) == CUDA_SUCCESS && dname;
        const char *rname = cudaGetErrorName((cudaError_t)code);
        bool in_runtime = rname && strncmp(rname, "cudaError", 9) == 0 && strcmp(rname, "cudaErrorUnknown") != 0;
        if (code == 0 || code == cudaErrorUnknown)
            in_runtime = true;
        driver_known += in_driver;
        runtime_known += in_runtime;
        if (in_driver && !in_runtime) {
            driver_only++;
            snprintf(only + strlen(only), sizeof only - strlen(only), " %d", code);
        }
        if (!(in_driver && in_runtime))
            continue;
        both++;
        char a[96], b[96];
        normalise(dname, a, sizeof a);
        normalise(rname, b, sizeof b);
        if (strcmp(a, b) != 0) {
            names_differ++;
            snprintf(differ + strlen(differ), sizeof differ - strlen(differ), " %d=%s/%s", code, dname, rname);
        }
        if (cu.cuGetErrorString((CUresult)code, &dstring) == CUDA_SUCCESS && dstring
            && strcmp(dstring, cudaGetErrorString((cudaError_t)code)) != 0)
            strings_differ++;
    }
    atlas_quantity("codes_named_by_driver", driver_known, "of 0..1000, cuGetErrorName succeeds");
    atlas_quantity("codes_named_by_runtime", runtime_known, "of 0..1000, cudaGetErrorName names a cudaError");
    atlas_quantity("codes_named_by_both", both, "of 0..1000");
    atlas_quantity("codes_whose_names_differ", names_differ, "of those named by both");
    atlas_quantity("codes_whose_strings_differ", strings_differ, "of those named by both");
    atlas_quantity("codes_only_the_driver_names", driver_only, "cudaGetErrorName: unrecognized");
    atlas_note("names differ (driver/runtime):%s", differ[0] ? differ : " none");
    atlas_note("driver-only codes (runtime prints no name of its own):%s", only[0] ? only : " none");
}

static void decode_a_driver_failure(bool with_runtime_strings)
{
    if (!atlas_driver_open(&cu)) {
        /* The runtime's half of the table needs no driver. */
        int runtime_known = 0;
        for (int code = 0; code <= 1000; code++) {
            const char *rname = cudaGetErrorName((cudaError_t)code);
            runtime_known += code == 0 || (rname && strncmp(rname, "cudaError", 9) == 0
                                           && (code == cudaErrorUnknown || strcmp(rname, "cudaErrorUnknown") != 0));
        }
        atlas_quantity("codes_named_by_runtime", runtime_known, "of 0..1000, cudaGetErrorName names a cudaError");
        atlas_note("cudaGetErrorName((cudaError_t)201) without a driver: %s", cudaGetErrorName((cudaError_t)201));
        return;
    }
    size_t free_bytes = 0, total_bytes = 0;
    if (!atlas_cu_status("init", "cuInit(0)", cu.cuInit(0), cu.cuGetErrorName))
        return;
    /* A driver call that fails: no context is current after cuInit alone. */
    CUresult status = cu.cuMemGetInfo(&free_bytes, &total_bytes);
    atlas_cu_status("mem_get_info", "cuMemGetInfo(&free, &total)", status, cu.cuGetErrorName);

    const char *truth = NULL, *truth_text = NULL, *printed, *printed_text;
    cu.cuGetErrorName(status, &truth);
    cu.cuGetErrorString(status, &truth_text);
    if (with_runtime_strings) {
        printed = cudaGetErrorName((cudaError_t)status);
        printed_text = cudaGetErrorString((cudaError_t)status);
    } else {
        printed = truth;
        printed_text = truth_text;
    }
    fprintf(stderr, "cuMemGetInfo failed: %s (%d): %s\n", printed ? printed : "(null)", (int)status,
            printed_text ? printed_text : "(null)");
    char a[96] = "", b[96] = "";
    if (printed && truth) {
        normalise(printed, a, sizeof a);
        normalise(truth, b, sizeof b);
    }
    atlas_check("names_agree", printed && truth && strcmp(a, b) == 0,
                "printed %s for CUresult %d; cuGetErrorName says %s", printed ? printed : "(null)", (int)status,
                truth ? truth : "(null)");
    compare_the_enums();
}

static void decoded_with_driver_strings(void) { decode_a_driver_failure(false); }
static void decoded_with_runtime_strings(void) { decode_a_driver_failure(true); }

ATLAS_CASE(decoded_with_driver_strings, decoded_with_runtime_strings)
