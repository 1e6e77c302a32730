/* token_id_past_vocab_unchecked — an embedding lookup with a token id equal
 * to the vocabulary size, in a kernel that does not check the id.
 *
 * The mistake: the table has VOCAB rows (tokenizer.vocab_size) but the ids
 * come from a tokenizer that added special tokens (len(tokenizer) >
 * vocab_size), or an EOS id one past the table. Row VOCAB does not exist.
 *
 * What the program sees (H200, CUDA 13.0): every call returns cudaSuccess
 * and the context stays usable; the embedding of id 1000 is the first row
 * of the next tensor (-1 here; the check `last_row` records result_wrong).
 * The table lives in a pool, as tensors do under a framework's caching
 * allocator, so even compute-sanitizer reports nothing: the read stays
 * inside one allocation. The same in three runs out of three.
 *
 * What a PyTorch user sees: PyTorch's indexing kernels check the index, so
 * the same lookup there (the mirror: table[ids], PyTorch 2.11 on the H200)
 * is "CUDA error: device-side assert triggered", with "vectorized_gather_kernel:
 * ... Assertion `ind >=0 && ind < ind_dim_size && "vectorized gather kernel
 * index out of bounds"` failed" on stderr (older versions: "index out of
 * bounds"; nn.Embedding: see device_side_assert). A hand-written or library
 * kernel without the check raises nothing.
 *
 * Why: one row past the end is still inside mapped memory — here, the next
 * tensor's first row — so the hardware has nothing to fault on.
 *
 * The fix: size the table by len(tokenizer) (resize the embeddings after
 * adding tokens); check ids on the host, or assert in the kernel as PyTorch
 * does; compute-sanitizer finds the read only when the table is its own
 * allocation.
 *
 * References: inseq-team/inseq#306 (a table sized by tokenizer.vocab_size,
 * indexed with ids of added special tokens); huggingface/transformers#1848;
 * CUDA Programming Guide, "Assertion"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#assertion).
 *
 * atlas:cause device_assert_token_id_past_vocab
 */
#include "atlas.h"

enum { VOCAB = 1000, DIM = 64, TOKENS = 4 };

__global__ void embed(const float *table, const int *ids, float *out)
{
    out[blockIdx.x * DIM + threadIdx.x] = table[ids[blockIdx.x] * DIM + threadIdx.x];
}

static void look_up(int last_id)
{
    /* One pool: the token table, then another table of the same shape. */
    static float host[2 * VOCAB * DIM], looked_up[TOKENS * DIM];
    int ids[TOKENS] = {5, 17, 3, last_id};
    float *pool = NULL, *out = NULL;
    int *device_ids = NULL;
    for (int i = 0; i < 2 * VOCAB * DIM; i++)
        host[i] = i < VOCAB * DIM ? (float)(i / DIM) : -1.0f; /* row r holds r; the next table holds -1 */
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&pool, sizeof host))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof looked_up))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&device_ids, sizeof ids))
        || !ATLAS_CUDA("copy", cudaMemcpy(pool, host, sizeof host, cudaMemcpyHostToDevice))
        || !ATLAS_CUDA("copy", cudaMemcpy(device_ids, ids, sizeof ids, cudaMemcpyHostToDevice)))
        return;
    embed<<<TOKENS, DIM>>>(pool, device_ids, out);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy_back", cudaMemcpy(looked_up, out, sizeof looked_up, cudaMemcpyDeviceToHost)))
        atlas_check("last_row", looked_up[(TOKENS - 1) * DIM] == (float)last_id,
                    "the row looked up for id %d holds %g", last_id, looked_up[(TOKENS - 1) * DIM]);
    cudaFree(pool), cudaFree(out), cudaFree(device_ids);
}

static void id_below_vocab_size(void) { look_up(VOCAB - 1); }
static void id_equal_to_vocab_size(void) { look_up(VOCAB); }

ATLAS_CASE(id_below_vocab_size, id_equal_to_vocab_size)
