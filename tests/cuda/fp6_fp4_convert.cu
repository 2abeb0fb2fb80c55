// nvcc-flags: -arch=sm_90
/*
 * fp6_fp4_convert.cu — cuda_fp6.h's and cuda_fp4.h's conversions on the
 * device, against an exact host reference written here independently of
 * either header:
 *   - float -> e2m3/e3m2/e2m1 (__nv_cvt_float_to_fp6/_fp4) in
 *     cudaRoundNearest and cudaRoundZero on a structured set: every code's
 *     value and its float neighbours, every midpoint between neighbouring
 *     values and its float neighbours (ties), the saturation points,
 *     subnormals, +-0, +-inf, NaN, extremes, and pseudo-random floats;
 *   - the same through the x2 functions, the class constructors (round to
 *     nearest, as CUDA documents) and the x4 classes from float4;
 *   - every half and every bfloat16 bit pattern (scalar, x2 and class
 *     forms);
 *   - doubles a hair either side of every midpoint (one rounding from
 *     double, not two through float), the float set as doubles, and the
 *     double2/double4_32a forms;
 *   - every code back to half (__nv_cvt_fp6_to_halfraw, fp4, x2 forms) and
 *     through the classes' operators to float, double, half, bfloat16,
 *     bool and every integer type; the x2/x4 classes to float2/__half2/
 *     float4; the integer constructors;
 *   - CCCL's numeric_limits and classification over the three types;
 *   - the float set and half patterns through the host side of the
 *     functions.
 *
 * The reference decodes the codes to doubles: round to nearest picks the
 * nearest value, ties to the even code; round toward zero the largest
 * magnitude not above the input's.  An input whose magnitude is at least
 * the largest value (infinity included) gives the largest of its sign; a
 * NaN the positive largest (CUDA's documentation for both headers).  The
 * sign of zero is kept.
 */
#include "check.h"

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <math.h>
#include <vector>

/* ---- reference: format 0 e2m3, 1 e3m2, 2 e2m1 ---- */
static const int EB[3] = {2, 3, 2}, MB[3] = {3, 2, 1}, BIAS[3] = {1, 3, 1};
static const char *const FNAME[3] = {"e2m3", "e3m2", "e2m1"};
static int sign_bit(int f) { return 1 << (EB[f] + MB[f]); }
static int max_code(int f) { return sign_bit(f) - 1; }
static double code_value(int f, int code)
{
   int E = (code >> MB[f]) & ((1 << EB[f]) - 1), M = code & ((1 << MB[f]) - 1);
   double v = E ? ldexp((double)(M + (1 << MB[f])), E - BIAS[f] - MB[f]) : ldexp((double)M, 1 - BIAS[f] - MB[f]);
   return code & sign_bit(f) ? -v : v;
}
/* the positive codes' values, decoded once */
static double vals[3][32];
static void init_vals()
{
   for (int f = 0; f < 3; f++)
      for (int c = 0; c <= max_code(f); c++)
         vals[f][c] = code_value(f, c);
}
/* expected code of x in format f, rz: round toward zero */
static int ref_narrow(double x, int f, int rz)
{
   int mx = max_code(f);
   if (isnan(x))
      return mx;
   int s = signbit(x) ? sign_bit(f) : 0;
   double a = fabs(x);
   if (a >= vals[f][mx])
      return s | mx;
   int best = 0;
   if (rz) {
      for (int c = 0; c <= mx; c++)
         if (vals[f][c] <= a)
            best = c;
   } else {
      double bd = INFINITY;
      for (int c = 0; c <= mx; c++) {
         double d = fabs(a - vals[f][c]);   /* exact: the candidates that matter are within 2x of a */
         if (d < bd || (d == bd && !(c & 1))) {
            bd = d;
            best = c;
         }
      }
   }
   return s | best;
}
static double half_value(unsigned p)
{
   int E = (p >> 10) & 31, M = p & 1023;
   double v = E == 31 ? (M ? NAN : INFINITY) : E == 0 ? ldexp(M, -24) : ldexp(M + 1024, E - 25);
   return p >> 15 ? -v : v;
}
static double bf16_value(unsigned p) { return (double)bits_f32((uint32_t)p << 16); }
/* half bits of a value exactly representable as a normal half or zero */
static unsigned short ref_half_bits(double v)
{
   unsigned short s = signbit(v) ? 0x8000 : 0;
   double a = fabs(v);
   if (a == 0)
      return s;
   int e;
   double m = frexp(a, &e);   /* a = m 2^e, m in [0.5, 1) */
   return s | (unsigned short)((e - 1 + 15) << 10) | (unsigned short)((m * 2 - 1) * 1024);
}

