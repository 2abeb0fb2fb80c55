/*
 * test_gpu_limits.c — limits an Apple GPU has and a CPU does not, modelled
 * by the software device so the runtime's handling of them runs here
 * (issue 15):
 *  - the GPU watchdog (finding 11): METALCUDA_SOFT_WATCHDOG_MS fails a
 *    command buffer whose dispatch ran longer, as Metal's
 *    MTLCommandBufferErrorTimeout does; the launch reports
 *    CUDA_ERROR_LAUNCH_TIMEOUT naming the kernel;
 *  - a pipeline that allows fewer than 1024 threads (finding 12):
 *    METALCUDA_SOFT_MAX_THREADS caps maxTotalThreadsPerThreadgroup;
 *    cuFuncGetAttribute(MAX_THREADS_PER_BLOCK) reports it, a launch above
 *    it fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (not sticky), one at
 *    it runs, and __launch_bounds__ below it still gives
 *    CUDA_ERROR_INVALID_VALUE.
 * On a Mac the same runtime paths are taken by Metal's own values
 * (docs/mac-checklist.md).
 */
#include "harness.h"
#include "test_core_util.h"

/* The models are the software device's: on a Mac device 0 is the GPU,
 * whose own limits the checklist measures instead. */
static bool on_soft_device(void)
{
   core_device *d = core_init() == CORE_SUCCESS ? core_device_get(0) : NULL;
   if (d && core_device_info(d)->is_software)
      return true;
   test_skip("device 0 is not the software device (its watchdog and thread limits are the GPU's own)");
   return false;
}

/* Spins n iterations: long enough for a 1 ms watchdog. */
static const char spin_ptx[] =
   ".version 7.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry spin(.param .u64 out, .param .u32 n)\n{\n"
   "  .reg .u32 %r<4>; .reg .u64 %rd<2>; .reg .pred %p;\n"
   "  ld.param.u64 %rd0, [out]; ld.param.u32 %r1, [n]; mov.u32 %r0, 0; mov.u32 %r2, 1;\n"
   "L: mad.lo.u32 %r2, %r2, 1664525, 1013904223; add.u32 %r0, %r0, 1; setp.lt.u32 %p, %r0, %r1; @%p bra L;\n"
   "  st.global.u32 [%rd0], %r2;\n  ret;\n}\n";

TEST(watchdog_is_launch_timeout)
{
   if (!on_soft_device())
      return;
   setenv("METALCUDA_SOFT_WATCHDOG_MS", "1", 1);
   core_ctx *c = tc_ctx();
   CHECK(c);
   uint64_t out;
   CHECK(core_mem_alloc(c->dev, 16, &out) == CORE_SUCCESS);
   uint32_t n = 200000000u;
   void *args[] = { &out, &n };
   const uint32_t grid[3] = { 1, 1, 1 }, block[3] = { 1, 1, 1 };
   char msg[600] = "";
   int r = tc_run_ptx(c, spin_ptx, "spin", grid, block, args, msg, sizeof(msg));
   unsetenv("METALCUDA_SOFT_WATCHDOG_MS");
   CHECK_INT(r, CORE_ERROR_LAUNCH_TIMEOUT);
   CHECK_CONTAINS(msg, "kernel 'spin' ran past the GPU watchdog");
   CHECK_CONTAINS(msg, "kIOGPUCommandBufferCallbackErrorTimeout");
   tc_ctx_reset();
   /* without the model, the same launch runs */
   c = tc_ctx();
   CHECK(core_mem_alloc(c->dev, 16, &out) == CORE_SUCCESS);
   n = 1000;
   CHECK_INT(tc_run_ptx(c, spin_ptx, "spin", grid, block, args, msg, sizeof(msg)), CORE_SUCCESS);
   tc_ctx_reset();
}

