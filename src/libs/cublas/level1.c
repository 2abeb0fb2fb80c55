/*
 * level1.c — BLAS Level 1: axpy scal copy swap rot rotg, dot dotu dotc nrm2
 * asum iamax iamin, in s/d (and c/z where listed), each with its _64 form.
 *
 * NVIDIA's rules (checked on an H200, tests/libs): n <= 0 is a quick
 * return; a reduction with n <= 0 (and nrm2/asum/iamax/iamin with
 * incx <= 0) yields 0; a negative increment walks the vector from its end
 * (BLAS); in host pointer mode a reduction waits for its result, in device
 * pointer mode it returns at once and writes the result in stream order.
 */
#include "cb.h"

#include <math.h>
#include <string.h>

LOG_CHANNEL(cublas);

static size_t elem_size(char t)
{
   return t == 's' ? 4 : t == 'd' || t == 'c' ? 8 : 16;
}

/* kernels are named cb_<op>_s / _d; complex ones cb_c<op>_s / _d by their
 * component type */
static const char *kname(const char *const names[2], char t)
{
   return names[t == 'd' || t == 'z'];
}

static unsigned blocks_for(int64_t n)
{
   int64_t b = (n + 255) / 256;
   return (unsigned)(b < 1 ? 1 : b > 1024 ? 1024 : b);
}

static cublasStatus_t elementwise(cublasHandle_t h, const char *const names[2], char t, int64_t n, const void *a,
                                  const void *b, void *x, int64_t incx, void *y, int64_t incy)
{
   CB_HANDLE(h);
   if (n <= 0)
      return CUBLAS_STATUS_SUCCESS;
   cb_l1_args g;
   memset(&g, 0, sizeof(g));
   size_t es = elem_size(t);
   g.n = n;
   g.x = cb_vec_base(x, n, incx, es);
   g.y = y ? cb_vec_base(y, n, incy, es) : NULL;
   g.incx = incx;
   g.incy = incy;
   /* rot's c and s are real in s/d */
   if (a)
      g.a = cb_scalar_of(h, a, t);
   if (b)
      g.b = cb_scalar_of(h, b, t);
   return cb_launch(h, kname(names, t), blocks_for(n), 1, 1, 256, 1, &g, sizeof(g));
}

/* A reduction to RESULT (host or device memory by pointer mode) of
 * RSIZE bytes. */
static cublasStatus_t reduction(cublasHandle_t h, char t, int op, int64_t n, const void *x, int64_t incx,
                                const void *y, int64_t incy, void *result, size_t rsize)
{
   CB_HANDLE(h);
   CB_CHECK(result, CUBLAS_STATUS_INVALID_VALUE);
   bool dev = h->pmode == CUBLAS_POINTER_MODE_DEVICE;
   bool dotlike = op == CB_RED_DOT || op == CB_RED_DOTC;
   if (n <= 0 || (!dotlike && incx <= 0)) {
      if (!dev) {
         memset(result, 0, rsize);
         return CUBLAS_STATUS_SUCCESS;
      }
      cublasStatus_t s = cb_enter_ctx(h);
      if (s != CUBLAS_STATUS_SUCCESS)
         return s;
      return cb_status_of(cuMemsetD8Async((CUdeviceptr)(uintptr_t)result, 0, rsize, h->stream));
   }
   bool cplx = t == 'c' || t == 'z';
   size_t es = elem_size(t);
   cb_l1_args g;
   memset(&g, 0, sizeof(g));
   g.n = n;
   g.x = cb_vec_base(x, n, incx, es);
   g.y = y ? cb_vec_base(y, n, incy, es) : NULL;
   g.incx = incx;
   g.incy = incy;
   g.op = op;
   g.partial = (void *)(uintptr_t)h->scratch;
   int64_t nb = (n + CB_RED_THREADS - 1) / CB_RED_THREADS;
   g.nparts = (int32_t)(nb > CB_RED_BLOCKS ? CB_RED_BLOCKS : nb);
   CUdeviceptr res_dev = h->scratch + CB_RED_BLOCKS * 16;
   g.result = dev ? result : (void *)(uintptr_t)res_dev;
   bool is_cdot = cplx && dotlike;
   static const char *const red[2] = { "cb_red_s", "cb_red_d" };
   static const char *const cred[2] = { "cb_cred_s", "cb_cred_d" };
   static const char *const cdot[2] = { "cb_cdot_s", "cb_cdot_d" };
   static const char *const fin[2] = { "cb_redfin_s", "cb_redfin_d" };
   static const char *const cfin[2] = { "cb_credfin_s", "cb_credfin_d" };
   const char *first = is_cdot ? kname(cdot, t) : cplx ? kname(cred, t) : kname(red, t);
   cublasStatus_t s = cb_launch(h, first, (unsigned)g.nparts, 1, 1, CB_RED_THREADS, 1, &g, sizeof(g));
   if (s == CUBLAS_STATUS_SUCCESS)
      s = cb_launch(h, kname(is_cdot ? cfin : fin, t), 1, 1, 1, CB_RED_THREADS, 1, &g, sizeof(g));
   if (s == CUBLAS_STATUS_SUCCESS && !dev)
      s = cb_result_to_host(h, result, res_dev, rsize);
   return s;
}

