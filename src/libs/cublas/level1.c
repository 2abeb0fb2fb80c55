/*
 * level1.c — BLAS Level 1: axpy scal copy swap rot rotg rotm rotmg, dot dotu dotc nrm2
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

size_t cb_l1_elem_size(char t)
{
   return t == 'h' || t == 'b' ? 2 : t == 's' ? 4 : t == 'd' || t == 'c' ? 8 : 16;
}

/* kernels are named cb_<op>_s / _d; complex ones cb_c<op>_s / _d by their
 * component type; 16-bit ones cb_<op>_h / _b */
static const char *kname(const char *const names[2], char t)
{
   return names[t == 'd' || t == 'z' || t == 'b'];
}

static unsigned blocks_for(int64_t n)
{
   int64_t b = (n + 255) / 256;
   return (unsigned)(b < 1 ? 1 : b > 1024 ? 1024 : b);
}

/* An elementwise kernel over x (and y) of type T; scalars A and B (if
 * any) of kinds KA and KB (cb_scalar_of); OP as the kernel wants it. */
cublasStatus_t cb_l1_elementwise(cublasHandle_t h, const char *const names[2], char t, int64_t n, const void *a,
                                 char ka, const void *b, char kb, int op, void *x, int64_t incx, void *y,
                                 int64_t incy)
{
   CB_HANDLE(h);
   if (n <= 0)
      return CUBLAS_STATUS_SUCCESS;
   cb_l1_args g;
   memset(&g, 0, sizeof(g));
   size_t es = cb_l1_elem_size(t);
   g.n = n;
   g.x = cb_vec_base(x, n, incx, es);
   g.y = y ? cb_vec_base(y, n, incy, es) : NULL;
   g.incx = incx;
   g.incy = incy;
   g.op = op;
   if (a)
      g.a = cb_scalar_of(h, a, ka);
   if (b)
      g.b = cb_scalar_of(h, b, kb);
   return cb_launch(h, kname(names, t), blocks_for(n), 1, 1, 256, 1, &g, sizeof(g));
}

/* A reduction to RESULT (host or device memory by pointer mode) of
 * RSIZE bytes. */
/* The type a reduction's final kernel writes: 16-bit values for 16-bit
 * data, a 64-bit index when RSIZE says so. */
static int32_t result_kind(char t, int op, size_t rsize)
{
   if (op == CB_RED_AMAX || op == CB_RED_AMIN)
      return rsize == 8 ? CB_RES_I64 : CB_RES_NATIVE;
   return t == 'h' ? CB_RES_HALF : t == 'b' ? CB_RES_BF16 : CB_RES_NATIVE;
}

