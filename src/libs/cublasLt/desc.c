/*
 * desc.c — matmul descriptors, matrix layouts, preferences and matrix
 * transform descriptors: create
 * (malloc'd opaque storage), init (the caller's storage), destroy, set and
 * get attribute.  Every attribute is a field of a known size (a table per
 * kind); a value of another size is CUBLAS_STATUS_INVALID_VALUE, as is an
 * unknown attribute.  Get with sizeInBytes 0 answers the size in
 * sizeWritten (NVIDIA's query form).
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(cublasLt);

_Static_assert(sizeof(lt_matmul_desc) <= sizeof(cublasLtMatmulDescOpaque_t), "matmul descriptor too large");
_Static_assert(sizeof(lt_layout) <= sizeof(cublasLtMatrixLayoutOpaque_t), "layout too large");
_Static_assert(sizeof(lt_preference) <= sizeof(cublasLtMatmulPreferenceOpaque_t), "preference too large");
_Static_assert(sizeof(lt_transform_desc) <= sizeof(cublasLtMatrixTransformDescOpaque_t), "transform descriptor too large");

typedef struct lt_field {
   int attr;
   size_t offset, size;
} lt_field;

#define DF(a, f) { CUBLASLT_MATMUL_DESC_##a, offsetof(lt_matmul_desc, f), sizeof(((lt_matmul_desc *)0)->f) }
static const lt_field desc_fields[] = {
   DF(COMPUTE_TYPE, compute), DF(SCALE_TYPE, scale), DF(POINTER_MODE, pmode), DF(TRANSA, transa),
   DF(TRANSB, transb), DF(TRANSC, transc), DF(FILL_MODE, fill), DF(EPILOGUE, epilogue),
   DF(BIAS_POINTER, bias), DF(BIAS_BATCH_STRIDE, bias_stride), DF(EPILOGUE_AUX_POINTER, aux),
   DF(EPILOGUE_AUX_LD, aux_ld), DF(EPILOGUE_AUX_BATCH_STRIDE, aux_stride),
   DF(ALPHA_VECTOR_BATCH_STRIDE, alpha_vec_stride), DF(SM_COUNT_TARGET, sm_target),
   DF(A_SCALE_POINTER, scale_ptr[0]), DF(B_SCALE_POINTER, scale_ptr[1]), DF(C_SCALE_POINTER, scale_ptr[2]),
   DF(D_SCALE_POINTER, scale_ptr[3]), DF(AMAX_D_POINTER, amax_d), DF(EPILOGUE_AUX_DATA_TYPE, aux_type),
   DF(EPILOGUE_AUX_SCALE_POINTER, aux_scale), DF(EPILOGUE_AUX_AMAX_POINTER, aux_amax),
   DF(FAST_ACCUM, fast_accum), DF(BIAS_DATA_TYPE, bias_type), DF(A_SCALE_MODE, scale_mode[0]),
   DF(B_SCALE_MODE, scale_mode[1]), DF(C_SCALE_MODE, scale_mode[2]), DF(D_SCALE_MODE, scale_mode[3]),
   DF(EPILOGUE_AUX_SCALE_MODE, scale_mode[4]), DF(D_OUT_SCALE_POINTER, d_out_scale),
   DF(D_OUT_SCALE_MODE, d_out_scale_mode), DF(EMULATION_DESCRIPTOR, emulation),
};
#define LF(a, f) { CUBLASLT_MATRIX_LAYOUT_##a, offsetof(lt_layout, f), sizeof(((lt_layout *)0)->f) }
static const lt_field layout_fields[] = {
   LF(TYPE, type), LF(ORDER, order), LF(ROWS, rows), LF(COLS, cols), LF(LD, ld), LF(BATCH_COUNT, batch),
   LF(STRIDED_BATCH_OFFSET, stride), LF(PLANE_OFFSET, plane_offset), LF(BATCH_MODE, batch_mode),
};
#define PF(a, f) { CUBLASLT_MATMUL_PREF_##a, offsetof(lt_preference, f), sizeof(((lt_preference *)0)->f) }
static const lt_field pref_fields[] = {
   PF(SEARCH_MODE, search_mode), PF(MAX_WORKSPACE_BYTES, max_workspace), PF(REDUCTION_SCHEME_MASK, reduction_mask),
   PF(MIN_ALIGNMENT_A_BYTES, min_align[0]), PF(MIN_ALIGNMENT_B_BYTES, min_align[1]),
   PF(MIN_ALIGNMENT_C_BYTES, min_align[2]), PF(MIN_ALIGNMENT_D_BYTES, min_align[3]),
   PF(MAX_WAVES_COUNT, max_waves), PF(IMPL_MASK, impl_mask),
};
#define TF(a, f) { CUBLASLT_MATRIX_TRANSFORM_DESC_##a, offsetof(lt_transform_desc, f), sizeof(((lt_transform_desc *)0)->f) }
static const lt_field transform_fields[] = {
   TF(SCALE_TYPE, scale), TF(POINTER_MODE, pmode), TF(TRANSA, transa), TF(TRANSB, transb),
};
#define NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

static const lt_field *field_of(const lt_field *t, size_t n, int attr)
{
   for (size_t i = 0; i < n; i++)
      if (t[i].attr == attr)
         return &t[i];
   return NULL;
}

static cublasStatus_t set_field(void *obj, const lt_field *t, size_t n, int attr, const void *buf, size_t size)
{
   const lt_field *f = field_of(t, n, attr);
   LT_CHECK(f, CUBLAS_STATUS_INVALID_VALUE);
   LT_CHECK(buf && size == f->size, CUBLAS_STATUS_INVALID_VALUE);
   memcpy((char *)obj + f->offset, buf, size);
   return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t get_field(const void *obj, const lt_field *t, size_t n, int attr, void *buf, size_t size,
                                size_t *written)
{
   const lt_field *f = field_of(t, n, attr);
   LT_CHECK(f, CUBLAS_STATUS_INVALID_VALUE);
   if (size == 0) {   /* the query form */
      LT_CHECK(written, CUBLAS_STATUS_INVALID_VALUE);
      *written = f->size;
      return CUBLAS_STATUS_SUCCESS;
   }
   LT_CHECK(buf && size == f->size, CUBLAS_STATUS_INVALID_VALUE);
   memcpy(buf, (const char *)obj + f->offset, size);
   if (written)
      *written = f->size;
   return CUBLAS_STATUS_SUCCESS;
}

