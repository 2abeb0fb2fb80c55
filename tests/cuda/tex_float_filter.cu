/*
 * tex_float_filter.cu — linear filtering of float texels, bit for bit, and
 * two rules of what a texture read returns, against a host model of what an
 * H100 computes (CUDA 13.0, driver 580; the model fitted to 458 752 probe
 * reads, tests/cuda/NATIVE.md, twenty-seventh session):
 *
 *  - f32 and half channels, 1-D and 2-D arrays and pitched memory, clamp,
 *    unnormalised coordinates: the texels of the footprint (along an axis
 *    whose weight in 1/256 is 0 the upper one is not read) that have a
 *    non-zero corner weight are aligned to the largest exponent E among
 *    them and truncated toward zero to the significand and 4 bits more (f32:
 *    multiples of 2^(E - 28), half: 2^(E - 15)), summed exactly with the
 *    corner weights, and the sum rounded to the format's precision, ties
 *    away from zero; f32 subnormal texels read as zeros and an f32 result
 *    below 2^-126 is a zero (halves keep theirs); a NaN in the footprint,
 *    or +inf and -inf both, give NaN (f32 0x7fffffff, half 0x7fff), one
 *    infinity gives itself; a zero sum is +0 unless every weighted texel
 *    is -0.  The model here is written with long double arithmetic (the
 *    prelude's with integer shifts);
 *  - a texture over linear memory reads zeros at float coordinates
 *    (tex1D), point or linear, normalised or not; tex1Dfetch reads the
 *    texel;
 *  - a float fetch (tex2D<float4>) of an integer texture read as elements
 *    returns the integers' bits, zero- or sign-extended by the format.
 */
#include "tex_model.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define W 32
#define H 8
#define NP 3072

__global__ void k_read2d(cudaTextureObject_t t, const float2 *p, float4 *o, int n)
{
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
      o[i] = tex2D<float4>(t, p[i].x, p[i].y);
}

__global__ void k_read1d(cudaTextureObject_t t, const float2 *p, float4 *o, int n)
{
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
      o[i] = tex1D<float4>(t, p[i].x);
}

__global__ void k_fetch1d(cudaTextureObject_t t, const float2 *p, float4 *o, int n)
{
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
      o[i] = tex1Dfetch<float4>(t, (int)floorf(p[i].x));
}

static uint32_t rng = 2463534242u;
static uint32_t next(void)
{
   rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
   return rng;
}

static uint32_t bits_of(float f)
{
   uint32_t b;
   memcpy(&b, &f, 4);
   return b;
}

static float float_of(uint32_t b)
{
   float f;
   memcpy(&f, &b, 4);
   return f;
}

static float half_to_float(uint16_t h)
{
   int e = (h >> 10) & 31, m = h & 1023;
   float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
   return (h & 0x8000) ? -v : v;
}

/* Random finite texels: f32 with exponents 2^-6 .. 2^6, halves 2^-5 .. 2^4. */
static uint32_t random_f32(void)
{
   uint32_t e = 127 + next() % 13 - 6;
   return ((next() & 1u) << 31) | (e << 23) | (next() & 0x7fffffu);
}

static uint16_t random_half(void)
{
   return (uint16_t)(((next() & 1u) << 15) | ((10 + next() % 10) << 10) | (next() & 0x3ffu));
}

/* Special texels among random ones: infinities, NaN, subnormals, zeros of
 * both signs, the largest and smallest normals. */
static uint32_t special_f32(void)
{
   static const uint32_t s[] = { 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u, 0x00400000u, 0x807fffffu,
                                 0x7f7fffffu, 0xff7fffffu, 0x80000000u, 0x00000000u, 0x00800000u, 0x80800001u };
   return next() % 3 ? s[next() % 12] : random_f32();
}

static uint16_t special_half(void)
{
   static const uint16_t s[] = { 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x0200, 0x83ff, 0x7bff, 0xfbff,
                                 0x8000, 0x0000, 0x0400, 0x8401 };
   return next() % 3 ? s[next() % 12] : random_half();
}

/* The reading positions: random, and on the 1/512 grid (ties of the 1.8
 * fixed-point weights), over and beyond the texels. */
static float2 pos[NP];
static void make_positions(void)
{
   for (int i = 0; i < NP; i++) {
      float x = -1.5f + (float)(next() % ((W + 3) * 1000)) / 1000.0f;
      float y = -1.5f + (float)(next() % ((H + 3) * 1000)) / 1000.0f;
      if (i % 3 == 1)
         x = -1.0f + (float)(next() % ((W + 2) * 256)) / 256.0f + 1.0f / 512.0f;
      pos[i] = make_float2(x, y);
   }
}