static const char store_ptx[] =
   ".version 7.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry store(.param .u64 out)\n{\n"
   "  .reg .u32 %r<2>; .reg .u64 %rd<4>;\n"
   "  ld.param.u64 %rd0, [out]; mov.u32 %r0, %tid.x; mul.wide.u32 %rd1, %r0, 4; add.u64 %rd2, %rd0, %rd1;\n"
   "  st.global.u32 [%rd2], %r0;\n  ret;\n}\n"
   ".visible .entry bounded(.param .u64 out) .maxntid 128, 1, 1\n{\n"
   "  .reg .u32 %r<2>; .reg .u64 %rd<4>;\n"
   "  ld.param.u64 %rd0, [out]; mov.u32 %r0, %tid.x; mul.wide.u32 %rd1, %r0, 4; add.u64 %rd2, %rd0, %rd1;\n"
   "  st.global.u32 [%rd2], %r0;\n  ret;\n}\n";

TEST(pipeline_thread_limit)
{
   if (!on_soft_device())
      return;
   setenv("METALCUDA_SOFT_MAX_THREADS", "256", 1);
   core_ctx *c = tc_ctx();
   CHECK(c);
   core_module *m;
   core_kernel *k, *kb;
   CHECK(core_module_load(c, store_ptx, strlen(store_ptx), &m) == CORE_SUCCESS);
   CHECK(core_module_get_kernel(m, "store", &k) == CORE_SUCCESS);
   CHECK(core_module_get_kernel(m, "bounded", &kb) == CORE_SUCCESS);
   CHECK(core_kernel_prepare(k) == CORE_SUCCESS && core_kernel_prepare(kb) == CORE_SUCCESS);
   unsetenv("METALCUDA_SOFT_MAX_THREADS");
   int v = 0;
   CHECK(core_kernel_get_attribute(k, 0, &v) == CORE_SUCCESS);   /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
   CHECK_INT(v, 256);
   CHECK(core_kernel_get_attribute(kb, 0, &v) == CORE_SUCCESS);
   CHECK_INT(v, 128);
   uint64_t out;
   CHECK(core_mem_alloc(c->dev, 4096, &out) == CORE_SUCCESS);
   void *args[] = { &out };
   core_launch_config cfg = { { 1, 1, 1 }, { 257, 1, 1 }, 0, NULL, args, NULL, 0, false };
   CHECK_INT(core_launch(k, &cfg), CORE_ERROR_LAUNCH_OUT_OF_RESOURCES);
   cfg.block[0] = 1025;                      /* above the device's limit: invalid, as on CUDA */
   CHECK_INT(core_launch(k, &cfg), CORE_ERROR_INVALID_VALUE);
   cfg.block[0] = 129;                       /* above __launch_bounds__ */
   CHECK_INT(core_launch(kb, &cfg), CORE_ERROR_INVALID_VALUE);
   cfg.block[0] = 256;                       /* the limit itself runs, and nothing was sticky */
   memset((void *)(uintptr_t)out, 0xee, 4096);
   CHECK_INT(core_launch(k, &cfg), CORE_SUCCESS);
   CHECK_INT(core_ctx_synchronize(c), CORE_SUCCESS);
   CHECK_INT(((const uint32_t *)(uintptr_t)out)[255], 255);
   core_module_unload(m);
   tc_ctx_reset();
}

/* Finding 7: global memory that other threadgroups may read or write is
 * coherent(device) (the prelude's MC_CDEV) in the MSL: every access of a
 * kernel that fences at .gpu scope (the last-block pattern: plain store,
 * __threadfence, atomic ticket, plain loads), every strong access
 * elsewhere; a kernel that does neither keeps plain device pointers.  The
 * software device refuses a device-scope fence in a kernel with plain
 * device memory (msl_scan.c), so the translated kernels below compile and
 * run there only because of it. */
