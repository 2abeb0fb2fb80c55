/*
 * tex_unorm.cu — CUDA arrays of the normalised channel formats
 * (cudaChannelFormatKindUnsignedNormalized8X1 ... SignedNormalized16X4,
 * the driver's CU_AD_FORMAT_UNORM_INT8X1 ... SNORM_INT16X4): made in every
 * geometry, described back, read through textures and surfaces, written by
 * formatted surface stores.  Against host models:
 *  - sust.p (formatted stores) converts a float to a b-bit unorm channel
 *    as an H100 does (native-run probe "sustp": 0 misses of 114 688
 *    channels, tests/cuda/NATIVE.md): NaN, -0 and v <= 0 give 0, v >= 1
 *    gives 2^b - 1, else t = floor(v 2^(b+4)) gives (t (2^b - 1) +
 *    2^(b+3) - 1) >> (b + 4) (0.5 gives 127); snorm the same on |v| with
 *    b - 1 bits, the sign applied after (-1 gives -127);
 *  - suld.b / sust.b move the channels' bits;
 *  - a texture over an array (cudaReadModeNormalizedFloat:
 *    cudaReadModeElementType is cudaErrorInvalidNormSetting) reads an unorm
 *    channel as v / (2^b - 1) and an snorm one as max(v / (2^(b-1) - 1),
 *    -1), as a CUDA normalised integer read; linear filtering gives what a
 *    normalised read of the integer format of the same bits gives, and for
 *    the unorm formats is within 1e-5 of the float model with the H200's
 *    corner weights (tex_model.h; tex2d.cu: an H200's normalised filtering
 *    is not that model's bits).  The H200 filters the snorm formats (and
 *    signed integers read as normalised floats) up to one step of the
 *    format away from that model, not yet modelled: no float-model check
 *    for them;
 *  - over linear memory the H200 refuses the formats: cudaErrorInvalidValue
 *    read as normalised floats (cudaErrorInvalidNormSetting as elements);
 *  - cudaArrayGetInfo / cudaGetChannelDesc answer the description
 *    cudaCreateChannelDesc<kind>() gives, cuArrayGetDescriptor the driver
 *    format with the kind's channel count; a description whose bits are not
 *    those is cudaErrorInvalidChannelDescriptor.
 * The runtime's answers (descriptions, refusals, read modes) are those of
 * NVIDIA's runtime, CUDA 13.0's static one (this program built without
 * -cudart shared, run over metalcuda's driver), and every answer and read
 * here is an H200's (tests/cuda/NATIVE.md, 2026-12-06).  Formats metalcuda does not read (block compressed, NV12,
 * 10-10-10-2) are cudaErrorNotSupported through metalcuda (NVIDIA makes
 * them).
 */
// nvcc-flags: -lcuda
#include "tex_model.h"

#include <cuda.h>
#include <math.h>

enum { NV = 256, W = 16, H = 4 };

struct nfmt {
   cudaChannelFormatKind kind;
   int bits, nch;
   bool sgn;
   CUarray_format cu;
};

static const nfmt fmts[12] = {
   { cudaChannelFormatKindUnsignedNormalized8X1, 8, 1, false, CU_AD_FORMAT_UNORM_INT8X1 },
   { cudaChannelFormatKindUnsignedNormalized8X2, 8, 2, false, CU_AD_FORMAT_UNORM_INT8X2 },
   { cudaChannelFormatKindUnsignedNormalized8X4, 8, 4, false, CU_AD_FORMAT_UNORM_INT8X4 },
   { cudaChannelFormatKindUnsignedNormalized16X1, 16, 1, false, CU_AD_FORMAT_UNORM_INT16X1 },
   { cudaChannelFormatKindUnsignedNormalized16X2, 16, 2, false, CU_AD_FORMAT_UNORM_INT16X2 },
   { cudaChannelFormatKindUnsignedNormalized16X4, 16, 4, false, CU_AD_FORMAT_UNORM_INT16X4 },
   { cudaChannelFormatKindSignedNormalized8X1, 8, 1, true, CU_AD_FORMAT_SNORM_INT8X1 },
   { cudaChannelFormatKindSignedNormalized8X2, 8, 2, true, CU_AD_FORMAT_SNORM_INT8X2 },
   { cudaChannelFormatKindSignedNormalized8X4, 8, 4, true, CU_AD_FORMAT_SNORM_INT8X4 },
   { cudaChannelFormatKindSignedNormalized16X1, 16, 1, true, CU_AD_FORMAT_SNORM_INT16X1 },
   { cudaChannelFormatKindSignedNormalized16X2, 16, 2, true, CU_AD_FORMAT_SNORM_INT16X2 },
   { cudaChannelFormatKindSignedNormalized16X4, 16, 4, true, CU_AD_FORMAT_SNORM_INT16X4 },
};

