/*
 * tex_txq.cu — PTX txq on texture objects and tex with .f16x2 results
 * (inline PTX: CUDA C++ emits neither).
 *  - txq.width/.height/.depth, and txq.level.width/.height/.depth at
 *    levels 0, 1, 2, 3, 5, 6, 7, -1 and 100, over linear and pitched
 *    memory, 1-D, 2-D and 3-D arrays, layered ones, cube maps (plain and
 *    layered) and mipmapped arrays of each kind.  Expected values: what an
 *    H100 answered (driver 580, CUDA 13.0; NATIVE.md "txq"), the table
 *    `want` below.  In words: 0 for a dimension the resource lacks (linear
 *    memory's height, a 2-D array's depth, a cube map's depth), 1 for a
 *    1-D array's height, a layered array's layers as its next dimension (a
 *    layered cube map's cubes); at level l each dimension but the layers'
 *    is max(1, n >> l); a level past the last, or below 0, answers 0 in all
 *    three (a texture that is not mipmapped has one level).
 *  - tex.{1d,2d,3d,a2d,cube}.v2.f16x2 and tex.level/tex.grad.2d.v2.f16x2:
 *    the four f32 results rounded to the nearest f16 (ties to even, as
 *    cvt.rn.f16.f32: on the H100 every one of 6 x 16384 fetches of float,
 *    normalised 8- and 16-bit, sRGB and f16 textures, point sampled and
 *    filtered, agreed with it, and none with another rounding), two to a
 *    register, the first in the low half.  Host references: on a float4
 *    texture sampled at texel centres the texel itself, rounded on the host
 *    (values chosen at f16 ties, overflow, subnormals); elsewhere the same
 *    fetch's .v4.f32 result, rounded on the host.
 *  - suq.width/.height/.depth of surfaces over 1-D, 2-D, 3-D, layered and
 *    cube-map arrays: what an H200 answered (NATIVE.md "txq"), which is
 *    not txq's: the array's extent as made, 0 where it has none, a cube
 *    map's faces as its depth, a 1-D layered array's layers as its height.
 *  - A guarded (`@p`) f16x2 fetch: the threads whose guard holds get the
 *    fetch, the others (handle 0) do not fault.
 * The other txq and suq queries (channel data type and order, address and
 * filter modes, array size, mipmap levels, samples, memory layout) cannot
 * be tested here: NVIDIA's driver does not load a module that holds one
 * (NATIVE.md "txq"), so this program would not run at all; metalcuda
 * refuses them too (tests/unit/test_ir.c, texture_and_surface_forms).
 */
#include "check.h"

#include <math.h>

/* ---- txq ---- */

enum { NLOD = 9, NQ = 3 + 3 * NLOD };
static const int lods[NLOD] = { 0, 1, 2, 3, 5, 6, 7, -1, 100 };

__global__ void k_txq(const unsigned long long *tex, int n, const int *lod, unsigned *out)
{
   int i = threadIdx.x + blockIdx.x * blockDim.x;
   if (i >= n)
      return;
   unsigned long long t = tex[i];
   unsigned *o = out + i * NQ;
   asm volatile("txq.width.b32 %0, [%1];" : "=r"(o[0]) : "l"(t));
   asm volatile("txq.height.b32 %0, [%1];" : "=r"(o[1]) : "l"(t));
   asm volatile("txq.depth.b32 %0, [%1];" : "=r"(o[2]) : "l"(t));
   for (int k = 0; k < NLOD; k++) {
      asm volatile("txq.level.width.b32 %0, [%1], %2;" : "=r"(o[3 + 3 * k]) : "l"(t), "r"(lod[k]));
      asm volatile("txq.level.height.b32 %0, [%1], %2;" : "=r"(o[4 + 3 * k]) : "l"(t), "r"(lod[k]));
      asm volatile("txq.level.depth.b32 %0, [%1], %2;" : "=r"(o[5 + 3 * k]) : "l"(t), "r"(lod[k]));
   }
}

/* One texture of the table: what it is made of, and the H100's answers
 * (width, height, depth; then width/height/depth at each of lods[]). */
