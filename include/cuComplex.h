/*
 * cuComplex.h — single and double complex numbers as CUDA's math libraries
 * pass them (float2/double2) and the helpers programs use with them.
 */
#ifndef MC_CUCOMPLEX_H
#define MC_CUCOMPLEX_H

#include <math.h>
#include "vector_types.h"

#if defined(__CUDACC__)
#define MC_CX_FN __host__ __device__ static __inline__
#else
#define MC_CX_FN static __inline__
#endif

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

MC_CX_FN float cuCrealf(cuFloatComplex x) { return x.x; }
MC_CX_FN float cuCimagf(cuFloatComplex x) { return x.y; }
MC_CX_FN cuFloatComplex make_cuFloatComplex(float r, float i) { cuFloatComplex c; c.x = r; c.y = i; return c; }
MC_CX_FN cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
MC_CX_FN cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
MC_CX_FN cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x + b.x, a.y + b.y); }
MC_CX_FN cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x - b.x, a.y - b.y); }
MC_CX_FN cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b)
{
   return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
MC_CX_FN float cuCabsf(cuFloatComplex x) { return hypotf(x.x, x.y); }

MC_CX_FN double cuCreal(cuDoubleComplex x) { return x.x; }
MC_CX_FN double cuCimag(cuDoubleComplex x) { return x.y; }
MC_CX_FN cuDoubleComplex make_cuDoubleComplex(double r, double i) { cuDoubleComplex c; c.x = r; c.y = i; return c; }
MC_CX_FN cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
MC_CX_FN cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x + b.x, a.y + b.y); }
MC_CX_FN cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x - b.x, a.y - b.y); }
MC_CX_FN cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b)
{
   return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
MC_CX_FN double cuCabs(cuDoubleComplex x) { return hypot(x.x, x.y); }
MC_CX_FN cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) { return make_cuFloatComplex((float)c.x, (float)c.y); }
MC_CX_FN cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) { return make_cuDoubleComplex(c.x, c.y); }

#undef MC_CX_FN
#endif
