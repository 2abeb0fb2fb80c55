/*
 * test_arena_chunks.c — device memory in chunks (core/arena.c): with 4 MB
 * slots in a 64 MB arena, allocations that do not fit make new chunks (one
 * larger than a slot gets one buffer over several slots), each chunk has
 * its own CPU→GPU delta on the software device, kernels reach every
 * allocation through the slot table (a kernel per allocation pair and a
 * pointer chase across chunks, expected values computed on the host),
 * and freed memory is reused without a new chunk.
 *
 * The variables are set before the core starts (its own test binary for
 * that reason).  METALCUDA_SOFT_SCATTER=1: without it the software device
 * places every chunk at one delta and its kernels skip the table;
 * test_arena_chunks_one_delta.c runs the same tests that way
 * (ARENA_CHUNKS_ONE_DELTA).
 */
#include "harness.h"
#include "test_core_util.h"

#include "core/core.h"

#include <stdlib.h>
#include <string.h>

#define MB (1ull << 20)

/* out[i] = in[i] * 3 + i for i < n; every thread adds 1 to *count. */
static const char scale_ptx[] =
   ".version 9.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry scale(.param .u64 in, .param .u64 out, .param .u64 count, .param .u32 n)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b32 %r<10>;\n   .reg .b64 %rd<8>;\n"
   "   ld.param.u64 %rd1, [in];\n   ld.param.u64 %rd2, [out];\n   ld.param.u64 %rd6, [count];\n"
   "   ld.param.u32 %r1, [n];\n"
   "   mov.u32 %r2, %ctaid.x;\n   mov.u32 %r3, %ntid.x;\n   mov.u32 %r4, %tid.x;\n"
   "   mad.lo.s32 %r5, %r2, %r3, %r4;\n   setp.ge.u32 %p1, %r5, %r1;\n   @%p1 bra $Ldone;\n"
   "   atom.global.add.u32 %r8, [%rd6], 1;\n"
   "   mul.wide.u32 %rd3, %r5, 4;\n   add.s64 %rd4, %rd1, %rd3;\n   ld.global.u32 %r6, [%rd4];\n"
   "   mad.lo.s32 %r7, %r6, 3, %r5;\n   add.s64 %rd5, %rd2, %rd3;\n   st.global.u32 [%rd5], %r7;\n"
   "$Ldone:\n   ret;\n}\n";

/* One thread follows node = { next, value } from head until next is 0:
 * out[0] = the sum of the values, out[1] = the nodes visited. */
static const char chase_ptx[] =
   ".version 9.0\n.target sm_75\n.address_size 64\n"
   ".visible .entry chase(.param .u64 head, .param .u64 out)\n{\n"
   "   .reg .pred %p<2>;\n   .reg .b64 %rd<8>;\n"
   "   ld.param.u64 %rd1, [head];\n   ld.param.u64 %rd2, [out];\n"
   "   mov.u64 %rd3, 0;\n   mov.u64 %rd4, 0;\n"
   "$Lloop:\n   setp.eq.u64 %p1, %rd1, 0;\n   @%p1 bra $Lend;\n"
   "   ld.global.u64 %rd5, [%rd1+8];\n   add.s64 %rd3, %rd3, %rd5;\n   add.s64 %rd4, %rd4, 1;\n"
   "   ld.global.u64 %rd1, [%rd1];\n   bra $Lloop;\n"
   "$Lend:\n   st.global.u64 [%rd2], %rd3;\n   st.global.u64 [%rd2+8], %rd4;\n   ret;\n}\n";

static core_ctx *chunked_ctx(void)
{
   static bool set;
   if (!set) {
      setenv("METALCUDA_ARENA_CHUNK_MB", "4", 1);
      setenv("METALCUDA_ARENA_MB", "64", 1);
#ifndef ARENA_CHUNKS_ONE_DELTA
      /* the software device's chunks each at its own delta, as an Apple
       * GPU's may be: kernels go through the slot table */
      setenv("METALCUDA_SOFT_SCATTER", "1", 1);
#endif
      set = true;
   }
   return tc_ctx();
}

static uint32_t chunk_count(core_device *d)
{
   uint64_t deltas[1];
   return core_arena_chunks(d, deltas, 0);
}

/* Which chunk holds p: its buffer (NULL outside). */
static mtl_buffer *chunk_at(core_device *d, uint64_t p)
{
   return core_arena_chunk(d, p, NULL);
}