cublasStatus_t cb_l1_reduction(cublasHandle_t h, char t, int op, int64_t n, const void *x, int64_t incx,
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
   size_t es = cb_l1_elem_size(t);
   cb_l1_args g;
   memset(&g, 0, sizeof(g));
   g.n = n;
   g.x = cb_vec_base(x, n, incx, es);
   g.y = y ? cb_vec_base(y, n, incy, es) : NULL;
   g.incx = incx;
   g.incy = incy;
   g.op = op;
   g.rkind = result_kind(t, op, rsize);
   g.partial = (void *)(uintptr_t)h->scratch;
   int64_t nb = (n + CB_RED_THREADS - 1) / CB_RED_THREADS;
   g.nparts = (int32_t)(nb > CB_RED_BLOCKS ? CB_RED_BLOCKS : nb);
   CUdeviceptr res_dev = h->scratch + CB_RED_BLOCKS * 16;
   g.result = dev ? result : (void *)(uintptr_t)res_dev;
   bool is_cdot = cplx && dotlike;
   static const char *const red[2] = { "cb_red_s", "cb_red_d" };
   static const char *const red16[2] = { "cb_red_h", "cb_red_b" };
   static const char *const cred[2] = { "cb_cred_s", "cb_cred_d" };
   static const char *const cdot[2] = { "cb_cdot_s", "cb_cdot_d" };
   static const char *const fin[2] = { "cb_redfin_s", "cb_redfin_d" };
   static const char *const cfin[2] = { "cb_credfin_s", "cb_credfin_d" };
   bool is16 = t == 'h' || t == 'b';
   const char *first = is_cdot ? kname(cdot, t) : cplx ? kname(cred, t) : kname(is16 ? red16 : red, t);
   /* 16-bit data reduce in float */
   const char *last = is16 ? fin[0] : kname(is_cdot ? cfin : fin, t);
   cublasStatus_t s = cb_launch(h, first, (unsigned)g.nparts, 1, 1, CB_RED_THREADS, 1, &g, sizeof(g));
   if (s == CUBLAS_STATUS_SUCCESS)
      s = cb_launch(h, last, 1, 1, 1, CB_RED_THREADS, 1, &g, sizeof(g));
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
      return cb_l1_elementwise(h, K ? k_caxpy : k_axpy, t, n, alpha, t, NULL, 0, 0, (void *)x, incx, y, incy);      \
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
      return cb_l1_elementwise(h, K ? k_cscal : k_scal, t, n, alpha, t, NULL, 0, 0, x, incx, NULL, 0);              \
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
      return cb_l1_elementwise(h, K ? k_ccopy : k_copy, t, n, NULL, 0, NULL, 0, 0, (void *)x, incx, y, incy);       \
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
      return cb_l1_elementwise(h, K ? k_cswap : k_swap, t, n, NULL, 0, NULL, 0, 0, x, incx, y, incy);               \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##swap_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy) \
   {                                                                                                \
      return cublas##S##swap_v2_64(h, n, x, incx, y, incy);                                         \
   }
L1_ELEMENTWISE(S, 's', float, 0, k_copy)
L1_ELEMENTWISE(D, 'd', double, 0, k_copy)
L1_ELEMENTWISE(C, 'c', cuComplex, 1, k_ccopy)
L1_ELEMENTWISE(Z, 'z', cuDoubleComplex, 1, k_ccopy)

/* rot: x' = c x + s y, y' = c y - conj(s) x; c real, s real (s d, and
 * csrot/zdrot on complex vectors) or complex (crot/zrot: OP 1); KC and KS
 * the kinds the host reads c and s as. */
static const char *const k_crot[2] = { "cb_crot_s", "cb_crot_d" };
#define L1_ROT(NAME, K, t, T, CT, ST, KC, KS, OP)                                                    \
   CB_EXPORT cublasStatus_t NAME##_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y, int64_t incy, \
                                         const CT *c, const ST *s);                                     \
   CB_EXPORT cublasStatus_t NAME##_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y, int64_t incy, \
                                         const CT *c, const ST *s)                                      \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld x=%p incx=%lld y=%p incy=%lld c=%p s=%p", (void *)h, (long long)n,   \
               (void *)x, (long long)incx, (void *)y, (long long)incy, (const void *)c, (const void *)s); \
      CB_HANDLE(h);                                                                                 \
      if (n <= 0)                                                                                   \
         return CUBLAS_STATUS_SUCCESS;                                                              \
      CB_CHECK(x && y && c && s, CUBLAS_STATUS_INVALID_VALUE);                                      \
      return cb_l1_elementwise(h, K, t, n, c, KC, s, KS, OP, x, incx, y, incy);                     \
   }                                                                                                \
   CB_EXPORT cublasStatus_t NAME##_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy, const CT *c, \
                                      const ST *s)                                                   \
   {                                                                                                \
      return NAME##_v2_64(h, n, x, incx, y, incy, c, s);                                            \
   }
L1_ROT(cublasSrot, k_rot, 's', float, float, float, 's', 's', 0)
L1_ROT(cublasDrot, k_rot, 'd', double, double, double, 'd', 'd', 0)
L1_ROT(cublasCsrot, k_crot, 'c', cuComplex, float, float, 's', 's', 0)
L1_ROT(cublasZdrot, k_crot, 'z', cuDoubleComplex, double, double, 'd', 'd', 0)
L1_ROT(cublasCrot, k_crot, 'c', cuComplex, float, cuComplex, 's', 'c', 1)
L1_ROT(cublasZrot, k_crot, 'z', cuDoubleComplex, double, cuDoubleComplex, 'd', 'z', 1)

