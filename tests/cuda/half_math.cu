// nvcc-flags: -arch=sm_80
/*
 * half_math.cu — cuda_fp16.h and cuda_bf16.h beyond plain arithmetic
 * (issue 14): the h* math functions, rounding-mode and integer
 * conversions, saturating/relu arithmetic, ordered and unordered
 * comparisons, min/max, the __half2/__nv_bfloat162 forms, shuffles of
 * halves, __ldg, atomicAdd of __nv_bfloat162.
 *
 * Every expected value comes from this file's own host reference: the
 * exact result (integer arithmetic in unsigned __int128, or a double that
 * holds it exactly, or libm's double for the transcendental functions)
 * rounded by ref_round below, written from IEEE 754's definition of the
 * formats and rounding modes, independent of the headers under test.
 *
 *  - bit-exact (any NaN matching any NaN): + - * / fma and their _sat and
 *    _relu forms, comparisons, min/max, abs/neg, __hisinf, every conversion, hceil hfloor
 *    htrunc hrint, shuffles, loads and stores, atomics;
 *  - within 1 ulp of the correctly rounded result (CUDA documents the math
 *    functions as "round-to-nearest-even mode" without an error bound; its
 *    are approximations): hexp hexp2 hexp10 hlog hlog2 hlog10 hsin hcos
 *    hrcp hrsqrt hsqrt, on every half input (hsin/hcos for |x| <= 256,
 *    where a float approximation with a simple range reduction is still
 *    accurate) and on every bfloat16 input that is normal (CUDA's may run
 *    on .ftz float instructions; a subnormal result may be 0 for bf16).
 *
 * Edges: +-0, subnormals, infinities, NaN, overflow to inf or to the
 * largest finite by mode, ties (to even), a bf16 fma whose product is a
 * midpoint and whose addend is tiny (double rounding would get it wrong).
 */
#include "check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>

enum { RN, RZ, RD, RU };

/* ---------------- host reference ---------------- */

struct fmt {
   int p;      /* significand bits, the implicit one included */
   int emin;   /* exponent of the least normal */
   int emax;   /* exponent of the largest finite */
   int bias;
};
static const fmt HALF = { 11, -14, 15, 15 }, BF16 = { 8, -126, 127, 127 };

static int bitlen(unsigned __int128 m)
{
   int n = 0;
   while (m) {
      m >>= 1;
      n++;
   }
   return n;
}

/* (-1)^neg * m * 2^sc, exact, rounded to the format in mode */
static uint16_t ref_round(bool neg, unsigned __int128 m, int sc, fmt f, int mode)
{
   uint16_t s = neg ? (uint16_t)(1u << 15) : 0;
   if (m == 0)
      return s;
   int e = bitlen(m) - 1 + sc;   /* exponent of the value */
   if (e < f.emin)
      e = f.emin;
   int shift = e - (f.p - 1) - sc;   /* the quantum 2^(e-p+1) in units of 2^sc */
   unsigned __int128 n, rem = 0, half = 0;
   if (shift > bitlen(m)) {   /* below half the quantum: only non-zero matters */
      n = 0;
      rem = 1;
      half = 2;
   } else if (shift <= 0) {
      n = m << -shift;
   } else {
      n = m >> shift;
      rem = m & (((unsigned __int128)1 << shift) - 1);
      half = (unsigned __int128)1 << (shift - 1);
   }
   bool up = rem == 0 ? false
           : mode == RN ? (rem > half || (rem == half && (n & 1)))
           : mode == RZ ? false
           : mode == RD ? (rem != 0 && neg) : (rem != 0 && !neg);
   if (up)
      n++;
   if (n == ((unsigned __int128)1 << f.p)) {
      n >>= 1;
      e++;
   }
   int ebits = 16 - f.p;
   uint16_t inf = (uint16_t)(((1u << ebits) - 1) << (f.p - 1));
   if (e > f.emax) {
      bool to_inf = mode == RN || (mode == RD && neg) || (mode == RU && !neg);
      return (uint16_t)(s | (to_inf ? inf : inf - 1));
   }
   if (n < ((unsigned __int128)1 << (f.p - 1)))
      return (uint16_t)(s | (uint16_t)n);   /* subnormal */
   return (uint16_t)(s | (uint16_t)((e + f.bias) << (f.p - 1)) | (uint16_t)(n - ((unsigned __int128)1 << (f.p - 1))));
}

static uint16_t nan_of(fmt f) { return f.p == 11 ? 0x7e00 : 0x7fc0; }
static uint16_t inf_of(fmt f) { return f.p == 11 ? 0x7c00 : 0x7f80; }

/* a double rounded to the format (exact decomposition through frexp) */
static uint16_t ref_from_double(double v, fmt f, int mode)
{
   if (isnan(v))
      return nan_of(f);
   bool neg = signbit(v);
   if (isinf(v))
      return (uint16_t)((neg ? 0x8000 : 0) | inf_of(f));
   int e;
   double m = frexp(fabs(v), &e);
   return ref_round(neg, (unsigned __int128)(uint64_t)ldexp(m, 53), e - 53, f, mode);
}

/* a format's value as a double (exact) */
static double val(uint16_t b, fmt f)
{
   int ebits = 16 - f.p, fb = f.p - 1;
   int ex = (b >> fb) & ((1 << ebits) - 1), mant = b & ((1 << fb) - 1);
   double s = (b & 0x8000) ? -1.0 : 1.0;
   if (ex == (1 << ebits) - 1)
      return mant ? NAN : s * INFINITY;
   if (ex == 0)
      return s * ldexp(mant, f.emin - fb);
   return s * ldexp(mant | (1 << fb), ex - f.bias - fb);
}
static bool is_nan(uint16_t b, fmt f) { return (b & 0x7fff) > inf_of(f); }
/* the bits as a position on the number line (+-0 the same) */
static int ord(uint16_t b) { return (b & 0x8000) ? -(int)(b & 0x7fff) : (int)b; }
static bool same(uint16_t got, uint16_t want, fmt f)
{
   return is_nan(want, f) ? is_nan(got, f) : got == want;
}
static bool within1(uint16_t got, uint16_t want, fmt f)
{
   if (is_nan(want, f) || is_nan(got, f))
      return is_nan(want, f) && is_nan(got, f);
   int d = ord(got) - ord(want);
   return d >= -1 && d <= 1;
}