static const char *fname(const nfmt &f)
{
   static char b[32];
   snprintf(b, sizeof b, "%s%dx%d", f.sgn ? "snorm" : "unorm", f.bits, f.nch);
   return b;
}

static cudaChannelFormatDesc desc_of(const nfmt &f)
{
   int b = f.bits;
   return cudaCreateChannelDesc(b, f.nch > 1 ? b : 0, f.nch > 2 ? b : 0, f.nch > 3 ? b : 0, f.kind);
}

static int elem_bytes(const nfmt &f) { return f.bits / 8 * f.nch; }

/* sust.p's conversion of the float with bits v (the H100's rule above). */
static uint32_t store_model(uint32_t v, const nfmt &f)
{
   float x;
   memcpy(&x, &v, 4);
   int b = f.sgn ? f.bits - 1 : f.bits;
   uint64_t top = (1u << b) - 1u, r;
   float a = f.sgn ? fabsf(x) : x;
   if (!(a > 0.0f))
      r = 0;
   else if (a >= 1.0f)
      r = top;
   else {
      uint64_t t = (uint64_t)ldexpf(a, b + 4);   /* exact, then floor */
      r = (t * top + (1ull << (b + 3)) - 1) >> (b + 4);
   }
   if (f.sgn && x < 0.0f)
      r = 0 - r;
   return (uint32_t)r & (f.bits == 8 ? 0xffu : 0xffffu);
}

/* A texture's reading of a channel's bits. */
static float read_model(uint32_t raw, const nfmt &f)
{
   if (!f.sgn)
      return (float)raw / (float)((1u << f.bits) - 1u);
   int s = f.bits == 8 ? (int)(int8_t)raw : (int)(int16_t)raw;
   float v = (float)s / (float)((1 << (f.bits - 1)) - 1);
   return v < -1.0f ? -1.0f : v;
}

static uint32_t chan_bits(const unsigned char *p, const nfmt &f, size_t i, int k)
{
   uint32_t v = 0;
   memcpy(&v, p + (i * f.nch + k) * (f.bits / 8), f.bits / 8);
   return v;
}

__global__ void k_sustp(cudaSurfaceObject_t s, const unsigned *vals)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= NV)
      return;
   asm volatile("sust.p.1d.v4.b32.clamp [%0, {%1}], {%2, %3, %4, %5};" ::"l"(s), "r"(i), "r"(vals[i]),
                "r"(vals[(i + 1) % NV]), "r"(vals[(i + 2) % NV]), "r"(vals[(i + 3) % NV])
                : "memory");
}

/* sust.p into a 2-D layered surface: sample (x, y) of layer z gets {g, ~g}
 * (.v2) where g = vals[(x + 5 y + 17 z) % NV]. */
__global__ void k_sustp_a2d(cudaSurfaceObject_t s, const unsigned *vals)
{
   int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
   unsigned g = vals[(x + 5 * y + 17 * z) % NV];
   asm volatile("sust.p.a2d.v2.b32.clamp [%0, {%3, %1, %2, %2}], {%4, %5};" ::"l"(s), "r"(x), "r"(y), "r"(z),
                "r"(g), "r"(g ^ 0x80000000u)
                : "memory");
}

/* suld.b of each element's bytes (as 1, 2, 4 or 8 bytes: x in bytes). */
__global__ void k_suld(cudaSurfaceObject_t s, int elem, unsigned long long *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned long long v;
   if (elem == 1)
      v = surf1Dread<unsigned char>(s, i);
   else if (elem == 2)
      v = surf1Dread<unsigned short>(s, 2 * i);
   else if (elem == 4)
      v = surf1Dread<unsigned>(s, 4 * i);
   else {
      uint2 u = surf1Dread<uint2>(s, 8 * i);
      v = u.x | (unsigned long long)u.y << 32;
   }
   out[i] = v;
}

