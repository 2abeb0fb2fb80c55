/*
 * surf_formatted.cu — formatted surface stores (PTX sust.p, inline PTX:
 * CUDA C++ has no function that emits it) into every channel format an
 * array can have (8-, 16-, 32-bit signed and unsigned integers, half and
 * float; 1, 2 and 4 channels), against a host model of the conversion an
 * NVIDIA GPU performs (fmt_model below; measured on an H100, driver 580,
 * by a probe storing 4096 values of each kind into each format, and
 * confirmed by this program's native runs: tests/cuda/NATIVE.md):
 *  - the values are R, G, B, A in that order; those the format lacks are
 *    dropped; channels past the store's vector width are written as the
 *    conversion of 0 (zero bits: the PTX ISA calls them unpredictable);
 *  - x counts samples (not bytes, as sust.b's does), y rows, z slices; a
 *    layered geometry's layer comes first;
 *  - an integer channel saturates to its range (unsigned values as
 *    unsigned, signed ones as signed); a 32-bit one takes the bits;
 *  - a float channel takes the bits as they are (NaN payloads and
 *    subnormals kept);
 *  - a half channel rounds toward zero: a finite value past the largest
 *    half becomes it (+-65504), infinities stay, subnormals truncate, a
 *    NaN keeps its sign and its top 10 payload bits (1 where all zero);
 *  - the boundary modes act on samples: .clamp stores into the nearest
 *    sample, .zero ignores a store outside, .trap (last: the error is
 *    sticky) fails the launch with cudaErrorIllegalAddress.
 * The arrays start filled with 0xa5 bytes, so every byte written or left
 * alone is checked.
 */
#include "tex_model.h"

enum { NV = 320, NMISC = 16 };

/* One 32-bit value converted to a channel: kind 0 unsigned, 1 signed,
 * 2 float; bytes 1, 2 or 4. */
static uint32_t fmt_model(uint32_t v, int kind, int bytes)
{
   if (bytes == 4)
      return v;
   if (kind == 0) {
      uint32_t max = bytes == 1 ? 0xffu : 0xffffu;
      return v < max ? v : max;
   }
   if (kind == 1) {
      int32_t lim = bytes == 1 ? 127 : 32767, s = (int32_t)v;
      s = s > lim ? lim : s < -lim - 1 ? -lim - 1 : s;
      return (uint32_t)s & (bytes == 1 ? 0xffu : 0xffffu);
   }
   /* half, rounded toward zero */
   uint32_t s = (v >> 16) & 0x8000u, e = (v >> 23) & 0xffu, m = v & 0x7fffffu;
   if (e == 255)
      return s | 0x7c00u | (m ? ((m >> 13) ? (m >> 13) : 1u) : 0u);
   if (e > 142)
      return s | 0x7bffu;
   if (e >= 113)
      return s | ((e - 112) << 10) | (m >> 13);
   uint32_t sh = 126 - e;
   return s | (sh < 24 ? (m | 0x800000u) >> sh : 0u);
}

struct fmt {
   int kind, bytes, nch;
};

static const char *fmt_name(const fmt &f)
{
   static char b[32];
   snprintf(b, sizeof b, "%s%d x%d", f.kind == 0 ? "u" : f.kind == 1 ? "s" : "f", 8 * f.bytes, f.nch);
   return b;
}

static cudaArray_t make_array(const fmt &f, int w, int h, int d, unsigned flags)
{
   int b = 8 * f.bytes;
   cudaChannelFormatKind k = f.kind == 0 ? cudaChannelFormatKindUnsigned
                             : f.kind == 1 ? cudaChannelFormatKindSigned
                                           : cudaChannelFormatKindFloat;
   cudaChannelFormatDesc cd = cudaCreateChannelDesc(b, f.nch > 1 ? b : 0, f.nch > 2 ? b : 0, f.nch > 3 ? b : 0, k);
   cudaArray_t a = NULL;
   CHECK_CUDA(cudaMalloc3DArray(&a, &cd, make_cudaExtent(w, h, d), flags | cudaArraySurfaceLoadStore));
   return a;
}

