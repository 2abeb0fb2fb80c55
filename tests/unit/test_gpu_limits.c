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
