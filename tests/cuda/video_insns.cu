/*
 * video_insns.cu — PTX's video instructions written directly (inline asm),
 * in the forms nvcc's intrinsics never emit.
 *
 * SIMD (PTX ISA 9.7.18.2): vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4,
 * vmin2/4, vmax2/4 and vset2/4 with every mix of .u32/.s32 operand types,
 * .sat, lane masks on d (merge with c), lane selectors on a and b (any
 * element of the pool {b, a}) and the accumulate form (.add).  The host
 * reference: elements of {b, a} picked by .asel/.bsel, sign- or
 * zero-extended by .atype/.btype; t = the lane operation (vavrg: (x+y+1)>>1
 * when x+y >= 0, else (x+y)>>1; vset: 1 or 0); .sat clamps t to dtype's lane
 * range; merge: lanes in the mask take t's low bits, the others c's; .add:
 * d = c plus the sum of the masked lanes' t.
 *
 * Scalar (9.7.18.1): vadd, vsub, vabsdiff, vmin, vmax, vset, vshl and vshr
 * (.clamp, .wrap) with byte and half-word selectors on a and b, .sat, the
 * secondary operations .add/.min/.max with c, and the merge of the result
 * into a byte or half-word of c (d.b0 ... d.h1).  The host reference
 * follows what an H200 computes, which departs from the ISA's pseudocode
 * (its compiler expands these instructions into integer code; the rules
 * were read from that code and hold for 5440 forms x 2048 operand
 * triples run on the H200):
 * - ta, tb: the selected parts extended to 33 bits by atype/btype; e = the
 *   exact result (vset: 1 or 0; vshl/vshr: b's amount clamped to 32 or
 *   taken mod 32, ta shifted as a 64-bit value), except that vadd and
 *   vsub without .sat wrap to 32 bits, sign-extended;
 * - .sat on vshl/vshr: e's low 34 bits, sign-extended, clamped to dtype's
 *   32-bit range, sign-extended from 32 bits, whatever d's selector;
 * - .sat on the others, d with a selector: e taken as unsigned (negative
 *   or >= 2^32 becomes 0xffffffff), then clamped from above only to the
 *   byte's or half-word's maximum of dtype's sign (0x7f, 0xff, 0x7fff,
 *   0xffff): a negative result becomes that maximum;
 * - .sat on the others, d without one: .s32 clamps to 32 bits; .u32 only
 *   raises a negative result to 0 (vadd.u32 of 0xffffffff and 0xffffffff
 *   is 0xfffffffe), vadd/vsub's then sign-extended from 32 bits;
 * - .add: the low 32 bits plus c; .min/.max: a 64-bit comparison with c
 *   extended by dtype's sign (vset: atype's), signed or unsigned by that
 *   sign (a negative result of a .u32 form is larger than any c);
 * - the merge: the low byte into d.b0 ... d.b3, the low half into d.h0,
 *   but into d.h1 the result's own upper half (bits 16-31 in place).
 *
 * Each reference interprets the instruction's own text (the string the
 * device assembles).  Operands: lane and
 * word edge values in every combination (0, 0x7f/0x80/0xff lanes,
 * 0x7fff/0x8000/0xffff, 0x7fffffff, 0x80000000, 0xffffffff), then random
 * words.
 */
#include "check.h"

#include <limits.h>

