/*
 * test_ir.c — the IR: the validator catches each kind of broken invariant
 * (checked in a child process, since a broken invariant aborts), passes
 * report progress honestly, and unsupported or malformed PTX is refused
 * with the construct and its PTX line.
 */
#include "harness.h"

#include "compiler/compiler.h"
#include "compiler/ir/ir.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs fn(arg) in a child with stderr captured; returns true if the child
 * aborted, and its stderr in out. */
static bool aborts_with(void (*fn)(void *), void *arg, char *out, size_t len)
{
   int pfd[2];
   if (pipe(pfd))
      return false;
   fflush(stdout);
   pid_t pid = fork();
   if (pid == 0) {
      dup2(pfd[1], 2);
      close(pfd[0]);
      fn(arg);
      _exit(0);
   }
   close(pfd[1]);
   size_t n = 0;
   ssize_t r;
   while (n + 1 < len && (r = read(pfd[0], out + n, len - 1 - n)) > 0)
      n += (size_t)r;
   out[n] = 0;
   close(pfd[0]);
   int st;
   waitpid(pid, &st, 0);
   return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static ir_instr *add_instr(ir_func *f, ir_block *b, ir_op op, uint32_t nsrcs, uint8_t bits)
{
   ir_instr *i = ir_instr_create(f, op, nsrcs, bits, 1);
   i->type = bits == 1 ? PTX_T_PRED : PTX_T_U32;
   ir_instr_append(b, i);
   return i;
}

/* entry: c = 1; p = setp c == c; cbr p → b1, b2
 * b1: x = c + c; br b3      b2: br b3      b3: y = x + c; exit
 * x does not dominate its use in b3. */
static ir_func *diamond_with_bad_use(arena *ar)
{
   ir_module *m = ir_module_create(ar, NULL);
   ir_func *f = ir_func_create(m, "bad", true);
   ir_block *e = ir_block_create(f, NULL), *b1 = ir_block_create(f, NULL);
   ir_block *b2 = ir_block_create(f, NULL), *b3 = ir_block_create(f, NULL);
   ir_instr *c = add_instr(f, e, IR_CONST, 0, 32);
   c->imm = 1;
   ir_instr *p = add_instr(f, e, IR_SETP, 2, 1);
   ir_src_set(&p->srcs[0], p, &c->def);
   ir_src_set(&p->srcs[1], p, &c->def);
   ir_instr *cbr = add_instr(f, e, IR_CBR, 1, 0);
   ir_src_set(&cbr->srcs[0], cbr, &p->def);
   ir_block_add_succ(e, b1);
   ir_block_add_succ(e, b2);
   ir_instr *x = add_instr(f, b1, IR_ADD, 2, 32);
   ir_src_set(&x->srcs[0], x, &c->def);
   ir_src_set(&x->srcs[1], x, &c->def);
   add_instr(f, b1, IR_BR, 0, 0);
   ir_block_add_succ(b1, b3);
   add_instr(f, b2, IR_BR, 0, 0);
   ir_block_add_succ(b2, b3);
   ir_instr *y = add_instr(f, b3, IR_ADD, 2, 32);
   ir_src_set(&y->srcs[0], y, &x->def);
   ir_src_set(&y->srcs[1], y, &c->def);
   add_instr(f, b3, IR_EXIT, 0, 0);
   f->valid = IR_META_CFG;
   return f;
}

static void validate_bad_dominance(void *arg)
{
   (void)arg;
   arena ar;
   arena_init(&ar, 0);
   ir_func *f = diamond_with_bad_use(&ar);
   ir_compute_dominance(f);
   ir_validate(f->module, "test");
}

TEST(validator_reports_a_use_not_dominated_by_its_def)
{
#ifdef NDEBUG
   test_skip("the validator is compiled out in release builds");
   return;
#endif
   char err[8192];
   CHECK_MSG(aborts_with(validate_bad_dominance, NULL, err, sizeof(err)), "validator did not abort: %s", err);
   CHECK_CONTAINS(err, "not dominated by its definition");
   CHECK_CONTAINS(err, "after test");
}

static void validate_broken_use_list(void *arg)
{
   (void)arg;
   arena ar;
   arena_init(&ar, 0);
   ir_func *f = diamond_with_bad_use(&ar);
   /* make the IR well formed but break a use-list link */
   ir_block *b3 = f->blocks.data[3];
   ir_instr *y = b3->first;
   ir_src_set(&y->srcs[0], y, y->srcs[1].def);
   y->srcs[0].def->uses = NULL;   /* the def forgets its uses */
   ir_validate(f->module, "test");
}

TEST(validator_reports_use_list_asymmetry)
{
#ifdef NDEBUG
   test_skip("the validator is compiled out in release builds");
   return;
#endif
   char err[8192];
   CHECK_MSG(aborts_with(validate_broken_use_list, NULL, err, sizeof(err)), "validator did not abort: %s", err);
   CHECK_CONTAINS(err, "missing from the use list");
}

static void validate_missing_terminator(void *arg)
{
   (void)arg;
   arena ar;
   arena_init(&ar, 0);
   ir_func *f = diamond_with_bad_use(&ar);
   ir_block *b3 = f->blocks.data[3];
   ir_instr_remove(b3->last);   /* drop the exit */
   ir_instr *y = b3->first;
   ir_src_set(&y->srcs[0], y, y->srcs[1].def);
   ir_validate(f->module, "test");
}

TEST(validator_reports_a_block_without_terminator)
{
#ifdef NDEBUG
   test_skip("the validator is compiled out in release builds");
   return;
#endif
   char err[8192];
   CHECK_MSG(aborts_with(validate_missing_terminator, NULL, err, sizeof(err)), "validator did not abort: %s", err);
   CHECK_CONTAINS(err, "no terminator");
}

static void validate_good(void *arg)
{
   (void)arg;
   arena ar;
   arena_init(&ar, 0);
   ir_func *f = diamond_with_bad_use(&ar);
   ir_instr *y = f->blocks.data[3]->first;
   ir_src_set(&y->srcs[0], y, y->srcs[1].def);   /* now every use is dominated */
   ir_compute_dominance(f);
   ir_validate(f->module, "test");
}

TEST(validator_accepts_valid_ir)
{
   char err[8192];
   CHECK_MSG(!aborts_with(validate_good, NULL, err, sizeof(err)), "valid IR was rejected: %s", err);
}

/* ---- translation errors name the construct and the PTX line ---- */

static const char *translate_error(const char *body)
{
   static char msg[2048];
   char ptx[4096];
   snprintf(ptx, sizeof(ptx),
            ".version 9.0\n.target sm_75\n.address_size 64\n"
            ".visible .entry k(.param .u64 p)\n{\n"
            "   .reg .f32 %%f<4>;\n   .reg .b32 %%r<4>;\n   .reg .f64 %%fd<4>;\n   .reg .b64 %%rd<4>;\n"
            "%s"
            "   ret;\n}\n", body);
   char *err = NULL;
   mc_module *m = compiler_module_load(ptx, strlen(ptx), &err);
   if (!m) {
      snprintf(msg, sizeof(msg), "load: %s", err ? err : "?");
      free(err);
      return msg;
   }
   mc_kernel_info info;
   char *msl = compiler_translate_kernel(m, 0, NULL, &info, &err);
   snprintf(msg, sizeof(msg), "%s", msl ? "(translated)" : err ? err : "?");
   free(msl);
   free(err);
   compiler_module_free(m);
   return msg;
}

TEST(unsupported_instructions_are_refused_with_their_line)
{
   /* header lines: 5 before the body, 4 .reg lines: body starts at line 10;
    * forms chosen to stay unsupported (warpgroup MMA; f64 forms the ISA
    * does not have; named barriers out of range) */
   CHECK_CONTAINS(translate_error("   wgmma.fence.sync.aligned;\n"), "PTX line 10");
   CHECK_CONTAINS(translate_error("   wgmma.fence.sync.aligned;\n"), "wgmma.fence.sync.aligned");
   CHECK_CONTAINS(translate_error("   mov.f32 %f1, %f2;\n   sqrt.approx.f64 %fd1, %fd2;\n"), "PTX line 11");
   CHECK_CONTAINS(translate_error("   sqrt.approx.f64 %fd1, %fd2;\n"), "sqrt.approx.f64");
   CHECK_CONTAINS(translate_error("   add.sat.f64 %fd1, %fd2, %fd3;\n"), "add.sat.f64");
   CHECK_CONTAINS(translate_error("   cvt.rn.bf16.f64 %h1, %fd2;\n"), "cvt.rn.bf16.f64");
   CHECK_CONTAINS(translate_error("   setp.lt.ftz.f64 %p1, %fd1, %fd2;\n"), "setp.lt.ftz.f64");
   CHECK_CONTAINS(translate_error("   set.lt.ftz.u32.f64 %r1, %fd1, %fd2;\n"), "set.lt.ftz.u32.f64");
   CHECK_CONTAINS(translate_error("   bar.arrive 16, 64;\n"), "PTX has barriers 0 to 15");
   CHECK_CONTAINS(translate_error("   bar.arrive 1, 48;\n"), "not a multiple of 32");
}

TEST(malformed_ptx_is_refused_with_line_and_column)
{
   CHECK_CONTAINS(translate_error("   add.u32 %r1, %r2\n"), "PTX line 11, col 4: expected ';'");
   CHECK_CONTAINS(translate_error("   add.u32 %r1, %r2, %nosuch;\n"), "unknown register '%nosuch'");
   CHECK_CONTAINS(translate_error("   bra NOWHERE;\n"), "label");
   CHECK_CONTAINS(translate_error("   frobnicate.u32 %r1;\n"), "line 10");
}

/* The tensor-core forms still refused name themselves and their line:
 * m8n8k4 .f16 (Volta's quad-pair mma), f64 wmma in a directed rounding,
 * .satfinite on a float wmma, an s4 wmma A in column-major (PTX allows
 * .row only), b1 without its popc operation. */
TEST(refused_tensor_core_forms)
{
   const char *v = "   .reg .b32 %a<8>;\n   .reg .f32 %c<8>;\n   ld.param.u64 %rd1, [p];\n";
   char body[1024];
   snprintf(body, sizeof(body),
            "%s   mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 {%%a4, %%a5, %%a6, %%a7}, "
            "{%%a0, %%a1}, {%%a2, %%a3}, {%%c0, %%c1, %%c2, %%c3, %%c4, %%c5, %%c6, %%c7};\n", v);
   CHECK_CONTAINS(translate_error(body), "PTX line 13: 'mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32'");
   CHECK_CONTAINS(translate_error(body), "an .f16 D from an .f32 C is not supported yet");
   snprintf(body, sizeof(body),
            "%s   wmma.mma.sync.aligned.row.col.m8n8k4.rz.f64.f64.f64.f64 {%%fd0, %%fd1}, {%%fd2}, {%%fd3}, "
            "{%%fd0, %%fd1};\n", v);
   CHECK_CONTAINS(translate_error(body), "'wmma.mma.sync.aligned.row.col.m8n8k4.rz.f64.f64.f64.f64'");
   snprintf(body, sizeof(body),
            "%s   wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%%c0, %%c1, %%c2, %%c3, %%c4, %%c5, "
            "%%c6, %%c7}, {%%a0, %%a1, %%a2, %%a3, %%a4, %%a5, %%a6, %%a7}, {%%a0, %%a1, %%a2, %%a3, %%a4, %%a5, "
            "%%a6, %%a7}, {%%c0, %%c1, %%c2, %%c3, %%c4, %%c5, %%c6, %%c7};\n", v);
   CHECK_CONTAINS(translate_error(body), "PTX line 13");
   snprintf(body, sizeof(body), "%s   wmma.load.a.sync.aligned.col.m8n8k32.global.s4 {%%a0}, [%%rd1], 32;\n", v);
   CHECK_CONTAINS(translate_error(body), "'wmma.load.a.sync.aligned.col.m8n8k32.s4'");
   snprintf(body, sizeof(body),
            "%s   mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32 {%%r0, %%r1}, {%%a0}, {%%a1}, {%%r0, %%r1};\n", v);
   CHECK_CONTAINS(translate_error(body), "'mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32'");
   /* and the forms this issue added translate */
   snprintf(body, sizeof(body),
            "%s   wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%%a0}, [%%rd1], 32;\n"
            "   wmma.load.b.sync.aligned.col.m8n8k32.global.s4 {%%a1}, [%%rd1], 32;\n"
            "   wmma.load.c.sync.aligned.row.m8n8k32.global.s32 {%%r0, %%r1}, [%%rd1], 8;\n"
            "   wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32.satfinite {%%r0, %%r1}, {%%a0}, {%%a1}, "
            "{%%r0, %%r1};\n"
            "   wmma.store.d.sync.aligned.row.m8n8k32.global.s32 [%%rd1], {%%r0, %%r1}, 8;\n", v);
   CHECK_STR(translate_error(body), "(translated)");
}

/* Clusters are one block here: a kernel that fixes a larger cluster shape
 * is refused naming itself, as are %is_explicit_cluster (whether the
 * launch named a shape is not passed to kernels), cp.reduce.async.bulk on
 * floating-point elements and st.bulk outside shared memory; the cluster
 * forms of one block translate. */
TEST(cluster_forms)
{
   const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry clustered(.param .u64 p) .reqnctapercluster 2, 1, 1\n{\n   ret;\n}\n";
   char *err = NULL;
   mc_module *m = compiler_module_load(ptx, strlen(ptx), &err);
   CHECK(m != NULL);
   if (m) {
      mc_kernel_info info;
      char *msl = compiler_translate_kernel(m, 0, NULL, &info, &err);
      CHECK(msl == NULL);
      CHECK_CONTAINS(err ? err : "", "kernel 'clustered' asks for thread block clusters of 2 x 1 x 1 blocks");
      free(msl);
      compiler_module_free(m);
   }
   free(err);
   CHECK_CONTAINS(translate_error("   .reg .pred %p<2>;\n   mov.pred %p1, %is_explicit_cluster;\n"),
                  "%is_explicit_cluster");
   CHECK_CONTAINS(translate_error("   .shared .align 16 .b32 s[16];\n   ld.param.u64 %rd1, [p];\n   mov.u32 %r1, s;\n"
                                  "   cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r1], 64;\n"),
                  "64-bit and floating-point elements");
   CHECK_CONTAINS(translate_error("   ld.param.u64 %rd1, [p];\n   st.bulk.weak [%rd1], 64, 0;\n"),
                  "st.bulk on a generic address");
   CHECK_STR(translate_error("   .shared .align 16 .b32 s[16];\n   .shared .align 8 .b64 mb;\n"
                             "   mov.u32 %r1, %cluster_ctarank;\n   mov.u32 %r2, %clusterid.y;\n"
                             "   mov.u32 %r3, %cluster_nctaid.z;\n   barrier.cluster.arrive.relaxed.aligned;\n"
                             "   barrier.cluster.wait.aligned;\n   mov.u32 %r1, s;\n"
                             "   mapa.shared::cluster.u32 %r2, %r1, 0;\n   getctarank.shared::cluster.u32 %r3, %r2;\n"
                             "   st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r2], %r3, [mb];\n"
                             "   red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 "
                             "[%r2], 7, [mb];\n   st.bulk.weak.shared::cta [s], 64, 0;\n"
                             "   fence.proxy.tensormap::generic.release.gpu;\n"),
             "(translated)");
}

TEST(supported_forms_translate)
{
   CHECK_STR(translate_error("   add.f32 %f1, %f2, %f3;\n   mul.wide.u32 %rd1, %r1, %r2;\n"), "(translated)");
   CHECK_STR(translate_error("   add.cc.u32 %r1, %r2, %r3;\n   addc.u32 %r2, %r1, 0;\n"), "(translated)");
   CHECK_STR(translate_error("   add.rm.f64 %fd1, %fd2, %fd3;\n   cvt.rn.f32.f64 %f1, %fd1;\n"), "(translated)");
}

/* .b128 registers (two 64-bit halves) are taken whole by mov.b128,
 * ld/st.b128 and atom.cas/exch.b128 only; 128-bit strong vector accesses
 * translate (under the lock table), wider ones are refused. */
TEST(b128_registers_and_wide_strong_accesses)
{
   const char *q = "   .reg .b128 %q<3>;\n   ld.param.u64 %rd1, [p];\n";
   char body[1024];
   snprintf(body, sizeof(body), "%s   mov.b128 %%q1, {%%rd1, %%rd2};\n   st.relaxed.gpu.global.b128 [%%rd1], %%q1;\n"
            "   atom.global.cas.b128 %%q2, [%%rd1], %%q1, %%q1;\n   mov.b128 {%%rd2, %%rd3}, %%q2;\n"
            "   ld.acquire.gpu.global.v4.u32 {%%r0, %%r1, %%r2, %%r3}, [%%rd1];\n"
            "   st.volatile.global.v2.f64 [%%rd1], {%%fd1, %%fd2};\n", q);
   CHECK_STR(translate_error(body), "(translated)");
   snprintf(body, sizeof(body), "%s   add.u64 %%rd2, %%q1, 1;\n", q);
   CHECK_CONTAINS(translate_error(body), "bad use of vector register '%q1'");
   snprintf(body, sizeof(body), "%s   mov.b64 %%q1, %%rd1;\n", q);
   CHECK_CONTAINS(translate_error(body), "'%q1' is a .b128 register");
   snprintf(body, sizeof(body), "%s   mov.b128 %%q1, {%%rd1, %%rd2, %%rd3};\n", q);
   CHECK_CONTAINS(translate_error(body), "two 64-bit operands, not 3");
   snprintf(body, sizeof(body), "%s   atom.global.add.b128 %%q1, [%%rd1], %%q2;\n", q);
   CHECK_CONTAINS(translate_error(body), "is not a valid atomic operation");
   CHECK_CONTAINS(translate_error("   ld.param.u64 %rd1, [p];\n   ld.relaxed.gpu.global.v4.u64 {%rd0, %rd1, %rd2, %rd3}, [%rd1];\n"),
                  "256-bit access");
}

/* Surface loads of 64-bit elements: .v2.b64 (128 bits) translates, guarded
 * too (the guard goes on the load, the registers kept as halves); .v4.b64
 * would be 256 bits, beyond PTX's vectors (ptxas refuses it as well), as a
 * tld4 with integer coordinates is; a layered cube-map tld4 translates. */
TEST(texture_and_surface_forms)
{
   const char *p = "   .reg .pred %p<2>;\n   ld.param.u64 %rd1, [p];\n   setp.ne.s32 %p1, %r1, 0;\n";
   char body[1024];
   snprintf(body, sizeof(body), "%s   @%%p1 suld.b.2d.v2.b64.trap {%%rd2, %%rd3}, [%%rd1, {%%r1, %%r2}];\n"
            "   @!%%p1 tex.2d.v4.f32.f32 {%%f0, %%f1, %%f2, %%f3}, [%%rd1, {%%f0, %%f1}];\n", p);
   CHECK_STR(translate_error(body), "(translated)");
   snprintf(body, sizeof(body), "%s   suld.b.2d.v4.b64.trap {%%rd0, %%rd1, %%rd2, %%rd3}, [%%rd1, {%%r1, %%r2}];\n", p);
   CHECK_CONTAINS(translate_error(body), "a vector of 256 bits exceeds PTX's 128-bit limit");
   CHECK_CONTAINS(translate_error(body), "PTX line 13");
   snprintf(body, sizeof(body), "%s   tld4.r.2d.v4.f32.s32 {%%f0, %%f1, %%f2, %%f3}, [%%rd1, {%%r1, %%r2}];\n", p);
   CHECK_CONTAINS(translate_error(body), "tld4 takes .f32 coordinates");
   snprintf(body, sizeof(body), "%s   tld4.b.acube.v4.f32.f32 {%%f0, %%f1, %%f2, %%f3}, [%%rd1, {%%r1, %%f1, %%f2, %%f3}];\n", p);
   CHECK_STR(translate_error(body), "(translated)");
   /* txq/suq: the sizes, txq.level's too; NVIDIA's driver loads no module
    * with another query, and ptxas takes no query the instruction lacks */
   snprintf(body, sizeof(body), "%s   txq.level.depth.b32 %%r0, [%%rd1], %%r1;\n   txq.height.b32 %%r2, [%%rd1];\n"
            "   suq.depth.b32 %%r3, [%%rd1];\n", p);
   CHECK_STR(translate_error(body), "(translated)");
   snprintf(body, sizeof(body), "%s   txq.channel_data_type.b32 %%r0, [%%rd1];\n", p);
   CHECK_CONTAINS(translate_error(body), "only the sizes of a texture or surface object can be queried");
   CHECK_CONTAINS(translate_error(body), "cudaErrorSymbolNotFound");
   snprintf(body, sizeof(body), "%s   suq.memory_layout.b32 %%r0, [%%rd1];\n", p);
   CHECK_CONTAINS(translate_error(body), "cudaErrorNotSupported");
   snprintf(body, sizeof(body), "%s   suq.filter_mode.b32 %%r0, [%%rd1];\n", p);
   CHECK_CONTAINS(translate_error(body), "not a suq query");
   snprintf(body, sizeof(body), "%s   txq.level.array_size.b32 %%r0, [%%rd1], %%r1;\n", p);
   CHECK_CONTAINS(translate_error(body), "not a txq query");
   /* f16 results: tex .v2.f16x2 (guarded too); tld4 has none */
   snprintf(body, sizeof(body), "%s   @%%p1 tex.2d.v2.f16x2.f32 {%%r0, %%r1}, [%%rd1, {%%f0, %%f1}];\n"
            "   tex.level.a2d.v2.f16x2.f32 {%%r2, %%r3}, [%%rd1, {%%r0, %%f0, %%f1, %%f1}], %%f2;\n", p);
   CHECK_STR(translate_error(body), "(translated)");
   snprintf(body, sizeof(body), "%s   tld4.r.2d.v2.f16x2.f32 {%%r0, %%r1}, [%%rd1, {%%f0, %%f1}];\n", p);
   CHECK_CONTAINS(translate_error(body), "tld4 has no .f16x2 results");
   snprintf(body, sizeof(body), "%s   tex.2d.v4.f16x2.f32 {%%r0, %%r1, %%r2, %%r3}, [%%rd1, {%%f0, %%f1}];\n", p);
   CHECK_CONTAINS(translate_error(body), ".f16x2 results come as .v2");
}

/* Formatted surface stores: sust.p of .b32 elements in every geometry and
 * boundary mode translates (the conversion is the prelude's, at run time);
 * sust.p of other elements and suld.p are errors, as ptxas makes them
 * (ptxas 13.0: "Unexpected instruction types specified for 'sust.p'",
 * "Not a name of any known instruction: 'suld.p'"); a multisample
 * geometry is refused as unreachable from CUDA's arrays. */
TEST(formatted_surface_stores)
{
   const char *p = "   ld.param.u64 %rd1, [p];\n";
   char body[1024];
   snprintf(body, sizeof(body), "%s   sust.p.1d.b32.trap [%%rd1, {%%r1}], %%r2;\n"
            "   sust.p.2d.v2.b32.clamp [%%rd1, {%%r1, %%r2}], {%%r2, %%r3};\n"
            "   sust.p.3d.v4.b32.zero [%%rd1, {%%r1, %%r2, %%r3, %%r3}], {%%r0, %%r1, %%r2, %%r3};\n"
            "   sust.p.a1d.v4.b32.clamp [%%rd1, {%%r1, %%r2}], {%%r0, %%r1, %%r2, %%r3};\n"
            "   sust.p.a2d.b32.clamp [%%rd1, {%%r1, %%r2, %%r3, %%r3}], %%r0;\n", p);
   CHECK_STR(translate_error(body), "(translated)");
   snprintf(body, sizeof(body), "%s   sust.p.2d.v4.f32.clamp [%%rd1, {%%r1, %%r2}], {%%f0, %%f1, %%f2, %%f3};\n", p);
   CHECK_CONTAINS(translate_error(body), "sust.p stores .b32 elements only");
   snprintf(body, sizeof(body), "%s   suld.p.2d.v4.b32.trap {%%r0, %%r1, %%r2, %%r3}, [%%rd1, {%%r1, %%r2}];\n", p);
   CHECK_CONTAINS(translate_error(body), "suld.p is no PTX instruction");
   snprintf(body, sizeof(body), "%s   tex.2dms.v4.f32.s32 {%%f0, %%f1, %%f2, %%f3}, [%%rd1, {%%r0, %%r1, %%r2, %%r3}];\n", p);
   CHECK_CONTAINS(translate_error(body), "only graphics interop makes one");
}