/* Sample i: {vals[i], vals[i + 1], vals[i + 2], vals[i + 3]} (mod NV), so
 * that every channel of every format sees every value. */
__global__ void k_v4(cudaSurfaceObject_t s, const unsigned *vals)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= NV)
      return;
   unsigned a = vals[i], b = vals[(i + 1) % NV], c = vals[(i + 2) % NV], d = vals[(i + 3) % NV];
   asm volatile("sust.p.1d.v4.b32.clamp [%0, {%1}], {%2, %3, %4, %5};" ::"l"(s), "r"(i), "r"(a), "r"(b), "r"(c),
                "r"(d)
                : "memory");
}

/* A 16-sample surface: samples 1-4 a scalar store, 5-8 a .v2 one; 0 and
 * 15 .clamp stores from x = -7 (.v4) and x = 1000 (.v2); .zero stores at
 * -1 and 16 (ignored); a .zero store at 9 and a .trap one at 10 inside;
 * 11-14 untouched. */
__global__ void k_misc(cudaSurfaceObject_t s, const unsigned *vals)
{
   int t = threadIdx.x;
   unsigned a = vals[t * 37 % NV], b = vals[(t * 37 + 11) % NV], c = vals[(t * 37 + 5) % NV],
            d = vals[(t * 37 + 23) % NV];
   if (t < 4)
      asm volatile("sust.p.1d.b32.clamp [%0, {%1}], %2;" ::"l"(s), "r"(t + 1), "r"(a) : "memory");
   else if (t < 8)
      asm volatile("sust.p.1d.v2.b32.clamp [%0, {%1}], {%2, %3};" ::"l"(s), "r"(t + 1), "r"(a), "r"(b) : "memory");
   else if (t == 8)
      asm volatile("sust.p.1d.v4.b32.clamp [%0, {%1}], {%2, %3, %4, %5};" ::"l"(s), "r"(-7), "r"(a), "r"(b),
                   "r"(c), "r"(d)
                   : "memory");
   else if (t == 9)
      asm volatile("sust.p.1d.v2.b32.clamp [%0, {%1}], {%2, %3};" ::"l"(s), "r"(1000), "r"(a), "r"(b) : "memory");
   else if (t == 10)
      asm volatile("sust.p.1d.b32.zero [%0, {%1}], %2;" ::"l"(s), "r"(-1), "r"(a) : "memory");
   else if (t == 11)
      asm volatile("sust.p.1d.v4.b32.zero [%0, {%1}], {%2, %3, %4, %5};" ::"l"(s), "r"(NMISC), "r"(a), "r"(b),
                   "r"(c), "r"(d)
                   : "memory");
   else if (t == 12)
      asm volatile("sust.p.1d.v2.b32.zero [%0, {%1}], {%2, %3};" ::"l"(s), "r"(9), "r"(a), "r"(b) : "memory");
   else if (t == 13)
      asm volatile("sust.p.1d.v4.b32.trap [%0, {%1}], {%2, %3, %4, %5};" ::"l"(s), "r"(10), "r"(a), "r"(b),
                   "r"(c), "r"(d)
                   : "memory");
}

/* Geometries: sample (x, y, z) or (x, y) of layer z, or x of layer y
 * (a1d), gets {g(x, y, z, 0..3)}. */
static __host__ __device__ unsigned geo_val(int x, int y, int z, int k, int scale)
{
   return (unsigned)((x * 7 + y * 131 + z * 1031 + k * 3) * scale) ^ (k == 3 ? 0x80000000u : 0u);
}

__global__ void k_2d(cudaSurfaceObject_t s, int scale)
{
   int x = threadIdx.x, y = blockIdx.x;
   asm volatile("sust.p.2d.v4.b32.clamp [%0, {%1, %2}], {%3, %4, %5, %6};" ::"l"(s), "r"(x), "r"(y),
                "r"(geo_val(x, y, 0, 0, scale)), "r"(geo_val(x, y, 0, 1, scale)), "r"(geo_val(x, y, 0, 2, scale)),
                "r"(geo_val(x, y, 0, 3, scale))
                : "memory");
}