/* ---- device ---- */
/* one input to six codes: k = 2 f + rz (on the device, and on the host
 * for the host side of the headers' functions) */
__host__ __device__ unsigned char to_f(float x, int f, cudaRoundMode r)
{
   return f == 2 ? __nv_cvt_float_to_fp4(x, __NV_E2M1, r) : __nv_cvt_float_to_fp6(x, f ? __NV_E3M2 : __NV_E2M3, r);
}
__host__ __device__ unsigned char to_f(double x, int f, cudaRoundMode r)
{
   return f == 2 ? __nv_cvt_double_to_fp4(x, __NV_E2M1, r) : __nv_cvt_double_to_fp6(x, f ? __NV_E3M2 : __NV_E2M3, r);
}
__host__ __device__ unsigned char to_f(__half_raw x, int f, cudaRoundMode r)
{
   return f == 2 ? __nv_cvt_halfraw_to_fp4(x, __NV_E2M1, r) : __nv_cvt_halfraw_to_fp6(x, f ? __NV_E3M2 : __NV_E2M3, r);
}
__host__ __device__ unsigned char to_f(__nv_bfloat16_raw x, int f, cudaRoundMode r)
{
   return f == 2 ? __nv_cvt_bfloat16raw_to_fp4(x, __NV_E2M1, r)
                 : __nv_cvt_bfloat16raw_to_fp6(x, f ? __NV_E3M2 : __NV_E2M3, r);
}
template <typename T> __host__ __device__ void all6(T x, unsigned char *o)
{
   for (int k = 0; k < 6; k++)
      o[k] = to_f(x, k >> 1, k & 1 ? cudaRoundZero : cudaRoundNearest);
}
template <typename T> __global__ void k_narrow(const T *in, unsigned char *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      all6(in[i], out + 6 * i);
}
/* the pair, class and x4 forms of float x = in[i] (y = in[n - 1 - i]);
 * NF bytes each, as the host's checks below list them */
#define NF 12
__global__ void k_forms(const float *in, unsigned char *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = in[i], y = in[n - 1 - i];
   unsigned char *o = out + NF * i;
   __nv_fp6x2_storage_t a = __nv_cvt_float2_to_fp6x2(make_float2(x, y), __NV_E2M3, cudaRoundNearest);
   __nv_fp6x2_storage_t b = __nv_cvt_float2_to_fp6x2(make_float2(x, y), __NV_E3M2, cudaRoundZero);
   o[0] = a & 0xff;
   o[1] = a >> 8;
   o[2] = b & 0xff;
   o[3] = b >> 8;
   o[4] = __nv_cvt_float2_to_fp4x2(make_float2(x, y), __NV_E2M1, cudaRoundNearest);
   o[5] = __nv_fp6_e2m3(x).__x;
   o[6] = __nv_fp6_e3m2(x).__x;
   o[7] = __nv_fp4_e2m1(x).__x;
   int lane = i & 3;
   float4 v = make_float4(lane == 0 ? x : 1.0f, lane == 1 ? x : 1.0f, lane == 2 ? x : 1.0f, lane == 3 ? x : 1.0f);
   o[8] = (__nv_fp6x4_e2m3(v).__x >> (8 * lane)) & 0xff;
   o[9] = (__nv_fp6x4_e3m2(v).__x >> (8 * lane)) & 0xff;
   o[10] = (__nv_fp4x4_e2m1(v).__x >> (4 * lane)) & 0xf;
   o[11] = __nv_fp6x2_e3m2(make_float2(x, y)).__x & 0xff;
}
/* the same for doubles, ND bytes each */
#define ND 8
__global__ void k_forms_d(const double *in, unsigned char *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   double x = in[i], y = in[n - 1 - i];
   unsigned char *o = out + ND * i;
   __nv_fp6x2_storage_t a = __nv_cvt_double2_to_fp6x2(make_double2(x, y), __NV_E3M2, cudaRoundNearest);
   o[0] = a & 0xff;
   o[1] = a >> 8;
   o[2] = __nv_cvt_double2_to_fp4x2(make_double2(x, y), __NV_E2M1, cudaRoundZero);
   o[3] = __nv_fp6_e2m3(x).__x;
   o[4] = __nv_fp4_e2m1(x).__x;
   int lane = i & 3;
   double4_32a v;
   v.x = lane == 0 ? x : 1.0;
   v.y = lane == 1 ? x : 1.0;
   v.z = lane == 2 ? x : 1.0;
   v.w = lane == 3 ? x : 1.0;
   o[5] = (__nv_fp6x4_e3m2(v).__x >> (8 * lane)) & 0xff;
   o[6] = (__nv_fp4x4_e2m1(v).__x >> (4 * lane)) & 0xf;
   o[7] = __nv_fp6x2_e2m3(make_double2(x, y)).__x & 0xff;
}
/* every 16-bit pattern p as half and as bfloat16 (q = 65535 - p the
 * pairs' other lane): N16 bytes each */
