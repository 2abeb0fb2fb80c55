/*
 * level1ex.c — the Level 1 Ex forms: dot dotc axpy scal nrm2 asum iamax
 * iamin copy swap rot rotg rotm rotmg over data whose types the caller
 * names (cudaDataType), with their _64 forms.
 *
 * The combinations are cuBLAS's documented ones: 32F, 64F, C32F and C64F
 * data with the execution (and scalar) type of the data, served by the
 * typed routines' kernels; 16F and 16BF data (dot, axpy, scal, nrm2, asum,
 * rot, iamax, iamin, copy, swap) computed in float, with a float alpha,
 * c and s of the data's type, and results rounded once to the data's type
 * (kernels.cu's 16-bit Level 1); rot takes real or complex c and s with
 * complex data (csrot, crot: c's imaginary part is not read).  Anything
 * else is CUBLAS_STATUS_NOT_SUPPORTED, said with the types; so are, as on
 * an H200, asum of 16-bit data and scal of complex data by a real alpha.
 */
#include "cb.h"

#include <string.h>

LOG_CHANNEL(cublas);

/* The letter of a data type as the typed routines name it, 0 if none. */
static char letter_of(cudaDataType t)
{
   switch (t) {
   case CUDA_R_16F: return 'h';
   case CUDA_R_16BF: return 'b';
   case CUDA_R_32F: return 's';
   case CUDA_R_64F: return 'd';
   case CUDA_C_32F: return 'c';
   case CUDA_C_64F: return 'z';
   default: return 0;
   }
}

static bool is16(char t) { return t == 'h' || t == 'b'; }
static bool is_complex(char t) { return t == 'c' || t == 'z'; }
/* the type arithmetic on T is done in: float for 16-bit data */
static char compute_of(char t) { return is16(t) ? 's' : t; }
static char real_of(char t) { return t == 'c' ? 's' : t == 'z' ? 'd' : t; }

static const char *type_name(cudaDataType t)
{
   switch (t) {
   case CUDA_R_16F: return "CUDA_R_16F";
   case CUDA_R_16BF: return "CUDA_R_16BF";
   case CUDA_R_32F: return "CUDA_R_32F";
   case CUDA_R_64F: return "CUDA_R_64F";
   case CUDA_C_32F: return "CUDA_C_32F";
   case CUDA_C_64F: return "CUDA_C_64F";
   default: return "another type";
   }
}

/* Refuses FN's combination of the COUNT types, naming them. */
static cublasStatus_t unsupported(const char *fn, int count, const cudaDataType *types)
{
   char what[160] = "";
   size_t len = 0;
   for (int i = 0; i < count && len < sizeof(what); i++)
      len += (size_t)snprintf(what + len, sizeof(what) - len, "%s%s", i ? ", " : "", type_name(types[i]));
   LOG_WARN("%s with types %s is not supported", fn, what);
   return CUBLAS_STATUS_NOT_SUPPORTED;
}
#define REFUSE(fn, ...) unsupported(fn, (int)(sizeof((cudaDataType[]){ __VA_ARGS__ }) / sizeof(cudaDataType)), \
                                    (cudaDataType[]){ __VA_ARGS__ })

static cublasStatus_t dot_ex(const char *fn, cublasHandle_t h, bool conj, int64_t n, const void *x, cudaDataType xType,
                             int64_t incx, const void *y, cudaDataType yType, int64_t incy, void *result,
                             cudaDataType resultType, cudaDataType execType)
{
   CB_HANDLE(h);
   char t = letter_of(xType);
   if (!t || yType != xType || resultType != xType || letter_of(execType) != compute_of(t))
      return REFUSE(fn, xType, yType, resultType, execType);
   int op = conj && is_complex(t) ? CB_RED_DOTC : CB_RED_DOT;
   return cb_l1_reduction(h, t, op, n, x, incx, y, incy, result, cb_l1_elem_size(t));
}