__global__ void k_3d(cudaSurfaceObject_t s, int scale)
{
   int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
   asm volatile("sust.p.3d.v4.b32.zero [%0, {%1, %2, %3, %3}], {%4, %5, %6, %7};" ::"l"(s), "r"(x), "r"(y), "r"(z),
                "r"(geo_val(x, y, z, 0, scale)), "r"(geo_val(x, y, z, 1, scale)), "r"(geo_val(x, y, z, 2, scale)),
                "r"(geo_val(x, y, z, 3, scale))
                : "memory");
}

__global__ void k_a2d(cudaSurfaceObject_t s, int scale)
{
   int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
   asm volatile("sust.p.a2d.v2.b32.clamp [%0, {%3, %1, %2, %2}], {%4, %5};" ::"l"(s), "r"(x), "r"(y), "r"(z),
                "r"(geo_val(x, y, z, 0, scale)), "r"(geo_val(x, y, z, 1, scale))
                : "memory");
}

__global__ void k_a1d(cudaSurfaceObject_t s, int scale)
{
   int x = threadIdx.x, y = blockIdx.x;
   asm volatile("sust.p.a1d.v4.b32.trap [%0, {%2, %1}], {%3, %4, %5, %6};" ::"l"(s), "r"(x), "r"(y),
                "r"(geo_val(x, y, 0, 0, scale)), "r"(geo_val(x, y, 0, 1, scale)), "r"(geo_val(x, y, 0, 2, scale)),
                "r"(geo_val(x, y, 0, 3, scale))
                : "memory");
}

__global__ void k_trap(cudaSurfaceObject_t s)
{
   asm volatile("sust.p.1d.b32.trap [%0, {%1}], %2;" ::"l"(s), "r"(NMISC), "r"(1u) : "memory");
}

/* Channel k of sample i of a host copy. */
static uint32_t chan(const unsigned char *p, const fmt &f, size_t i, int k)
{
   const unsigned char *q = p + (i * f.nch + k) * f.bytes;
   uint32_t v = 0;
   memcpy(&v, q, f.bytes);   /* little-endian, as the GPU's */
   return v;
}

static uint32_t sentinel(const fmt &f) { return f.bytes == 1 ? 0xa5u : f.bytes == 2 ? 0xa5a5u : 0xa5a5a5a5u; }

/* The test values: edge cases of each conversion, then pseudo-random
 * floats of three ranges and integers. */
static void make_values(unsigned *v)
{
   static const unsigned special[] = {
      0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0x3eaaaaabu, 0x477fe000u, /* 65504 */
      0x477fefffu, 0x477ff000u, 0x47800000u, 0xc77ff000u, 0x501502f9u, 0xd01502f9u,              /* overflow */
      0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fa00000u, 0x7fc12345u, /* inf, NaN */
      0xff812345u, 0xffff8001u, 0x7fffffffu, 0x00000001u, 0x007fffffu, 0x80000001u,              /* subnormals */
      0x33800000u, 0x33000000u, 0x33400000u, 0x33c00000u, 0x38800000u, 0x387fe000u, 0x387fffffu, /* half's */
      0x3f801000u, 0x3f803000u, 0x3f801001u, 0x3f800fffu, 0xbf801000u, 0xbf803000u, 0x3effffffu, /* ties */
      1u, 2u, 127u, 128u, 129u, 254u, 255u, 256u, 32767u, 32768u, 32769u, 65535u, 65536u, 0x7fffffffu,
      0xffffffffu, 0xffffff81u, 0xffffff80u, 0xffffff7fu, 0xffff8001u, 0xffff8000u, 0xffff7fffu, 0xffff0000u,
      0x12345678u, 0xdeadbeefu, 0x0000ff80u, 0x00018000u,
   };
   int n = (int)(sizeof special / sizeof special[0]);
   memcpy(v, special, sizeof special);
   uint32_t h = 0x2545f491u;
   for (int i = n; i < NV; i++) {
      h = h * 1664525u + 1013904223u;
      uint32_t r = h ^ (h >> 15);
      float f;
      switch (i % 4) {
      case 0: f = (float)(r >> 8) / 16777216.0f * 2.4f - 1.2f; break;   /* [-1.2, 1.2) */
      case 1: f = (float)(r >> 8) / 16777216.0f * 140000.0f - 70000.0f; break;
      case 2: f = ldexpf((float)(r >> 8) / 16777216.0f, -(int)(r % 30)) * (r & 1 ? -1.0f : 1.0f); break;
      default: v[i] = r & 1 ? (r >> 1) % 140000u - 70000u : r; continue;
      }
      memcpy(&v[i], &f, 4);
   }
}

