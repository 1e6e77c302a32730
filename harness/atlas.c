/* atlas.c — the support library: record, note, skip, probe. See atlas.h. */
#define _GNU_SOURCE
#include "atlas.h"
#include "record.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int record_fd = -2; /* -2: not opened yet, -1: no record file */

/* The record format and its writer are record.h's. */
static void emit(const char *kind, int nfields, const char *const fields[])
{
    if (record_fd == -2)
        record_fd = atlas_record_open(getenv("ATLAS_RECORD"));
    atlas_record_write(record_fd, kind, nfields, fields);
}

bool atlas_record_call(const char *step, const char *api, const char *text,
                       long code, const char *name, bool success)
{
    if (record_fd == -2)
        record_fd = atlas_record_open(getenv("ATLAS_RECORD"));
    atlas_record_write_call(record_fd, step, api, code, name, success, text);
    printf("[%s] %s -> %s (%ld)\n", step, text, name, code);
    fflush(stdout);
    return success;
}

bool atlas_cuda_call(const char *step, const char *text, cudaError_t status)
{
    const char *name = cudaGetErrorName(status);
    char unknown[32];
    if (name == NULL || strncmp(name, "cuda", 4) != 0) {
        snprintf(unknown, sizeof unknown, "<unknown:%d>", (int)status);
        name = unknown;
    }
    return atlas_record_call(step, "cuda", text, (long)status, name, status == cudaSuccess);
}

bool atlas_check(const char *step, bool ok, const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return atlas_record_call(step, "check", detail, ok ? 0 : 1,
                             ok ? "result_correct" : "result_wrong", ok);
}

void atlas_quantity(const char *name, double value, const char *unit)
{
    char number[64];
    snprintf(number, sizeof number, "%.17g", value);
    emit("quantity", 3, (const char *const[]){name, number, unit});
    printf("[quantity] %s = %s %s\n", name, number, unit);
    fflush(stdout);
}

void atlas_note(const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    emit("note", 1, (const char *const[]){text});
    printf("[note] %s\n", text);
    fflush(stdout);
}

void atlas_skip(const char *reason)
{
    emit("skip", 1, (const char *const[]){reason});
    printf("[skip] %s\n", reason);
    fflush(stdout);
    exit(77);
}

enum { MAX_FILL_BLOCKS = 4096 };
static void *fill_blocks[MAX_FILL_BLOCKS];
static int fill_count;

size_t atlas_fill_gpu(size_t headroom)
{
    size_t free_bytes = 0, total = 0, filled = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess)
        return 0;
    /* Big blocks first, then smaller ones, until even 1 MiB does not fit. */
    for (size_t chunk = (size_t)1 << 32; chunk >= ((size_t)1 << 20) && fill_count < MAX_FILL_BLOCKS; chunk /= 4) {
        while (fill_count < MAX_FILL_BLOCKS) {
            if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess || free_bytes < headroom + chunk)
                break;
            if (cudaMalloc(&fill_blocks[fill_count], chunk) != cudaSuccess)
                break;
            fill_count++;
            filled += chunk;
        }
    }
    cudaGetLastError(); /* the last, failing cudaMalloc is part of filling, not of the lesson */
    cudaMemGetInfo(&free_bytes, &total);
    atlas_quantity("filled_bytes", (double)filled, "bytes");
    atlas_quantity("free_after_fill", (double)free_bytes, "bytes");
    return filled;
}

void atlas_release_gpu(void)
{
    while (fill_count > 0)
        cudaFree(fill_blocks[--fill_count]);
}

/* After the variant: is the CUDA context still usable? A sticky error (an
 * illegal address, a device-side assert) makes every later call fail; an
 * ordinary error does not. The probe allocates, writes and synchronizes, and
 * records the first status that is not success. */
static void probe_context(void)
{
    void *p = NULL;
    cudaError_t status = cudaMalloc(&p, 256);
    const char *text = "cudaMalloc(&p, 256)";
    if (status == cudaSuccess) {
        status = cudaMemset(p, 0, 256);
        text = "cudaMemset(p, 0, 256)";
    }
    if (status == cudaSuccess) {
        status = cudaDeviceSynchronize();
        text = "cudaDeviceSynchronize()";
    }
    if (p)
        cudaFree(p);
    atlas_cuda_call("probe", text, status);
}

int atlas_main(int argc, char **argv, atlas_variant_fn fixed, atlas_variant_fn broken)
{
    atlas_variant_fn run = NULL;
    if (argc == 2 && strcmp(argv[1], "fixed") == 0)
        run = fixed;
    else if (argc == 2 && strcmp(argv[1], "broken") == 0)
        run = broken;
    if (!run) {
        bool help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
        fprintf(help ? stdout : stderr,
                "usage: %s fixed|broken\n"
                "Runs one variant of this case, then probes whether the CUDA context is still usable.\n"
                "Prints each recorded call; with $ATLAS_RECORD set (the runner sets it), also writes\n"
                "the records there (format: harness/record.h). Default: no record file.\n",
                argv[0]);
        return help ? 0 : 2;
    }
    run();
    emit("variant_end", 0, NULL);
    probe_context();
    return 0;
}