/* rotm: the modified Givens rotation H of param (param[0] the flag: -1 H
 * given whole, 0 unit diagonal, 1 h12 = 1 and h21 = -1, -2 H = I), in
 * host or device memory by pointer mode; the host reads it (in stream
 * order) and passes H's four values to the kernel. */
static void rotm_h(double flag, const double p[4], double hm[4])
{
   /* hm: h11 h21 h12 h22 */
   hm[0] = flag == 0 ? 1 : p[0];
   hm[1] = flag == 1 ? -1 : p[1];
   hm[2] = flag == 1 ? 1 : p[2];
   hm[3] = flag == 0 ? 1 : p[3];
}

#define L1_ROTM(S, t, T)                                                                               \
   CB_EXPORT cublasStatus_t cublas##S##rotm_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y,   \
                                                  int64_t incy, const T *param);                           \
   CB_EXPORT cublasStatus_t cublas##S##rotm_v2_64(cublasHandle_t h, int64_t n, T *x, int64_t incx, T *y,   \
                                                  int64_t incy, const T *param)                            \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld x=%p incx=%lld y=%p incy=%lld param=%p", (void *)h, (long long)n,     \
               (void *)x, (long long)incx, (void *)y, (long long)incy, (const void *)param);           \
      CB_HANDLE(h);                                                                                 \
      if (n <= 0)                                                                                   \
         return CUBLAS_STATUS_SUCCESS;                                                              \
      CB_CHECK(x && y && param, CUBLAS_STATUS_INVALID_VALUE);                                       \
      T pv[5];                                                                                      \
      if (h->pmode == CUBLAS_POINTER_MODE_HOST) {                                                   \
         memcpy(pv, param, sizeof(pv));                                                             \
      } else {                                                                                      \
         cublasStatus_t st = cb_result_to_host(h, pv, (CUdeviceptr)(uintptr_t)param, sizeof(pv));   \
         if (st != CUBLAS_STATUS_SUCCESS)                                                           \
            return st;                                                                              \
      }                                                                                             \
      if (pv[0] == -2)                                                                              \
         return CUBLAS_STATUS_SUCCESS;                                                              \
      double p4[4] = { pv[1], pv[2], pv[3], pv[4] }, hm[4];                                         \
      rotm_h(pv[0], p4, hm);                                                                        \
      cb_l1_args g;                                                                                 \
      memset(&g, 0, sizeof(g));                                                                     \
      g.n = n;                                                                                      \
      g.x = cb_vec_base(x, n, incx, sizeof(T));                                                     \
      g.y = cb_vec_base(y, n, incy, sizeof(T));                                                     \
      g.incx = incx;                                                                                \
      g.incy = incy;                                                                                \
      g.a.d = hm[0];                                                                                \
      g.a.di = hm[1];                                                                               \
      g.b.d = hm[2];                                                                                \
      g.b.di = hm[3];                                                                               \
      g.a.f = (float)hm[0];                                                                         \
      g.a.fi = (float)hm[1];                                                                        \
      g.b.f = (float)hm[2];                                                                         \
      g.b.fi = (float)hm[3];                                                                        \
      return cb_launch(h, t == 's' ? "cb_rotm_s" : "cb_rotm_d", blocks_for(n), 1, 1, 256, 1, &g, sizeof(g)); \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##rotm_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy,   \
                                               const T *param);                                        \
   CB_EXPORT cublasStatus_t cublas##S##rotm_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy,   \
                                               const T *param)                                         \
   {                                                                                                \
      return cublas##S##rotm_v2_64(h, n, x, incx, y, incy, param);                                  \
   }
L1_ROTM(S, 's', float)
L1_ROTM(D, 'd', double)