int main(void)
{
   check_begin("surf_formatted");
   REQUIRE_CUDA(cudaSetDevice(0));
   static unsigned vals[NV];
   make_values(vals);
   unsigned *dvals;
   REQUIRE_CUDA(cudaMalloc(&dvals, sizeof vals));
   REQUIRE_CUDA(cudaMemcpy(dvals, vals, sizeof vals, cudaMemcpyHostToDevice));

   static unsigned char buf[NV * 16], misc[NMISC * 16];
   static uint32_t got[NV * 4], want[NV * 4];
   const int kinds[3] = {0, 1, 2};
   for (int ki = 0; ki < 3; ki++)
      for (int bytes = 1; bytes <= 4; bytes *= 2)
         for (int nch = 1; nch <= 4; nch *= 2) {
            fmt f = {kinds[ki], bytes, nch};
            if (f.kind == 2 && bytes == 1)
               continue;
            size_t elem = (size_t)bytes * nch;
            cudaArray_t a = make_array(f, NV, 0, 0, 0), m = make_array(f, NMISC, 0, 0, 0);
            memset(buf, 0xa5, sizeof buf);
            CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, buf, NV * elem, NV * elem, 1, cudaMemcpyHostToDevice));
            CHECK_CUDA(cudaMemcpy2DToArray(m, 0, 0, buf, NMISC * elem, NMISC * elem, 1, cudaMemcpyHostToDevice));
            cudaSurfaceObject_t sa = tex_model_surface(a), sm = tex_model_surface(m);
            k_v4<<<(NV + 63) / 64, 64>>>(sa, dvals);
            k_misc<<<1, 14>>>(sm, dvals);
            CHECK_CUDA(cudaDeviceSynchronize());
            CHECK_CUDA(cudaMemcpy2DFromArray(buf, NV * elem, a, 0, 0, NV * elem, 1, cudaMemcpyDeviceToHost));
            CHECK_CUDA(cudaMemcpy2DFromArray(misc, NMISC * elem, m, 0, 0, NMISC * elem, 1, cudaMemcpyDeviceToHost));

            for (int i = 0; i < NV; i++)
               for (int k = 0; k < nch; k++) {
                  got[i * nch + k] = chan(buf, f, i, k);
                  want[i * nch + k] = fmt_model(vals[(i + k) % NV], f.kind, bytes);
               }
            char what[96];
            snprintf(what, sizeof what, "sust.p.1d.v4 into %s", fmt_name(f));
            CHECK_ARRAY_U32(what, got, want, (size_t)NV * nch);

            /* the misc surface: what each sample should hold */
            for (int i = 0; i < NMISC; i++) {
               int t = -1, n = 0;   /* the thread that stores there, and its width */
               if (i >= 1 && i <= 4)
                  t = i - 1, n = 1;
               else if (i >= 5 && i <= 8)
                  t = i - 1, n = 2;
               else if (i == 0)
                  t = 8, n = 4;
               else if (i == 15)
                  t = 9, n = 2;
               else if (i == 9)
                  t = 12, n = 2;
               else if (i == 10)
                  t = 13, n = 4;
               unsigned src[4] = {vals[t * 37 % NV], vals[(t * 37 + 11) % NV], vals[(t * 37 + 5) % NV],
                                  vals[(t * 37 + 23) % NV]};
               for (int k = 0; k < nch; k++) {
                  got[i * nch + k] = chan(misc, f, i, k);
                  want[i * nch + k] = t < 0 ? sentinel(f) : fmt_model(k < n ? src[k] : 0u, f.kind, bytes);
               }
            }
            snprintf(what, sizeof what, "scalar/.v2 stores and boundary modes into %s", fmt_name(f));
            CHECK_ARRAY_U32(what, got, want, (size_t)NMISC * nch);
            CHECK_CUDA(cudaDestroySurfaceObject(sa));
            CHECK_CUDA(cudaDestroySurfaceObject(sm));
            CHECK_CUDA(cudaFreeArray(a));
            CHECK_CUDA(cudaFreeArray(m));
         }

   /* the geometries: x in samples, then y, z or the layer */
   struct geo {
      fmt f;
      int w, h, d, layered, n, scale;
      const char *name;
   } geos[4] = {
      {{0, 2, 4}, 7, 3, 0, 0, 4, 397, "sust.p.2d.v4 into u16 x4 (7 x 3)"},
      {{2, 2, 4}, 4, 3, 2, 0, 4, 0x00800123, "sust.p.3d.v4.zero into f16 x4 (4 x 3 x 2)"},
      {{1, 1, 2}, 5, 3, 4, 1, 2, 3, "sust.p.a2d.v2 into s8 x2 (5 x 3, 4 layers)"},
      {{1, 4, 1}, 6, 0, 3, 2, 4, 0x01000001, "sust.p.a1d.v4.trap into s32 x1 (6, 3 layers)"},
   };
   for (int g = 0; g < 4; g++) {
      const geo &G = geos[g];
      const fmt &f = G.f;
      int h = G.h ? G.h : 1, nsamp = G.w * h * (G.d ? G.d : 1);
      size_t elem = (size_t)f.bytes * f.nch;
      cudaArray_t a = make_array(f, G.w, G.h, G.d, G.layered ? cudaArrayLayered : 0);
      memset(buf, 0xa5, sizeof buf);
      cudaMemcpy3DParms p;
      memset(&p, 0, sizeof p);
      p.srcPtr = make_cudaPitchedPtr(buf, G.w * elem, G.w, h);
      p.dstArray = a;
      p.extent = make_cudaExtent(G.w, h, G.d ? G.d : 1);
      p.kind = cudaMemcpyHostToDevice;
      CHECK_CUDA(cudaMemcpy3D(&p));
      cudaSurfaceObject_t s = tex_model_surface(a);
      if (g == 0)
         k_2d<<<G.h, G.w>>>(s, G.scale);
      else if (g == 1)
         k_3d<<<G.d, dim3(G.w, G.h)>>>(s, G.scale);
      else if (g == 2)
         k_a2d<<<G.d, dim3(G.w, G.h)>>>(s, G.scale);
      else
         k_a1d<<<G.d, G.w>>>(s, G.scale);
      CHECK_CUDA(cudaDeviceSynchronize());
      memset(&p, 0, sizeof p);
      p.srcArray = a;
      p.dstPtr = make_cudaPitchedPtr(buf, G.w * elem, G.w, h);
      p.extent = make_cudaExtent(G.w, h, G.d ? G.d : 1);
      p.kind = cudaMemcpyDeviceToHost;
      CHECK_CUDA(cudaMemcpy3D(&p));
      for (int i = 0; i < nsamp; i++) {
         int x = i % G.w, y = i / G.w % h, z = i / G.w / h;
         if (g == 3)   /* a1d: the layers are the slices, y stays 0 */
            y = z, z = 0;
         for (int k = 0; k < f.nch; k++) {
            got[i * f.nch + k] = chan(buf, f, i, k);
            want[i * f.nch + k] = fmt_model(k < G.n ? geo_val(x, y, z, k, G.scale) : 0u, f.kind, f.bytes);
         }
      }
      CHECK_ARRAY_U32(G.name, got, want, (size_t)nsamp * f.nch);
      CHECK_CUDA(cudaDestroySurfaceObject(s));
      CHECK_CUDA(cudaFreeArray(a));
   }

   /* last, the error is sticky: a store outside in the trap mode */
   fmt f1 = {2, 4, 1};
   cudaArray_t t = make_array(f1, NMISC, 0, 0, 0);
   k_trap<<<1, 1>>>(tex_model_surface(t));
   CHECK_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
   return check_end();
}
