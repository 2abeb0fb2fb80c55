/*
 * intfloat.cu — integer/float conversions, integer arithmetic with
 * negative operands, signed vs unsigned comparisons, min/max, int and float
 * mixed in one expression (with fmaf), and a nested conditional with a
 * switch, on special values and on hashed data.
 *
 * The host references are written independently in plain C:
 *  - float→int conversions follow the PTX ISA (cvt, "Floating point to
 *    integer conversions saturate"; NaN gives 0): the reference rounds in
 *    double and clamps by hand.  The device side uses the __float2int_*
 *    intrinsics (defined for every input), and a plain (int) cast only on
 *    in-range values (out of range it is undefined behaviour in C++).
 *  - int→float, integer / and % (C truncates towards zero), >> of a
 *    negative int (arithmetic on both nvcc's host compiler and the device),
 *    fminf/fmaxf (PTX min/max: a NaN operand gives the other operand, also
 *    a signalling NaN, where glibc's fminf differs; two NaNs give some
 *    NaN), float comparisons with NaN: the exact result is defined, so
 *    every comparison is bit for bit.
 *  - Ties at ±0 in fminf/fmaxf are left out: C lets either zero be
 *    returned.
 */
#include "check.h"

#include <limits.h>
#include <math.h>

#define CONV_W 8   /* words written per input by conv */
#define INT_W 12   /* words written per pair by intops */
#define CMP_W 3    /* words written per pair by floatcmp */

__global__ void conv(int n, const float *f, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = f[i];
   int *o = out + i * CONV_W;
   o[0] = __float2int_rz(x);
   o[1] = __float2int_rn(x);
   o[2] = __float2int_rd(x);
   o[3] = __float2int_ru(x);
   o[4] = (int)__float2uint_rz(x);
   o[5] = (int)__float2uint_rn(x);
   /* a plain C cast, only where it is defined */
   o[6] = (x > -2147483648.0f && x < 2147483648.0f) ? (int)x : 12345;
   o[7] = (x > -1.0f && x < 4294967296.0f) ? (int)(unsigned)x : 54321;
}

__global__ void i2f(int n, const int *iv, float *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   int k = iv[i];
   unsigned u = (unsigned)k;
   out[i * 4 + 0] = (float)k;
   out[i * 4 + 1] = (float)u;
   out[i * 4 + 2] = (float)((long long)k * 4097);
   out[i * 4 + 3] = (float)((unsigned long long)u * 0x100000001ull);
}

__global__ void intops(int n, const int *a, const int *b, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   int x = a[i], y = b[i];
   unsigned ux = (unsigned)x, uy = (unsigned)y;
   int *o = out + i * INT_W;
   o[0] = x / y;
   o[1] = x % y;
   o[2] = (int)(ux / uy);
   o[3] = (int)(ux % uy);
   o[4] = min(x, y);
   o[5] = max(x, y);
   o[6] = (int)min(ux, uy);
   o[7] = (int)max(ux, uy);
   o[8] = x >> (y & 31);
   o[9] = (int)(ux >> (y & 31));
   o[10] = (x < y) | (ux < uy) << 1 | (x <= y) << 2 | (ux >= uy) << 3 | (x == y) << 4 | (x > 0 && ux > 7u) << 5;
   o[11] = __mulhi(x, y) ^ (int)__umulhi(ux, uy);
}

__global__ void floatcmp(int n, const float *x, const float *y, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float f = x[i], g = y[i];
   out[i * CMP_W + 0] = (f < g) | (f <= g) << 1 | (f > g) << 2 | (f >= g) << 3 | (f == g) << 4 | (f != g) << 5 |
                        !(f < g) << 6 | (f != f) << 7;
   out[i * CMP_W + 1] = __float_as_int(fminf(f, g));
   out[i * CMP_W + 2] = __float_as_int(fmaxf(f, g));
}

/* int and float mixed in one expression: int->float, fmaf, a rounding
 * float->int, then integer min/max, / and % on negative values. */
