/* atlas.h — the support library every case links.
 *
 * A case records what the CUDA and cuBLAS APIs return; it never judges and
 * never aborts on an API error. The runner (atlas-run) reads the records and
 * compares them with the rules in expected/.
 *
 *   ATLAS_CUDA("step", call)     record a CUDA runtime call; true if it succeeded
 *   ATLAS_CUBLAS("step", call)   the same for cuBLAS (include atlas_cublas.h)
 *   atlas_check("step", ok, ...) record whether a result matched its reference
 *   atlas_quantity(name, v, u)   note a measured quantity
 *   atlas_skip(reason)           this case cannot run here (exit 77)
 *   atlas_fill_gpu(headroom)     take the GPU's free memory (atlas_release_gpu)
 *   ATLAS_CASE(fixed, broken)    the case's main: runs one variant, then probes
 *                                whether the CUDA context is still usable
 *
 * Records go to the file named by $ATLAS_RECORD, in the format record.h
 * describes (one line each, written with a single write(2), so a crash loses
 * nothing already recorded) and, readable, to stdout.
 */
#ifndef ATLAS_H
#define ATLAS_H

#include <stdbool.h>
#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record one API call: its step name (what rules refer to), its API family
 * ("cuda", "cublas", "cu"), the call's text, its numeric and symbolic status,
 * and whether that status is the family's success code (recorded as given,
 * and returned). */
bool atlas_record_call(const char *step, const char *api, const char *text,
                       long code, const char *name, bool success);

bool atlas_cuda_call(const char *step, const char *text, cudaError_t status);

/* Record whether a computed result matched its reference. */
bool atlas_check(const char *step, bool ok, const char *fmt, ...);

void atlas_quantity(const char *name, double value, const char *unit);
void atlas_note(const char *fmt, ...);

/* The case cannot run in this environment; exits with 77. */
void atlas_skip(const char *reason)
#ifndef __cplusplus
    __attribute__((noreturn))
#endif
    ;

/* Take (nearly) all free GPU memory with plain cudaMalloc — never managed
 * memory — leaving about `headroom` bytes; bounded, and undone by
 * atlas_release_gpu (process exit frees it too). Records the quantity
 * "filled_bytes" and returns it. The allocation that fails along the way is
 * expected and cleared from the last-error slot. */
size_t atlas_fill_gpu(size_t headroom);
void atlas_release_gpu(void);

typedef void (*atlas_variant_fn)(void);
int atlas_main(int argc, char **argv, atlas_variant_fn fixed, atlas_variant_fn broken);

#define ATLAS_CUDA(step, call) atlas_cuda_call((step), #call, (call))

#define ATLAS_CASE(fixed, broken)                                             \
    int main(int argc, char **argv) { return atlas_main(argc, argv, (fixed), (broken)); }

#ifdef __cplusplus
}
#endif

#endif