/* Position c (an axis of n texels, clamped) as a texel index and weight in
 * 1/256: floor(c - 0.5) and frac(c - 0.5) rounded half up. */
static void axis(float c, int n, int *p, int *w)
{
   float b = fminf(fmaxf(c - 0.5f, 0.0f), (float)(n - 1));
   float f = floorf(b);
   long double a = ((long double)b - f) * 256.0L;
   *p = (int)f;
   *w = (int)floorl(a + 0.5L);
   if (*w == 256)
      *w = 0, *p += 1;
}

/* |x| rounded to sig significant bits (units not below 2^min_unit), ties
 * away from zero, with x's sign. */
static long double round_away(long double x, int sig, int min_unit)
{
   if (x == 0)
      return 0;
   int e;
   frexpl(x, &e);
   long double unit = ldexpl(1.0L, e - sig > min_unit ? e - sig : min_unit);
   long double q = floorl(fabsl(x) / unit + 0.5L) * unit;
   return x < 0 ? -q : q;
}

/* The model: n footprint texels v (as floats) with corner weights w (0:
 * read, not weighed); half: the texels are halves. */
static uint32_t model(const float *v, const int *w, int n, bool half)
{
   bool nan = false, pinf = false, ninf = false;
   for (int k = 0; k < n; k++)
      nan |= isnan(v[k]), pinf |= v[k] == INFINITY, ninf |= v[k] == -INFINITY;
   if (nan || (pinf && ninf))
      return half ? 0x7fffe000u : 0x7fffffffu;
   if (pinf || ninf)
      return bits_of(pinf ? INFINITY : -INFINITY);
   float x[16];
   int E = -100000;
   bool negzero = true;
   for (int k = 0; k < n; k++) {
      x[k] = !half && fabsf(v[k]) < 0x1p-126f ? copysignf(0.0f, v[k]) : v[k];   /* f32 subnormals: zeros */
      if (!w[k])
         continue;
      negzero = negzero && x[k] == 0 && signbit(x[k]);
      int e;
      if (x[k] != 0) {
         frexpf(x[k], &e);
         E = e > E ? e : E;
      }
   }
   if (E == -100000)
      return negzero ? 0x80000000u : 0u;
   int sig = half ? 11 : 24;
   long double sum = 0;   /* exact: at most 2^(sig + 4) x 256 x 4 in units of 2^(E - sig - 12) */
   for (int k = 0; k < n; k++) {
      if (!w[k] || x[k] == 0)
         continue;
      long double t = truncl(ldexpl(fabsl((long double)x[k]), sig + 4 - E));
      sum += (x[k] < 0 ? -t : t) * w[k];
   }
   if (sum == 0)
      return 0u;
   long double r = round_away(ldexpl(sum, E - sig - 12), sig, half ? -24 : -149);
   if (!half && fabsl(r) < 0x1p-126L)   /* f32 results: flushed */
      r = sum < 0 ? -0.0L : 0.0L;
   return bits_of((float)r);
}

/* The model's read of a W x H texture (texel(c, x, y) its channel c) at
 * pos[i], 1-D (row 0) or 2-D. */
template <class F>
static void model_reads(F texel, int dims, bool half, uint32_t *want)
{
   for (int i = 0; i < NP; i++) {
      int px, wx, py = 0, wy = 0;
      axis(pos[i].x, W, &px, &wx);
      if (dims == 2)
         axis(pos[i].y, H, &py, &wy);
      int a[2] = { wx, wy };
      for (int c = 0; c < 4; c++) {
         float v[4];
         int w[4], n = 0;
         for (int k = 0; k < (1 << dims); k++) {
            if (((k & 1) && !wx) || ((k & 2) && !wy))
               continue;   /* not read */
            int x = px + (k & 1), y = py + (k >> 1);
            x = x < W ? x : W - 1, y = y < H ? y : H - 1;
            v[n] = texel(c, x, y);
            w[n++] = tex_model_corner_weight(a, 256, dims, k);
         }
         want[4 * i + c] = model(v, w, n, half);
      }
   }
}

static float2 *dpos;
static float4 *dout;

static void read_all(void (*k)(cudaTextureObject_t, const float2 *, float4 *, int), cudaTextureObject_t t,
                     uint32_t *got)
{
   k<<<24, 128>>>(t, dpos, dout, NP);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(got, dout, NP * 16, cudaMemcpyDeviceToHost));
}

