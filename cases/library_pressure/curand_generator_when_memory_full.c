/* curand_generator_when_memory_full — a cuRAND generator created, and first
 * used, after this process has taken all free GPU memory.
 *
 * The mistake: the random number generator is made lazily, at the first
 * random tensor or array, after a framework's memory pool (or the program)
 * has filled the GPU. The generator's state lives in device memory outside
 * that pool.
 *
 * What the program sees (H100 and H200, driver 580.159.04, CUDA 13.0, cuRAND
 * 10.4; about 2 MB left free): curandCreateGenerator succeeds: making the
 * generator allocates nothing. Its first curandGenerateUniform returns
 * CURAND_STATUS_ALLOCATION_FAILED (102): the first draw is where the state
 * is allocated. Nothing is sticky. A generator that drew once before the
 * memory filled draws again on the full GPU.
 *
 * What a CuPy user sees: cupy.random's first call on a full pool raises
 * CURANDError: CURAND_STATUS_ALLOCATION_FAILED, as recorded here (cupy#5894).
 * CuPy's maintainers also name a full pool for the
 * CURAND_STATUS_INITIALIZATION_FAILED of cupy#6277; that status was not seen
 * here (it is the status of a driver too old:
 * curand_generator_under_an_old_driver). PyTorch has its own generators and
 * never calls cuRAND here.
 *
 * Why: a device generator allocates its state (for XORWOW, one per thread
 * of the kernel that seeds it) on the GPU; with nothing free, that fails.
 *
 * The fix: make the generator and draw once before filling memory (CuPy:
 * call cupy.random once at start-up, or cap the pool with
 * CUPY_GPU_MEMORY_LIMIT / set_limit so handles have room), or leave
 * headroom.
 *
 * References: cupy/cupy#6277 (CURAND_STATUS_INITIALIZATION_FAILED; the
 * maintainer on a full memory pool) and cupy/cupy#5894 (the maintainer:
 * handles are allocated outside the pool, so a full pool leaves cuRAND
 * unable to create one); cuRAND documentation, host API
 * (https://docs.nvidia.com/cuda/curand/host-api-overview.html).
 *
 * atlas:runs-alone — it fills GPU memory.
 *
 * atlas:cause curand_generator_no_memory_left
 */
#include <curand.h>
#include "atlas_libraries.h"

enum { COUNT = 1 << 20 };

/* Creates the generator (*created) and draws once; true when both worked. */
static bool make_generator(curandGenerator_t *generator, bool *created, float *out)
{
    *created = ATLAS_CURAND("create", curandCreateGenerator(generator, CURAND_RNG_PSEUDO_DEFAULT));
    return *created && ATLAS_CURAND("first_draw", curandGenerateUniform(*generator, out, COUNT));
}

static void draw_after_fill(bool make_first)
{
    curandGenerator_t generator;
    float *out = NULL;
    bool created = false, ready = false;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof(float) * COUNT)))
        goto out;
    if (make_first)
        ready = make_generator(&generator, &created, out);
    atlas_fill_gpu(0);
    if (!make_first)
        ready = make_generator(&generator, &created, out);
    if (ready) {
        ATLAS_CURAND("draw", curandGenerateUniform(generator, out, COUNT));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    atlas_release_gpu();
    if (created)
        ATLAS_CURAND("destroy", curandDestroyGenerator(generator));
out:
    cudaFree(out);
}

static void generator_before_filling(void) { draw_after_fill(true); }
static void generator_after_filling(void) { draw_after_fill(false); }

ATLAS_CASE(generator_before_filling, generator_after_filling)
