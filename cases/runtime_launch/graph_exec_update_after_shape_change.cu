/* graph_exec_update_after_shape_change — cudaGraphExecUpdate given a
 * re-captured graph whose work changed shape.
 *
 * The mistake: capturing the step again after the work changed — another
 * launch shape, another kernel, one more kernel — and updating the existing
 * executable graph in place, as if an update took any new graph. An update
 * takes new parameters for a topologically identical graph only.
 *
 * The variants start from an executable graph of one kernel (add 1 to x).
 * The fixed one re-captures the same kernel with another argument (add 10)
 * and updates. The broken one tries three shape changes, each on a fresh
 * executable graph (steps dims_*, kernel_*, node_*): the same kernel on two
 * blocks instead of one; another kernel (multiply) in its place; and a
 * second kernel added after the first.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): the
 * argument change updates (cudaSuccess, cudaGraphExecUpdateSuccess). So do
 * two of the three "shape" changes: two blocks instead of one, and another
 * kernel (multiply) in the node's place — cudaSuccess, and the updated graph
 * runs the new work (x = 20, x = 0). Only the added node is refused:
 * cudaGraphExecUpdate returns cudaErrorGraphExecUpdateFailure ("the graph
 * update was not performed because it included changes which violated
 * constraints specific to instantiated graph update"), resultInfo.result is
 * cudaGraphExecUpdateErrorTopologyChanged (2) with errorNode and
 * errorFromNode NULL (the node counts differ, as documented), and the failure
 * stays in the last-error slot: cudaGetLastError returns it afterwards. Not
 * sticky.
 *
 * What a PyTorch user sees: nothing of the kind: torch.cuda.CUDAGraph has no
 * update; PyTorch captures a new graph for a new shape (CUDA-graph trees in
 * torch.compile keep one per shape). No mirror.
 *
 * Why: an update rewrites the parameters of the nodes the executable graph
 * already has; it cannot add nodes or edges. The runtime reports why in
 * cudaGraphExecUpdateResultInfo.result.
 *
 * The fix: on cudaErrorGraphExecUpdateFailure destroy the executable graph
 * and instantiate the new graph (see old_graph_exec_launched_after_failed_update);
 * and clear the failure from the last-error slot (cudaGetLastError), or the
 * next unrelated check reports it.
 *
 * References: NVlabs/tiny-cuda-nn#206 ("cudaGraphExecUpdate ... failed with
 * error the graph update was not performed because it included changes which
 * violated constraints specific to instantiated graph update"); CUDA Runtime
 * API, cudaGraphExecUpdate
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__GRAPH.html):
 * "Updates the node parameters in the instantiated graph specified by
 * hGraphExec with the node parameters in a topologically identical graph
 * specified by hGraph."
 *
 * atlas:cause graph_update_topology_changed
 */
#include "graph_update.h"

static void add_one(cudaStream_t s, int *x) { add<<<1, 1, 0, s>>>(x, 1); }
static void add_ten(cudaStream_t s, int *x) { add<<<1, 1, 0, s>>>(x, 10); }
static void add_ten_on_two_blocks(cudaStream_t s, int *x) { add<<<2, 1, 0, s>>>(x, 10); }
static void multiply_by_ten(cudaStream_t s, int *x) { multiply<<<1, 1, 0, s>>>(x, 10); }
static void add_ten_then_a_hundred(cudaStream_t s, int *x)
{
    add<<<1, 1, 0, s>>>(x, 10);
    add<<<1, 1, 0, s>>>(x, 100);
}

/* Instantiate the one-kernel graph, update it from `changed`, and if the
 * update took, launch it and check x (0 before): `expected`. */
static void update_from(const char *name, int *x, cudaStream_t stream, work_fn changed, int expected)
{
    char step[64];
    cudaGraphExec_t exec = NULL;
    cudaGraph_t original = capture("capture", stream, add_one, x), update_graph = NULL;
    if (!original || !ATLAS_CUDA("instantiate", cudaGraphInstantiate(&exec, original, 0)))
        goto out;
    snprintf(step, sizeof step, "%s_recapture", name);
    if (!(update_graph = capture(step, stream, changed, x)))
        goto out;
    snprintf(step, sizeof step, "%s_update", name);
    if (update(step, exec, update_graph)) {
        int value = -1;
        if (ATLAS_CUDA("zero", cudaMemset(x, 0, sizeof(int))) && ATLAS_CUDA("launch", cudaGraphLaunch(exec, stream))
            && ATLAS_CUDA("sync", cudaStreamSynchronize(stream))
            && ATLAS_CUDA("copy_back", cudaMemcpy(&value, x, sizeof value, cudaMemcpyDeviceToHost))) {
            snprintf(step, sizeof step, "%s_updated_work", name);
            atlas_check(step, value == expected, "the updated graph left x = %d (%d expected)", value, expected);
        }
    }
out:
    if (exec)
        cudaGraphExecDestroy(exec);
    if (update_graph)
        cudaGraphDestroy(update_graph);
    if (original)
        cudaGraphDestroy(original);
}

static void with_stream(void (*body)(int *x, cudaStream_t stream))
{
    int *x = NULL;
    cudaStream_t stream = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&x, sizeof(int))))
        return;
    if (ATLAS_CUDA("stream", cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)))
        body(x, stream);
    if (stream)
        cudaStreamDestroy(stream);
    cudaFree(x);
}

static void argument_changed(int *x, cudaStream_t s) { update_from("value", x, s, add_ten, 10); }
static void shape_changed(int *x, cudaStream_t s)
{
    update_from("dims", x, s, add_ten_on_two_blocks, 20);
    update_from("kernel", x, s, multiply_by_ten, 0);
    update_from("node", x, s, add_ten_then_a_hundred, 110);
}

static void same_kernel_new_argument(void) { with_stream(argument_changed); }
static void launch_shape_kernel_or_node_count_changed(void) { with_stream(shape_changed); }

ATLAS_CASE(same_kernel_new_argument, launch_shape_kernel_or_node_count_changed)
