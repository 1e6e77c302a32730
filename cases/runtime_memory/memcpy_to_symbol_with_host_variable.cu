/* memcpy_to_symbol_with_host_variable — cudaMemcpyToSymbol given a host
 * variable where it needs a __device__ (or __constant__) one.
 *
 * The mistake: the symbol argument names a variable that lives on the host:
 * a local or global that shadows the __constant__ array of the same name, a
 * host mirror of the table, or (before CUDA 5) the variable's name as a
 * string. It compiles: the runtime's template takes any object.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): cudaMemcpyToSymbol returns
 * cudaErrorInvalidSymbol ("invalid device symbol") at the call and copies
 * nothing. The error also waits in the last-error slot: the cudaGetLastError
 * after the next, correct kernel launch reports cudaErrorInvalidSymbol as if
 * the launch had failed. The kernel runs and reads the __constant__ array's
 * zeros (result_wrong); the synchronize returns cudaSuccess; not sticky.
 *
 * What a PyTorch user sees: nothing of this kind; PyTorch has no device
 * symbols to copy to from Python (extensions that do meet the C status).
 *
 * Why: cudaMemcpyToSymbol looks the address up in the table of device
 * variables the fatbinary registered; a host address is not in it, so
 * nothing is copied, and the kernel reads whatever the device variable held.
 *
 * The fix: pass the __device__/__constant__ variable itself (not a string,
 * not a host copy, not a shadowing local); or copy to the address that
 * cudaGetSymbolAddress returns.
 *
 * References: erwincoumans/fluids_v3#1 ("invalid device symbol" from
 * cudaMemcpyToSymbol("symData", ...), a host string where a device variable
 * belongs, https://github.com/erwincoumans/fluids_v3/issues/1), and
 * ROCm/hip#1837 (a local array shadowing the __constant__ one); CUDA Runtime
 * API, cudaMemcpyToSymbol
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "symbol is a variable that resides in global or constant memory space".
 *
 * atlas:cause memcpy_to_symbol_host_variable
 */
#include "atlas.h"

enum { N = 4 };

__constant__ float weights[N];
static float weights_on_host[N];

__global__ void read_weights(float *out)
{
    if (threadIdx.x < N)
        out[threadIdx.x] = weights[threadIdx.x];
}

static void set_weights(const void *symbol)
{
    const float values[N] = {1, 2, 3, 4};
    float back[N] = {0}, *out = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof back)))
        return;
    ATLAS_CUDA("copy", cudaMemcpyToSymbol(symbol, values, sizeof values, 0, cudaMemcpyHostToDevice));
    read_weights<<<1, N>>>(out);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy_back", cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost)))
        atlas_check("result", back[0] == 1 && back[3] == 4, "the kernel read weights %g %g %g %g (1 2 3 4 expected)",
                    back[0], back[1], back[2], back[3]);
    cudaFree(out);
}

static void constant_variable(void) { set_weights(weights); }
static void host_variable(void) { set_weights(weights_on_host); }

ATLAS_CASE(constant_variable, host_variable)