const lt_matmul_desc *lt_desc_of(cublasLtMatmulDesc_t d)
{
   const lt_matmul_desc *m = (const lt_matmul_desc *)d;
   return m && m->magic == LT_MAGIC_DESC ? m : NULL;
}

const lt_layout *lt_layout_of(cublasLtMatrixLayout_t l)
{
   const lt_layout *m = (const lt_layout *)l;
   return m && m->magic == LT_MAGIC_LAYOUT ? m : NULL;
}

const lt_preference *lt_preference_of(cublasLtMatmulPreference_t p)
{
   const lt_preference *m = (const lt_preference *)p;
   return m && m->magic == LT_MAGIC_PREF ? m : NULL;
}

const lt_transform_desc *lt_transform_desc_of(cublasLtMatrixTransformDesc_t d)
{
   const lt_transform_desc *m = (const lt_transform_desc *)d;
   return m && m->magic == LT_MAGIC_TRANSFORM ? m : NULL;
}

/* ---- matmul descriptors ---- */

LT_EXPORT cublasStatus_t cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t matmulDesc, size_t size,
                                                         cublasComputeType_t computeType, cudaDataType_t scaleType)
{
   LOG_TRACE("matmulDesc=%p size=%zu computeType=%d scaleType=%d", (void *)matmulDesc, size, (int)computeType,
             (int)scaleType);
   LT_CHECK(matmulDesc && size >= sizeof(lt_matmul_desc), CUBLAS_STATUS_INVALID_VALUE);
   lt_matmul_desc *m = (lt_matmul_desc *)matmulDesc;
   memset(m, 0, sizeof(*m));
   m->magic = LT_MAGIC_DESC;
   m->compute = computeType;
   m->scale = scaleType;
   m->pmode = CUBLASLT_POINTER_MODE_HOST;
   m->transa = m->transb = m->transc = CUBLAS_OP_N;
   m->fill = CUBLAS_FILL_MODE_FULL;
   m->epilogue = CUBLASLT_EPILOGUE_DEFAULT;
   m->bias_type = -1;
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc, cublasComputeType_t computeType,
                                                  cudaDataType_t scaleType)
{
   LOG_TRACE("matmulDesc=%p computeType=%d scaleType=%d", (void *)matmulDesc, (int)computeType, (int)scaleType);
   LT_CHECK(matmulDesc, CUBLAS_STATUS_INVALID_VALUE);
   cublasLtMatmulDesc_t d = malloc(sizeof(*d));
   if (!d)
      return CUBLAS_STATUS_ALLOC_FAILED;
   cublasLtMatmulDescInit_internal(d, sizeof(*d), computeType, scaleType);
   *matmulDesc = d;
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc)
{
   LOG_TRACE("matmulDesc=%p", (void *)matmulDesc);
   if (!matmulDesc)
      return CUBLAS_STATUS_SUCCESS;
   LT_CHECK(lt_desc_of(matmulDesc), CUBLAS_STATUS_INVALID_VALUE);
   ((lt_matmul_desc *)matmulDesc)->magic = 0;
   free(matmulDesc);
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                                        cublasLtMatmulDescAttributes_t attr, const void *buf,
                                                        size_t sizeInBytes)
{
   LOG_TRACE("matmulDesc=%p attr=%d buf=%p sizeInBytes=%zu", (void *)matmulDesc, (int)attr, buf, sizeInBytes);
   LT_CHECK(lt_desc_of(matmulDesc), CUBLAS_STATUS_INVALID_VALUE);
   return set_field(matmulDesc, desc_fields, NFIELDS(desc_fields), attr, buf, sizeInBytes);
}