static cudaTextureObject_t object(const cudaResourceDesc &r, bool linear, bool norm)
{
   cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
   td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
   td.normalizedCoords = norm;
   td.readMode = cudaReadModeElementType;
   cudaTextureObject_t t = 0;
   CHECK_CUDA(cudaCreateTextureObject(&t, &r, &td, NULL));
   return t;
}

static uint32_t got[NP * 4], want[NP * 4];

/* f32 texels in a 2-D array, pitched memory and a 1-D array. */
static void f32_textures(bool special, const char *what)
{
   static uint32_t tf[H][W][4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            tf[y][x][c] = special ? special_f32() : random_f32();
   auto texel = [&](int c, int x, int y) { return float_of(tf[y][x][c]); };
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<float4>();
   char name[96];

   cudaArray_t a;
   CHECK_CUDA(cudaMallocArray(&a, &cd, W, H));
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, tf, W * 16, W * 16, H, cudaMemcpyHostToDevice));
   cudaTextureObject_t t = object(tex_model_array_resource(a), true, false);
   read_all(k_read2d, t, got);
   model_reads(texel, 2, false, want);
   snprintf(name, sizeof(name), "%s f32 2-D array", what);
   CHECK_ARRAY_U32(name, got, want, NP * 4);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(a));

   void *p;
   size_t pitch;
   CHECK_CUDA(cudaMallocPitch(&p, &pitch, W * 16, H));
   CHECK_CUDA(cudaMemcpy2D(p, pitch, tf, W * 16, W * 16, H, cudaMemcpyHostToDevice));
   cudaResourceDesc r;
   memset(&r, 0, sizeof(r));
   r.resType = cudaResourceTypePitch2D;
   r.res.pitch2D.devPtr = p, r.res.pitch2D.desc = cd, r.res.pitch2D.width = W, r.res.pitch2D.height = H;
   r.res.pitch2D.pitchInBytes = pitch;
   t = object(r, true, false);
   read_all(k_read2d, t, got);
   snprintf(name, sizeof(name), "%s f32 pitched", what);
   CHECK_ARRAY_U32(name, got, want, NP * 4);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFree(p));

   CHECK_CUDA(cudaMallocArray(&a, &cd, W, 0));
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, tf, W * 16, W * 16, 1, cudaMemcpyHostToDevice));
   t = object(tex_model_array_resource(a), true, false);
   read_all(k_read1d, t, got);
   model_reads(texel, 1, false, want);
   snprintf(name, sizeof(name), "%s f32 1-D array", what);
   CHECK_ARRAY_U32(name, got, want, NP * 4);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(a));
}

/* half4 texels in a 2-D array and a 1-D array. */
static void half_textures(bool special, const char *what)
{
   static uint16_t th[H][W][4];
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++)
            th[y][x][c] = special ? special_half() : random_half();
   auto texel = [&](int c, int x, int y) { return half_to_float(th[y][x][c]); };
   cudaChannelFormatDesc cd = cudaCreateChannelDescHalf4();
   char name[96];
   cudaArray_t a;
   CHECK_CUDA(cudaMallocArray(&a, &cd, W, H));
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, th, W * 8, W * 8, H, cudaMemcpyHostToDevice));
   cudaTextureObject_t t = object(tex_model_array_resource(a), true, false);
   read_all(k_read2d, t, got);
   model_reads(texel, 2, true, want);
   snprintf(name, sizeof(name), "%s half 2-D array", what);
   CHECK_ARRAY_U32(name, got, want, NP * 4);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(a));

   CHECK_CUDA(cudaMallocArray(&a, &cd, W, 0));
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, th, W * 8, W * 8, 1, cudaMemcpyHostToDevice));
   t = object(tex_model_array_resource(a), true, false);
   read_all(k_read1d, t, got);
   model_reads(texel, 1, true, want);
   snprintf(name, sizeof(name), "%s half 1-D array", what);
   CHECK_ARRAY_U32(name, got, want, NP * 4);
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaFreeArray(a));
}

