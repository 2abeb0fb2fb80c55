/*
 * rounding.cu — directed rounding (towards zero, down, up) of single
 * precision arithmetic and conversions, and the library functions whose
 * CUDA implementation relies on it (roundf and fmodf use add.rz).
 *
 *   __fadd_rz/_rd/_ru, __fmul_rz/_rd/_ru, __fdiv_rz/_rd/_ru,
 *   __fsqrt_rd/_ru, __int2float_rz/_rd/_ru, __uint2float_rz, roundf, fmodf
 *
 * Host references (exact, no rounding-mode switching):
 *  - x+y: the exact sum in integers.  Every float is a whole number of
 *    2^-149 (the smallest subnormal) below 2^128, so the sum of two is one
 *    below 2^278, added or subtracted in nine 32-bit limbs; its top 24
 *    bits are the sum truncated, one step further from zero (nextafterf)
 *    when the mode rounds that way and a bit below them is set.  An exact
 *    zero sum of opposite signs is -0 when rounding down, +0 otherwise
 *    (IEEE 754 §6.3).  Where the sum is exact in double, that double
 *    rounded as x*y's is below must give the same result (checked: two
 *    independent references);
 *  - the exact result of x*y and of int→float is a double; it is rounded
 *    to float to nearest, then moved one step (nextafterf) if that went
 *    the wrong way for the mode;
 *  - x/y and sqrt(x): the correctly rounded-to-nearest host result r is
 *    compared with the exact value through r*y and r*r, which are exact in
 *    double, then moved one step where needed;
 *  - roundf and fmodf: the C library's, exact by definition.
 * NaN results match any NaN.
 */
#include "check.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define RND_W 18

__global__ void directed(int n, const float *a, const float *b, const int *k, float *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = a[i], y = b[i];
   float *o = out + i * RND_W;
   o[0] = __fadd_rz(x, y);
   o[1] = __fadd_rd(x, y);
   o[2] = __fadd_ru(x, y);
   o[3] = __fmul_rz(x, y);
   o[4] = __fmul_rd(x, y);
   o[5] = __fmul_ru(x, y);
   o[6] = __fdiv_rz(x, y);
   o[7] = __fdiv_rd(x, y);
   o[8] = __fdiv_ru(x, y);
   o[9] = __fsqrt_rd(x);
   o[10] = __fsqrt_ru(x);
   o[11] = __int2float_rz(k[i]);
   o[12] = __int2float_rd(k[i]);
   o[13] = __int2float_ru(k[i]);
   o[14] = __uint2float_rz((unsigned)k[i]);
   o[15] = roundf(x);
   o[16] = fmodf(x, y);
   o[17] = roundf(y);
}

enum { RZ, RD, RU };

/* Rounds the exact value d (a double) to float in the given mode. */
static float round_double(double d, int mode)
{
   float r = (float)d;
   if (isnan(d) || (double)r == d)
      return r;
   if (mode == RZ && fabs((double)r) > fabs(d))
      r = nextafterf(r, 0.0f);
   else if (mode == RD && (double)r > d)
      r = nextafterf(r, -INFINITY);
   else if (mode == RU && (double)r < d)
      r = nextafterf(r, INFINITY);
   return r;
}

/* Moves the nearest-rounded r of an exact value q one step in the mode's
 * direction if needed; cmp is the sign of r - q (0: exact or unknown). */
static float adjust(float r, int cmp, int mode)
{
   if (cmp == 0 || isnan(r))
      return r;
   bool away_from_zero = (r > 0.0f) == (cmp > 0);
   if (mode == RZ && away_from_zero)
      return nextafterf(r, 0.0f);
   if (mode == RD && cmp > 0)
      return nextafterf(r, -INFINITY);
   if (mode == RU && cmp < 0)
      return nextafterf(r, INFINITY);
   return r;
}

