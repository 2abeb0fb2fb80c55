/*
 * fp.c — binary16 conversions done with integer arithmetic, because
 * _Float16 is not available on every host compiler we build with (clang
 * before 15 rejects it on x86-64).  Used for PTX .f16 literals.
 */
#include "util.h"

#include <string.h>

uint16_t fp_f64_to_f16(double v)
{
   uint64_t b;
   memcpy(&b, &v, 8);
   uint16_t sign = (uint16_t)((b >> 48) & 0x8000);
   int exp = (int)((b >> 52) & 0x7ff);
   uint64_t mant = b & ((1ull << 52) - 1);
   if (exp == 0x7ff)   /* inf or NaN */
      return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 | (uint16_t)(mant >> 42) : 0));
   int e = exp - 1023 + 15;   /* biased half exponent */
   if (exp == 0 || e < -11)   /* zero, double denormal, or far below half's range */
      return sign;
   /* Significand with the implicit bit: 53 bits. */
   uint64_t sig = mant | (1ull << 52);
   int shift;                 /* bits to drop to get the half significand */
   if (e >= 1) {
      shift = 52 - 10;        /* normal half: 11-bit significand */
   } else {
      shift = 52 - 10 + (1 - e);   /* subnormal half */
      e = 0;
   }
   uint64_t kept = sig >> shift;
   uint64_t rest = sig & ((1ull << shift) - 1);
   uint64_t half = 1ull << (shift - 1);
   if (rest > half || (rest == half && (kept & 1)))
      kept++;
   /* kept: for normals 11 bits incl. implicit one; carry may bump it. */
   if (e == 0) {
      /* subnormal (kept may have rounded up into the smallest normal) */
      return (uint16_t)(sign | kept);
   }
   if (kept >> 11) {
      kept >>= 1;
      e++;
   }
   if (e >= 31)
      return (uint16_t)(sign | 0x7c00);
   return (uint16_t)(sign | (uint16_t)(e << 10) | (uint16_t)(kept & 0x3ff));
}

double fp_f16_to_f64(uint16_t h)
{
   int sign = h >> 15, e = (h >> 10) & 0x1f;
   uint32_t m = h & 0x3ff;
   double v;
   if (e == 0) {
      v = (double)m / 1024.0 / 16384.0;   /* m * 2^-24 */
   } else if (e == 31) {
      uint64_t b = ((uint64_t)sign << 63) | (0x7ffull << 52) | ((uint64_t)m << 42);
      memcpy(&v, &b, 8);
      return v;
   } else {
      v = (1.0 + m / 1024.0);
      for (int k = e - 15; k > 0; k--)
         v *= 2.0;
      for (int k = e - 15; k < 0; k++)
         v /= 2.0;
   }
   return sign ? -v : v;
}
