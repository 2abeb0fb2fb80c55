/*
 * floatops.cu — single-precision operations whose result IEEE 754 (or the
 * CUDA math library's documented 0-ulp functions) define exactly, on
 * special values crossed with each other (zeros, denormals, the extreme
 * normals, infinities, NaN, halfway cases) and on hashed data.
 *
 * Exact by IEEE: x+y, x-y, x*y, x/y (div.rn: nvcc's default -prec-div=true),
 * sqrtf (sqrt.rn, -prec-sqrt=true), 1.0f/x (rcp.rn), fmaf (one rounding),
 * fabsf, negation, copysignf.  Exact by definition and 0 ulp in the CUDA
 * Math API: truncf, rintf, nearbyintf, floorf, ceilf, ldexpf, frexpf,
 * fdimf, __saturatef (-0.0 gives +0.0, as NVIDIA hardware does).
 * Denormals are kept (no -ftz, no fast math).  roundf and fmodf, whose CUDA
 * implementations use directed rounding (add.rz), are rounding.cu's.
 *
 * The host computes the same operations with its own IEEE single precision
 * (SSE on x86-64; the tests are built with -ffp-contract=off so the host
 * compiler fuses nothing).  Results are compared bit for bit, except that
 * any NaN matches any NaN: the NaN's payload and sign are not specified
 * alike (NVIDIA returns 0x7fffffff, x86 0xffc00000).
 */
#include "check.h"

#include <math.h>

#define OPS_W 22

__global__ void ops(int n, const float *a, const float *b, const float *c, const int *e, float *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float x = a[i], y = b[i], z = c[i];
   float *o = out + i * OPS_W;
   o[0] = x + y;
   o[1] = x - y;
   o[2] = x * y;
   o[3] = x / y;
   o[4] = sqrtf(x);
   o[5] = fmaf(x, y, z);
   o[6] = 1.0f / x;
   o[7] = fabsf(x);
   o[8] = -x;
   o[9] = copysignf(x, y);
   o[10] = truncf(x);
   o[11] = rintf(x);
   o[12] = floorf(x);
   o[13] = ceilf(x);
   o[14] = nearbyintf(y);
   o[15] = __fsqrt_rn(y);
   o[16] = ldexpf(x, e[i]);
   int ex;
   o[17] = frexpf(x, &ex);
   o[18] = __int_as_float(ex);
   o[19] = fdimf(x, y);
   o[20] = __saturatef(x);
   o[21] = __fmul_rn(x, y) + __fadd_rn(z, x);
}

static const float special[] = {
   0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3.0f, 0.1f, -0.3f, 1.0000001f, 0.99999994f,
   1.17549435e-38f,   /* FLT_MIN */
   -1.17549421e-38f,  /* largest denormal */
   1.4e-45f,          /* smallest denormal */
   -2.8e-45f, 5.877472e-39f, 3.4028235e38f, -3.4028235e38f, 1.7014118e38f, 8388608.5f - 0.5f, 8388609.0f,
   4194304.5f, -4194304.5f, 16777215.0f, 1e-20f, 1e20f, -7.0f, 123.456f, 65504.0f,
   INFINITY, -INFINITY, NAN,
};

/* cvt.sat.f32.f32: NaN and everything <= 0, -0.0 included, give +0.0
 * (-0.0 -> +0.0 as an H200 does it). */
