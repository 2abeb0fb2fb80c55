/*
 * test_msl_nbar.c — the GPU path of the named barriers (prelude/warp.metal
 * mc_nbar without __MC_METAL_STDLIB__: phase and arrival counters in
 * threadgroup memory), run on the software device.
 *
 * The software device itself uses its scheduler's barrier (tests/msl/
 * named_barrier_soft.metal, tests/ptx, tests/cuda/named_barriers.cu); the
 * counter version is what an Apple GPU runs, so its logic is checked here
 * where it can be: a kernel with no barrier runs its threads in order
 * (loop mode), so only waits that the waiting thread completes itself are
 * used — a spin would never end in loop mode.  Checked: all threads
 * arriving complete a phase and reset the count; two rounds give two
 * phases; a sync by the last thread completes at once; and the launch
 * status for an id above 15 or a count that is not a multiple of 32.
 */
#include "harness.h"

#include "../../src/compiler/compiler.h"
#include "../../src/compiler/msl/msl.h"
#include "../../src/metal/mtl.h"
#include "../../src/util/util.h"

#include <stdlib.h>
#include <string.h>

static const char kernel_src[] =
   "kernel void nbar_gpu_path(device uint *out [[buffer(0)]], constant mc_launch &L [[buffer(1)]],\n"
   "                          constant uint &bad [[buffer(2)]],\n"
   "                          uint tid [[thread_index_in_threadgroup]], uint n [[threads_per_threadgroup]])\n"
   "{\n"
   "    threadgroup atomic_uint st[32];\n"
   "    if (tid == 0u)\n"
   "        for (uint k = 0u; k < 32u; k++) atomic_store_explicit(&st[k], 0u, memory_order_relaxed);\n"
   "    if (bad != 0u) {\n"
   "        mc_nbar(L, st, bad == 1u ? 16u : 0u, bad == 1u ? 64u : 48u, n, true);\n"
   "        return;\n"
   "    }\n"
   "    mc_nbar(L, st, 1u, n, n, true);\n"            /* one phase of barrier 1 */
   "    mc_nbar(L, st, 2u, n, n, true);\n"            /* two phases of barrier 2 */
   "    mc_nbar(L, st, 2u, n, n, true);\n"
   "    mc_nbar(L, st, 3u, 0u, n, tid + 1u != n);\n" /* count 0: the block; the last thread syncs */
   "    if (tid + 1u == n)\n"
   "        for (uint k = 0u; k < 8u; k++) out[k] = atomic_load_explicit(&st[k], memory_order_relaxed);\n"
   "}\n";

/* Runs the kernel once with one threadgroup of n threads; fills out[8] and
 * *status. */
static bool run(mtl_device *dev, mtl_pipeline *p, uint32_t n, uint32_t bad, uint32_t out[8], uint32_t *status)
{
   mtl_buffer *ob = mtl_buffer_new(dev, 32, NULL), *sb = mtl_buffer_new(dev, 4, NULL);
   mtl_queue *q = mtl_queue_new(dev, NULL);
   if (!ob || !sb || !q)
      return false;
   memset(mtl_buffer_contents(ob), 0xcd, 32);
   memset(mtl_buffer_contents(sb), 0, 4);
   mc_launch L;
   memset(&L, 0, sizeof(L));
   L.status = mtl_buffer_gpu_address(sb);
   mtl_cmdbuf *cb = mtl_cmdbuf_new(q, NULL);
   mtl_encoder *e = mtl_cmdbuf_compute_encoder(cb);
   mtl_encoder_set_pipeline(e, p);
   mtl_encoder_set_buffer(e, ob, 0, 0);
   mtl_encoder_use_resource(e, sb);
   mtl_encoder_set_bytes(e, &L, sizeof(L), 1);
   mtl_encoder_set_bytes(e, &bad, 4, 2);
   mtl_encoder_dispatch_threadgroups(e, (mtl_size){ 1, 1, 1 }, (mtl_size){ n, 1, 1 });
   mtl_encoder_end(e);
   mtl_cmdbuf_commit(cb);
   mtl_cmdbuf_wait_until_completed(cb);
   bool ok = mtl_cmdbuf_get_status(cb) == MTL_CMDBUF_COMPLETED;
   if (!ok)
      test_fail_(__FILE__, __LINE__, "kernel failed: %s", mtl_cmdbuf_error(cb));
   memcpy(out, mtl_buffer_contents(ob), 32);
   memcpy(status, mtl_buffer_contents(sb), 4);
   mtl_cmdbuf_release(cb);
   mtl_queue_release(q);
   mtl_buffer_release(ob);
   mtl_buffer_release(sb);
   return ok;
}

TEST(named_barrier_counters_as_a_gpu_runs_them)
{
   mtl_device *dev = mtl_device_get(0);
   CHECK(dev);
   strbuf src;
   strbuf_init(&src);
   /* the GPU path: as if this were not the software device's shim */
   strbuf_puts(&src, "#include <metal_stdlib>\nusing namespace metal;\n#undef __MC_METAL_STDLIB__\n\n");
   strbuf_puts(&src, msl_prelude_text);
   strbuf_puts(&src, kernel_src);
   char *err = NULL;
   mtl_library *lib = mtl_library_new(dev, src.s, NULL, &err);
   strbuf_free(&src);
   CHECK_MSG(lib, "compile: %s", err ? err : "?");
   free(err);
   mtl_function *fn = lib ? mtl_function_new(lib, "nbar_gpu_path", NULL) : NULL;
   mtl_pipeline *p = fn ? mtl_pipeline_new(dev, fn, NULL) : NULL;
   CHECK(p);
   uint32_t o[8], st;
   if (p && run(dev, p, 64, 0, o, &st)) {
      /* st[2a]: arrivals in the current phase, st[2a + 1]: phases done */
      CHECK_MSG(o[2] == 0 && o[3] == 1, "barrier 1: count %u, phase %u (want 0, 1)", o[2], o[3]);
      CHECK_MSG(o[4] == 0 && o[5] == 2, "barrier 2: count %u, phase %u (want 0, 2)", o[4], o[5]);
      CHECK_MSG(o[6] == 0 && o[7] == 1, "barrier 3: count %u, phase %u (want 0, 1)", o[6], o[7]);
      CHECK_MSG(o[0] == 0 && o[1] == 0, "barrier 0 untouched: %u %u", o[0], o[1]);
      CHECK_MSG(st == MC_STATUS_OK, "status %u", st);
   }
   if (p && run(dev, p, 64, 1, o, &st))
      CHECK_MSG(st == MC_STATUS_NBAR, "id 16: status %u, want %u", st, (unsigned)MC_STATUS_NBAR);
   if (p && run(dev, p, 64, 2, o, &st))
      CHECK_MSG(st == MC_STATUS_NBAR, "count 48: status %u, want %u", st, (unsigned)MC_STATUS_NBAR);
   mtl_pipeline_release(p);
   mtl_function_release(fn);
   mtl_library_release(lib);
}

