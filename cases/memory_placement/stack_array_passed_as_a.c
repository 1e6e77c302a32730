/* stack_array_passed_as_a — A is a local array on the host stack.
 *
 * The mistake: a small matrix built in a local array ("it's only 16×16")
 * passed straight to cublasSgemm.
 *
 * What the program sees: as host_pointer_passed_to_gemm: on a GPU that
 * cannot address pageable memory, the call succeeds, and the kernel's read
 * of a stack address faults at the next synchronize — sticky. Even with HMM,
 * a stack that has returned is gone by the time the kernel runs.
 *
 * What a PyTorch user sees: "Expected all tensors to be on the same device"
 * — a CPU tensor never reaches cuBLAS.
 *
 * Why: the stack is pageable host memory.
 *
 * The fix: cudaMemcpy the array to device memory first (cublasSetMatrix).
 *
 * References: cuBLAS documentation, cublasSetMatrix
 * (https://docs.nvidia.com/cuda/cublas/#cublassetmatrix).
 *
 * atlas:cause host_pointer_used_on_device
 */
#include "atlas_cublas.h"

enum { M = 16, N = 16, K = 16 };

static void gemm_with_stack_a(int a_on_stack)
{
    struct atlas_gemm g;
    float stack_a[M * K] = {0};
    if (!atlas_gemm_begin(&g, M * K))
        return;
    if (!a_on_stack)
        ATLAS_CUBLAS("copy", cublasSetMatrix(M, K, sizeof(float), stack_a, M, g.a, M));
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                     a_on_stack ? stack_a : g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void array_copied_to_device(void) { gemm_with_stack_a(0); }
static void array_on_stack(void) { gemm_with_stack_a(1); }

ATLAS_CASE(array_copied_to_device, array_on_stack)