static const char fence_ptx[] =
   ".version 7.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry fenced(.param .u64 out)\n{\n"
   "  .reg .u32 %r<2>; .reg .u64 %rd<2>;\n"
   "  ld.param.u64 %rd0, [out]; mov.u32 %r0, 7;\n"
   "  st.global.u32 [%rd0], %r0;\n  membar.gl;\n  ld.global.u32 %r1, [%rd0+4];\n  st.global.u32 [%rd0+8], %r1;\n"
   "  ret;\n}\n";
static const char strong_ptx[] =
   ".version 7.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry strong(.param .u64 out)\n{\n"
   "  .reg .u32 %r<2>; .reg .u64 %rd<2>;\n"
   "  ld.param.u64 %rd0, [out]; ld.relaxed.gpu.global.u32 %r0, [%rd0+4];\n  st.global.u32 [%rd0], %r0;\n"
   "  ret;\n}\n";

/* an .acq_rel atomic at .gpu scope fences too (emit_atom.c) */
static const char release_ptx[] =
   ".version 7.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry released(.param .u64 out)\n{\n"
   "  .reg .u32 %r<2>; .reg .u64 %rd<2>;\n"
   "  ld.param.u64 %rd0, [out]; mov.u32 %r0, 5;\n"
   "  st.global.u32 [%rd0+4], %r0;\n  atom.acq_rel.gpu.global.add.u32 %r1, [%rd0], 1;\n"
   "  ret;\n}\n";

/* 128-bit strong accesses take the location's lock (prelude
 * mc_atom128_d), also in a kernel that fences at device scope, and keep
 * the first element at the lowest address. */
static const char wide_ptx[] =
   ".version 9.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry wide(.param .u64 out)\n{\n"
   "  .reg .u32 %r<4>; .reg .u64 %rd<4>;\n"
   "  ld.param.u64 %rd0, [out]; mov.u64 %rd1, 0x1111111122222222; mov.u64 %rd2, 0x3333333344444444;\n"
   "  st.release.gpu.global.v2.u64 [%rd0], {%rd1, %rd2};\n  membar.gl;\n"
   "  ld.acquire.gpu.global.v4.u32 {%r0, %r1, %r2, %r3}, [%rd0];\n"
   "  st.global.v4.u32 [%rd0+16], {%r3, %r2, %r1, %r0};\n"
   "  ret;\n}\n";

TEST(wide_strong_accesses_take_the_lock)
{
   char *msl = tc_msl_of(wide_ptx);
   CHECK(msl);
   const char *body = msl ? strstr(msl, "kernel void") : NULL;
   CHECK_CONTAINS(body, "mc_atom128_d(");
   CHECK_CONTAINS(body, "mc_atom_lock_g(mc_L");
   free(msl);
   core_ctx *c = tc_ctx();
   CHECK(c);
   uint64_t out;
   CHECK(core_mem_alloc(c->dev, 32, &out) == CORE_SUCCESS);
   uint32_t *o = (uint32_t *)(uintptr_t)out;
   memset(o, 0xee, 32);
   void *args[] = { &out };
   const uint32_t one[3] = { 1, 1, 1 };
   char m[600] = "";
   CHECK_MSG(tc_run_ptx(c, wide_ptx, "wide", one, one, args, m, sizeof(m)) == CORE_SUCCESS, "%s", m);
   CHECK_INT(o[0], 0x22222222);
   CHECK_INT(o[3], 0x33333333);
   CHECK_INT(o[4], 0x33333333);   /* the v4.u32 load's last element is the highest word */
   CHECK_INT(o[7], 0x22222222);
   tc_ctx_reset();
}

/* More static shared memory than Metal's 32 KB of threadgroup memory:
 * the kernel's variant with its shared memory in a per-block slice of
 * device memory (compiler_options.shared_in_device, launch.c), also in a
 * kernel that fences at device scope (the slices are spelled MC_SMEM, not
 * a device pointer the software device's coherence rule would refuse).
 * Four blocks, each writing its own 40 KB, then reading it back reversed
 * after the barrier: overlapping slices would mix them. */
