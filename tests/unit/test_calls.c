/*
 * test_calls.c — calls, atomics, printf/assert and isspacep in the IR:
 * ir_link_calls (library order, frames, shared layout, threads that end
 * inside a callee), the builder's refusals with their messages, and the MSL
 * each construct becomes.
 */
#include "harness.h"

#include "compiler/compiler.h"
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>

static const char *HEAD = ".version 9.0\n.target sm_75\n.address_size 64\n";

/* Parses ptx, builds kernel `k` and links its calls in a fresh module. */
typedef struct linked {
   arena ar;
   ir_module *m;
   ir_func *k;
   bool ok;
} linked;

/* stack: the recursion stack asked for (0: compiler.c's default) */
static void link_ptx_stack(linked *l, const char *body, uint32_t stack)
{
   char *ptx = malloc(strlen(HEAD) + strlen(body) + 1);
   strcpy(ptx, HEAD);
   strcat(ptx, body);
   arena_init(&l->ar, 64 * 1024);
   const ptx_module *pm = ptx_parse_module(&l->ar, ptx, strlen(ptx));
   free(ptx);
   l->m = ir_module_create(&l->ar, pm);
   l->k = ir_build_globals(l->m) ? ir_build_func(l->m, ptx_find_func(pm, "k")) : NULL;
   if (l->k)
      l->k->stack_bytes = stack ? stack : MC_DEFAULT_STACK;
   l->ok = l->k && ir_link_calls(l->m, l->k);
}

static void link_ptx(linked *l, const char *body) { link_ptx_stack(l, body, 0); }

static ir_func *func_named(ir_module *m, const char *name)
{
   ir_foreach_func(f, m)
      if (!strcmp(f->name, name))
         return f;
   return NULL;
}

static uint32_t count_op(const ir_func *f, ir_op op)
{
   uint32_t n = 0;
   ir_foreach_block(b, f)
      ir_foreach_instr(i, b)
         n += i->op == op;
   return n;
}

/* k → a → b, k → b: callees first, kernel last; b's frame after both
 * callers' frames; a's local address rebased to its frame. */
static const char *CHAIN =
   ".func b(.param .b32 x)\n{\n   .local .align 4 .b8 lb[8];\n   .reg .b32 %t;\n   ld.param.b32 %t, [x];\n"
   "   st.local.u32 [lb], %t;\n   ret;\n}\n"
   ".func (.reg .b32 r) a(.reg .b32 v)\n{\n   .local .align 4 .b8 la[24];\n   st.local.u32 [la+4], v;\n"
   "   { .param .b32 p;\n   st.param.b32 [p], v;\n   call.uni b, (p);\n   }\n   add.u32 r, v, 1;\n   ret;\n}\n"
   ".visible .entry k(.param .u64 o)\n{\n   .local .align 4 .b8 lk[40];\n   .reg .b32 %r<4>;\n"
   "   st.local.u32 [lk], 1;\n   call (%r1), a, (7);\n   { .param .b32 q;\n   st.param.b32 [q], %r1;\n"
   "   call.uni b, (q);\n   }\n   ret;\n}\n";