/* a finite value as integer significand and exponent: v = (-1)^neg k 2^s */
static void split(uint16_t b, fmt f, bool *neg, uint64_t *k, int *s)
{
   int e;
   double m = frexp(fabs(val(b, f)), &e);
   *neg = (b & 0x8000) != 0;
   *k = (uint64_t)ldexp(m, 53);
   *s = e - 53;
}
static bool finite_nonzero(uint16_t b, fmt f)
{
   double v = val(b, f);
   return isfinite(v) && v != 0.0;
}
/* a / b, exact to a sticky bit (round to odd: 64 extra bits, then or) */
static uint16_t ref_div(uint16_t a, uint16_t b, fmt f)
{
   if (!finite_nonzero(a, f) || !finite_nonzero(b, f))
      return ref_from_double(val(a, f) / val(b, f), f, RN);
   bool na, nb;
   uint64_t ka, kb;
   int sa, sb;
   split(a, f, &na, &ka, &sa);
   split(b, f, &nb, &kb, &sb);
   while (!(ka & 1)) { ka >>= 1; sa++; }
   while (!(kb & 1)) { kb >>= 1; sb++; }
   unsigned __int128 num = (unsigned __int128)ka << 64, q = num / kb;
   q |= (num % kb) != 0;
   return ref_round(na != nb, q, sa - sb - 64, f, RN);
}
/* a * b + c, exact in 128 bits (the callers keep the operands' span small) */
static uint16_t ref_fma(uint16_t a, uint16_t b, uint16_t c, fmt f)
{
   double va = val(a, f), vb = val(b, f), vc = val(c, f);
   if (!finite_nonzero(a, f) || !finite_nonzero(b, f) || !finite_nonzero(c, f))
      return ref_from_double(va * vb + vc, f, RN);   /* a zero or a special: exact in double */
   bool na, nb, nc;
   uint64_t ka, kb, kc;
   int sa, sb, scc;
   split(a, f, &na, &ka, &sa);
   split(b, f, &nb, &kb, &sb);
   split(c, f, &nc, &kc, &scc);
   while (!(ka & 1)) { ka >>= 1; sa++; }
   while (!(kb & 1)) { kb >>= 1; sb++; }
   while (!(kc & 1)) { kc >>= 1; scc++; }
   int sp = sa + sb, s = sp < scc ? sp : scc;
   unsigned __int128 p = ((unsigned __int128)ka * kb) << (sp - s), q = (unsigned __int128)kc << (scc - s);
   bool np = na != nb;
   if (np == nc)
      return ref_round(np, p + q, s, f, RN);
   if (p == q)
      return 0;   /* exact zero: +0 in round to nearest */
   return p > q ? ref_round(np, p - q, s, f, RN) : ref_round(nc, q - p, s, f, RN);
}
/* the operand span ref_fma can hold */
static bool fma_fits(uint16_t a, uint16_t b, uint16_t c, fmt f)
{
   if (!finite_nonzero(a, f) || !finite_nonzero(b, f) || !finite_nonzero(c, f))
      return true;
   int ea, eb, ec;
   frexp(val(a, f), &ea);
   frexp(val(b, f), &eb);
   frexp(val(c, f), &ec);
   int hi = ea + eb > ec ? ea + eb : ec, lo = (ea + eb - 2 * f.p) < (ec - f.p) ? ea + eb - 2 * f.p : ec - f.p;
   return hi - lo < 120;
}
static uint16_t sat01(uint16_t r, fmt f)   /* _sat: [0, 1], NaN to +0 */
{
   if (is_nan(r, f))
      return 0;
   double v = val(r, f);
   return v <= 0.0 ? 0 : v >= 1.0 ? (f.p == 11 ? 0x3c00 : 0x3f80) : r;
}
static uint16_t relu(uint16_t r, fmt f)
{
   if (is_nan(r, f))
      return nan_of(f);
   return val(r, f) <= 0.0 ? 0 : r;
}

static uint32_t rng = 12345;
static uint32_t next(void)
{
   rng = rng * 1664525u + 1013904223u;
   return rng >> 8 ^ rng << 13;
}

/* ---------------- device side ---------------- */

#define NMATH 15
template <class H> __device__ H from_bits(uint16_t b)
{
   H h;
   memcpy(&h, &b, 2);
   return h;
}
template <class H> __device__ uint16_t bits_of(H h)
{
   uint16_t b;
   memcpy(&b, &h, 2);
   return b;
}
/* the math functions of H (half or bf16), scalar, on every 16-bit
 * pattern: out[f * 65536 + i]; the pair forms on (i, i + 1) into out2 */
template <class H, class H2> __global__ void k_math(uint16_t *out, uint16_t *out2)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   H x = from_bits<H>((uint16_t)i);
   H r[NMATH] = { hexp(x), hexp2(x), hexp10(x), hlog(x), hlog2(x), hlog10(x), hsin(x), hcos(x),
                  hrcp(x), hrsqrt(x), hsqrt(x), hceil(x), hfloor(x), htrunc(x), hrint(x) };
   for (int f = 0; f < NMATH; f++)
      out[f * 65536 + i] = bits_of(r[f]);
   if (i % 2 == 0) {
      H2 v = { x, from_bits<H>((uint16_t)(i + 1)) };
      H2 q[NMATH] = { h2exp(v), h2exp2(v), h2exp10(v), h2log(v), h2log2(v), h2log10(v), h2sin(v), h2cos(v),
                      h2rcp(v), h2rsqrt(v), h2sqrt(v), h2ceil(v), h2floor(v), h2trunc(v), h2rint(v) };
      for (int f = 0; f < NMATH; f++) {
         out2[f * 65536 + i] = bits_of(q[f].x);
         out2[f * 65536 + i + 1] = bits_of(q[f].y);
      }
   }
}

