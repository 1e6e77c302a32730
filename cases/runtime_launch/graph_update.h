/* graph_update.h — what the two graph-update cases share: small captured
 * pieces of work on one device integer, a capture helper and an update that
 * records what cudaGraphExecUpdate reports.
 *
 *   capture(step, stream, work, x)    begin (step "<step>_begin"), run
 *                                     work(stream, x), end ("<step>_end")
 *   update(step, exec, graph)         cudaGraphExecUpdate ("<step>"), its
 *                                     cudaGraphExecUpdateResultInfo (the
 *                                     check "<step>_result": result is
 *                                     cudaGraphExecUpdateSuccess; the
 *                                     quantity "<step>_result_code"), then
 *                                     cudaGetLastError ("<step>_last_error")
 */
#ifndef GRAPH_UPDATE_H
#define GRAPH_UPDATE_H

#include "atlas.h"
#include <stdio.h>

__global__ void add(int *x, int v) { atomicAdd(x, v); }
__global__ void multiply(int *x, int v) { *x *= v; }

typedef void (*work_fn)(cudaStream_t stream, int *x);

static cudaGraph_t capture(const char *step, cudaStream_t stream, work_fn work, int *x)
{
    char begin[64], end[64];
    cudaGraph_t graph = NULL;
    snprintf(begin, sizeof begin, "%s_begin", step);
    snprintf(end, sizeof end, "%s_end", step);
    if (!atlas_cuda_call(begin, "cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal)",
                         cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal)))
        return NULL;
    work(stream, x);
    atlas_cuda_call(end, "cudaStreamEndCapture(stream, &graph)", cudaStreamEndCapture(stream, &graph));
    return graph;
}

static const char *update_result_name(enum cudaGraphExecUpdateResult result)
{
    switch (result) {
    case cudaGraphExecUpdateSuccess: return "cudaGraphExecUpdateSuccess";
    case cudaGraphExecUpdateError: return "cudaGraphExecUpdateError";
    case cudaGraphExecUpdateErrorTopologyChanged: return "cudaGraphExecUpdateErrorTopologyChanged";
    case cudaGraphExecUpdateErrorNodeTypeChanged: return "cudaGraphExecUpdateErrorNodeTypeChanged";
    case cudaGraphExecUpdateErrorFunctionChanged: return "cudaGraphExecUpdateErrorFunctionChanged";
    case cudaGraphExecUpdateErrorParametersChanged: return "cudaGraphExecUpdateErrorParametersChanged";
    case cudaGraphExecUpdateErrorNotSupported: return "cudaGraphExecUpdateErrorNotSupported";
    case cudaGraphExecUpdateErrorUnsupportedFunctionChange: return "cudaGraphExecUpdateErrorUnsupportedFunctionChange";
    case cudaGraphExecUpdateErrorAttributesChanged: return "cudaGraphExecUpdateErrorAttributesChanged";
    }
    return "<unknown>";
}

static bool update(const char *step, cudaGraphExec_t exec, cudaGraph_t graph)
{
    char name[64];
    cudaGraphExecUpdateResultInfo info = {};
    info.result = cudaGraphExecUpdateError;
    bool ok = atlas_cuda_call(step, "cudaGraphExecUpdate(exec, graph, &info)", cudaGraphExecUpdate(exec, graph, &info));
    snprintf(name, sizeof name, "%s_result", step);
    atlas_check(name, info.result == cudaGraphExecUpdateSuccess, "resultInfo.result = %s (%d), errorNode %s, errorFromNode %s",
                update_result_name(info.result), (int)info.result, info.errorNode ? "set" : "NULL",
                info.errorFromNode ? "set" : "NULL");
    snprintf(name, sizeof name, "%s_result_code", step);
    atlas_quantity(name, (double)info.result, "");
    snprintf(name, sizeof name, "%s_last_error", step);
    atlas_cuda_call(name, "cudaGetLastError()", cudaGetLastError());
    return ok;
}

#endif