static cublasStatus_t axpy_ex(cublasHandle_t h, int64_t n, const void *alpha, cudaDataType alphaType, const void *x,
                              cudaDataType xType, int64_t incx, void *y, cudaDataType yType, int64_t incy,
                              cudaDataType execType)
{
   static const char *const k16[2] = { "cb_axpy_h", "cb_axpy_b" };
   static const char *const kr[2] = { "cb_axpy_s", "cb_axpy_d" };
   static const char *const kc[2] = { "cb_caxpy_s", "cb_caxpy_d" };
   CB_HANDLE(h);
   char t = letter_of(xType), e = letter_of(execType);
   if (!t || yType != xType || letter_of(alphaType) != compute_of(t) || e != compute_of(t))
      return REFUSE("cublasAxpyEx", alphaType, xType, yType, execType);
   if (n <= 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && x && y, CUBLAS_STATUS_INVALID_VALUE);
   return cb_l1_elementwise(h, is16(t) ? k16 : is_complex(t) ? kc : kr, t, n, alpha, e, NULL, 0, 0, (void *)x, incx,
                            y, incy);
}

static cublasStatus_t scal_ex(cublasHandle_t h, int64_t n, const void *alpha, cudaDataType alphaType, void *x,
                              cudaDataType xType, int64_t incx, cudaDataType execType)
{
   static const char *const k16[2] = { "cb_scal_h", "cb_scal_b" };
   static const char *const kr[2] = { "cb_scal_s", "cb_scal_d" };
   static const char *const kc[2] = { "cb_cscal_s", "cb_cscal_d" };
   CB_HANDLE(h);
   char t = letter_of(xType), a = letter_of(alphaType), e = letter_of(execType);
   if (!t || a != compute_of(t) || e != compute_of(t))
      return REFUSE("cublasScalEx", alphaType, xType, execType);
   if (n <= 0 || incx <= 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && x, CUBLAS_STATUS_INVALID_VALUE);
   const char *const *k = is16(t) ? k16 : is_complex(t) ? kc : kr;
   return cb_l1_elementwise(h, k, t, n, alpha, a, NULL, 0, 0, x, incx, NULL, 0);
}

/* nrm2 and asum: a real result (of the data's type for 16-bit data) */
static cublasStatus_t norm_ex(const char *fn, int op, cublasHandle_t h, int64_t n, const void *x, cudaDataType xType,
                              int64_t incx, void *result, cudaDataType resultType, cudaDataType execType)
{
   CB_HANDLE(h);
   char t = letter_of(xType);
   bool ok = t && letter_of(resultType) == real_of(t) && letter_of(execType) == compute_of(real_of(t));
   if (!ok || (op == CB_RED_ASUM && is16(t)))
      return REFUSE(fn, xType, resultType, execType);
   return cb_l1_reduction(h, t, op, n, x, incx, NULL, 0, result, cb_l1_elem_size(real_of(t)));
}

static cublasStatus_t index_ex(const char *fn, int op, cublasHandle_t h, int64_t n, const void *x,
                               cudaDataType xType, int64_t incx, void *result, size_t rsize)
{
   CB_HANDLE(h);
   char t = letter_of(xType);
   if (!t)
      return REFUSE(fn, xType);
   return cb_l1_reduction(h, t, op, n, x, incx, NULL, 0, result, rsize);
}