#define N16 24
__global__ void k_16(unsigned char *out)
{
   int p = blockIdx.x * blockDim.x + threadIdx.x;
   if (p >= 65536)
      return;
   unsigned char *o = out + N16 * p;
   int q = 65535 - p;
   __half_raw h, hq;
   h.x = (unsigned short)p;
   hq.x = (unsigned short)q;
   __nv_bfloat16_raw b, bq;
   b.x = (unsigned short)p;
   bq.x = (unsigned short)q;
   all6(h, o);
   all6(b, o + 6);
   __half2_raw h2;
   h2.x = h.x;
   h2.y = hq.x;
   __nv_bfloat162_raw b2;
   b2.x = b.x;
   b2.y = bq.x;
   __nv_fp6x2_storage_t s = __nv_cvt_halfraw2_to_fp6x2(h2, __NV_E3M2, cudaRoundNearest);
   o[12] = s & 0xff;
   o[13] = s >> 8;
   s = __nv_cvt_bfloat16raw2_to_fp6x2(b2, __NV_E2M3, cudaRoundZero);
   o[14] = s & 0xff;
   o[15] = s >> 8;
   o[16] = __nv_cvt_halfraw2_to_fp4x2(h2, __NV_E2M1, cudaRoundNearest);
   o[17] = __nv_cvt_bfloat16raw2_to_fp4x2(b2, __NV_E2M1, cudaRoundZero);
   o[18] = __nv_fp6_e2m3(__half(h)).__x;
   o[19] = __nv_fp6_e3m2(__nv_bfloat16(b)).__x;
   o[20] = __nv_fp4_e2m1(__half(h)).__x;
   __half hh = __half(h), hhq = __half(hq);
   __nv_fp6x2_e2m3 c = __nv_fp6x2_e2m3(__half2(hh, hhq));
   o[21] = c.__x & 0xff;
   o[22] = c.__x >> 8;
   o[23] = __nv_fp4x2_e2m1(__nv_bfloat162(__nv_bfloat16(b), __nv_bfloat16(bq))).__x;
}

/* a code through a class's operators */
struct Back {
   double d;
   long long ll;
   unsigned long long ull;
   long l;
   unsigned long ul;
   float f;
   int i;
   unsigned u;
   unsigned short h, bf, us;
   short s;
   signed char sc;
   unsigned char uc;
   char ch;
   bool bo;
};
__device__ unsigned short half_bits(__half h) { return ((__half_raw)h).x; }
__device__ unsigned short bf16_bits(__nv_bfloat16 b) { return ((__nv_bfloat16_raw)b).x; }
template <typename T> __device__ void back_one(unsigned char code, Back *r)
{
   T t;
   t.__x = code;
   r->d = double(t);
   r->ll = (long long)t;
   r->ull = (unsigned long long)t;
   r->l = (long)t;
   r->ul = (unsigned long)t;
   r->f = float(t);
   r->i = int(t);
   r->u = (unsigned)t;
   r->h = half_bits(__half(t));
   r->bf = bf16_bits(__nv_bfloat16(t));
   r->us = (unsigned short)t;
   r->s = (short)t;
   r->sc = (signed char)t;
   r->uc = (unsigned char)t;
   r->ch = (char)t;
   r->bo = (bool)t;
}
/* thread c = 0 ... 255: hb[8 c + k] half bits: 0/1 fp6 e2m3/e3m2 code c
 * (c < 64), 2 the e2m3 pair's high lane (code 63 - c), 3 the e3m2 pair's
 * low lane (code c), 4 fp4 code c (c < 16), 5/6 fp4x2 byte c's lanes;
 * cb[3 c + f]: format f's class on code c (fp6: c < 64, fp4: c < 16);
 * vf[16 c ...]: the x2/x4 classes' float2, float4 and __half2 operators */
