/* ranks.h — NCCL ranks as threads of one process, every wait bounded.
 *
 * A case includes <nccl.h>, <pthread.h> and atlas_libraries.h first. It
 * describes each rank (device, the nranks and rank it passes, which unique
 * id it uses, whether it joins at all) and calls atlas_nccl_run. Each rank
 * is a thread that records, with its own step names (rN = rank index in the
 * case's table, not the rank it claims):
 *
 *   set_device_rN  cudaSetDevice
 *   init_rN        ncclCommInitRankConfig, non-blocking: its status when it
 *                  fails at the call, otherwise ncclCommGetAsyncError polled
 *                  until it leaves ncclInProgress or the deadline passes —
 *                  ncclInProgress then means the rank is still waiting
 *   allreduce_rN, allreduce_sync_rN, result_rN   (if asked, after joining;
 *                  allreduce_rN likewise waited for)
 *   abort_rN       ncclCommAbort for a rank that did not join (never a hang
 *                  on a rank that will never come); otherwise finalize_rN
 *                  (ncclCommFinalize, waited for) and destroy_rN
 *
 * The record's text says whether a status came at the call or later.
 *
 * Non-blocking initialisation is NCCL's documented way to bound a
 * communicator's creation (NVIDIA/nccl#1677). NVLink multicast stays off
 * (NCCL_NVLS_ENABLE=0), as on every shared machine here.
 */
#ifndef NCCL_RANKS_H
#define NCCL_RANKS_H

#include "atlas_libraries.h"
#include <stdlib.h>
#include <time.h>

struct atlas_nccl_rank {
    int device;          /* cudaSetDevice before joining */
    int nranks, rank;    /* what this rank passes to ncclCommInitRankConfig */
    int id;              /* which unique id it uses: 0 = the shared one, 1 = its own */
    bool joins;          /* false: the rank never calls NCCL (it "crashed") */
    bool allreduce;      /* after joining, sum (rank + 1) over the ranks */
    double deadline_s;   /* how long joined_rN waits */
    /* filled in */
    int index;
    ncclUniqueId unique_id;
};

static inline double atlas_nccl_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline void atlas_nccl_sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* A non-blocking NCCL call's outcome, as one record: its status when it
 * failed at the call; otherwise ncclCommGetAsyncError polled until it leaves
 * ncclInProgress or the deadline passes. */
static inline ncclResult_t atlas_nccl_outcome(const char *step, const char *call, ncclResult_t at_call,
                                              ncclComm_t comm, double deadline_s)
{
    char text[512];
    ncclResult_t state = at_call;
    if (at_call == ncclInProgress || at_call == ncclSuccess) {
        double until = atlas_nccl_now() + deadline_s;
        state = ncclInProgress;
        while (ncclCommGetAsyncError(comm, &state) == ncclSuccess && state == ncclInProgress
               && atlas_nccl_now() < until)
            atlas_nccl_sleep_ms(10);
        snprintf(text, sizeof text, "%s -> %s, then ncclCommGetAsyncError (polled, deadline %g s)", call,
                 at_call == ncclSuccess ? "ncclSuccess" : "ncclInProgress", deadline_s);
    } else {
        snprintf(text, sizeof text, "%s (at the call)", call);
    }
    atlas_nccl_call(step, text, state);
    if (state != ncclSuccess && state != ncclInProgress)
        atlas_note("%s: ncclGetLastError: %s", step, ncclGetLastError(comm));
    return state;
}

