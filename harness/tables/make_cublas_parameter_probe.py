"""Writes probe.cu: for each function in cublas_prototypes.FUNCTIONS, one valid
call, then one call per integer or enum parameter with that parameter alone
made invalid (ints -1, increments also 0, enums 1234, algo 9999), printing a
marker line before each call and the returned status after it, so that what
cuBLAS prints ("** On entry to NAME parameter number N ...") can be tied to
the parameter that was made invalid. Standard library only.

    python3 harness/tables/make_cublas_parameter_probe.py /usr/local/cuda/include/cublas_api.h > probe.cu
    nvcc -o probe probe.cu -lcublas && ./probe > probe.log 2>&1
"""
import sys
import cublas_prototypes as cp

ENUMS = {"cublasOperation_t": "CUBLAS_OP_N", "cublasFillMode_t": "CUBLAS_FILL_MODE_LOWER",
         "cublasSideMode_t": "CUBLAS_SIDE_LEFT", "cublasDiagType_t": "CUBLAS_DIAG_NON_UNIT",
         "cudaDataType": "CUDA_R_32F", "cudaDataType_t": "CUDA_R_32F",
         "cublasComputeType_t": "CUBLAS_COMPUTE_32F", "cublasGemmAlgo_t": "CUBLAS_GEMM_DEFAULT"}
HOST_PTRS = {"alpha", "beta", "result"}


def valid(typ, name, fn):
    t = typ.replace("const", "").replace(" ", "")
    if t in ENUMS or typ.strip() in ENUMS:
        if fn == "cublasCgemmEx" and t.startswith("cudaDataType"):
            return "CUDA_C_32F"
        return ENUMS.get(t) or ENUMS[typ.strip()]
    if t in ("int", "int64_t", "longlongint"):
        if name.startswith("inc"):
            return "1"
        if name.startswith("stride"):
            return "16"
        if name in ("batchCount", "batchSize"):
            return "1"
        if name in ("kl", "ku"):
            return "1"
        return "4"
    if "*" in typ:
        if t.count("*") >= 2:
            return "(%s)dptrs" % typ
        if name in HOST_PTRS:
            return "(%s)hbuf" % typ
        return "(%s)dbuf" % typ
    raise ValueError("%s: no value for %s %s" % (fn, typ, name))


def invalid(typ, name):
    t = typ.replace("const", "").replace(" ", "")
    if t == "cublasGemmAlgo_t":
        return ["(cublasGemmAlgo_t)9999"]
    if t in ENUMS:
        return ["(%s)1234" % t]
    if t in ("int", "int64_t", "longlongint"):
        return ["-1", "0"] if name.startswith("inc") else ["-1"]
    return []


def main(header):
    protos = cp.parse(header)
    out = ['#include <stdio.h>', '#include <cuda_runtime.h>', '#include <cublas_v2.h>',
           'int main(void) {', '  setvbuf(stdout, NULL, _IONBF, 0); setvbuf(stderr, NULL, _IONBF, 0);',
           '  cublasHandle_t h; int st = cublasCreate(&h); printf("CREATE\\t%d\\n", st); if (st) return 1;',
           '  int ver = 0; cublasGetVersion(h, &ver); printf("CUBLAS_VERSION\\t%d\\n", ver);',
           '  void *dbuf; cudaMalloc(&dbuf, 1 << 20); cudaMemset(dbuf, 0, 1 << 20);',
           '  void **dptrs; cudaMalloc((void**)&dptrs, 64 * sizeof(void*));',
           '  void *hp[64]; for (int i = 0; i < 64; i++) hp[i] = dbuf;',
           '  cudaMemcpy(dptrs, hp, sizeof hp, cudaMemcpyHostToDevice);',
           '  static double hbuf[64];', '  int s;']
    for api in cp.FUNCTIONS:
        sym = cp.symbol(api, protos)
        if not sym:
            continue
        params = protos[sym][1][1:]
        vals = [valid(t, n, api) for t, n in params]
        def call(v):
            return "%s(h, %s)" % (sym, ", ".join(v))
        out.append('  printf("PROBE\\t%s\\t0\\t-\\tvalid\\n"); s = %s; cudaDeviceSynchronize(); printf("STATUS\\t%%d\\n", s);'
                   % (api, call(vals)))
        for i, (t, n) in enumerate(params):
            for bad in invalid(t, n):
                v = list(vals)
                v[i] = bad
                out.append('  printf("PROBE\\t%s\\t%d\\t%s\\t%s\\n"); s = %s; cudaDeviceSynchronize(); printf("STATUS\\t%%d\\n", s);'
                           % (api, i + 1, n, bad.replace('"', ''), call(v)))
    out += ['  printf("END\\t%s\\n", cudaGetErrorString(cudaGetLastError()));', '  cublasDestroy(h); return 0;', '}']
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