__global__ void mix(int n, const float *f, const int *iv, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = f[i];
   int k = iv[i];
   float y = fmaf((float)(k % 1000), 0.25f, x);
   int r = __float2int_rn(y);
   out[i * 2 + 0] = r;
   out[i * 2 + 1] = (k < 0 && x < 0.0f) ? max(r, k / 7) : min(r, k % 7 - (int)(unsigned)(k & 0xff));
}

__device__ int classify(float x, int k)
{
   int code;
   if (x != x) {
      code = 1;
   } else if (x < 0.0f) {
      if (x < -100.0f)
         code = k > 0 ? 2 : 3;
      else if (k % 2 == 0)
         code = 4;
      else
         code = 5;
   } else {
      if (x == 0.0f)
         code = 6;
      else if (x >= 1e6f) {
         if ((unsigned)k < 10u)
            code = 7;
         else
            code = 8;
      } else
         code = 9 + (k & 3);
   }
   switch (code) {
   case 2:
      code += 100;   /* falls through */
   case 3:
      code += 10;
      break;
   case 9:
   case 10:
      code *= 3;
      break;
   case 12:
      return -code;
   default:
      break;
   }
   return code + (__float2int_rz(x * 0.5f) & 0xff) * 1000;
}

__global__ void classify_k(int n, const float *x, const int *k, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = classify(x[i], k[i]);
}

/* ---- host references ---- */

static int ref_f2i(float f, int mode)   /* 0 rz, 1 rn, 2 rd, 3 ru */
{
   if (isnan(f))
      return 0;
   double d = f;
   double r = mode == 0 ? trunc(d) : mode == 1 ? nearbyint(d) : mode == 2 ? floor(d) : ceil(d);
   if (r >= 2147483648.0)
      return INT_MAX;
   if (r <= -2147483649.0)
      return INT_MIN;
   return (int)r;
}

static unsigned ref_f2u(float f, int mode)
{
   if (isnan(f))
      return 0;
   double d = f;
   double r = mode == 0 ? trunc(d) : nearbyint(d);
   if (r >= 4294967296.0)
      return UINT_MAX;
   if (r <= 0.0)
      return 0;
   return (unsigned)r;
}

/* PTX min/max.f32: a NaN operand gives the other operand, signalling NaNs
 * included (glibc's fminf returns a NaN for a signalling one, as IEEE
 * 754-2008 minNum does, so it is no reference here). */
static float ref_fmin(float f, float g)
{
   return isnan(f) ? g : isnan(g) ? f : f < g ? f : g;
}

static float ref_fmax(float f, float g)
{
   return isnan(f) ? g : isnan(g) ? f : f > g ? f : g;
}

/* *leaf says which of the 12 outcomes was taken. */
static int ref_classify(float x, int k, int *leaf)
{
   int code;
   if (isnan(x))
      *leaf = 1, code = 1;
   else if (x < -100.0f)
      *leaf = k > 0 ? 2 : 3, code = k > 0 ? 2 + 100 + 10 : 3 + 10;
   else if (x < 0.0f)
      *leaf = k % 2 == 0 ? 4 : 5, code = *leaf;
   else if (x == 0.0f)
      *leaf = 6, code = 6;
   else if (x >= 1e6f)
      *leaf = k >= 0 && k < 10 ? 7 : 8, code = *leaf;
   else {
      int q = k & 3;   /* 9, 10 tripled; 12 returned negated */
      *leaf = 9 + q;
      code = q == 0 ? 27 : q == 1 ? 30 : q == 2 ? 11 : -12;
      if (code < 0)
         return code;
   }
   return code + (ref_f2i(x * 0.5f, 0) & 0xff) * 1000;
}

static const float special_floats[] = {
   0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 3.5f, -3.5f, 0.49999997f, -0.49999997f,
   1.0000001f, -3.7f, 123456.789f, 4194304.5f, 4194305.5f, -4194304.5f, 8388607.5f, 16777216.0f,
   2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f, 4294967296.0f,
   1e10f, -1e10f, 1e-30f, -1e-30f, 1.4e-45f, 99.99f, -100.5f, -100.0f, 1e6f, 999999.94f,
   INFINITY, -INFINITY, NAN, -NAN,
};
static const int special_ints[] = {
   0, 1, -1, 7, -7, 16777216, 16777217, -16777217, 33554435, INT_MAX, INT_MIN, INT_MIN + 1,
   0x7fffffc0, 0x7fffffbf, -0x7fffffc1, (int)0x80000001u, (int)0xffffff7fu, 2, -2, 1000, -1000,
};

