// nvcc-flags: -arch=sm_90
/*
 * fp8_convert.cu — cuda_fp8.h's conversions on the device, against an exact
 * host reference written here independently of any cuda_fp8.h:
 *   - float -> e4m3/e5m2 (__nv_cvt_float_to_fp8, both saturation modes) on
 *     a structured set: every fp8 value and its float neighbours, every
 *     midpoint between neighbouring fp8 values and its float neighbours
 *     (ties), the overflow points, subnormals, +-0, +-inf, NaN, extremes,
 *     and pseudo-random floats;
 *   - the same through __nv_cvt_float2_to_fp8x2, the class constructors
 *     (__NV_SATFINITE, as CUDA documents) and __nv_fp8x4_* from float4;
 *   - every half and every bfloat16 bit pattern (__nv_cvt_halfraw_to_fp8,
 *     __nv_cvt_bfloat16raw_to_fp8);
 *   - doubles a hair either side of every midpoint (one rounding from
 *     double, not two through float) and the float set as doubles;
 *   - every 8-bit pattern back to half (__nv_cvt_fp8_to_halfraw, x2) and
 *     to float (the class's operator float);
 *   - e8m0 scale factors: positive normal floats in cudaRoundZero and
 *     cudaRoundPosInf (the constructor's, satfinite), NaN, and every code
 *     back to bfloat16 (2^-127 a subnormal);
 *   - CCCL's numeric_limits, isnan and isinf over the fp8 types.
 *
 * The reference decodes the 256 codes of each format to doubles and picks
 * the nearest, ties to the even code, with one more code past the largest
 * finite value (480 for e4m3, 65536 for e5m2) standing for "out of range":
 * with __NV_SATFINITE that gives the largest finite value of the sign, with
 * __NV_NOSAT NaN (e4m3) or infinity (e5m2).  For a NaN input, and for
 * e4m3's overflow without saturation, any NaN code is accepted (CUDA
 * documents NaN, not its bits).
 */
#include "check.h"

#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cuda_fp8.h>
#include <math.h>
#include <vector>

/* ---- reference ---- */
static double fp8_value(int code, int e4)
{
   int s = code >> 7, E = e4 ? (code >> 3) & 15 : (code >> 2) & 31, M = e4 ? code & 7 : code & 3;
   int mb = e4 ? 3 : 2, bias = e4 ? 7 : 15;
   double v;
   if (e4 && E == 15 && M == 7)
      return NAN;
   if (!e4 && E == 31)
      v = M ? NAN : INFINITY;
   else if (E == 0)
      v = ldexp((double)M, 1 - bias - mb);
   else
      v = ldexp((double)(M + (1 << mb)), E - bias - mb);
   return s ? -v : v;
}
static double half_value(unsigned p)
{
   int E = (p >> 10) & 31, M = p & 1023;
   double v = E == 31 ? (M ? NAN : INFINITY) : E == 0 ? ldexp(M, -24) : ldexp(M + 1024, E - 25);
   return p >> 15 ? -v : v;
}
static bool fp8_isnan(int code, int e4) { return isnan(fp8_value(code, e4)); }
static int max_code(int e4) { return e4 ? 0x7e : 0x7b; }