__global__ void k_back(unsigned short *hb, Back *cb, float *vf, unsigned short *vh)
{
   int c = threadIdx.x;
   if (c < 64) {
      hb[8 * c + 0] = __nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)c, __NV_E2M3).x;
      hb[8 * c + 1] = __nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)c, __NV_E3M2).x;
      __nv_fp6x2_storage_t pair = (__nv_fp6x2_storage_t)(c | (63 - c) << 8);
      hb[8 * c + 2] = __nv_cvt_fp6x2_to_halfraw2(pair, __NV_E2M3).y;
      hb[8 * c + 3] = __nv_cvt_fp6x2_to_halfraw2(pair, __NV_E3M2).x;
      back_one<__nv_fp6_e2m3>((unsigned char)c, &cb[3 * c + 0]);
      back_one<__nv_fp6_e3m2>((unsigned char)c, &cb[3 * c + 1]);
      /* fp6 x2 (codes c, 63 - c) and x4 (c, 63 - c, (c + 17) & 63, (5 c) & 63) */
      __nv_fp6x2_e2m3 a;
      a.__x = pair;
      float2 fa = float2(a);
      __half2 ha = __half2(a);
      __nv_fp6x4_e3m2 b;
      b.__x = (unsigned)c | (unsigned)(63 - c) << 8 | (unsigned)((c + 17) & 63) << 16 | (unsigned)((5 * c) & 63) << 24;
      float4 fb = float4(b);
      __nv_fp6x2_e3m2 a3;
      a3.__x = pair;
      float2 fa3 = float2(a3);
      __nv_fp6x4_e2m3 b2;
      b2.__x = b.__x;
      float4 fb2 = float4(b2);
      float *o = vf + 16 * c;
      o[0] = fa.x, o[1] = fa.y, o[2] = fb.x, o[3] = fb.y, o[4] = fb.z, o[5] = fb.w;
      o[6] = fa3.x, o[7] = fa3.y, o[8] = fb2.x, o[9] = fb2.y, o[10] = fb2.z, o[11] = fb2.w;
      vh[4 * c + 0] = half_bits(ha.x);
      vh[4 * c + 1] = half_bits(ha.y);
   }
   if (c < 16) {
      hb[8 * c + 4] = __nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)c, __NV_E2M1).x;
      back_one<__nv_fp4_e2m1>((unsigned char)c, &cb[3 * c + 2]);
   }
   __half2_raw p = __nv_cvt_fp4x2_to_halfraw2((__nv_fp4x2_storage_t)c, __NV_E2M1);
   hb[8 * c + 5] = p.x;
   hb[8 * c + 6] = p.y;
   /* fp4 x2 (byte c) and x4 (c, 255 - c) */
   __nv_fp4x2_e2m1 d;
   d.__x = (__nv_fp4x2_storage_t)c;
   float2 fd = float2(d);
   __half2 hd = __half2(d);
   __nv_fp4x4_e2m1 e;
   e.__x = (__nv_fp4x4_storage_t)(c | (255 - c) << 8);
   float4 fe = float4(e);
   float *o = vf + 16 * 256 + 8 * c;
   o[0] = fd.x, o[1] = fd.y, o[2] = fe.x, o[3] = fe.y, o[4] = fe.z, o[5] = fe.w;
   vh[4 * 256 + 2 * c + 0] = half_bits(hd.x);
   vh[4 * 256 + 2 * c + 1] = half_bits(hd.y);
}
/* integer constructors: v = -40 ... 40, out[4 (v + 40) + k] */
__global__ void k_int(unsigned char *out)
{
   int v = (int)threadIdx.x - 40;
   if (v > 40)
      return;
   unsigned char *o = out + 4 * (v + 40);
   o[0] = __nv_fp6_e2m3(v).__x;
   o[1] = __nv_fp6_e3m2((long long)v).__x;
   o[2] = __nv_fp4_e2m1((short)v).__x;
   o[3] = __nv_fp6_e3m2((unsigned)(v + 40)).__x;
}

/* CCCL over the three types: limits as codes, classification as 0/1 */
template <typename T> __device__ void cccl_one(unsigned char *o)
{
   typedef cuda::std::numeric_limits<T> L;
   o[0] = L::max().__x;
   o[1] = L::lowest().__x;
   o[2] = L::min().__x;
   o[3] = L::denorm_min().__x;
   o[4] = L::epsilon().__x;
   o[5] = L::digits;
   o[6] = L::has_infinity || L::has_quiet_NaN;
   o[7] = L::is_specialized && L::is_signed && !L::is_integer;
   o[8] = cuda::std::isnan(L::max()) || cuda::std::isinf(L::lowest());
   o[9] = cuda::std::isfinite(L::max());
   o[10] = cuda::std::isnormal(L::min());
   o[11] = cuda::std::isnormal(L::denorm_min());
}
__global__ void k_cccl(unsigned char *o)
{
   cccl_one<__nv_fp6_e2m3>(o);
   cccl_one<__nv_fp6_e3m2>(o + 12);
   cccl_one<__nv_fp4_e2m1>(o + 24);
}