static const char big_shared_ptx[] =
   ".version 7.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry bigsm(.param .u64 out)\n{\n"
   "  .reg .pred %p<2>; .reg .u32 %r<12>; .reg .u64 %rd<8>;\n"
   "  .shared .align 4 .b8 sm[40960];\n"
   "  ld.param.u64 %rd0, [out]; mov.u32 %r0, %tid.x; mov.u32 %r1, %ctaid.x; mov.u32 %r2, 0;\n"
   "  mov.u32 %r9, sm;\n"
   "W:\n  shl.b32 %r3, %r2, 7; add.u32 %r3, %r3, %r0;\n"   /* word i = k * 128 + tid */
   "  mad.lo.u32 %r4, %r1, 100000, %r3;\n  shl.b32 %r5, %r3, 2; add.u32 %r5, %r5, %r9;\n"
   "  st.shared.u32 [%r5], %r4;\n  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p0, %r2, 80;\n  @%p0 bra W;\n"
   "  bar.sync 0;\n  membar.gl;\n"
   "  sub.u32 %r6, 10239, %r0;\n  shl.b32 %r7, %r6, 2; add.u32 %r7, %r7, %r9;\n  ld.shared.u32 %r8, [%r7];\n"
   "  mad.lo.u32 %r10, %r1, 128, %r0;\n  mul.wide.u32 %rd1, %r10, 4;\n  add.s64 %rd2, %rd0, %rd1;\n"
   "  st.global.u32 [%rd2], %r8;\n  ret;\n}\n";

TEST(shared_memory_past_threadgroup_memory_is_device_memory)
{
   char *msl = tc_msl_of(big_shared_ptx);   /* the translation the runtime starts from */
   CHECK(msl);
   free(msl);
   core_ctx *c = tc_ctx();
   CHECK(c);
   uint64_t out;
   CHECK(core_mem_alloc(c->dev, 4 * 128 * 4, &out) == CORE_SUCCESS);
   uint32_t *o = (uint32_t *)(uintptr_t)out;
   memset(o, 0xee, 4 * 128 * 4);
   void *args[] = { &out };
   const uint32_t grid[3] = { 4, 1, 1 }, block[3] = { 128, 1, 1 };
   char m[600] = "";
   CHECK_MSG(tc_run_ptx(c, big_shared_ptx, "bigsm", grid, block, args, m, sizeof(m)) == CORE_SUCCESS, "%s", m);
   for (uint32_t b = 0; b < 4; b++)
      for (uint32_t t = 0; t < 128; t += 37)
         CHECK_INT(o[b * 128 + t], b * 100000 + 10239 - t);
   tc_ctx_reset();
}

TEST(coherent_device_memory_where_blocks_communicate)
{
   char *msl = tc_msl_of(fence_ptx);
   CHECK(msl);
   CHECK_CONTAINS(msl, "thread_scope_device");
   CHECK_MSG(!strstr(strstr(msl, "kernel void"), "<device uint *>"), "a plain device access in a fencing kernel:\n%s",
             strstr(msl, "kernel void"));
   CHECK_CONTAINS(strstr(msl, "kernel void"), "<MC_CDEV uint *>");
   free(msl);
   msl = tc_msl_of(release_ptx);
   CHECK(msl);
   CHECK_CONTAINS(strstr(msl, "kernel void"), "<MC_CDEV uint *>");
   CHECK_MSG(!strstr(strstr(msl, "kernel void"), "<device uint *>"), "a plain device access:\n%s",
             strstr(msl, "kernel void"));
   free(msl);
   msl = tc_msl_of(strong_ptx);
   CHECK(msl);
   const char *body = strstr(msl, "kernel void");
   CHECK_CONTAINS(body, "<volatile MC_CDEV uint *>");   /* the strong load */
   CHECK_CONTAINS(body, "<device uint *>");             /* the plain store: no fence, no need */
   free(msl);
   /* and both run on the software device, whose compile checks the rule */
   core_ctx *c = tc_ctx();
   CHECK(c);
   uint64_t out;
   CHECK(core_mem_alloc(c->dev, 16, &out) == CORE_SUCCESS);
   uint32_t *o = (uint32_t *)(uintptr_t)out;
   o[1] = 42;
   void *args[] = { &out };
   const uint32_t one[3] = { 1, 1, 1 };
   char m[600] = "";
   CHECK_MSG(tc_run_ptx(c, fence_ptx, "fenced", one, one, args, m, sizeof(m)) == CORE_SUCCESS, "%s", m);
   CHECK_INT(o[0], 7);
   CHECK_INT(o[2], 42);
   CHECK_MSG(tc_run_ptx(c, strong_ptx, "strong", one, one, args, m, sizeof(m)) == CORE_SUCCESS, "%s", m);
   CHECK_INT(o[0], 42);
   tc_ctx_reset();
}

