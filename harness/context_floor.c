/* atlas-context-floor — the cheapest CUDA program: start, create the
 * context, exit. The benchmark's unit of per-case overhead. */
#include <cuda_runtime_api.h>

int main(void) { return cudaFree(0) == cudaSuccess ? 0 : 1; }