/* expected code for x; -1: any NaN */
static int ref_narrow(double x, int e4, int sat)
{
   if (isnan(x))
      return -1;
   int s = signbit(x) ? 0x80 : 0;
   double a = fabs(x);
   int mx = max_code(e4), best = 0;
   double past = e4 ? 480.0 : 65536.0;   /* the next value, were the exponent unbounded */
   bool over = a >= past;   /* (and keeps the differences below exact) */
   if (!over) {
      double bd = INFINITY;
      for (int c = 0; c <= mx + 1; c++) {
         double v = c <= mx ? fp8_value(c, e4) : past;
         double d = fabs(a - v);
         if (d < bd || (d == bd && !(c & 1))) {
            bd = d;
            best = c;
         }
      }
      over = best == mx + 1;
   }
   if (over)
      return sat ? (s | mx) : e4 ? -1 : (s | 0x7c);
   return s | best;
}
static unsigned short ref_half_bits(double v)
{
   if (isnan(v))
      return 0x7e00;
   unsigned short s = signbit(v) ? 0x8000 : 0;
   double a = fabs(v);
   if (isinf(a))
      return s | 0x7c00;
   if (a == 0)
      return s;
   int e;
   double m = frexp(a, &e);   /* a = m 2^e, m in [0.5, 1) */
   int E = e - 1 + 15;
   if (E >= 1)
      return s | (unsigned short)(E << 10) | (unsigned short)((m * 2 - 1) * 1024);
   return s | (unsigned short)(a * 16777216.0);   /* a multiple of 2^-24 */
}

/* ---- device ---- */
/* one input to the four codes: o[k], k = 0 e4m3 nosat, 1 e4m3 satfinite,
 * 2 e5m2 nosat, 3 e5m2 satfinite */
__device__ __nv_fp8_storage_t to8(float x, __nv_saturation_t s, __nv_fp8_interpretation_t f)
{
   return __nv_cvt_float_to_fp8(x, s, f);
}
__device__ __nv_fp8_storage_t to8(double x, __nv_saturation_t s, __nv_fp8_interpretation_t f)
{
   return __nv_cvt_double_to_fp8(x, s, f);
}
__device__ __nv_fp8_storage_t to8(__half_raw x, __nv_saturation_t s, __nv_fp8_interpretation_t f)
{
   return __nv_cvt_halfraw_to_fp8(x, s, f);
}
__device__ __nv_fp8_storage_t to8(__nv_bfloat16_raw x, __nv_saturation_t s, __nv_fp8_interpretation_t f)
{
   return __nv_cvt_bfloat16raw_to_fp8(x, s, f);
}
template <typename T> __device__ void all4(T x, unsigned char *o)
{
   for (int k = 0; k < 4; k++)
      o[k] = to8(x, k & 1 ? __NV_SATFINITE : __NV_NOSAT, k < 2 ? __NV_E4M3 : __NV_E5M2);
}
template <typename T> __global__ void k_narrow(const T *in, unsigned char *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      all4(in[i], out + 4 * i);
}
/* the pair, class and x4 forms, all satfinite except the pair's nosat:
 * out[8 i + k]: 0/1 x2 e4m3 nosat (lo, hi), 2/3 x2 e5m2 satfinite,
 * 4 class e4m3, 5 class e5m2, 6 x4 e4m3 byte, 7 x4 e5m2 byte */
__global__ void k_forms(const float *in, unsigned char *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float f = in[i], g = in[n - 1 - i];
   __nv_fp8x2_storage_t a = __nv_cvt_float2_to_fp8x2(make_float2(f, g), __NV_NOSAT, __NV_E4M3);
   __nv_fp8x2_storage_t b = __nv_cvt_float2_to_fp8x2(make_float2(f, g), __NV_SATFINITE, __NV_E5M2);
   out[8 * i + 0] = a & 0xff;
   out[8 * i + 1] = a >> 8;
   out[8 * i + 2] = b & 0xff;
   out[8 * i + 3] = b >> 8;
   out[8 * i + 4] = __nv_fp8_e4m3(f).__x;
   out[8 * i + 5] = __nv_fp8_e5m2(f).__x;
   int lane = i & 3;
   float4 v = make_float4(lane == 0 ? f : 1.0f, lane == 1 ? f : 1.0f, lane == 2 ? f : 1.0f, lane == 3 ? f : 1.0f);
   out[8 * i + 6] = (__nv_fp8x4_e4m3(v).__x >> (8 * lane)) & 0xff;
   out[8 * i + 7] = (__nv_fp8x4_e5m2(v).__x >> (8 * lane)) & 0xff;
}
/* every 16-bit pattern as half and as bfloat16: out[8 p + k], k as all4
 * for half, 4 + k for bfloat16 */
