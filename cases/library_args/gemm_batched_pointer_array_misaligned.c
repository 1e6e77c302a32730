/* gemm_batched_pointer_array_misaligned — cublasGemmBatchedEx given a device
 * array of matrix pointers that starts 8 bytes past a 16-byte boundary.
 *
 * The mistake: packing the pointer arrays of a batched GEMM back to back in
 * one device buffer. FasterTransformer's fused Q/K/V projection (a batch of
 * 3 half-precision GEMMs) put the 3 weight pointers, the 3 input pointers
 * and the 3 output pointers in one buffer of 9 pointers: the input array
 * then starts at byte 24, which is 8-byte but not 16-byte aligned. The
 * matrices themselves are all aligned; only the array of pointers is not.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0, cuBLAS 13.1):
 * nothing. cublasGemmBatchedEx (fp16 A, B and C, CUBLAS_COMPUTE_32F,
 * CUBLAS_GEMM_DEFAULT_TENSOR_OP) with the input pointer array at byte 24
 * (and the output array at byte 48) returns CUBLAS_STATUS_SUCCESS, the sync
 * succeeds, and Q, K and V are right (every element 512, 256 and 128), as
 * with the padded layout. The same misaligned arrays are accepted with
 * CUBLAS_GEMM_DEFAULT, with fp32 operands, by cublasSgemmBatched and with
 * CUBLAS_COMPUTE_16F (notes). The check FasterTransformer#149 met in the
 * cuBLAS of the PyTorch 21.03 container (CUDA 11.2, as the reporter says)
 * is not there in this version, or not for this GPU: the broken variant is
 * recorded as it behaves here, successfully, and has no rule.
 *
 * What a PyTorch user sees: nothing of this kind. torch.bmm calls the
 * strided batched GEMMs (city-super/Scaffold-GS#83 shows a bmm failing in
 * cublasSgemmStridedBatched), which take one pointer and a stride per
 * operand: there is no array of pointers to misplace, so there is no
 * mirror. It reaches PyTorch users through extensions that call
 * cublasGemmBatchedEx themselves, as FasterTransformer's did
 * (FasterTransformer#149 ran in the nvcr.io PyTorch container).
 *
 * Why: the batched kernels read each matrix's address from the device
 * arrays of pointers. The maintainer's explanation in FasterTransformer#149
 * is that the cuBLAS of that time checked the alignment of these arrays and
 * returned CUBLAS_STATUS_NOT_SUPPORTED for one that was not aligned enough.
 * cuBLAS 13.1 on the H100 takes an 8-byte-aligned array and computes the
 * right product; this run cannot tell whether the check was removed or is
 * limited to other GPUs or kernels.
 *
 * The fix: give each pointer array its own 16-byte-aligned start: pad each
 * group to a multiple of two pointers (FasterTransformer's fix: groups of 4,
 * a null pointer after each 3), or allocate the arrays separately
 * (cudaMalloc returns at least 256-byte-aligned memory).
 *
 * References: NVIDIA/FasterTransformer#149 (CUBLAS_STATUS_NOT_SUPPORTED from
 * the Q/K/V cublasGemmBatchedEx in the 21.03 container, not in 20.12; the
 * maintainer: "There is a new checking in newer cublas, which requires the
 * alignment of pointer of array in cublasGemmBatchedEx ... You can pad the
 * array of pointer"); cuBLAS documentation, cublasGemmBatchedEx
 * (https://docs.nvidia.com/cuda/cublas/#cublasgemmbatchedex).
 *
 * atlas:cause batched_gemm_pointer_array_misaligned
 */
#include "atlas_cublas.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FasterTransformer#149's layer: hidden 1024, batch 4 × sequence 100 = 400
 * tokens; C (1024 × 400) = W (1024 × 1024) · X (1024 × 400), 3 times. */
enum { HIDDEN = 1024, TOKENS = 400, BATCH = 3 };

/* Half-precision bit patterns: weights 1, 1/2, 1/4; input 1/2; so every
 * output element is 1024 · 1/2 · weight = 512, 256 or 128, exactly. */
static const uint16_t weight_bits[BATCH] = {0x3C00, 0x3800, 0x3400};
static const uint16_t input_bits = 0x3800;
static const uint16_t output_bits[BATCH] = {0x6000, 0x5C00, 0x5800};

struct operands {
    void *weight[BATCH], *input, *output[BATCH];
    void **arrays; /* one device buffer: weight, input and output pointers */
};

static bool fill(void *device, uint16_t bits, size_t elements)
{
    uint16_t *host = malloc(elements * sizeof *host);
    if (!host)
        return false;
    for (size_t i = 0; i < elements; i++)
        host[i] = bits;
    bool ok = ATLAS_CUDA("upload", cudaMemcpy(device, host, elements * sizeof *host, cudaMemcpyHostToDevice));
    free(host);
    return ok;
}

/* Matrix buffers are sized for floats, so that the notes below may reuse
 * them for single-precision calls. */
static bool operands_begin(struct operands *o, int group)
{
    memset(o, 0, sizeof *o);
    const size_t w_bytes = sizeof(float) * HIDDEN * HIDDEN, x_bytes = sizeof(float) * HIDDEN * TOKENS;
    bool ok = ATLAS_CUDA("alloc", cudaMalloc(&o->input, x_bytes)) && fill(o->input, input_bits, HIDDEN * TOKENS);
    for (int i = 0; ok && i < BATCH; i++)
        ok = ATLAS_CUDA("alloc", cudaMalloc(&o->weight[i], w_bytes))
             && ATLAS_CUDA("alloc", cudaMalloc(&o->output[i], x_bytes))
             && ATLAS_CUDA("alloc", cudaMemset(o->output[i], 0, x_bytes))
             && fill(o->weight[i], weight_bits[i], HIDDEN * HIDDEN);
    ok = ok && ATLAS_CUDA("alloc", cudaMalloc((void **)&o->arrays, sizeof(void *) * 3 * 4));
    if (ok) {
        /* FasterTransformer's layout: 3 groups of `group` pointers, null padding. */
        void *host[3 * 4] = {0};
        for (int i = 0; i < BATCH; i++) {
            host[i] = o->weight[i];
            host[group + i] = o->input;
            host[2 * group + i] = o->output[i];
        }
        ok = ATLAS_CUDA("upload", cudaMemcpy(o->arrays, host, sizeof host, cudaMemcpyHostToDevice));
    }
    return ok;
}

