/* curand_normal_of_an_odd_count — curandGenerateNormal asked for an odd
 * number of values from a pseudorandom generator.
 *
 * The mistake: filling a buffer whose size comes from the model (a layer of
 * 511 units, a weight matrix of odd rows × odd columns) with normally
 * distributed values in one call. The documentation says that cuRAND's
 * pseudorandom generators make normal values in pairs (Box-Muller), so the
 * count must be even.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0, cuRAND 10.4):
 * curandGenerateNormal on a CURAND_RNG_PSEUDO_DEFAULT (XORWOW) generator
 * with n = 511 returns CURAND_STATUS_LENGTH_NOT_MULTIPLE (105) at the call
 * (step normal), CNTK#441's "CURAND failure 105"; with 512 it succeeds.
 * Nothing is sticky: the same generator then makes 512 values (mean -0.012,
 * variance 1.022) and the context stays usable. The documentation's rule
 * ("pseudorandom generators") does not hold for every generator: with 511,
 * XORWOW and MRG32K3A refuse, but MTGP32 and PHILOX4_32_10 (and the
 * quasirandom SOBOL32) succeed (notes). curandGenerateLogNormal(511) and
 * curandGenerateNormalDouble(255) refuse the same way;
 * curandGenerateUniform(511) succeeds.
 *
 * What a PyTorch user sees: nothing. PyTorch draws normal values with its
 * own kernels, not with curandGenerateNormal: the mirror beside this file
 * (PyTorch 2.11, H100) makes torch.randn(511) and normal_() on 511 elements
 * without error. Users of libraries that call the host API meet it under
 * their own names: CuPy's randn (chainer/chainer#422,
 * "CURANDError: CURAND_STATUS_LENGTH_NOT_MULTIPLE"), CuArrays.jl
 * (JuliaGPU/CuArrays.jl#392, "CURANDError(code 105, ...)").
 *
 * Why: a Box-Muller transform turns two uniform values into two normal ones;
 * XORWOW and MRG32k3a produce normal values in pairs, so the host API refuses
 * a count that is not a multiple of two rather than write half a pair. The
 * check runs on the host, before any kernel, so nothing is left behind.
 *
 * The fix: ask for an even count (round the count up and allocate one spare
 * element), or, where the stream of numbers may change, use the Philox
 * generator, which took the odd count here.
 *
 * References: microsoft/CNTK#441 ("CURAND failure 105 ... expr=curandGenerateNormal",
 * only when the size of a hidden layer is odd; the maintainer quotes the
 * documentation); cuRAND host API reference, curandGenerateNormal
 * (https://docs.nvidia.com/cuda/curand/group__HOST.html; the same text is in
 * curand.h of CUDA 13.0): "Normally distributed results are generated from
 * pseudorandom generators with a Box-Muller transform, and so require n to
 * be even", returning
 * CURAND_STATUS_LENGTH_NOT_MULTIPLE "if the number of output samples is not a
 * multiple of the quasirandom dimension, or is not a multiple of two for
 * pseudorandom generators".
 *
 * atlas:cause curand_normal_odd_count
 */
#include <curand.h>
#include "atlas_libraries.h"
#include <math.h> /* isfinite, a macro: no libm needed */

/* CNTK#441's layer was of odd size: 511 units, against 512. */
enum { EVEN = 512, ODD = 511 };

static const char *curand_name(curandStatus_t s)
{
    const char *name = atlas_curand_name(s);
    return name ? name : "<unknown>";
}

/* The other generators and calls with the same odd count: notes only. */
static void odd_count_elsewhere(float *out)
{
    static const struct { curandRngType_t type; const char *name; } types[] = {
        {CURAND_RNG_PSEUDO_XORWOW, "XORWOW"},   {CURAND_RNG_PSEUDO_MRG32K3A, "MRG32K3A"},
        {CURAND_RNG_PSEUDO_MTGP32, "MTGP32"},   {CURAND_RNG_PSEUDO_PHILOX4_32_10, "PHILOX4_32_10"},
        {CURAND_RNG_QUASI_SOBOL32, "SOBOL32"},
    };
    char text[480] = "odd count 511 with curandGenerateNormal:";
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        curandGenerator_t g;
        curandStatus_t s = curandCreateGenerator(&g, types[i].type);
        if (s == CURAND_STATUS_SUCCESS) {
            s = curandGenerateNormal(g, out, ODD, 0.0f, 1.0f);
            curandDestroyGenerator(g);
        }
        snprintf(text + strlen(text), sizeof text - strlen(text), " %s %s (%d);", types[i].name, curand_name(s),
                 (int)s);
    }
    atlas_note("%s", text);

    curandGenerator_t g;
    if (curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT) == CURAND_STATUS_SUCCESS) {
        curandStatus_t uniform = curandGenerateUniform(g, out, ODD);
        curandStatus_t lognormal = curandGenerateLogNormal(g, out, ODD, 0.0f, 1.0f);
        curandStatus_t as_double = curandGenerateNormalDouble(g, (double *)out, ODD / 2, 0.0, 1.0);
        atlas_note("PSEUDO_DEFAULT, odd counts: GenerateUniform(511) %s; GenerateLogNormal(511) %s; "
                   "GenerateNormalDouble(255) %s",
                   curand_name(uniform), curand_name(lognormal), curand_name(as_double));
        curandDestroyGenerator(g);
    }
}

static void normal_values(size_t count)
{
    curandGenerator_t gen;
    float *out = NULL, host[EVEN];
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof(float) * EVEN)))
        return;
    if (ATLAS_CURAND("generator", curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT))) {
        ATLAS_CURAND("seed", curandSetPseudoRandomGeneratorSeed(gen, 1462459807ULL));
        ATLAS_CURAND("normal", curandGenerateNormal(gen, out, count, 0.0f, 1.0f));
        /* Is the generator still usable after the refusal? An even request. */
        ATLAS_CURAND("normal_after", curandGenerateNormal(gen, out, EVEN, 0.0f, 1.0f));
        if (ATLAS_CUDA("sync", cudaDeviceSynchronize())
            && ATLAS_CUDA("copy_back", cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost))) {
            double sum = 0, squares = 0;
            bool finite = true;
            for (int i = 0; i < EVEN; i++) {
                finite = finite && isfinite(host[i]);
                sum += host[i];
                squares += (double)host[i] * host[i];
            }
            double mean = sum / EVEN, variance = squares / EVEN - mean * mean;
            atlas_check("values", finite && mean > -0.3 && mean < 0.3 && variance > 0.5 && variance < 1.7,
                        "512 values after: mean %.3f, variance %.3f", mean, variance);
        }
        ATLAS_CURAND("destroy", curandDestroyGenerator(gen));
        if (count % 2)
            odd_count_elsewhere(out);
    }
    cudaFree(out);
}

static void even_count(void) { normal_values(EVEN); }
static void odd_count(void) { normal_values(ODD); }

ATLAS_CASE(even_count, odd_count)