/* rotmg: the modified Givens rotation that zeroes the second component of
 * (sqrt(d1) x1, sqrt(d2) y1), after the reference BLAS definition
 * (srotmg/drotmg): d1, d2 and x1 updated, H in param by the flag of rotm;
 * d1 and d2 kept within [1/4096^2, 4096^2] by rescaling (H then given
 * whole).  On the host; in device pointer mode the scalars are copied in
 * and out in stream order, as rotg's. */
static void rotmg_d(double *d1, double *d2, double *x1, double y1, double *param, double gam)
{
   double flag, h11 = 0, h12 = 0, h21 = 0, h22 = 0;
   double gsq = gam * gam, rgsq = 1 / gsq;
   if (*d1 < 0) {
      flag = -1;
      *d1 = *d2 = *x1 = 0;
   } else {
      double p2 = *d2 * y1;
      if (p2 == 0) {
         param[0] = -2;
         return;
      }
      double p1 = *d1 * *x1, q2 = p2 * y1, q1 = p1 * *x1;
      if (fabs(q1) > fabs(q2)) {
         h21 = -y1 / *x1;
         h12 = p2 / p1;
         double u = 1 - h12 * h21;
         if (u > 0) {
            flag = 0;
            *d1 /= u;
            *d2 /= u;
            *x1 *= u;
         } else {
            flag = -1;
            h11 = h12 = h21 = h22 = 0;
            *d1 = *d2 = *x1 = 0;
         }
      } else if (q2 < 0) {
         flag = -1;
         h11 = h12 = h21 = h22 = 0;
         *d1 = *d2 = *x1 = 0;
      } else {
         flag = 1;
         h11 = p1 / p2;
         h22 = *x1 / y1;
         double u = 1 + h11 * h22, tmp = *d2 / u;
         *d2 = *d1 / u;
         *d1 = tmp;
         *x1 = y1 * u;
      }
      /* rescaling: H becomes a full matrix (flag -1) */
      for (int which = 0; which < 2; which++) {
         double *d = which ? d2 : d1;
         if (*d == 0)
            continue;
         while (fabs(*d) <= rgsq || fabs(*d) >= gsq) {
            if (flag == 0) {
               h11 = h22 = 1;
               flag = -1;
            } else if (flag == 1) {
               h21 = -1;
               h12 = 1;
               flag = -1;
            }
            double f = fabs(*d) <= rgsq ? 1 / gam : gam;
            *d = fabs(*d) <= rgsq ? *d * gsq : *d / gsq;
            if (which) {
               h21 *= f;
               h22 *= f;
            } else {
               *x1 *= f;
               h11 *= f;
               h12 *= f;
            }
         }
      }
   }
   param[0] = flag;
   if (flag < 0) {
      param[1] = h11;
      param[2] = h21;
      param[3] = h12;
      param[4] = h22;
   } else if (flag == 0) {
      param[2] = h21;
      param[3] = h12;
   } else {
      param[1] = h11;
      param[4] = h22;
   }
}