TEST(link_orders_callees_first_and_stacks_frames)
{
   linked l;
   link_ptx(&l, CHAIN);
   CHECK_MSG(l.ok, "link failed: %s", l.m->error ? l.m->error : "?");
   CHECK_INT(l.m->funcs.len, 3);
   CHECK_STR(l.m->funcs.data[0]->name, "b");
   CHECK_STR(l.m->funcs.data[1]->name, "a");
   CHECK(l.m->funcs.data[2] == l.k);
   ir_func *a = func_named(l.m, "a"), *b = func_named(l.m, "b");
   /* the kernel's frame holds lk and two call blocks; a's after it, b's
    * after a's (b is called by both) */
   CHECK_INT(a->frame_base, ALIGN_UP(l.k->local_bytes, 16));
   CHECK_INT(b->frame_base, a->frame_base + ALIGN_UP(a->local_bytes, 16));
   CHECK_INT(l.k->local_total, b->frame_base + ALIGN_UP(b->local_bytes, 16));
   bool rebased = false;
   ir_foreach_block(bb, a)
      ir_foreach_instr(i, bb)
         rebased |= i->op == IR_SYMADDR && i->space == IR_SPACE_LOCAL && i->imm == a->frame_base + 4;
   CHECK_MSG(rebased, "a's local address la+4 was not moved to its frame (%u)", a->frame_base);
   /* a takes the address of its .reg return and its .reg value */
   CHECK_INT(a->args.len, 2);
   CHECK_INT(a->args.data[0].reg_bits, 0);
   CHECK_INT(a->args.data[1].reg_bits, 32);
   CHECK(!a->may_stop && !b->may_stop);
   arena_free_all(&l.ar);
}

/* Recursion: the components of the call graph.  f and g call each other
 * (one component), s calls itself (another), h is called by g but is not
 * recursive: its fixed frame comes after the caller chain into f's
 * component, the stack after every fixed frame; recursive functions may
 * stop (a stack overflow), and their outside callers take mc_top. */
TEST(link_finds_recursive_components)
{
   linked l;
   link_ptx_stack(&l, ".func f();\n.func h()\n{\n   .local .b32 hl;\n   st.local.u32 [hl], 1;\n   ret;\n}\n"
                ".func g()\n{\n   .local .b32 gl;\n   st.local.u32 [gl], 1;\n   call.uni f, ();\n   call.uni h, ();\n"
                "   ret;\n}\n.func f()\n{\n   call.uni g, ();\n   ret;\n}\n"
                ".func s()\n{\n   call.uni s, ();\n   ret;\n}\n"
                ".func t()\n{\n   .local .b32 tl;\n   st.local.u32 [tl], 1;\n   call.uni f, ();\n   ret;\n}\n"
                ".visible .entry k()\n{\n   .local .b32 kl;\n   st.local.u32 [kl], 1;\n   call.uni t, ();\n"
                "   call.uni s, ();\n   ret;\n}\n", 4096u);
   CHECK_MSG(l.ok, "link failed: %s", l.m->error ? l.m->error : "?");
   ir_func *f = func_named(l.m, "f"), *g = func_named(l.m, "g"), *h = func_named(l.m, "h");
   ir_func *s = func_named(l.m, "s"), *t = func_named(l.m, "t");
   CHECK(f->scc && f->scc == g->scc);
   CHECK(s->scc && s->scc != f->scc);
   CHECK(!h->scc && !t->scc && !l.k->scc);
   CHECK(f->may_stop && g->may_stop && s->may_stop && t->may_stop && !h->may_stop);
   CHECK(t->needs_top && l.k->needs_top && !h->needs_top);
   /* the component's functions are together, callees first */
   uint32_t fi = 0, gi = 0, hi = 0, ti = 0;
   for (uint32_t k = 0; k < l.m->funcs.len; k++) {
      fi = l.m->funcs.data[k] == f ? k : fi;
      gi = l.m->funcs.data[k] == g ? k : gi;
      hi = l.m->funcs.data[k] == h ? k : hi;
      ti = l.m->funcs.data[k] == t ? k : ti;
   }
   CHECK(fi + 1 == gi || gi + 1 == fi);
   CHECK(hi < MC_MIN(fi, gi) && ti > MC_MAX(fi, gi));
   /* h's fixed frame after t's (the chain into the component), the stack
    * after every fixed frame, IR_STACK_SCALE times the 4096 bytes asked */
   CHECK_INT(h->frame_base, t->frame_base + ALIGN_UP(t->local_bytes, 16));
   CHECK_INT(l.k->stack_base, ALIGN_UP(h->frame_base + ALIGN_UP(h->local_bytes, 16), 16));
   CHECK_INT(l.k->local_total, l.k->stack_base + IR_STACK_SCALE * 4096);
   /* g's local address stays relative to its frame */
   bool relative = false;
   ir_foreach_block(bb, g)
      ir_foreach_instr(i, bb)
         relative |= i->op == IR_SYMADDR && i->space == IR_SPACE_LOCAL && i->imm == 0;
   CHECK(relative);
   arena_free_all(&l.ar);
}