/* SIMD: instruction, mask on d, selector on a, selector on b */
#define SIMD_FORMS(X)                                                                        \
   X("vadd4.u32.u32.u32", "", "", "")                                                   \
   X("vadd4.s32.s32.s32.sat", "", "", "")                                               \
   X("vadd4.u32.s32.u32.sat", ".b31", ".b7250", ".b1436")                               \
   X("vadd4.s32.u32.s32.add", ".b210", ".b0000", ".b6543")                              \
   X("vadd2.u32.u32.u32", "", "", "")                                                   \
   X("vadd2.s32.s32.u32.sat", ".h1", ".h21", ".h03")                                    \
   X("vadd2.u32.s32.s32.sat", "", "", "")                                               \
   X("vadd2.s32.s32.s32.add", ".h0", ".h32", ".h11")                                    \
   X("vsub4.u32.u32.u32", "", "", "")                                                   \
   X("vsub4.u32.u32.u32.sat", "", "", "")                                               \
   X("vsub4.s32.s32.u32.sat", ".b20", ".b4567", ".b3210")                               \
   X("vsub4.s32.s32.s32.add", "", "", "")                                               \
   X("vsub2.s32.s32.s32.sat", "", "", "")                                               \
   X("vsub2.u32.s32.u32.sat", ".h10", ".h13", ".h20")                                   \
   X("vsub2.u32.u32.u32.add", ".h1", "", "")                                            \
   X("vavrg4.u32.u32.u32", "", "", "")                                                  \
   X("vavrg4.s32.s32.s32", "", "", "")                                                  \
   X("vavrg4.s32.s32.u32.sat", ".b3", ".b1111", ".b7777")                               \
   X("vavrg4.s32.s32.s32.add", "", ".b7654", ".b3210")                                  \
   X("vavrg2.s32.s32.s32", "", "", "")                                                  \
   X("vavrg2.u32.u32.s32.sat", ".h0", ".h33", ".h01")                                   \
   X("vavrg2.s32.s32.s32.add", "", "", "")                                              \
   X("vabsdiff4.u32.u32.u32", "", "", "")                                               \
   X("vabsdiff4.s32.s32.s32.sat", "", "", "")                                           \
   X("vabsdiff4.u32.s32.u32.sat", ".b321", ".b0246", ".b1357")                          \
   X("vabsdiff4.s32.s32.s32.add", "", "", "")                                           \
   X("vabsdiff4.u32.u32.u32.add", ".b30", "", "")                                       \
   X("vabsdiff2.s32.s32.s32", "", "", "")                                               \
   X("vabsdiff2.s32.s32.s32.sat", "", "", "")                                           \
   X("vabsdiff2.u32.u32.u32.add", "", ".h31", ".h20")                                   \
   X("vmin4.u32.u32.u32", "", "", "")                                                   \
   X("vmin4.s32.s32.s32", "", "", "")                                                   \
   X("vmin4.u32.s32.u32.sat", ".b10", ".b5432", ".b0765")                               \
   X("vmin4.s32.s32.s32.add", "", "", "")                                               \
   X("vmin2.s32.s32.s32", "", "", "")                                                   \
   X("vmin2.u32.s32.s32.sat", "", "", "")                                               \
   X("vmin2.s32.u32.s32.add", ".h1", ".h02", ".h13")                                    \
   X("vmax4.u32.u32.u32", "", "", "")                                                   \
   X("vmax4.s32.s32.s32", "", "", "")                                                   \
   X("vmax4.s32.u32.u32.sat", ".b0", ".b3120", ".b6745")                                \
   X("vmax4.u32.s32.s32.add", "", "", "")                                               \
   X("vmax2.s32.s32.s32", "", "", "")                                                   \
   X("vmax2.s32.u32.u32.sat", "", "", "")                                               \
   X("vmax2.u32.s32.u32.add", ".h10", ".h23", ".h30")                                   \
   X("vset4.u32.u32.lt", "", "", "")                                                    \
   X("vset4.s32.s32.ge", "", "", "")                                                    \
   X("vset4.s32.u32.eq", ".b321", ".b0123", ".b4567")                                   \
   X("vset4.u32.s32.ne.add", "", "", "")                                                \
   X("vset4.s32.s32.gt.add", ".b20", ".b3311", ".b6600")                                \
   X("vset2.s32.s32.le", "", "", "")                                                    \
   X("vset2.u32.u32.gt", ".h0", ".h30", ".h12")                                         \
   X("vset2.s32.u32.lt.add", "", "", "")

/* scalar: instruction, selector on d, on a, on b, and whether c is an
 * operand (C) or not (NOC) */
