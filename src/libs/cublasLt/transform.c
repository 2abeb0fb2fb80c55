/*
 * transform.c — cublasLtMatrixTransform: C = alpha op(A) + beta op(B),
 * where op transposes when the descriptor says so, A or B may be NULL (no
 * term; a pointer without its layout is CUBLAS_STATUS_INVALID_VALUE, as
 * NVIDIA's header documents), and each matrix has its own order: the
 * helper that changes a matrix's memory order or scales and shifts it.
 * One kernel (kernels.cu lt_transform_*) computes an element of C per
 * thread, in the scale type, on the stream given.
 *
 * Done: f32, f64, f16 and bf16 data (A, B and C of one type), scale type
 * f32 (f64 for f64 data), column- and row-major orders, strided batches,
 * scalars in host or device memory.  Refused by name
 * (CUBLAS_STATUS_NOT_SUPPORTED): the tiled orders (COL32, COL4_4R2_8C,
 * COL32_2R_4R4 ...), which metalcuda's cublasLtMatmul does not take
 * either, other types and mixed types (op C is op T on these real types).
 */
#include "lt.h"

#include <string.h>

LOG_CHANNEL(cublasLt);

/* The kernel of a data type (its index in the handle's table) and the scale
 * type it computes in; -1 for the types not done. */
static int transform_kernel(uint32_t type, int32_t scale)
{
   switch (type) {
   case CUDA_R_32F: return scale == CUDA_R_32F ? 0 : -1;
   case CUDA_R_64F: return scale == CUDA_R_64F ? 1 : -1;
   case CUDA_R_16F: return scale == CUDA_R_32F ? 2 : -1;
   case CUDA_R_16BF: return scale == CUDA_R_32F ? 3 : -1;
   default: return -1;
   }
}

static bool order_done(int32_t order)
{
   return order == CUBLASLT_ORDER_COL || order == CUBLASLT_ORDER_ROW;
}

/* One operand's layout against C's shape: op(X) must be rows x cols, its
 * leading dimension must hold a row (row-major) or column. */
