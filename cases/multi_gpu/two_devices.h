/* two_devices.h — for cases that need two GPUs.
 *
 *   atlas_need_two_gpus()        records "count"; false without a driver;
 *                                skips ("needs 2 GPUs") on fewer
 *   atlas_device_usable(d, step) after a fault elsewhere: can device d still
 *                                allocate, write and synchronize? One record,
 *                                the first status that is not success.
 */
#ifndef TWO_DEVICES_H
#define TWO_DEVICES_H

#include "atlas.h"

static inline bool atlas_need_two_gpus(void)
{
    int count = 0;
    if (!ATLAS_CUDA("count", cudaGetDeviceCount(&count)))
        return false;
    if (count < 2)
        atlas_skip("needs 2 GPUs");
    return true;
}

static inline bool atlas_device_usable(int device, const char *step)
{
    void *p = NULL;
    cudaError_t status = cudaSetDevice(device);
    const char *text = "cudaSetDevice(device)";
    if (status == cudaSuccess) {
        status = cudaMalloc(&p, 1 << 20);
        text = "cudaMalloc(&p, 1 << 20)";
    }
    if (status == cudaSuccess) {
        status = cudaMemset(p, 0, 1 << 20);
        text = "cudaMemset(p, 0, 1 << 20)";
    }
    if (status == cudaSuccess) {
        status = cudaDeviceSynchronize();
        text = "cudaDeviceSynchronize()";
    }
    if (p)
        cudaFree(p);
    return atlas_cuda_call(step, text, status);
}

#endif