#define SCALAR_FORMS(X)                                            \
   X("vadd.u32.u32.u32", "", "", "", NOC)                  \
   X("vadd.s32.s32.s32.sat", "", "", "", NOC)              \
   X("vadd.s32.u32.s32.sat", "", ".b0", ".h0", NOC)        \
   X("vadd.u32.u32.u32.sat.add", "", "", "", C)            \
   X("vadd.s32.s32.s32.sat", ".h0", ".b1", ".b3", C)       \
   X("vsub.s32.s32.u32.sat", "", ".h1", ".h1", NOC)        \
   X("vsub.u32.u32.u32.sat", "", "", "", NOC)              \
   X("vsub.s32.s32.s32.min", "", "", "", C)                \
   X("vsub.u32.s32.s32.sat", ".b2", ".b2", ".h0", C)       \
   X("vabsdiff.s32.s32.s32.sat", ".h0", ".b0", ".b2", C)   \
   X("vabsdiff.u32.u32.u32", "", "", "", NOC)              \
   X("vabsdiff.s32.s32.s32.sat.add", "", "", "", C)        \
   X("vabsdiff.u32.s32.s32.max", "", ".h1", ".h0", C)      \
   X("vmin.s32.s32.s32.sat.add", "", "", "", C)            \
   X("vmin.u32.s32.u32", "", "", "", NOC)                  \
   X("vmin.s32.u32.s32.max", "", ".b3", ".b1", C)          \
   X("vmin.u32.u32.u32", ".b3", ".h0", ".h1", C)           \
   X("vmax.s32.s32.s32", "", "", "", NOC)                  \
   X("vmax.u32.u32.s32.sat", ".b1", ".b0", ".b0", C)       \
   X("vmax.s32.s32.u32.min", "", "", ".h1", C)             \
   X("vset.s32.u32.lt", "", "", "", NOC)                   \
   X("vset.u32.u32.ne", "", "", ".h1", NOC)                \
   X("vset.s32.s32.ge.add", "", ".b1", ".b2", C)           \
   X("vset.u32.s32.eq.max", "", ".h0", ".h1", C)           \
   X("vset.s32.s32.gt", ".b2", "", "", C)                  \
   X("vset.u32.u32.le.min", "", "", "", C)                 \
   X("vshl.u32.u32.u32.wrap", "", "", "", NOC)             \
   X("vshl.s32.s32.u32.clamp", "", "", ".b0", NOC)         \
   X("vshl.u32.s32.u32.wrap.add", "", ".h1", ".b1", C)     \
   X("vshl.s32.u32.u32.clamp", ".h1", ".b2", ".b3", C)     \
   X("vshr.s32.s32.u32.wrap", "", "", "", NOC)             \
   X("vshr.u32.u32.u32.clamp", "", "", ".b0", NOC)         \
   X("vshr.s32.s32.u32.sat.clamp", ".b0", ".h1", ".b2", C) \
   X("vshr.u32.s32.u32.wrap.max", "", ".b3", "", C)        \
   X("vshr.s32.u32.u32.sat.wrap", "", "", "", NOC)        \
   X("vshl.u32.s32.u32.sat.clamp", "", "", ".b0", NOC)     \
   X("vshl.s32.u32.u32.sat.wrap.max", "", ".h0", "", C)    \
   X("vshl.u32.u32.u32.sat.clamp", ".h1", ".b1", ".b2", C) \
   X("vsub.s32.u32.u32.sat", ".h1", "", "", C)             \
   X("vmax.u32.s32.s32.sat", ".b1", ".h1", ".b0", C)       \
   X("vadd.u32.u32.u32.sat", "", "", "", NOC)              \
   X("vabsdiff.u32.s32.u32.sat.min", "", "", "", C)        \
   X("vset.s32.u32.lt.max", "", "", "", C)                 \
   X("vset.u32.s32.ge", ".h1", ".b0", ".b1", C)

#define COUNT_SIMD(ins, dm, as, bs) +1
#define COUNT_SCALAR(ins, ds, as, bs, hasc) +1
#define NSIMD (0 SIMD_FORMS(COUNT_SIMD))
#define NSCALAR (0 SCALAR_FORMS(COUNT_SCALAR))
#define N 4096

__global__ void simd_forms(int n, const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned x = a[i], y = b[i], z = c[i], *o = out + (size_t)i * NSIMD;
#define RUN_SIMD(ins, dm, as, bs)                                                                   \
   {                                                                                               \
      unsigned d;                                                                                  \
      asm volatile(ins " %0" dm ", %1" as ", %2" bs ", %3;" : "=r"(d) : "r"(x), "r"(y), "r"(z)); \
      *o++ = d;                                                                                    \
   }
   SIMD_FORMS(RUN_SIMD)
}