/* Linear memory: zeros at float coordinates, the texel at integer ones. */
static void linear_memory(void)
{
   static uint32_t tl[W][4];
   for (int x = 0; x < W; x++)
      for (int c = 0; c < 4; c++)
         tl[x][c] = random_f32();
   void *p;
   CHECK_CUDA(cudaMalloc(&p, sizeof(tl)));
   CHECK_CUDA(cudaMemcpy(p, tl, sizeof(tl), cudaMemcpyHostToDevice));
   cudaResourceDesc r;
   memset(&r, 0, sizeof(r));
   r.resType = cudaResourceTypeLinear;
   r.res.linear.devPtr = p, r.res.linear.desc = cudaCreateChannelDesc<float4>();
   r.res.linear.sizeInBytes = sizeof(tl);
   static const char *names[4] = { "linear memory tex1D point", "linear memory tex1D linear",
                                   "linear memory tex1D point, normalised", "linear memory tex1D linear, normalised" };
   memset(want, 0, sizeof(want));
   for (int m = 0; m < 4; m++) {
      cudaTextureObject_t t = object(r, m & 1, m >> 1);
      read_all(k_read1d, t, got);
      CHECK_ARRAY_U32(names[m], got, want, NP * 4);
      if (m == 1) {
         read_all(k_fetch1d, t, got);
         for (int i = 0; i < NP; i++) {
            int x = (int)floorf(pos[i].x);
            for (int c = 0; c < 4; c++)
               want[4 * i + c] = x >= 0 && x < W ? tl[x][c] : 0u;
         }
         CHECK_ARRAY_U32("linear memory tex1Dfetch", got, want, NP * 4);
         memset(want, 0, sizeof(want));
      }
      CHECK_CUDA(cudaDestroyTextureObject(t));
   }
   CHECK_CUDA(cudaFree(p));
}

/* Float fetches of integer textures read as elements: the integers' bits. */
static void integer_elements(void)
{
   static uint8_t tb[H][W * 8];
   for (int y = 0; y < H; y++)
      for (int b = 0; b < W * 8; b++)
         tb[y][b] = (uint8_t)next();
   struct { const char *name; int bits, n; cudaChannelFormatKind k; } f[] = {
      { "uchar4", 8, 4, cudaChannelFormatKindUnsigned }, { "char4", 8, 4, cudaChannelFormatKindSigned },
      { "ushort2", 16, 2, cudaChannelFormatKindUnsigned }, { "short2", 16, 2, cudaChannelFormatKindSigned },
      { "uint", 32, 1, cudaChannelFormatKindUnsigned }, { "int", 32, 1, cudaChannelFormatKindSigned },
   };
   for (auto &q : f) {
      cudaChannelFormatDesc cd = cudaCreateChannelDesc(q.bits, q.n > 1 ? q.bits : 0, q.n > 2 ? q.bits : 0,
                                                       q.n > 3 ? q.bits : 0, q.k);
      int es = q.bits / 8 * q.n;
      cudaArray_t a;
      CHECK_CUDA(cudaMallocArray(&a, &cd, W, H));
      CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, tb, W * 8, W * es, H, cudaMemcpyHostToDevice));
      cudaTextureObject_t t = object(tex_model_array_resource(a), false, false);
      read_all(k_read2d, t, got);
      for (int i = 0; i < NP; i++) {
         int x = (int)floorf(pos[i].x), y = (int)floorf(pos[i].y);
         x = x < 0 ? 0 : x >= W ? W - 1 : x, y = y < 0 ? 0 : y >= H ? H - 1 : y;
         for (int c = 0; c < 4; c++) {
            uint32_t v = 0;
            if (c < q.n) {
               memcpy(&v, &tb[y][x * es + c * q.bits / 8], q.bits / 8);
               if (q.k == cudaChannelFormatKindSigned && q.bits < 32 && (v >> (q.bits - 1)))
                  v |= ~0u << q.bits;
            }
            want[4 * i + c] = v;
         }
      }
      char name[64];
      snprintf(name, sizeof(name), "tex2D<float4> of %s elements", q.name);
      CHECK_ARRAY_U32(name, got, want, NP * 4);
      CHECK_CUDA(cudaDestroyTextureObject(t));
      CHECK_CUDA(cudaFreeArray(a));
   }
}

int main(void)
{
   check_begin("tex_float_filter");
   make_positions();
   CHECK_CUDA(cudaMalloc(&dpos, sizeof(pos)));
   CHECK_CUDA(cudaMemcpy(dpos, pos, sizeof(pos), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMalloc(&dout, NP * 16));
   f32_textures(false, "random");
   f32_textures(true, "special");
   half_textures(false, "random");
   half_textures(true, "special");
   linear_memory();
   integer_elements();
   CHECK_CUDA(cudaFree(dpos));
   CHECK_CUDA(cudaFree(dout));
   return check_end();
}