TEST(link_refuses_a_barrier_in_a_recursive_function)
{
   linked l;
   link_ptx(&l, ".func b()\n{\n   bar.sync 0;\n   ret;\n}\n.func s()\n{\n   call.uni b, ();\n   call.uni s, ();\n"
                "   ret;\n}\n.visible .entry k()\n{\n   call.uni s, ();\n   ret;\n}\n");
   CHECK(!l.ok);
   CHECK_CONTAINS(l.m->error, "'s' is recursive: a barrier or warp operation (through a call of b)");
   arena_free_all(&l.ar);
}

/* exit in a callee and __assertfail end the thread: the CALL reports it
 * (1-bit def) and the caller branches to an exit; __assertfail's block
 * ends with an exit. */
TEST(link_turns_stops_into_exits)
{
   linked l;
   link_ptx(&l, ".extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d, .param .b64 e);\n"
                ".global .align 1 .b8 s[2] = {65, 0};\n"
                ".func leaf(.reg .b32 v)\n{\n   .reg .pred %p;\n   setp.eq.u32 %p, v, 3;\n   @%p exit;\n   ret;\n}\n"
                ".func mid(.reg .b32 v)\n{\n   call.uni leaf, (v);\n   ret;\n}\n"
                ".visible .entry k()\n{\n   .reg .b32 %r;\n   .reg .b64 %a;\n   mov.u32 %r, %tid.x;\n"
                "   call.uni mid, (%r);\n   mov.u64 %a, s;\n   cvta.global.u64 %a, %a;\n"
                "   { .param .b64 p0;\n   st.param.b64 [p0], %a;\n   .param .b64 p1;\n   st.param.b64 [p1], %a;\n"
                "   .param .b32 p2;\n   st.param.b32 [p2], 9;\n   .param .b64 p3;\n   st.param.b64 [p3], %a;\n"
                "   .param .b64 p4;\n   st.param.b64 [p4], 1;\n   call.uni __assertfail, (p0, p1, p2, p3, p4);\n   }\n"
                "   st.global.u32 [%a], %r;\n   ret;\n}\n");
   CHECK_MSG(l.ok, "link failed: %s", l.m->error ? l.m->error : "?");
   ir_func *leaf = func_named(l.m, "leaf"), *mid = func_named(l.m, "mid");
   CHECK(leaf->may_stop);
   CHECK(mid->may_stop);
   CHECK(l.k->uses_printf);
   ir_foreach_block(b, mid)
      ir_foreach_instr(i, b)
         if (i->op == IR_CALL)
            CHECK_INT(i->def.bits, 1);
   CHECK_INT(count_op(mid, IR_EXIT), 1);
   CHECK_INT(count_op(l.k, IR_ASSERTFAIL), 1);
   /* the store after __assertfail is gone: nothing follows it but exit */
   bool exit_follows = false;
   ir_foreach_block(b, l.k)
      ir_foreach_instr(i, b)
         if (i->op == IR_ASSERTFAIL)
            exit_follows = i->next && i->next->op == IR_EXIT;
   CHECK(exit_follows);
   uint32_t global_stores = 0;
   ir_foreach_block(b, l.k)
      ir_foreach_instr(i, b)
         global_stores += i->op == IR_STORE && i->space != IR_SPACE_LOCAL;
   CHECK_INT(global_stores, 0);
   arena_free_all(&l.ar);
}

/* A module-scope .shared variable used by the kernel and a callee has one
 * offset; a callee's own goes after the kernel's. */