/* ---- host ---- */
static void check_code(int got, int want, const char *what, int f, double x, const char *mode = "")
{
   if (got != want) {
      char msg[200];
      snprintf(msg, sizeof msg, "%s%s (%s) of %.17g (%a): got 0x%02x, want 0x%02x", what, mode, FNAME[f], x, x, got,
               want);
      check_true(false, msg, __FILE__, __LINE__);
   } else
      check_true(true, what, __FILE__, __LINE__);
}
static void check_six(const unsigned char *o, double x, const char *what)
{
   for (int k = 0; k < 6; k++)
      check_code(o[k], ref_narrow(x, k >> 1, k & 1), what, k >> 1, x, k & 1 ? " rz" : " rn");
}
static void check_back(const Back &r, int f, int code)
{
   double v = code_value(f, code);
   char what[64];
   snprintf(what, sizeof what, "%s code 0x%02x", FNAME[f], code);
   bool ok = r.d == v && r.f == (float)v && r.h == ref_half_bits(v) && r.bf == (f32_bits((float)v) >> 16) &&
             r.ll == (long long)v && r.ull == (v < 0 ? 0ull : (unsigned long long)v) && r.l == (long)v &&
             r.ul == (v < 0 ? 0ul : (unsigned long)v) && r.i == (int)v && r.u == (v < 0 ? 0u : (unsigned)v) &&
             r.us == (v < 0 ? 0 : (unsigned short)v) && r.s == (short)v && r.sc == (signed char)v &&
             r.uc == (v < 0 ? 0 : (unsigned char)v) && r.ch == (char)((char)-1 < 0 ? (int)v : v < 0 ? 0 : (int)v) &&
             r.bo == (v != 0);
   if (!ok)
      printf("%s (value %g) through the class: got d %g f %g half 0x%04x bf16 0x%04x ll %lld ull %llu i %d u %u s %d "
             "us %u sc %d uc %u ch %d bool %d\n",
             what, v, r.d, r.f, r.h, r.bf, r.ll, r.ull, r.i, r.u, r.s, r.us, r.sc, r.uc, r.ch, r.bo);
   check_true(ok, what, __FILE__, __LINE__);
}

