/*
 * f64_sweep.c — randomized sweep of the fp64 instructions against digests an
 * NVIDIA GPU produced (issue 6; the `sweep` layer of `make test-full`).
 *
 * For each operation of the table below (add/sub/mul/fma/div and sqrt in
 * every rounding mode, rcp.rn, cvt.f32.f64 in every mode, cvt.rni/rzi.s64,
 * cvt.rn.f64.s64/u64, setp.lt/equ, min, max) the host makes N operand sets
 * from a generator biased to hard cases (random bits, near powers of two,
 * exponents at the subnormal and overflow boundaries, sums that cancel,
 * products that an addend cancels, special values), runs one PTX kernel per
 * operation on the device, and hashes the results per chunk of 65536 (64-bit
 * FNV-1a over the little-endian result words).  Operand j of element i of
 * operation k is a pure function of (k, i, j), so any element can be made
 * again without the others and the check can run a prefix of the chunks.
 *
 *   f64_sweep --generate FILE [log2N]   on an NVIDIA GPU (tests/ptx/gen_sweep.sh):
 *                                       writes the digests (default 2^22 per op)
 *   f64_sweep FILE [CHUNKS]             checks the first CHUNKS chunks of every
 *                                       op against FILE (default MC_SWEEP_CHUNKS,
 *                                       else all of FILE's: 64, 2^22 elements;
 *                                       about 25 s warm on 2 cores here)
 *   f64_sweep --dump OP FIRST COUNT     prints elements FIRST.. of OP: operands
 *                                       and this device's result (run it on
 *                                       both devices and compare)
 *
 * Prints PASS/FAIL per operation.  An operation whose kernel cannot be
 * loaded or run is a FAIL (not a skip: the digests are the GPU's, so a
 * missing instruction is a gap the sweep must show).  On a mismatch it
 * prints the chunk and its first operands with this device's results.
 *
 * Built like ptx_run.c: against our libcuda (the Makefile), or with
 * -DPTX_RUN_NVIDIA against NVIDIA's driver.
 */
#ifdef PTX_RUN_NVIDIA
#include <cuda.h>
#else
#include "api/driver/protos.h"
#endif

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 65536u
#define SEED 0x6d635f6636345f31ull   /* fixed: the digests depend on it */
#define MAX_OPS 64

/* Operand generators. */
enum gen { G_F64, G_ADD, G_SUB, G_FMA, G_POS, G_S64, G_U64, G_INT };

typedef struct sweep_op {
   const char *name;
   int nsrc;
   enum gen gen;
   const char *body;   /* PTX: sources %fd1..%fd3 (or %rd5 for integers), result in %rd9 */
} sweep_op;

#define BIN(op) "   " op " %fd4, %fd1, %fd2;\n   mov.b64 %rd9, %fd4;\n"
#define UN(op) "   " op " %fd4, %fd1;\n   mov.b64 %rd9, %fd4;\n"
#define TO32(op) "   " op " %f1, %fd1;\n   mov.b32 %r6, %f1;\n   cvt.u64.u32 %rd9, %r6;\n"
#define FROMI(op) "   " op " %fd4, %rd5;\n   mov.b64 %rd9, %fd4;\n"
#define CMP(op) "   " op " %p2, %fd1, %fd2;\n   selp.u64 %rd9, 1, 0, %p2;\n"
#define FMA(op) "   " op " %fd4, %fd1, %fd2, %fd3;\n   mov.b64 %rd9, %fd4;\n"