#define L1_ROTMG(S, T)                                                                                 \
   CB_EXPORT cublasStatus_t cublas##S##rotmg_v2(cublasHandle_t h, T *d1, T *d2, T *x1, const T *y1, T *param); \
   CB_EXPORT cublasStatus_t cublas##S##rotmg_v2(cublasHandle_t h, T *d1, T *d2, T *x1, const T *y1, T *param)  \
   {                                                                                                \
      CB_ENTER("handle=%p d1=%p d2=%p x1=%p y1=%p param=%p", (void *)h, (void *)d1, (void *)d2, (void *)x1, \
               (const void *)y1, (void *)param);                                                     \
      CB_HANDLE(h);                                                                                 \
      CB_CHECK(d1 && d2 && x1 && y1 && param, CUBLAS_STATUS_INVALID_VALUE);                         \
      bool dev = h->pmode == CUBLAS_POINTER_MODE_DEVICE;                                            \
      T v[4], pv[5];                                                                                \
      T *p[4] = { d1, d2, x1, (T *)y1 };                                                            \
      for (int i = 0; i < 4; i++) {                                                                 \
         cublasStatus_t st = CUBLAS_STATUS_SUCCESS;                                                 \
         if (dev)                                                                                   \
            st = cb_result_to_host(h, &v[i], (CUdeviceptr)(uintptr_t)p[i], sizeof(T));              \
         else                                                                                       \
            v[i] = *p[i];                                                                           \
         if (st != CUBLAS_STATUS_SUCCESS)                                                           \
            return st;                                                                              \
      }                                                                                             \
      if (dev) {                                                                                    \
         cublasStatus_t st = cb_result_to_host(h, pv, (CUdeviceptr)(uintptr_t)param, sizeof(pv));   \
         if (st != CUBLAS_STATUS_SUCCESS)                                                           \
            return st;                                                                              \
      } else {                                                                                      \
         memcpy(pv, param, sizeof(pv));                                                             \
      }                                                                                             \
      /* in double whatever the type (srotmg computes in float) */                                  \
      double dd1 = v[0], dd2 = v[1], dx1 = v[2], dp[5];                                             \
      for (int i = 0; i < 5; i++)                                                                   \
         dp[i] = pv[i];                                                                             \
      rotmg_d(&dd1, &dd2, &dx1, v[3], dp, 4096);                                                    \
      v[0] = (T)dd1;                                                                                \
      v[1] = (T)dd2;                                                                                \
      v[2] = (T)dx1;                                                                                \
      for (int i = 0; i < 5; i++)                                                                   \
         pv[i] = (T)dp[i];                                                                          \
      if (!dev) {                                                                                   \
         *d1 = v[0];                                                                                \
         *d2 = v[1];                                                                                \
         *x1 = v[2];                                                                                \
         memcpy(param, pv, sizeof(pv));                                                             \
         return CUBLAS_STATUS_SUCCESS;                                                              \
      }                                                                                             \
      for (int i = 0; i < 3; i++) {                                                                 \
         CUresult r = cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)p[i], &v[i], sizeof(T), h->stream); \
         if (r != CUDA_SUCCESS)                                                                     \
            return cb_status_of(r);                                                                 \
      }                                                                                             \
      CUresult r = cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)param, pv, sizeof(pv), h->stream);     \
      if (r != CUDA_SUCCESS)                                                                        \
         return cb_status_of(r);                                                                    \
      /* the host values must outlive the copies */                                                 \
      return cb_status_of(cuStreamSynchronize(h->stream));                                          \
   }
L1_ROTMG(S, float)
L1_ROTMG(D, double)

/* Reductions: NAME(handle, n, x, incx[, y, incy], result). */
/* (the _64 index searches answer a 64-bit index: R64) */
#define L1_RED(name, t, T, R, R64, op)                                                                 \
   CB_EXPORT cublasStatus_t name##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, R64 *result); \
   CB_EXPORT cublasStatus_t name##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, R64 *result)  \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld x=%p incx=%lld result=%p", (void *)h, (long long)n, (const void *)x, \
               (long long)incx, (void *)result);                                                      \
      return cb_l1_reduction(h, t, op, n, x, incx, NULL, 0, result, sizeof(R64));                    \
   }                                                                                                \
   CB_EXPORT cublasStatus_t name##_v2(cublasHandle_t h, int n, const T *x, int incx, R *result)        \
   {                                                                                                \
      CB_ENTER("handle=%p n=%d x=%p incx=%d result=%p", (void *)h, n, (const void *)x, incx, (void *)result); \
      return cb_l1_reduction(h, t, op, n, x, incx, NULL, 0, result, sizeof(R));                      \
   }