__global__ void k_tex2d(cudaTextureObject_t t, const float2 *c, float4 *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      out[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

/* geo 0: 3-D, 1: 2-D layered, 2: level 1 of a mipmapped array
 * (normalised coordinates), 3: a cube map along dir[i]; texel (x, y) of
 * slice, layer or face z. */
__global__ void k_tex_geo(cudaTextureObject_t t, int geo, const float4 *dir, float4 *out)
{
   int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x, i = (z * blockDim.y + y) * blockDim.x + x;
   float u = x + 0.5f, v = y + 0.5f;
   if (geo == 0)
      out[i] = tex3D<float4>(t, u, v, z + 0.5f);
   else if (geo == 1)
      out[i] = tex2DLayered<float4>(t, u, v, z);
   else if (geo == 2)
      out[i] = tex2DLod<float4>(t, u / blockDim.x, v / blockDim.y, 1.0f);
   else
      out[i] = texCubemap<float4>(t, dir[i].x, dir[i].y, dir[i].z);
}

static void make_values(unsigned *v)
{
   static const unsigned special[] = {
      0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0xbf000000u, 0x3eaaaaabu, 0x3f7fffffu,
      0x3f800001u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x00000001u, 0x80000001u, 0x3b808081u,
      0x3b800000u, 0x37800080u, 0x377fff00u, 0x40000000u, 0xc0000000u, 0x3c010204u, 0xbc010204u, 0x3efefefeu,
   };
   int n = (int)(sizeof special / sizeof special[0]);
   memcpy(v, special, sizeof special);
   uint32_t h = 0x9e3779b9u;
   for (int i = n; i < NV; i++) {
      h = h * 1664525u + 1013904223u;
      float f = (float)((h ^ (h >> 15)) >> 8) / 16777216.0f * 2.5f - 1.25f;   /* [-1.25, 1.25) */
      memcpy(&v[i], &f, 4);
   }
}

static cudaTextureObject_t tex_of(const cudaResourceDesc *rd, bool linear, bool norm_coords,
                                  cudaTextureReadMode rm, cudaError_t *err)
{
   cudaTextureDesc td;
   memset(&td, 0, sizeof td);
   td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
   td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
   td.readMode = rm;
   td.normalizedCoords = norm_coords;
   cudaTextureObject_t t = 0;
   *err = cudaCreateTextureObject(&t, rd, &td, NULL);
   return t;
}

static cudaResourceDesc res_array(cudaArray_t a)
{
   cudaResourceDesc rd = {};
   rd.resType = cudaResourceTypeArray, rd.res.array.array = a;
   return rd;
}

/* The descriptions an array of format f answers with. */
static void check_described(cudaArray_t a, const nfmt &f, size_t w, size_t h, size_t d, unsigned flags)
{
   cudaChannelFormatDesc want = desc_of(f), got;
   cudaExtent ext;
   unsigned fl = 0xdeadbeefu;
   memset(&got, 0xa5, sizeof got);
   CHECK_CUDA(cudaArrayGetInfo(&got, &ext, &fl, a));
   CHECK(got.x == want.x && got.y == want.y && got.z == want.z && got.w == want.w);
   CHECK_INT(got.f, f.kind);
   CHECK_INT(ext.width, w);
   CHECK_INT(ext.height, h);
   CHECK_INT(ext.depth, d);
   CHECK_INT(fl, flags);
   memset(&got, 0xa5, sizeof got);
   CHECK_CUDA(cudaGetChannelDesc(&got, a));
   CHECK_INT(got.f, f.kind);
   CUDA_ARRAY3D_DESCRIPTOR ad;
   memset(&ad, 0xa5, sizeof ad);
   CHECK_INT(cuArray3DGetDescriptor(&ad, (CUarray)a), CUDA_SUCCESS);
   CHECK_INT(ad.Format, f.cu);
   CHECK_INT(ad.NumChannels, f.nch);
}

/* Every geometry of format f is made and describes itself. */
static void check_geometries(const nfmt &f)
{
   cudaChannelFormatDesc cd = desc_of(f);
   cudaArray_t a;
   CHECK_CUDA(cudaMallocArray(&a, &cd, 16, 0, cudaArraySurfaceLoadStore));
   check_described(a, f, 16, 0, 0, cudaArraySurfaceLoadStore);
   CHECK_CUDA(cudaFreeArray(a));
   CHECK_CUDA(cudaMallocArray(&a, &cd, 16, 8, 0));
   check_described(a, f, 16, 8, 0, 0);
   CHECK_CUDA(cudaFreeArray(a));
   struct { size_t w, h, d; unsigned flags; } g[] = {
      { 8, 8, 4, 0 }, { 8, 0, 3, cudaArrayLayered }, { 8, 8, 3, cudaArrayLayered | cudaArraySurfaceLoadStore },
      { 8, 8, 6, cudaArrayCubemap }, { 8, 8, 12, cudaArrayCubemap | cudaArrayLayered }, { 8, 8, 0, cudaArrayTextureGather },
   };
   for (auto &x : g) {
      if (CHECK_CUDA(cudaMalloc3DArray(&a, &cd, make_cudaExtent(x.w, x.h, x.d), x.flags))) {
         check_described(a, f, x.w, x.h, x.d, x.flags);
         CHECK_CUDA(cudaFreeArray(a));
      }
   }
   cudaMipmappedArray_t m;
   if (CHECK_CUDA(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(16, 16, 0), 3, 0))) {
      cudaArray_t l;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&l, m, 2));
      check_described(l, f, 4, 4, 0, 0);
      CHECK_CUDA(cudaFreeMipmappedArray(m));
   }
   /* 2^32 bytes of elements, at most 2^30 (an H200's rule for the other
    * formats: devattr_claims.cu) */
   size_t lin = 0;
   CHECK_CUDA(cudaDeviceGetTexture1DLinearMaxWidth(&lin, &cd, 0));
   CHECK_INT(lin, elem_bytes(f) == 8 ? (size_t)1 << 29 : (size_t)1 << 30);
   /* the driver: the format with the kind's channel count */
   CUDA_ARRAY_DESCRIPTOR ad = { 16, 4, f.cu, (unsigned)f.nch };
   CUarray ca;
   if (CHECK_INT(cuArrayCreate(&ca, &ad), CUDA_SUCCESS)) {
      check_described((cudaArray_t)ca, f, 16, 4, 0, 0);
      CHECK_INT(cuArrayDestroy(ca), CUDA_SUCCESS);
   }
}

