/*
 * vector_functions.h — make_int2(), make_float4() ... for every vector type
 * of vector_types.h, on host and device.
 */
#ifndef MC_VECTOR_FUNCTIONS_H
#define MC_VECTOR_FUNCTIONS_H

#include "vector_types.h"

#if defined(__CUDA__) && defined(__clang__)
#define MC_VF static __inline__ __host__ __device__
#else
#define MC_VF static __inline__
#endif

#define MC_MAKE(T, N)                                                                              \
   MC_VF N##1 make_##N##1(T x) { N##1 r; r.x = x; return r; }                                      \
   MC_VF N##2 make_##N##2(T x, T y) { N##2 r; r.x = x; r.y = y; return r; }                       \
   MC_VF N##3 make_##N##3(T x, T y, T z) { N##3 r; r.x = x; r.y = y; r.z = z; return r; }         \
   MC_VF N##4 make_##N##4(T x, T y, T z, T w) { N##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r; }

MC_MAKE(signed char, char)
MC_MAKE(unsigned char, uchar)
MC_MAKE(short, short)
MC_MAKE(unsigned short, ushort)
MC_MAKE(int, int)
MC_MAKE(unsigned int, uint)
MC_MAKE(long, long)
MC_MAKE(unsigned long, ulong)
MC_MAKE(long long, longlong)
MC_MAKE(unsigned long long, ulonglong)
MC_MAKE(float, float)
MC_MAKE(double, double)

#undef MC_MAKE
#undef MC_VF

#endif
