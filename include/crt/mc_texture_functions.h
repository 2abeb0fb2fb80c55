/*
 * mc_texture_functions.h — CUDA's texture and surface object functions
 * (texture_indirect_functions.h, surface_indirect_functions.h: tex1Dfetch,
 * tex1D, tex2D, tex3D, tex1DLayered, tex2DLayered, tex2Dgather,
 * texCubemap, texCubemapLayered and their *Lod forms for mipmapped
 * textures, tex1DGrad, tex2DGrad, tex3DGrad, tex1DLayeredGrad,
 * tex2DLayeredGrad, texCubemapGrad and texCubemapLayeredGrad (tex.grad:
 * what metalcuda's compiler cannot reproduce exactly, some 3-D and
 * cube-map gradients, fails the launch: prelude/tex.metal),
 * surf1D/2D/1DLayered/2DLayered/Cubemap/CubemapLayered
 * read/write) and the
 * cudaCreateChannelDesc<T> templates, for clang.  Each fetch is the PTX
 * instruction nvcc emits for it (tex{,.level,.grad}.{1d,2d,3d,a1d,a2d,cube,acube}.v4.{f32,s32,u32}.{f32,s32};
 * tld4.{r,g,b,a}.2d; suld.b / sust.b with the boundary mode), which metalcuda's compiler
 * translates (src/compiler/ir/build_tex.c).  T picks the result kind:
 * float types .f32, signed integers .s32, unsigned .u32, narrowed to T's
 * components.  Surfaces move T's bytes as b32 words (or one b16 / b8 for
 * 2- and 1-byte T).  Included by cuda_runtime.h.
 */
#ifndef MC_TEXTURE_FUNCTIONS_H
#define MC_TEXTURE_FUNCTIONS_H

#ifdef __cplusplus

/* ---- cudaCreateChannelDesc<T> ---- */
template <class T> struct mc_channel;
#define MC_CHANNEL(T, n, bits, kind)                                                              \
   template <> struct mc_channel<T> {                                                             \
      static struct cudaChannelFormatDesc get()                                                   \
      {                                                                                           \
         return cudaCreateChannelDesc(bits, n > 1 ? bits : 0, n > 2 ? bits : 0, n > 3 ? bits : 0, \
                                      kind);                                                      \
      }                                                                                           \
   };