/* sust.p of NV values, suld.b and sust.b of raw bits, on a 1-D surface. */
static void check_surfaces(const nfmt &f, const unsigned *vals, const unsigned *dvals)
{
   cudaChannelFormatDesc cd = desc_of(f);
   int eb = elem_bytes(f);
   cudaArray_t a;
   if (!CHECK_CUDA(cudaMallocArray(&a, &cd, NV, 0, cudaArraySurfaceLoadStore)))
      return;
   static unsigned char buf[NV * 8];
   memset(buf, 0xa5, sizeof buf);
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, buf, NV * eb, NV * eb, 1, cudaMemcpyHostToDevice));
   cudaResourceDesc rd = res_array(a);
   cudaSurfaceObject_t s;
   CHECK_CUDA(cudaCreateSurfaceObject(&s, &rd));
   k_sustp<<<NV / 64, 64>>>(s, dvals);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy2DFromArray(buf, NV * eb, a, 0, 0, NV * eb, 1, cudaMemcpyDeviceToHost));
   static uint32_t got[NV * 4], want[NV * 4];
   for (int i = 0; i < NV; i++)
      for (int k = 0; k < f.nch; k++) {
         got[i * f.nch + k] = chan_bits(buf, f, i, k);
         want[i * f.nch + k] = store_model(vals[(i + k) % NV], f);
      }
   char what[64];
   snprintf(what, sizeof what, "%s sust.p", fname(f));
   CHECK_ARRAY_U32(what, got, want, NV * f.nch);

   /* suld.b reads those bits back */
   unsigned long long *dout, hout[NV];
   CHECK_CUDA(cudaMalloc(&dout, sizeof hout));
   k_suld<<<NV / 64, 64>>>(s, eb, dout, NV);
   CHECK_CUDA(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
   static uint32_t g2[NV * 2], w2[NV * 2];
   for (int i = 0; i < NV; i++) {
      unsigned long long w = 0;
      memcpy(&w, buf + i * eb, eb);
      g2[2 * i] = (uint32_t)hout[i], g2[2 * i + 1] = (uint32_t)(hout[i] >> 32);
      w2[2 * i] = (uint32_t)w, w2[2 * i + 1] = (uint32_t)(w >> 32);
   }
   snprintf(what, sizeof what, "%s suld.b", fname(f));
   CHECK_ARRAY_U32(what, g2, w2, 2 * NV);
   CHECK_CUDA(cudaFree(dout));
   CHECK_CUDA(cudaDestroySurfaceObject(s));
   CHECK_CUDA(cudaFreeArray(a));
}

