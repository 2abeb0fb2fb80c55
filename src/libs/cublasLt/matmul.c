/*
 * matmul.c — cublasLtMatmul, cublasLtMatmulAlgoGetHeuristic and
 * cublasLtMatmulAlgoCheck.
 *
 * D = epilogue(alpha op(A) op(B) + beta C) is computed as a strided batched
 * GEMM of metalcuda's libcublas (cublasGemmStridedBatchedEx_64) on D, after
 * C is copied into D when they differ, then the epilogue kernel (bias,
 * ReLU, GELU) over D.  Row-major operands are the column-major matrices of
 * their transposes: op(A) of a row-major A is op'(A') with A' = A^T and op'
 * the other transposition; a row-major D is computed as
 * D^T = op(B)^T op(A)^T (so C must have D's order).  Conjugation cannot be
 * moved that way, so a complex row-major operand with op C is refused.
 * One algorithm, no workspace (algo.c): the heuristic and the check answer
 * it for every problem cublasLtMatmul would accept, and NOT_SUPPORTED for
 * the others.
 */
#include "lt.h"

#include <string.h>

LOG_CHANNEL(cublasLt);

/* What a matmul computes, in column-major terms. */
typedef struct lt_plan {
   cudaDataType ab_type, cd_type;
   cublasComputeType_t compute;
   cublasOperation_t op1, op2;   /* of the GEMM's first and second operands */
   bool swap;                    /* D row-major: first operand B, second A */
   int64_t m, n, k;              /* of the GEMM */
   int64_t ld1, ld2, ldc, ldd;
   int64_t s1, s2, sc, sd;       /* batch strides, elements */
   int32_t batch;
   bool row_major;               /* D's (and C's) order */
   int64_t rows, cols;           /* D as the caller sees it */
   size_t cd_size;
   int act;                      /* LT_ACT_* */
   bool bias;
   int kernel;                   /* epilogue kernel: 0 s, 1 d, 2 h, 3 bf16; -1 none needed */
} lt_plan;

static bool is_complex(cudaDataType t)
{
   return t == CUDA_C_32F || t == CUDA_C_64F;
}

static cublasOperation_t flip(cublasOperation_t op)
{
   return op == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N;
}

/* An operand's op on its column-major view; false if it cannot be. */
static bool col_major_op(const lt_layout *l, cublasOperation_t op, cublasOperation_t *out)
{
   if (l->order == CUBLASLT_ORDER_COL) {
      *out = op;
      return true;
   }
   if (op == CUBLAS_OP_C && is_complex((cudaDataType)l->type))
      return false;
   *out = flip(op);
   return true;
}

static int epilogue_act(uint32_t e, bool *bias)
{
   *bias = e == CUBLASLT_EPILOGUE_BIAS || e == CUBLASLT_EPILOGUE_RELU_BIAS || e == CUBLASLT_EPILOGUE_GELU_BIAS;
   switch (e) {
   case CUBLASLT_EPILOGUE_DEFAULT: case CUBLASLT_EPILOGUE_BIAS: return LT_ACT_NONE;
   case CUBLASLT_EPILOGUE_RELU: case CUBLASLT_EPILOGUE_RELU_BIAS: return LT_ACT_RELU;
   case CUBLASLT_EPILOGUE_GELU: case CUBLASLT_EPILOGUE_GELU_BIAS: return LT_ACT_GELU;
   default: return -1;
   }
}

/* The attributes kept but not implemented must have their defaults. */
static cublasStatus_t check_unimplemented(const lt_matmul_desc *d)
{
   for (int i = 0; i < 4; i++)
      if (d->scale_ptr[i])
         LT_NOT_SUPPORTED("cublasLtMatmul with CUBLASLT_MATMUL_DESC_%c_SCALE_POINTER (scaled fp8 matmuls)", "ABCD"[i]);
   if (d->amax_d || d->aux || d->aux_scale || d->aux_amax || d->d_out_scale || d->emulation)
      LT_NOT_SUPPORTED("cublasLtMatmul with an epilogue auxiliary, amax, output-scale or emulation attribute");
   if (d->pmode != CUBLASLT_POINTER_MODE_HOST && d->pmode != CUBLASLT_POINTER_MODE_DEVICE)
      LT_NOT_SUPPORTED("cublasLtMatmul with pointer mode %d (alpha vectors)", d->pmode);
   if (d->transc != CUBLAS_OP_N || d->fill != CUBLAS_FILL_MODE_FULL)
      LT_NOT_SUPPORTED("cublasLtMatmul with TRANSC %d / FILL_MODE %d", d->transc, d->fill);
   return CUBLAS_STATUS_SUCCESS;
}