/* Prints each mismatching field by name. */
static void check_fields(const char *what, const int *got, const int *want, int n, int w, const char *const *names)
{
   int bad = 0;
   for (int i = 0; i < n * w; i++)
      if (got[i] != want[i] && bad++ < 12)
         printf("    %s[%d].%s: got %d (%#x), expected %d (%#x)\n", what, i / w, names[i % w], got[i],
                (unsigned)got[i], want[i], (unsigned)want[i]);
   check_int(bad, 0, what, __FILE__, __LINE__);
}

template <typename T> static T *upload(const T *h, int n)
{
   T *d = NULL;
   if (cudaMalloc(&d, n * sizeof(T)) != cudaSuccess || cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess)
      return NULL;
   return d;
}

static void download(void *h, const void *d, size_t bytes)
{
   memset(h, 0xcd, bytes);
   CHECK_CUDA(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
}

int main(void)
{
   check_begin("intfloat");
   const int ns = sizeof(special_floats) / sizeof(float), nsi = sizeof(special_ints) / sizeof(int);
   const int n = 4133;

   /* inputs: special values first, then hashed data */
   float *fx = (float *)malloc(n * 4), *fy = (float *)malloc(n * 4);
   int *ia = (int *)malloc(n * 4), *ib = (int *)malloc(n * 4);
   for (int i = 0; i < n; i++) {
      uint32_t h = mix32((uint32_t)i);
      fx[i] = i < ns ? special_floats[i] : (float)((int)(h % 4000001u) - 2000000) / 64.0f;
      if (i >= ns && i % 11 == 0)
         fx[i] = bits_f32(h);   /* any bit pattern, NaNs and denormals too */
   }
   for (int i = 0; i < n; i++) {
      uint32_t h = mix32((uint32_t)i), g = mix32((uint32_t)i + 0x1000u);
      fy[i] = i % 5 == 0 ? fx[i] : fx[(i * 7 + 3) % (i < ns ? ns : n)];
      ia[i] = i < nsi ? special_ints[i] : (int)h >> (g % 24);
      ib[i] = i < nsi * nsi ? special_ints[i % nsi] : (int)g >> (h % 29);
      if (i < nsi * nsi)
         ia[i] = special_ints[i / nsi];
      if (ib[i] == 0 || (ia[i] == INT_MIN && ib[i] == -1))
         ib[i] = 3;   /* division is undefined there */
   }
   float *dfx = upload(fx, n), *dfy = upload(fy, n);
   int *dia = upload(ia, n), *dib = upload(ib, n);
   CHECK(dfx && dfy && dia && dib);
   const int tpb = 128, blocks = (n + tpb - 1) / tpb;

   /* float → int */
   {
      int *d = (int *)dev_alloc_fill32(n * CONV_W), *got = (int *)malloc(n * CONV_W * 4);
      int *want = (int *)malloc(n * CONV_W * 4);
      conv<<<blocks, tpb>>>(n, dfx, d);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      download(got, d, n * CONV_W * 4);
      for (int i = 0; i < n; i++) {
         float x = fx[i];
         int *w = want + i * CONV_W;
         for (int m = 0; m < 4; m++)
            w[m] = ref_f2i(x, m);
         w[4] = (int)ref_f2u(x, 0);
         w[5] = (int)ref_f2u(x, 1);
         w[6] = (x > -2147483648.0f && x < 2147483648.0f) ? (int)trunc((double)x) : 12345;
         w[7] = (x > -1.0f && x < 4294967296.0f) ? (int)(unsigned)trunc((double)x) : 54321;
      }
      static const char *const names[] = { "f2i_rz", "f2i_rn", "f2i_rd", "f2i_ru", "f2u_rz", "f2u_rn", "(int)", "(unsigned)" };
      check_fields("float->int", got, want, n, CONV_W, names);
      /* a few spelled out */
      CHECK_INT(got[2 * CONV_W + 1], 0);            /* rn(0.5) = 0 */
      CHECK_INT(got[6 * CONV_W + 1], 2);            /* rn(2.5) = 2 */
      CHECK_INT(got[7 * CONV_W + 1], -2);           /* rn(-2.5) = -2 */
      CHECK_INT(got[13 * CONV_W + 0], -3);          /* rz(-3.7) = -3 */
      CHECK_INT(got[13 * CONV_W + 2], -4);          /* rd(-3.7) = -4 */
      CHECK_INT(got[21 * CONV_W + 0], INT_MAX);     /* 2^31 saturates */
      CHECK_INT(got[38 * CONV_W + 0], 0);           /* NaN -> 0 */
      CHECK_INT(got[5 * CONV_W + 4], 0);            /* (unsigned)-1.5 saturates to 0 */
      cudaFree(d);
      free(got), free(want);
   }

   /* int → float */
   {
      float *d = (float *)dev_alloc_fill32(n * 4), *got = (float *)malloc(n * 16), *want = (float *)malloc(n * 16);
      i2f<<<blocks, tpb>>>(n, dia, d);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      download(got, d, n * 16);
      for (int i = 0; i < n; i++) {
         want[i * 4 + 0] = (float)ia[i];
         want[i * 4 + 1] = (float)(unsigned)ia[i];
         want[i * 4 + 2] = (float)((long long)ia[i] * 4097);
         want[i * 4 + 3] = (float)((unsigned long long)(unsigned)ia[i] * 0x100000001ull);
      }
      CHECK_ARRAY_F32("int->float (s32, u32, s64, u64)", got, want, n * 4);
      CHECK_F32(got[6 * nsi * 4 + 0], 16777216.0f);        /* 16777217 rounds to even */
      CHECK_F32(got[9 * nsi * 4 + 0], 2147483648.0f);      /* INT_MAX rounds up */
      CHECK_F32(got[2 * nsi * 4 + 1], 4294967296.0f);      /* (float)0xffffffffu */
      cudaFree(d);
      free(got), free(want);
   }

   /* integer arithmetic */
   {
      int *d = (int *)dev_alloc_fill32(n * INT_W), *got = (int *)malloc(n * INT_W * 4), *want = (int *)malloc(n * INT_W * 4);
      intops<<<blocks, tpb>>>(n, dia, dib, d);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      download(got, d, n * INT_W * 4);
      for (int i = 0; i < n; i++) {
         int x = ia[i], y = ib[i];
         unsigned ux = (unsigned)x, uy = (unsigned)y;
         int *w = want + i * INT_W;
         w[0] = x / y;
         w[1] = x % y;
         w[2] = (int)(ux / uy);
         w[3] = (int)(ux % uy);
         w[4] = x < y ? x : y;
         w[5] = x > y ? x : y;
         w[6] = (int)(ux < uy ? ux : uy);
         w[7] = (int)(ux > uy ? ux : uy);
         w[8] = (int)floor((double)x / (double)(1ll << (y & 31)));   /* arithmetic shift */
         w[9] = (int)(ux >> (y & 31));
         w[10] = (x < y) | (ux < uy) << 1 | (x <= y) << 2 | (ux >= uy) << 3 | (x == y) << 4 | (x > 0 && ux > 7u) << 5;
         w[11] = (int)(((long long)x * y) >> 32) ^ (int)(((unsigned long long)ux * uy) >> 32);
      }
      static const char *const names[] = { "x/y", "x%y", "ux/uy", "ux%uy", "min", "max", "umin", "umax", "x>>s", "ux>>s", "compares", "mulhi^umulhi" };
      check_fields("intops", got, want, n, INT_W, names);
      /* (-7, 2): the row of special_ints[4] x special_ints[17] */
      int r = 4 * nsi + 17;
      CHECK_INT(ia[r], -7);
      CHECK_INT(ib[r], 2);
      CHECK_INT(got[r * INT_W + 0], -3);
      CHECK_INT(got[r * INT_W + 1], -1);
      CHECK_INT(got[r * INT_W + 4], -7);
      CHECK_INT(got[r * INT_W + 6], 2);              /* unsigned min(-7u, 2u) */
      CHECK_INT(got[r * INT_W + 8], -2);             /* -7 >> 2 */
      cudaFree(d);
      free(got), free(want);
   }

   /* float comparisons and fminf/fmaxf */
   {
      int *d = (int *)dev_alloc_fill32(n * CMP_W), *got = (int *)malloc(n * CMP_W * 4), *want = (int *)malloc(n * CMP_W * 4);
      floatcmp<<<blocks, tpb>>>(n, dfx, dfy, d);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      download(got, d, n * CMP_W * 4);
      for (int i = 0; i < n; i++) {
         float f = fx[i], g = fy[i];
         int *w = want + i * CMP_W;
         w[0] = (f < g) | (f <= g) << 1 | (f > g) << 2 | (f >= g) << 3 | (f == g) << 4 | (f != g) << 5 | !(f < g) << 6 |
                (isnan(f) != 0) << 7;
         w[1] = (int)f32_bits(ref_fmin(f, g));
         w[2] = (int)f32_bits(ref_fmax(f, g));
         if (f == 0.0f && g == 0.0f) {   /* either zero may come back */
            got[i * CMP_W + 1] = w[1];
            got[i * CMP_W + 2] = w[2];
         }
         /* a NaN result: any NaN */
         if (isnan(bits_f32((uint32_t)w[1])) && isnan(bits_f32((uint32_t)got[i * CMP_W + 1])))
            got[i * CMP_W + 1] = w[1];
         if (isnan(bits_f32((uint32_t)w[2])) && isnan(bits_f32((uint32_t)got[i * CMP_W + 2])))
            got[i * CMP_W + 2] = w[2];
      }
      static const char *const names[] = { "compares", "fminf", "fmaxf" };
      check_fields("floatcmp", got, want, n, CMP_W, names);
      cudaFree(d);
      free(got), free(want);
   }

   /* int/float mix */
   {
      int *d = (int *)dev_alloc_fill32(n * 2), *got = (int *)malloc(n * 8), *want = (int *)malloc(n * 8);
      mix<<<blocks, tpb>>>(n, dfx, dia, d);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      download(got, d, n * 8);
      for (int i = 0; i < n; i++) {
         float x = fx[i];
         int k = ia[i];
         int r = ref_f2i(fmaf((float)(k % 1000), 0.25f, x), 1);
         int a = k / 7, b = k % 7 - (k & 0xff);
         want[i * 2 + 0] = r;
         want[i * 2 + 1] = (k < 0 && x < 0.0f) ? (r > a ? r : a) : (r < b ? r : b);
      }
      static const char *const names[] = { "rn(fmaf(k%1000, 0.25, x))", "min/max" };
      check_fields("mix", got, want, n, 2, names);
      cudaFree(d);
      free(got), free(want);
   }

   /* nested conditionals */
   {
      int *d = (int *)dev_alloc_fill32(n), *got = (int *)malloc(n * 4), *want = (int *)malloc(n * 4);
      classify_k<<<blocks, tpb>>>(n, dfx, dia, d);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      download(got, d, n * 4);
      int seen[16] = { 0 };
      for (int i = 0; i < n; i++) {
         int leaf = 0;
         want[i] = ref_classify(fx[i], ia[i], &leaf);
         seen[leaf]++;
      }
      for (int c = 1; c <= 12; c++)
         if (!seen[c])
            check_int(c, 0, "an outcome of classify never taken by the data", __FILE__, __LINE__);
      CHECK_ARRAY_I32("classify", got, want, n);
      cudaFree(d);
      free(got), free(want);
   }

   cudaFree(dfx), cudaFree(dfy), cudaFree(dia), cudaFree(dib);
   free(fx), free(fy), free(ia), free(ib);
   return check_end();
}
