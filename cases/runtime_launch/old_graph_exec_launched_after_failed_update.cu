/* old_graph_exec_launched_after_failed_update — cudaGraphExecUpdate
 * refused the new graph, and the program launched the executable graph it
 * already had.
 *
 * The mistake: treating an update's failure as something to log, then
 * launching the executable graph anyway — or not checking the update at all
 * (NVIDIA/cuopt#1758: every return code of the update, instantiate and launch
 * discarded). The executable graph still holds the work captured before.
 *
 * Both variants instantiate a graph of one kernel (add 1 to x), run it once,
 * then capture the new step — two kernels (add 10, add 100) — and update:
 * the update fails, as it must (a node was added). The fixed variant then
 * destroys the executable graph and instantiates the new graph; the broken
 * one launches the old executable graph.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): in both
 * variants the update returns cudaErrorGraphExecUpdateFailure
 * (resultInfo.result cudaGraphExecUpdateErrorTopologyChanged) and
 * cudaGetLastError returns it again. The fixed variant re-instantiates and
 * gets x = 111. The broken variant's cudaGraphLaunch of the old executable
 * graph returns cudaSuccess, so does the synchronize, and x = 2: the old
 * work (add 1) ran a second time, silently (result_wrong). Not sticky.
 *
 * What a PyTorch user sees (the mirror, old_graph_exec_launched_after_failed_update.py;
 * PyTorch 2.11 on the H100): torch.cuda.CUDAGraph has no update, but
 * replaying a graph captured for 4 rows after the input became 8 rows (bound
 * to the old name rather than copied into the captured tensor) is the same
 * stale replay: no exception, and the output keeps the captured shape (4, 8)
 * and work; the mirror's own comparison is what raises.
 *
 * Why: a failed update leaves the executable graph as it was: it stays a
 * valid, launchable graph of the old work. Nothing downstream fails; the
 * results are those of the old step.
 *
 * The fix: on cudaErrorGraphExecUpdateFailure, destroy the executable graph
 * and instantiate the new graph (the fixed variant), and clear the failure
 * from the last-error slot.
 *
 * References: NVIDIA/cuopt#1758 ("cudaGraphExecUpdate ... cudaGraphInstantiate
 * ... cudaGraphLaunch(instance, stream)", all unchecked); CUDA Runtime API,
 * cudaGraphExecUpdate
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__GRAPH.html):
 * "It returns cudaErrorGraphExecUpdateFailure if the graph update was not
 * performed because it included changes which violated constraints specific
 * to instantiated graph update."
 *
 * atlas:cause graph_exec_launched_after_failed_update
 */
#include "graph_update.h"

static void add_one(cudaStream_t s, int *x) { add<<<1, 1, 0, s>>>(x, 1); }
static void add_ten_then_a_hundred(cudaStream_t s, int *x)
{
    add<<<1, 1, 0, s>>>(x, 10);
    add<<<1, 1, 0, s>>>(x, 100);
}

static void update_then_launch(bool reinstantiate)
{
    int *x = NULL, value = -1;
    cudaStream_t stream = NULL;
    cudaGraph_t original = NULL, changed = NULL;
    cudaGraphExec_t exec = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&x, sizeof(int))))
        return;
    if (!ATLAS_CUDA("zero", cudaMemset(x, 0, sizeof(int)))
        || !ATLAS_CUDA("stream", cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking))
        || !(original = capture("capture", stream, add_one, x))
        || !ATLAS_CUDA("instantiate", cudaGraphInstantiate(&exec, original, 0))
        || !ATLAS_CUDA("first_launch", cudaGraphLaunch(exec, stream))
        || !(changed = capture("recapture", stream, add_ten_then_a_hundred, x)))
        goto out;
    update("update", exec, changed); /* fails: a node was added */
    if (reinstantiate) {
        ATLAS_CUDA("destroy_exec", cudaGraphExecDestroy(exec));
        exec = NULL;
        if (!ATLAS_CUDA("reinstantiate", cudaGraphInstantiate(&exec, changed, 0)))
            goto out;
    }
    ATLAS_CUDA("launch", cudaGraphLaunch(exec, stream));
    ATLAS_CUDA("sync", cudaStreamSynchronize(stream));
    if (ATLAS_CUDA("copy_back", cudaMemcpy(&value, x, sizeof value, cudaMemcpyDeviceToHost)))
        atlas_check("new_work_ran", value == 1 + 110, "x = %d after the second launch (111 = 1 + 10 + 100 expected)", value);
out:
    if (exec)
        cudaGraphExecDestroy(exec);
    if (changed)
        cudaGraphDestroy(changed);
    if (original)
        cudaGraphDestroy(original);
    if (stream)
        cudaStreamDestroy(stream);
    cudaFree(x);
}

static void reinstantiated_after_failed_update(void) { update_then_launch(true); }
static void old_exec_launched_after_failed_update(void) { update_then_launch(false); }

ATLAS_CASE(reinstantiated_after_failed_update, old_exec_launched_after_failed_update)