static const char *const k_axpy[2] = { "cb_axpy_s", "cb_axpy_d" };
static const char *const k_caxpy[2] = { "cb_caxpy_s", "cb_caxpy_d" };
static const char *const k_scal[2] = { "cb_scal_s", "cb_scal_d" };
static const char *const k_cscal[2] = { "cb_cscal_s", "cb_cscal_d" };
static const char *const k_copy[2] = { "cb_copy_s", "cb_copy_d" };
static const char *const k_ccopy[2] = { "cb_copy_c", "cb_copy_z" };
static const char *const k_swap[2] = { "cb_swap_s", "cb_swap_d" };
static const char *const k_cswap[2] = { "cb_swap_c", "cb_swap_z" };
static const char *const k_rot[2] = { "cb_rot_s", "cb_rot_d" };

/* Each operation is defined once with 64-bit sizes (the _64 export) and
 * exported again with NVIDIA's int sizes. */
#define L1_ELEMENTWISE(S, t, T, K, KC)                                                                  \
   CB_EXPORT cublasStatus_t cublas##S##axpy_v2_64(cublasHandle_t h, int64_t n, const T *alpha, const T *x, \
                                                  int64_t incx, T *y, int64_t incy);                    \
   CB_EXPORT cublasStatus_t cublas##S##axpy_v2_64(cublasHandle_t h, int64_t n, const T *alpha, const T *x, \
                                                  int64_t incx, T *y, int64_t incy)                     \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld alpha=%p x=%p incx=%lld y=%p incy=%lld", (void *)h, (long long)n,   \
               (const void *)alpha, (const void *)x, (long long)incx, (void *)y, (long long)incy);     \
      CB_HANDLE(h);                                                                                 \
      if (n > 0)                                                                                    \
         CB_CHECK(alpha && x && y, CUBLAS_STATUS_INVALID_VALUE);                                    \
      return elementwise(h, K ? k_caxpy : k_axpy, t, n, alpha, NULL, (void *)x, incx, y, incy);      \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##axpy_v2(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, \
                                               T *y, int incy)                                      \
   {                                                                                                \
      return cublas##S##axpy_v2_64(h, n, alpha, x, incx, y, incy);                                 \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##scal_v2_64(cublasHandle_t h, int64_t n, const T *alpha, T *x,   \
                                                  int64_t incx);                                        \
   CB_EXPORT cublasStatus_t cublas##S##scal_v2_64(cublasHandle_t h, int64_t n, const T *alpha, T *x,   \
                                                  int64_t incx)                                         \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld alpha=%p x=%p incx=%lld", (void *)h, (long long)n, (const void *)alpha, \
               (void *)x, (long long)incx);                                                          \
      CB_HANDLE(h);                                                                                 \
      if (n <= 0 || incx <= 0)                                                                      \
         return CUBLAS_STATUS_SUCCESS;                                                              \
      CB_CHECK(alpha && x, CUBLAS_STATUS_INVALID_VALUE);                                            \
      return elementwise(h, K ? k_cscal : k_scal, t, n, alpha, NULL, x, incx, NULL, 0);              \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##scal_v2(cublasHandle_t h, int n, const T *alpha, T *x, int incx) \
   {                                                                                                \
      return cublas##S##scal_v2_64(h, n, alpha, x, incx);                                           \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##copy_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, T *y, \
                                                  int64_t incy);                                        \
   CB_EXPORT cublasStatus_t cublas##S##copy_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, T *y, \
                                                  int64_t incy)                                         \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld x=%p incx=%lld y=%p incy=%lld", (void *)h, (long long)n,            \
               (const void *)x, (long long)incx, (void *)y, (long long)incy);                        \
      CB_HANDLE(h);                                                                                 \
      if (n > 0)                                                                                    \
         CB_CHECK(x && y, CUBLAS_STATUS_INVALID_VALUE);                                             \
      return elementwise(h, K ? k_ccopy : k_copy, t, n, NULL, NULL, (void *)x, incx, y, incy);       \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##copy_v2(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy) \
   {                                                                                                \
      return cublas##S##copy_v2_64(h, n, x, incx, y, incy);                                         \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##swap_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y,   \
                                                  int64_t incy);                                        \
   CB_EXPORT cublasStatus_t cublas##S##swap_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y,   \
                                                  int64_t incy)                                         \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld x=%p incx=%lld y=%p incy=%lld", (void *)h, (long long)n, (void *)x,  \
               (long long)incx, (void *)y, (long long)incy);                                         \
      CB_HANDLE(h);                                                                                 \
      if (n > 0)                                                                                    \
         CB_CHECK(x && y, CUBLAS_STATUS_INVALID_VALUE);                                             \
      return elementwise(h, K ? k_cswap : k_swap, t, n, NULL, NULL, x, incx, y, incy);               \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##swap_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy) \
   {                                                                                                \
      return cublas##S##swap_v2_64(h, n, x, incx, y, incy);                                         \
   }