static const sweep_op ops[] = {
   { "add.rn.f64", 2, G_ADD, BIN("add.rn.f64") },   { "add.rz.f64", 2, G_ADD, BIN("add.rz.f64") },
   { "add.rm.f64", 2, G_ADD, BIN("add.rm.f64") },   { "add.rp.f64", 2, G_ADD, BIN("add.rp.f64") },
   { "sub.rn.f64", 2, G_SUB, BIN("sub.rn.f64") },   { "sub.rz.f64", 2, G_SUB, BIN("sub.rz.f64") },
   { "sub.rm.f64", 2, G_SUB, BIN("sub.rm.f64") },   { "sub.rp.f64", 2, G_SUB, BIN("sub.rp.f64") },
   { "mul.rn.f64", 2, G_F64, BIN("mul.rn.f64") },   { "mul.rz.f64", 2, G_F64, BIN("mul.rz.f64") },
   { "mul.rm.f64", 2, G_F64, BIN("mul.rm.f64") },   { "mul.rp.f64", 2, G_F64, BIN("mul.rp.f64") },
   { "fma.rn.f64", 3, G_FMA, FMA("fma.rn.f64") },   { "fma.rz.f64", 3, G_FMA, FMA("fma.rz.f64") },
   { "fma.rm.f64", 3, G_FMA, FMA("fma.rm.f64") },   { "fma.rp.f64", 3, G_FMA, FMA("fma.rp.f64") },
   { "div.rn.f64", 2, G_F64, BIN("div.rn.f64") },   { "div.rz.f64", 2, G_F64, BIN("div.rz.f64") },
   { "div.rm.f64", 2, G_F64, BIN("div.rm.f64") },   { "div.rp.f64", 2, G_F64, BIN("div.rp.f64") },
   { "sqrt.rn.f64", 1, G_POS, UN("sqrt.rn.f64") },  { "sqrt.rz.f64", 1, G_POS, UN("sqrt.rz.f64") },
   { "sqrt.rm.f64", 1, G_POS, UN("sqrt.rm.f64") },  { "sqrt.rp.f64", 1, G_POS, UN("sqrt.rp.f64") },
   { "rcp.rn.f64", 1, G_F64, UN("rcp.rn.f64") },
   { "cvt.rn.f32.f64", 1, G_F64, TO32("cvt.rn.f32.f64") }, { "cvt.rz.f32.f64", 1, G_F64, TO32("cvt.rz.f32.f64") },
   { "cvt.rm.f32.f64", 1, G_F64, TO32("cvt.rm.f32.f64") }, { "cvt.rp.f32.f64", 1, G_F64, TO32("cvt.rp.f32.f64") },
   { "cvt.rni.s64.f64", 1, G_INT, "   cvt.rni.s64.f64 %rd9, %fd1;\n" },
   { "cvt.rzi.s64.f64", 1, G_INT, "   cvt.rzi.s64.f64 %rd9, %fd1;\n" },
   { "cvt.rn.f64.s64", 1, G_S64, FROMI("cvt.rn.f64.s64") }, { "cvt.rn.f64.u64", 1, G_U64, FROMI("cvt.rn.f64.u64") },
   { "setp.lt.f64", 2, G_F64, CMP("setp.lt.f64") }, { "setp.equ.f64", 2, G_ADD, CMP("setp.equ.f64") },
   { "min.f64", 2, G_ADD, BIN("min.f64") },         { "max.f64", 2, G_ADD, BIN("max.f64") },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

/* ---- the operand generator: a pure function of (op, element, operand) ---- */

static uint64_t mix64(uint64_t x)
{
   x += 0x9e3779b97f4a7c15ull;
   x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
   x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
   return x ^ (x >> 31);
}

typedef struct rng {
   uint64_t s;
} rng;

static uint64_t next(rng *r) { return r->s = mix64(r->s); }

static const uint64_t specials[] = {
   0, 1ull << 63, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff4000000000001ull,
   0xfff8000000000005ull, 1, 0x8000000000000001ull, 0x000fffffffffffffull, 0x0010000000000000ull,
   0x7fefffffffffffffull, 0xffefffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull,
};

static uint64_t with_exp(uint64_t bits, unsigned e) { return (bits & 0x800fffffffffffffull) | ((uint64_t)e << 52); }

/* One f64, biased to the hard cases. */
static uint64_t gen_f64(rng *r)
{
   uint64_t x = next(r), m = next(r);
   switch (x & 15) {
   case 0: case 1: case 2:
      return m;                                                     /* any bits */
   case 3: case 4: {                                                /* near a power of two */
      static const uint64_t low[] = { 0, 1, 2, 0xfffffffffffffull, 0xffffffffffffeull, 0x8000000000000ull };
      return with_exp((m & (1ull << 63)) | low[(x >> 8) % 6], (unsigned)(x >> 16) % 2047);
   }
   case 5: case 6:                                                  /* subnormal boundary */
      return with_exp(m, (unsigned)(x >> 8) % 4) >> ((x >> 12) % 2 ? (x >> 16) % 52 : 0) | (m & (1ull << 63));
   case 7: case 8:                                                  /* overflow boundary */
      return with_exp(m, 2046 - (unsigned)(x >> 8) % 3);
   case 9:
      return specials[(x >> 8) % (sizeof(specials) / sizeof(specials[0]))];
   default:                                                         /* ordinary magnitudes */
      return with_exp(m, 1023 - 60 + (unsigned)(x >> 8) % 121);
   }
}

static double as_f64(uint64_t b)
{
   double d;
   memcpy(&d, &b, 8);
   return d;
}

static uint64_t as_bits(double d)
{
   uint64_t b;
   memcpy(&b, &d, 8);
   return b;
}

/* A partner that cancels a (for add when flip, for sub when not): the same
 * magnitude a few ulps away, or a few exponents down. */
static uint64_t cancelling(rng *r, uint64_t a, bool flip)
{
   uint64_t x = next(r);
   uint64_t b = flip ? a ^ (1ull << 63) : a;
   b += (x & 7) - 3;
   if ((x >> 3) & 1) {
      unsigned e = (unsigned)(b >> 52) & 0x7ff, d = (unsigned)(x >> 4) % 3;
      if (e > d && e < 2047)
         b = with_exp(b, e - d);
   }
   return b;
}

static uint64_t gen_int(rng *r, bool sign)
{
   uint64_t x = next(r), m = next(r);
   unsigned bits = 54 + (unsigned)(x >> 8) % 11;             /* 54..64 significant bits */
   switch (x & 7) {
   case 0: case 1:
      return m;
   case 2:
      return (1ull << 53) + ((x >> 16) % 9) - 4;
   case 3:                                                    /* ties and near ties below the 53rd bit */
      return ((m | (1ull << 63)) >> (64 - bits) & ~((1ull << (bits - 53)) - 1)) | ((1ull << (bits - 54)) + (x >> 20) % 3 - 1);
   case 4:
      return (sign ? (1ull << 63) : 0) + ((x >> 16) % 2049) - 1024;
   case 5:
      return m >> (x >> 16) % 64;
   default:
      return sign && (x >> 40) & 1 ? -(m >> (x >> 16) % 12) : m >> (x >> 16) % 12;
   }
}

/* f64 values near integers and halves, and at the s64 limits.  Host
 * arithmetic here is only exact products and single roundings, so host
 * compilers (and their contraction into fma) cannot change the operands. */
static uint64_t gen_f64_int(rng *r)
{
   uint64_t x = next(r), m = next(r);
   if ((x & 3) == 0)
      return gen_f64(r);
   double v = (double)(m >> (x >> 8) % 64) + (double)((x >> 16) & 3) * 0.25;
   if ((x & 7) == 3)
      v = 9223372036854775808.0 + (double)((x >> 20) % 5) * 1024.0 - 2048.0;
   uint64_t b = as_bits((x >> 30) & 1 ? -v : v);
   return b + ((x >> 31) % 3) - 1;
}

static void make_operands(unsigned k, uint64_t i, uint64_t *src)
{
   rng r = { mix64(SEED ^ ((uint64_t)k << 40) ^ i) };
   const sweep_op *op = &ops[k];
   switch (op->gen) {
   case G_S64: src[0] = gen_int(&r, true); return;
   case G_U64: src[0] = gen_int(&r, false); return;
   case G_INT: src[0] = gen_f64_int(&r); return;
   case G_POS:   /* mostly non-negative: sqrt of a negative is only NaN */
      src[0] = gen_f64(&r);
      if (next(&r) % 16)
         src[0] &= ~(1ull << 63);
      return;
   default: break;
   }
   src[0] = gen_f64(&r);
   src[1] = gen_f64(&r);
   uint64_t x = next(&r);
   if ((op->gen == G_ADD || op->gen == G_SUB) && (x & 3) == 0)
      src[1] = cancelling(&r, src[0], op->gen == G_ADD);
   if (op->gen == G_FMA) {
      src[2] = gen_f64(&r);
      if ((x & 3) == 0)   /* the addend cancels the rounded product: the exact low part decides */
         src[2] = cancelling(&r, as_bits(as_f64(src[0]) * as_f64(src[1])), true);
   }
}

/* ---- the device side ---- */

static char *kernel_text(const sweep_op *op)
{
   static char buf[4096];
   char loads[512] = "";
   bool ints = op->gen == G_S64 || op->gen == G_U64;
   for (int j = 0; j < op->nsrc; j++) {
      size_t n = strlen(loads);
      if (ints)
         snprintf(loads + n, sizeof(loads) - n, "   ld.global.u64 %%rd5, [%%rd4+%d];\n", 8 * j);
      else
         snprintf(loads + n, sizeof(loads) - n, "   ld.global.f64 %%fd%d, [%%rd4+%d];\n", j + 1, 8 * j);
   }
   snprintf(buf, sizeof(buf),
            ".version 9.0\n.target sm_75\n.address_size 64\n\n"
            ".visible .entry sweep(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
            "   .reg .pred %%p<4>;\n   .reg .b32 %%r<8>;\n   .reg .f32 %%f<2>;\n   .reg .b64 %%rd<12>;\n"
            "   .reg .f64 %%fd<6>;\n"
            "   ld.param.u64 %%rd1, [in];\n   ld.param.u64 %%rd2, [out];\n   ld.param.u32 %%r1, [n];\n"
            "   cvta.to.global.u64 %%rd1, %%rd1;\n   cvta.to.global.u64 %%rd2, %%rd2;\n"
            "   mov.u32 %%r2, %%ctaid.x;\n   mov.u32 %%r3, %%ntid.x;\n   mov.u32 %%r4, %%tid.x;\n"
            "   mad.lo.u32 %%r5, %%r2, %%r3, %%r4;\n   setp.ge.u32 %%p1, %%r5, %%r1;\n   @%%p1 bra DONE;\n"
            "   mul.wide.u32 %%rd3, %%r5, %d;\n   add.s64 %%rd4, %%rd1, %%rd3;\n%s%s"
            "   mul.wide.u32 %%rd6, %%r5, 8;\n   add.s64 %%rd7, %%rd2, %%rd6;\n   st.global.u64 [%%rd7], %%rd9;\n"
            "DONE:\n   ret;\n}\n",
            8 * op->nsrc, loads, op->body);
   return buf;
}

#define CU(call)                                                              \
   do {                                                                      \
      CUresult r_ = (call);                                                  \
      if (r_ != CUDA_SUCCESS) {                                              \
         const char *s_ = NULL;                                              \
         cuGetErrorName(r_, &s_);                                            \
         snprintf(err, errlen, "%s failed: %s", #call, s_ ? s_ : "?");       \
         goto out;                                                           \
      }                                                                      \
   } while (0)

/* A loaded kernel of one op. */
typedef struct loaded_op {
   CUmodule mod;
   CUfunction f;
} loaded_op;

static bool load_op(unsigned k, loaded_op *l, char *err, size_t errlen)
{
   bool ok = false;
   l->mod = NULL;
   CU(cuModuleLoadData(&l->mod, kernel_text(&ops[k])));
   CU(cuModuleGetFunction(&l->f, l->mod, "sweep"));
   ok = true;
out:
   return ok;
}

static void unload_op(loaded_op *l)
{
   if (l->mod)
      cuModuleUnload(l->mod);
   l->mod = NULL;
}

/* Runs op k on elements first..first+n-1; res receives n words. */
static bool run_op(unsigned k, const loaded_op *l, uint64_t first, unsigned n, uint64_t *res, char *err, size_t errlen)
{
   bool ok = false;
   CUdeviceptr din = 0, dout = 0;
   const sweep_op *op = &ops[k];
   size_t in_bytes = (size_t)n * op->nsrc * 8, out_bytes = (size_t)n * 8;
   uint64_t *in = malloc(in_bytes);
   if (!in) {
      snprintf(err, errlen, "out of memory");
      return false;
   }
   for (unsigned i = 0; i < n; i++)
      make_operands(k, first + i, in + (size_t)i * op->nsrc);
   memset(res, 0xde, out_bytes);
   CU(cuMemAlloc_v2(&din, in_bytes));
   CU(cuMemAlloc_v2(&dout, out_bytes));
   CU(cuMemcpyHtoD_v2(din, in, in_bytes));
   CU(cuMemcpyHtoD_v2(dout, res, out_bytes));
   void *args[] = { &din, &dout, &n };
   CU(cuLaunchKernel(l->f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
   CU(cuCtxSynchronize());
   CU(cuMemcpyDtoH_v2(res, dout, out_bytes));
   ok = true;
out:
   if (din)
      cuMemFree_v2(din);
   if (dout)
      cuMemFree_v2(dout);
   free(in);
   return ok;
}

static uint64_t fnv1a(const uint64_t *w, unsigned n)
{
   uint64_t h = 0xcbf29ce484222325ull;
   for (unsigned i = 0; i < n; i++)
      for (int b = 0; b < 64; b += 8)
         h = (h ^ ((w[i] >> b) & 0xff)) * 0x100000001b3ull;
   return h;
}

static int find_op(const char *name)
{
   for (unsigned k = 0; k < NOPS; k++)
      if (!strcmp(ops[k].name, name))
         return (int)k;
   return -1;
}

/* ---- the three modes ---- */

static int generate(const char *path, unsigned log2n)
{
   unsigned chunks = log2n >= 16 ? 1u << (log2n - 16) : 1;
   FILE *f = fopen(path, "w");
   uint64_t *res = malloc((size_t)CHUNK * chunks * 8);
   if (!f || !res) {
      printf("FAIL f64_sweep: cannot write %s\n", path);
      return 1;
   }
   char name[256] = "?";
   int drv = 0;
   CUdevice dev;
   cuCtxGetDevice(&dev);
   cuDeviceGetName(name, sizeof(name), dev);
   cuDriverGetVersion(&drv);
   fprintf(f, "# f64_sweep digests: FNV-1a 64 of each chunk of %u results (tests/ptx/f64_sweep.c)\n", CHUNK);
   fprintf(f, "# produced on: %s, CUDA driver API %d (tests/ptx/gen_sweep.sh)\n", name, drv);
   fprintf(f, "seed 0x%016" PRIx64 " chunks %u\n", (uint64_t)SEED, chunks);
   int rc = 0;
   for (unsigned k = 0; k < NOPS; k++) {
      char err[512] = "";
      loaded_op l = { 0 };
      bool ran = load_op(k, &l, err, sizeof(err)) && run_op(k, &l, 0, CHUNK * chunks, res, err, sizeof(err));
      unload_op(&l);
      if (!ran) {
         printf("FAIL %s: %s\n", ops[k].name, err);
         rc = 1;
         continue;
      }
      for (unsigned c = 0; c < chunks; c++)
         fprintf(f, "%s %u %016" PRIx64 "\n", ops[k].name, c, fnv1a(res + (size_t)c * CHUNK, CHUNK));
      printf("PASS %s: %u chunks written\n", ops[k].name, chunks);
   }
   fclose(f);
   free(res);
   return rc;
}

typedef struct digests {
   uint64_t h[MAX_OPS][1024];
   unsigned n[MAX_OPS];
   unsigned chunks;
} digests;

static bool load_digests(const char *path, digests *d)
{
   FILE *f = fopen(path, "r");
   if (!f)
      return false;
   char line[512];
   uint64_t seed = 0;
   while (fgets(line, sizeof(line), f)) {
      char name[64];
      unsigned c;
      uint64_t h;
      if (line[0] == '#')
         continue;
      if (sscanf(line, "seed %" SCNx64 " chunks %u", &seed, &d->chunks) == 2)
         continue;
      int k;
      if (sscanf(line, "%63s %u %" SCNx64, name, &c, &h) == 3 && (k = find_op(name)) >= 0 && c < 1024) {
         d->h[k][c] = h;
         if (c + 1 > d->n[k])
            d->n[k] = c + 1;
      }
   }
   fclose(f);
   return seed == SEED;
}

static void show_chunk(unsigned k, unsigned c, const uint64_t *res)
{
   uint64_t src[3];
   for (unsigned i = 0; i < 4; i++) {
      uint64_t e = (uint64_t)c * CHUNK + i;
      make_operands(k, e, src);
      printf("    element %" PRIu64 ":", e);
      for (int j = 0; j < ops[k].nsrc; j++)
         printf(" 0x%016" PRIx64, src[j]);
      printf(" -> ours 0x%016" PRIx64 "\n", res[i]);
   }
   printf("    (f64_sweep --dump %s FIRST COUNT here and on an NVIDIA GPU finds the element)\n", ops[k].name);
}

static int check(const char *path, unsigned want_chunks)
{
   static digests d;
   if (!load_digests(path, &d)) {
      printf("FAIL f64_sweep: %s is missing or not made with this generator (seed); run tests/ptx/gen_sweep.sh on a GPU\n",
             path);
      return 1;
   }
   uint64_t *res = malloc((size_t)CHUNK * 8);
   int failed = 0;
   for (unsigned k = 0; k < NOPS; k++) {
      unsigned chunks = want_chunks < d.n[k] ? want_chunks : d.n[k], bad = 0;
      char err[512] = "";
      if (chunks == 0) {
         printf("FAIL %s: no digests for it in %s\n", ops[k].name, path);
         failed++;
         continue;
      }
      loaded_op l = { 0 };
      if (!load_op(k, &l, err, sizeof(err))) {
         printf("FAIL %s: %s\n", ops[k].name, err);
         unload_op(&l);
         failed++;
         continue;
      }
      for (unsigned c = 0; c < chunks; c++) {
         if (!run_op(k, &l, (uint64_t)c * CHUNK, CHUNK, res, err, sizeof(err))) {
            printf("FAIL %s: %s\n", ops[k].name, err);
            bad = ~0u;
            break;
         }
         if (fnv1a(res, CHUNK) != d.h[k][c] && !bad++) {
            printf("FAIL %s: chunk %u (elements %u..%u) differs from the NVIDIA GPU's digest\n", ops[k].name, c,
                   c * CHUNK, (c + 1) * CHUNK - 1);
            show_chunk(k, c, res);
         }
      }
      unload_op(&l);
      if (!bad)
         printf("PASS %s (%u elements)\n", ops[k].name, chunks * CHUNK);
      else if (bad != ~0u)
         printf("    %s: %u of %u chunks differ\n", ops[k].name, bad, chunks);
      failed += bad != 0;
      fflush(stdout);
   }
   free(res);
   return failed != 0;
}

static int dump(const char *name, uint64_t first, unsigned count)
{
   int k = find_op(name);
   if (k < 0 || count == 0 || count > (1u << 24)) {
      fprintf(stderr, "f64_sweep: unknown op %s or bad count\n", name);
      return 2;
   }
   uint64_t *res = malloc((size_t)count * 8), src[3];
   char err[512] = "";
   loaded_op l = { 0 };
   bool ran = res && load_op((unsigned)k, &l, err, sizeof(err)) && run_op((unsigned)k, &l, first, count, res, err, sizeof(err));
   unload_op(&l);
   if (!ran) {
      printf("FAIL %s: %s\n", name, err);
      free(res);
      return 1;
   }
   for (unsigned i = 0; i < count; i++) {
      make_operands((unsigned)k, first + i, src);
      printf("%s %" PRIu64 ":", name, first + i);
      for (int j = 0; j < ops[k].nsrc; j++)
         printf(" 0x%016" PRIx64, src[j]);
      printf(" -> 0x%016" PRIx64 "\n", res[i]);
   }
   free(res);
   return 0;
}

int main(int argc, char **argv)
{
   CUcontext ctx;
   CUdevice dev;
   if (argc < 2) {
      fprintf(stderr, "usage: f64_sweep [--generate] FILE [log2N|CHUNKS] | --dump OP FIRST COUNT\n");
      return 2;
   }
   if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
       cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
      printf("FAIL f64_sweep: no CUDA device\n");
      return 1;
   }
   int rc;
   if (!strcmp(argv[1], "--generate") && argc >= 3)
      rc = generate(argv[2], argc > 3 ? (unsigned)atoi(argv[3]) : 22);
   else if (!strcmp(argv[1], "--dump") && argc == 5)
      rc = dump(argv[2], strtoull(argv[3], NULL, 0), (unsigned)strtoul(argv[4], NULL, 0));
   else {
      const char *env = getenv("MC_SWEEP_CHUNKS");
      unsigned chunks = argc > 2 ? (unsigned)atoi(argv[2]) : env ? (unsigned)atoi(env) : 1024;
      rc = check(argv[1], chunks);
   }
   cuDevicePrimaryCtxRelease_v2(dev);
   return rc;
}
