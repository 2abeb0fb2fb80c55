/*
 * test_lower_exit.c — ir_lower_exit: threads that return before a barrier
 * stay, masked off, until the barriers the others execute.
 *
 * The pass is checked on its own (progress true where a kernel returns
 * early before a barrier, false where it does not and on its own output;
 * the early return is gone; stores are guarded; the validator is happy)
 * and by execution on the software device, where a barrier that a
 * returned thread misses fails the launch: half the threads of each block
 * return, the other half share memory through bar.sync.  The early exits
 * have the shapes nvcc emits: a branch to the kernel's one `ret`, a
 * return inside a loop with a barrier, and a return after some work.
 */
#include "harness.h"

#include "compiler/ir/ir.h"
#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Odd threads return at once (a branch to the kernel's only ret); even
 * threads write tid+1 to shared memory, sync, and store the value of the
 * even thread at the mirrored position: out[t] = (n - 2 - t) + 1. */
static const char half_return[] = HEAD
   ".visible .entry k(.param .u64 out)\n{\n"
   "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
   "  .shared .align 4 .b32 sm[1024];\n"
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
   "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ntid.x;\n"
   "  and.b32 %r3, %r1, 1;\n  setp.ne.u32 %p1, %r3, 0;\n  @%p1 bra DONE;\n"
   "  mov.u32 %r4, sm;\n  shl.b32 %r5, %r1, 2;\n  add.s32 %r6, %r4, %r5;\n"
   "  add.u32 %r7, %r1, 1;\n  st.shared.u32 [%r6], %r7;\n"
   "  bar.sync 0;\n"
   "  sub.u32 %r8, %r2, 2;\n  sub.u32 %r8, %r8, %r1;\n  shl.b32 %r9, %r8, 2;\n"
   "  add.s32 %r10, %r4, %r9;\n  ld.shared.u32 %r11, [%r10];\n"
   "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r11;\n"
   "DONE:\n  ret;\n}\n";

/* Every thread's slot starts at 500.  A loop of 4 rounds, two barriers
 * each: in round r a thread writes t + r to its slot and adds its
 * partner's (t ^ 1) slot.  Thread t returns at the start of round t % 5
 * (never when t % 5 == 4), storing 1000 + its sum + the round. */
static const char loop_return[] = HEAD
   ".visible .entry k(.param .u64 out)\n{\n"
   "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<8>;\n"
   "  .shared .align 4 .b32 sm[1024];\n"
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
   "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
   "  rem.u32 %r2, %r1, 5;\n  mov.u32 %r3, 0;\n  mov.u32 %r4, sm;\n  shl.b32 %r5, %r1, 2;\n"
   "  add.s32 %r6, %r4, %r5;\n  xor.b32 %r7, %r1, 1;\n  shl.b32 %r8, %r7, 2;\n  add.s32 %r9, %r4, %r8;\n"
   "  mov.u32 %r10, 0;\n  st.shared.u32 [%r6], 500;\n  bar.sync 0;\n"
   "LOOP:\n"
   "  setp.eq.u32 %p1, %r3, %r2;\n  @%p1 bra LEAVE;\n"
   "  add.u32 %r11, %r1, %r3;\n  st.shared.u32 [%r6], %r11;\n"
   "  bar.sync 0;\n"
   "  ld.shared.u32 %r12, [%r9];\n  add.u32 %r10, %r10, %r12;\n"
   "  bar.sync 0;\n"
   "  add.u32 %r3, %r3, 1;\n  setp.lt.u32 %p2, %r3, 4;\n  @%p2 bra LOOP;\n"
   "  st.global.u32 [%rd3], %r10;\n  ret;\n"
   "LEAVE:\n  add.u32 %r13, %r10, 1000;\n  add.u32 %r13, %r13, %r3;\n  st.global.u32 [%rd3], %r13;\n"
   "  ret;\n}\n";

/* Thread 0 writes a flag and returns after that work (a return block with
 * code: the threads run it, then follow the others); the rest sync and
 * copy their neighbour's shared slot. */
