/* current_device_is_per_thread — cudaSetDevice(1) in the main thread, then
 * a worker thread allocates, expecting device 1.
 *
 * The mistake: treating the current device as a process-wide setting. A
 * thread pool, a data-loader thread or a callback thread starts on device 0
 * and its allocations and launches go there.
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580): every
 * call succeeds; the worker's allocation is on device 0 (the check on its
 * device: result_wrong).
 *
 * What a PyTorch user sees: torch.cuda.set_device(1) in the main thread,
 * torch.ones(..., device="cuda") in a worker thread lands on cuda:0, and
 * the next operation with a cuda:1 tensor raises
 *   RuntimeError: Expected all tensors to be on the same device, but found
 *   at least two devices, cuda:0 and cuda:1!
 * (recorded with PyTorch 2.11 on two H200s).
 *
 * Why: the current device is state of the calling host thread; a new
 * thread starts with device 0.
 *
 * The fix: call cudaSetDevice in every thread that does CUDA work (PyTorch:
 * torch.cuda.set_device in the thread, or explicit devices "cuda:1").
 *
 * References: CUDA Runtime API, cudaSetDevice
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html),
 * "Sets device as the current device for the calling host thread";
 * visual-openllm/visual-openllm#20 ("Expected all tensors to be on the same
 * device, but found at least two devices, cuda:0 and cuda:1!").
 *
 * atlas:cause resource_used_on_other_device
 */
#include "two_devices.h"
#include <pthread.h>

static bool worker_sets_device;

static void *worker(void *unused)
{
    (void)unused;
    void *p = NULL;
    struct cudaPointerAttributes where;
    if (worker_sets_device)
        ATLAS_CUDA("worker_set_1", cudaSetDevice(1));
    if (!ATLAS_CUDA("worker_alloc", cudaMalloc(&p, 1 << 20)))
        return NULL;
    if (ATLAS_CUDA("attributes", cudaPointerGetAttributes(&where, p)))
        atlas_check("on_device_1", where.device == 1, "the worker's allocation is on device %d", where.device);
    cudaFree(p);
    return NULL;
}

static void allocate_in_worker(bool sets_device)
{
    pthread_t thread;
    if (!atlas_need_two_gpus() || !ATLAS_CUDA("main_set_1", cudaSetDevice(1)))
        return;
    worker_sets_device = sets_device;
    if (pthread_create(&thread, NULL, worker, NULL) == 0)
        pthread_join(thread, NULL);
}

static void worker_sets_its_device(void) { allocate_in_worker(true); }
static void worker_relies_on_main_thread(void) { allocate_in_worker(false); }

ATLAS_CASE(worker_sets_its_device, worker_relies_on_main_thread)