LT_EXPORT cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                                        cublasLtMatmulDescAttributes_t attr, void *buf,
                                                        size_t sizeInBytes, size_t *sizeWritten)
{
   LOG_TRACE("matmulDesc=%p attr=%d buf=%p sizeInBytes=%zu sizeWritten=%p", (void *)matmulDesc, (int)attr, buf,
             sizeInBytes, (void *)sizeWritten);
   LT_CHECK(lt_desc_of(matmulDesc), CUBLAS_STATUS_INVALID_VALUE);
   return get_field(matmulDesc, desc_fields, NFIELDS(desc_fields), attr, buf, sizeInBytes, sizeWritten);
}

/* ---- matrix layouts ---- */

LT_EXPORT cublasStatus_t cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t matLayout, size_t size,
                                                           cudaDataType type, uint64_t rows, uint64_t cols,
                                                           int64_t ld)
{
   LOG_TRACE("matLayout=%p size=%zu type=%d rows=%llu cols=%llu ld=%lld", (void *)matLayout, size, (int)type,
             (unsigned long long)rows, (unsigned long long)cols, (long long)ld);
   LT_CHECK(matLayout && size >= sizeof(lt_layout), CUBLAS_STATUS_INVALID_VALUE);
   lt_layout *l = (lt_layout *)matLayout;
   memset(l, 0, sizeof(*l));
   l->magic = LT_MAGIC_LAYOUT;
   l->type = (uint32_t)type;
   l->order = CUBLASLT_ORDER_COL;
   l->batch = 1;
   l->rows = rows;
   l->cols = cols;
   l->ld = ld;
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType type,
                                                    uint64_t rows, uint64_t cols, int64_t ld)
{
   LOG_TRACE("matLayout=%p type=%d rows=%llu cols=%llu ld=%lld", (void *)matLayout, (int)type,
             (unsigned long long)rows, (unsigned long long)cols, (long long)ld);
   LT_CHECK(matLayout, CUBLAS_STATUS_INVALID_VALUE);
   cublasLtMatrixLayout_t l = malloc(sizeof(*l));
   if (!l)
      return CUBLAS_STATUS_ALLOC_FAILED;
   cublasLtMatrixLayoutInit_internal(l, sizeof(*l), type, rows, cols, ld);
   *matLayout = l;
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout)
{
   LOG_TRACE("matLayout=%p", (void *)matLayout);
   if (!matLayout)
      return CUBLAS_STATUS_SUCCESS;
   LT_CHECK(lt_layout_of(matLayout), CUBLAS_STATUS_INVALID_VALUE);
   ((lt_layout *)matLayout)->magic = 0;
   free(matLayout);
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout,
                                                          cublasLtMatrixLayoutAttribute_t attr, const void *buf,
                                                          size_t sizeInBytes)
{
   LOG_TRACE("matLayout=%p attr=%d buf=%p sizeInBytes=%zu", (void *)matLayout, (int)attr, buf, sizeInBytes);
   LT_CHECK(lt_layout_of(matLayout), CUBLAS_STATUS_INVALID_VALUE);
   return set_field(matLayout, layout_fields, NFIELDS(layout_fields), attr, buf, sizeInBytes);
}