TEST(link_lays_out_shared_memory_across_the_library)
{
   linked l;
   link_ptx(&l, ".shared .align 4 .b8 both[16];\n.shared .align 8 .b8 only_f[8];\n"
                ".func f()\n{\n   .reg .b64 %a<2>;\n   mov.u64 %a0, only_f;\n   mov.u64 %a1, both;\n   ret;\n}\n"
                ".visible .entry k()\n{\n   .shared .align 4 .b8 mine[4];\n   .reg .b64 %a<2>;\n   mov.u64 %a0, mine;\n"
                "   mov.u64 %a1, both;\n   call.uni f, ();\n   ret;\n}\n");
   CHECK_MSG(l.ok, "link failed: %s", l.m->error ? l.m->error : "?");
   uint64_t both_k = 99, both_f = 98, only = 0;
   ir_foreach_func(f, l.m)
      ir_foreach_block(b, f)
         ir_foreach_instr(i, b) {
            if (i->op != IR_SYMADDR || i->space != IR_SPACE_SHARED)
               continue;
            if (!strcmp(i->sym, "both"))
               *(f == l.k ? &both_k : &both_f) = i->imm;
            if (!strcmp(i->sym, "only_f"))
               only = i->imm;
         }
   /* the kernel's body declares mine (0..4) before it uses both (4..20) */
   CHECK_U64(both_k, 4);
   CHECK_U64(both_f, 4);
   CHECK_U64(only, 24);   /* after the kernel's 20 bytes, aligned to 8 */
   CHECK_INT(l.k->shared_static_bytes, 32);
   arena_free_all(&l.ar);
}

/* ---- translation: messages and MSL ---- */

static char *translate(const char *ptx_body, char **err)
{
   char *ptx = malloc(strlen(HEAD) + strlen(ptx_body) + 1);
   strcpy(ptx, HEAD);
   strcat(ptx, ptx_body);
   *err = NULL;
   mc_module *m = compiler_module_load(ptx, strlen(ptx), err);
   free(ptx);
   if (!m)
      return NULL;
   mc_kernel_info info;
   char *msl = compiler_translate_kernel(m, 0, NULL, &info, err);
   compiler_module_free(m);
   return msl;
}

/* The error translating an entry k with this body ("(translated)" if none). */
static const char *error_of(const char *decls, const char *body)
{
   static char msg[2048];
   char ptx[8192];
   snprintf(ptx, sizeof(ptx), "%s.visible .entry k(.param .u64 p)\n{\n   .reg .b32 %%r<4>;\n   .reg .b64 %%rd<4>;\n"
            "   .reg .f32 %%f<4>;\n   .reg .pred %%p<2>;\n%s   ret;\n}\n", decls, body);
   char *err;
   char *msl = translate(ptx, &err);
   snprintf(msg, sizeof(msg), "%s", msl ? "(translated)" : err ? err : "?");
   free(msl);
   free(err);
   return msg;
}