static const char work_then_return[] = HEAD
   ".visible .entry k(.param .u64 out)\n{\n"
   "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
   "  .shared .align 4 .b32 sm[1024];\n"
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
   "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
   "  mov.u32 %r4, sm;\n  shl.b32 %r5, %r1, 2;\n  add.s32 %r6, %r4, %r5;\n"
   "  st.shared.u32 [%r6], %r1;\n"
   "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra REST;\n"
   "  st.global.u32 [%rd3], 777;\n  ret;\n"
   "REST:\n  bar.sync 0;\n  sub.u32 %r7, %r1, 1;\n  shl.b32 %r8, %r7, 2;\n  add.s32 %r9, %r4, %r8;\n"
   "  ld.shared.u32 %r10, [%r9];\n  st.global.u32 [%rd3], %r10;\n  ret;\n}\n";

/* A loop with a barrier whose trip count depends on the thread, leaving
 * straight for the end: the leaving threads could never tell when the
 * others are done.  Its exit becomes a vote of the block's threads, and
 * the launch fails when they do not all choose alike (here: threads below
 * 36 go round twice, the others once). */
static const char divergent_loop[] = HEAD
   ".visible .entry k(.param .u64 out)\n{\n"
   "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
   "  mov.u32 %r1, %tid.x;\n"
   "LOOP:\n  bar.sync 0;\n  add.u32 %r1, %r1, 64;\n  setp.lt.u32 %p1, %r1, 100;\n  @%p1 bra LOOP;\n"
   "  ret;\n}\n";

/* The loop exit of nvopencc's matrixMul (PTX for sm_10): a barrier loop
 * whose exit test compares two values that both depend on the thread, by
 * the same amount (a = tid + 4 + 8i, e = tid + 4 + 8 * rounds), so every
 * thread leaves at the same iteration, which the vote finds.  Each round
 * every thread writes its value to shared memory, syncs, adds its
 * neighbour's and syncs: out[t] = sum over i < rounds of
 * (t + 1) % n + 8i + 4 + (t + 4 + 8i) ... (checked on the host). */
static const char same_trip_loop[] = HEAD
   ".visible .entry k(.param .u64 out, .param .u32 rounds)\n{\n"
   "  .reg .pred %p<4>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<8>;\n"
   "  .shared .align 4 .b32 sh[256];\n"
   "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ntid.x;\n  ld.param.u32 %r3, [rounds];\n"
   "  add.u32 %r4, %r1, 4;\n"                      /* a = tid + 4 */
   "  shl.b32 %r5, %r3, 3;\n  add.u32 %r6, %r4, %r5;\n"   /* e = tid + 4 + 8 rounds */
   "  mov.u32 %r7, 0;\n"                           /* acc */
   "  add.u32 %r8, %r1, 1;\n  rem.u32 %r9, %r8, %r2;\n"   /* neighbour */
   "  mov.u32 %r10, sh;\n  shl.b32 %r11, %r1, 2;\n  add.u32 %r12, %r10, %r11;\n"
   "  shl.b32 %r13, %r9, 2;\n  add.u32 %r14, %r10, %r13;\n"
   "LOOP:\n  st.shared.u32 [%r12], %r4;\n  bar.sync 0;\n  ld.shared.u32 %r15, [%r14];\n"
   "  add.u32 %r7, %r7, %r15;\n  bar.sync 0;\n  add.u32 %r4, %r4, 8;\n"
   "  setp.lt.u32 %p1, %r4, %r6;\n  @%p1 bra LOOP;\n"
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n  mul.wide.u32 %rd2, %r1, 4;\n"
   "  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r7;\n  ret;\n}\n";

/* Thread 0 does extra work in a branch before a uniform loop of barriers
 * (the loop counter stays uniform), then threads >= n return early; the
 * others count the rounds in shared memory.  out[t] = 4 * n for t < n. */