/* binary and ternary operations on operand triples: NBIN results each */
#define NBIN 27
template <class H, class H2>
__device__ void bin_ops(H a, H b, H c, uint16_t *o)
{
   H2 va = { a, b }, vb = { b, c }, vc = { c, a };
   H r[] = { __hadd(a, b), __hsub(a, b), __hmul(a, b), __hdiv(a, b), __hfma(a, b, c), __hadd_sat(a, b),
             __hsub_sat(a, b), __hmul_sat(a, b), __hfma_sat(a, b, c), __hfma_relu(a, b, c), __hmax(a, b),
             __hmin(a, b), __hmax_nan(a, b), __hmin_nan(a, b) };
   for (int k = 0; k < 14; k++)
      o[k] = *(const uint16_t *)&r[k];
   H2 r2[] = { __hadd2_sat(va, vb), __hmul2_sat(va, vb), __hfma2_sat(va, vb, vc), __hfma2(va, vb, vc) };
   for (int k = 0; k < 4; k++) {
      o[14 + 2 * k] = *(const uint16_t *)&r2[k].x;
      o[15 + 2 * k] = *(const uint16_t *)&r2[k].y;
   }
   H2 mx = __hmax2(va, vb), mn = __hmin2(va, vb), ab = __habs2(va), ng = __hneg2(vb);
   o[22] = *(const uint16_t *)&mx.x;
   o[23] = *(const uint16_t *)&mn.y;
   o[24] = *(const uint16_t *)&ab.x;
   o[25] = *(const uint16_t *)&ng.y;
   o[26] = (uint16_t)(__hisinf(a) + 1);   /* 0, 1, 2: no NaN pattern */
}
/* comparisons: a bit each */
template <class H, class H2>
__device__ unsigned cmp_ops(H a, H b)
{
   H2 va = { a, b }, vb = { b, a };
   bool c[] = { __heq(a, b), __hne(a, b), __hlt(a, b), __hle(a, b), __hgt(a, b), __hge(a, b),
                __hequ(a, b), __hneu(a, b), __hltu(a, b), __hleu(a, b), __hgtu(a, b), __hgeu(a, b),
                a == b, a != b, a < b, a >= b, __hbeq2(va, vb), __hblt2(va, vb), __hbequ2(va, vb),
                __hisnan(a) };
   unsigned m = 0;
   for (int k = 0; k < 20; k++)
      m |= (unsigned)c[k] << k;
   H2 e = __heq2(va, vb), l = __hltu2(va, vb), n = __hisnan2(va);
   /* the 1.0 / 0.0 results as bits 20..25 */
   m |= (unsigned)(*(const uint16_t *)&e.x != 0) << 20 | (unsigned)(*(const uint16_t *)&e.y != 0) << 21;
   m |= (unsigned)(*(const uint16_t *)&l.x != 0) << 22 | (unsigned)(*(const uint16_t *)&l.y != 0) << 23;
   m |= (unsigned)(*(const uint16_t *)&n.x != 0) << 24 | (unsigned)(*(const uint16_t *)&n.y != 0) << 25;
   return m;
}
__global__ void k_binary(const uint16_t *in, int n, uint16_t *oh, uint16_t *ob, unsigned *ch, unsigned *cb)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   const uint16_t *t = in + 3 * i;
   bin_ops<__half, __half2>(__ushort_as_half(t[0]), __ushort_as_half(t[1]), __ushort_as_half(t[2]), oh + NBIN * i);
   bin_ops<__nv_bfloat16, __nv_bfloat162>(__ushort_as_bfloat16(t[0]), __ushort_as_bfloat16(t[1]),
                                          __ushort_as_bfloat16(t[2]), ob + NBIN * i);
   ch[i] = cmp_ops<__half, __half2>(__ushort_as_half(t[0]), __ushort_as_half(t[1]));
   cb[i] = cmp_ops<__nv_bfloat16, __nv_bfloat162>(__ushort_as_bfloat16(t[0]), __ushort_as_bfloat16(t[1]));
}

/* 16-bit patterns to integers, every mode: 4 modes x (int, uint, short, ushort, ll, ull) */
#define NTOI 24
__global__ void k_to_int(long long *oh, long long *ob)
{
   unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
   __half h = __ushort_as_half((unsigned short)i);
   __nv_bfloat16 b = __ushort_as_bfloat16((unsigned short)i);
   long long *o = oh + (size_t)NTOI * i, *p = ob + (size_t)NTOI * i;
   long long r[NTOI] = { __half2int_rn(h), __half2int_rz(h), __half2int_rd(h), __half2int_ru(h),
                         __half2uint_rn(h), __half2uint_rz(h), __half2uint_rd(h), __half2uint_ru(h),
                         __half2short_rn(h), __half2short_rz(h), __half2short_rd(h), __half2short_ru(h),
                         __half2ushort_rn(h), __half2ushort_rz(h), __half2ushort_rd(h), __half2ushort_ru(h),
                         __half2ll_rn(h), __half2ll_rz(h), __half2ll_rd(h), __half2ll_ru(h),
                         (long long)__half2ull_rn(h), (long long)__half2ull_rz(h), (long long)__half2ull_rd(h),
                         (long long)__half2ull_ru(h) };
   long long q[NTOI] = { __bfloat162int_rn(b), __bfloat162int_rz(b), __bfloat162int_rd(b), __bfloat162int_ru(b),
                         __bfloat162uint_rn(b), __bfloat162uint_rz(b), __bfloat162uint_rd(b), __bfloat162uint_ru(b),
                         __bfloat162short_rn(b), __bfloat162short_rz(b), __bfloat162short_rd(b),
                         __bfloat162short_ru(b), __bfloat162ushort_rn(b), __bfloat162ushort_rz(b),
                         __bfloat162ushort_rd(b), __bfloat162ushort_ru(b), __bfloat162ll_rn(b), __bfloat162ll_rz(b),
                         __bfloat162ll_rd(b), __bfloat162ll_ru(b), (long long)__bfloat162ull_rn(b),
                         (long long)__bfloat162ull_rz(b), (long long)__bfloat162ull_rd(b),
                         (long long)__bfloat162ull_ru(b) };
   for (int k = 0; k < NTOI; k++) {
      o[k] = r[k];
      p[k] = q[k];
   }
}