/* sust.p into a layered 2-D surface (5 x 3, 4 layers). */
static void check_layered_store(const nfmt &f, const unsigned *vals, const unsigned *dvals)
{
   cudaChannelFormatDesc cd = desc_of(f);
   int eb = elem_bytes(f);
   cudaArray_t a;
   if (!CHECK_CUDA(cudaMalloc3DArray(&a, &cd, make_cudaExtent(5, 3, 4), cudaArrayLayered | cudaArraySurfaceLoadStore)))
      return;
   cudaResourceDesc rd = res_array(a);
   cudaSurfaceObject_t s;
   CHECK_CUDA(cudaCreateSurfaceObject(&s, &rd));
   k_sustp_a2d<<<4, dim3(5, 3)>>>(s, dvals);
   CHECK_CUDA(cudaDeviceSynchronize());
   static unsigned char buf[5 * 3 * 4 * 8];
   cudaMemcpy3DParms p;
   memset(&p, 0, sizeof p);
   p.srcArray = a;
   p.dstPtr = make_cudaPitchedPtr(buf, 5 * eb, 5, 3);
   p.extent = make_cudaExtent(5, 3, 4);
   p.kind = cudaMemcpyDeviceToHost;
   CHECK_CUDA(cudaMemcpy3D(&p));
   static uint32_t got[60 * 4], want[60 * 4];
   int n = 0;
   for (int z = 0; z < 4; z++)
      for (int y = 0; y < 3; y++)
         for (int x = 0; x < 5; x++)
            for (int k = 0; k < f.nch; k++, n++) {
               unsigned g = vals[(x + 5 * y + 17 * z) % NV];
               got[n] = chan_bits(buf, f, (z * 3 + y) * 5 + x, k);
               want[n] = k == 0 ? store_model(g, f) : k == 1 ? store_model(g ^ 0x80000000u, f) : 0u;
            }
   char what[64];
   snprintf(what, sizeof what, "%s sust.p.a2d", fname(f));
   CHECK_ARRAY_U32(what, got, want, n);
   CHECK_CUDA(cudaDestroySurfaceObject(s));
   CHECK_CUDA(cudaFreeArray(a));
}

/* The integer format of the same bits (normalised reads of it filter as
 * the normalised format should). */
static cudaChannelFormatDesc int_desc_of(const nfmt &f)
{
   int b = f.bits;
   return cudaCreateChannelDesc(b, f.nch > 1 ? b : 0, f.nch > 2 ? b : 0, f.nch > 3 ? b : 0,
                                f.sgn ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned);
}

/* A W x H array of pseudo-random bits (the format's edge values first),
 * read by point and linear filtering. */
