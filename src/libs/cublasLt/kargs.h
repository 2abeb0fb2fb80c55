/*
 * kargs.h — the argument blocks of libcublasLt's kernels, shared by
 * kernels.cu (built by metalcuda's nvcc) and matmul.c (passed by value:
 * the same C layout on both sides; only fixed-width types).
 */
#ifndef MC_CUBLASLT_KARGS_H
#define MC_CUBLASLT_KARGS_H

#include <stdint.h>

/* What the epilogue does to each element of D after the product: add the
 * bias of its row, then an activation. */
enum { LT_ACT_NONE, LT_ACT_RELU, LT_ACT_GELU };

typedef struct lt_epilogue_args {
   void *D;
   const void *bias;     /* NULL: no bias */
   int64_t rows, cols;   /* of D as the caller sees it */
   int64_t ld;           /* D's leading dimension, elements */
   int64_t strideD;      /* between batch members, elements */
   int64_t strideBias;
   int32_t batch;
   int32_t row_major;    /* D's order */
   int32_t act;          /* LT_ACT_* */
   int32_t pad;
} lt_epilogue_args;

/* cublasLtMatrixTransform: C = alpha op(A) + beta op(B), an element of C
 * per thread; a matrix's element (i, j) is at i * ld + j (row-major) or
 * j * ld + i; op(X)(i, j) is X(j, i) when transposed; a NULL A or B has
 * no term. */
typedef struct lt_transform_args {
   const void *A, *B;
   void *C;
   const void *alpha_ptr, *beta_ptr;   /* device scalars, else NULL */
   double alpha, beta;                  /* host scalars, exact in double */
   int64_t rows, cols;                  /* of C */
   int64_t lda, ldb, ldc;
   int64_t strideA, strideB, strideC;   /* between batch members, elements */
   int32_t batch;
   int32_t a_row, b_row, c_row;         /* the orders: 1 row-major */
   int32_t a_trans, b_trans;
} lt_transform_args;

#endif