static float ref_saturate(float x)
{
   return isnan(x) || x <= 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

int main(void)
{
   check_begin("floatops");
   const int ns = sizeof(special) / sizeof(float), n = ns * ns + 3000;
   float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4), *c = (float *)malloc(n * 4);
   int *e = (int *)malloc(n * 4);
   for (int i = 0; i < n; i++) {
      uint32_t h = mix32((uint32_t)i), g = mix32((uint32_t)i ^ 0xabcdefu);
      if (i < ns * ns) {
         a[i] = special[i / ns];
         b[i] = special[i % ns];
         c[i] = special[(i * 7) % ns];
      } else {
         /* random sign and mantissa, exponents mostly near 1, some extreme */
         a[i] = bits_f32(h % 5 ? (h & 0x807fffffu) | (uint32_t)(110 + g % 36) << 23 : h);
         b[i] = bits_f32(g % 7 ? (g & 0x807fffffu) | (uint32_t)(110 + h % 36) << 23 : g);
         c[i] = bits_f32(mix32(h) & 0xbfffffffu);
      }
      e[i] = (int)(g % 300) - 150;
   }
   float *da, *db, *dc, *dout = (float *)dev_alloc_fill32((size_t)n * OPS_W);
   int *de;
   REQUIRE_CUDA(cudaMalloc(&da, n * 4));
   REQUIRE_CUDA(cudaMalloc(&db, n * 4));
   REQUIRE_CUDA(cudaMalloc(&dc, n * 4));
   REQUIRE_CUDA(cudaMalloc(&de, n * 4));
   REQUIRE_CUDA(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(dc, c, n * 4, cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(de, e, n * 4, cudaMemcpyHostToDevice));
   CHECK(dout != NULL);
   ops<<<(n + 127) / 128, 128>>>(n, da, db, dc, de, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   float *got = (float *)malloc((size_t)n * OPS_W * 4), *want = (float *)malloc((size_t)n * OPS_W * 4);
   CHECK_CUDA(cudaMemcpy(got, dout, (size_t)n * OPS_W * 4, cudaMemcpyDeviceToHost));

   for (int i = 0; i < n; i++) {
      float x = a[i], y = b[i], z = c[i], *w = want + i * OPS_W;
      volatile float vx = x, vy = y;   /* no constant folding in another mode */
      w[0] = vx + vy;
      w[1] = vx - vy;
      w[2] = vx * vy;
      w[3] = vx / vy;
      w[4] = sqrtf(vx);
      w[5] = fmaf(x, y, z);
      w[6] = 1.0f / vx;
      w[7] = fabsf(x);
      w[8] = -x;
      w[9] = copysignf(x, y);
      w[10] = truncf(x);
      w[11] = rintf(x);
      w[12] = floorf(x);
      w[13] = ceilf(x);
      w[14] = nearbyintf(y);
      w[15] = sqrtf(vy);
      w[16] = ldexpf(x, e[i]);
      int ex = 0;
      w[17] = frexpf(x, &ex);
      if (isinf(x) || isnan(x))
         ex = 0;   /* unspecified by C; CUDA gives 0 */
      w[18] = bits_f32((uint32_t)ex);
      w[19] = fdimf(x, y);
      w[20] = ref_saturate(x);
      float p = vx * vy, q = z + vx;
      w[21] = p + q;
   }
   static const char *const names[OPS_W] = {
      "x+y", "x-y", "x*y", "x/y", "sqrtf", "fmaf", "1/x", "fabsf", "-x", "copysignf", "truncf", "rintf", "floorf",
      "ceilf", "nearbyintf(y)", "__fsqrt_rn(y)", "ldexpf", "frexpf", "frexpf exponent", "fdimf", "__saturatef", "mul+add",
   };
   int bad = 0;
   for (int i = 0; i < n * OPS_W; i++) {
      float g = got[i], w = want[i];
      if (f32_bits(g) == f32_bits(w) || (isnan(g) && isnan(w) && i % OPS_W != 18))
         continue;
      int k = i / OPS_W;
      if (bad++ < 24)
         printf("    %s (x=%a y=%a z=%a e=%d): got %a (0x%08x), expected %a (0x%08x)\n", names[i % OPS_W], a[k], b[k],
                c[k], e[k], g, f32_bits(g), w, f32_bits(w));
   }
   check_int(bad, 0, "results that differ from the host reference (the first are shown above)", __FILE__, __LINE__);
   /* a few spelled out: denormals are neither flushed nor lost */
   CHECK_F32(want[(14 * ns + 4) * OPS_W + 2], 5.877472e-39f);   /* FLT_MIN * 0.5 */
   CHECK_F32(got[(14 * ns + 4) * OPS_W + 2], 5.877472e-39f);
   CHECK_F32(got[(16 * ns + 16) * OPS_W + 0], 2.8e-45f);        /* smallest + smallest */
   CHECK_F32(got[(0 * ns + 7) * OPS_W + 14], 2.0f);             /* nearbyintf(2.5) */
   CHECK_F32(got[(7 * ns + 0) * OPS_W + 11], 2.0f);             /* rintf(2.5) */

   cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(de), cudaFree(dout);
   free(a), free(b), free(c), free(e), free(got), free(want);
   return check_end();
}