static const char branch_then_loop[] = HEAD
   ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
   "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
   "  .shared .align 4 .b32 cnt;\n"
   "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n  ld.param.u32 %r9, [n];\n"
   "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
   "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra SKIP;\n  st.shared.u32 [cnt], 0;\n"
   "SKIP:\n  bar.sync 0;\n  setp.ge.u32 %p3, %r1, %r9;\n  @%p3 bra END;\n  mov.u32 %r2, 0;\n"
   "LOOP:\n  atom.shared.add.u32 %r3, [cnt], 1;\n  bar.sync 0;\n"
   "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p2, %r2, 4;\n  @%p2 bra LOOP;\n"
   "  ld.shared.u32 %r4, [cnt];\n  st.global.u32 [%rd3], %r4;\n"
   "END:\n  ret;\n}\n";

/* No early return: the pass leaves it alone. */
static const char no_early[] = HEAD
   ".visible .entry k(.param .u64 out)\n{\n"
   "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
   "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  bar.sync 0;\n"
   "  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r1;\n  ret;\n}\n";

/* ---- the pass alone ---- */

typedef struct built {
   arena ar;
   ir_module *m;
   ir_func *f;
} built;

static bool build(built *b, const char *ptx)
{
   arena_init(&b->ar, 0);
   ptx_module *pm = ptx_parse_module(&b->ar, ptx, strlen(ptx));
   b->m = pm ? ir_module_create(&b->ar, pm) : NULL;
   b->f = b->m && ir_build_globals(b->m) ? ir_build_func(b->m, ptx_find_func(pm, "k")) : NULL;
   return b->f && ir_link_calls(b->m, b->f);
}

static uint32_t count_ops(const ir_func *f, ir_op op, bool guarded_only)
{
   uint32_t n = 0;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         n += i->op == op && (!guarded_only || i->guard.def);
   return n;
}

TEST(pass_reports_progress_and_removes_the_early_return)
{
   built b;
   CHECK(build(&b, half_return));
   uint32_t ends = count_ops(b.f, IR_RET, false) + count_ops(b.f, IR_EXIT, false);
   CHECK(ir_lower_exit(b.m));
   ir_validate(b.m, "ir_lower_exit");
   CHECK_MSG(!b.m->error, "error: %s", b.m->error);
   /* the kernel ends only after the barrier now (the branch to its end
    * is gone); every store is guarded by alive, and a second run finds
    * nothing to do */
   CHECK_INT(count_ops(b.f, IR_RET, false) + count_ops(b.f, IR_EXIT, false), ends);
   ir_compute_dominance(b.f);
   ir_foreach_block(blk, b.f) {
      ir_instr *t = ir_block_terminator(blk);
      if (t && (t->op == IR_RET || t->op == IR_EXIT))
         ir_foreach_block(bar, b.f)
            ir_foreach_instr(i, bar)
               CHECK_MSG(i->op != IR_BAR || ir_dominates(bar, blk), "a return not after the barrier");
   }
   CHECK_INT(count_ops(b.f, IR_STORE, false), 2);
   CHECK_INT(count_ops(b.f, IR_STORE, true), 2);
   CHECK_INT(count_ops(b.f, IR_LOAD, true), count_ops(b.f, IR_LOAD, false));
   CHECK(!ir_lower_exit(b.m));
   CHECK(ir_lower_predicates(b.m));
   ir_validate(b.m, "ir_lower_predicates");
   arena_free_all(&b.ar);
}

TEST(pass_leaves_kernels_without_early_returns)
{
   built b;
   CHECK(build(&b, no_early));
   CHECK(!ir_lower_exit(b.m));
   CHECK_INT(count_ops(b.f, IR_STORE, true), 0);
   arena_free_all(&b.ar);
}

TEST(pass_handles_returns_in_loops_and_after_work)
{
   const char *const srcs[] = { loop_return, work_then_return };
   for (int k = 0; k < 2; k++) {
      built b;
      CHECK(build(&b, srcs[k]));
      CHECK(ir_lower_exit(b.m));
      ir_validate(b.m, "ir_lower_exit");
      CHECK_MSG(!b.m->error, "error: %s", b.m->error);
      CHECK(!ir_lower_exit(b.m));
      arena_free_all(&b.ar);
   }
}

/* ---- execution on the software device ---- */

static core_ctx *test_ctx(void)
{
   static core_ctx *c;
   if (!c && core_init() == CORE_SUCCESS && core_ctx_retain_primary(core_device_get(0), &c) != CORE_SUCCESS)
      c = NULL;
   return c;
}