static int sgn(double v)
{
   return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* The rule for a sum that is exact in double (see sum_is_exact). */
static float ref_add_double(float x, float y, int mode)
{
   double s = (double)x + (double)y;
   if (s == 0.0 && !isnan(s)) {
      if (signbit(x) && signbit(y))
         return -0.0f;
      if (signbit(x) != signbit(y) || x != 0.0f)   /* an exact cancellation */
         return mode == RD ? -0.0f : 0.0f;
      return 0.0f;
   }
   return round_double(s, mode);
}

/* A magnitude as a whole number of 2^-149, least significant limb first:
 * a float's is at most 2^24 << 253, a sum of two below 2^278. */
#define WIDE_LIMBS 9
typedef struct wide {
   uint32_t w[WIDE_LIMBS];
} wide;

static int wide_bit(const wide *a, int i)
{
   return a->w[i / 32] >> (i % 32) & 1;
}

/* |x| for a finite x: the significand (with its implicit 1 when normal)
 * times 2^(e-1) for biased exponent e >= 1, itself for a subnormal. */
static wide wide_of(float x)
{
   wide r;
   memset(&r, 0, sizeof(r));
   uint32_t b = f32_bits(x), e = b >> 23 & 0xff, m = b & 0x7fffff;
   unsigned shift = e ? e - 1 : 0;
   uint64_t v = (uint64_t)(e ? m | 0x800000u : m) << (shift % 32);
   r.w[shift / 32] = (uint32_t)v;
   r.w[shift / 32 + 1] = (uint32_t)(v >> 32);
   return r;
}

static int wide_cmp(const wide *a, const wide *b)
{
   for (int i = WIDE_LIMBS - 1; i >= 0; i--)
      if (a->w[i] != b->w[i])
         return a->w[i] > b->w[i] ? 1 : -1;
   return 0;
}

/* a + b, or a - b when subtract (then a >= b). */
static wide wide_addsub(const wide *a, const wide *b, bool subtract)
{
   wide r;
   uint64_t carry = 0;   /* or borrow */
   for (int i = 0; i < WIDE_LIMBS; i++) {
      uint64_t t = subtract ? (uint64_t)a->w[i] - b->w[i] - carry : (uint64_t)a->w[i] + b->w[i] + carry;
      r.w[i] = (uint32_t)t;
      carry = subtract ? t >> 63 : t >> 32;   /* t wrapped below zero, or past 2^32 */
   }
   return r;
}

/* The exactly rounded sum of finite x and y (see the top). */
static float ref_add(float x, float y, int mode)
{
   if (!isfinite(x) || !isfinite(y))
      return x + y;   /* an infinity or NaN: no rounding */
   wide a = wide_of(x), b = wide_of(y), s;
   bool neg;
   if (signbit(x) == signbit(y)) {
      s = wide_addsub(&a, &b, false);
      neg = signbit(x);
   } else if (wide_cmp(&a, &b) >= 0) {
      s = wide_addsub(&a, &b, true);
      neg = signbit(x);
   } else {
      s = wide_addsub(&b, &a, true);
      neg = signbit(y);
   }
   int top = WIDE_LIMBS * 32 - 1;
   while (top >= 0 && !wide_bit(&s, top))
      top--;
   if (top < 0) {                            /* zero */
      if (signbit(x) && signbit(y))
         return -0.0f;
      if (signbit(x) != signbit(y))           /* an exact cancellation */
         return mode == RD ? -0.0f : 0.0f;
      return 0.0f;
   }
   /* The top 24 bits, or all of a subnormal-sized sum: the magnitude
    * truncated, keep * 2^(low-149), exact unless past FLT_MAX (then inf). */
   int low = top > 23 ? top - 23 : 0;
   uint32_t keep = 0;
   bool rest = false;
   for (int i = top; i >= low; i--)
      keep = keep << 1 | (uint32_t)wide_bit(&s, i);
   for (int i = low - 1; i >= 0; i--)
      rest = rest || wide_bit(&s, i);
   float mag = ldexpf((float)keep, low - 149);
   bool up = (mode == RU && !neg) || (mode == RD && neg);   /* the mode rounds |sum| up */
   if (isinf(mag))                           /* |sum| >= 2^128 */
      mag = up ? INFINITY : FLT_MAX;
   else if (rest && up)
      mag = nextafterf(mag, INFINITY);       /* FLT_MAX goes to inf */
   return neg ? -mag : mag;
}

static float ref_div(float x, float y, int mode)
{
   volatile float vx = x, vy = y;
   float r = vx / vy;
   if (isinf(r) && !isinf(x) && y != 0.0f)   /* overflow: the exact q is finite */
      return adjust(r, r > 0 ? 1 : -1, mode);
   double p = (double)r * (double)y;          /* exact */
   int cmp = isnan(p) || isinf(p) ? 0 : sgn(p - (double)x) * (y > 0 ? 1 : -1);
   return adjust(r, cmp, mode);
}

static float ref_sqrt(float x, int mode)
{
   volatile float vx = x;
   float r = sqrtf(vx);
   double p = (double)r * (double)r;
   int cmp = isnan(p) || isinf(p) ? 0 : sgn(p - (double)x);
   return adjust(r, cmp, mode);
}

static bool sum_is_exact(float x, float y)
{
   double s = (double)x + (double)y;
   if (isinf(s) || isnan(s))
      return true;
   return s - (double)x == (double)y && s - (double)y == (double)x;
}

static const float special[] = {
   0.0f, -0.0f, 1.0f, -1.0f, 3.0f, -7.0f, 0.1f, -0.3f, 2.5f, -2.5f, 0.5f, 1.5f, 1.0000001f, 0.99999994f,
   1.17549435e-38f, -1.17549421e-38f, 1.4e-45f, 3.4028235e38f, -3.4028235e38f, 1.7014118e38f, 8388609.0f,
   16777215.0f, 123.456f, 1e-20f, INFINITY, -INFINITY, NAN,
};

int main(void)
{
   check_begin("rounding");
   const int ns = sizeof(special) / sizeof(float), n = ns * ns + 4000 + 4000;
   float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4);
   int *k = (int *)malloc(n * 4);
   for (int i = 0; i < n; i++) {
      uint32_t h = mix32((uint32_t)i * 7u + 1u), g = mix32(h);
      if (i < ns * ns) {
         a[i] = special[i / ns];
         b[i] = special[i % ns];
      } else if (i < ns * ns + 4000) {
         /* exponents within 2^20 of each other, so sums are exact in double */
         a[i] = bits_f32((h & 0x807fffffu) | (uint32_t)(117 + g % 20) << 23);
         b[i] = bits_f32((g & 0x807fffffu) | (uint32_t)(117 + h % 20) << 23);
      } else {
         /* any exponent, the other operand 0 to 63 binades below (0:
          * subnormal): sums with sticky bits past double's 53, carries and
          * cancellations, and products and quotients that overflow or
          * underflow */
         uint32_t e = 1 + h % 254, d = g % 64, lo = e > d ? e - d : 0;
         float big = bits_f32((h & 0x807fffffu) | e << 23), small = bits_f32((g & 0x807fffffu) | lo << 23);
         bool swap = mix32(g) & 1;
         a[i] = swap ? small : big;
         b[i] = swap ? big : small;
      }
      k[i] = i % 3 ? (int)g >> (h % 8) : (int)(h % 100000u) - 50000;
   }
   float *da, *db, *dout = (float *)dev_alloc_fill32((size_t)n * RND_W);
   int *dk;
   REQUIRE_CUDA(cudaMalloc(&da, n * 4));
   REQUIRE_CUDA(cudaMalloc(&db, n * 4));
   REQUIRE_CUDA(cudaMalloc(&dk, n * 4));
   REQUIRE_CUDA(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(dk, k, n * 4, cudaMemcpyHostToDevice));
   CHECK(dout != NULL);
   directed<<<(n + 127) / 128, 128>>>(n, da, db, dk, dout);
   cudaError_t launched = cudaGetLastError();
   CHECK_CUDA(launched);
   if (launched != cudaSuccess) {
      cudaFree(da), cudaFree(db), cudaFree(dk), cudaFree(dout);
      free(a), free(b), free(k);
      return check_end();
   }
   CHECK_CUDA(cudaDeviceSynchronize());
   float *got = (float *)malloc((size_t)n * RND_W * 4), *want = (float *)malloc((size_t)n * RND_W * 4);
   CHECK_CUDA(cudaMemcpy(got, dout, (size_t)n * RND_W * 4, cudaMemcpyDeviceToHost));

   int inexact_sums = 0, disagree = 0;
   for (int i = 0; i < n; i++) {
      float x = a[i], y = b[i], *w = want + i * RND_W;
      bool exact = sum_is_exact(x, y);
      inexact_sums += !exact;
      for (int m = 0; m < 3; m++) {
         w[0 + m] = ref_add(x, y, m);
         if (exact && f32_bits(w[0 + m]) != f32_bits(ref_add_double(x, y, m)) && !isnan(w[0 + m]) && disagree++ < 4)
            printf("    host references disagree: %a + %a, mode %d: %a (integer), %a (double)\n", x, y, m, w[0 + m],
                   ref_add_double(x, y, m));
         w[3 + m] = round_double((double)x * (double)y, m);
         w[6 + m] = ref_div(x, y, m);
      }
      w[9] = ref_sqrt(x, RD);
      w[10] = ref_sqrt(x, RU);
      w[11] = round_double((double)k[i], RZ);
      w[12] = round_double((double)k[i], RD);
      w[13] = round_double((double)k[i], RU);
      w[14] = round_double((double)(unsigned)k[i], RZ);
      w[15] = roundf(x);
      w[16] = fmodf(x, y);
      w[17] = roundf(y);
   }
   printf("  %d of %d sums are not exact in double (checked against the integer sum)\n", inexact_sums, n);
   CHECK(inexact_sums > 1000);   /* the hard cases are there */
   check_int(disagree, 0, "sums exact in double where the two host references disagree", __FILE__, __LINE__);
   static const char *const names[RND_W] = {
      "__fadd_rz", "__fadd_rd", "__fadd_ru", "__fmul_rz", "__fmul_rd", "__fmul_ru", "__fdiv_rz", "__fdiv_rd",
      "__fdiv_ru", "__fsqrt_rd", "__fsqrt_ru", "__int2float_rz", "__int2float_rd", "__int2float_ru",
      "__uint2float_rz", "roundf(x)", "fmodf", "roundf(y)",
   };
   int bad = 0;
   for (int i = 0; i < n * RND_W; i++) {
      float g = got[i], w = want[i];
      if (f32_bits(g) == f32_bits(w) || (isnan(g) && isnan(w)))
         continue;
      int j = i / RND_W;
      if (bad++ < 24)
         printf("    %s (x=%a y=%a k=%d): got %a (0x%08x), expected %a (0x%08x)\n", names[i % RND_W], a[j], b[j], k[j], g,
                f32_bits(g), w, f32_bits(w));
   }
   check_int(bad, 0, "results that differ from the host reference (the first are shown above)", __FILE__, __LINE__);
   /* spelled out */
   CHECK_F32(got[(2 * ns + 6) * RND_W + 0], 1.0999999f);   /* __fadd_rz(1, 0.1f) */
   CHECK_F32(got[(2 * ns + 6) * RND_W + 2], 1.1f);         /* __fadd_ru(1, 0.1f) */
   CHECK_F32(got[(8 * ns + 0) * RND_W + 15], 3.0f);        /* roundf(2.5) */
   CHECK_F32(got[(9 * ns + 0) * RND_W + 15], -3.0f);       /* roundf(-2.5) */

   cudaFree(da), cudaFree(db), cudaFree(dk), cudaFree(dout);
   free(a), free(b), free(k), free(got), free(want);
   return check_end();
}
