/*
 * mc_math_overloads.h — the min/max overloads CUDA's math headers give
 * every .cu file (CUDA Math API, "Integer Mathematical Functions" and
 * math_functions.h's C++ overloads): unsigned, long, long long and mixed
 * signed/unsigned operands compare as unsigned; float/double pick
 * fminf/fmin.  clang's own header has only min(int, int) and max(int, int),
 * so without these min(unsigned, unsigned) would convert to int and
 * compare signed (tests/cuda/intfloat found it).  As in CUDA they are
 * host and device functions; the int forms and umin ... llmax, which
 * clang declares for the device only, get host twins here.
 * Included by cuda_runtime.h in CUDA compiles.
 */
#ifndef MC_MATH_OVERLOADS_H
#define MC_MATH_OVERLOADS_H

#define MC_MH static __inline__ __host__
#define MC_MHD static __inline__ __host__ __device__

MC_MH int min(int a, int b) { return a < b ? a : b; }
MC_MH int max(int a, int b) { return a > b ? a : b; }
MC_MH unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
MC_MH unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
MC_MH long long llmin(long long a, long long b) { return a < b ? a : b; }
MC_MH long long llmax(long long a, long long b) { return a > b ? a : b; }
MC_MH unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
MC_MH unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

/* R NAME(A a, B b): both operands converted to R, then compared */
#define MC_MINMAX(R, A, B)                                                        \
   MC_MHD R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                   \
   MC_MHD R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
MC_MINMAX(unsigned int, unsigned int, unsigned int)
MC_MINMAX(unsigned int, int, unsigned int)
MC_MINMAX(unsigned int, unsigned int, int)
MC_MINMAX(long, long, long)
MC_MINMAX(unsigned long, unsigned long, unsigned long)
MC_MINMAX(unsigned long, long, unsigned long)
MC_MINMAX(unsigned long, unsigned long, long)
MC_MINMAX(long long, long long, long long)
MC_MINMAX(unsigned long long, unsigned long long, unsigned long long)
MC_MINMAX(unsigned long long, long long, unsigned long long)
MC_MINMAX(unsigned long long, unsigned long long, long long)
#undef MC_MINMAX

MC_MHD float min(float a, float b) { return fminf(a, b); }
MC_MHD float max(float a, float b) { return fmaxf(a, b); }
MC_MHD double min(double a, double b) { return fmin(a, b); }
MC_MHD double max(double a, double b) { return fmax(a, b); }
MC_MHD double min(float a, double b) { return fmin((double)a, b); }
MC_MHD double max(float a, double b) { return fmax((double)a, b); }
MC_MHD double min(double a, float b) { return fmin(a, (double)b); }
MC_MHD double max(double a, float b) { return fmax(a, (double)b); }

#undef MC_MH
#undef MC_MHD
#endif