LT_EXPORT cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout,
                                                          cublasLtMatrixLayoutAttribute_t attr, void *buf,
                                                          size_t sizeInBytes, size_t *sizeWritten)
{
   LOG_TRACE("matLayout=%p attr=%d buf=%p sizeInBytes=%zu sizeWritten=%p", (void *)matLayout, (int)attr, buf,
             sizeInBytes, (void *)sizeWritten);
   LT_CHECK(lt_layout_of(matLayout), CUBLAS_STATUS_INVALID_VALUE);
   return get_field(matLayout, layout_fields, NFIELDS(layout_fields), attr, buf, sizeInBytes, sizeWritten);
}

/* ---- preferences ---- */

LT_EXPORT cublasStatus_t cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref, size_t size)
{
   LOG_TRACE("pref=%p size=%zu", (void *)pref, size);
   LT_CHECK(pref && size >= sizeof(lt_preference), CUBLAS_STATUS_INVALID_VALUE);
   lt_preference *p = (lt_preference *)pref;
   memset(p, 0, sizeof(*p));
   p->magic = LT_MAGIC_PREF;
   p->reduction_mask = 0xffffffffu;
   p->min_align[0] = p->min_align[1] = p->min_align[2] = p->min_align[3] = 256;
   p->impl_mask = ~(uint64_t)0;
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref)
{
   LOG_TRACE("pref=%p", (void *)pref);
   LT_CHECK(pref, CUBLAS_STATUS_INVALID_VALUE);
   cublasLtMatmulPreference_t p = malloc(sizeof(*p));
   if (!p)
      return CUBLAS_STATUS_ALLOC_FAILED;
   cublasLtMatmulPreferenceInit_internal(p, sizeof(*p));
   *pref = p;
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref)
{
   LOG_TRACE("pref=%p", (void *)pref);
   if (!pref)
      return CUBLAS_STATUS_SUCCESS;
   LT_CHECK(lt_preference_of(pref), CUBLAS_STATUS_INVALID_VALUE);
   ((lt_preference *)pref)->magic = 0;
   free(pref);
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                              cublasLtMatmulPreferenceAttributes_t attr,
                                                              const void *buf, size_t sizeInBytes)
{
   LOG_TRACE("pref=%p attr=%d buf=%p sizeInBytes=%zu", (void *)pref, (int)attr, buf, sizeInBytes);
   LT_CHECK(lt_preference_of(pref), CUBLAS_STATUS_INVALID_VALUE);
   return set_field(pref, pref_fields, NFIELDS(pref_fields), attr, buf, sizeInBytes);
}