/* copy and swap move elements: the kernel of the element's size */
static cublasStatus_t move_ex(const char *fn, bool swap, cublasHandle_t h, int64_t n, void *x, cudaDataType xType,
                              int64_t incx, void *y, cudaDataType yType, int64_t incy)
{
   static const char *const kcopy[4][2] = { { "cb_copy_16", "cb_copy_16" }, { "cb_copy_s", "cb_copy_s" },
                                             { "cb_copy_d", "cb_copy_d" }, { "cb_copy_z", "cb_copy_z" } };
   static const char *const kswap[4][2] = { { "cb_swap_16", "cb_swap_16" }, { "cb_swap_s", "cb_swap_s" },
                                             { "cb_swap_d", "cb_swap_d" }, { "cb_swap_z", "cb_swap_z" } };
   CB_HANDLE(h);
   char t = letter_of(xType);
   if (!t || yType != xType)
      return REFUSE(fn, xType, yType);
   if (n <= 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(x && y, CUBLAS_STATUS_INVALID_VALUE);
   size_t es = cb_l1_elem_size(t);
   int k = es == 2 ? 0 : es == 4 ? 1 : es == 8 ? 2 : 3;
   return cb_l1_elementwise(h, swap ? kswap[k] : kcopy[k], t, n, NULL, 0, NULL, 0, 0, x, incx, y, incy);
}

static cublasStatus_t rot_ex(cublasHandle_t h, int64_t n, void *x, cudaDataType xType, int64_t incx, void *y,
                             cudaDataType yType, int64_t incy, const void *c, const void *s, cudaDataType csType,
                             cudaDataType execType)
{
   static const char *const k16[2] = { "cb_rot_h", "cb_rot_b" };
   static const char *const kr[2] = { "cb_rot_s", "cb_rot_d" };
   static const char *const kc[2] = { "cb_crot_s", "cb_crot_d" };
   CB_HANDLE(h);
   char t = letter_of(xType), cs = letter_of(csType), e = letter_of(execType);
   bool ok = t && yType == xType && e == compute_of(t) && (cs == t || (is_complex(t) && cs == real_of(t)));
   if (!ok)
      return REFUSE("cublasRotEx", xType, yType, csType, execType);
   if (n <= 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(x && y && c && s, CUBLAS_STATUS_INVALID_VALUE);
   /* complex c: its real part, the first value */
   return cb_l1_elementwise(h, is16(t) ? k16 : is_complex(t) ? kc : kr, t, n, c, cs, s, cs, is_complex(cs), x, incx,
                            y, incy);
}

/* ---- the exports: each defined with 64-bit sizes and again with int ---- */

#define EX_DOT(NAME, CONJ)                                                                              \
   CB_EXPORT cublasStatus_t NAME##_64(cublasHandle_t h, int64_t n, const void *x, cudaDataType xType, int64_t incx, \
                                      const void *y, cudaDataType yType, int64_t incy, void *result,          \
                                      cudaDataType resultType, cudaDataType executionType);                   \
   CB_EXPORT cublasStatus_t NAME##_64(cublasHandle_t h, int64_t n, const void *x, cudaDataType xType, int64_t incx, \
                                      const void *y, cudaDataType yType, int64_t incy, void *result,          \
                                      cudaDataType resultType, cudaDataType executionType)                    \
   {                                                                                                    \
      CB_ENTER("handle=%p n=%lld x=%p xType=%d incx=%lld y=%p yType=%d incy=%lld result=%p resultType=%d " \
               "executionType=%d", (void *)h, (long long)n, x, (int)xType, (long long)incx, y, (int)yType,   \
               (long long)incy, result, (int)resultType, (int)executionType);                             \
      return dot_ex(#NAME, h, CONJ, n, x, xType, incx, y, yType, incy, result, resultType, executionType); \
   }                                                                                                    \
   CB_EXPORT cublasStatus_t NAME(cublasHandle_t h, int n, const void *x, cudaDataType xType, int incx,        \
                                 const void *y, cudaDataType yType, int incy, void *result, cudaDataType resultType, \
                                 cudaDataType executionType)                                             \
   {                                                                                                    \
      return NAME##_64(h, n, x, xType, incx, y, yType, incy, result, resultType, executionType);        \
   }
EX_DOT(cublasDotEx, false)
EX_DOT(cublasDotcEx, true)

CB_EXPORT cublasStatus_t cublasAxpyEx_64(cublasHandle_t h, int64_t n, const void *alpha, cudaDataType alphaType,
                                         const void *x, cudaDataType xType, int64_t incx, void *y, cudaDataType yType,
                                         int64_t incy, cudaDataType executiontype);
CB_EXPORT cublasStatus_t cublasAxpyEx_64(cublasHandle_t h, int64_t n, const void *alpha, cudaDataType alphaType,
                                         const void *x, cudaDataType xType, int64_t incx, void *y, cudaDataType yType,
                                         int64_t incy, cudaDataType executiontype)
{
   CB_ENTER("handle=%p n=%lld alpha=%p alphaType=%d x=%p xType=%d incx=%lld y=%p yType=%d incy=%lld "
            "executiontype=%d", (void *)h, (long long)n, alpha, (int)alphaType, x, (int)xType, (long long)incx, y,
            (int)yType, (long long)incy, (int)executiontype);
   return axpy_ex(h, n, alpha, alphaType, x, xType, incx, y, yType, incy, executiontype);
}
CB_EXPORT cublasStatus_t cublasAxpyEx(cublasHandle_t h, int n, const void *alpha, cudaDataType alphaType, const void *x,
                                      cudaDataType xType, int incx, void *y, cudaDataType yType, int incy,
                                      cudaDataType executiontype)
{
   return cublasAxpyEx_64(h, n, alpha, alphaType, x, xType, incx, y, yType, incy, executiontype);
}

CB_EXPORT cublasStatus_t cublasScalEx_64(cublasHandle_t h, int64_t n, const void *alpha, cudaDataType alphaType,
                                         void *x, cudaDataType xType, int64_t incx, cudaDataType executionType);
CB_EXPORT cublasStatus_t cublasScalEx_64(cublasHandle_t h, int64_t n, const void *alpha, cudaDataType alphaType,
                                         void *x, cudaDataType xType, int64_t incx, cudaDataType executionType)
{
   CB_ENTER("handle=%p n=%lld alpha=%p alphaType=%d x=%p xType=%d incx=%lld executionType=%d", (void *)h,
            (long long)n, alpha, (int)alphaType, x, (int)xType, (long long)incx, (int)executionType);
   return scal_ex(h, n, alpha, alphaType, x, xType, incx, executionType);
}
CB_EXPORT cublasStatus_t cublasScalEx(cublasHandle_t h, int n, const void *alpha, cudaDataType alphaType, void *x,
                                      cudaDataType xType, int incx, cudaDataType executionType)
{
   return cublasScalEx_64(h, n, alpha, alphaType, x, xType, incx, executionType);
}

#define EX_NORM(NAME, OP)                                                                               \
   CB_EXPORT cublasStatus_t NAME##_64(cublasHandle_t h, int64_t n, const void *x, cudaDataType xType, int64_t incx, \
                                      void *result, cudaDataType resultType, cudaDataType executionType);     \
   CB_EXPORT cublasStatus_t NAME##_64(cublasHandle_t h, int64_t n, const void *x, cudaDataType xType, int64_t incx, \
                                      void *result, cudaDataType resultType, cudaDataType executionType)      \
   {                                                                                                    \
      CB_ENTER("handle=%p n=%lld x=%p xType=%d incx=%lld result=%p resultType=%d executionType=%d", (void *)h, \
               (long long)n, x, (int)xType, (long long)incx, result, (int)resultType, (int)executionType);   \
      return norm_ex(#NAME, OP, h, n, x, xType, incx, result, resultType, executionType);                 \
   }                                                                                                    \
   CB_EXPORT cublasStatus_t NAME(cublasHandle_t h, int n, const void *x, cudaDataType xType, int incx, void *result, \
                                 cudaDataType resultType, cudaDataType executionType)                    \
   {                                                                                                    \
      return NAME##_64(h, n, x, xType, incx, result, resultType, executionType);                        \
   }
EX_NORM(cublasNrm2Ex, CB_RED_NRM2)
EX_NORM(cublasAsumEx, CB_RED_ASUM)

#define EX_INDEX(NAME, OP)                                                                              \
   CB_EXPORT cublasStatus_t NAME##_64(cublasHandle_t h, int64_t n, const void *x, cudaDataType xType, int64_t incx, \
                                      int64_t *result);                                                  \
   CB_EXPORT cublasStatus_t NAME##_64(cublasHandle_t h, int64_t n, const void *x, cudaDataType xType, int64_t incx, \
                                      int64_t *result)                                                   \
   {                                                                                                    \
      CB_ENTER("handle=%p n=%lld x=%p xType=%d incx=%lld result=%p", (void *)h, (long long)n, x, (int)xType, \
               (long long)incx, (void *)result);                                                        \
      return index_ex(#NAME, OP, h, n, x, xType, incx, result, sizeof(*result));                        \
   }                                                                                                    \
   CB_EXPORT cublasStatus_t NAME(cublasHandle_t h, int n, const void *x, cudaDataType xType, int incx, int *result) \
   {                                                                                                    \
      CB_ENTER("handle=%p n=%d x=%p xType=%d incx=%d result=%p", (void *)h, n, x, (int)xType, incx,       \
               (void *)result);                                                                         \
      return index_ex(#NAME, OP, h, n, x, xType, incx, result, sizeof(*result));                        \
   }
EX_INDEX(cublasIamaxEx, CB_RED_AMAX)
EX_INDEX(cublasIaminEx, CB_RED_AMIN)

#define EX_MOVE(NAME, SWAP, CONST)                                                                      \
   CB_EXPORT cublasStatus_t NAME##_64(cublasHandle_t h, int64_t n, CONST void *x, cudaDataType xType, int64_t incx, \
                                      void *y, cudaDataType yType, int64_t incy);                        \
   CB_EXPORT cublasStatus_t NAME##_64(cublasHandle_t h, int64_t n, CONST void *x, cudaDataType xType, int64_t incx, \
                                      void *y, cudaDataType yType, int64_t incy)                         \
   {                                                                                                    \
      CB_ENTER("handle=%p n=%lld x=%p xType=%d incx=%lld y=%p yType=%d incy=%lld", (void *)h, (long long)n, \
               (const void *)x, (int)xType, (long long)incx, y, (int)yType, (long long)incy);              \
      return move_ex(#NAME, SWAP, h, n, (void *)x, xType, incx, y, yType, incy);                         \
   }                                                                                                    \
   CB_EXPORT cublasStatus_t NAME(cublasHandle_t h, int n, CONST void *x, cudaDataType xType, int incx, void *y,   \
                                 cudaDataType yType, int incy)                                           \
   {                                                                                                    \
      return NAME##_64(h, n, x, xType, incx, y, yType, incy);                                           \
   }
EX_MOVE(cublasCopyEx, false, const)
EX_MOVE(cublasSwapEx, true, )

CB_EXPORT cublasStatus_t cublasRotEx_64(cublasHandle_t h, int64_t n, void *x, cudaDataType xType, int64_t incx,
                                        void *y, cudaDataType yType, int64_t incy, const void *c, const void *s,
                                        cudaDataType csType, cudaDataType executiontype);
CB_EXPORT cublasStatus_t cublasRotEx_64(cublasHandle_t h, int64_t n, void *x, cudaDataType xType, int64_t incx,
                                        void *y, cudaDataType yType, int64_t incy, const void *c, const void *s,
                                        cudaDataType csType, cudaDataType executiontype)
{
   CB_ENTER("handle=%p n=%lld x=%p xType=%d incx=%lld y=%p yType=%d incy=%lld c=%p s=%p csType=%d executiontype=%d",
            (void *)h, (long long)n, x, (int)xType, (long long)incx, y, (int)yType, (long long)incy, c, s,
            (int)csType, (int)executiontype);
   return rot_ex(h, n, x, xType, incx, y, yType, incy, c, s, csType, executiontype);
}
CB_EXPORT cublasStatus_t cublasRotEx(cublasHandle_t h, int n, void *x, cudaDataType xType, int incx, void *y,
                                     cudaDataType yType, int incy, const void *c, const void *s, cudaDataType csType,
                                     cudaDataType executiontype)
{
   return cublasRotEx_64(h, n, x, xType, incx, y, yType, incy, c, s, csType, executiontype);
}

/* rotg, rotm and rotmg: the real forms, all types the same */
CB_EXPORT cublasStatus_t cublasRotgEx(cublasHandle_t h, void *a, void *b, cudaDataType abType, void *c, void *s,
                                      cudaDataType csType, cudaDataType executiontype)
{
   CB_ENTER("handle=%p a=%p b=%p abType=%d c=%p s=%p csType=%d executiontype=%d", (void *)h, a, b, (int)abType, c,
            s, (int)csType, (int)executiontype);
   CB_HANDLE(h);
   if (abType == CUDA_R_32F && csType == abType && executiontype == abType)
      return cublasSrotg_v2(h, a, b, c, s);
   if (abType == CUDA_R_64F && csType == abType && executiontype == abType)
      return cublasDrotg_v2(h, a, b, c, s);
   return REFUSE("cublasRotgEx", abType, csType, executiontype);
}

CB_EXPORT cublasStatus_t cublasRotmEx_64(cublasHandle_t h, int64_t n, void *x, cudaDataType xType, int64_t incx,
                                         void *y, cudaDataType yType, int64_t incy, const void *param,
                                         cudaDataType paramType, cudaDataType executiontype);
CB_EXPORT cublasStatus_t cublasRotmEx_64(cublasHandle_t h, int64_t n, void *x, cudaDataType xType, int64_t incx,
                                         void *y, cudaDataType yType, int64_t incy, const void *param,
                                         cudaDataType paramType, cudaDataType executiontype)
{
   CB_ENTER("handle=%p n=%lld x=%p xType=%d incx=%lld y=%p yType=%d incy=%lld param=%p paramType=%d "
            "executiontype=%d", (void *)h, (long long)n, x, (int)xType, (long long)incx, y, (int)yType,
            (long long)incy, param, (int)paramType, (int)executiontype);
   CB_HANDLE(h);
   bool same = yType == xType && paramType == xType && executiontype == xType;
   if (same && xType == CUDA_R_32F)
      return cublasSrotm_v2_64(h, n, x, incx, y, incy, param);
   if (same && xType == CUDA_R_64F)
      return cublasDrotm_v2_64(h, n, x, incx, y, incy, param);
   return REFUSE("cublasRotmEx", xType, yType, paramType, executiontype);
}
CB_EXPORT cublasStatus_t cublasRotmEx(cublasHandle_t h, int n, void *x, cudaDataType xType, int incx, void *y,
                                      cudaDataType yType, int incy, const void *param, cudaDataType paramType,
                                      cudaDataType executiontype)
{
   return cublasRotmEx_64(h, n, x, xType, incx, y, yType, incy, param, paramType, executiontype);
}

CB_EXPORT cublasStatus_t cublasRotmgEx(cublasHandle_t h, void *d1, cudaDataType d1Type, void *d2, cudaDataType d2Type,
                                       void *x1, cudaDataType x1Type, const void *y1, cudaDataType y1Type, void *param,
                                       cudaDataType paramType, cudaDataType executiontype)
{
   CB_ENTER("handle=%p d1=%p d2=%p x1=%p y1=%p param=%p types=%d %d %d %d %d exec=%d", (void *)h, d1, d2, x1, y1,
            param, (int)d1Type, (int)d2Type, (int)x1Type, (int)y1Type, (int)paramType, (int)executiontype);
   CB_HANDLE(h);
   bool same = d2Type == d1Type && x1Type == d1Type && y1Type == d1Type && paramType == d1Type &&
               executiontype == d1Type;
   if (same && d1Type == CUDA_R_32F)
      return cublasSrotmg_v2(h, d1, d2, x1, y1, param);
   if (same && d1Type == CUDA_R_64F)
      return cublasDrotmg_v2(h, d1, d2, x1, y1, param);
   return REFUSE("cublasRotmgEx", d1Type, d2Type, x1Type, y1Type, paramType, executiontype);
}