TEST(unsupported_calls_and_atomics_are_refused_clearly)
{
   CHECK_CONTAINS(error_of("", "   call.uni (%r1), %rd1, (%r2), proto;\n"),
                  "an indirect call needs a .callprototype or .calltargets: no proto");
   CHECK_CONTAINS(error_of(".extern .func ext(.param .b32 a);\n", "   call.uni ext, (%r1);\n"),
                  "declares but does not define");
   /* CUDA 12+'s device runtime, as nvcc -rdc=true calls it, where the
    * module lacks its definition (the runtime links one in for the
    * functions core/devrt.c has): refused by name */
   CHECK_CONTAINS(error_of(".extern .func (.param .b32 r) __cudaCDP2LaunchDeviceV2(.param .b64 a, .param .b64 b);\n",
                           "   { .param .b64 a;\n   st.param.b64 [a], 0;\n   .param .b64 b;\n   st.param.b64 [b], 0;\n"
                           "   .param .b32 r;\n   call.uni (r), __cudaCDP2LaunchDeviceV2, (a, b);\n   }\n"),
                  "'__cudaCDP2LaunchDeviceV2': this function of the device runtime (dynamic parallelism) is not "
                  "supported");
   /* the device heap: malloc and free only declared become MALLOC/FREE */
   CHECK_STR(error_of(".extern .func (.param .b64 r) malloc(.param .b64 n);\n.extern .func free(.param .b64 p);\n",
                      "   { .param .b64 n;\n   st.param.b64 [n], 8;\n   .param .b64 r;\n"
                      "   call.uni (r), malloc, (n);\n   ld.param.b64 %rd1, [r];\n   }\n"
                      "   { .param .b64 p;\n   st.param.b64 [p], %rd1;\n   call.uni free, (p);\n   }\n"),
             "(translated)");
   CHECK_CONTAINS(error_of(".extern .func (.param .b64 r) malloc(.param .b64 n);\n",
                           "   { .param .b64 n;\n   .param .b64 m;\n   .param .b64 r;\n"
                           "   call.uni (r), malloc, (n, m);\n   }\n"), "malloc takes a size and returns a pointer");
   /* the aligned form (nvcc 13 calls it __cuda_syscall_aligned_malloc) is MALLOC of size and alignment */
   CHECK_STR(error_of(".extern .func (.param .b64 r) __cuda_syscall_aligned_malloc(.param .b64 n, .param .b64 a);\n",
                      "   { .param .b64 n;\n   st.param.b64 [n], 8;\n   .param .b64 a;\n   st.param.b64 [a], 64;\n"
                      "   .param .b64 r;\n   call.uni (r), __cuda_syscall_aligned_malloc, (n, a);\n   }\n"),
             "(translated)");
   CHECK_CONTAINS(error_of(".extern .func (.param .b64 r) __nv_aligned_device_malloc(.param .b64 n);\n",
                           "   { .param .b64 n;\n   .param .b64 r;\n"
                           "   call.uni (r), __nv_aligned_device_malloc, (n);\n   }\n"),
                  "__nv_aligned_device_malloc takes a size and an alignment and returns a pointer");
   CHECK_CONTAINS(error_of(".func f(.param .b32 a)\n{\n   ret;\n}\n", "   call.uni f, (%r1, %r2);\n"),
                  "call of 'f' with 0 return(s) and 2 argument(s); it has 0 and 1");
   /* cas.b128 works on .b128 registers (or {lo, hi}), not on a 64-bit one */
   CHECK_CONTAINS(error_of("", "   atom.global.cas.b128 %rd1, [%rd2], 1, 2;\n"),
                  "a 128-bit destination must be a .b128 register or {low, high}");
   CHECK_CONTAINS(error_of("", "   atom.global.inc.u64 %rd1, [%rd2], 1;\n"), "not a valid atomic operation");
   CHECK_CONTAINS(error_of("", "   .reg .b16 %h<2>;\n   atom.global.exch.b16 %h1, [%rd2], %h1;\n"), "not a valid atomic operation");
   CHECK_CONTAINS(error_of("", "   .reg .b16 %h<2>;\n   atom.global.add.f16 %h1, [%rd2], %h1;\n"), "not a valid atomic operation");
   CHECK_CONTAINS(error_of("", "   atom.global.add.noftz.f32 %r1, [%rd2], %r1;\n"), "not a valid atomic operation");
   /* vector atomics (sm_90): one atomic per element; only the add forms of the ISA */
   CHECK_STR(error_of("", "   atom.global.add.v4.f32 {%f1, %f2, %f3, %f0}, [%rd2], {%f1, %f2, %f3, %f0};\n"),
             "(translated)");
   CHECK_STR(error_of("", "   .reg .b16 %h<9>;\n   red.global.add.noftz.v8.f16 [%rd2], {%h1, %h2, %h3, %h4, %h5, %h6, %h7, %h8};\n"),
             "(translated)");
   CHECK_CONTAINS(error_of("", "   atom.global.add.v8.f32 {%f1, %f2, %f3, %f0, %f1, %f2, %f3, %f0}, [%rd2], "
                               "{%f1, %f2, %f3, %f0, %f1, %f2, %f3, %f0};\n"), "not a valid vector atomic operation");
   CHECK_CONTAINS(error_of("", "   atom.shared.add.v2.f32 {%f1, %f2}, [%rd2], {%f1, %f2};\n"), ".global only");
   CHECK_CONTAINS(error_of("", "   atom.global.max.noftz.v2.f16x2 {%r1, %r2}, [%rd2], {%r1, %r2};\n"),
                  "vector .min/.max on 16-bit floats");
   CHECK_CONTAINS(error_of("", "   red.global.cas.b32 [%rd2], 1, 2;\n"), "red has no .cas");
   CHECK_CONTAINS(error_of("", "   red.acquire.global.add.u32 [%rd2], 1;\n"), "red takes only .relaxed or .release");
   CHECK_CONTAINS(error_of("", "   atom.global.inc.s32 %r1, [%rd2], 1;\n"), "not a valid atomic operation");
   CHECK_CONTAINS(error_of("", "   .local .b32 l;\n   atom.local.add.u32 %r1, [l], 1;\n"), "atomics in .local");
   CHECK_CONTAINS(error_of("", "   .local .b32 l;\n   atom.add.u32 %r1, [l], 1;\n"), ".global and .shared only");
   CHECK_CONTAINS(error_of("", "   fence.proxy.alias;\n"), "fence.proxy.alias");
   CHECK_CONTAINS(error_of("", "   fence.sc;\n"), "needs a scope");
   CHECK_CONTAINS(error_of(".func f()\n{\n   .local .b32 x;\n   ret;\n}\n.local .b32 gl;\n"
                           ".func g()\n{\n   .reg .b64 %a;\n   mov.u64 %a, gl;\n   ret;\n}\n", "   call.uni g, ();\n"),
                  "module-scope .local variable 'gl' used in a .func");
}

