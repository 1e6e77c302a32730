/* atlas-context-floor — the cheapest CUDA program: start, create the
 * context, exit. The benchmark's unit of per-case overhead. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

int main(int argc, char **argv)
{
    if (argc > 1) {
        int help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
        fprintf(help ? stdout : stderr, "usage: atlas-context-floor\n"
                "Creates a CUDA context (cudaFree(0)) and exits: 0 if it worked, 1 if not.\n");
        return help ? 0 : 2;
    }
    return cudaFree(0) == cudaSuccess ? 0 : 1;
}