/* floats and integers to half and bf16 in every mode */
#define NFROM 12
__global__ void k_from(const float *f, const long long *v, int n, uint16_t *oh, uint16_t *ob)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = f[i];
   long long w = v[i];
   __half r[NFROM] = { __float2half_rn(x), __float2half_rz(x), __float2half_rd(x), __float2half_ru(x),
                       __int2half_rn((int)w), __int2half_rz((int)w), __int2half_rd((int)w), __int2half_ru((int)w),
                       __ll2half_rn(w), __ll2half_rz(w), __ull2half_rd((unsigned long long)w),
                       __uint2half_ru((unsigned)w) };
   __nv_bfloat16 q[NFROM] = { __float2bfloat16_rn(x), __float2bfloat16_rz(x), __float2bfloat16_rd(x),
                              __float2bfloat16_ru(x), __int2bfloat16_rn((int)w), __int2bfloat16_rz((int)w),
                              __int2bfloat16_rd((int)w), __int2bfloat16_ru((int)w), __ll2bfloat16_rn(w),
                              __ll2bfloat16_rz(w), __ull2bfloat16_rd((unsigned long long)w),
                              __uint2bfloat16_ru((unsigned)w) };
   for (int k = 0; k < NFROM; k++) {
      oh[NFROM * i + k] = __half_as_ushort(r[k]);
      ob[NFROM * i + k] = __bfloat16_as_ushort(q[k]);
   }
}

/* shuffles, __ldg and the cache-hinted loads and stores, atomicAdd of
 * bf162: one block of 64; o: 16 words a thread, then 64 bf162 */
__global__ void k_warp(const __half *hin, const __half2 *h2in, const __nv_bfloat16 *bin, const __nv_bfloat162 *b2in,
                       uint16_t *o, __nv_bfloat162 *acc)
{
   unsigned t = threadIdx.x;
   __half h = __ldg(hin + t);
   __half2 h2 = __ldg(h2in + t);
   __nv_bfloat16 b = __ldg(bin + t);
   __nv_bfloat162 b2 = __ldg(b2in + t);
   uint16_t *p = o + 16 * t;
   p[0] = __half_as_ushort(h);
   p[1] = __half_as_ushort(__shfl_sync(0xffffffffu, h, 3));
   p[2] = __half_as_ushort(__shfl_xor_sync(0xffffffffu, h, 5));
   p[3] = __half_as_ushort(__shfl_up_sync(0xffffffffu, h, 1));
   p[4] = __half_as_ushort(__shfl_down_sync(0xffffffffu, h, 2, 16));
   __half2 s2 = __shfl_xor_sync(0xffffffffu, h2, 1);
   p[5] = __half_as_ushort(s2.x);
   p[6] = __half_as_ushort(__shfl_down_sync(0xffffffffu, h2, 1).y);
   p[7] = __bfloat16_as_ushort(b);
   p[8] = __bfloat16_as_ushort(__shfl_sync(0xffffffffu, b, 7));
   p[9] = __bfloat16_as_ushort(__shfl_xor_sync(0xffffffffu, b, 16));
   p[10] = __bfloat16_as_ushort(__shfl_up_sync(0xffffffffu, b2, 2).x);
   p[11] = __bfloat16_as_ushort(b2.y);
   p[12] = __half_as_ushort(__ldcg(hin + (t ^ 1)));
   p[13] = __bfloat16_as_ushort(__ldcs(b2in + t).x);
   __stcg((__half *)(p + 14), __ldca(hin + t));
   __stwt((__nv_bfloat162 *)(o + 16 * blockDim.x) + t, __ldlu(b2in + (blockDim.x - 1 - t)));
   __nv_bfloat162 one = __floats2bfloat162_rn(1.0f, 0.5f);
   atomicAdd(acc, one);
}

/* ---------------- checks ---------------- */

static const char *math_name[NMATH] = { "hexp", "hexp2", "hexp10", "hlog", "hlog2", "hlog10", "hsin", "hcos",
                                        "hrcp", "hrsqrt", "hsqrt", "hceil", "hfloor", "htrunc", "hrint" };
static double math_ref(int f, double x)
{
   switch (f) {
   case 0: return exp(x);
   case 1: return exp2(x);
   case 2: return pow(10.0, x);
   case 3: return log(x);
   case 4: return log2(x);
   case 5: return log10(x);
   case 6: return sin(x);
   case 7: return cos(x);
   case 8: return 1.0 / x;
   case 9: return 1.0 / sqrt(x);
   case 10: return sqrt(x);
   case 11: return ceil(x);
   case 12: return floor(x);
   case 13: return trunc(x);
   default: return nearbyint(x);
   }
}

static void check_math(const char *type, fmt ft, const uint16_t *got, const uint16_t *got2)
{
   for (int f = 0; f < NMATH; f++) {
      long bad = 0, first = -1;
      uint16_t fw = 0, fg = 0;
      const char *form = "";
      for (int i = 0; i < 65536; i++) {
         double x = val((uint16_t)i, ft);
         if ((f == 6 || f == 7) && fabs(x) > 256)
            continue;
         if (ft.p == 8 && x != 0 && fabs(x) < ldexp(1.0, -126))
            continue;   /* a bf16 subnormal input */
         double y = math_ref(f, x);
         uint16_t want = ref_from_double(y, ft, RN);
         for (int form2 = 0; form2 < 2; form2++) {
            uint16_t g = (form2 ? got2 : got)[f * 65536 + i];
            bool ok = f >= 11 ? same(g, want, ft) : within1(g, want, ft);
            if (!ok && ft.p == 8 && y != 0 && fabs(y) < ldexp(1.0, -126) && (g & 0x7fff) == 0)
               ok = true;   /* a subnormal bf16 result flushed */
            check_count_++;
            if (!ok && bad++ == 0) {
               first = i;
               fw = want;
               fg = g;
               form = form2 ? " (the 2 form)" : "";
            }
         }
      }
      if (bad)
         check_failf(__FILE__, __LINE__, "%s %s%s: %ld inputs wrong, first 0x%04lx (%g): got 0x%04x, want 0x%04x%s",
                     type, math_name[f], form, bad, first, val((uint16_t)first, ft), fg, fw,
                     f >= 11 ? "" : " (+-1 ulp)");
   }
}