__global__ void scalar_forms(int n, const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned x = a[i], y = b[i], z = c[i], *o = out + (size_t)i * NSCALAR;
#define TAIL_C ", %3;"
#define TAIL_NOC ";"
#define RUN_SCALAR(ins, ds, as, bs, hasc)                                                             \
   {                                                                                                 \
      unsigned d;                                                                                    \
      asm volatile(ins " %0" ds ", %1" as ", %2" bs TAIL_##hasc : "=r"(d) : "r"(x), "r"(y), "r"(z)); \
      *o++ = d;                                                                                      \
   }
   SCALAR_FORMS(RUN_SCALAR)
}

typedef const char *form_text[4];
static const form_text simd_texts[NSIMD] = {
#define TEXT_SIMD(ins, dm, as, bs) { ins, dm, as, bs },
   SIMD_FORMS(TEXT_SIMD)
};
static const form_text scalar_texts[NSCALAR] = {
#define TEXT_SCALAR(ins, ds, as, bs, hasc) { ins, ds, as, bs },
   SCALAR_FORMS(TEXT_SCALAR)
};

/* ---- the host references, from the PTX ISA's pseudocode ---- */

typedef struct vform {
   char op[12];                  /* vadd vsub vavrg vabsdiff vmin vmax vset */
   int lanes;                    /* SIMD: 2 or 4; scalar: 0 */
   bool d_signed, a_signed, b_signed, sat;
   char secop[4];                /* "", add (SIMD: the accumulate form), min, max */
   char mode[8];                 /* vset's comparison, vshl/vshr's clamp or wrap */
   int mask;                     /* SIMD: bit i for lane i */
   int asel[4], bsel[4];         /* SIMD: element of {b, a} for lane i */
} vform;

/* ".b7250" (lane 0 is the last digit) or "" for the default dflt */
static void lane_sel(const char *s, const char *dflt, int lanes, int *sel)
{
   const char *t = *s ? s + 2 : dflt;   /* skip ".b" / ".h" */
   for (int i = 0; i < lanes; i++)
      sel[i] = t[lanes - 1 - i] - '0';
}

/* The instruction text ("vadd4.u32.s32.u32.sat") and, for SIMD forms, the
 * mask and selectors. */
static void parse_form(const char *const text[4], vform *f)
{
   char buf[64], *words[8];
   int nw = 0;
   memset(f, 0, sizeof(*f));
   snprintf(buf, sizeof(buf), "%s", text[0]);
   for (char *w = strtok(buf, "."); w && nw < 8; w = strtok(NULL, "."))
      words[nw++] = w;
   size_t len = strlen(words[0]);
   if (words[0][len - 1] == '2' || words[0][len - 1] == '4')
      f->lanes = words[0][--len] - '0';
   memcpy(f->op, words[0], len);
   int k = 1;
   if (strcmp(f->op, "vset"))
      f->d_signed = !strcmp(words[k++], "s32");
   f->a_signed = !strcmp(words[k++], "s32");
   f->b_signed = !strcmp(words[k++], "s32");
   for (; k < nw; k++) {
      if (!strcmp(words[k], "sat"))
         f->sat = true;
      else if (!strcmp(words[k], "add") || !strcmp(words[k], "min") || !strcmp(words[k], "max"))
         snprintf(f->secop, sizeof(f->secop), "%s", words[k]);
      else
         snprintf(f->mode, sizeof(f->mode), "%s", words[k]);
   }
   if (!f->lanes)
      return;
   f->mask = *text[1] ? 0 : (1 << f->lanes) - 1;
   for (const char *p = *text[1] ? text[1] + 2 : ""; *p; p++)
      f->mask |= 1 << (*p - '0');
   lane_sel(text[2], f->lanes == 4 ? "3210" : "10", f->lanes, f->asel);
   lane_sel(text[3], f->lanes == 4 ? "7654" : "32", f->lanes, f->bsel);
}

/* element e (8, 16 or 32 bits wide) of the 64-bit pool {b, a}, extended */
static long long element(unsigned a, unsigned b, int e, int bits, bool is_signed)
{
   unsigned long long pool = (unsigned long long)b << 32 | a;
   unsigned long long v = (pool >> (e * bits)) & ((1ull << bits) - 1);
   if (is_signed && (v >> (bits - 1)))
      return (long long)v - (1ll << bits);
   return (long long)v;
}

/* the operation of either kind (op: vadd ... vshr; mode: vset's comparison,
 * vshl/vshr's clamp or wrap) */
static long long video_op(const char *op, const char *cmp, long long x, long long y)
{
   if (!strcmp(op, "vshl") || !strcmp(op, "vshr")) {   /* y is unsigned */
      long long n = !strcmp(cmp, "clamp") ? (y > 32 ? 32 : y) : y & 0x1f;
      /* vshl: the low 64 bits (.sat looks at 34) */
      return !strcmp(op, "vshl") ? (long long)((unsigned long long)x << n) : x >> n;
   }
   if (!strcmp(op, "vadd"))
      return x + y;
   if (!strcmp(op, "vsub"))
      return x - y;
   if (!strcmp(op, "vavrg")) {
      long long s = x + y;
      return s >= 0 ? (s + 1) / 2 : -((-s + 1) / 2);   /* (s+1)>>1, or s>>1 rounding down */
   }
   if (!strcmp(op, "vabsdiff"))
      return x > y ? x - y : y - x;
   if (!strcmp(op, "vmin"))
      return x < y ? x : y;
   if (!strcmp(op, "vmax"))
      return x > y ? x : y;
   /* vset */
   if (!strcmp(cmp, "eq"))
      return x == y;
   if (!strcmp(cmp, "ne"))
      return x != y;
   if (!strcmp(cmp, "lt"))
      return x < y;
   if (!strcmp(cmp, "le"))
      return x <= y;
   if (!strcmp(cmp, "gt"))
      return x > y;
   return x >= y;
}

static unsigned ref_simd(const char *const text[4], unsigned a, unsigned b, unsigned c)
{
   vform form, *f = &form;
   parse_form(text, f);
   int bits = 32 / f->lanes;
   unsigned long long lane_mask = (1ull << bits) - 1;
   bool add = !strcmp(f->secop, "add");
   unsigned d = add ? c : 0;
   for (int i = 0; i < f->lanes; i++) {
      long long x = element(a, b, f->asel[i], bits, f->a_signed), y = element(a, b, f->bsel[i], bits, f->b_signed);
      long long t = video_op(f->op, f->mode, x, y);
      if (f->sat) {
         long long lo = f->d_signed ? -(1ll << (bits - 1)) : 0;
         long long hi = f->d_signed ? (1ll << (bits - 1)) - 1 : (long long)lane_mask;
         t = t < lo ? lo : t > hi ? hi : t;
      }
      bool on = (f->mask >> i) & 1;
      if (add)
         d += on ? (unsigned)t : 0u;
      else
         d |= (unsigned)(((on ? (unsigned long long)t : (unsigned long long)(c >> (i * bits))) & lane_mask)
                         << (i * bits));
   }
   return d;
}

/* partSelectSignExtend: ".b1" a byte, ".h0" a half-word, "" the word */
static long long part(unsigned x, const char *sel, bool is_signed)
{
   if (!*sel)
      return element(x, 0, 0, 32, is_signed);
   return element(x, 0, sel[2] - '0', sel[1] == 'b' ? 8 : 16, is_signed);
}

static long long sext32(unsigned long long v)
{
   return (long long)(int)(unsigned)v;
}

static long long clamp_ll(long long v, long long lo, long long hi)
{
   return v < lo ? lo : v > hi ? hi : v;
}

/* The scalar forms as the header's rules say an H200 computes them. */
static unsigned ref_scalar(const char *const text[4], unsigned a, unsigned b, unsigned c)
{
   vform form, *f = &form;
   parse_form(text, f);
   const char *dsel = text[1];
   bool shift = !strcmp(f->op, "vshl") || !strcmp(f->op, "vshr");
   bool wraps = !strcmp(f->op, "vadd") || !strcmp(f->op, "vsub");
   bool d_signed = strcmp(f->op, "vset") ? f->d_signed : f->a_signed;
   long long e = video_op(f->op, f->mode, part(a, text[2], f->a_signed), part(b, text[3], f->b_signed));
   long long v;   /* what the secondary operation or the merge takes */
   if (!f->sat)
      v = wraps ? sext32((unsigned long long)e) : e;
   else if (shift) {
      long long low34 = e & ((1ll << 34) - 1);
      long long s34 = (low34 >> 33) ? low34 - (1ll << 34) : low34;
      v = sext32((unsigned long long)(d_signed ? clamp_ll(s34, INT_MIN, INT_MAX) : clamp_ll(s34, 0, UINT_MAX)));
   } else if (*dsel) {
      long long u = e < 0 || e > (long long)UINT_MAX ? (long long)UINT_MAX : e;
      long long top = dsel[1] == 'b' ? (d_signed ? 0x7f : 0xff) : (d_signed ? 0x7fff : 0xffff);
      v = u > top ? top : u;
   } else if (d_signed)
      v = clamp_ll(e, INT_MIN, INT_MAX);
   else
      v = e < 0 ? 0 : wraps ? sext32((unsigned long long)e) : e;
   long long cv = d_signed ? (long long)(int)c : (long long)c;
   if (!strcmp(f->secop, "add"))
      return (unsigned)v + c;
   if (*f->secop) {
      bool less = d_signed ? v < cv : (unsigned long long)v < (unsigned long long)cv;
      bool more = d_signed ? v > cv : (unsigned long long)v > (unsigned long long)cv;
      return (!strcmp(f->secop, "min") ? less : more) ? (unsigned)v : c;
   }
   if (*dsel) {
      int bits = dsel[1] == 'b' ? 8 : 16, k = dsel[2] - '0';
      unsigned m = (unsigned)((1ull << bits) - 1) << (k * bits);
      unsigned placed = !strcmp(dsel, ".h1") ? (unsigned)v : (unsigned)v << (k * bits);
      return (placed & m) | (c & ~m);
   }
   return (unsigned)v;
}

/* operands: edge values in every combination, then hashed words */
static unsigned operand(int i, unsigned salt)
{
   static const unsigned edges[] = { 0u,          0xffffffffu, 0x7f7f7f7fu, 0x80808080u, 0x7fff7fffu,
                                     0x80008000u, 0x01ff807fu, 0xff0180feu, 0x7fffffffu, 0x80000000u };
   const int ne = (int)(sizeof(edges) / sizeof(edges[0]));
   if (i < ne * ne * ne) {
      int k = salt == 1 ? i % ne : salt == 2 ? i / ne % ne : i / (ne * ne);
      return edges[k];
   }
   return mix32((unsigned)i * 3u + salt * 0x9e3779b9u);
}

typedef void (*forms_kernel)(int, const unsigned *, const unsigned *, const unsigned *, unsigned *);
typedef unsigned (*form_ref)(const char *const text[4], unsigned a, unsigned b, unsigned c);

/* Runs kernel over the operands and checks each of its nforms forms. */
static void check_forms(forms_kernel kernel, const form_text *texts, int nforms, form_ref ref, const unsigned *a,
                        const unsigned *b, const unsigned *c, const unsigned *da, const unsigned *db,
                        const unsigned *dc)
{
   unsigned *dout = (unsigned *)dev_alloc_fill32((size_t)N * nforms);
   if (!CHECK(dout != NULL))
      return;
   kernel<<<(N + 127) / 128, 128>>>(N, da, db, dc, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned *got = (unsigned *)malloc((size_t)N * nforms * 4);
   int *bad = (int *)calloc((size_t)nforms, sizeof(int)), shown = 0;
   CHECK_CUDA(cudaMemcpy(got, dout, (size_t)N * nforms * 4, cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      for (int k = 0; k < nforms; k++) {
         unsigned want = ref(texts[k], a[i], b[i], c[i]), g = got[(size_t)i * nforms + k];
         if (g != want && bad[k]++ < 2 && shown++ < 40)
            printf("    %s d%s, a%s, b%s, c with a=%#x b=%#x c=%#x: got %#x, expected %#x\n", texts[k][0], texts[k][1],
                   texts[k][2], texts[k][3], a[i], b[i], c[i], g, want);
      }
   for (int k = 0; k < nforms; k++) {
      char what[96];
      snprintf(what, sizeof(what), "%s%s%s%s: results that differ from the host reference", texts[k][0], texts[k][1],
               texts[k][2], texts[k][3]);
      check_int(bad[k], 0, what, __FILE__, __LINE__);
   }
   free(bad);
   free(got);
   cudaFree(dout);
}

int main(void)
{
   check_begin("video_insns");
   static unsigned a[N], b[N], c[N];
   for (int i = 0; i < N; i++) {
      a[i] = operand(i, 1);
      b[i] = operand(i, 2);
      c[i] = operand(i, 3);
   }
   unsigned *da, *db, *dc;
   REQUIRE_CUDA(cudaMalloc(&da, sizeof(a)));
   REQUIRE_CUDA(cudaMalloc(&db, sizeof(b)));
   REQUIRE_CUDA(cudaMalloc(&dc, sizeof(c)));
   REQUIRE_CUDA(cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(dc, c, sizeof(c), cudaMemcpyHostToDevice));
   check_forms(simd_forms, simd_texts, NSIMD, ref_simd, a, b, c, da, db, dc);
   check_forms(scalar_forms, scalar_texts, NSCALAR, ref_scalar, a, b, c, da, db, dc);
   cudaFree(da);
   cudaFree(db);
   cudaFree(dc);
   return check_end();
}