L1_RED(cublasSnrm2, 's', float, float, float, CB_RED_NRM2)
L1_RED(cublasDnrm2, 'd', double, double, double, CB_RED_NRM2)
L1_RED(cublasScnrm2, 'c', cuComplex, float, float, CB_RED_NRM2)
L1_RED(cublasDznrm2, 'z', cuDoubleComplex, double, double, CB_RED_NRM2)
L1_RED(cublasSasum, 's', float, float, float, CB_RED_ASUM)
L1_RED(cublasDasum, 'd', double, double, double, CB_RED_ASUM)
L1_RED(cublasScasum, 'c', cuComplex, float, float, CB_RED_ASUM)
L1_RED(cublasDzasum, 'z', cuDoubleComplex, double, double, CB_RED_ASUM)
L1_RED(cublasIsamax, 's', float, int, int64_t, CB_RED_AMAX)
L1_RED(cublasIdamax, 'd', double, int, int64_t, CB_RED_AMAX)
L1_RED(cublasIcamax, 'c', cuComplex, int, int64_t, CB_RED_AMAX)
L1_RED(cublasIzamax, 'z', cuDoubleComplex, int, int64_t, CB_RED_AMAX)
L1_RED(cublasIsamin, 's', float, int, int64_t, CB_RED_AMIN)
L1_RED(cublasIdamin, 'd', double, int, int64_t, CB_RED_AMIN)
L1_RED(cublasIcamin, 'c', cuComplex, int, int64_t, CB_RED_AMIN)
L1_RED(cublasIzamin, 'z', cuDoubleComplex, int, int64_t, CB_RED_AMIN)

#define L1_DOT(name, t, T, op)                                                                         \
   CB_EXPORT cublasStatus_t name##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, const T *y, \
                                         int64_t incy, T *result);                                       \
   CB_EXPORT cublasStatus_t name##_v2_64(cublasHandle_t h, int64_t n, const T *x, int64_t incx, const T *y, \
                                         int64_t incy, T *result)                                        \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld x=%p incx=%lld y=%p incy=%lld result=%p", (void *)h, (long long)n,   \
               (const void *)x, (long long)incx, (const void *)y, (long long)incy, (void *)result);    \
      return cb_l1_reduction(h, t, op, n, x, incx, y, incy, result, sizeof(T));                            \
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

/* csscal/zdscal: complex x times a real alpha */
static const char *const k_csscal[2] = { "cb_csscal_s", "cb_csscal_d" };
#define L1_CSSCAL(NAME, t, rk, T, RT)                                                                 \
   CB_EXPORT cublasStatus_t NAME##_v2_64(cublasHandle_t h, int64_t n, const RT *alpha, T *x, int64_t incx); \
   CB_EXPORT cublasStatus_t NAME##_v2_64(cublasHandle_t h, int64_t n, const RT *alpha, T *x, int64_t incx)  \
   {                                                                                                \
      CB_ENTER("handle=%p n=%lld alpha=%p x=%p incx=%lld", (void *)h, (long long)n, (const void *)alpha, \
               (void *)x, (long long)incx);                                                          \
      CB_HANDLE(h);                                                                                 \
      if (n <= 0 || incx <= 0)                                                                      \
         return CUBLAS_STATUS_SUCCESS;                                                              \
      CB_CHECK(alpha && x, CUBLAS_STATUS_INVALID_VALUE);                                            \
      return cb_l1_elementwise(h, k_csscal, t, n, alpha, rk, NULL, 0, 0, x, incx, NULL, 0);         \
   }                                                                                                \
   CB_EXPORT cublasStatus_t NAME##_v2(cublasHandle_t h, int n, const RT *alpha, T *x, int incx)      \
   {                                                                                                \
      return NAME##_v2_64(h, n, alpha, x, incx);                                                    \
   }
L1_CSSCAL(cublasCsscal, 'c', 's', cuComplex, float)
L1_CSSCAL(cublasZdscal, 'z', 'd', cuDoubleComplex, double)

/* crotg/zrotg: the complex Givens rotation of (a, b) after the reference
 * BLAS (crotg.f): c real, s complex, a overwritten by r, b unchanged;
 * computed in double on the host (device pointer mode: a and b copied in,
 * a, c and s out, in stream order). */