static const char *bin_name[NBIN] = { "__hadd", "__hsub", "__hmul", "__hdiv", "__hfma", "__hadd_sat", "__hsub_sat",
                                      "__hmul_sat", "__hfma_sat", "__hfma_relu", "__hmax", "__hmin", "__hmax_nan",
                                      "__hmin_nan", "__hadd2_sat.x", "__hadd2_sat.y", "__hmul2_sat.x",
                                      "__hmul2_sat.y", "__hfma2_sat.x", "__hfma2_sat.y", "__hfma2.x", "__hfma2.y",
                                      "__hmax2.x", "__hmin2.y", "__habs2.x", "__hneg2.y", "__hisinf" };
static uint16_t maxmin(uint16_t a, uint16_t b, fmt f, bool max, bool nan_wins)
{
   bool na = is_nan(a, f), nb = is_nan(b, f);
   if (na || nb)
      return nan_wins || (na && nb) ? nan_of(f) : na ? b : a;
   double x = val(a, f), y = val(b, f);
   return (max ? x < y : y < x) ? b : a;
}
static void bin_ref(const uint16_t *t, fmt f, uint16_t *w)
{
   uint16_t a = t[0], b = t[1], c = t[2];
   uint16_t add = ref_from_double(val(a, f) + val(b, f), f, RN), sub = ref_from_double(val(a, f) - val(b, f), f, RN);
   uint16_t mul = ref_from_double(val(a, f) * val(b, f), f, RN), fma = ref_fma(a, b, c, f);
   uint16_t w0[] = { add, sub, mul, ref_div(a, b, f), fma, sat01(add, f), sat01(sub, f), sat01(mul, f),
                     sat01(fma, f), relu(fma, f), maxmin(a, b, f, true, false), maxmin(a, b, f, false, false),
                     maxmin(a, b, f, true, true), maxmin(a, b, f, false, true) };
   for (int k = 0; k < 14; k++)
      w[k] = w0[k];
   /* the pairs (a, b) op (b, c) [op (c, a)] */
   w[14] = sat01(ref_from_double(val(a, f) + val(b, f), f, RN), f);
   w[15] = sat01(ref_from_double(val(b, f) + val(c, f), f, RN), f);
   w[16] = sat01(ref_from_double(val(a, f) * val(b, f), f, RN), f);
   w[17] = sat01(ref_from_double(val(b, f) * val(c, f), f, RN), f);
   w[18] = sat01(ref_fma(a, b, c, f), f);
   w[19] = sat01(ref_fma(b, c, a, f), f);
   w[20] = ref_fma(a, b, c, f);
   w[21] = ref_fma(b, c, a, f);
   w[22] = maxmin(a, b, f, true, false);
   w[23] = maxmin(b, c, f, false, false);
   w[24] = is_nan(a, f) ? a : (uint16_t)(a & 0x7fff);
   w[25] = is_nan(c, f) ? c : (uint16_t)(c ^ 0x8000);
   w[26] = (uint16_t)(isinf(val(a, f)) ? (val(a, f) < 0 ? 0 : 2) : 1);
}
static unsigned cmp_ref(uint16_t a, uint16_t b, fmt f)
{
   double x = val(a, f), y = val(b, f);
   bool un = isnan(x) || isnan(y);
   bool c[] = { x == y, x < y || x > y, x < y, x <= y, x > y, x >= y,
                un || x == y, !(x == y), un || x < y, un || x <= y, un || x > y, un || x >= y,
                x == y, !(x == y), x < y, x >= y,
                x == y && y == x, x < y && y < x, (un || x == y) && (un || y == x), (bool)isnan(x) };
   unsigned m = 0;
   for (int k = 0; k < 20; k++)
      m |= (unsigned)c[k] << k;
   m |= (unsigned)(x == y) << 20 | (unsigned)(y == x) << 21;
   m |= (unsigned)(un || x < y) << 22 | (unsigned)(un || y < x) << 23;
   m |= (unsigned)isnan(x) << 24 | (unsigned)isnan(y) << 25;
   return m;
}

/* random 16-bit patterns biased to interesting ones */
static uint16_t pick(fmt f, bool moderate)
{
   static const uint16_t hedge[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3800,
                                     0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3c01, 0x4000, 0x5bff, 0x3555 };
   static const uint16_t bedge[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80, 0xbf80, 0x3f00,
                                     0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x3f81, 0x4000, 0x4041, 0x3eab };
   uint32_t r = next();
   if (r % 8 == 0)
      return f.p == 11 ? hedge[r / 8 % 18] : bedge[r / 8 % 18];
   uint16_t b = (uint16_t)(next() & 0xffff);
   if (f.p == 8 && moderate) {   /* exponents -20..20 (and a sign) */
      int e = (int)(next() % 41) - 20;
      b = (uint16_t)((b & 0x807f) | ((e + 127) << 7));
   }
   return b;
}