/* Runs kernel k of ptx on `groups` blocks of `threads`; out (n words,
 * pre-filled with 0xdeadbeef) comes back in got.  Returns the launch
 * status. */
static int run(const char *ptx, uint32_t groups, uint32_t threads, uint32_t *got, size_t n)
{
   core_ctx *c = test_ctx();
   core_module *m = NULL;
   core_kernel *k = NULL;
   uint64_t out = 0;
   int r = c ? core_module_load(c, ptx, strlen(ptx), &m) : CORE_ERROR_NO_DEVICE;
   if (r == CORE_SUCCESS)
      r = core_module_get_kernel(m, "k", &k);
   if (r == CORE_SUCCESS)
      r = core_mem_alloc(c->dev, n * 4, &out);
   if (r == CORE_SUCCESS) {
      for (size_t i = 0; i < n; i++)
         ((uint32_t *)(uintptr_t)out)[i] = 0xdeadbeefu;
      void *args[] = { &out };
      core_launch_config cfg = { { groups, 1, 1 }, { threads, 1, 1 }, 0, NULL, args, NULL, 0, false };
      r = core_launch(k, &cfg);
      if (r == CORE_SUCCESS)
         r = core_ctx_synchronize(c);
      memcpy(got, (void *)(uintptr_t)out, n * 4);
   }
   if (out)
      core_mem_free(c->dev, out);
   if (m)
      core_module_unload(m);
   return r;
}

TEST(half_the_threads_return_and_the_rest_share_memory)
{
   static const uint32_t sizes[] = { 2, 64, 256, 1024 };
   static uint32_t got[1024];
   for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
      uint32_t n = sizes[s];
      CHECK_INT(run(half_return, 1, n, got, n), CORE_SUCCESS);
      for (uint32_t t = 0; t < n; t++) {
         uint32_t want = t % 2 ? 0xdeadbeefu : n - 2 - t + 1;
         CHECK_MSG(got[t] == want, "block of %u: out[%u] = %#x, expected %#x", n, t, got[t], want);
      }
   }
}

TEST(threads_return_inside_a_loop_with_barriers)
{
   enum { N = 96 };
   uint32_t got[N];
   CHECK_INT(run(loop_return, 1, N, got, N), CORE_SUCCESS);
   for (uint32_t t = 0; t < N; t++) {
      uint32_t leave = t % 5, acc = 0, want;
      /* round r: the partner t ^ 1 wrote t ^ 1 + r if it was still there,
       * otherwise its slot keeps what it wrote last (500 if nothing) */
      uint32_t p = t ^ 1, pleave = p % 5, rounds = leave < 4 ? leave : 4;
      for (uint32_t r = 0; r < rounds; r++)
         acc += r < pleave || pleave == 4 ? p + r : pleave ? p + pleave - 1 : 500;
      want = leave < 4 ? 1000 + acc + leave : acc;
      CHECK_MSG(got[t] == want, "out[%u] = %u, expected %u", t, got[t], want);
   }
}

TEST(a_return_after_work_then_the_barrier)
{
   enum { N = 64 };
   uint32_t got[N];
   CHECK_INT(run(work_then_return, 2, N, got, N), CORE_SUCCESS);
   for (uint32_t t = 0; t < N; t++) {
      uint32_t want = t == 0 ? 777 : t - 1;
      CHECK_MSG(got[t] == want, "out[%u] = %u, expected %u", t, got[t], want);
   }
}