static void crotg_d(double a[2], const double b[2], double *c, double s[2])
{
   double aa = hypot(a[0], a[1]), ab = hypot(b[0], b[1]);
   if (aa == 0) {
      *c = 0;
      s[0] = 1;
      s[1] = 0;
      a[0] = b[0];
      a[1] = b[1];
      return;
   }
   double scale = aa + ab;
   double norm = scale * sqrt((aa / scale) * (aa / scale) + (ab / scale) * (ab / scale));
   double al[2] = { a[0] / aa, a[1] / aa };
   *c = aa / norm;
   /* alpha conj(b) / norm */
   s[0] = (al[0] * b[0] + al[1] * b[1]) / norm;
   s[1] = (al[1] * b[0] - al[0] * b[1]) / norm;
   a[0] = al[0] * norm;
   a[1] = al[1] * norm;
}

#define L1_CROTG(S, T, RT)                                                                            \
   CB_EXPORT cublasStatus_t cublas##S##rotg_v2(cublasHandle_t h, T *a, T *b, RT *c, T *s);           \
   CB_EXPORT cublasStatus_t cublas##S##rotg_v2(cublasHandle_t h, T *a, T *b, RT *c, T *s)            \
   {                                                                                                \
      CB_ENTER("handle=%p a=%p b=%p c=%p s=%p", (void *)h, (void *)a, (void *)b, (void *)c, (void *)s); \
      CB_HANDLE(h);                                                                                 \
      CB_CHECK(a && b && c && s, CUBLAS_STATUS_INVALID_VALUE);                                      \
      bool dev = h->pmode == CUBLAS_POINTER_MODE_DEVICE;                                            \
      T va, vb, vs;                                                                                 \
      RT vc;                                                                                        \
      cublasStatus_t st = CUBLAS_STATUS_SUCCESS;                                                    \
      if (dev) {                                                                                    \
         st = cb_enter_ctx(h);                                                                      \
         if (st == CUBLAS_STATUS_SUCCESS)                                                           \
            st = cb_result_to_host(h, &va, (CUdeviceptr)(uintptr_t)a, sizeof(T));                   \
         if (st == CUBLAS_STATUS_SUCCESS)                                                           \
            st = cb_result_to_host(h, &vb, (CUdeviceptr)(uintptr_t)b, sizeof(T));                   \
         if (st != CUBLAS_STATUS_SUCCESS)                                                           \
            return st;                                                                              \
      } else {                                                                                      \
         va = *a;                                                                                   \
         vb = *b;                                                                                   \
      }                                                                                             \
      double da[2] = { va.x, va.y }, db[2] = { vb.x, vb.y }, dc, ds[2];                             \
      crotg_d(da, db, &dc, ds);                                                                     \
      va.x = (RT)da[0];                                                                             \
      va.y = (RT)da[1];                                                                             \
      vc = (RT)dc;                                                                                  \
      vs.x = (RT)ds[0];                                                                             \
      vs.y = (RT)ds[1];                                                                             \
      if (!dev) {                                                                                   \
         *a = va;                                                                                   \
         *c = vc;                                                                                   \
         *s = vs;                                                                                   \
         return CUBLAS_STATUS_SUCCESS;                                                              \
      }                                                                                             \
      CUresult r = cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)a, &va, sizeof(T), h->stream);         \
      if (r == CUDA_SUCCESS)                                                                        \
         r = cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)c, &vc, sizeof(RT), h->stream);              \
      if (r == CUDA_SUCCESS)                                                                        \
         r = cuMemcpyHtoDAsync((CUdeviceptr)(uintptr_t)s, &vs, sizeof(T), h->stream);               \
      if (r != CUDA_SUCCESS)                                                                        \
         return cb_status_of(r);                                                                    \
      /* the host values must outlive the copies */                                                 \
      return cb_status_of(cuStreamSynchronize(h->stream));                                          \
   }
L1_CROTG(C, cuComplex, float)
L1_CROTG(Z, cuDoubleComplex, double)