static void check_textures(const nfmt &f, int seed)
{
   int eb = elem_bytes(f), cb = f.bits / 8;
   static unsigned char raw[W * H * 8];
   uint32_t h = 0x1234567u + seed;
   for (int i = 0; i < W * H * eb; i++) {
      h = h * 1664525u + 1013904223u;
      raw[i] = (unsigned char)(h >> 24);
   }
   /* the edge values: 0, 1, the largest positive, the most negative (as
    * snorm: reads -1 as the next one does), the largest, 0.5-ish */
   static const uint16_t edge16[] = { 0, 1, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x4000 };
   static const uint8_t edge8[] = { 0, 1, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x40 };
   if (cb == 1)
      memcpy(raw, edge8, sizeof edge8);
   else
      memcpy(raw, edge16, sizeof edge16);
   cudaChannelFormatDesc cd = desc_of(f), ci = int_desc_of(f);
   cudaArray_t a, ai;
   if (!CHECK_CUDA(cudaMallocArray(&a, &cd, W, H, 0)))
      return;
   CHECK_CUDA(cudaMallocArray(&ai, &ci, W, H, 0));
   CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, raw, W * eb, W * eb, H, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy2DToArray(ai, 0, 0, raw, W * eb, W * eb, H, cudaMemcpyHostToDevice));
   /* coordinates: every texel's centre, then 192 positions between */
   enum { NP = W * H, NC = NP + 192 };
   static float2 c[NC];
   for (int i = 0; i < NP; i++)
      c[i] = make_float2(i % W + 0.5f, i / W + 0.5f);
   for (int i = NP; i < NC; i++) {
      h = h * 1664525u + 1013904223u;
      c[i] = make_float2((float)(h >> 20) / 4096.0f * (W + 1) - 0.5f, (float)((h >> 8) & 0xfff) / 4096.0f * (H + 1) - 0.5f);
   }
   float2 *dc;
   float4 *dout;
   static float4 out[NC], outi[NC];
   CHECK_CUDA(cudaMalloc(&dc, sizeof c));
   CHECK_CUDA(cudaMalloc(&dout, sizeof out));
   CHECK_CUDA(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
   static float got[NC * 4], want[NC * 4];
   char what[96];
   cudaResourceDesc rd = res_array(a), rdi = res_array(ai);
   cudaError_t e;
   /* element reads are refused, filtered or not */
   for (int lin = 0; lin < 2; lin++) {
      tex_of(&rd, lin, false, cudaReadModeElementType, &e);
      CHECK_ERR(e, cudaErrorInvalidNormSetting);
      cudaGetLastError();
   }
   /* the same bits as linear memory: refused either way */
   {
      void *lin = NULL;
      CHECK_CUDA(cudaMalloc(&lin, W * H * eb));
      cudaResourceDesc rl;
      memset(&rl, 0, sizeof rl);
      rl.resType = cudaResourceTypeLinear;
      rl.res.linear.devPtr = lin;
      rl.res.linear.desc = cd;
      rl.res.linear.sizeInBytes = W * H * eb;
      tex_of(&rl, false, false, cudaReadModeElementType, &e);
      CHECK_ERR(e, cudaErrorInvalidNormSetting);
      cudaGetLastError();
      tex_of(&rl, false, false, cudaReadModeNormalizedFloat, &e);
      CHECK_ERR(e, cudaErrorInvalidValue);
      cudaGetLastError();
      CHECK_CUDA(cudaFree(lin));
   }
   /* point sampling: the normalised value of each channel, 0 for those the
    * format lacks */
   {
      cudaTextureObject_t t = tex_of(&rd, false, false, cudaReadModeNormalizedFloat, &e);
      if (CHECK_CUDA(e)) {
         fill_u32(out, NC * 4, SENTINEL32);
         CHECK_CUDA(cudaMemcpy(dout, out, sizeof out, cudaMemcpyHostToDevice));
         k_tex2d<<<(NP + 63) / 64, 64>>>(t, dc, dout, NP);
         CHECK_CUDA(cudaMemcpy(out, dout, NP * sizeof(float4), cudaMemcpyDeviceToHost));
         for (int i = 0; i < NP; i++)
            for (int k = 0; k < 4; k++) {
               got[i * 4 + k] = (&out[i].x)[k];
               want[i * 4 + k] = k < f.nch ? read_model(chan_bits(raw, f, i, k), f) : 0.0f;
            }
         snprintf(what, sizeof what, "%s point, array", fname(f));
         CHECK_ARRAY_F32(what, got, want, NP * 4);
         CHECK_CUDA(cudaDestroyTextureObject(t));
      }
   }
   /* linear filtering (unnormalised coordinates, clamp) against the
    * normalised read of the integer array of the same bits */
   cudaTextureObject_t t = tex_of(&rd, true, false, cudaReadModeNormalizedFloat, &e);
   CHECK_CUDA(e);
   cudaTextureObject_t ti = tex_of(&rdi, true, false, cudaReadModeNormalizedFloat, &e);
   if (CHECK_CUDA(e)) {
      k_tex2d<<<(NC + 63) / 64, 64>>>(t, dc, dout, NC);
      CHECK_CUDA(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
      k_tex2d<<<(NC + 63) / 64, 64>>>(ti, dc, dout, NC);
      CHECK_CUDA(cudaMemcpy(outi, dout, sizeof outi, cudaMemcpyDeviceToHost));
      int worst = -1;
      double worst_d = 0;
      for (int i = 0; i < NC; i++)
         for (int k = 0; k < 4; k++) {
            got[i * 4 + k] = (&out[i].x)[k];
            want[i * 4 + k] = (&outi[i].x)[k];
            /* the float model: bilinear weights in 1/256 (tex2d.cu) */
            float x = c[i].x - 0.5f, y = c[i].y - 0.5f;
            int x0 = (int)floorf(x), y0 = (int)floorf(y);
            int ab[2] = { (int)floorf((x - x0) * 256.0f + 0.5f), (int)floorf((y - y0) * 256.0f + 0.5f) };
            double m = 0;
            for (int q = 0; q < 4; q++) {
               int xi = x0 + (q & 1), yi = y0 + (q >> 1);
               xi = xi < 0 ? 0 : xi >= W ? W - 1 : xi;
               yi = yi < 0 ? 0 : yi >= H ? H - 1 : yi;
               double wq = tex_model_corner_weight(ab, 256, 2, q) / 256.0;
               m += k < f.nch ? wq * read_model(chan_bits(raw, f, yi * W + xi, k), f) : 0.0;
            }
            double d = fabs(m - got[i * 4 + k]);
            if (d > worst_d)
               worst_d = d, worst = i * 4 + k;
         }
      snprintf(what, sizeof what, "%s linear = the integer format's normalised linear", fname(f));
      CHECK_ARRAY_F32(what, got, want, NC * 4);
      if (!f.sgn && !CHECK(worst_d <= 1e-5))   /* snorm: not modelled (the header) */
         printf("  %s linear: %g from the float model at %d\n", fname(f), worst_d, worst);
   }
   CHECK_CUDA(cudaDestroyTextureObject(t));
   CHECK_CUDA(cudaDestroyTextureObject(ti));
   CHECK_CUDA(cudaFree(dc));
   CHECK_CUDA(cudaFree(dout));
   CHECK_CUDA(cudaFreeArray(a));
   CHECK_CUDA(cudaFreeArray(ai));
}

/* Point reads of a 3-D, a layered, a mipmapped and a cube-map texture
 * (4 x 4 texels, 6 slices) at the texels' centres. */
static void check_geometry_reads(const nfmt &f)
{
   int eb = elem_bytes(f);
   enum { S = 4, D = 6, N = S * S * D };
   static unsigned char raw[N * 8];
   for (int i = 0; i < N * eb; i++)
      raw[i] = (unsigned char)(i * 73 + 29);
   cudaChannelFormatDesc cd = desc_of(f);
   float4 *dout, *ddir;
   static float4 out[N], dir[N];
   static float got[N * 4], want[N * 4];
   for (int z = 0; z < D; z++)   /* face z's texel centres (tex_model.h) */
      for (int y = 0; y < S; y++)
         for (int x = 0; x < S; x++) {
            float v[3];
            tex_model_cube_direction(z, (x + 0.5f) / S, (y + 0.5f) / S, 1.0f, v);
            dir[(z * S + y) * S + x] = make_float4(v[0], v[1], v[2], 0.0f);
         }
   CHECK_CUDA(cudaMalloc(&dout, sizeof out));
   CHECK_CUDA(cudaMalloc(&ddir, sizeof dir));
   CHECK_CUDA(cudaMemcpy(ddir, dir, sizeof dir, cudaMemcpyHostToDevice));
   const char *names[4] = { "3-D", "2-D layered", "mipmapped level 1", "cube map" };
   for (int geo = 0; geo < 4; geo++) {
      cudaArray_t a = NULL;
      cudaMipmappedArray_t m = NULL;
      cudaResourceDesc rd;
      memset(&rd, 0, sizeof rd);
      int s = geo == 2 ? 2 * S : S, d = geo == 2 ? 0 : D;
      unsigned flags = geo == 1 ? cudaArrayLayered : geo == 3 ? cudaArrayCubemap : 0;
      cudaArray_t target;
      if (geo == 2) {
         if (!CHECK_CUDA(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(s, s, 0), 2, 0)))
            continue;
         CHECK_CUDA(cudaGetMipmappedArrayLevel(&target, m, 1));
         rd.resType = cudaResourceTypeMipmappedArray;
         rd.res.mipmap.mipmap = m;
      } else {
         if (!CHECK_CUDA(cudaMalloc3DArray(&a, &cd, make_cudaExtent(s, s, d), flags)))
            continue;
         target = a;
         rd = res_array(a);
      }
      cudaMemcpy3DParms p;
      memset(&p, 0, sizeof p);
      p.srcPtr = make_cudaPitchedPtr(raw, S * eb, S, S);
      p.dstArray = target;
      p.extent = make_cudaExtent(S, S, geo == 2 ? 1 : D);
      p.kind = cudaMemcpyHostToDevice;
      CHECK_CUDA(cudaMemcpy3D(&p));
      cudaTextureDesc td;
      memset(&td, 0, sizeof td);
      td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
      td.readMode = cudaReadModeNormalizedFloat;
      td.normalizedCoords = geo >= 2;
      td.maxMipmapLevelClamp = 1.0f;
      cudaTextureObject_t t;
      if (CHECK_CUDA(cudaCreateTextureObject(&t, &rd, &td, NULL))) {
         int layers = geo == 2 ? 1 : D;
         fill_u32(out, N * 4, SENTINEL32);
         CHECK_CUDA(cudaMemcpy(dout, out, sizeof out, cudaMemcpyHostToDevice));
         k_tex_geo<<<layers, dim3(S, S)>>>(t, geo, ddir, dout);
         CHECK_CUDA(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
         int n = S * S * layers;
         for (int i = 0; i < n; i++)
            for (int k = 0; k < 4; k++) {
               got[i * 4 + k] = (&out[i].x)[k];
               want[i * 4 + k] = k < f.nch ? read_model(chan_bits(raw, f, i, k), f) : 0.0f;
            }
         char what[96];
         snprintf(what, sizeof what, "%s %s point", fname(f), names[geo]);
         CHECK_ARRAY_F32(what, got, want, n * 4);
         CHECK_CUDA(cudaDestroyTextureObject(t));
      }
      if (m)
         CHECK_CUDA(cudaFreeMipmappedArray(m));
      if (a)
         CHECK_CUDA(cudaFreeArray(a));
   }
   CHECK_CUDA(cudaFree(dout));
   CHECK_CUDA(cudaFree(ddir));
}

/* Descriptions CUDA has no array for, and formats metalcuda does not read. */
static void check_refusals(void)
{
   cudaArray_t a;
   /* the bits disagree with the kind's */
   cudaChannelFormatDesc bad[] = {
      cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized8X4),
      cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized8X1),
      cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSignedNormalized16X4),
      cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned),
      cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned),
      cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat),
      cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindNone),
      cudaCreateChannelDesc(8, 0, 0, 0, (cudaChannelFormatKind)100),
      /* kinds metalcuda does not read, with bits not their own */
      cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsignedBlockCompressed1),
      cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindNV12),
   };
   for (auto &d : bad) {
      CHECK_ERR(cudaMallocArray(&a, &d, 16, 16, 0), cudaErrorInvalidChannelDescriptor);
      cudaGetLastError();
   }
   CUDA_ARRAY_DESCRIPTOR ad = { 16, 16, CU_AD_FORMAT_UNORM_INT8X4, 1 };
   CUarray ca;
   CHECK_INT(cuArrayCreate(&ca, &ad), CUDA_ERROR_INVALID_VALUE);
   ad.Format = CU_AD_FORMAT_SNORM_INT16X1, ad.NumChannels = 2;
   CHECK_INT(cuArrayCreate(&ca, &ad), CUDA_ERROR_INVALID_VALUE);
   /* formats NVIDIA makes and metalcuda does not read */
   if (on_metalcuda()) {
      cudaChannelFormatDesc ns[] = {
         cudaCreateChannelDesc<cudaChannelFormatKindUnsignedBlockCompressed1>(),
         cudaCreateChannelDesc<cudaChannelFormatKindSignedBlockCompressed6H>(),
         cudaCreateChannelDesc<cudaChannelFormatKindNV12>(),
         cudaCreateChannelDesc<cudaChannelFormatKindUnsignedNormalized1010102>(),
      };
      for (auto &d : ns) {
         CHECK_ERR(cudaMallocArray(&a, &d, 16, 16, 0), cudaErrorNotSupported);
         cudaGetLastError();
      }
      ad.Format = CU_AD_FORMAT_BC7_UNORM, ad.NumChannels = 4;
      CHECK_INT(cuArrayCreate(&ca, &ad), CUDA_ERROR_NOT_SUPPORTED);
      ad.Format = CU_AD_FORMAT_NV12, ad.NumChannels = 3;
      CHECK_INT(cuArrayCreate(&ca, &ad), CUDA_ERROR_NOT_SUPPORTED);
   }
}

int main(void)
{
   check_begin("tex_unorm");
   REQUIRE_CUDA(cudaSetDevice(0));
   /* the values sust.p stores, on the host and the device */
   static unsigned vals[NV], *dvals;
   make_values(vals);
   REQUIRE_CUDA(cudaMalloc(&dvals, sizeof vals));
   REQUIRE_CUDA(cudaMemcpy(dvals, vals, sizeof vals, cudaMemcpyHostToDevice));
   for (int i = 0; i < 12; i++) {
      check_geometries(fmts[i]);
      check_surfaces(fmts[i], vals, dvals);
      check_textures(fmts[i], i);
   }
   check_layered_store(fmts[2], vals, dvals);
   check_layered_store(fmts[10], vals, dvals);
   check_geometry_reads(fmts[2]);
   check_geometry_reads(fmts[10]);
   check_refusals();
   CHECK_CUDA(cudaFree(dvals));
   return check_end();
}