/* scale over n words from in to out, count at cnt; checked on the host. */
static bool run_scale(core_ctx *c, uint64_t in, uint64_t out, uint64_t cnt, uint32_t n)
{
   uint32_t *src = (uint32_t *)(uintptr_t)in, *dst = (uint32_t *)(uintptr_t)out;
   for (uint32_t i = 0; i < n; i++)
      src[i] = i * 2654435761u;
   *(uint32_t *)(uintptr_t)cnt = 0;
   void *args[] = { &in, &out, &cnt, &n };
   char msg[512];
   int r = tc_run_ptx(c, scale_ptx, "scale", (const uint32_t[3]){ (n + 255) / 256, 1, 1 },
                      (const uint32_t[3]){ 256, 1, 1 }, args, msg, sizeof(msg));
   if (r != CORE_SUCCESS) {
      fprintf(stderr, "    scale: error %d: %s\n", r, msg);
      return false;
   }
   uint32_t bad = 0;
   for (uint32_t i = 0; i < n; i++)
      if (dst[i] != i * 2654435761u * 3u + i && bad++ < 3)
         fprintf(stderr, "    scale: out[%u] = %#x, expected %#x\n", i, dst[i], i * 2654435761u * 3u + i);
   if (*(uint32_t *)(uintptr_t)cnt != n) {
      fprintf(stderr, "    scale: count %u, expected %u\n", *(uint32_t *)(uintptr_t)cnt, n);
      return false;
   }
   return bad == 0;
}

TEST(allocations_grow_chunks_with_their_own_deltas)
{
   core_ctx *c = chunked_ctx();
   CHECK(c);
   core_device *d = c->dev;
   CHECK_INT(chunk_count(d), 1);
   uint64_t before = core_mem_in_use(d);
   uint64_t a, b, big;
   CHECK_INT(core_mem_alloc(d, 3 * MB, &a), CORE_SUCCESS);     /* in the first chunk */
   CHECK_INT(chunk_count(d), 1);
   CHECK_INT(core_mem_alloc(d, 3 * MB, &b), CORE_SUCCESS);     /* does not fit: a second chunk */
   CHECK_INT(chunk_count(d), 2);
   CHECK_INT(core_mem_alloc(d, 10 * MB, &big), CORE_SUCCESS);  /* larger than a slot: one buffer, 3 slots */
   CHECK_INT(chunk_count(d), 3);
   CHECK(chunk_at(d, a) && chunk_at(d, b) && chunk_at(d, big));
   CHECK(chunk_at(d, a) != chunk_at(d, b) && chunk_at(d, b) != chunk_at(d, big));
   /* every byte of the big allocation is in its one buffer, at its offset */
   size_t off0, off1;
   CHECK(chunk_at(d, big + 10 * MB - 1) == chunk_at(d, big));
   CHECK(core_arena_chunk(d, big, &off0) && core_arena_chunk(d, big + 9 * MB, &off1));
   CHECK_U64(off1 - off0, 9 * MB);
   uint64_t deltas[3];
   CHECK_INT(core_arena_chunks(d, deltas, 3), 3);
   if (core_device_info(d)->is_software) {
#ifndef ARENA_CHUNKS_ONE_DELTA
      /* separate GPU views: a translation that uses the wrong chunk's delta fails */
      CHECK(deltas[0] != deltas[1] && deltas[1] != deltas[2] && deltas[0] != deltas[2]);
#else
      /* every GPU view where the arena asked: one delta, the kernels' gmem - amem */
      CHECK(deltas[0] == deltas[1] && deltas[1] == deltas[2]);
#endif
   }
   CHECK_U64(core_arena_gpu(d, a), a + deltas[0]);
   CHECK_U64(core_arena_gpu(d, b + 5), b + 5 + deltas[1]);
   CHECK_U64(core_arena_gpu(d, big + 9 * MB), big + 9 * MB + deltas[2]);
   CHECK_U64(core_arena_cuda(d, big + 9 * MB + deltas[2]), big + 9 * MB);
   /* the GPU view holds what the CPU view wrote, in every slot of the big buffer */
   for (uint64_t o = 0; o < 10 * MB; o += MB) {
      *(volatile uint64_t *)(uintptr_t)(big + o) = 0x1234567800000000ull | o;
      CHECK_U64(*(volatile uint64_t *)(uintptr_t)core_arena_gpu(d, big + o), 0x1234567800000000ull | o);
   }
   CHECK_INT(core_mem_free(d, a), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, b), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, big), CORE_SUCCESS);
   CHECK_U64(core_mem_in_use(d), before);
}