__global__ void k_16(unsigned char *out)
{
   int p = blockIdx.x * blockDim.x + threadIdx.x;
   if (p >= 65536)
      return;
   __half_raw h;
   h.x = (unsigned short)p;
   __nv_bfloat16_raw b;
   b.x = (unsigned short)p;
   all4(h, out + 8 * p);
   all4(b, out + 8 * p + 4);
}
/* every code back: h[4 c + k]: 0 e4m3 halfraw, 1 e5m2 halfraw, 2/3 the
 * x2 form's lanes (e4m3 code c low, e5m2 code 255 - c high... as e4m3 and
 * e5m2 pairs); f[2 c + k]: float of the e4m3 / e5m2 class */
__global__ void k_back(unsigned short *h, float *f)
{
   int c = threadIdx.x;
   h[4 * c + 0] = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E4M3).x;
   h[4 * c + 1] = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, __NV_E5M2).x;
   __half2_raw p = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(c | (255 - c) << 8), __NV_E4M3);
   __half2_raw q = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(c | (255 - c) << 8), __NV_E5M2);
   h[4 * c + 2] = p.y;   /* e4m3 code 255 - c */
   h[4 * c + 3] = q.x;   /* e5m2 code c */
   __nv_fp8_e4m3 a;
   a.__x = (__nv_fp8_storage_t)c;
   __nv_fp8_e5m2 b;
   b.__x = (__nv_fp8_storage_t)c;
   f[2 * c + 0] = float(a);
   f[2 * c + 1] = float(b);
}

/* e8m0 (CUDA 12.8 and later): positive normal floats in both documented
 * rounding modes, satfinite; out[2 i + k], k = 0 cudaRoundZero, 1
 * cudaRoundPosInf (the class constructor); back[c]: every code to bf16 */
__global__ void k_e8m0(const float *in, unsigned char *out, int n, unsigned short *back)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < 256)
      back[i] = __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)i).x;
   if (i >= n)
      return;
   out[2 * i + 0] = __nv_cvt_float_to_e8m0(in[i], __NV_SATFINITE, cudaRoundZero);
   out[2 * i + 1] = __nv_fp8_e8m0(in[i]).__x;
}

/* CCCL over the fp8 types (its fp8 support is on with metalcuda's header):
 * limits and classification, on the device */
__global__ void k_cccl(unsigned char *o)
{
   __nv_fp8_e4m3 nan4;
   nan4.__x = 0xff;
   __nv_fp8_e5m2 inf5;
   inf5.__x = 0xfc;
   o[0] = cuda::std::numeric_limits<__nv_fp8_e4m3>::max().__x;
   o[1] = cuda::std::numeric_limits<__nv_fp8_e4m3>::lowest().__x;
   o[2] = cuda::std::numeric_limits<__nv_fp8_e5m2>::max().__x;
   o[3] = cuda::std::numeric_limits<__nv_fp8_e5m2>::infinity().__x;
   o[4] = cuda::std::isnan(nan4);
   o[5] = cuda::std::isinf(inf5);
   o[6] = cuda::std::isnan(inf5);
   o[7] = cuda::std::numeric_limits<__nv_fp8_e4m3>::denorm_min().__x;
}

/* ---- host ---- */
static float nextf(float x, float dir) { return nextafterf(x, dir); }

static void check_code(int got, int want, int e4, const char *what, double x, int k)
{
   bool ok = want < 0 ? fp8_isnan(got, e4) : got == want;
   if (!ok) {
      char msg[200];
      snprintf(msg, sizeof msg, "%s[%d] of %.17g (%a): got 0x%02x, want %s0x%02x", what, k, x, x, got,
               want < 0 ? "a NaN, e.g. " : "", want < 0 ? 0x7f : want);
      check_true(false, msg, __FILE__, __LINE__);
   } else
      check_true(true, what, __FILE__, __LINE__);
}