int main(void)
{
   check_begin("half_math");

   /* ---- math on every input ---- */
   uint16_t *d_m, *d_m2;
   CHECK_CUDA(cudaMalloc(&d_m, NMATH * 65536 * 2));
   CHECK_CUDA(cudaMalloc(&d_m2, NMATH * 65536 * 2));
   uint16_t *m = (uint16_t *)malloc(NMATH * 65536 * 2), *m2 = (uint16_t *)malloc(NMATH * 65536 * 2);
   k_math<__half, __half2><<<256, 256>>>(d_m, d_m2);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(m, d_m, NMATH * 65536 * 2, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(m2, d_m2, NMATH * 65536 * 2, cudaMemcpyDeviceToHost));
   check_math("half", HALF, m, m2);
   k_math<__nv_bfloat16, __nv_bfloat162><<<256, 256>>>(d_m, d_m2);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(m, d_m, NMATH * 65536 * 2, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(m2, d_m2, NMATH * 65536 * 2, cudaMemcpyDeviceToHost));
   check_math("bf16", BF16, m, m2);

   /* ---- arithmetic and comparisons on operand triples ---- */
   enum { NB = 16384 };
   /* the half triples in the first half of in, bf16 ones (moderate
    * exponents, so that ref_fma holds them) in the second; each kernel
    * thread reads its triple as both types, the host checks each type on
    * its half */
   uint16_t *in = (uint16_t *)malloc(NB * 3 * 2);
   for (int i = 0; i < NB; i++)
      for (int k = 0; k < 3; k++)
         in[3 * i + k] = pick(i < NB / 2 ? HALF : BF16, true);
   /* fixed edges: ties and the bf16 fma midpoint + tiny */
   uint16_t fixed[][3] = { { 0x3c00, 0x1400, 0x0000 },   /* half 1 + 2^-10: exact */
                           { 0x3c00, 0x1000, 0x0000 },   /* 1 + 2^-11: tie to even, 1 */
                           { 0x3c01, 0x1000, 0x0000 },   /* tie up to even */
                           { 0x7bff, 0x5000, 0x0000 },   /* overflow to inf */
                           { 0x0001, 0x8001, 0x0001 },   /* subnormals */
                           { 0x7c00, 0xfc00, 0x0000 },   /* inf - inf */
                           { 0x3800, 0x3800, 0x3800 } };
   for (unsigned k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
      for (int j = 0; j < 3; j++)
         in[3 * k + j] = fixed[k][j];
   uint16_t bfixed[][3] = { { 0x4040, 0x3f81, 0x8d80 },   /* 3 * (1 + 2^-7) - 2^-100: just below a midpoint */
                            { 0x4040, 0x3f81, 0x0d80 },   /* + 2^-100: just above */
                            { 0x4040, 0x3f81, 0x0000 },   /* the midpoint: to even */
                            { 0x7f7f, 0x4000, 0x0000 },   /* overflow */
                            { 0x0001, 0x3f00, 0x0000 } }; /* the least subnormal halved: tie to 0 */
   for (unsigned k = 0; k < sizeof bfixed / sizeof bfixed[0]; k++)
      for (int j = 0; j < 3; j++)
         in[3 * (NB / 2 + k) + j] = bfixed[k][j];
   uint16_t *d_in, *d_oh, *d_ob;
   unsigned *d_ch, *d_cb;
   CHECK_CUDA(cudaMalloc(&d_in, NB * 3 * 2));
   CHECK_CUDA(cudaMalloc(&d_oh, NB * NBIN * 2));
   CHECK_CUDA(cudaMalloc(&d_ob, NB * NBIN * 2));
   CHECK_CUDA(cudaMalloc(&d_ch, NB * 4));
   CHECK_CUDA(cudaMalloc(&d_cb, NB * 4));
   CHECK_CUDA(cudaMemcpy(d_in, in, NB * 3 * 2, cudaMemcpyHostToDevice));
   k_binary<<<NB / 128, 128>>>(d_in, NB, d_oh, d_ob, d_ch, d_cb);
   CHECK_CUDA(cudaGetLastError());
   uint16_t *oh = (uint16_t *)malloc(NB * NBIN * 2), *ob = (uint16_t *)malloc(NB * NBIN * 2);
   unsigned *ch = (unsigned *)malloc(NB * 4), *cb = (unsigned *)malloc(NB * 4);
   CHECK_CUDA(cudaMemcpy(oh, d_oh, NB * NBIN * 2, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(ob, d_ob, NB * NBIN * 2, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(ch, d_ch, NB * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(cb, d_cb, NB * 4, cudaMemcpyDeviceToHost));
   for (int i = 0; i < NB; i++) {
      fmt f = i < NB / 2 ? HALF : BF16;
      const uint16_t *t = in + 3 * i, *g = (i < NB / 2 ? oh : ob) + NBIN * i;
      if (!fma_fits(t[0], t[1], t[2], f) || !fma_fits(t[1], t[2], t[0], f))
         continue;
      uint16_t w[NBIN];
      bin_ref(t, f, w);
      for (int k = 0; k < NBIN; k++) {
         /* max/min of +0 and -0: either (CUDA does not say which) */
         if (((k >= 10 && k <= 13) || k == 22) && (t[0] & 0x7fff) == 0 && (t[1] & 0x7fff) == 0)
            continue;
         if (k == 23 && (t[1] & 0x7fff) == 0 && (t[2] & 0x7fff) == 0)
            continue;
         check_count_++;
         if (!same(g[k], w[k], f))
            check_failf(__FILE__, __LINE__, "%s %s(0x%04x, 0x%04x, 0x%04x) = 0x%04x, want 0x%04x",
                        f.p == 11 ? "half" : "bf16", bin_name[k], t[0], t[1], t[2], g[k], w[k]);
      }
      unsigned cw = cmp_ref(t[0], t[1], f), cg = i < NB / 2 ? ch[i] : cb[i];
      check_count_++;
      if (cw != cg)
         check_failf(__FILE__, __LINE__, "%s comparisons of 0x%04x, 0x%04x: bits %#x differ (got %#x)",
                     f.p == 11 ? "half" : "bf16", t[0], t[1], cw ^ cg, cg);
   }
   /* the bf16 fma edge, spelled out */
   CHECK_INT(ob[NBIN * (NB / 2) + 4], 0x4041);
   CHECK_INT(ob[NBIN * (NB / 2 + 1) + 4], 0x4042);
   CHECK_INT(ob[NBIN * (NB / 2 + 2) + 4], 0x4042);

   /* ---- to integers, every 16-bit pattern ---- */
   long long *d_ih, *d_ib;
   CHECK_CUDA(cudaMalloc(&d_ih, (size_t)65536 * NTOI * 8));
   CHECK_CUDA(cudaMalloc(&d_ib, (size_t)65536 * NTOI * 8));
   k_to_int<<<256, 256>>>(d_ih, d_ib);
   CHECK_CUDA(cudaGetLastError());
   long long *ih = (long long *)malloc((size_t)65536 * NTOI * 8), *ib = (long long *)malloc((size_t)65536 * NTOI * 8);
   CHECK_CUDA(cudaMemcpy(ih, d_ih, (size_t)65536 * NTOI * 8, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(ib, d_ib, (size_t)65536 * NTOI * 8, cudaMemcpyDeviceToHost));
   static const char *ty[] = { "int", "uint", "short", "ushort", "ll", "ull" };
   static const char *mo[] = { "rn", "rz", "rd", "ru" };
   const long double lo[] = { -2147483648.0L, 0, -32768, 0, -9223372036854775808.0L, 0 };
   const long double hi[] = { 2147483647.0L, 4294967295.0L, 32767, 65535, 9223372036854775807.0L,
                              18446744073709551615.0L };
   for (int which = 0; which < 2; which++) {
      fmt f = which ? BF16 : HALF;
      long long *got = which ? ib : ih;
      long bad = 0;
      for (int i = 0; i < 65536; i++) {
         double x = val((uint16_t)i, f);
         for (int t = 0; t < 6; t++)
            for (int md = 0; md < 4; md++) {
               if (isnan(x) && t >= 4)
                  continue;   /* 64-bit results of NaN: not checked */
               long double r = isnan(x) ? 0
                             : md == RN ? nearbyintl(x) : md == RZ ? truncl(x) : md == RD ? floorl(x) : ceill(x);
               if (r < lo[t])
                  r = lo[t];
               if (r > hi[t])
                  r = hi[t];
               long long want = t == 5 ? (long long)(unsigned long long)r : (long long)r;
               long long g = got[(size_t)NTOI * i + 4 * t + md];
               if (t == 1)
                  g = (long long)(unsigned)g;
               else if (t == 3)
                  g = (long long)(unsigned short)g;
               check_count_++;
               if (g != want && bad++ < 4)
                  check_failf(__FILE__, __LINE__, "%s 0x%04x (%g) to %s_%s: got %lld, want %lld",
                              which ? "bf16" : "half", i, x, ty[t], mo[md], g, want);
            }
      }
      if (bad > 4)
         check_failf(__FILE__, __LINE__, "%s to integers: %ld wrong in all", which ? "bf16" : "half", bad);
   }

   /* ---- floats and integers to half/bf16 in every mode ---- */
   enum { NF = 4096 };
   float *fv = (float *)malloc(NF * 4);
   long long *iv = (long long *)malloc(NF * 8);
   const float fedge[] = { 0.0f, -0.0f, 1.0f, 65504.0f, 65519.99f, 65520.0f, -65520.0f, 1e6f, -1e6f,
                           5.9604645e-8f, 2.9802322e-8f, 2.98023259e-8f, -2.9802322e-8f, 1e-30f, -1e-30f,
                           INFINITY, -INFINITY, NAN, 3.4e38f, -3.4e38f, 1.00048828125f, 1.000732421875f,
                           1.0039062f, 1.01171875f, 1e-45f, 9.2e-41f };
   const long long iedge[] = { 0, 1, -1, 2047, 2049, 2051, -2049, 65504, 65519, 65520, -65520, 100000, -100000,
                               2147483647, (-2147483647 - 1), 257, 259, -257, 16777217, (1ll << 40) + 1,
                               -((1ll << 40) + 1), 0x7fffffffffffffffll, (-0x7fffffffffffffffll - 1),
                               (1ll << 24) + (1ll << 16) + 1, 0x0180800000000001ll, -0x0180800000000000ll };
   const int nfe = sizeof fedge / sizeof fedge[0], nie = sizeof iedge / sizeof iedge[0];
   for (int i = 0; i < NF; i++) {
      uint32_t u = next();
      float x;
      memcpy(&x, &u, 4);
      if (i % 3 == 0)   /* near half's range */
         x = ldexpf((float)(next() & 0xffffff) / 16777216.0f, (int)(next() % 44) - 26) * ((next() & 1) ? 1 : -1);
      fv[i] = i < nfe ? fedge[i] : x;
      long long w = (long long)((uint64_t)next() << 32 | next()) >> (next() % 63);
      iv[i] = i < nie ? iedge[i] : w;
   }
   float *d_fv;
   long long *d_iv;
   uint16_t *d_fh, *d_fb;
   CHECK_CUDA(cudaMalloc(&d_fv, NF * 4));
   CHECK_CUDA(cudaMalloc(&d_iv, NF * 8));
   CHECK_CUDA(cudaMalloc(&d_fh, NF * NFROM * 2));
   CHECK_CUDA(cudaMalloc(&d_fb, NF * NFROM * 2));
   CHECK_CUDA(cudaMemcpy(d_fv, fv, NF * 4, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(d_iv, iv, NF * 8, cudaMemcpyHostToDevice));
   k_from<<<NF / 128, 128>>>(d_fv, d_iv, NF, d_fh, d_fb);
   CHECK_CUDA(cudaGetLastError());
   uint16_t *fh = (uint16_t *)malloc(NF * NFROM * 2), *fb = (uint16_t *)malloc(NF * NFROM * 2);
   CHECK_CUDA(cudaMemcpy(fh, d_fh, NF * NFROM * 2, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(fb, d_fb, NF * NFROM * 2, cudaMemcpyDeviceToHost));
   static const char *from_name[NFROM] = { "__float2X_rn", "__float2X_rz", "__float2X_rd", "__float2X_ru",
                                           "__int2X_rn", "__int2X_rz", "__int2X_rd", "__int2X_ru",
                                           "__ll2X_rn", "__ll2X_rz", "__ull2X_rd", "__uint2X_ru" };
   for (int which = 0; which < 2; which++) {
      fmt f = which ? BF16 : HALF;
      const uint16_t *got = which ? fb : fh;
      for (int i = 0; i < NF; i++) {
         long long w = iv[i];
         int iw = (int)w;
         unsigned long long uw = (unsigned long long)w;
         unsigned u32 = (unsigned)w;
         uint16_t want[NFROM];
         for (int md = 0; md < 4; md++) {
            want[md] = ref_from_double((double)fv[i], f, md);
            want[4 + md] = ref_round(iw < 0, iw < 0 ? 0u - (unsigned)iw : (unsigned)iw, 0, f, md);
         }
         want[8] = ref_round(w < 0, w < 0 ? 0ull - uw : uw, 0, f, RN);
         want[9] = ref_round(w < 0, w < 0 ? 0ull - uw : uw, 0, f, RZ);
         want[10] = ref_round(false, uw, 0, f, RD);
         want[11] = ref_round(false, u32, 0, f, RU);
         for (int k = 0; k < NFROM; k++) {
            check_count_++;
            if (!same(got[NFROM * i + k], want[k], f))
               check_failf(__FILE__, __LINE__, "%s with X = %s of %.9g / %lld: got 0x%04x, want 0x%04x",
                           from_name[k], which ? "bfloat16" : "half", (double)fv[i], w, got[NFROM * i + k], want[k]);
         }
      }
   }

   /* ---- shuffles, __ldg, atomicAdd(__nv_bfloat162 *) ---- */
   enum { W = 64 };
   uint16_t hv[W], h2v[2 * W], bv[W], b2v[2 * W];
   for (int t = 0; t < W; t++) {
      hv[t] = (uint16_t)(0x3c00 + 17 * t);
      bv[t] = (uint16_t)(0x3f80 + 3 * t);
      h2v[2 * t] = (uint16_t)(0x4000 + t);
      h2v[2 * t + 1] = (uint16_t)(0xc000 + t);
      b2v[2 * t] = (uint16_t)(0x4100 + t);
      b2v[2 * t + 1] = (uint16_t)(0xc100 + t);
   }
   uint16_t *d_w, *d_ws;
   __nv_bfloat162 *d_acc;
   CHECK_CUDA(cudaMalloc(&d_w, 6 * W * 2));
   CHECK_CUDA(cudaMalloc(&d_ws, W * 18 * 2));
   CHECK_CUDA(cudaMalloc(&d_acc, 4));
   CHECK_CUDA(cudaMemcpy(d_w, hv, W * 2, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(d_w + W, h2v, 2 * W * 2, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(d_w + 3 * W, bv, W * 2, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(d_w + 4 * W, b2v, 2 * W * 2, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemset(d_acc, 0, 4));
   k_warp<<<1, W>>>((const __half *)d_w, (const __half2 *)(d_w + W), (const __nv_bfloat16 *)(d_w + 3 * W),
                    (const __nv_bfloat162 *)(d_w + 4 * W), d_ws, d_acc);
   CHECK_CUDA(cudaGetLastError());
   uint16_t ws[W * 18], acc[2];
   CHECK_CUDA(cudaMemcpy(ws, d_ws, sizeof ws, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(acc, d_acc, 4, cudaMemcpyDeviceToHost));
   for (int t = 0; t < W; t++) {
      int base = t & ~31, l = t & 31;
      int src16 = (l & ~15) + ((l & 15) + 2 < 16 ? (l & 15) + 2 : (l & 15));
      uint16_t want[15] = { hv[t], hv[base + 3], hv[base + (l ^ 5)], hv[base + (l >= 1 ? l - 1 : l)],
                            hv[base + src16], h2v[2 * (base + (l ^ 1))], h2v[2 * (base + (l + 1 < 32 ? l + 1 : l)) + 1],
                            bv[t], bv[base + 7], bv[base + (l ^ 16)], b2v[2 * (base + (l >= 2 ? l - 2 : l))],
                            b2v[2 * t + 1], hv[t ^ 1], b2v[2 * t], hv[t] };
      for (int k = 0; k < 15; k++) {
         check_count_++;
         if (ws[16 * t + k] != want[k])
            check_failf(__FILE__, __LINE__, "shuffle/ldg %d of thread %d: got 0x%04x, want 0x%04x", k, t,
                        ws[16 * t + k], want[k]);
      }
   }
   for (int t = 0; t < W; t++) {   /* __stwt of __ldlu: the pairs in reverse */
      CHECK_INT(ws[16 * W + 2 * t], b2v[2 * (W - 1 - t)]);
      CHECK_INT(ws[16 * W + 2 * t + 1], b2v[2 * (W - 1 - t) + 1]);
   }
   CHECK_INT(acc[0], 0x4280);   /* 64 * 1.0 */
   CHECK_INT(acc[1], 0x4200);   /* 64 * 0.5 */

   cudaFree(d_m);
   cudaFree(d_m2);
   cudaFree(d_in);
   cudaFree(d_oh);
   cudaFree(d_ob);
   cudaFree(d_ch);
   cudaFree(d_cb);
   cudaFree(d_ih);
   cudaFree(d_ib);
   cudaFree(d_fv);
   cudaFree(d_iv);
   cudaFree(d_fh);
   cudaFree(d_fb);
   cudaFree(d_w);
   cudaFree(d_ws);
   cudaFree(d_acc);
   free(m);
   free(m2);
   free(in);
   free(oh);
   free(ob);
   free(ch);
   free(cb);
   free(ih);
   free(ib);
   free(fv);
   free(iv);
   free(fh);
   free(fb);
   return check_end();
}