LT_EXPORT cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
                                                              cublasLtMatmulPreferenceAttributes_t attr, void *buf,
                                                              size_t sizeInBytes, size_t *sizeWritten)
{
   LOG_TRACE("pref=%p attr=%d buf=%p sizeInBytes=%zu sizeWritten=%p", (void *)pref, (int)attr, buf, sizeInBytes,
             (void *)sizeWritten);
   LT_CHECK(lt_preference_of(pref), CUBLAS_STATUS_INVALID_VALUE);
   return get_field(pref, pref_fields, NFIELDS(pref_fields), attr, buf, sizeInBytes, sizeWritten);
}

/* ---- matrix transform descriptors ---- */

LT_EXPORT cublasStatus_t cublasLtMatrixTransformDescInit_internal(cublasLtMatrixTransformDesc_t transformDesc,
                                                                  size_t size, cudaDataType scaleType)
{
   LOG_TRACE("transformDesc=%p size=%zu scaleType=%d", (void *)transformDesc, size, (int)scaleType);
   LT_CHECK(transformDesc && size >= sizeof(lt_transform_desc), CUBLAS_STATUS_INVALID_VALUE);
   lt_transform_desc *t = (lt_transform_desc *)transformDesc;
   memset(t, 0, sizeof(*t));
   t->magic = LT_MAGIC_TRANSFORM;
   t->scale = scaleType;
   t->pmode = CUBLASLT_POINTER_MODE_HOST;
   t->transa = t->transb = CUBLAS_OP_N;
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatrixTransformDescCreate(cublasLtMatrixTransformDesc_t *transformDesc,
                                                           cudaDataType scaleType)
{
   LOG_TRACE("transformDesc=%p scaleType=%d", (void *)transformDesc, (int)scaleType);
   LT_CHECK(transformDesc, CUBLAS_STATUS_INVALID_VALUE);
   cublasLtMatrixTransformDesc_t d = malloc(sizeof(*d));
   if (!d)
      return CUBLAS_STATUS_ALLOC_FAILED;
   cublasLtMatrixTransformDescInit_internal(d, sizeof(*d), scaleType);
   *transformDesc = d;
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatrixTransformDescDestroy(cublasLtMatrixTransformDesc_t transformDesc)
{
   LOG_TRACE("transformDesc=%p", (void *)transformDesc);
   if (!transformDesc)
      return CUBLAS_STATUS_SUCCESS;
   LT_CHECK(lt_transform_desc_of(transformDesc), CUBLAS_STATUS_INVALID_VALUE);
   ((lt_transform_desc *)transformDesc)->magic = 0;
   free(transformDesc);
   return CUBLAS_STATUS_SUCCESS;
}

LT_EXPORT cublasStatus_t cublasLtMatrixTransformDescSetAttribute(cublasLtMatrixTransformDesc_t transformDesc,
                                                                 cublasLtMatrixTransformDescAttributes_t attr,
                                                                 const void *buf, size_t sizeInBytes)
{
   LOG_TRACE("transformDesc=%p attr=%d buf=%p sizeInBytes=%zu", (void *)transformDesc, (int)attr, buf, sizeInBytes);
   LT_CHECK(lt_transform_desc_of(transformDesc), CUBLAS_STATUS_INVALID_VALUE);
   return set_field(transformDesc, transform_fields, NFIELDS(transform_fields), attr, buf, sizeInBytes);
}

LT_EXPORT cublasStatus_t cublasLtMatrixTransformDescGetAttribute(cublasLtMatrixTransformDesc_t transformDesc,
                                                                 cublasLtMatrixTransformDescAttributes_t attr,
                                                                 void *buf, size_t sizeInBytes, size_t *sizeWritten)
{
   LOG_TRACE("transformDesc=%p attr=%d buf=%p sizeInBytes=%zu sizeWritten=%p", (void *)transformDesc, (int)attr, buf,
             sizeInBytes, (void *)sizeWritten);
   LT_CHECK(lt_transform_desc_of(transformDesc), CUBLAS_STATUS_INVALID_VALUE);
   return get_field(transformDesc, transform_fields, NFIELDS(transform_fields), attr, buf, sizeInBytes, sizeWritten);
}