TEST(kernels_read_and_write_allocations_in_every_chunk)
{
   core_ctx *c = chunked_ctx();
   CHECK(c);
   core_device *d = c->dev;
   uint64_t a, b, big, cnt;
   CHECK_INT(core_mem_alloc(d, 3 * MB, &a), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(d, 3 * MB, &b), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(d, 10 * MB, &big), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(d, 4, &cnt), CORE_SUCCESS);
   CHECK(chunk_at(d, a) != chunk_at(d, b) && chunk_at(d, b) != chunk_at(d, big));
   uint32_t words = (uint32_t)(3 * MB / 4);
   CHECK(run_scale(c, a, b, cnt, words));                      /* chunk 0 -> chunk 1 */
   CHECK(run_scale(c, b, big + 7 * MB, cnt, words));           /* chunk 1 -> the big one's last slots */
   CHECK(run_scale(c, big, a, cnt, words));                    /* the big one's first slot -> chunk 0 */
   CHECK(run_scale(c, big + 1 * MB, big + 5 * MB, cnt, words)); /* within the big one, across its slots */

   /* a list whose nodes lie in every chunk and slot: { next, value } */
   uint64_t nodes[] = { a + MB, big + 9 * MB + 64, b + 2 * MB, big + 256, a + 16, big + 5 * MB - 16,
                        b + 3 * MB - 16 };
   size_t n = sizeof(nodes) / sizeof(nodes[0]);
   for (size_t k = 0; k < n; k++) {
      uint64_t *node = (uint64_t *)(uintptr_t)nodes[k];
      node[0] = k + 1 < n ? nodes[k + 1] : 0;
      node[1] = 0x9e3779b97f4a7c15ull * (k + 1);
   }
   uint64_t want_sum = 0, want_n = 0;   /* the host walks it through the CPU addresses */
   for (uint64_t p = nodes[0]; p; p = ((uint64_t *)(uintptr_t)p)[0]) {
      want_sum += ((uint64_t *)(uintptr_t)p)[1];
      want_n++;
   }
   CHECK_U64(want_n, n);
   uint64_t out;
   CHECK_INT(core_mem_alloc(d, 16, &out), CORE_SUCCESS);
   uint64_t head = nodes[0];
   void *args[] = { &head, &out };
   char msg[512];
   CHECK_INT(tc_run_ptx(c, chase_ptx, "chase", (const uint32_t[3]){ 1, 1, 1 }, (const uint32_t[3]){ 1, 1, 1 }, args,
                        msg, sizeof(msg)),
             CORE_SUCCESS);
   CHECK_U64(((uint64_t *)(uintptr_t)out)[0], want_sum);
   CHECK_U64(((uint64_t *)(uintptr_t)out)[1], want_n);
   CHECK_INT(core_mem_free(d, out), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, cnt), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, a), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, b), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, big), CORE_SUCCESS);
}

TEST(freed_memory_is_reused_and_no_allocation_spans_two_chunks)
{
   core_ctx *c = chunked_ctx();
   CHECK(c);
   core_device *d = c->dev;
   uint32_t chunks = chunk_count(d);
   uint64_t x, y, again;
   CHECK_INT(core_mem_alloc(d, 3 * MB, &x), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(d, 3 * MB, &y), CORE_SUCCESS);
   CHECK_INT(chunk_count(d), chunks);                          /* the chunks made before suffice */
   CHECK_INT(core_mem_free(d, y), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(d, 3 * MB, &again), CORE_SUCCESS);
   CHECK(again < y + 4096 && again + 4096 > y);                 /* first fit: the same place, in another colour */
   CHECK_INT(chunk_count(d), chunks);
   /* two neighbouring free ranges of different chunks never merge: an
    * allocation of a whole slot needs a slot of its own */
   uint64_t whole;
   CHECK_INT(core_mem_alloc(d, 4 * MB, &whole), CORE_SUCCESS);
   CHECK(chunk_at(d, whole) && chunk_at(d, whole + 4 * MB - 1) == chunk_at(d, whole));
   /* more than the arena holds: refused, no chunk made */
   uint32_t now = chunk_count(d);
   uint64_t huge;
   CHECK_INT(core_mem_alloc(d, 60 * MB, &huge), CORE_ERROR_OUT_OF_MEMORY);
   CHECK_INT(chunk_count(d), now);
   CHECK_INT(core_mem_free(d, whole), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, again), CORE_SUCCESS);
   CHECK_INT(core_mem_free(d, x), CORE_SUCCESS);
}
