/* tile_ptx.h — the kernel of the static_shared_memory_over_48k cases: one
 * static __shared__ array of a size filled in at run time, as PTX, so that
 * the driver (its JIT or its linker), not nvcc, compiles it. */
#ifndef TILE_PTX_H
#define TILE_PTX_H

/* What nvcc -ptx writes for
 *   __shared__ float tile[BYTES / 4];
 *   for (i = threadIdx.x; i < BYTES / 4; i += blockDim.x) tile[i] = i;
 *   __syncthreads();
 *   out[threadIdx.x] = tile[BYTES / 4 - 1 - threadIdx.x];
 * with BYTES filled in. */
static const char TILE_PTX[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry tile_sum(.param .u64 out)\n{\n"
    "  .reg .pred %%p<3>;\n  .reg .f32 %%f<3>;\n  .reg .b32 %%r<14>;\n  .reg .b64 %%rd<5>;\n"
    "  .shared .align 4 .b8 tile[%d];\n"
    "  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r1, %%tid.x;\n"
    "  setp.gt.s32 %%p1, %%r1, %d;\n  @%%p1 bra DONE;\n"
    "  mov.u32 %%r2, %%ntid.x;\n  mov.u32 %%r6, tile;\n  mov.u32 %%r13, %%r1;\n"
    "LOOP:\n  shl.b32 %%r5, %%r13, 2;\n  add.s32 %%r7, %%r6, %%r5;\n  cvt.rn.f32.s32 %%f1, %%r13;\n"
    "  st.shared.f32 [%%r7], %%f1;\n  add.s32 %%r13, %%r13, %%r2;\n  setp.lt.s32 %%p2, %%r13, %d;\n"
    "  @%%p2 bra LOOP;\n"
    "DONE:\n  bar.sync 0;\n  mov.u32 %%r8, %d;\n  sub.s32 %%r9, %%r8, %%r1;\n  shl.b32 %%r10, %%r9, 2;\n"
    "  mov.u32 %%r11, tile;\n  add.s32 %%r12, %%r11, %%r10;\n  ld.shared.f32 %%f2, [%%r12];\n"
    "  cvta.to.global.u64 %%rd2, %%rd1;\n  mul.wide.u32 %%rd3, %%r1, 4;\n  add.s64 %%rd4, %%rd2, %%rd3;\n"
    "  st.global.f32 [%%rd4], %%f2;\n  ret;\n}\n";

/* The PTX for a tile of `bytes` (a multiple of 4) into `out`. */
#define TILE_PTX_FORMAT(out, size, bytes) \
    snprintf((out), (size), TILE_PTX, (bytes), (bytes) / 4 - 1, (bytes) / 4, (bytes) / 4 - 1)

#endif