L1_ELEMENTWISE(S, 's', float, 0, k_copy)
L1_ELEMENTWISE(D, 'd', double, 0, k_copy)
L1_ELEMENTWISE(C, 'c', cuComplex, 1, k_ccopy)
L1_ELEMENTWISE(Z, 'z', cuDoubleComplex, 1, k_ccopy)

/* rot: x' = c x + s y, y' = c y - s x */
#define L1_ROT(S, t, T)                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##rot_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y,    \
                                                 int64_t incy, const T *c, const T *s);                   \
   CB_EXPORT cublasStatus_t cublas##S##rot_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y,    \
                                                 int64_t incy, const T *c, const T *s)                    \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld x=%p incx=%lld y=%p incy=%lld c=%p s=%p", (void *)h, (long long)n,   \
               (void *)x, (long long)incx, (void *)y, (long long)incy, (const void *)c, (const void *)s); \
      CB_HANDLE(h);                                                                                 \
      if (n <= 0)                                                                                   \
         return CUBLAS_STATUS_SUCCESS;                                                              \
      CB_CHECK(x && y && c && s, CUBLAS_STATUS_INVALID_VALUE);                                      \
      return elementwise(h, k_rot, t, n, c, s, x, incx, y, incy);                                    \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##rot_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy,    \
                                              const T *c, const T *s)                                   \
   {                                                                                                \
      return cublas##S##rot_v2_64(h, n, x, incx, y, incy, c, s);                                    \
   }
L1_ROT(S, 's', float)
L1_ROT(D, 'd', double)

/* Reductions: NAME(handle, n, x, incx[, y, incy], result). */
#define L1_RED(name, t, T, R, op)                                                                      \
   CB_EXPORT cublasStatus_t name##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, R *result); \
   CB_EXPORT cublasStatus_t name##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, R *result)  \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld x=%p incx=%lld result=%p", (void *)h, (long long)n, (const void *)x, \
               (long long)incx, (void *)result);                                                      \
      return reduction(h, t, op, n, x, incx, NULL, 0, result, sizeof(R));                            \
   }                                                                                                \
   CB_EXPORT cublasStatus_t name##_v2(cublasHandle_t h, int n, const T *x, int incx, R *result)        \
   {                                                                                                \
      return name##_v2_64(h, n, x, incx, result);                                                  \
   }
L1_RED(cublasSnrm2, 's', float, float, CB_RED_NRM2)
L1_RED(cublasDnrm2, 'd', double, double, CB_RED_NRM2)
L1_RED(cublasScnrm2, 'c', cuComplex, float, CB_RED_NRM2)
L1_RED(cublasDznrm2, 'z', cuDoubleComplex, double, CB_RED_NRM2)
L1_RED(cublasSasum, 's', float, float, CB_RED_ASUM)
L1_RED(cublasDasum, 'd', double, double, CB_RED_ASUM)
L1_RED(cublasScasum, 'c', cuComplex, float, CB_RED_ASUM)
L1_RED(cublasDzasum, 'z', cuDoubleComplex, double, CB_RED_ASUM)
L1_RED(cublasIsamax, 's', float, int, CB_RED_AMAX)
L1_RED(cublasIdamax, 'd', double, int, CB_RED_AMAX)
L1_RED(cublasIcamax, 'c', cuComplex, int, CB_RED_AMAX)
L1_RED(cublasIzamax, 'z', cuDoubleComplex, int, CB_RED_AMAX)
L1_RED(cublasIsamin, 's', float, int, CB_RED_AMIN)
L1_RED(cublasIdamin, 'd', double, int, CB_RED_AMIN)
L1_RED(cublasIcamin, 'c', cuComplex, int, CB_RED_AMIN)
L1_RED(cublasIzamin, 'z', cuDoubleComplex, int, CB_RED_AMIN)

