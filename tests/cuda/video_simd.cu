/*
 * video_simd.cu — PTX's SIMD video instructions written directly (inline
 * asm), in the forms nvcc's intrinsics never emit: vadd2/4, vsub2/4,
 * vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4 and vset2/4 with every mix of
 * .u32/.s32 operand types, .sat, lane masks on d (merge with c), lane
 * selectors on a and b (any element of the pool {b, a}) and the
 * accumulate form (.add), over random operands and lane edge values
 * (0, 0x7f/0x80/0xff, 0x7fff/0x8000/0xffff).
 *
 * The host reference interprets each instruction's own text (the same
 * string the device assembles) following PTX ISA 9.7.18.2's semantics:
 * elements of {b, a} picked by .asel/.bsel, sign- or zero-extended by
 * .atype/.btype; t = the lane operation (vavrg: (x+y+1)>>1 when x+y >= 0,
 * else (x+y)>>1; vset: 1 or 0); .sat clamps t to dtype's lane range;
 * merge: lanes in the mask take t's low bits, the others c's; .add: d = c
 * plus the sum of the masked lanes' t.
 */
#include "check.h"

/* instruction, mask on d, selector on a, selector on b */
#define FORMS(X)                                                                        \
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

#define COUNT_ONE(ins, dm, as, bs) +1
#define NFORMS (0 FORMS(COUNT_ONE))
#define N 4096

__global__ void video(int n, const unsigned *a, const unsigned *b, const unsigned *c, unsigned *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned x = a[i], y = b[i], z = c[i], *o = out + (size_t)i * NFORMS;
#define RUN_ONE(ins, dm, as, bs)                                                                    \
   {                                                                                               \
      unsigned d;                                                                                  \
      asm volatile(ins " %0" dm ", %1" as ", %2" bs ", %3;" : "=r"(d) : "r"(x), "r"(y), "r"(z)); \
      *o++ = d;                                                                                    \
   }
   FORMS(RUN_ONE)
}

static const char *const texts[NFORMS][4] = {
#define TEXT_ONE(ins, dm, as, bs) { ins, dm, as, bs },
   FORMS(TEXT_ONE)
};

/* ---- the host reference, from the PTX ISA's pseudocode ---- */

typedef struct vform {
   char op[12];                  /* vadd vsub vavrg vabsdiff vmin vmax vset */
   int lanes;                    /* 2 or 4 */
   bool d_signed, a_signed, b_signed, sat, add;
   char cmp[3];                  /* vset only */
   int mask;                     /* bit i: lane i */
   int asel[4], bsel[4];         /* element of {b, a} for lane i */
} vform;

/* ".b7250" (lane 0 is the last digit) or "" for the default dflt */
static void lane_sel(const char *s, const char *dflt, int lanes, int *sel)
{
   const char *t = *s ? s + 2 : dflt;   /* skip ".b" / ".h" */
   for (int i = 0; i < lanes; i++)
      sel[i] = t[lanes - 1 - i] - '0';
}

static void parse_form(const char *const text[4], vform *f)
{
   char buf[64], *words[8];
   int nw = 0;
   memset(f, 0, sizeof(*f));
   snprintf(buf, sizeof(buf), "%s", text[0]);
   for (char *w = strtok(buf, "."); w && nw < 8; w = strtok(NULL, "."))
      words[nw++] = w;
   size_t len = strlen(words[0]);
   f->lanes = words[0][len - 1] - '0';
   memcpy(f->op, words[0], len - 1);
   bool set = !strcmp(f->op, "vset");
   int k = 1;
   if (!set)
      f->d_signed = !strcmp(words[k++], "s32");
   f->a_signed = !strcmp(words[k++], "s32");
   f->b_signed = !strcmp(words[k++], "s32");
   for (; k < nw; k++) {
      if (!strcmp(words[k], "sat"))
         f->sat = true;
      else if (!strcmp(words[k], "add"))
         f->add = true;
      else
         snprintf(f->cmp, sizeof(f->cmp), "%s", words[k]);
   }
   f->mask = *text[1] ? 0 : (1 << f->lanes) - 1;
   for (const char *p = *text[1] ? text[1] + 2 : ""; *p; p++)
      f->mask |= 1 << (*p - '0');
   lane_sel(text[2], f->lanes == 4 ? "3210" : "10", f->lanes, f->asel);
   lane_sel(text[3], f->lanes == 4 ? "7654" : "32", f->lanes, f->bsel);
}

/* element e (8 or 16 bits wide) of the 64-bit pool {b, a}, extended */
static long long element(unsigned a, unsigned b, int e, int bits, bool is_signed)
{
   unsigned long long pool = (unsigned long long)b << 32 | a;
   unsigned long long v = (pool >> (e * bits)) & ((1ull << bits) - 1);
   if (is_signed && (v >> (bits - 1)))
      return (long long)v - (1ll << bits);
   return (long long)v;
}