static inline void *atlas_nccl_rank_thread(void *arg)
{
    struct atlas_nccl_rank *r = (struct atlas_nccl_rank *)arg;
    char step[64];
    ncclComm_t comm = NULL;
    float *value = NULL;
    cudaStream_t stream = NULL;
    snprintf(step, sizeof step, "set_device_r%d", r->index);
    if (!atlas_cuda_call(step, "cudaSetDevice(r->device)", cudaSetDevice(r->device)))
        return NULL;
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    snprintf(step, sizeof step, "init_r%d", r->index);
    ncclResult_t started = ncclCommInitRankConfig(&comm, r->nranks, r->unique_id, r->rank, &config);
    if (atlas_nccl_outcome(step, "ncclCommInitRankConfig(&comm, nranks, id, rank, &config [blocking = 0])", started,
                           comm, r->deadline_s)
        != ncclSuccess) {
        if (comm) {
            snprintf(step, sizeof step, "abort_r%d", r->index);
            atlas_nccl_call(step, "ncclCommAbort(comm)", ncclCommAbort(comm));
        }
        return NULL;
    }
    if (r->allreduce) {
        float mine = (float)(r->rank + 1), sum = 0.0f, want = (float)(r->nranks * (r->nranks + 1) / 2);
        if (cudaStreamCreate(&stream) == cudaSuccess && cudaMalloc((void **)&value, sizeof *value) == cudaSuccess
            && cudaMemcpy(value, &mine, sizeof mine, cudaMemcpyHostToDevice) == cudaSuccess) {
            snprintf(step, sizeof step, "allreduce_r%d", r->index);
            if (atlas_nccl_outcome(step, "ncclAllReduce(value, value, 1, ncclFloat, ncclSum, comm, stream)",
                                   ncclAllReduce(value, value, 1, ncclFloat, ncclSum, comm, stream), comm,
                                   r->deadline_s)
                == ncclSuccess) {
                snprintf(step, sizeof step, "allreduce_sync_r%d", r->index);
                if (atlas_cuda_call(step, "cudaStreamSynchronize(stream)", cudaStreamSynchronize(stream))
                    && cudaMemcpy(&sum, value, sizeof sum, cudaMemcpyDeviceToHost) == cudaSuccess) {
                    snprintf(step, sizeof step, "result_r%d", r->index);
                    atlas_check(step, sum == want, "sum over the ranks = %g, want %g", sum, want);
                }
            }
        }
        cudaFree(value);
        if (stream)
            cudaStreamDestroy(stream);
    }
    snprintf(step, sizeof step, "finalize_r%d", r->index);
    ncclResult_t finished = atlas_nccl_outcome(step, "ncclCommFinalize(comm)", ncclCommFinalize(comm), comm,
                                               r->deadline_s);
    snprintf(step, sizeof step, "destroy_r%d", r->index);
    if (finished == ncclSuccess)
        atlas_nccl_call(step, "ncclCommDestroy(comm)", ncclCommDestroy(comm));
    else
        atlas_nccl_call(step, "ncclCommAbort(comm)", ncclCommAbort(comm));
    return NULL;
}

/* Run the ranks as threads: unique ids first (recorded as "unique_id",
 * "unique_id_own" for a rank that makes its own), then all ranks at once. */
static inline void atlas_nccl_run(struct atlas_nccl_rank *ranks, int n)
{
    int version = 0;
    pthread_t threads[8];
    bool started[8] = {false};
    ncclUniqueId shared;
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    if (ncclGetVersion(&version) == ncclSuccess)
        atlas_quantity("nccl_version", version, "NCCL_VERSION_CODE");
    if (!ATLAS_NCCL("unique_id", ncclGetUniqueId(&shared)))
        return;
    for (int i = 0; i < n && i < 8; i++) {
        ranks[i].index = i;
        ranks[i].unique_id = shared;
        if (ranks[i].id == 1 && !ATLAS_NCCL("unique_id_own", ncclGetUniqueId(&ranks[i].unique_id)))
            return;
    }
    for (int i = 0; i < n && i < 8; i++)
        if (ranks[i].joins)
            started[i] = pthread_create(&threads[i], NULL, atlas_nccl_rank_thread, &ranks[i]) == 0;
    for (int i = 0; i < n && i < 8; i++)
        if (started[i])
            pthread_join(threads[i], NULL);
    cudaSetDevice(0); /* the harness's probe looks at device 0 */
}

#endif