#define MC_CHANNEL_VEC(base, bits, kind)                                                          \
   MC_CHANNEL(base##1, 1, bits, kind) MC_CHANNEL(base##2, 2, bits, kind) MC_CHANNEL(base##4, 4, bits, kind)
MC_CHANNEL(char, 1, 8, cudaChannelFormatKindSigned)
MC_CHANNEL(signed char, 1, 8, cudaChannelFormatKindSigned)
MC_CHANNEL(unsigned char, 1, 8, cudaChannelFormatKindUnsigned)
MC_CHANNEL(short, 1, 16, cudaChannelFormatKindSigned)
MC_CHANNEL(unsigned short, 1, 16, cudaChannelFormatKindUnsigned)
MC_CHANNEL(int, 1, 32, cudaChannelFormatKindSigned)
MC_CHANNEL(unsigned int, 1, 32, cudaChannelFormatKindUnsigned)
MC_CHANNEL(float, 1, 32, cudaChannelFormatKindFloat)
MC_CHANNEL_VEC(char, 8, cudaChannelFormatKindSigned)
MC_CHANNEL_VEC(uchar, 8, cudaChannelFormatKindUnsigned)
MC_CHANNEL_VEC(short, 16, cudaChannelFormatKindSigned)
MC_CHANNEL_VEC(ushort, 16, cudaChannelFormatKindUnsigned)
MC_CHANNEL_VEC(int, 32, cudaChannelFormatKindSigned)
MC_CHANNEL_VEC(uint, 32, cudaChannelFormatKindUnsigned)
MC_CHANNEL_VEC(float, 32, cudaChannelFormatKindFloat)
#undef MC_CHANNEL_VEC
#undef MC_CHANNEL
template <class T> static inline struct cudaChannelFormatDesc cudaCreateChannelDesc(void)
{
   return mc_channel<T>::get();
}

/* half channels (CUDA's channel_descriptor.h names them by function) */
static inline struct cudaChannelFormatDesc cudaCreateChannelDescHalf(void)
{
   return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline struct cudaChannelFormatDesc cudaCreateChannelDescHalf1(void)
{
   return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static inline struct cudaChannelFormatDesc cudaCreateChannelDescHalf2(void)
{
   return cudaCreateChannelDesc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
static inline struct cudaChannelFormatDesc cudaCreateChannelDescHalf4(void)
{
   return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}

/* cudaCreateChannelDesc<kind>(): the formats a kind alone names (the
 * normalised ones, block-compressed, NV12, 10-10-10-2), with the channel
 * bits CUDA gives them (what src/api/runtime/array.c takes back) */
template <enum cudaChannelFormatKind K> struct mc_channel_kind;
#define MC_CHANNEL_KIND(K, x, y, z, w)                                                            \
   template <> struct mc_channel_kind<cudaChannelFormatKind##K> {                                 \
      static struct cudaChannelFormatDesc get() { return cudaCreateChannelDesc(x, y, z, w, cudaChannelFormatKind##K); } \
   };
#define MC_CHANNEL_NORM(S, bits)                                                                  \
   MC_CHANNEL_KIND(S##Normalized##bits##X1, bits, 0, 0, 0)                                        \
   MC_CHANNEL_KIND(S##Normalized##bits##X2, bits, bits, 0, 0)                                     \
   MC_CHANNEL_KIND(S##Normalized##bits##X4, bits, bits, bits, bits)
MC_CHANNEL_NORM(Unsigned, 8)
MC_CHANNEL_NORM(Unsigned, 16)
MC_CHANNEL_NORM(Signed, 8)
MC_CHANNEL_NORM(Signed, 16)
MC_CHANNEL_KIND(NV12, 8, 8, 8, 0)
MC_CHANNEL_KIND(UnsignedBlockCompressed1, 8, 8, 8, 8)
MC_CHANNEL_KIND(UnsignedBlockCompressed1SRGB, 8, 8, 8, 8)
MC_CHANNEL_KIND(UnsignedBlockCompressed2, 8, 8, 8, 8)
MC_CHANNEL_KIND(UnsignedBlockCompressed2SRGB, 8, 8, 8, 8)
MC_CHANNEL_KIND(UnsignedBlockCompressed3, 8, 8, 8, 8)
MC_CHANNEL_KIND(UnsignedBlockCompressed3SRGB, 8, 8, 8, 8)
MC_CHANNEL_KIND(UnsignedBlockCompressed4, 8, 0, 0, 0)
MC_CHANNEL_KIND(SignedBlockCompressed4, 8, 0, 0, 0)
MC_CHANNEL_KIND(UnsignedBlockCompressed5, 8, 8, 0, 0)
MC_CHANNEL_KIND(SignedBlockCompressed5, 8, 8, 0, 0)
MC_CHANNEL_KIND(UnsignedBlockCompressed6H, 16, 16, 16, 0)
MC_CHANNEL_KIND(SignedBlockCompressed6H, 16, 16, 16, 0)
MC_CHANNEL_KIND(UnsignedBlockCompressed7, 8, 8, 8, 8)
MC_CHANNEL_KIND(UnsignedBlockCompressed7SRGB, 8, 8, 8, 8)
MC_CHANNEL_KIND(UnsignedNormalized1010102, 10, 10, 10, 2)
#undef MC_CHANNEL_NORM
#undef MC_CHANNEL_KIND
template <enum cudaChannelFormatKind K> static inline struct cudaChannelFormatDesc cudaCreateChannelDesc(void)
{
   return mc_channel_kind<K>::get();
}

#if defined(__CUDA__)

namespace mc_tex {
/* k: 0 float, 1 signed, 2 unsigned result; from(): the 4-vector narrowed to T */
template <class T> struct info;
#define MC_TEX_INFO(T, V, kind, make)                                                         \
   template <> struct info<T> {                                                               \
      enum { k = kind };                                                                      \
      static __device__ T from(V a, V b, V c, V d) { (void)b, (void)c, (void)d; return make; } \
   };
#define MC_TEX_VEC(base, scalar, V, kind)                                                     \
   MC_TEX_INFO(base##1, V, kind, make_##base##1((scalar)a))                                    \
   MC_TEX_INFO(base##2, V, kind, make_##base##2((scalar)a, (scalar)b))                         \
   MC_TEX_INFO(base##4, V, kind, make_##base##4((scalar)a, (scalar)b, (scalar)c, (scalar)d))
MC_TEX_INFO(float, float, 0, a)
MC_TEX_INFO(int, int, 1, a)
MC_TEX_INFO(unsigned int, unsigned, 2, a)
MC_TEX_INFO(char, int, 1, (char)a)
MC_TEX_INFO(signed char, int, 1, (signed char)a)
MC_TEX_INFO(unsigned char, unsigned, 2, (unsigned char)a)
MC_TEX_INFO(short, int, 1, (short)a)
MC_TEX_INFO(unsigned short, unsigned, 2, (unsigned short)a)
MC_TEX_VEC(float, float, float, 0)
MC_TEX_VEC(int, int, int, 1)
MC_TEX_VEC(uint, unsigned, unsigned, 2)
MC_TEX_VEC(char, signed char, int, 1)
MC_TEX_VEC(uchar, unsigned char, unsigned, 2)
MC_TEX_VEC(short, short, int, 1)
MC_TEX_VEC(ushort, unsigned short, unsigned, 2)
#undef MC_TEX_VEC
#undef MC_TEX_INFO
} // namespace mc_tex

/* tail: what follows the address (", %N" for tex.level's level of detail) */
#define MC_TEX_FETCH_OP(op, geom, ctype, coords, tail, ...)                                       \
   if (mc_tex::info<T>::k == 0) {                                                                 \
      float a, b, c, d;                                                                           \
      asm volatile(op geom ".v4.f32." ctype " {%0, %1, %2, %3}, [%4, {" coords "}]" tail ";"     \
                   : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(t), __VA_ARGS__);                   \
      return mc_tex::info<T>::from(a, b, c, d);                                                   \
   } else if (mc_tex::info<T>::k == 1) {                                                          \
      int a, b, c, d;                                                                             \
      asm volatile(op geom ".v4.s32." ctype " {%0, %1, %2, %3}, [%4, {" coords "}]" tail ";"     \
                   : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(t), __VA_ARGS__);                   \
      return mc_tex::info<T>::from(a, b, c, d);                                                   \
   } else {                                                                                       \
      unsigned a, b, c, d;                                                                        \
      asm volatile(op geom ".v4.u32." ctype " {%0, %1, %2, %3}, [%4, {" coords "}]" tail ";"     \
                   : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(t), __VA_ARGS__);                   \
      return mc_tex::info<T>::from(a, b, c, d);                                                   \
   }
#define MC_TEX_FETCH(geom, ctype, coords, ...) MC_TEX_FETCH_OP("tex.", geom, ctype, coords, "", __VA_ARGS__)
/* mipmapped textures at a level of detail (tex.level) */
#define MC_TEX_LOD(geom, coords, lod, ...) MC_TEX_FETCH_OP("tex.level.", geom, "f32", coords, ", " lod, __VA_ARGS__)

template <class T> static __device__ T tex1Dfetch(cudaTextureObject_t t, int x)
{
   MC_TEX_FETCH("1d", "s32", "%5", "r"(x))
}
template <class T> static __device__ T tex1D(cudaTextureObject_t t, float x) { MC_TEX_FETCH("1d", "f32", "%5", "f"(x)) }
template <class T> static __device__ T tex2D(cudaTextureObject_t t, float x, float y)
{
   MC_TEX_FETCH("2d", "f32", "%5, %6", "f"(x), "f"(y))
}
template <class T> static __device__ T tex3D(cudaTextureObject_t t, float x, float y, float z)
{
   MC_TEX_FETCH("3d", "f32", "%5, %6, %7, %7", "f"(x), "f"(y), "f"(z))
}
template <class T> static __device__ T tex1DLayered(cudaTextureObject_t t, float x, int layer)
{
   MC_TEX_FETCH("a1d", "f32", "%5, %6", "r"(layer), "f"(x))
}
template <class T> static __device__ T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer)
{
   MC_TEX_FETCH("a2d", "f32", "%5, %6, %7, %7", "r"(layer), "f"(x), "f"(y))
}
template <class T> static __device__ T texCubemap(cudaTextureObject_t t, float x, float y, float z)
{
   MC_TEX_FETCH("cube", "f32", "%5, %6, %7, %7", "f"(x), "f"(y), "f"(z))
}
template <class T> static __device__ T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer)
{
   MC_TEX_FETCH("acube", "f32", "%5, %6, %7, %8", "r"(layer), "f"(x), "f"(y), "f"(z))
}
template <class T> static __device__ T tex1DLod(cudaTextureObject_t t, float x, float level)
{
   MC_TEX_LOD("1d", "%5", "%6", "f"(x), "f"(level))
}
template <class T> static __device__ T tex2DLod(cudaTextureObject_t t, float x, float y, float level)
{
   MC_TEX_LOD("2d", "%5, %6", "%7", "f"(x), "f"(y), "f"(level))
}
template <class T> static __device__ T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float level)
{
   MC_TEX_LOD("3d", "%5, %6, %7, %7", "%8", "f"(x), "f"(y), "f"(z), "f"(level))
}
template <class T> static __device__ T tex1DLayeredLod(cudaTextureObject_t t, float x, int layer, float level)
{
   MC_TEX_LOD("a1d", "%5, %6", "%7", "r"(layer), "f"(x), "f"(level))
}
template <class T> static __device__ T tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float level)
{
   MC_TEX_LOD("a2d", "%5, %6, %7, %7", "%8", "r"(layer), "f"(x), "f"(y), "f"(level))
}
template <class T> static __device__ T texCubemapLod(cudaTextureObject_t t, float x, float y, float z, float level)
{
   MC_TEX_LOD("cube", "%5, %6, %7, %7", "%8", "f"(x), "f"(y), "f"(z), "f"(level))
}
template <class T>
static __device__ T texCubemapLayeredLod(cudaTextureObject_t t, float x, float y, float z, int layer, float level)
{
   MC_TEX_LOD("acube", "%5, %6, %7, %8", "%9", "r"(layer), "f"(x), "f"(y), "f"(z), "f"(level))
}
#undef MC_TEX_LOD
/* level of detail from gradients (tex.grad): {dPdx}, {dPdy} after the coordinates; 3-D and cube
 * gradients are 4-vectors whose last element is ignored (nvcc repeats the third) */
#define MC_TEX_GRAD(geom, coords, grads, ...) MC_TEX_FETCH_OP("tex.grad.", geom, "f32", coords, ", " grads, __VA_ARGS__)
template <class T> static __device__ T tex1DGrad(cudaTextureObject_t t, float x, float dPdx, float dPdy)
{
   MC_TEX_GRAD("1d", "%5", "{%6}, {%7}", "f"(x), "f"(dPdx), "f"(dPdy))
}
template <class T> static __device__ T tex2DGrad(cudaTextureObject_t t, float x, float y, float2 dPdx, float2 dPdy)
{
   MC_TEX_GRAD("2d", "%5, %6", "{%7, %8}, {%9, %10}", "f"(x), "f"(y), "f"(dPdx.x), "f"(dPdx.y), "f"(dPdy.x),
               "f"(dPdy.y))
}
template <class T>
static __device__ T tex3DGrad(cudaTextureObject_t t, float x, float y, float z, float4 dPdx, float4 dPdy)
{
   MC_TEX_GRAD("3d", "%5, %6, %7, %7", "{%8, %9, %10, %10}, {%11, %12, %13, %13}", "f"(x), "f"(y), "f"(z),
               "f"(dPdx.x), "f"(dPdx.y), "f"(dPdx.z), "f"(dPdy.x), "f"(dPdy.y), "f"(dPdy.z))
}
template <class T> static __device__ T tex1DLayeredGrad(cudaTextureObject_t t, float x, int layer, float dPdx, float dPdy)
{
   MC_TEX_GRAD("a1d", "%5, %6", "{%7}, {%8}", "r"(layer), "f"(x), "f"(dPdx), "f"(dPdy))
}
template <class T>
static __device__ T tex2DLayeredGrad(cudaTextureObject_t t, float x, float y, int layer, float2 dPdx, float2 dPdy)
{
   MC_TEX_GRAD("a2d", "%5, %6, %7, %7", "{%8, %9}, {%10, %11}", "r"(layer), "f"(x), "f"(y), "f"(dPdx.x),
               "f"(dPdx.y), "f"(dPdy.x), "f"(dPdy.y))
}
template <class T>
static __device__ T texCubemapGrad(cudaTextureObject_t t, float x, float y, float z, float4 dPdx, float4 dPdy)
{
   MC_TEX_GRAD("cube", "%5, %6, %7, %7", "{%8, %9, %10, %10}, {%11, %12, %13, %13}", "f"(x), "f"(y), "f"(z),
               "f"(dPdx.x), "f"(dPdx.y), "f"(dPdx.z), "f"(dPdy.x), "f"(dPdy.y), "f"(dPdy.z))
}
template <class T>
static __device__ T texCubemapLayeredGrad(cudaTextureObject_t t, float x, float y, float z, int layer, float4 dPdx,
                                          float4 dPdy)
{
   MC_TEX_GRAD("acube", "%5, %6, %7, %8", "{%9, %10, %11, %11}, {%12, %13, %14, %14}", "r"(layer), "f"(x), "f"(y),
               "f"(z), "f"(dPdx.x), "f"(dPdx.y), "f"(dPdx.z), "f"(dPdy.x), "f"(dPdy.y), "f"(dPdy.z))
}
#undef MC_TEX_GRAD
#define MC_TEX_GATHER(c) MC_TEX_FETCH_OP("tld4." c ".", "2d", "f32", "%5, %6", "", "f"(x), "f"(y))
/* comp 0..3: component x, y, z, w of the four texels (any other: zeros,
 * where CUDA leaves the result undefined) */
template <class T> static __device__ T tex2Dgather(cudaTextureObject_t t, float x, float y, int comp = 0)
{
   switch (comp) {
   case 0: MC_TEX_GATHER("r")
   case 1: MC_TEX_GATHER("g")
   case 2: MC_TEX_GATHER("b")
   case 3: MC_TEX_GATHER("a")
   default: return mc_tex::info<T>::from(0, 0, 0, 0);
   }
}
#undef MC_TEX_GATHER
template <class T> static __device__ void tex1Dfetch(T *r, cudaTextureObject_t t, int x) { *r = tex1Dfetch<T>(t, x); }
template <class T> static __device__ void tex2DLayered(T *r, cudaTextureObject_t t, float x, float y, int layer)
{
   *r = tex2DLayered<T>(t, x, y, layer);
}
template <class T> static __device__ void tex1DLayered(T *r, cudaTextureObject_t t, float x, int layer)
{
   *r = tex1DLayered<T>(t, x, layer);
}
template <class T> static __device__ void texCubemap(T *r, cudaTextureObject_t t, float x, float y, float z)
{
   *r = texCubemap<T>(t, x, y, z);
}
template <class T>
static __device__ void texCubemapLayered(T *r, cudaTextureObject_t t, float x, float y, float z, int layer)
{
   *r = texCubemapLayered<T>(t, x, y, z, layer);
}
template <class T> static __device__ void tex2Dgather(T *r, cudaTextureObject_t t, float x, float y, int comp = 0)
{
   *r = tex2Dgather<T>(t, x, y, comp);
}
template <class T> static __device__ void tex2D(T *r, cudaTextureObject_t t, float x, float y) { *r = tex2D<T>(t, x, y); }
#undef MC_TEX_FETCH
#undef MC_TEX_FETCH_OP

/* ---- surfaces (1-D, 2-D and their layered forms; x in bytes) ----
 * MC_SURF_LD/ST(geometry, coordinates, inputs...): one suld/sust per
 * boundary mode and size of T, with named operands s, x, y, l (layer). */
#define MC_SURF_LD1(mode, geom, coords, ...)                                                       \
   if (sizeof(T) == 16)                                                                            \
      asm volatile("suld.b." geom ".v4.b32" mode " {%[w0], %[w1], %[w2], %[w3]}, [%[s], {" coords "}];" \
                   : [w0] "=r"(w[0]), [w1] "=r"(w[1]), [w2] "=r"(w[2]), [w3] "=r"(w[3]) : __VA_ARGS__); \
   else if (sizeof(T) == 8)                                                                        \
      asm volatile("suld.b." geom ".v2.b32" mode " {%[w0], %[w1]}, [%[s], {" coords "}];"          \
                   : [w0] "=r"(w[0]), [w1] "=r"(w[1]) : __VA_ARGS__);                              \
   else if (sizeof(T) == 4)                                                                        \
      asm volatile("suld.b." geom ".b32" mode " %[w0], [%[s], {" coords "}];" : [w0] "=r"(w[0]) : __VA_ARGS__); \
   else if (sizeof(T) == 2)                                                                        \
      asm volatile("suld.b." geom ".b16" mode " %[h], [%[s], {" coords "}];" : [h] "=h"(h) : __VA_ARGS__); \
   else                                                                                            \
      asm volatile("suld.b." geom ".b8" mode " %[h], [%[s], {" coords "}];" : [h] "=h"(h) : __VA_ARGS__);
#define MC_SURF_ST1(mode, geom, coords, ...)                                                       \
   if (sizeof(T) == 16)                                                                            \
      asm volatile("sust.b." geom ".v4.b32" mode " [%[s], {" coords "}], {%[w0], %[w1], %[w2], %[w3]};" \
                   :: [w0] "r"(w[0]), [w1] "r"(w[1]), [w2] "r"(w[2]), [w3] "r"(w[3]), __VA_ARGS__ : "memory"); \
   else if (sizeof(T) == 8)                                                                        \
      asm volatile("sust.b." geom ".v2.b32" mode " [%[s], {" coords "}], {%[w0], %[w1]};"          \
                   :: [w0] "r"(w[0]), [w1] "r"(w[1]), __VA_ARGS__ : "memory");                     \
   else if (sizeof(T) == 4)                                                                        \
      asm volatile("sust.b." geom ".b32" mode " [%[s], {" coords "}], %[w0];" :: [w0] "r"(w[0]), __VA_ARGS__ : "memory"); \
   else if (sizeof(T) == 2)                                                                        \
      asm volatile("sust.b." geom ".b16" mode " [%[s], {" coords "}], %[h];" :: [h] "h"(h), __VA_ARGS__ : "memory"); \
   else                                                                                            \
      asm volatile("sust.b." geom ".b8" mode " [%[s], {" coords "}], %[h];" :: [h] "h"(h), __VA_ARGS__ : "memory");
#define MC_SURF_ALL(OP, geom, coords, ...)                                                         \
   if (m == cudaBoundaryModeTrap) {                                                                \
      OP(".trap", geom, coords, __VA_ARGS__)                                                       \
   } else if (m == cudaBoundaryModeClamp) {                                                        \
      OP(".clamp", geom, coords, __VA_ARGS__)                                                      \
   } else {                                                                                        \
      OP(".zero", geom, coords, __VA_ARGS__)                                                       \
   }
#define MC_SURF_SIZES(fn)                                                                          \
   static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, \
                 fn ": a type of 1, 2, 4, 8 or 16 bytes");                                         \
   unsigned w[4] = {0, 0, 0, 0};                                                                   \
   unsigned short h = 0;
/* A surface read: the body of NAME<T>(s, coordinates..., m). */
#define MC_SURF_READ(fn, geom, coords, ...)                                                        \
   MC_SURF_SIZES(fn)                                                                               \
   MC_SURF_ALL(MC_SURF_LD1, geom, coords, __VA_ARGS__)                                             \
   T r;                                                                                            \
   if (sizeof(T) >= 4)                                                                             \
      __builtin_memcpy(&r, w, sizeof(T));                                                          \
   else                                                                                            \
      __builtin_memcpy(&r, &h, sizeof(T));                                                         \
   return r;
#define MC_SURF_WRITE(fn, geom, coords, ...)                                                       \
   MC_SURF_SIZES(fn)                                                                               \
   if (sizeof(T) >= 4)                                                                             \
      __builtin_memcpy(w, &v, sizeof(T));                                                          \
   else                                                                                            \
      __builtin_memcpy(&h, &v, sizeof(T));                                                         \
   MC_SURF_ALL(MC_SURF_ST1, geom, coords, __VA_ARGS__)
#define MC_SURF_M enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap

template <class T> static __device__ T surf1Dread(cudaSurfaceObject_t s, int x, MC_SURF_M)
{
   MC_SURF_READ("surf1Dread", "1d", "%[x]", [s] "l"(s), [x] "r"(x))
}
template <class T> static __device__ void surf1Dwrite(T v, cudaSurfaceObject_t s, int x, MC_SURF_M)
{
   MC_SURF_WRITE("surf1Dwrite", "1d", "%[x]", [s] "l"(s), [x] "r"(x))
}
template <class T> static __device__ T surf2Dread(cudaSurfaceObject_t s, int x, int y, MC_SURF_M)
{
   MC_SURF_READ("surf2Dread", "2d", "%[x], %[y]", [s] "l"(s), [x] "r"(x), [y] "r"(y))
}
template <class T> static __device__ void surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y, MC_SURF_M)
{
   MC_SURF_WRITE("surf2Dwrite", "2d", "%[x], %[y]", [s] "l"(s), [x] "r"(x), [y] "r"(y))
}
template <class T> static __device__ T surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer, MC_SURF_M)
{
   MC_SURF_READ("surf1DLayeredread", "a1d", "%[l], %[x]", [s] "l"(s), [x] "r"(x), [l] "r"(layer))
}
template <class T> static __device__ void surf1DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int layer, MC_SURF_M)
{
   MC_SURF_WRITE("surf1DLayeredwrite", "a1d", "%[l], %[x]", [s] "l"(s), [x] "r"(x), [l] "r"(layer))
}
template <class T> static __device__ T surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer, MC_SURF_M)
{
   MC_SURF_READ("surf2DLayeredread", "a2d", "%[l], %[x], %[y], %[y]", [s] "l"(s), [x] "r"(x), [y] "r"(y),
                [l] "r"(layer))
}
template <class T>
static __device__ void surf2DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int y, int layer, MC_SURF_M)
{
   MC_SURF_WRITE("surf2DLayeredwrite", "a2d", "%[l], %[x], %[y], %[y]", [s] "l"(s), [x] "r"(x), [y] "r"(y),
                 [l] "r"(layer))
}
template <class T> static __device__ void surf1Dread(T *r, cudaSurfaceObject_t s, int x, MC_SURF_M)
{
   *r = surf1Dread<T>(s, x, m);
}
template <class T> static __device__ void surf2Dread(T *r, cudaSurfaceObject_t s, int x, int y, MC_SURF_M)
{
   *r = surf2Dread<T>(s, x, y, m);
}
template <class T> static __device__ void surf1DLayeredread(T *r, cudaSurfaceObject_t s, int x, int layer, MC_SURF_M)
{
   *r = surf1DLayeredread<T>(s, x, layer, m);
}
template <class T>
static __device__ void surf2DLayeredread(T *r, cudaSurfaceObject_t s, int x, int y, int layer, MC_SURF_M)
{
   *r = surf2DLayeredread<T>(s, x, y, layer, m);
}
/* a cube map's face f is layer f (of cube l: layer 6 * l + f), as nvcc
 * compiles them (suld/sust .a2d) */
template <class T> static __device__ T surfCubemapread(cudaSurfaceObject_t s, int x, int y, int face, MC_SURF_M)
{
   return surf2DLayeredread<T>(s, x, y, face, m);
}
template <class T> static __device__ void surfCubemapwrite(T v, cudaSurfaceObject_t s, int x, int y, int face, MC_SURF_M)
{
   surf2DLayeredwrite<T>(v, s, x, y, face, m);
}
template <class T>
static __device__ T surfCubemapLayeredread(cudaSurfaceObject_t s, int x, int y, int layerFace, MC_SURF_M)
{
   return surf2DLayeredread<T>(s, x, y, layerFace, m);
}
template <class T>
static __device__ void surfCubemapLayeredwrite(T v, cudaSurfaceObject_t s, int x, int y, int layerFace, MC_SURF_M)
{
   surf2DLayeredwrite<T>(v, s, x, y, layerFace, m);
}
#undef MC_SURF_M
#undef MC_SURF_WRITE
#undef MC_SURF_READ
#undef MC_SURF_SIZES
#undef MC_SURF_ALL
#undef MC_SURF_ST1
#undef MC_SURF_LD1

#endif /* __CUDA__ */
#endif /* __cplusplus */
#endif