static long long lane_op(const vform *f, long long x, long long y)
{
   if (!strcmp(f->op, "vadd"))
      return x + y;
   if (!strcmp(f->op, "vsub"))
      return x - y;
   if (!strcmp(f->op, "vavrg")) {
      long long s = x + y;
      return s >= 0 ? (s + 1) / 2 : -((-s + 1) / 2);   /* (s+1)>>1, or s>>1 rounding down */
   }
   if (!strcmp(f->op, "vabsdiff"))
      return x > y ? x - y : y - x;
   if (!strcmp(f->op, "vmin"))
      return x < y ? x : y;
   if (!strcmp(f->op, "vmax"))
      return x > y ? x : y;
   /* vset */
   if (!strcmp(f->cmp, "eq"))
      return x == y;
   if (!strcmp(f->cmp, "ne"))
      return x != y;
   if (!strcmp(f->cmp, "lt"))
      return x < y;
   if (!strcmp(f->cmp, "le"))
      return x <= y;
   if (!strcmp(f->cmp, "gt"))
      return x > y;
   return x >= y;
}

static unsigned ref_video(const vform *f, unsigned a, unsigned b, unsigned c)
{
   int bits = 32 / f->lanes;
   unsigned long long lane_mask = (1ull << bits) - 1;
   unsigned d = f->add ? c : 0;
   for (int i = 0; i < f->lanes; i++) {
      long long t = lane_op(f, element(a, b, f->asel[i], bits, f->a_signed), element(a, b, f->bsel[i], bits, f->b_signed));
      if (f->sat) {
         long long lo = f->d_signed ? -(1ll << (bits - 1)) : 0;
         long long hi = f->d_signed ? (1ll << (bits - 1)) - 1 : (long long)lane_mask;
         t = t < lo ? lo : t > hi ? hi : t;
      }
      bool on = (f->mask >> i) & 1;
      if (f->add)
         d += on ? (unsigned)t : 0u;
      else
         d |= (unsigned)(((on ? (unsigned long long)t : (unsigned long long)(c >> (i * bits))) & lane_mask) << (i * bits));
   }
   return d;
}

/* operands: lane edge values in every lane, then hashed words */
static unsigned operand(int i, unsigned salt)
{
   static const unsigned edges[] = { 0u,          0xffffffffu, 0x7f7f7f7fu, 0x80808080u, 0x7fff7fffu,
                                     0x80008000u, 0x01ff807fu, 0xff0180feu, 0x8000ffffu, 0x00017ffeu };
   const int ne = (int)(sizeof(edges) / sizeof(edges[0]));
   if (i < ne * ne * ne) {
      int k = salt == 1 ? i % ne : salt == 2 ? i / ne % ne : i / (ne * ne);
      return edges[k];
   }
   return mix32((unsigned)i * 3u + salt * 0x9e3779b9u);
}

int main(void)
{
   check_begin("video_simd");
   static unsigned a[N], b[N], c[N], want[NFORMS];
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
   unsigned *dout = (unsigned *)dev_alloc_fill32((size_t)N * NFORMS);
   REQUIRE_CUDA(dout ? cudaSuccess : cudaErrorMemoryAllocation);
   video<<<(N + 127) / 128, 128>>>(N, da, db, dc, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned *got = (unsigned *)malloc((size_t)N * NFORMS * 4);
   CHECK_CUDA(cudaMemcpy(got, dout, (size_t)N * NFORMS * 4, cudaMemcpyDeviceToHost));

   vform forms[NFORMS];
   for (int k = 0; k < NFORMS; k++)
      parse_form(texts[k], &forms[k]);
   int bad[NFORMS] = { 0 }, shown = 0;
   for (int i = 0; i < N; i++)
      for (int k = 0; k < NFORMS; k++) {
         want[k] = ref_video(&forms[k], a[i], b[i], c[i]);
         if (got[(size_t)i * NFORMS + k] != want[k] && bad[k]++ < 2 && shown++ < 40)
            printf("    %s d%s, a%s, b%s, c with a=%#x b=%#x c=%#x: got %#x, expected %#x\n", texts[k][0],
                   texts[k][1], texts[k][2], texts[k][3], a[i], b[i], c[i], got[(size_t)i * NFORMS + k], want[k]);
      }
   for (int k = 0; k < NFORMS; k++) {
      char what[96];
      snprintf(what, sizeof(what), "%s%s%s%s: results that differ from the host reference", texts[k][0], texts[k][1],
               texts[k][2], texts[k][3]);
      check_int(bad[k], 0, what, __FILE__, __LINE__);
   }
   free(got);
   cudaFree(dout);
   cudaFree(da);
   cudaFree(db);
   cudaFree(dc);
   return check_end();
}