/* Writes, for its block, %ctaid and %nctaid packed 8 bits a dimension,
 * at the block's linear index, after spinning n iterations. */
static const char where_ptx[] =
   ".version 7.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry where(.param .u64 out, .param .u32 n)\n{\n"
   "  .reg .u32 %r<16>; .reg .u64 %rd<4>; .reg .pred %p;\n"
   "  ld.param.u64 %rd0, [out]; ld.param.u32 %r1, [n]; mov.u32 %r0, 0; mov.u32 %r2, 1;\n"
   "  setp.eq.u32 %p, %r1, 0; @%p bra D;\n"
   "L: mad.lo.u32 %r2, %r2, 1664525, 1013904223; add.u32 %r0, %r0, 1; setp.lt.u32 %p, %r0, %r1; @%p bra L;\n"
   "D: mov.u32 %r3, %ctaid.x; mov.u32 %r4, %ctaid.y; mov.u32 %r5, %ctaid.z;\n"
   "  mov.u32 %r6, %nctaid.x; mov.u32 %r7, %nctaid.y; mov.u32 %r8, %nctaid.z;\n"
   "  mad.lo.u32 %r9, %r5, %r7, %r4; mad.lo.u32 %r9, %r9, %r6, %r3;\n"        /* linear block index */
   "  shl.b32 %r10, %r4, 8; or.b32 %r10, %r10, %r3; shl.b32 %r11, %r5, 16; or.b32 %r10, %r10, %r11;\n"
   "  shl.b32 %r11, %r7, 8; or.b32 %r11, %r11, %r6; shl.b32 %r12, %r8, 16; or.b32 %r11, %r11, %r12;\n"
   "  setp.eq.u32 %p, %r2, 7; @%p add.u32 %r10, %r10, 1;\n"                   /* keeps the spin */
   "  mul.wide.u32 %rd1, %r9, 8; add.u64 %rd2, %rd0, %rd1; st.global.v2.u32 [%rd2], {%r10, %r11};\n"
   "  ret;\n}\n";

/* Runs where over grid g with METALCUDA_GRID_SPLIT=split: the launch's
 * result in *res (-1: a check failed); checks every block wrote its own
 * index and the grid's size; the submissions the context's legacy stream
 * made, in *subs. */
