/*
 * mc_texture_functions.h — CUDA's texture and surface object functions
 * (texture_indirect_functions.h, surface_indirect_functions.h: tex1Dfetch,
 * tex1D, tex2D, tex3D, surf1Dread/write, surf2Dread/write) and the
 * cudaCreateChannelDesc<T> templates, for clang.  Each fetch is the PTX
 * instruction nvcc emits for it (tex.{1d,2d,3d}.v4.{f32,s32,u32}.{f32,s32};
 * suld.b / sust.b with the boundary mode), which metalcuda's compiler
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

#define MC_TEX_FETCH(geom, ctype, coords, ...)                                                    \
   if (mc_tex::info<T>::k == 0) {                                                                 \
      float a, b, c, d;                                                                           \
      asm volatile("tex." geom ".v4.f32." ctype " {%0, %1, %2, %3}, [%4, {" coords "}];"        \
                   : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(t), __VA_ARGS__);                   \
      return mc_tex::info<T>::from(a, b, c, d);                                                   \
   } else if (mc_tex::info<T>::k == 1) {                                                          \
      int a, b, c, d;                                                                             \
      asm volatile("tex." geom ".v4.s32." ctype " {%0, %1, %2, %3}, [%4, {" coords "}];"        \
                   : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(t), __VA_ARGS__);                   \
      return mc_tex::info<T>::from(a, b, c, d);                                                   \
   } else {                                                                                       \
      unsigned a, b, c, d;                                                                        \
      asm volatile("tex." geom ".v4.u32." ctype " {%0, %1, %2, %3}, [%4, {" coords "}];"        \
                   : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(t), __VA_ARGS__);                   \
      return mc_tex::info<T>::from(a, b, c, d);                                                   \
   }

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
template <class T> static __device__ void tex1Dfetch(T *r, cudaTextureObject_t t, int x) { *r = tex1Dfetch<T>(t, x); }
template <class T> static __device__ void tex2D(T *r, cudaTextureObject_t t, float x, float y) { *r = tex2D<T>(t, x, y); }
#undef MC_TEX_FETCH

/* ---- surfaces (2-D; x in bytes) ---- */
#define MC_SURF_MODES(X) X(Trap, ".trap") X(Clamp, ".clamp") X(Zero, ".zero")
#define MC_SURF_LD(M, mode)                                                                        \
   if (m == cudaBoundaryMode##M) {                                                                 \
      if (sizeof(T) == 16)                                                                         \
         asm volatile("suld.b.2d.v4.b32" mode " {%0, %1, %2, %3}, [%4, {%5, %6}];"                \
                      : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3]) : "l"(s), "r"(x), "r"(y));   \
      else if (sizeof(T) == 8)                                                                     \
         asm volatile("suld.b.2d.v2.b32" mode " {%0, %1}, [%2, {%3, %4}];"                        \
                      : "=r"(w[0]), "=r"(w[1]) : "l"(s), "r"(x), "r"(y));                          \
      else if (sizeof(T) == 4)                                                                     \
         asm volatile("suld.b.2d.b32" mode " %0, [%1, {%2, %3}];" : "=r"(w[0]) : "l"(s), "r"(x), "r"(y)); \
      else if (sizeof(T) == 2)                                                                     \
         asm volatile("suld.b.2d.b16" mode " %0, [%1, {%2, %3}];" : "=h"(h) : "l"(s), "r"(x), "r"(y)); \
      else                                                                                         \
         asm volatile("suld.b.2d.b8" mode " %0, [%1, {%2, %3}];" : "=h"(h) : "l"(s), "r"(x), "r"(y)); \
   }
#define MC_SURF_ST(M, mode)                                                                        \
   if (m == cudaBoundaryMode##M) {                                                                 \
      if (sizeof(T) == 16)                                                                         \
         asm volatile("sust.b.2d.v4.b32" mode " [%0, {%1, %2}], {%3, %4, %5, %6};"                \
                      :: "l"(s), "r"(x), "r"(y), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]) : "memory"); \
      else if (sizeof(T) == 8)                                                                     \
         asm volatile("sust.b.2d.v2.b32" mode " [%0, {%1, %2}], {%3, %4};"                        \
                      :: "l"(s), "r"(x), "r"(y), "r"(w[0]), "r"(w[1]) : "memory");                 \
      else if (sizeof(T) == 4)                                                                     \
         asm volatile("sust.b.2d.b32" mode " [%0, {%1, %2}], %3;" :: "l"(s), "r"(x), "r"(y), "r"(w[0]) : "memory"); \
      else if (sizeof(T) == 2)                                                                     \
         asm volatile("sust.b.2d.b16" mode " [%0, {%1, %2}], %3;" :: "l"(s), "r"(x), "r"(y), "h"(h) : "memory"); \
      else                                                                                         \
         asm volatile("sust.b.2d.b8" mode " [%0, {%1, %2}], %3;" :: "l"(s), "r"(x), "r"(y), "h"(h) : "memory"); \
   }

template <class T>
static __device__ T surf2Dread(cudaSurfaceObject_t s, int x, int y,
                               enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
   static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                 "surf2Dread: a type of 1, 2, 4, 8 or 16 bytes");
   unsigned w[4] = {0, 0, 0, 0};
   unsigned short h = 0;
   MC_SURF_MODES(MC_SURF_LD)
   T r;
   if (sizeof(T) >= 4)
      __builtin_memcpy(&r, w, sizeof(T));
   else
      __builtin_memcpy(&r, &h, sizeof(T));
   return r;
}
template <class T>
static __device__ void surf2Dread(T *r, cudaSurfaceObject_t s, int x, int y,
                                  enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
   *r = surf2Dread<T>(s, x, y, m);
}
template <class T>
static __device__ void surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y,
                                   enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap)
{
   static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                 "surf2Dwrite: a type of 1, 2, 4, 8 or 16 bytes");
   unsigned w[4] = {0, 0, 0, 0};
   unsigned short h = 0;
   if (sizeof(T) >= 4)
      __builtin_memcpy(w, &v, sizeof(T));
   else
      __builtin_memcpy(&h, &v, sizeof(T));
   MC_SURF_MODES(MC_SURF_ST)
}
#undef MC_SURF_LD
#undef MC_SURF_ST
#undef MC_SURF_MODES

#endif /* __CUDA__ */
#endif /* __cplusplus */
#endif