int main()
{
   check_begin("fp6_fp4_convert");
   init_vals();

   /* the float set */
   std::vector<float> fs;
   for (int f = 0; f < 3; f++) {
      int mx = max_code(f);
      double step = code_value(f, mx) - code_value(f, mx - 1);
      for (int c = 0; c <= mx; c++) {
         float v = (float)code_value(f, c);
         float nxt = (float)(c < mx ? code_value(f, c + 1) : code_value(f, mx) + step);
         float mid = (float)((code_value(f, c) + nxt) / 2);   /* exact in float */
         float pts[] = {v, nextafterf(v, INFINITY), nextafterf(v, -INFINITY), mid, nextafterf(mid, INFINITY),
                        nextafterf(mid, -INFINITY), nxt};
         for (float p : pts) {
            fs.push_back(p);
            fs.push_back(-p);
         }
      }
      /* a quarter of the smallest subnormal, and one float either side of half of it */
      float q = (float)code_value(f, 1);
      float more[] = {q / 4, q / 2, nextafterf(q / 2, 0.0f), nextafterf(q / 2, INFINITY)};
      for (float p : more) {
         fs.push_back(p);
         fs.push_back(-p);
      }
   }
   float extra[] = {0.0f, INFINITY, NAN, 1e-45f, 1e-40f, 1.17549435e-38f, 3.4028235e38f, 1e30f, 29.0f, 30.0f,
                    32.0f, 100.0f, 65504.0f, 65536.0f, 1e6f, 7.75f, 8.0f, 6.5f, 7.0f, 0x1p-20f};
   for (float x : extra) {
      fs.push_back(x);
      fs.push_back(-x);
   }
   uint32_t r = 12345;
   for (int i = 0; i < 20000; i++) {   /* random floats in about 2^-8 .. 2^6 */
      r = r * 1664525u + 1013904223u;
      uint32_t u = (r >> 9) | ((uint32_t)(119 + (r >> 3) % 15) << 23) | (r & 0x80000000u);
      fs.push_back(bits_f32(u));
   }
   int n = (int)fs.size();

   float *d_f;
   unsigned char *d_o, *d_o2, *d_16;
   CHECK_CUDA(cudaMalloc(&d_f, n * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&d_o, 6 * n));
   CHECK_CUDA(cudaMalloc(&d_o2, NF * n));
   CHECK_CUDA(cudaMalloc(&d_16, N16 * 65536));
   CHECK_CUDA(cudaMemcpy(d_f, fs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
   k_narrow<<<(n + 255) / 256, 256>>>(d_f, d_o, n);
   k_forms<<<(n + 255) / 256, 256>>>(d_f, d_o2, n);
   k_16<<<256, 256>>>(d_16);
   CHECK_CUDA(cudaGetLastError());
   std::vector<unsigned char> o(6 * n), o2(NF * n), o16(N16 * 65536);
   CHECK_CUDA(cudaMemcpy(o.data(), d_o, 6 * n, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(o2.data(), d_o2, NF * n, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(o16.data(), d_16, N16 * 65536, cudaMemcpyDeviceToHost));

   for (int i = 0; i < n; i++) {
      double x = fs[i], y = fs[n - 1 - i];
      const unsigned char *g = &o2[NF * i];
      check_six(&o[6 * i], x, "float_to_fp6/fp4");
      check_code(g[0], ref_narrow(x, 0, 0), "float2_to_fp6x2 rn lo", 0, x);
      check_code(g[1], ref_narrow(y, 0, 0), "float2_to_fp6x2 rn hi", 0, y);
      check_code(g[2], ref_narrow(x, 1, 1), "float2_to_fp6x2 rz lo", 1, x);
      check_code(g[3], ref_narrow(y, 1, 1), "float2_to_fp6x2 rz hi", 1, y);
      check_code(g[4], ref_narrow(x, 2, 0) | ref_narrow(y, 2, 0) << 4, "float2_to_fp4x2 rn", 2, x);
      check_code(g[5], ref_narrow(x, 0, 0), "__nv_fp6_e2m3(float)", 0, x);
      check_code(g[6], ref_narrow(x, 1, 0), "__nv_fp6_e3m2(float)", 1, x);
      check_code(g[7], ref_narrow(x, 2, 0), "__nv_fp4_e2m1(float)", 2, x);
      check_code(g[8], ref_narrow(x, 0, 0), "__nv_fp6x4_e2m3(float4)", 0, x);
      check_code(g[9], ref_narrow(x, 1, 0), "__nv_fp6x4_e3m2(float4)", 1, x);
      check_code(g[10], ref_narrow(x, 2, 0), "__nv_fp4x4_e2m1(float4)", 2, x);
      check_code(g[11], ref_narrow(x, 1, 0), "__nv_fp6x2_e3m2(float2)", 1, x);
   }
   for (int p = 0; p < 65536; p++) {
      int q = 65535 - p;
      double hv = half_value((unsigned)p), hq = half_value((unsigned)q);
      double bv = bf16_value((unsigned)p), bq = bf16_value((unsigned)q);
      const unsigned char *g = &o16[N16 * p];
      check_six(g, hv, "halfraw_to_fp6/fp4");
      check_six(g + 6, bv, "bfloat16raw_to_fp6/fp4");
      check_code(g[12], ref_narrow(hv, 1, 0), "halfraw2_to_fp6x2 rn lo", 1, hv);
      check_code(g[13], ref_narrow(hq, 1, 0), "halfraw2_to_fp6x2 rn hi", 1, hq);
      check_code(g[14], ref_narrow(bv, 0, 1), "bfloat16raw2_to_fp6x2 rz lo", 0, bv);
      check_code(g[15], ref_narrow(bq, 0, 1), "bfloat16raw2_to_fp6x2 rz hi", 0, bq);
      check_code(g[16], ref_narrow(hv, 2, 0) | ref_narrow(hq, 2, 0) << 4, "halfraw2_to_fp4x2 rn", 2, hv);
      check_code(g[17], ref_narrow(bv, 2, 1) | ref_narrow(bq, 2, 1) << 4, "bfloat16raw2_to_fp4x2 rz", 2, bv);
      check_code(g[18], ref_narrow(hv, 0, 0), "__nv_fp6_e2m3(__half)", 0, hv);
      check_code(g[19], ref_narrow(bv, 1, 0), "__nv_fp6_e3m2(__nv_bfloat16)", 1, bv);
      check_code(g[20], ref_narrow(hv, 2, 0), "__nv_fp4_e2m1(__half)", 2, hv);
      check_code(g[21], ref_narrow(hv, 0, 0), "__nv_fp6x2_e2m3(__half2) lo", 0, hv);
      check_code(g[22], ref_narrow(hq, 0, 0), "__nv_fp6x2_e2m3(__half2) hi", 0, hq);
      check_code(g[23], ref_narrow(bv, 2, 0) | ref_narrow(bq, 2, 0) << 4, "__nv_fp4x2_e2m1(__nv_bfloat162)", 2, bv);
   }

   /* the host side of the same functions */
   for (int i = 0; i < n; i++) {
      unsigned char h6[6];
      __half_raw hr;
      hr.x = (unsigned short)(i & 0xffff);
      all6(fs[i], h6);
      check_six(h6, fs[i], "host float_to_fp6/fp4");
      all6(hr, h6);
      check_six(h6, half_value(hr.x), "host halfraw_to_fp6/fp4");
   }

   /* doubles: the float set, and 2^-40 relatively either side of every
    * midpoint (a double rounding through float would land on the tie) */
   std::vector<double> ds(fs.begin(), fs.end());
   for (int f = 0; f < 3; f++) {
      int mx = max_code(f);
      for (int c = 0; c < mx; c++) {
         double mid = (code_value(f, c) + code_value(f, c + 1)) / 2;
         double pts[] = {mid * (1 + 0x1p-40), mid * (1 - 0x1p-40)};
         for (double p : pts) {
            ds.push_back(p);
            ds.push_back(-p);
         }
      }
   }
   double dx[] = {1e300, -1e300, 4.9e-324, -1e-310, 0x1p-1074, 28.000000000001, 7.5000000000001, 6.0000000001};
   for (double x : dx)
      ds.push_back(x);
   int nd = (int)ds.size();
   double *d_d;
   unsigned char *d_od, *d_odf;
   CHECK_CUDA(cudaMalloc(&d_d, nd * sizeof(double)));
   CHECK_CUDA(cudaMalloc(&d_od, 6 * nd));
   CHECK_CUDA(cudaMalloc(&d_odf, ND * nd));
   CHECK_CUDA(cudaMemcpy(d_d, ds.data(), nd * sizeof(double), cudaMemcpyHostToDevice));
   k_narrow<<<(nd + 255) / 256, 256>>>(d_d, d_od, nd);
   k_forms_d<<<(nd + 255) / 256, 256>>>(d_d, d_odf, nd);
   CHECK_CUDA(cudaGetLastError());
   std::vector<unsigned char> od(6 * nd), odf(ND * nd);
   CHECK_CUDA(cudaMemcpy(od.data(), d_od, 6 * nd, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(odf.data(), d_odf, ND * nd, cudaMemcpyDeviceToHost));
   for (int i = 0; i < nd; i++) {
      double x = ds[i], y = ds[nd - 1 - i];
      const unsigned char *g = &odf[ND * i];
      check_six(&od[6 * i], x, "double_to_fp6/fp4");
      check_code(g[0], ref_narrow(x, 1, 0), "double2_to_fp6x2 rn lo", 1, x);
      check_code(g[1], ref_narrow(y, 1, 0), "double2_to_fp6x2 rn hi", 1, y);
      check_code(g[2], ref_narrow(x, 2, 1) | ref_narrow(y, 2, 1) << 4, "double2_to_fp4x2 rz", 2, x);
      check_code(g[3], ref_narrow(x, 0, 0), "__nv_fp6_e2m3(double)", 0, x);
      check_code(g[4], ref_narrow(x, 2, 0), "__nv_fp4_e2m1(double)", 2, x);
      check_code(g[5], ref_narrow(x, 1, 0), "__nv_fp6x4_e3m2(double4_32a)", 1, x);
      check_code(g[6], ref_narrow(x, 2, 0), "__nv_fp4x4_e2m1(double4_32a)", 2, x);
      check_code(g[7], ref_narrow(x, 0, 0), "__nv_fp6x2_e2m3(double2)", 0, x);
   }

   /* back */
   unsigned short *d_hb, *d_vh;
   Back *d_cb;
   float *d_vf;
   CHECK_CUDA(cudaMalloc(&d_hb, 8 * 256 * sizeof(unsigned short)));
   CHECK_CUDA(cudaMalloc(&d_cb, 3 * 64 * sizeof(Back)));
   CHECK_CUDA(cudaMalloc(&d_vf, (16 * 256 + 8 * 256) * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&d_vh, (4 * 256 + 2 * 256) * sizeof(unsigned short)));
   k_back<<<1, 256>>>(d_hb, d_cb, d_vf, d_vh);
   CHECK_CUDA(cudaGetLastError());
   std::vector<unsigned short> hb(8 * 256), vh(4 * 256 + 2 * 256);
   std::vector<Back> cb(3 * 64);
   std::vector<float> vf(16 * 256 + 8 * 256);
   CHECK_CUDA(cudaMemcpy(hb.data(), d_hb, hb.size() * sizeof(unsigned short), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(cb.data(), d_cb, cb.size() * sizeof(Back), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(vf.data(), d_vf, vf.size() * sizeof(float), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(vh.data(), d_vh, vh.size() * sizeof(unsigned short), cudaMemcpyDeviceToHost));
   for (int c = 0; c < 256; c++) {
      if (c < 64) {
         int x4[4] = {c, 63 - c, (c + 17) & 63, (5 * c) & 63};
         CHECK_INT(hb[8 * c + 0], ref_half_bits(code_value(0, c)));
         CHECK_INT(hb[8 * c + 1], ref_half_bits(code_value(1, c)));
         CHECK_INT(hb[8 * c + 2], ref_half_bits(code_value(0, 63 - c)));
         CHECK_INT(hb[8 * c + 3], ref_half_bits(code_value(1, c)));
         check_back(cb[3 * c + 0], 0, c);
         check_back(cb[3 * c + 1], 1, c);
         const float *g = &vf[16 * c];
         CHECK_F32(g[0], (float)code_value(0, c));
         CHECK_F32(g[1], (float)code_value(0, 63 - c));
         for (int k = 0; k < 4; k++)
            CHECK_F32(g[2 + k], (float)code_value(1, x4[k]));
         CHECK_F32(g[6], (float)code_value(1, c));
         CHECK_F32(g[7], (float)code_value(1, 63 - c));
         for (int k = 0; k < 4; k++)
            CHECK_F32(g[8 + k], (float)code_value(0, x4[k]));
         CHECK_INT(vh[4 * c + 0], ref_half_bits(code_value(0, c)));
         CHECK_INT(vh[4 * c + 1], ref_half_bits(code_value(0, 63 - c)));
      }
      if (c < 16) {
         CHECK_INT(hb[8 * c + 4], ref_half_bits(code_value(2, c)));
         check_back(cb[3 * c + 2], 2, c);
      }
      CHECK_INT(hb[8 * c + 5], ref_half_bits(code_value(2, c & 15)));
      CHECK_INT(hb[8 * c + 6], ref_half_bits(code_value(2, c >> 4)));
      const float *g = &vf[16 * 256 + 8 * c];
      int e4[4] = {c & 15, c >> 4, (255 - c) & 15, (255 - c) >> 4};
      CHECK_F32(g[0], (float)code_value(2, c & 15));
      CHECK_F32(g[1], (float)code_value(2, c >> 4));
      for (int k = 0; k < 4; k++)
         CHECK_F32(g[2 + k], (float)code_value(2, e4[k]));
      CHECK_INT(vh[4 * 256 + 2 * c + 0], ref_half_bits(code_value(2, c & 15)));
      CHECK_INT(vh[4 * 256 + 2 * c + 1], ref_half_bits(code_value(2, c >> 4)));
   }

   /* integer constructors */
   unsigned char *d_i, io[4 * 81];
   CHECK_CUDA(cudaMalloc(&d_i, sizeof io));
   k_int<<<1, 96>>>(d_i);
   CHECK_CUDA(cudaMemcpy(io, d_i, sizeof io, cudaMemcpyDeviceToHost));
   for (int v = -40; v <= 40; v++) {
      const unsigned char *g = &io[4 * (v + 40)];
      check_code(g[0], ref_narrow(v, 0, 0), "__nv_fp6_e2m3(int)", 0, v);
      check_code(g[1], ref_narrow(v, 1, 0), "__nv_fp6_e3m2(long long)", 1, v);
      check_code(g[2], ref_narrow(v, 2, 0), "__nv_fp4_e2m1(short)", 2, v);
      check_code(g[3], ref_narrow(v + 40, 1, 0), "__nv_fp6_e3m2(unsigned)", 1, v + 40);
   }

   /* CCCL: limits from the formats' definitions */
   unsigned char *d_c, co[36];
   CHECK_CUDA(cudaMalloc(&d_c, sizeof co));
   k_cccl<<<1, 1>>>(d_c);
   CHECK_CUDA(cudaMemcpy(co, d_c, sizeof co, cudaMemcpyDeviceToHost));
   for (int f = 0; f < 3; f++) {
      const unsigned char *g = &co[12 * f];
      double mx = code_value(f, max_code(f));
      printf("%s limits: max 0x%02x lowest 0x%02x min 0x%02x denorm_min 0x%02x epsilon 0x%02x digits %d\n",
             FNAME[f], g[0], g[1], g[2], g[3], g[4], g[5]);
      CHECK_INT(g[0], ref_narrow(mx, f, 0));
      CHECK_INT(g[1], ref_narrow(-mx, f, 0));
      CHECK_INT(g[2], ref_narrow(ldexp(1.0, 1 - BIAS[f]), f, 0));
      CHECK_INT(g[3], ref_narrow(ldexp(1.0, 1 - BIAS[f] - MB[f]), f, 0));
      CHECK_INT(g[4], ref_narrow(ldexp(1.0, -MB[f]), f, 0));
      CHECK_INT(g[5], MB[f] + 1);
      CHECK_INT(g[6], 0);
      CHECK_INT(g[7], 1);
      CHECK_INT(g[8], 0);
      CHECK_INT(g[9], 1);
      CHECK_INT(g[10], 1);
      CHECK_INT(g[11], 0);
   }
   return check_end();
}