#define L1_DOT(name, t, T, op)                                                                         \
   CB_EXPORT cublasStatus_t name##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, const T *y, \
                                         int64_t incy, T *result);                                       \
   CB_EXPORT cublasStatus_t name##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, const T *y, \
                                         int64_t incy, T *result)                                        \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld x=%p incx=%lld y=%p incy=%lld result=%p", (void *)h, (long long)n,   \
               (const void *)x, (long long)incx, (const void *)y, (long long)incy, (void *)result);    \
      return reduction(h, t, op, n, x, incx, y, incy, result, sizeof(T));                            \
   }                                                                                                \
   CB_EXPORT cublasStatus_t name##_v2(cublasHandle_t h, int n, const T *x, int incx, const T *y, int incy, \
                                      T *result)                                                      \
   {                                                                                                \
      return name##_v2_64(h, n, x, incx, y, incy, result);                                         \
   }
L1_DOT(cublasSdot, 's', float, CB_RED_DOT)
L1_DOT(cublasDdot, 'd', double, CB_RED_DOT)
L1_DOT(cublasCdotu, 'c', cuComplex, CB_RED_DOT)
L1_DOT(cublasCdotc, 'c', cuComplex, CB_RED_DOTC)
L1_DOT(cublasZdotu, 'z', cuDoubleComplex, CB_RED_DOT)
L1_DOT(cublasZdotc, 'z', cuDoubleComplex, CB_RED_DOTC)

/* rotg: the Givens rotation of (a, b), computed on the host (four
 * scalars; in device pointer mode they are copied in and out, in stream
 * order).  Reference BLAS srotg/drotg (LAPACK 3.10 form, with r's sign
 * that of the larger of a and b, and z). */
#define L1_ROTG(S, T, ABS, SQRT)                                                                      \
   static void rotg_##S(T *a, T *b, T *c, T *s)                                                     \
   {                                                                                                \
      T anorm = ABS(*a), bnorm = ABS(*b);                                                           \
      if (bnorm == 0) {                                                                             \
         *c = 1;                                                                                    \
         *s = 0;                                                                                    \
         *b = 0;                                                                                    \
      } else if (anorm == 0) {                                                                      \
         *c = 0;                                                                                    \
         *s = 1;                                                                                    \
         *a = *b;                                                                                   \
         *b = 1;                                                                                    \
      } else {                                                                                      \
         T scale = anorm > bnorm ? anorm : bnorm;                                                   \
         T sigma = anorm > bnorm ? (*a < 0 ? -1 : 1) : (*b < 0 ? -1 : 1);                           \
         T r = sigma * scale * SQRT((*a / scale) * (*a / scale) + (*b / scale) * (*b / scale));      \
         *c = *a / r;                                                                               \
         *s = *b / r;                                                                               \
         T z = anorm > bnorm ? *s : *c != 0 ? 1 / *c : 1;                                           \
         *a = r;                                                                                    \
         *b = z;                                                                                    \
      }                                                                                             \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##rotg_v2(cublasHandle_t h, T *a, T *b, T *c, T *s)              \
   {                                                                                                \
      CB_ENTER("handle=%p a=%p b=%p c=%p s=%p", (void *)h, (void *)a, (void *)b, (void *)c, (void *)s); \
      CB_HANDLE(h);                                                                                 \
      CB_CHECK(a && b && c && s, CUBLAS_STATUS_INVALID_VALUE);                                      \
      if (h->pmode == CUBLAS_POINTER_MODE_HOST) {                                                   \
         rotg_##S(a, b, c, s);                                                                      \
         return CUBLAS_STATUS_SUCCESS;                                                              \
      }                                                                                             \
      T v[4];                                                                                       \
      T *p[4] = { a, b, c, s };                                                                     \
      cublasStatus_t st = cb_enter_ctx(h);                                                          \
      for (int i = 0; i < 2 && st == CUBLAS_STATUS_SUCCESS; i++)                                    \
         st = cb_result_to_host(h, &v[i], (CUdeviceptr)(uintptr_t)p[i], sizeof(T));                 \
      if (st != CUBLAS_STATUS_SUCCESS)                                                              \
         return st;                                                                                 \
      rotg_##S(&v[0], &v[1], &v[2], &v[3]);                                                         \
      for (int i = 0; i < 4; i++) {                                                                 \
         CUresult r = cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)p[i], &v[i], sizeof(T), h->stream); \
         if (r != CUDA_SUCCESS)                                                                     \
            return cb_status_of(r);                                                                 \
      }                                                                                             \
      /* the host values must outlive the copies */                                                 \
      return cb_status_of(cuStreamSynchronize(h->stream));                                          \
   }
L1_ROTG(S, float, fabsf, sqrtf)
L1_ROTG(D, double, fabs, sqrt)