static bool valid_op(int32_t op)
{
   return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

/* Checks a problem and plans it: INVALID_VALUE for inconsistent shapes,
 * NOT_SUPPORTED (said) for what metalcuda does not compute. */
static cublasStatus_t plan_matmul(cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t Adesc,
                                  cublasLtMatrixLayout_t Bdesc, cublasLtMatrixLayout_t Cdesc,
                                  cublasLtMatrixLayout_t Ddesc, lt_plan *p)
{
   const lt_matmul_desc *d = lt_desc_of(desc);
   const lt_layout *a = lt_layout_of(Adesc), *b = lt_layout_of(Bdesc), *c = lt_layout_of(Cdesc),
                   *dl = lt_layout_of(Ddesc);
   LT_CHECK(d && a && b && c && dl, CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(valid_op(d->transa) && valid_op(d->transb), CUBLAS_STATUS_INVALID_VALUE);
   cublasStatus_t s = check_unimplemented(d);
   if (s != CUBLAS_STATUS_SUCCESS)
      return s;
   const lt_layout *all[4] = { a, b, c, dl };
   for (int i = 0; i < 4; i++) {
      if (all[i]->order != CUBLASLT_ORDER_COL && all[i]->order != CUBLASLT_ORDER_ROW)
         LT_NOT_SUPPORTED("cublasLtMatmul with matrix order %d (the tiled orders COL32 ...)", all[i]->order);
      if (all[i]->batch_mode != CUBLASLT_BATCH_MODE_STRIDED || all[i]->plane_offset)
         LT_NOT_SUPPORTED("cublasLtMatmul with pointer-array batches or plane offsets");
      LT_CHECK(all[i]->batch >= 1, CUBLAS_STATUS_INVALID_VALUE);
      int64_t lead = all[i]->order == CUBLASLT_ORDER_COL ? (int64_t)all[i]->rows : (int64_t)all[i]->cols;
      LT_CHECK(all[i]->ld >= (lead > 1 ? lead : 1), CUBLAS_STATUS_INVALID_VALUE);
   }
   /* shapes: op(A) is m x k, op(B) k x n, C and D m x n */
   int64_t m = (int64_t)dl->rows, n = (int64_t)dl->cols;
   int64_t am = d->transa == CUBLAS_OP_N ? (int64_t)a->rows : (int64_t)a->cols;
   int64_t k = d->transa == CUBLAS_OP_N ? (int64_t)a->cols : (int64_t)a->rows;
   int64_t bk = d->transb == CUBLAS_OP_N ? (int64_t)b->rows : (int64_t)b->cols;
   int64_t bn = d->transb == CUBLAS_OP_N ? (int64_t)b->cols : (int64_t)b->rows;
   LT_CHECK(am == m && bk == k && bn == n && c->rows == dl->rows && c->cols == dl->cols,
            CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(a->type == b->type && c->type == dl->type, CUBLAS_STATUS_INVALID_VALUE);
   /* one batch count for all (a stride of 0 shares a matrix), as cuBLASLt */
   LT_CHECK(a->batch == dl->batch && b->batch == dl->batch && c->batch == dl->batch, CUBLAS_STATUS_INVALID_VALUE);
   p->ab_type = (cudaDataType)a->type;
   p->cd_type = (cudaDataType)dl->type;
   p->compute = (cublasComputeType_t)d->compute;
   int scale = lt_scale_type_of(p->compute, p->ab_type, p->cd_type);
   if (scale < 0)
      LT_NOT_SUPPORTED("cublasLtMatmul with A/B type %u, C/D type %u, compute type %d", a->type, dl->type,
                       d->compute);
   if (scale != d->scale)
      LT_NOT_SUPPORTED("cublasLtMatmul with scale type %d for compute type %d (metalcuda takes %d)", d->scale,
                       d->compute, scale);
   if (c->order != dl->order)
      LT_NOT_SUPPORTED("cublasLtMatmul with C and D in different orders");
   cublasOperation_t opa, opb;
   if (!col_major_op(a, (cublasOperation_t)d->transa, &opa) || !col_major_op(b, (cublasOperation_t)d->transb, &opb))
      LT_NOT_SUPPORTED("cublasLtMatmul with a row-major complex operand conjugated (op C)");
   p->row_major = dl->order == CUBLASLT_ORDER_ROW;
   p->swap = p->row_major;
   if (p->swap && is_complex(p->ab_type) && (opa == CUBLAS_OP_C || opb == CUBLAS_OP_C))
      LT_NOT_SUPPORTED("cublasLtMatmul with a row-major complex D and a conjugated operand");
   p->op1 = p->swap ? flip(opb) : opa;
   p->op2 = p->swap ? flip(opa) : opb;
   p->m = p->swap ? n : m;
   p->n = p->swap ? m : n;
   p->k = k;
   p->ld1 = p->swap ? b->ld : a->ld;
   p->ld2 = p->swap ? a->ld : b->ld;
   p->s1 = p->swap ? b->stride : a->stride;
   p->s2 = p->swap ? a->stride : b->stride;
   p->ldc = c->ld;
   p->ldd = dl->ld;
   p->sc = c->stride;
   p->sd = dl->stride;
   p->batch = dl->batch;
   p->rows = m;
   p->cols = n;
   p->cd_size = lt_type_size(p->cd_type);
   p->act = epilogue_act(d->epilogue, &p->bias);
   if (p->act < 0)
      LT_NOT_SUPPORTED("cublasLtMatmul with epilogue %u (auxiliary outputs and gradients)", d->epilogue);
   p->kernel = -1;
   if (p->act != LT_ACT_NONE || p->bias) {
      p->kernel = p->cd_type == CUDA_R_32F ? 0 : p->cd_type == CUDA_R_64F ? 1 : p->cd_type == CUDA_R_16F ? 2
                : p->cd_type == CUDA_R_16BF ? 3 : -2;
      if (p->kernel == -2)
         LT_NOT_SUPPORTED("cublasLtMatmul with epilogue %u on D of type %u", d->epilogue, dl->type);
      if (p->bias && p->row_major)   /* as cuBLASLt on an H200 */
         LT_NOT_SUPPORTED("cublasLtMatmul with a bias epilogue and a row-major D");
      if (p->bias && d->bias_type != -1 && d->bias_type != (int32_t)dl->type)
         LT_NOT_SUPPORTED("cublasLtMatmul with a bias of type %d and D of type %u", d->bias_type, dl->type);
   }
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasLtMatmulAlgoGetHeuristic (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                                        cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                                        cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                                        cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                                        cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                                        int *returnAlgoCount)
{
   LOG_TRACE("lightHandle=%p operationDesc=%p A=%p B=%p C=%p D=%p preference=%p requestedAlgoCount=%d results=%p "
             "returnAlgoCount=%p", (void *)lightHandle, (void *)operationDesc, (void *)Adesc, (void *)Bdesc,
             (void *)Cdesc, (void *)Ddesc, (void *)preference, requestedAlgoCount, (void *)heuristicResultsArray,
             (void *)returnAlgoCount);
   LT_CHECK(lt_handle_ok(lightHandle), CUBLAS_STATUS_NOT_INITIALIZED);
   LT_CHECK(lt_preference_of(preference) && requestedAlgoCount > 0 && heuristicResultsArray && returnAlgoCount,
            CUBLAS_STATUS_INVALID_VALUE);
   *returnAlgoCount = 0;
   lt_plan p;
   cublasStatus_t s = plan_matmul(operationDesc, Adesc, Bdesc, Cdesc, Ddesc, &p);
   if (s != CUBLAS_STATUS_SUCCESS)
      return s;
   cublasLtMatmulHeuristicResult_t *r = &heuristicResultsArray[0];
   memset(r, 0, sizeof(*r));
   lt_algo_init(&r->algo, p.ab_type, p.ab_type, p.cd_type, p.cd_type);
   r->workspaceSize = 0;
   r->state = CUBLAS_STATUS_SUCCESS;
   r->wavesCount = 1.0f;
   *returnAlgoCount = 1;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasLtMatmulAlgoCheck (libcublasLt.@) ==== the problem as
 * cublasLtMatmul takes it, with algo (metalcuda's, as it runs) */
LT_EXPORT cublasStatus_t cublasLtMatmulAlgoCheck(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                                 cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                                 cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                                 const cublasLtMatmulAlgo_t *algo,
                                                 cublasLtMatmulHeuristicResult_t *result)
{
   LOG_TRACE("lightHandle=%p operationDesc=%p A=%p B=%p C=%p D=%p algo=%p result=%p", (void *)lightHandle,
             (void *)operationDesc, (void *)Adesc, (void *)Bdesc, (void *)Cdesc, (void *)Ddesc, (const void *)algo,
             (void *)result);
   LT_CHECK(lt_handle_ok(lightHandle), CUBLAS_STATUS_NOT_INITIALIZED);
   LT_CHECK(algo && result, CUBLAS_STATUS_INVALID_VALUE);
   lt_plan p;
   cublasStatus_t s = plan_matmul(operationDesc, Adesc, Bdesc, Cdesc, Ddesc, &p);
   if (s == CUBLAS_STATUS_SUCCESS)
      s = lt_algo_check(algo);
   if (s != CUBLAS_STATUS_SUCCESS)
      return s;
   cublasLtMatmulAlgo_t copy = *algo;   /* algo may point to result->algo */
   memset(result, 0, sizeof(*result));
   result->algo = copy;
   result->workspaceSize = 0;
   result->state = CUBLAS_STATUS_SUCCESS;
   result->wavesCount = 1.0f;
   return CUBLAS_STATUS_SUCCESS;
}

/* C into D, each batch member's m x n (in D's order) through 2-D copies. */
static cublasStatus_t copy_c_to_d(const lt_plan *p, const void *C, void *D, CUstream stream)
{
   size_t width = (size_t)(p->row_major ? p->cols : p->rows) * p->cd_size;
   size_t height = (size_t)(p->row_major ? p->rows : p->cols);
   for (int32_t z = 0; z < p->batch; z++) {
      CUDA_MEMCPY2D cp;
      memset(&cp, 0, sizeof(cp));
      cp.srcMemoryType = cp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
      cp.srcDevice = (CUdeviceptr)(uintptr_t)C + (CUdeviceptr)(z * p->sc) * p->cd_size;
      cp.srcPitch = (size_t)p->ldc * p->cd_size;
      cp.dstDevice = (CUdeviceptr)(uintptr_t)D + (CUdeviceptr)(z * p->sd) * p->cd_size;
      cp.dstPitch = (size_t)p->ldd * p->cd_size;
      cp.WidthInBytes = width;
      cp.Height = height;
      if (cuMemcpy2DAsync(&cp, stream) != CUDA_SUCCESS)
         return CUBLAS_STATUS_EXECUTION_FAILED;
   }
   return CUBLAS_STATUS_SUCCESS;
}

/* A host scalar of the scale type is zero (beta = 0: C is not read). */
static bool host_zero(const void *v, cudaDataType t)
{
   switch (t) {
   case CUDA_R_16F: return (*(const uint16_t *)v & 0x7fff) == 0;
   case CUDA_R_32F: return *(const float *)v == 0;
   case CUDA_R_64F: return *(const double *)v == 0;
   case CUDA_C_32F: return ((const float *)v)[0] == 0 && ((const float *)v)[1] == 0;
   case CUDA_C_64F: return ((const double *)v)[0] == 0 && ((const double *)v)[1] == 0;
   default: return false;
   }
}

static cublasStatus_t run_epilogue(cublasLtHandle_t h, const lt_plan *p, const lt_matmul_desc *d, void *D,
                                   CUstream stream)
{
   lt_epilogue_args g;
   memset(&g, 0, sizeof(g));
   g.D = D;
   g.bias = p->bias ? d->bias : NULL;
   g.rows = p->rows;
   g.cols = p->cols;
   g.ld = p->ldd;
   g.strideD = p->sd;
   g.strideBias = d->bias_stride;
   g.batch = p->batch;
   g.row_major = p->row_major;
   g.act = p->act;
   int64_t total = p->rows * p->cols * p->batch, blocks = (total + 255) / 256;
   void *params[] = { &g };
   CUresult r = cuLaunchKernel(h->epilogue[p->kernel], (unsigned)(blocks < 1 ? 1 : blocks > 4096 ? 4096 : blocks), 1,
                               1, 256, 1, 1, 0, stream, params, NULL);
   return r == CUDA_SUCCESS ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

/* ==== cublasLtMatmul (libcublasLt.@) ==== */
LT_EXPORT cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
                                        const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc, const void *B,
                                        cublasLtMatrixLayout_t Bdesc, const void *beta, const void *C,
                                        cublasLtMatrixLayout_t Cdesc, void *D, cublasLtMatrixLayout_t Ddesc,
                                        const cublasLtMatmulAlgo_t *algo, void *workspace,
                                        size_t workspaceSizeInBytes, cudaStream_t stream)
{
   LOG_TRACE("lightHandle=%p computeDesc=%p alpha=%p A=%p B=%p beta=%p C=%p D=%p algo=%p workspace=%p size=%zu "
             "stream=%p", (void *)lightHandle, (void *)computeDesc, alpha, A, B, beta, C, D, (const void *)algo,
             workspace, workspaceSizeInBytes, (void *)stream);
   LT_CHECK(lt_handle_ok(lightHandle), CUBLAS_STATUS_NOT_INITIALIZED);
   lt_plan p;
   cublasStatus_t s = plan_matmul(computeDesc, Adesc, Bdesc, Cdesc, Ddesc, &p);
   if (s == CUBLAS_STATUS_SUCCESS && algo)
      s = lt_algo_check(algo);
   if (s != CUBLAS_STATUS_SUCCESS)
      return s;
   LT_CHECK(alpha && beta, CUBLAS_STATUS_INVALID_VALUE);
   if (p.rows == 0 || p.cols == 0)
      return CUBLAS_STATUS_SUCCESS;
   LT_CHECK(D && C && (p.k == 0 || (A && B)), CUBLAS_STATUS_INVALID_VALUE);
   const lt_matmul_desc *d = lt_desc_of(computeDesc);
   if (p.bias)
      LT_CHECK(d->bias, CUBLAS_STATUS_INVALID_VALUE);
   cublasHandle_t cb = lightHandle->cublas;
   bool dev = d->pmode == CUBLASLT_POINTER_MODE_DEVICE;
   s = cublasSetStream_v2(cb, stream);
   if (s == CUBLAS_STATUS_SUCCESS)
      s = cublasSetPointerMode_v2(cb, dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST);
   if (s != CUBLAS_STATUS_SUCCESS)
      return s;
   CUcontext cur = NULL;
   if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS || (cur != lightHandle->ctx && cuCtxSetCurrent(lightHandle->ctx)))
      return CUBLAS_STATUS_NOT_INITIALIZED;
   if (C != D && (dev || !host_zero(beta, (cudaDataType)d->scale))) {
      s = copy_c_to_d(&p, C, D, (CUstream)stream);
      if (s != CUBLAS_STATUS_SUCCESS)
         return s;
   } else if (C == D && p.ldc != p.ldd) {
      LT_NOT_SUPPORTED("cublasLtMatmul in place (C = D) with different leading dimensions");
   }
   const void *first = p.swap ? B : A, *second = p.swap ? A : B;
   s = cublasGemmStridedBatchedEx_64(cb, p.op1, p.op2, p.m, p.n, p.k, alpha, first, p.ab_type, p.ld1, p.s1, second,
                                     p.ab_type, p.ld2, p.s2, beta, D, p.cd_type, p.ldd, p.sd, p.batch, p.compute,
                                     CUBLAS_GEMM_DEFAULT);
   if (s == CUBLAS_STATUS_SUCCESS && p.kernel >= 0)
      s = run_epilogue(lightHandle, &p, d, D, (CUstream)stream);
   return s;
}