TEST(a_barrier_loop_left_at_different_iterations_fails_the_launch)
{
   built b;
   CHECK(build(&b, divergent_loop));
   CHECK(ir_lower_exit(b.m));
   CHECK(!b.m->error);
   CHECK(b.m->funcs.len && b.m->funcs.data[0]->uses_bar_red);   /* the vote */
   arena_free_all(&b.ar);
   /* in a context of its own: the failure is sticky, as a fault */
   CHECK(test_ctx());
   core_ctx *c;
   CHECK_INT(core_ctx_create(core_device_get(0), 0, &c), CORE_SUCCESS);
   core_module *m;
   core_kernel *k;
   uint64_t out;
   CHECK_INT(core_module_load(c, divergent_loop, strlen(divergent_loop), &m), CORE_SUCCESS);
   CHECK_INT(core_module_get_kernel(m, "k", &k), CORE_SUCCESS);
   CHECK_INT(core_mem_alloc(c->dev, 64 * 4, &out), CORE_SUCCESS);
   void *args[] = { &out };
   core_launch_config cfg = { { 1, 1, 1 }, { 64, 1, 1 }, 0, NULL, args, NULL, 0, false };
   CHECK_INT(core_launch(k, &cfg), CORE_SUCCESS);
   CHECK_INT(core_ctx_synchronize(c), CORE_ERROR_NOT_SUPPORTED);
   CHECK_INT(core_ctx_error(c), CORE_ERROR_NOT_SUPPORTED);
   core_mem_free(c->dev, out);
   CHECK_INT(core_ctx_destroy(c), CORE_SUCCESS);
}

TEST(a_barrier_loop_whose_exit_test_depends_on_the_thread_runs_in_step)
{
   enum { N = 96, ROUNDS = 5 };
   core_ctx *c = test_ctx();
   CHECK(c);
   core_module *m;
   core_kernel *k;
   CHECK_INT(core_module_load(c, same_trip_loop, strlen(same_trip_loop), &m), CORE_SUCCESS);
   CHECK_INT(core_module_get_kernel(m, "k", &k), CORE_SUCCESS);
   uint64_t out;
   CHECK_INT(core_mem_alloc(c->dev, N * 4, &out), CORE_SUCCESS);
   uint32_t rounds = ROUNDS;
   void *args[] = { &out, &rounds };
   core_launch_config cfg = { { 2, 1, 1 }, { N, 1, 1 }, 0, NULL, args, NULL, 0, false };
   CHECK_INT(core_launch(k, &cfg), CORE_SUCCESS);
   CHECK_INT(core_ctx_synchronize(c), CORE_SUCCESS);
   for (uint32_t t = 0; t < N; t++) {
      uint32_t nb = (t + 1) % N, want = 0;
      for (uint32_t i = 0; i < ROUNDS; i++)
         want += nb + 4 + 8 * i;
      CHECK_MSG(((uint32_t *)(uintptr_t)out)[t] == want, "out[%u] = %u, expected %u", t,
                ((uint32_t *)(uintptr_t)out)[t], want);
   }
   core_mem_free(c->dev, out);
   core_module_unload(m);
}

TEST(a_divergent_branch_before_a_uniform_barrier_loop)
{
   enum { N = 64 };
   core_ctx *c = test_ctx();
   CHECK(c);
   core_module *m;
   core_kernel *k;
   CHECK_INT(core_module_load(c, branch_then_loop, strlen(branch_then_loop), &m), CORE_SUCCESS);
   CHECK_INT(core_module_get_kernel(m, "k", &k), CORE_SUCCESS);
   uint64_t out;
   CHECK_INT(core_mem_alloc(c->dev, N * 4, &out), CORE_SUCCESS);
   for (uint32_t n = 1; n <= N; n += 21) {
      for (uint32_t i = 0; i < N; i++)
         ((uint32_t *)(uintptr_t)out)[i] = 0xdeadbeefu;
      void *args[] = { &out, &n };
      core_launch_config cfg = { { 1, 1, 1 }, { N, 1, 1 }, 0, NULL, args, NULL, 0, false };
      CHECK_INT(core_launch(k, &cfg), CORE_SUCCESS);
      CHECK_INT(core_ctx_synchronize(c), CORE_SUCCESS);
      const uint32_t *got = (const uint32_t *)(uintptr_t)out;
      for (uint32_t t = 0; t < N; t++) {
         uint32_t want = t < n ? 4 * n : 0xdeadbeefu;
         CHECK_MSG(got[t] == want, "n=%u: out[%u] = %u, expected %u", n, t, got[t], want);
      }
   }
   core_mem_free(c->dev, out);
   core_module_unload(m);
}
