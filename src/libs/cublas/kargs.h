/*
 * kargs.h — the argument blocks of libcublas's kernels, shared by the CUDA C
 * kernels (kernels.cu, built by metalcuda's nvcc) and the host code that
 * fills them (passed by value: one .param struct per launch, so the layout
 * is the same C layout on both sides; only fixed-width types).
 *
 * Scalars (alpha, beta, c, s): a device address when the handle's pointer
 * mode is CUBLAS_POINTER_MODE_DEVICE (read by the kernel), else NULL and the
 * value in the block, in every precision the kernels may want (a float
 * kernel must not convert a double: fp64 is software on Metal).
 */
#ifndef MC_CUBLAS_KARGS_H
#define MC_CUBLAS_KARGS_H

#include <stdint.h>

typedef struct cb_scalar {
   const void *p;        /* device pointer (pointer mode device) or NULL */
   double d, di;         /* value (real, imaginary) for double kernels */
   float f, fi;          /* value for float and half kernels */
} cb_scalar;

/* Level 1: x and y already point at element 0 of the BLAS order (the
 * host moves the base for a negative increment). */
typedef struct cb_l1_args {
   void *x, *y;
   int64_t incx, incy;
   int64_t n;
   cb_scalar a, b;       /* axpy/scal: a; rot: a = c, b = s */
   void *partial;        /* reductions: per-block partial results */
   void *result;         /* reductions: where the final value goes (device) */
   int32_t nparts;       /* reductions: number of partials */
   int32_t op;           /* reductions: CB_RED_*; crot: 1 when s is complex */
   int32_t rkind;        /* reductions: the result's type, CB_RES_* */
   int32_t pad;
} cb_l1_args;

enum { CB_RED_DOT, CB_RED_NRM2, CB_RED_ASUM, CB_RED_AMAX, CB_RED_AMIN, CB_RED_DOTC };
/* A reduction's result: the kernel's own type, half or bfloat16 (the Ex
 * forms over 16-bit data), or a 64-bit index (the _64 index searches). */
enum { CB_RES_NATIVE, CB_RES_HALF, CB_RES_BF16, CB_RES_I64 };

/* gemm, strided and pointer-array batched: C = alpha op(A) op(B) + beta C */
typedef struct cb_gemm_args {
   const void *A, *B;
   void *C;
   const void *const *Aarr;   /* gemmBatched: arrays of pointers, else NULL */
   const void *const *Barr;
   void *const *Carr;
   int64_t lda, ldb, ldc;
   int64_t sA, sB, sC;        /* strides between batch members, in elements */
   int32_t m, n, k, batch;
   int32_t ta, tb;            /* 0 N, 1 T, 2 C (complex kernels) */
   cb_scalar alpha, beta;
} cb_gemm_args;

/* Packed GEMM (large single products): op(A) copied into panels of
 * CB_TM rows (k-major: CB_TM values per k), op(B) into panels of CB_TN
 * columns, zero-padded, in the compute type; then every thread streams one
 * panel of each contiguously. */
typedef struct cb_pack_args {
   const void *X;        /* A or B as the caller gave it */
   void *P;              /* the panels */
   int64_t ld;
   int32_t rows, cols;   /* of op(X): m x k for A, k x n for B */
   int32_t trans;        /* op(X) = X^T */
   int32_t npanels;
} cb_pack_args;

typedef struct cb_packed_args {
   const void *Ap, *Bp;
   void *C;
   int64_t ldc;
   int32_t m, n, k, pad;
   cb_scalar alpha, beta;
} cb_packed_args;

/* geam, dgmm, Level 2 but for the reductions, syrk, trmm, trsm: one
 * block for all of them (x and y already at element 0 of the BLAS order). */
typedef struct cb_mat_args {
   const void *A, *B;
   void *C;
   const void *x;
   void *y;
   const void *const *Aarr;   /* trsmBatched, gemvBatched: arrays of pointers, else NULL */
   void *const *Barr;
   const void *const *Xarr;   /* gemvBatched */
   void *const *Yarr;
   int32_t *piv, *info;       /* getrf/getrs/getriBatched: pivots (n per matrix, 1-based), info per matrix */
   int64_t sA, sX, sY;        /* gemvStridedBatched: strides in elements */
   int64_t xoff, yoff;        /* gemv*Batched: element 0 of x and y in BLAS order */
   int64_t lda, ldb, ldc, incx, incy;
   int32_t m, n, k;
   int32_t ta, tb;       /* 0 N, 1 T, 2 C */
   int32_t uplo;         /* 0 lower, 1 upper (cublasFillMode_t) */
   int32_t side;         /* 0 left, 1 right (cublasSideMode_t) */
   int32_t unit;         /* unit diagonal */
   int32_t solve;        /* trmv/trsv: 1 solve, 0 multiply */
   int32_t herm;         /* CB_GEN, CB_SYM or CB_HERM (Level 2, hemm, herk) */
   int32_t store;        /* CB_ST_*: how A is stored (Level 2) */
   int32_t kl, ku;       /* A(i, j) is inside A's structure iff -ku <= i - j <= kl */
   int32_t areal, breal; /* alpha, beta are real (her, herk ...: a float or double in memory) */
   int32_t conj;         /* rank updates: y (and x) conjugated (gerc, her, her2) */
   int32_t two;          /* rank updates: rank 2 (syr2, her2, spr2, hpr2) */
   int32_t batch;        /* the *Batched routines: the number of problems */
   cb_scalar alpha, beta;
} cb_mat_args;

/* The matrix kind of the Level 2 kernels: general, symmetric, Hermitian */
enum { CB_GEN, CB_SYM, CB_HERM };
/* How A is stored: dense (lda), packed triangle (n(n+1)/2, column by
 * column), or band (lda >= kl + ku + 1 rows: A(i, j) at row ku + i - j of
 * column j, BLAS's layout for gbmv, sbmv, tbmv ...) */
enum { CB_ST_DENSE, CB_ST_PACKED, CB_ST_BAND };

/* Threads of the one block of trmv/trsv */
#define CB_TRV_THREADS 256

/* Threads of the real GEMM kernels: each computes CB_TM x CB_TN of C. */
#define CB_TM 16
#define CB_TN 8
/* Rows of a packed panel of A, the rows of C a packed float product's
 * thread computes (x CB_TN columns): 32 x 8 floats are 16 vector
 * accumulators of 16 floats, which the software device's host compiler
 * keeps in AVX-512's 32 registers, with 2 vector loads and 8 broadcasts
 * per 16 FMAs (at 16 rows: 1 and 8 per 8; SGEMM 0.22 -> 0.5 of OpenBLAS,
 * bench/cublas.sh).  Double panels keep CB_TM rows. */
#define CB_PM 32
#define CB_GEMM_BX 8
#define CB_GEMM_BY 16

/* Reductions: threads per block and most blocks of the first pass. */
#define CB_RED_THREADS 256
#define CB_RED_BLOCKS 64

#endif
