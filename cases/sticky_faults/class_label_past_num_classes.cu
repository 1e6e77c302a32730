/* class_label_past_num_classes — a loss kernel's device-side check fails on
 * a class label that is not below the number of classes.
 *
 * The mistake: labels 1 to 10 (as the dataset numbers its classes) given to
 * a 10-class loss that wants 0 to 9. The most common device-side assert real
 * users meet: labels not remapped to start at 0, a void label 255 left in a
 * segmentation mask, -1 for "unlabelled", num_classes set one too small.
 * The loss indexes its log-probabilities with the label, and PyTorch's loss
 * kernels check it first, as this one does.
 *
 * What the program sees (H100 and H200, driver 580.159.04, CUDA 13.0, in the
 * default, eager-loading, workspace-0 and compute-sanitizer modes): the launch
 * check returns cudaSuccess, the kernel prints
 *   class_label_past_num_classes.cu:<line>: void nll_loss(const float *, const int *, int, float *): block: [0,0,0], thread: [7,0,0] Assertion `t >= 0 && t < classes` failed.
 * and the synchronize returns cudaErrorAssert (710); the context is lost (a
 * later cudaMalloc returns cudaErrorAssert too). With CUDA_LAUNCH_BLOCKING=1
 * the launch check itself returns cudaErrorAssert.
 *
 * What a PyTorch user sees (PyTorch 2.11 on the H100 and the H200; the mirror,
 * class_label_past_num_classes.py, gives cross_entropy the labels 3 to 10
 * for 10 classes): the loss kernel prints
 *   /pytorch/aten/src/ATen/native/cuda/Loss.cu:245: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [7,0,0] Assertion `t >= 0 && t < n_classes` failed.
 * and PyTorch raises torch.AcceleratorError, "CUDA error: device-side assert
 * triggered"; every CUDA call after it fails.
 *
 * Why: a failed device assert traps the kernel; like an illegal address it
 * ends the context, so the process must restart.
 *
 * The fix: labels in [0, num_classes) — remap them once (label - 1 here),
 * and set num_classes from the data; check on the host
 * (labels.min() >= 0 and labels.max() < num_classes) or run the loss once on
 * the CPU, which raises a readable IndexError ("Target 10 is out of bounds").
 *
 * References: milesial/Pytorch-UNet#258 (mask labels past n_classes; the
 * maintainer's fix sets n_classes to the real number of classes);
 * MIC-DKFZ/nnUNet#274 (labels [1, 2, 3, 5] for 5 output classes);
 * AlfredXiangWu/LightCNN#5 (labels 1..10575 for --num_classes 10574).
 *
 * atlas:cause device_assert_label_out_of_range
 */
#include "atlas.h"
#undef NDEBUG /* release builds compile assert() away; this lesson needs it */
#include <assert.h>

enum { CLASSES = 10, SAMPLES = 8 };

/* The negative log-likelihood of each sample's label, as a loss kernel
 * computes it: log_probs is SAMPLES x CLASSES, row by row. */
__global__ void nll_loss(const float *log_probs, const int *labels, int classes, float *loss)
{
    int i = threadIdx.x;
    int t = labels[i];
    assert(t >= 0 && t < classes);
    loss[i] = -log_probs[i * classes + t];
}

static void loss_of_labels(int first_label)
{
    float log_probs[SAMPLES * CLASSES];
    int labels[SAMPLES];
    for (int i = 0; i < SAMPLES * CLASSES; i++)
        log_probs[i] = -2.302585f; /* log(1/10): a model that has learnt nothing */
    for (int i = 0; i < SAMPLES; i++)
        labels[i] = first_label + (i + 2) % CLASSES; /* the last sample has the highest label */

    float *d_log_probs = NULL, *d_loss = NULL;
    int *d_labels = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&d_log_probs, sizeof log_probs))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&d_labels, sizeof labels))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&d_loss, SAMPLES * sizeof(float)))
        || !ATLAS_CUDA("copy", cudaMemcpy(d_log_probs, log_probs, sizeof log_probs, cudaMemcpyHostToDevice))
        || !ATLAS_CUDA("copy", cudaMemcpy(d_labels, labels, sizeof labels, cudaMemcpyHostToDevice)))
        return;
    nll_loss<<<1, SAMPLES>>>(d_log_probs, d_labels, CLASSES, d_loss);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(d_log_probs), cudaFree(d_labels), cudaFree(d_loss);
}

/* Labels remapped to start at 0: 0 to 9. */
static void labels_from_zero(void) { loss_of_labels(0); }
/* The dataset's own numbering, 1 to 10: label 10 is no class of a 10-class loss. */
static void labels_from_one(void) { loss_of_labels(1); }

ATLAS_CASE(labels_from_zero, labels_from_one)
