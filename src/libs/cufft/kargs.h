/*
 * kargs.h — the argument blocks of libcufft's kernels, shared by the CUDA C
 * kernels (kernels.cu, built by metalcuda's nvcc) and the host code that
 * fills them (passed by value: one .param struct per launch; only
 * fixed-width types, so the layout is the same on both sides).
 *
 * Every kernel works on LINES: a set of 1-D sequences of one length, each
 * an element stride apart inside, the lines addressed by an index split
 * into three components (outer to inner; the outermost is the batch).  A
 * multi-dimensional or batched transform with cuFFT's advanced layout is a
 * sequence of such line sets, one per dimension (plan.c).
 */
#ifndef MC_CUFFT_KARGS_H
#define MC_CUFFT_KARGS_H

#include <stdint.h>

/* Line l = (i0 * c1 + i1) * c2 + i2 starts at p + i0 s0 + i1 s1 + i2 s2;
 * its element e is es further per e.  Units: elements of the data's type
 * (reals for real data, complex numbers otherwise). */
typedef struct cf_layout {
   void *p;
   int64_t es;
   int64_t s0, s1, s2;
   int64_t c1, c2;
} cf_layout;

/* How a kernel reads its source and writes its destination */
enum {
   CF_LOAD_C = 0,   /* complex */
   CF_LOAD_R = 1,   /* real, imaginary part 0 */
   CF_LOAD_H = 2,   /* Hermitian half: elements 0..n/2 stored, e > n/2 is conj(x[n-e]) */
   CF_LOAD_P = 3,   /* pairs of reals: element e is x[2e] + i x[2e+1] */
};
enum {
   CF_STORE_C = 0,   /* complex, every element */
   CF_STORE_H = 1,   /* complex, elements 0..n/2 only (R2C) */
   CF_STORE_R = 2,   /* the real part (C2R) */
   CF_STORE_P = 3,   /* pairs of reals: x[2e] the real part, x[2e+1] the imaginary */
};

/* One Stockham pass of radix R over lines of length n (cf_passR_T):
 * thread g of nthreads = nlines * n / R does butterfly i = g mod (n/R) of
 * line g / (n/R).  p is the product of the radices of the passes before. */
typedef struct cf_pass_args {
   cf_layout src, dst;
   const void *tw;      /* this pass's e^{-2 pi i r k/(p R)} at k (R - 1) + r - 1 (k < p, 0 < r < R) */
   int64_t n, p;
   int64_t nthreads;
   int32_t dir;         /* -1 forward, +1 inverse */
   int32_t load, store;
   /* cf_fpassR_T (n a power of 2, both sides contiguous lines, complex):
    * log2 of n/R and p, so that no thread divides */
   int32_t lm, lp;
} cf_pass_args;

/* Bluestein's algorithm for a line length n with a prime factor over 7
 * (cf_chirp_in/mul/out_T), through FFTs of a power of 2 m >= 2n - 1 over
 * contiguous work lines (line stride m). */
typedef struct cf_chirp_args {
   cf_layout src, dst;  /* in: src user data, dst work; out: src work, dst user data */
   const void *w;       /* e^{-pi i k^2 / n}, k < n */
   const void *b;       /* mul: the FFT of the chirp filter over m, divided by m */
   int64_t n, m;
   int64_t nthreads;    /* nlines * m (in, mul) or nlines * n (out) */
   int32_t dir;
   int32_t load, store;
   int32_t pad;
} cf_chirp_args;

/* A real transform of even length n as a complex one of n/2 (cf_r2c_post_T,
 * cf_c2r_pre_T): the spectrum of z = x_even + i x_odd separated and joined
 * by w = e^{-2 pi i k/n}, k <= n/2. */
typedef struct cf_half_args {
   cf_layout src, dst;
   const void *w;
   int64_t n;           /* the real length */
   int64_t nthreads;    /* nlines (n/2 + 1) (post) or nlines n/2 (pre) */
} cf_half_args;

/* Half-precision plans: n halves to floats (cf_h2f) or floats to halves,
 * rounded to nearest even (cf_f2h) */
typedef struct cf_convert_args {
   const void *src;
   void *dst;
   int64_t n;
} cf_convert_args;

#endif