static cublasStatus_t check_operand(const char *name, const lt_layout *x, int32_t trans, const lt_layout *c)
{
   uint64_t r = trans == CUBLAS_OP_N ? x->rows : x->cols, k = trans == CUBLAS_OP_N ? x->cols : x->rows;
   LT_CHECK(r == c->rows && k == c->cols, CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(x->batch == c->batch, CUBLAS_STATUS_INVALID_VALUE);
   if (!order_done(x->order))
      LT_NOT_SUPPORTED("cublasLtMatrixTransform: %s in the tiled order %d (only COL and ROW are)", name, x->order);
   return CUBLAS_STATUS_SUCCESS;
}

static bool ld_ok(const lt_layout *x)
{
   uint64_t need = x->order == CUBLASLT_ORDER_ROW ? x->cols : x->rows;
   return x->ld >= 1 && (uint64_t)x->ld >= need;
}

/* ==== cublasLtMatrixTransform (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtMatrixTransform(cublasLtHandle_t lightHandle,
                                                 cublasLtMatrixTransformDesc_t transformDesc, const void *alpha,
                                                 const void *A, cublasLtMatrixLayout_t Adesc, const void *beta,
                                                 const void *B, cublasLtMatrixLayout_t Bdesc, void *C,
                                                 cublasLtMatrixLayout_t Cdesc, cudaStream_t stream)
{
   LOG_TRACE("lightHandle=%p transformDesc=%p alpha=%p A=%p Adesc=%p beta=%p B=%p Bdesc=%p C=%p Cdesc=%p stream=%p",
             (void *)lightHandle, (void *)transformDesc, alpha, A, (void *)Adesc, beta, B, (void *)Bdesc, C,
             (void *)Cdesc, (void *)stream);
   LT_CHECK(lt_handle_ok(lightHandle), CUBLAS_STATUS_NOT_INITIALIZED);
   const lt_transform_desc *d = lt_transform_desc_of(transformDesc);
   const lt_layout *la = lt_layout_of(Adesc), *lb = lt_layout_of(Bdesc), *lc = lt_layout_of(Cdesc);
   LT_CHECK(d && lc && C, CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(!A || la, CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(!B || lb, CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(!A || alpha, CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(!B || beta, CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(d->transa == CUBLAS_OP_N || d->transa == CUBLAS_OP_T || d->transa == CUBLAS_OP_C,
            CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(d->transb == CUBLAS_OP_N || d->transb == CUBLAS_OP_T || d->transb == CUBLAS_OP_C,
            CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(d->pmode == CUBLASLT_POINTER_MODE_HOST || d->pmode == CUBLASLT_POINTER_MODE_DEVICE,
            CUBLAS_STATUS_INVALID_VALUE);
   int k = transform_kernel(lc->type, d->scale);
   if (k < 0)
      LT_NOT_SUPPORTED("cublasLtMatrixTransform: C of type %u with scale type %d (done: f32, f16 and bf16 with an "
                       "f32 scale, f64 with an f64 scale)", lc->type, d->scale);
   if ((A && la->type != lc->type) || (B && lb->type != lc->type))
      LT_NOT_SUPPORTED("cublasLtMatrixTransform: A, B and C of different types");
   if (!order_done(lc->order))
      LT_NOT_SUPPORTED("cublasLtMatrixTransform: C in the tiled order %d (only COL and ROW are)", lc->order);
   cublasStatus_t st;
   if (A && (st = check_operand("A", la, d->transa, lc)) != CUBLAS_STATUS_SUCCESS)
      return st;
   if (B && (st = check_operand("B", lb, d->transb, lc)) != CUBLAS_STATUS_SUCCESS)
      return st;
   LT_CHECK(ld_ok(lc) && (!A || ld_ok(la)) && (!B || ld_ok(lb)), CUBLAS_STATUS_INVALID_VALUE);
   if (lc->rows == 0 || lc->cols == 0 || lc->batch <= 0)
      return CUBLAS_STATUS_SUCCESS;

   lt_transform_args g;
   memset(&g, 0, sizeof(g));
   g.A = A;
   g.B = B;
   g.C = C;
   bool dbl = lc->type == CUDA_R_64F;
   if (d->pmode == CUBLASLT_POINTER_MODE_DEVICE) {
      g.alpha_ptr = A ? alpha : NULL;
      g.beta_ptr = B ? beta : NULL;
   } else {
      if (A)
         g.alpha = dbl ? *(const double *)alpha : *(const float *)alpha;
      if (B)
         g.beta = dbl ? *(const double *)beta : *(const float *)beta;
   }
   g.rows = (int64_t)lc->rows;
   g.cols = (int64_t)lc->cols;
   g.ldc = lc->ld;
   g.strideC = lc->stride;
   g.batch = lc->batch;
   g.c_row = lc->order == CUBLASLT_ORDER_ROW;
   if (A) {
      g.lda = la->ld;
      g.strideA = la->stride;
      g.a_row = la->order == CUBLASLT_ORDER_ROW;
      g.a_trans = d->transa != CUBLAS_OP_N;
   }
   if (B) {
      g.ldb = lb->ld;
      g.strideB = lb->stride;
      g.b_row = lb->order == CUBLASLT_ORDER_ROW;
      g.b_trans = d->transb != CUBLAS_OP_N;
   }
   int64_t total = g.rows * g.cols * g.batch, blocks = (total + 255) / 256;
   void *params[] = { &g };
   CUresult r = cuLaunchKernel(lightHandle->transform[k], (unsigned)(blocks > 4096 ? 4096 : blocks), 1, 1, 256, 1, 1,
                               0, (CUstream)stream, params, NULL);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("cublasLtMatrixTransform: the kernel's launch failed (CUresult %d)", (int)r);
      return CUBLAS_STATUS_EXECUTION_FAILED;
   }
   return CUBLAS_STATUS_SUCCESS;
}