static void run_where(const uint32_t g[3], const char *split, uint32_t spin, uint64_t *subs, char *msg, size_t len,
                      int *res)
{
   *res = -1;
   setenv("METALCUDA_GRID_SPLIT", split, 1);
   core_ctx *c = tc_ctx();
   uint32_t blocks = g[0] * g[1] * g[2];
   uint64_t out, before, members;
   CHECK(c && core_mem_alloc(c->dev, (size_t)blocks * 8, &out) == CORE_SUCCESS);
   memset((void *)(uintptr_t)out, 0xff, (size_t)blocks * 8);
   mtl_queue_stats(c->null_stream->queue, &before, &members);
   void *args[] = { &out, &spin };
   const uint32_t block[3] = { 1, 1, 1 };
   int r = tc_run_ptx(c, where_ptx, "where", g, block, args, msg, len);
   mtl_queue_stats(c->null_stream->queue, subs, &members);
   *subs -= before;
   unsetenv("METALCUDA_GRID_SPLIT");
   const uint32_t *o = (const uint32_t *)(uintptr_t)out;
   for (uint32_t z = 0, i = 0; r == CORE_SUCCESS && z < g[2]; z++)
      for (uint32_t y = 0; y < g[1]; y++)
         for (uint32_t x = 0; x < g[0]; x++, i++) {
            CHECK_MSG(o[2 * i] == (x | y << 8 | z << 16), "split %s: block (%u,%u,%u) read blockIdx %#x", split,
                      x, y, z, o[2 * i]);
            CHECK_MSG(o[2 * i + 1] == (g[0] | g[1] << 8 | g[2] << 16), "split %s: gridDim %#x", split, o[2 * i + 1]);
         }
   core_mem_free(c->dev, out);
   *res = r;
}

/* A grid longer than METALCUDA_GRID_SPLIT threadgroups runs as pieces,
 * each its own submission, and blockIdx/gridDim are the whole grid's in
 * each: whole planes, rows of a plane, parts of a row (launch.c). */
TEST(split_grid_block_indices)
{
   const uint32_t g[3] = { 5, 3, 4 };   /* 60 blocks, planes of 15 */
   static const struct { const char *split; uint64_t pieces; } cases[] = {
      { "0", 1 }, { "60", 1 }, { "30", 2 }, { "16", 4 }, { "7", 12 }, { "4", 24 }, { "1", 60 },
   };
   for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      uint64_t subs;
      char msg[600] = "";
      int r;
      run_where(g, cases[i].split, 0, &subs, msg, sizeof(msg), &r);
      CHECK_MSG(r == CORE_SUCCESS, "split %s: %d: %s", cases[i].split, r, msg);
      /* every piece its own submission; the synchronisation adds none */
      CHECK_MSG(subs == cases[i].pieces, "split %s: %llu submissions for %llu pieces", cases[i].split,
                (unsigned long long)subs, (unsigned long long)cases[i].pieces);
      tc_ctx_reset();   /* a queue reads METALCUDA_GRID_SPLIT when it is made */
   }
}

/* The watchdog against a long grid: whole, it runs past the (modelled)
 * watchdog and fails naming the kernel; split into pieces that each stay
 * well inside the limit, the same launch runs and every block is right. */
TEST(split_grid_passes_watchdog)
{
   if (!on_soft_device())
      return;
   /* 512 blocks of 0.5-2 ms each (the CPU decides): the whole grid takes
    * 250 ms or more on two workers, well past the 100 ms limit (a spin a
    * third as long came within it on a fast host), a piece of 4 blocks
    * at most about 10 ms */
   const uint32_t g[3] = { 64, 8, 1 }, spin = 6000000;
   uint64_t subs;
   char msg[600] = "";
   setenv("METALCUDA_SOFT_WATCHDOG_MS", "100", 1);
   int whole, split;
   run_where(g, "0", spin, &subs, msg, sizeof(msg), &whole);
   tc_ctx_reset();
   CHECK_INT(whole, CORE_ERROR_LAUNCH_TIMEOUT);
   CHECK_CONTAINS(msg, "kernel 'where' ran past the GPU watchdog");
   run_where(g, "4", spin, &subs, msg, sizeof(msg), &split);
   unsetenv("METALCUDA_SOFT_WATCHDOG_MS");
   CHECK_MSG(split == CORE_SUCCESS, "split into pieces of 4 blocks: %d: %s", split, msg);
   CHECK_INT(subs, 128);
   tc_ctx_reset();
}
