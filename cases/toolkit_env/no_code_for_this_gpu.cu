/* no_code_for_this_gpu — a binary built only for sm_75 (Turing) machine
 * code, run on a newer GPU.
 *
 * The mistake: building with -arch=sm_75 (or CMAKE_CUDA_ARCHITECTURES=75-real)
 * and no PTX. Machine code (SASS) runs only on its own architecture family;
 * only PTX can be compiled forward for a newer GPU at load time.
 *
 * What the program sees (every GPU environment recorded: H100 with CUDA
 * 11.8, 12.4 and 13.0 in every run mode, H200 with runtimes 11.8 to 13.5,
 * two H200s): the launch check, cudaGetLastError right after the <<<>>>, returns
 * cudaErrorNoKernelImageForDevice ("no kernel image is available for
 * execution on the device"), the output is never written (result_wrong),
 * and the error is not sticky. The fixed variant loads the same kernel as
 * PTX text (cudaLibraryLoadData), which the driver compiles for this GPU,
 * and runs it correctly (runtimes 12.8 and later; before, the fixed variant
 * skips: no cudaLibraryLoadData).
 *
 * What a PyTorch user sees: "CUDA error: no kernel image is available for
 * execution on the device" with a PyTorch or extension build that lacks this
 * GPU's architecture (not recorded: the installed PyTorch has it).
 *
 * Why: a fatbinary carries SASS for the listed architectures and, optionally,
 * PTX; with neither for this GPU, nothing can run.
 *
 * The fix: build for the GPUs you run on, and include PTX for the newest
 * (e.g. CMAKE_CUDA_ARCHITECTURES="80-real;90" gives sm_90 SASS and compute_90 PTX).
 *
 * References: CUDA Compiler Driver NVCC, "GPU Compilation" and "Virtual
 * Architectures" (https://docs.nvidia.com/cuda/cuda-compiler-driver-nvcc/#gpu-compilation).
 *
 * atlas:cuda-architectures=75-real
 *
 * atlas:cause no_kernel_image_for_arch
 */
#include "atlas.h"

extern "C" __global__ void write_index(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i;
}

/* The same kernel as PTX (nvcc -ptx -arch=compute_75), for the driver to compile. */
static const char write_index_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry write_index(.param .u64 out, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r2, [n];\n"
    "  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r1, %r3, %r4, %r5;\n  setp.ge.s32 %p1, %r1, %r2;\n  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n  mul.wide.s32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r1;\nDONE:\n  ret;\n}\n";

static void run_kernel(int from_ptx)
{
    int *out = NULL, n = 256, last = -1;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, n * sizeof(int))))
        return;
    if (from_ptx) {
#if CUDART_VERSION < 12080
        atlas_skip("the fixed variant loads PTX with cudaLibraryLoadData, which the runtime headers have from CUDA 12.8 (not in 12.5 or 12.6)");
#else
        cudaLibrary_t library;
        cudaKernel_t kernel;
        void *args[] = {&out, &n};
        if (ATLAS_CUDA("load_ptx", cudaLibraryLoadData(&library, write_index_ptx, NULL, NULL, 0, NULL, NULL, 0))
            && ATLAS_CUDA("get_kernel", cudaLibraryGetKernel(&kernel, library, "write_index")))
            ATLAS_CUDA("launch", cudaLaunchKernel((const void *)kernel, dim3(1), dim3(n), args, 0, 0));
#endif
    } else {
        write_index<<<1, n>>>(out, n);
        ATLAS_CUDA("launch", cudaGetLastError());
    }
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy", cudaMemcpy(&last, out + n - 1, sizeof last, cudaMemcpyDeviceToHost)))
        atlas_check("result", last == n - 1, "last element written");
    cudaFree(out);
}

static void kernel_from_ptx(void) { run_kernel(1); }
static void kernel_from_sm75_binary(void) { run_kernel(0); }

ATLAS_CASE(kernel_from_ptx, kernel_from_sm75_binary)
