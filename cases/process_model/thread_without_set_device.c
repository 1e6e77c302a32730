/* thread_without_set_device — the main thread chose GPU 1; a new thread
 * allocates without choosing.
 *
 * The mistake: cudaSetDevice(1) (torch.cuda.set_device(1)) once at start-up,
 * then a worker thread — a data-loading thread, a thread pool serving
 * requests — allocates and launches, assuming the process works on GPU 1.
 *
 * What the program sees (2 × H200, CUDA 13.0): no error at all. The new
 * thread's cudaGetDevice says 0, its cudaMalloc succeeds, and the pointer's
 * attributes put the allocation on GPU 0, not the GPU 1 the main thread
 * chose (the check records result_wrong). On one GPU the case is skipped
 * ("needs 2 GPUs").
 *
 * What a PyTorch user sees: tensors created in the thread with device="cuda"
 * land on cuda:0, which fills up or is another job's GPU; a later operation
 * mixing them with cuda:1 tensors raises "Expected all tensors to be on the
 * same device".
 *
 * Why: the current device is per host thread, and a new thread starts on
 * device 0, whatever other threads chose.
 *
 * The fix: call cudaSetDevice in every thread before its first CUDA call
 * (torch.cuda.set_device, or `with torch.cuda.device(i)`), or name the device
 * explicitly (device="cuda:1").
 *
 * References: arbor-sim/arbor#655 ("Correctly assign GPUs to threads");
 * pfnet/pytorch-pfn-extras#726; CUDA Runtime API, cudaSetDevice
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html),
 * "Sets device as the current device for the calling host thread".
 *
 * atlas:cause resource_used_on_other_device
 */
#include "atlas.h"
#include <pthread.h>

enum { CHOSEN = 1 };

static bool thread_sets_device;

static void *worker(void *unused)
{
    (void)unused;
    int device = -1;
    void *p = NULL;
    if (thread_sets_device)
        ATLAS_CUDA("thread_set", cudaSetDevice(CHOSEN));
    ATLAS_CUDA("thread_get_device", cudaGetDevice(&device));
    atlas_quantity("thread_device", device, "ordinal");
    if (ATLAS_CUDA("thread_alloc", cudaMalloc(&p, 1 << 20))) {
        struct cudaPointerAttributes attributes;
        if (ATLAS_CUDA("thread_attributes", cudaPointerGetAttributes(&attributes, p)))
            atlas_check("thread_alloc_on_chosen_device", attributes.device == CHOSEN,
                        "the thread's allocation is on device %d; the process chose %d", attributes.device, CHOSEN);
        cudaFree(p);
    }
    return NULL;
}

static void worker_after_choosing_device(bool sets_device)
{
    int count = 0;
    if (!ATLAS_CUDA("count", cudaGetDeviceCount(&count)) || count < 2)
        atlas_skip("needs 2 GPUs");
    if (!ATLAS_CUDA("set", cudaSetDevice(CHOSEN)))
        return;
    thread_sets_device = sets_device;
    pthread_t thread;
    if (pthread_create(&thread, NULL, worker, NULL) != 0) {
        atlas_note("pthread_create failed");
        return;
    }
    pthread_join(thread, NULL); /* the harness's time limit bounds a thread stuck in the driver */
}

static void thread_sets_its_device(void) { worker_after_choosing_device(true); }
static void thread_assumes_device(void) { worker_after_choosing_device(false); }

ATLAS_CASE(thread_sets_its_device, thread_assumes_device)