int main()
{
   check_begin("fp8_convert");

   /* the float set */
   std::vector<float> fs;
   for (int e4 = 0; e4 < 2; e4++) {
      int mx = max_code(e4);
      double past = e4 ? 480.0 : 65536.0;
      for (int c = 0; c <= mx; c++) {
         float v = (float)fp8_value(c, e4);
         float nxt = (float)(c < mx ? fp8_value(c + 1, e4) : past);
         float mid = (float)((fp8_value(c, e4) + nxt) / 2);   /* exact in float */
         float pts[] = {v, nextf(v, INFINITY), nextf(v, -INFINITY), mid, nextf(mid, INFINITY), nextf(mid, -INFINITY)};
         for (float p : pts) {
            fs.push_back(p);
            fs.push_back(-p);
         }
      }
   }
   float extra[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-45f, 1e-40f, 1.17549435e-38f, 3.4028235e38f,
                    1e30f, 500.0f, 1000.0f, 60000.0f, 61439.99f, 61440.0f, 61441.0f, 65536.0f, 70000.0f,
                    1e6f, 464.0f, 463.99997f, 464.00003f, 480.0f, 481.0f, 0x1p-10f, 0x1p-11f, 0x1p-17f, 0x1p-18f};
   for (float x : extra) {
      fs.push_back(x);
      fs.push_back(-x);
   }
   uint32_t r = 12345;
   for (int i = 0; i < 20000; i++) {   /* random floats in about 2^-20 .. 2^18 */
      r = r * 1664525u + 1013904223u;
      uint32_t u = (r >> 9) | ((uint32_t)(107 + (r >> 3) % 38) << 23) | (r & 0x80000000u);
      fs.push_back(bits_f32(u));
   }
   int n = (int)fs.size();

   float *d_f;
   unsigned char *d_o, *d_o2, *d_16;
   CHECK_CUDA(cudaMalloc(&d_f, n * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&d_o, 4 * n));
   CHECK_CUDA(cudaMalloc(&d_o2, 8 * n));
   CHECK_CUDA(cudaMalloc(&d_16, 8 * 65536));
   CHECK_CUDA(cudaMemcpy(d_f, fs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
   k_narrow<<<(n + 255) / 256, 256>>>(d_f, d_o, n);
   k_forms<<<(n + 255) / 256, 256>>>(d_f, d_o2, n);
   k_16<<<256, 256>>>(d_16);
   CHECK_CUDA(cudaGetLastError());
   std::vector<unsigned char> o(4 * n), o2(8 * n), o16(8 * 65536);
   CHECK_CUDA(cudaMemcpy(o.data(), d_o, 4 * n, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(o2.data(), d_o2, 8 * n, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(o16.data(), d_16, 8 * 65536, cudaMemcpyDeviceToHost));

   for (int i = 0; i < n; i++) {
      double x = fs[i], y = fs[n - 1 - i];
      for (int k = 0; k < 4; k++)
         check_code(o[4 * i + k], ref_narrow(x, k < 2, k & 1), k < 2, "float_to_fp8", x, k);
      check_code(o2[8 * i + 0], ref_narrow(x, 1, 0), 1, "float2_to_fp8x2 e4m3 nosat lo", x, 0);
      check_code(o2[8 * i + 1], ref_narrow(y, 1, 0), 1, "float2_to_fp8x2 e4m3 nosat hi", y, 1);
      check_code(o2[8 * i + 2], ref_narrow(x, 0, 1), 0, "float2_to_fp8x2 e5m2 satfinite lo", x, 2);
      check_code(o2[8 * i + 3], ref_narrow(y, 0, 1), 0, "float2_to_fp8x2 e5m2 satfinite hi", y, 3);
      check_code(o2[8 * i + 4], ref_narrow(x, 1, 1), 1, "__nv_fp8_e4m3(float)", x, 4);
      check_code(o2[8 * i + 5], ref_narrow(x, 0, 1), 0, "__nv_fp8_e5m2(float)", x, 5);
      check_code(o2[8 * i + 6], ref_narrow(x, 1, 1), 1, "__nv_fp8x4_e4m3(float4)", x, 6);
      check_code(o2[8 * i + 7], ref_narrow(x, 0, 1), 0, "__nv_fp8x4_e5m2(float4)", x, 7);
   }
   for (int p = 0; p < 65536; p++) {
      double hv = half_value((unsigned)p);
      double bv = (double)bits_f32((uint32_t)p << 16);
      for (int k = 0; k < 4; k++) {
         check_code(o16[8 * p + k], ref_narrow(hv, k < 2, k & 1), k < 2, "halfraw_to_fp8", hv, k);
         check_code(o16[8 * p + 4 + k], ref_narrow(bv, k < 2, k & 1), k < 2, "bfloat16raw_to_fp8", bv, k);
      }
   }

   /* doubles: the float set, and 2^-40 relatively either side of every
    * midpoint (a double rounding through float would land on the tie) */
   std::vector<double> ds(fs.begin(), fs.end());
   for (int e4 = 0; e4 < 2; e4++) {
      int mx = max_code(e4);
      double past = e4 ? 480.0 : 65536.0;
      for (int c = 0; c <= mx; c++) {
         double nxt = c < mx ? fp8_value(c + 1, e4) : past;
         double mid = (fp8_value(c, e4) + nxt) / 2;
         double pts[] = {mid * (1 + 0x1p-40), mid * (1 - 0x1p-40)};
         for (double p : pts) {
            ds.push_back(p);
            ds.push_back(-p);
         }
      }
   }
   double dx[] = {1e300, -1e300, 4.9e-324, 1e-310, 0x1p-1074};
   for (double x : dx)
      ds.push_back(x);
   int nd = (int)ds.size();
   double *d_d;
   unsigned char *d_od;
   CHECK_CUDA(cudaMalloc(&d_d, nd * sizeof(double)));
   CHECK_CUDA(cudaMalloc(&d_od, 4 * nd));
   CHECK_CUDA(cudaMemcpy(d_d, ds.data(), nd * sizeof(double), cudaMemcpyHostToDevice));
   k_narrow<<<(nd + 255) / 256, 256>>>(d_d, d_od, nd);
   CHECK_CUDA(cudaGetLastError());
   std::vector<unsigned char> od(4 * nd);
   CHECK_CUDA(cudaMemcpy(od.data(), d_od, 4 * nd, cudaMemcpyDeviceToHost));
   for (int i = 0; i < nd; i++)
      for (int k = 0; k < 4; k++)
         check_code(od[4 * i + k], ref_narrow(ds[i], k < 2, k & 1), k < 2, "double_to_fp8", ds[i], k);

   /* back to half and float */
   unsigned short *d_h;
   float *d_bf;
   CHECK_CUDA(cudaMalloc(&d_h, 4 * 256 * sizeof(unsigned short)));
   CHECK_CUDA(cudaMalloc(&d_bf, 2 * 256 * sizeof(float)));
   k_back<<<1, 256>>>(d_h, d_bf);
   CHECK_CUDA(cudaGetLastError());
   unsigned short hb[4 * 256];
   float fb[2 * 256];
   CHECK_CUDA(cudaMemcpy(hb, d_h, sizeof hb, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(fb, d_bf, sizeof fb, cudaMemcpyDeviceToHost));
   for (int c = 0; c < 256; c++) {
      int codes[4] = {c, c, 255 - c, c}, e4s[4] = {1, 0, 1, 0};
      for (int k = 0; k < 4; k++) {
         double v = fp8_value(codes[k], e4s[k]);
         unsigned short got = hb[4 * c + k];
         bool ok = isnan(v) ? ((got & 0x7c00) == 0x7c00 && (got & 0x3ff)) : got == ref_half_bits(v);
         if (!ok)
            printf("fp8 0x%02x (%s, form %d) to half: got 0x%04x, want 0x%04x\n", codes[k], e4s[k] ? "e4m3" : "e5m2", k,
                   got, ref_half_bits(v));
         CHECK(ok);
      }
      for (int k = 0; k < 2; k++) {
         double v = fp8_value(c, k == 0);
         if (isnan(v))
            CHECK(isnan(fb[2 * c + k]));
         else
            CHECK_F32(fb[2 * c + k], (float)v);
      }
   }
   /* e8m0: 2^k, 2^k (1 + 2^-23), 1.5 2^k and the float below 2^(k+1),
    * for every normal k; NaN */
   std::vector<float> es;
   for (int k = -126; k <= 127; k++) {
      float p = ldexpf(1.0f, k);
      es.push_back(p);
      es.push_back(nextf(p, INFINITY));
      es.push_back(1.5f * p);
      es.push_back(k < 127 ? nextf(2 * p, 0.0f) : 3.4028235e38f);
   }
   es.push_back(NAN);
   int ne = (int)es.size();
   float *d_e;
   unsigned char *d_eo;
   unsigned short *d_eb;
   CHECK_CUDA(cudaMalloc(&d_e, ne * sizeof(float)));
   CHECK_CUDA(cudaMalloc(&d_eo, 2 * ne));
   CHECK_CUDA(cudaMalloc(&d_eb, 256 * sizeof(unsigned short)));
   CHECK_CUDA(cudaMemcpy(d_e, es.data(), ne * sizeof(float), cudaMemcpyHostToDevice));
   k_e8m0<<<(ne + 255) / 256 + 1, 256>>>(d_e, d_eo, ne, d_eb);
   CHECK_CUDA(cudaGetLastError());
   std::vector<unsigned char> eo(2 * ne);
   unsigned short eb[256];
   CHECK_CUDA(cudaMemcpy(eo.data(), d_eo, 2 * ne, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(eb, d_eb, sizeof eb, cudaMemcpyDeviceToHost));
   for (int i = 0; i < ne; i++) {
      double x = es[i];
      int want_z = 0xff, want_p = 0xff;
      if (!isnan(x)) {
         int e;
         double m = frexp(x, &e);   /* x = m 2^e, m in [0.5, 1) */
         want_z = e - 1 + 127;
         want_p = want_z + (m != 0.5);
         if (want_p > 254)
            want_p = 0xfe;   /* satfinite */
      }
      if (eo[2 * i] != want_z || eo[2 * i + 1] != want_p)
         printf("e8m0 of %a: got 0x%02x 0x%02x, want 0x%02x 0x%02x\n", x, eo[2 * i], eo[2 * i + 1], want_z, want_p);
      CHECK(eo[2 * i] == want_z);
      CHECK(eo[2 * i + 1] == want_p);
   }
   for (int c = 0; c < 256; c++) {
      if (c == 255) {
         CHECK((eb[c] & 0x7f80) == 0x7f80 && (eb[c] & 0x7f));
         continue;
      }
      double got = (double)bits_f32((uint32_t)eb[c] << 16);
      if (got != ldexp(1.0, c - 127))
         printf("e8m0 0x%02x to bf16: got 0x%04x\n", c, eb[c]);
      CHECK(got == ldexp(1.0, c - 127));
   }

   unsigned char *d_c, co[8];
   CHECK_CUDA(cudaMalloc(&d_c, 8));
   k_cccl<<<1, 1>>>(d_c);
   CHECK_CUDA(cudaMemcpy(co, d_c, 8, cudaMemcpyDeviceToHost));
   const unsigned char cwant[8] = {0x7e, 0xfe, 0x7b, 0x7c, 1, 1, 0, 0x01};
   for (int k = 0; k < 8; k++)
      CHECK_INT(co[k], cwant[k]);
   return check_end();
}