static void operands_end(struct operands *o)
{
    cudaFree(o->input);
    cudaFree(o->arrays);
    for (int i = 0; i < BATCH; i++)
        cudaFree(o->weight[i]), cudaFree(o->output[i]);
}

static cublasStatus_t qkv_gemm(cublasHandle_t h, void **w, void **x, void **c, cudaDataType type,
                               cublasComputeType_t compute, cublasGemmAlgo_t algo)
{
    const float one = 1.0f, zero = 0.0f;
    return cublasGemmBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, HIDDEN, TOKENS, HIDDEN, &one, (const void *const *)w,
                               type, HIDDEN, (const void *const *)x, type, HIDDEN, &zero, (void *const *)c, type,
                               HIDDEN, BATCH, compute, algo);
}

/* Which arrays, types and routines the check covers: notes only. */
static void other_layouts(cublasHandle_t h, struct operands *o, int group)
{
    void **w = o->arrays, **x = o->arrays + group, **c = o->arrays + 2 * group;
    const float one = 1.0f, zero = 0.0f;
    struct {
        const char *what;
        cublasStatus_t status;
    } tried[4];
    int n = 0;
    tried[n].what = "fp16 GEMM_DEFAULT, input array +24";
    tried[n++].status = qkv_gemm(h, w, x, c, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    tried[n].what = "fp32 GemmBatchedEx, input array +24";
    tried[n++].status = qkv_gemm(h, w, x, c, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    tried[n].what = "cublasSgemmBatched, input array +24";
    tried[n++].status = cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, HIDDEN, TOKENS, HIDDEN, &one,
                                           (const float *const *)w, HIDDEN, (const float *const *)x, HIDDEN, &zero,
                                           (float *const *)c, HIDDEN, BATCH);
    {
        /* Half-precision compute takes half-precision alpha and beta. */
        const uint16_t h_one = 0x3C00, h_zero = 0;
        tried[n].what = "fp16 COMPUTE_16F, input array +24";
        tried[n++].status = cublasGemmBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, HIDDEN, TOKENS, HIDDEN, &h_one,
                                                (const void *const *)w, CUDA_R_16F, HIDDEN, (const void *const *)x,
                                                CUDA_R_16F, HIDDEN, &h_zero, (void *const *)c, CUDA_R_16F, HIDDEN,
                                                BATCH, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    }
    cudaError_t sync = cudaDeviceSynchronize();
    char text[500] = "";
    for (int i = 0; i < n; i++) {
        const char *name = cublasGetStatusName(tried[i].status);
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s: %s; ", tried[i].what, name ? name : "?");
    }
    atlas_note("%sthen cudaDeviceSynchronize: %s", text, cudaGetErrorName(sync));
}

static void fused_qkv(int group)
{
    struct operands o;
    cublasHandle_t handle;
    if (!operands_begin(&o, group)) {
        operands_end(&o);
        return;
    }
    atlas_quantity("input_array_offset", (double)(group * sizeof(void *)), "bytes into the pointer buffer");
    if (ATLAS_CUBLAS("create", cublasCreate(&handle))) {
        void **w = o.arrays, **x = o.arrays + group, **c = o.arrays + 2 * group;
        char text[200];
        snprintf(text, sizeof text,
                 "cublasGemmBatchedEx(handle, N, N, 1024, 400, 1024, &one, W[] (+0), CUDA_R_16F, 1024, X[] (+%d), "
                 "CUDA_R_16F, 1024, &zero, C[] (+%d), CUDA_R_16F, 1024, 3, CUBLAS_COMPUTE_32F, "
                 "CUBLAS_GEMM_DEFAULT_TENSOR_OP)",
                 (int)(group * sizeof(void *)), (int)(2 * group * sizeof(void *)));
        atlas_cublas_call("gemm", text,
                          qkv_gemm(handle, w, x, c, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
        uint16_t *host = malloc(sizeof(uint16_t) * HIDDEN * TOKENS);
        bool right = host != NULL;
        for (int i = 0; right && i < BATCH; i++) {
            right = ATLAS_CUDA("copy_back", cudaMemcpy(host, o.output[i], sizeof(uint16_t) * HIDDEN * TOKENS,
                                                       cudaMemcpyDeviceToHost));
            for (size_t j = 0; right && j < (size_t)HIDDEN * TOKENS; j++)
                right = host[j] == output_bits[i];
        }
        free(host);
        atlas_check("result", right, "Q, K and V all 512, 256 and 128: %s", right ? "yes" : "no");
        if (group == BATCH)
            other_layouts(handle, &o, group);
        ATLAS_CUBLAS("destroy", cublasDestroy(handle));
    }
    operands_end(&o);
}

/* Groups of 4 pointers (input array at byte 32) against groups of 3 (byte 24). */
static void pointer_groups_padded_to_4(void) { fused_qkv(4); }
static void pointer_groups_of_3(void) { fused_qkv(BATCH); }

ATLAS_CASE(pointer_groups_padded_to_4, pointer_groups_of_3)