typedef struct shape {
   const char *name;
   int kind;            /* 0 linear, 1 pitch2D, 2 array, 3 mipmapped array */
   int w, h, d, levels; /* cudaExtent; levels of a mipmapped one */
   unsigned flags;      /* cudaArray* flags */
   unsigned want[NQ];
} shape;

#define Z3 0, 0, 0
static const shape shapes[] = {
   { "linear float x1000", 0, 1000, 0, 0, 0, 0, { 1000, 0, 0, 1000, 0, 0, Z3, Z3, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "pitch2D float2 30x7", 1, 30, 7, 0, 0, 0, { 30, 7, 0, 30, 7, 0, Z3, Z3, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "1-D array 37", 2, 37, 0, 0, 0, 0, { 37, 1, 0, 37, 1, 0, Z3, Z3, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "2-D array 13x5", 2, 13, 5, 0, 0, 0, { 13, 5, 0, 13, 5, 0, Z3, Z3, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "3-D array 9x5x3", 2, 9, 5, 3, 0, 0, { 9, 5, 3, 9, 5, 3, Z3, Z3, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "1-D layered 11 x4", 2, 11, 0, 4, 0, cudaArrayLayered,
     { 11, 4, 0, 11, 4, 0, Z3, Z3, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "2-D layered 7x6 x5", 2, 7, 6, 5, 0, cudaArrayLayered,
     { 7, 6, 5, 7, 6, 5, Z3, Z3, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "cube 8", 2, 8, 8, 6, 0, cudaArrayCubemap, { 8, 8, 0, 8, 8, 0, Z3, Z3, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "layered cube 8 x12", 2, 8, 8, 12, 0, cudaArrayCubemap | cudaArrayLayered,
     { 8, 8, 2, 8, 8, 2, Z3, Z3, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "mipmapped 64x16, 7 levels", 3, 64, 16, 0, 7, 0,
     { 64, 16, 0, 64, 16, 0, 32, 8, 0, 16, 4, 0, 8, 2, 0, 2, 1, 0, 1, 1, 0, Z3, Z3, Z3 } },
   { "mipmapped 20x12, 3 levels", 3, 20, 12, 0, 3, 0,
     { 20, 12, 0, 20, 12, 0, 10, 6, 0, 5, 3, 0, Z3, Z3, Z3, Z3, Z3, Z3 } },
   { "mipmapped 20x12, 9 levels asked", 3, 20, 12, 0, 9, 0,
     { 20, 12, 0, 20, 12, 0, 10, 6, 0, 5, 3, 0, 2, 1, 0, Z3, Z3, Z3, Z3, Z3 } },
   { "mipmapped 1-D 100, 7 levels", 3, 100, 0, 0, 7, 0,
     { 100, 1, 0, 100, 1, 0, 50, 1, 0, 25, 1, 0, 12, 1, 0, 3, 1, 0, 1, 1, 0, Z3, Z3, Z3 } },
   { "mipmapped 3-D 16x8x4, 5 levels", 3, 16, 8, 4, 5, 0,
     { 16, 8, 4, 16, 8, 4, 8, 4, 2, 4, 2, 1, 2, 1, 1, Z3, Z3, Z3, Z3, Z3 } },
   { "mipmapped 2-D layered 16x16 x3", 3, 16, 16, 3, 5, cudaArrayLayered,
     { 16, 16, 3, 16, 16, 3, 8, 8, 3, 4, 4, 3, 2, 2, 3, Z3, Z3, Z3, Z3, Z3 } },
   { "mipmapped 1-D layered 16 x3", 3, 16, 0, 3, 5, cudaArrayLayered,
     { 16, 3, 0, 16, 3, 0, 8, 3, 0, 4, 3, 0, 2, 3, 0, Z3, Z3, Z3, Z3, Z3 } },
   { "mipmapped cube 16, 5 levels", 3, 16, 16, 6, 5, cudaArrayCubemap,
     { 16, 16, 0, 16, 16, 0, 8, 8, 0, 4, 4, 0, 2, 2, 0, Z3, Z3, Z3, Z3, Z3 } },
   { "mipmapped float4 33x7, 6 levels", 3, 33, 7, 0, 6, 0,
     { 33, 7, 0, 33, 7, 0, 16, 3, 0, 8, 1, 0, 4, 1, 0, 1, 1, 0, Z3, Z3, Z3 } },
};
enum { NSHAPES = sizeof(shapes) / sizeof(shapes[0]) };

static cudaTextureObject_t make_shape(const shape *s, void **mem, cudaArray_t *arr, cudaMipmappedArray_t *mip)
{
   cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
   cudaResourceDesc r;
   memset(&r, 0, sizeof(r));
   *mem = NULL, *arr = NULL, *mip = NULL;
   switch (s->kind) {
   case 0:
      CHECK_CUDA(cudaMalloc(mem, (size_t)s->w * 4));
      r.resType = cudaResourceTypeLinear;
      r.res.linear.devPtr = *mem;
      r.res.linear.desc = f1;
      r.res.linear.sizeInBytes = (size_t)s->w * 4;
      break;
   case 1:
      CHECK_CUDA(cudaMalloc(mem, 256 * (size_t)s->h));
      r.resType = cudaResourceTypePitch2D;
      r.res.pitch2D.devPtr = *mem;
      r.res.pitch2D.desc = cudaCreateChannelDesc<float2>();
      r.res.pitch2D.width = (size_t)s->w, r.res.pitch2D.height = (size_t)s->h;
      r.res.pitch2D.pitchInBytes = 256;
      break;
   case 2:
      CHECK_CUDA(cudaMalloc3DArray(arr, &f1, make_cudaExtent(s->w, s->h, s->d), s->flags));
      r.resType = cudaResourceTypeArray;
      r.res.array.array = *arr;
      break;
   default: {
      cudaChannelFormatDesc f = s->name[11] == 'f' ? cudaCreateChannelDesc<float4>() : f1;
      CHECK_CUDA(cudaMallocMipmappedArray(mip, &f, make_cudaExtent(s->w, s->h, s->d), s->levels, s->flags));
      r.resType = cudaResourceTypeMipmappedArray;
      r.res.mipmap.mipmap = *mip;
   }
   }
   cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
   td.readMode = cudaReadModeElementType;
   td.normalizedCoords = s->kind == 3;
   td.maxMipmapLevelClamp = 100;
   cudaTextureObject_t t = 0;
   CHECK_CUDA(cudaCreateTextureObject(&t, &r, &td, NULL));
   return t;
}

static void test_txq(void)
{
   unsigned long long h[NSHAPES];
   void *mem[NSHAPES];
   cudaArray_t arr[NSHAPES];
   cudaMipmappedArray_t mip[NSHAPES];
   for (int i = 0; i < NSHAPES; i++)
      h[i] = make_shape(&shapes[i], &mem[i], &arr[i], &mip[i]);
   unsigned long long *dh;
   int *dl;
   unsigned *dout, out[NSHAPES * NQ];
   CHECK_CUDA(cudaMalloc(&dh, sizeof(h)));
   CHECK_CUDA(cudaMalloc(&dl, sizeof(lods)));
   CHECK_CUDA(cudaMemcpy(dh, h, sizeof(h), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dl, lods, sizeof(lods), cudaMemcpyHostToDevice));
   fill_u32(out, NSHAPES * NQ, SENTINEL32);
   CHECK_CUDA(cudaMalloc(&dout, sizeof(out)));
   CHECK_CUDA(cudaMemcpy(dout, out, sizeof(out), cudaMemcpyHostToDevice));
   k_txq<<<1, 32>>>(dh, NSHAPES, dl, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
   for (int i = 0; i < NSHAPES; i++)
      CHECK_ARRAY_U32(shapes[i].name, out + i * NQ, shapes[i].want, NQ);
   for (int i = 0; i < NSHAPES; i++) {
      CHECK_CUDA(cudaDestroyTextureObject(h[i]));
      if (mem[i])
         CHECK_CUDA(cudaFree(mem[i]));
      if (arr[i])
         CHECK_CUDA(cudaFreeArray(arr[i]));
      if (mip[i])
         CHECK_CUDA(cudaFreeMipmappedArray(mip[i]));
   }
   CHECK_CUDA(cudaFree(dh));
   CHECK_CUDA(cudaFree(dl));
   CHECK_CUDA(cudaFree(dout));
}

/* ---- suq ---- */

__global__ void k_suq(const unsigned long long *surf, int n, unsigned *out)
{
   int i = threadIdx.x + blockIdx.x * blockDim.x;
   if (i >= n)
      return;
   unsigned long long s = surf[i];
   asm volatile("suq.width.b32 %0, [%1];" : "=r"(out[3 * i]) : "l"(s));
   asm volatile("suq.height.b32 %0, [%1];" : "=r"(out[3 * i + 1]) : "l"(s));
   asm volatile("suq.depth.b32 %0, [%1];" : "=r"(out[3 * i + 2]) : "l"(s));
}

static void test_suq(void)
{
   enum { NS = 7 };
   static const struct {
      const char *name;
      int w, h, d;
      unsigned flags;
      unsigned want[3];
   } surfs[NS] = {
      { "surface 1-D 37", 37, 0, 0, 0, { 37, 0, 0 } },
      { "surface 2-D 13x5", 13, 5, 0, 0, { 13, 5, 0 } },
      { "surface 3-D 9x5x3", 9, 5, 3, 0, { 9, 5, 3 } },
      { "surface 1-D layered 11 x4", 11, 0, 4, cudaArrayLayered, { 11, 4, 0 } },
      { "surface 2-D layered 7x6 x5", 7, 6, 5, cudaArrayLayered, { 7, 6, 5 } },
      { "surface cube 8", 8, 8, 6, cudaArrayCubemap, { 8, 8, 6 } },
      { "surface layered cube 8 x12", 8, 8, 12, cudaArrayCubemap | cudaArrayLayered, { 8, 8, 12 } },
   };
   cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
   cudaArray_t arr[NS];
   unsigned long long h[NS];
   for (int i = 0; i < NS; i++) {
      CHECK_CUDA(cudaMalloc3DArray(&arr[i], &f1, make_cudaExtent(surfs[i].w, surfs[i].h, surfs[i].d),
                                   surfs[i].flags | cudaArraySurfaceLoadStore));
      cudaResourceDesc r;
      memset(&r, 0, sizeof(r));
      r.resType = cudaResourceTypeArray;
      r.res.array.array = arr[i];
      cudaSurfaceObject_t s = 0;
      CHECK_CUDA(cudaCreateSurfaceObject(&s, &r));
      h[i] = s;
   }
   unsigned long long *dh;
   CHECK_CUDA(cudaMalloc(&dh, sizeof(h)));
   CHECK_CUDA(cudaMemcpy(dh, h, sizeof(h), cudaMemcpyHostToDevice));
   unsigned *dout = (unsigned *)dev_alloc_fill32(3 * NS), out[3 * NS];
   k_suq<<<1, 32>>>(dh, NS, dout);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
   for (int i = 0; i < NS; i++) {
      CHECK_ARRAY_U32(surfs[i].name, out + 3 * i, surfs[i].want, 3);
      CHECK_CUDA(cudaDestroySurfaceObject(h[i]));
      CHECK_CUDA(cudaFreeArray(arr[i]));
   }
   CHECK_CUDA(cudaFree(dh));
   CHECK_CUDA(cudaFree(dout));
}

/* ---- f16x2 results ---- */

/* f32 to f16 bits, rounded to nearest, ties to even (exact: the value is
 * split in double, which holds every f32); NaN as the H100's
 * cvt.rn.f16.f32 gives it, the canonical 0x7fff. */
static unsigned short f16_rn(float f)
{
   uint32_t u = f32_bits(f);
   unsigned short s = (unsigned short)((u >> 16) & 0x8000u);
   if (isnan(f))
      return 0x7fff;
   double a = fabs((double)f);
   if (isinf(f) || a >= 65520.0)   /* 65520 = 65504 + half an ulp: ties to even go up */
      return (unsigned short)(s | 0x7c00u);
   int e;
   frexp(a, &e);                  /* a in [2^(e-1), 2^e) */
   int ex = e - 1 < -14 ? -14 : e - 1;
   double q = ldexp(1.0, ex - 10), k = a / q, fl = floor(k), r = k - fl;
   if (r > 0.5 || (r == 0.5 && fmod(fl, 2.0) == 1.0))
      fl += 1.0;
   double v = fl * q;             /* a multiple of 2^-24, at most 65504 */
   if (v == 0.0)
      return s;
   frexp(v, &e);
   if (e - 1 < -14)
      return (unsigned short)(s | (unsigned)(v / ldexp(1.0, -24)));
   return (unsigned short)(s | (unsigned)(e - 1 + 15) << 10 | (unsigned)((v / ldexp(1.0, e - 1) - 1.0) * 1024.0));
}

/* f16 bits to f32 (finite ones; exact) */
static float f16_value(unsigned short h)
{
   int e = (h >> 10) & 31, m = h & 1023;
   double v = e ? ldexp(1024.0 + m, e - 25) : ldexp((double)m, -24);
   return (float)(h & 0x8000u ? -v : v);
}

static uint32_t pack_rn(float lo, float hi) { return (uint32_t)f16_rn(lo) | (uint32_t)f16_rn(hi) << 16; }

enum { W = 16, NT = W * W };

/* Texel values: f16 ties (to even, down and up), just off them, the top of
 * the range (65504, the tie 65520 and just under it), infinities, NaNs,
 * f16 subnormals and the ties between them, f32 subnormals; then a spread
 * of exponents around f16's range. */
static const uint32_t special[] = {
   0x3f800000, 0x3f801000, 0x3f803000, 0x3f801001, 0x3f800fff, 0xbf801000, 0xbf803000, 0xbf801001,
   0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, 0xc77ff000, 0xc77fefff, 0x501502f9,
   0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc12345, 0x7fbfffff, 0x33800000, 0x33000000,
   0x33000001, 0x33400000, 0xb3000000, 0xb3400000, 0x387fc000, 0x387fe000, 0x387ff000, 0x38800000,
   0x38801000, 0x00000001, 0x80000001, 0x00800000, 0x3eaaaaab, 0x3dcccccd, 0xbdcccccd, 0x40490fdb,
   0x80000000, 0x00000000, 0x38000000, 0x37ffffff, 0x33ffffff, 0x34000000, 0x387fdfff, 0x3f7ff000,
};

static float texel_value(int i)
{
   if (i < (int)(sizeof(special) / sizeof(special[0])))
      return bits_f32(special[i]);
   uint32_t m = mix32((uint32_t)i * 2654435761u + 17u);
   return bits_f32((m & 0x807fffffu) | (127u - 28u + (m >> 8) % 48u) << 23);
}

__global__ void k_f16_point(cudaTextureObject_t t2, cudaTextureObject_t t1, uint32_t *o2, uint32_t *o1)
{
   int i = threadIdx.x + blockIdx.x * blockDim.x;
   if (i >= NT)
      return;
   float x = (float)(i % W) + 0.5f, y = (float)(i / W) + 0.5f;
   uint32_t a, b;
   asm volatile("tex.2d.v2.f16x2.f32 {%0, %1}, [%2, {%3, %4}];" : "=r"(a), "=r"(b) : "l"(t2), "f"(x), "f"(y));
   o2[2 * i] = a, o2[2 * i + 1] = b;
   asm volatile("tex.1d.v2.f16x2.s32 {%0, %1}, [%2, {%3}];" : "=r"(a), "=r"(b) : "l"(t1), "r"(i));
   o1[2 * i] = a, o1[2 * i + 1] = b;
}

/* Form f at thread i's coordinates: the .v2.f16x2 result in h, the
 * .v4.f32 one of the same form in f. */
enum { F_2D, F_LEVEL, F_GRAD, F_3D, F_A2D, F_CUBE, NFORMS };
static const char *form_names[NFORMS] = { "tex.2d (linear filtering)", "tex.level.2d", "tex.grad.2d", "tex.3d",
                                          "tex.a2d", "tex.cube" };

__global__ void k_f16_forms(int form, cudaTextureObject_t t, uint32_t *h, float4 *f)
{
   int i = threadIdx.x + blockIdx.x * blockDim.x;
   if (i >= NT)
      return;
   float x = (float)(i % 64) * 0.173f - 1.3f, y = (float)(i / 64) * 0.61f + 0.07f, z = 0.3f - 0.0417f * (float)(i % 7);
   float lod = 0.25f * (float)(i % 5), g = 0.5f + 0.75f * (float)(i % 3);
   unsigned layer = (unsigned)i % 3u;
   uint32_t a = 0, b = 0;
   float4 v = make_float4(0, 0, 0, 0);
   switch (form) {
   case F_2D:
      asm volatile("tex.2d.v2.f16x2.f32 {%0, %1}, [%2, {%3, %4}];" : "=r"(a), "=r"(b) : "l"(t), "f"(x), "f"(y));
      asm volatile("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                   : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(t), "f"(x), "f"(y));
      break;
   case F_LEVEL:
      asm volatile("tex.level.2d.v2.f16x2.f32 {%0, %1}, [%2, {%3, %4}], %5;"
                   : "=r"(a), "=r"(b) : "l"(t), "f"(x * 0.05f), "f"(y * 0.05f), "f"(lod));
      asm volatile("tex.level.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], %7;"
                   : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(t), "f"(x * 0.05f), "f"(y * 0.05f), "f"(lod));
      break;
   case F_GRAD:
      asm volatile("tex.grad.2d.v2.f16x2.f32 {%0, %1}, [%2, {%3, %4}], {%5, %6}, {%6, %5};"
                   : "=r"(a), "=r"(b) : "l"(t), "f"(x * 0.05f), "f"(y * 0.05f), "f"(g * 0.03125f), "f"(0.0f));
      asm volatile("tex.grad.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7, %8}, {%8, %7};"
                   : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                   : "l"(t), "f"(x * 0.05f), "f"(y * 0.05f), "f"(g * 0.03125f), "f"(0.0f));
      break;
   case F_3D:
      asm volatile("tex.3d.v2.f16x2.f32 {%0, %1}, [%2, {%3, %4, %5, %5}];"
                   : "=r"(a), "=r"(b) : "l"(t), "f"(x), "f"(y * 0.1f), "f"(z * 8.0f));
      asm volatile("tex.3d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
                   : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(t), "f"(x), "f"(y * 0.1f), "f"(z * 8.0f));
      break;
   case F_A2D:
      asm volatile("tex.a2d.v2.f16x2.f32 {%0, %1}, [%2, {%3, %4, %5, %5}];"
                   : "=r"(a), "=r"(b) : "l"(t), "r"(layer), "f"(x), "f"(y * 0.1f));
      asm volatile("tex.a2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
                   : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(t), "r"(layer), "f"(x), "f"(y * 0.1f));
      break;
   default:
      asm volatile("tex.cube.v2.f16x2.f32 {%0, %1}, [%2, {%3, %4, %5, %5}];"
                   : "=r"(a), "=r"(b) : "l"(t), "f"(x), "f"(y - 5.0f), "f"(z));
      asm volatile("tex.cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];"
                   : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(t), "f"(x), "f"(y - 5.0f), "f"(z));
   }
   h[2 * i] = a, h[2 * i + 1] = b;
   f[i] = v;
}

/* @p tex.2d.v2.f16x2 with p = i % 3 != 0; the others hold handle 0, so
 * a fetch that ran there would read no texture (metalcuda: a fault).
 * What their registers hold afterwards is not checked: on an H200 they
 * were neither kept nor the fetch's (0x1003 read 0x3, 0x2003 read 0: the
 * code ptxas makes of a guarded f16x2 fetch), which PTX does not define. */
__global__ void k_f16_guard(cudaTextureObject_t t, uint32_t *o)
{
   int i = threadIdx.x + blockIdx.x * blockDim.x;
   if (i >= NT)
      return;
   int g = i % 3 != 0;
   unsigned long long h = g ? t : 0;
   float x = (float)(i % W) + 0.5f, y = (float)(i / W) + 0.5f;
   uint32_t a = 0x1000u + (uint32_t)i, b = 0x2000u + (uint32_t)i;
   asm volatile("{ .reg .pred p; setp.ne.s32 p, %3, 0;\n"
                "@p tex.2d.v2.f16x2.f32 {%0, %1}, [%2, {%4, %5}]; }"
                : "+r"(a), "+r"(b) : "l"(h), "r"(g), "f"(x), "f"(y));
   o[2 * i] = a, o[2 * i + 1] = b;
}

static cudaTextureObject_t array_texture(cudaArray_t a, bool linear, bool norm_coords, bool norm_read)
{
   cudaResourceDesc r;
   memset(&r, 0, sizeof(r));
   r.resType = cudaResourceTypeArray;
   r.res.array.array = a;
   cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   td.addressMode[0] = cudaAddressModeClamp, td.addressMode[1] = cudaAddressModeWrap;
   td.addressMode[2] = cudaAddressModeMirror;
   td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
   td.readMode = norm_read ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
   td.normalizedCoords = norm_coords;
   cudaTextureObject_t t = 0;
   CHECK_CUDA(cudaCreateTextureObject(&t, &r, &td, NULL));
   return t;
}

static void check_forms(int form, cudaTextureObject_t t, uint32_t *dh, float4 *df)
{
   static uint32_t h[2 * NT], want[2 * NT];
   static float4 f[NT];
   fill_u32(h, 2 * NT, SENTINEL32);
   CHECK_CUDA(cudaMemcpy(dh, h, sizeof(h), cudaMemcpyHostToDevice));
   k_f16_forms<<<NT / 64, 64>>>(form, t, dh, df);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h, dh, sizeof(h), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(f, df, sizeof(f), cudaMemcpyDeviceToHost));
   int inexact = 0;
   for (int i = 0; i < NT; i++) {
      want[2 * i] = pack_rn(f[i].x, f[i].y), want[2 * i + 1] = pack_rn(f[i].z, f[i].w);
      inexact += f16_value((unsigned short)want[2 * i]) != f[i].x;
   }
   CHECK_ARRAY_U32(form_names[form], h, want, 2 * NT);
   if (!CHECK(inexact > NT / 4))   /* the forms must round, or they test nothing */
      printf("  %s: only %d of %d results not exact in f16\n", form_names[form], inexact, NT);
}

static void test_f16(void)
{
   /* point sampling of float4 texels, and tex1Dfetch of the same in linear memory */
   static float4 img[NT];
   static uint32_t o2[2 * NT], o1[2 * NT], want[2 * NT];
   for (int i = 0; i < NT; i++)
      img[i] = make_float4(texel_value(4 * i), texel_value(4 * i + 1), texel_value(4 * i + 2), texel_value(4 * i + 3));
   for (int i = 0; i < NT; i++)
      want[2 * i] = pack_rn(img[i].x, img[i].y), want[2 * i + 1] = pack_rn(img[i].z, img[i].w);
   cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
   cudaArray_t a2;
   CHECK_CUDA(cudaMallocArray(&a2, &f4, W, W));
   CHECK_CUDA(cudaMemcpy2DToArray(a2, 0, 0, img, W * 16, W * 16, W, cudaMemcpyHostToDevice));
   cudaTextureObject_t t2 = array_texture(a2, false, false, false);
   float4 *lin;
   CHECK_CUDA(cudaMalloc(&lin, sizeof(img)));
   CHECK_CUDA(cudaMemcpy(lin, img, sizeof(img), cudaMemcpyHostToDevice));
   cudaResourceDesc r;
   memset(&r, 0, sizeof(r));
   r.resType = cudaResourceTypeLinear;
   r.res.linear.devPtr = lin;
   r.res.linear.desc = f4;
   r.res.linear.sizeInBytes = sizeof(img);
   cudaTextureDesc td;
   memset(&td, 0, sizeof(td));
   cudaTextureObject_t t1 = 0;
   CHECK_CUDA(cudaCreateTextureObject(&t1, &r, &td, NULL));
   uint32_t *d2, *d1;
   d2 = (uint32_t *)dev_alloc_fill32(2 * NT);
   d1 = (uint32_t *)dev_alloc_fill32(2 * NT);
   k_f16_point<<<NT / 64, 64>>>(t2, t1, d2, d1);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(o2, d2, sizeof(o2), cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(o1, d1, sizeof(o1), cudaMemcpyDeviceToHost));
   CHECK_ARRAY_U32("tex.2d.v2.f16x2 at texel centres", o2, want, 2 * NT);
   CHECK_ARRAY_U32("tex.1d.v2.f16x2.s32 (linear memory)", o1, want, 2 * NT);

   /* guarded */
   k_f16_guard<<<NT / 64, 64>>>(t2, d2);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(o2, d2, sizeof(o2), cudaMemcpyDeviceToHost));
   for (int i = 0; i < NT; i++)
      if (i % 3 == 0)
         o2[2 * i] = want[2 * i], o2[2 * i + 1] = want[2 * i + 1];
   CHECK_ARRAY_U32("@p tex.2d.v2.f16x2 where p holds", o2, want, 2 * NT);

   /* the other forms, on textures of moderate values (so most results
    * are not exact in f16): float4 filtered, u8x4 read normalised */
   static float4 vals[64 * 64];
   for (int i = 0; i < 64 * 64; i++) {
      uint32_t m = mix32((uint32_t)i + 99u);
      vals[i] = make_float4((float)(int)(m % 200001u) * 0.001f - 100.0f, (float)(m >> 11) * 1e-6f,
                            (float)(int)(m % 977u) * 0.013f, 1.0f / (float)(1u + m % 1000u));
   }
   uint32_t *dh = (uint32_t *)dev_alloc_fill32(2 * NT);
   float4 *df;
   CHECK_CUDA(cudaMalloc(&df, NT * sizeof(float4)));
   cudaArray_t af;
   CHECK_CUDA(cudaMallocArray(&af, &f4, 64, 64));
   CHECK_CUDA(cudaMemcpy2DToArray(af, 0, 0, vals, 64 * 16, 64 * 16, 64, cudaMemcpyHostToDevice));
   cudaTextureObject_t tf = array_texture(af, true, false, false);
   check_forms(F_2D, tf, dh, df);
   CHECK_CUDA(cudaDestroyTextureObject(tf));
   /* u8x4, normalised reads and coordinates, linear filtering */
   cudaChannelFormatDesc u8 = cudaCreateChannelDesc<uchar4>();
   cudaArray_t au;
   CHECK_CUDA(cudaMallocArray(&au, &u8, 64, 64));
   CHECK_CUDA(cudaMemcpy2DToArray(au, 0, 0, vals, 64 * 4, 64 * 4, 64, cudaMemcpyHostToDevice));
   tf = array_texture(au, true, true, true);
   check_forms(F_LEVEL, tf, dh, df);
   check_forms(F_GRAD, tf, dh, df);
   CHECK_CUDA(cudaDestroyTextureObject(tf));
   /* 3-D, layered and cube: float4 arrays over the same values */
   cudaArray_t a3, al, ac;
   CHECK_CUDA(cudaMalloc3DArray(&a3, &f4, make_cudaExtent(16, 16, 16), 0));
   CHECK_CUDA(cudaMalloc3DArray(&al, &f4, make_cudaExtent(16, 16, 3), cudaArrayLayered));
   CHECK_CUDA(cudaMalloc3DArray(&ac, &f4, make_cudaExtent(8, 8, 6), cudaArrayCubemap));
   cudaArray_t arrs[3] = { a3, al, ac };
   int depth[3] = { 16, 3, 6 }, side[3] = { 16, 16, 8 };
   for (int k = 0; k < 3; k++) {
      cudaMemcpy3DParms p;
      memset(&p, 0, sizeof(p));
      p.srcPtr = make_cudaPitchedPtr(vals, (size_t)side[k] * 16, (size_t)side[k], (size_t)side[k]);
      p.dstArray = arrs[k];
      p.extent = make_cudaExtent((size_t)side[k], (size_t)side[k], (size_t)depth[k]);
      p.kind = cudaMemcpyHostToDevice;
      CHECK_CUDA(cudaMemcpy3D(&p));
      tf = array_texture(arrs[k], true, k == 2, false);
      check_forms(k == 0 ? F_3D : k == 1 ? F_A2D : F_CUBE, tf, dh, df);
      CHECK_CUDA(cudaDestroyTextureObject(tf));
      CHECK_CUDA(cudaFreeArray(arrs[k]));
   }
   CHECK_CUDA(cudaDestroyTextureObject(t1));
   CHECK_CUDA(cudaDestroyTextureObject(t2));
   CHECK_CUDA(cudaFreeArray(a2));
   CHECK_CUDA(cudaFreeArray(af));
   CHECK_CUDA(cudaFreeArray(au));
   CHECK_CUDA(cudaFree(lin));
   CHECK_CUDA(cudaFree(d1));
   CHECK_CUDA(cudaFree(d2));
   CHECK_CUDA(cudaFree(dh));
   CHECK_CUDA(cudaFree(df));
}

int main(void)
{
   check_begin("tex_txq");
   test_txq();
   test_suq();
   test_f16();
   return check_end();
}