/* A call through a register: its targets are the functions whose address
 * the module takes and whose signature is the prototype's; the MSL
 * compares the pointer with each one's token, and traps otherwise. */
TEST(indirect_calls_dispatch_over_the_address_taken_functions)
{
   linked l;
   link_ptx(&l, ".func (.param .b32 r) a(.param .b32 x)\n{\n   st.param.b32 [r], 1;\n   ret;\n}\n"
                ".func (.param .b32 r) b(.param .b32 x)\n{\n   st.param.b32 [r], 2;\n   ret;\n}\n"
                ".func (.param .b32 r) c(.param .b32 x)\n{\n   st.param.b32 [r], 3;\n   ret;\n}\n"
                ".func (.param .b64 r) w(.param .b32 x)\n{\n   st.param.b64 [r], 4;\n   ret;\n}\n"
                ".global .align 8 .u64 tab[2] = {a, w};\n"
                ".visible .entry k()\n{\n   .reg .b64 %p;\n   .reg .b32 %v;\n   mov.u64 %p, b;\n"
                "   ld.global.u64 %p, [tab];\n   proto : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                "   { .param .b32 x;\n   st.param.b32 [x], 7;\n   .param .b32 r;\n   call (r), %p, (x), proto;\n"
                "   ld.param.b32 %v, [r];\n   }\n   ret;\n}\n");
   CHECK_MSG(l.ok, "link failed: %s", l.m->error ? l.m->error : "?");
   const ir_instr *call = NULL;
   ir_foreach_block(bb, l.k)
      ir_foreach_instr(i, bb)
         call = i->op == IR_CALL ? i : call;
   CHECK(call && !call->sym);
   /* a (in the table) and b (mov) match; c is never taken; w returns 64 bits */
   CHECK_INT(call ? ir_call_ntargets(call) : 0, 2);
   CHECK(call && !strcmp(ir_call_target(call, 0), "a") && !strcmp(ir_call_target(call, 1), "b"));
   CHECK(func_named(l.m, "a") && func_named(l.m, "b") && !func_named(l.m, "c"));
   CHECK(l.k->needs_top == false);
   arena_free_all(&l.ar);
}

TEST(supported_forms_translate_to_the_expected_msl)
{
   char *err;
   char *msl = translate(".visible .entry k(.param .u64 p)\n{\n   .reg .b32 %r<4>;\n   .reg .b64 %rd<4>;\n"
                         "   .reg .pred %p<2>;\n   .shared .b32 s;\n   ld.param.u64 %rd1, [p];\n"
                         "   atom.acq_rel.gpu.global.inc.u32 %r1, [%rd1], 5;\n   atom.shared.cas.b32 %r2, [s], 1, %r1;\n"
                         "   red.release.cta.global.add.f32 [%rd1], 0f3f800000;\n   atom.add.u32 %r3, [%rd2], 1;\n"
                         "   isspacep.shared %p1, %rd2;\n   mov.u64 %rd3, %clock64;\n   mov.u32 %r3, %smid;\n"
                         "   membar.gl;\n   ret;\n}\n", &err);
   CHECK_MSG(msl, "not translated: %s", err ? err : "?");
   CHECK_CONTAINS(msl, "mc_atom_inc_d(reinterpret_cast<device atomic_uint *>(mc_gpu(mc_L, ");
   CHECK_CONTAINS(msl, "mc_atom_cas_t(reinterpret_cast<threadgroup atomic_uint *>(mc_smem");
   CHECK_CONTAINS(msl, "(void)mc_atom_fadd_d(");
   /* .acq_rel: a fence on each side; .release.cta: one at threadgroup scope */
   CHECK_CONTAINS(msl, "memory_order_seq_cst, thread_scope_device);\n    v");
   CHECK_CONTAINS(msl, "thread_scope_threadgroup);\n    (void)mc_atom_fadd_d");
   /* generic: the shared window, else device memory */
   CHECK_CONTAINS(msl, "- MC_SHARED_WINDOW < MC_WINDOW_SIZE) {");
   CHECK_CONTAINS(msl, "mc_clock(mc_L, mc_clk)");
   CHECK_CONTAINS(msl, "ulong mc_clk = 0ul;");
   CHECK_CONTAINS(msl, "% mc_L.nsm");
   free(msl);
   free(err);
}

TEST(a_func_is_emitted_once_before_the_kernel)
{
   char *err;
   char *msl = translate(".func (.param .b32 r) twice(.param .b32 a)\n{\n   .reg .b32 %t;\n   ld.param.b32 %t, [a];\n"
                         "   add.u32 %t, %t, %t;\n   st.param.b32 [r], %t;\n   ret;\n}\n"
                         ".visible .entry k(.param .u64 p)\n{\n   .reg .b32 %r<4>;\n"
                         "   { .param .b32 a;\n   st.param.b32 [a], 3;\n   .param .b32 r;\n"
                         "   call.uni (r), twice, (a);\n   ld.param.b32 %r1, [r];\n   }\n"
                         "   { .param .b32 a;\n   st.param.b32 [a], %r1;\n   .param .b32 r;\n"
                         "   call.uni (r), twice, (a);\n   ld.param.b32 %r2, [r];\n   }\n   ret;\n}\n", &err);
   CHECK_MSG(msl, "not translated: %s", err ? err : "?");
   const char *def = strstr(msl, "static void mc_kernel_0_f0(");
   CHECK_MSG(def, "no callee definition in:\n%s", msl);
   CHECK_MSG(!strstr(def + 1, "static void mc_kernel_0_f0("), "callee defined twice");
   CHECK(def < strstr(msl, "kernel void mc_kernel_0("));
   const char *k = strstr(msl, "kernel void mc_kernel_0(");
   CHECK(strstr(k, "mc_kernel_0_f0(mc_local, mc_L") && strstr(strstr(k, "mc_kernel_0_f0(mc_local, mc_L") + 1,
                                                              "mc_kernel_0_f0(mc_local, mc_L"));
   free(msl);
   free(err);
}
