/*
 * rounding.cu — directed rounding (towards zero, down, up) of single
 * precision arithmetic and conversions, and the library functions whose
 * CUDA implementation relies on it (roundf and fmodf use add.rz).
 *
 *   __fadd_rz/_rd/_ru, __fmul_rz/_rd/_ru, __fdiv_rz/_rd/_ru,
 *   __fsqrt_rd/_ru, __int2float_rz/_rd/_ru, __uint2float_rz, roundf, fmodf
 *
 * Host references (exact, no rounding-mode switching):
 *  - the exact result of x*y, of int→float, and of x+y for the inputs used
 *    here is a double; it is rounded to float to nearest, then moved one
 *    step (nextafterf) if that went the wrong way for the mode.  Sums whose
 *    double is not exact are left out (counted and printed).  An exact zero
 *    sum of opposite signs is -0 when rounding down, +0 otherwise (IEEE 754
 *    §6.3);
 *  - x/y and sqrt(x): the correctly rounded-to-nearest host result r is
 *    compared with the exact value through r*y and r*r, which are exact in
 *    double, then moved one step where needed;
 *  - roundf and fmodf: the C library's, exact by definition.
 * NaN results match any NaN.
 */
#include "check.h"

#include <math.h>

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

static float ref_add(float x, float y, int mode)
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
   const int ns = sizeof(special) / sizeof(float), n = ns * ns + 4000;
   float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4);
   int *k = (int *)malloc(n * 4);
   for (int i = 0; i < n; i++) {
      uint32_t h = mix32((uint32_t)i * 7u + 1u), g = mix32(h);
      if (i < ns * ns) {
         a[i] = special[i / ns];
         b[i] = special[i % ns];
      } else {
         /* exponents within 2^20 of each other, so sums are exact in double */
         a[i] = bits_f32((h & 0x807fffffu) | (uint32_t)(117 + g % 20) << 23);
         b[i] = bits_f32((g & 0x807fffffu) | (uint32_t)(117 + h % 20) << 23);
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

   int inexact_sums = 0;
   for (int i = 0; i < n; i++) {
      float x = a[i], y = b[i], *w = want + i * RND_W;
      bool exact = sum_is_exact(x, y);
      inexact_sums += !exact;
      for (int m = 0; m < 3; m++) {
         w[0 + m] = exact ? ref_add(x, y, m) : got[i * RND_W + m];   /* not checked */
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
   printf("  %d of %d sums are not exact in double and are not checked\n", inexact_sums, n);
   CHECK(inexact_sums < ns * ns);
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
