/*
 * vector_types.h — char1 ... double4, uint3 and dim3, with CUDA's sizes and
 * alignments (2- and 4-element vectors are aligned to their size, up to 16
 * bytes; 3-element ones to their element).  dim3 defaults its components
 * to 1 in C++.  These layouts cross the ABI (kernel parameters, dim3 by
 * value), so they are the ones cuabi.h's uint3/dim3 describe.
 */
#ifndef MC_VECTOR_TYPES_H
#define MC_VECTOR_TYPES_H

#include "host_defines.h"

#define MC_VECTOR_TYPES_DEFINED 1

#define MC_VEC1(T, N, A) struct __align__(A) N##1 { T x; }; typedef struct N##1 N##1;
#define MC_VEC2(T, N, A) struct __align__(A) N##2 { T x, y; }; typedef struct N##2 N##2;
#define MC_VEC3(T, N) struct N##3 { T x, y, z; }; typedef struct N##3 N##3;
#define MC_VEC4(T, N, A) struct __align__(A) N##4 { T x, y, z, w; }; typedef struct N##4 N##4;
#define MC_VECS(T, N, A1, A2, A4) MC_VEC1(T, N, A1) MC_VEC2(T, N, A2) MC_VEC3(T, N) MC_VEC4(T, N, A4)

MC_VECS(signed char, char, 1, 2, 4)
MC_VECS(unsigned char, uchar, 1, 2, 4)
MC_VECS(short, short, 2, 4, 8)
MC_VECS(unsigned short, ushort, 2, 4, 8)
MC_VEC1(int, int, 4) MC_VEC2(int, int, 8) MC_VEC4(int, int, 16)
MC_VEC1(unsigned int, uint, 4) MC_VEC2(unsigned int, uint, 8) MC_VEC4(unsigned int, uint, 16)
MC_VECS(long, long, 8, 16, 16)
MC_VECS(unsigned long, ulong, 8, 16, 16)
MC_VECS(long long, longlong, 8, 16, 16)
MC_VECS(unsigned long long, ulonglong, 8, 16, 16)
MC_VECS(float, float, 4, 8, 16)
MC_VECS(double, double, 8, 16, 16)
/* CUDA 13's 4-element vectors of 8-byte elements with their alignment in
 * the name (double4 itself is deprecated there): CCCL 3 names them */
#define MC_VEC4A(T, N, A) struct __align__(A) N##4_##A##a { T x, y, z, w; }; typedef struct N##4_##A##a N##4_##A##a;
MC_VEC4A(long, long, 16) MC_VEC4A(long, long, 32)
MC_VEC4A(unsigned long, ulong, 16) MC_VEC4A(unsigned long, ulong, 32)
MC_VEC4A(long long, longlong, 16) MC_VEC4A(long long, longlong, 32)
MC_VEC4A(unsigned long long, ulonglong, 16) MC_VEC4A(unsigned long long, ulonglong, 32)
MC_VEC4A(double, double, 16) MC_VEC4A(double, double, 32)
#undef MC_VEC4A
struct int3 { int x, y, z; };
typedef struct int3 int3;
struct uint3 { unsigned int x, y, z; };
typedef struct uint3 uint3;

#undef MC_VEC1
#undef MC_VEC2
#undef MC_VEC3
#undef MC_VEC4
#undef MC_VECS

struct dim3 {
   unsigned int x, y, z;
#if defined(__cplusplus)
   __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
   __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
   __host__ __device__ constexpr operator uint3(void) const { return uint3{ x, y, z }; }
#endif
};
typedef struct dim3 dim3;

#endif
