/*
 * plan.c — cuFFT plans: the handle table, cufftCreate/Destroy, the
 * cufftPlan and cufftMakePlan families and cufftXtMakePlanMany, estimates
 * and work sizes, work areas, streams, versions.
 *
 * Making a plan factors each dimension's length into radices 16, 8, 4, 2,
 * 3, 5, 7 (kernels.cu's Stockham passes) and uploads its twiddles, each
 * pass's e^{-2 pi i r k/(p R)} in the order its threads read them,
 * computed in double on the host (one sine and cosine per entry after an
 * exact octant reduction, so every twiddle is correctly rounded to float
 * for C2C plans, or nearly so).  The last dimension of a real transform
 * of even length n with n/2 a product of the radices is a complex
 * transform of n/2 plus a table e^{-2 pi i k/n} (k <= n/2) that joins or
 * separates the halves (exec.c).  A length with another prime factor uses Bluestein's algorithm (Bluestein
 * 1970; Rabiner, Schafer and Rader's chirp-z): n k = (n^2 + k^2 - (k-n)^2)/2
 * turns the DFT into w_k (sum_j x_j w_j conj(w_{k-j})) with
 * w_j = e^{-pi i j^2/n}, a circular convolution of length m = 2^e >= 2n-1
 * by FFTs.  The filter's spectrum is computed here in double (a radix-2
 * FFT) and divided by m, so that execution is two transforms and three
 * elementwise kernels.  j^2 is reduced mod 2n in integers, so the chirp's
 * angle is exact before its sine is taken.
 *
 * The work area holds two buffers for the passes (ping-pong between
 * them), each a whole set of lines of the largest stage, and for a C2R
 * transform of rank > 1 the half spectrum while the dimensions other than
 * the last are transformed (so the input is left as it was).
 */
#include "cf.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(cufft);

#define CF_PI 3.14159265358979323846264338327950288

extern const char cf_kernels_ptx[];

/* ---- modules: one per context, shared by its plans ---- */

#define CF_MAX_FN 64
struct cf_module {
   CUcontext ctx;
   CUmodule mod;
   int refs;
   int nfn;
   char fn_name[CF_MAX_FN][24];
   CUfunction fn[CF_MAX_FN];
   cf_module *next;
};

static pthread_mutex_t cf_lock = PTHREAD_MUTEX_INITIALIZER;
static cf_module *cf_modules;
static cf_plan **cf_plans;   /* handle h is cf_plans[h - 1] */
static int cf_nplans;

static cf_module *cf_module_get(CUcontext ctx, CUresult *r)
{
   pthread_mutex_lock(&cf_lock);
   cf_module *m = cf_modules;
   while (m && m->ctx != ctx)
      m = m->next;
   if (m)
      m->refs++;
   else if ((m = calloc(1, sizeof(*m)))) {
      *r = cuModuleLoadData(&m->mod, cf_kernels_ptx);
      if (*r != CUDA_SUCCESS) {
         free(m);
         m = NULL;
      } else {
         m->ctx = ctx;
         m->refs = 1;
         m->next = cf_modules;
         cf_modules = m;
      }
   } else
      *r = CUDA_ERROR_OUT_OF_MEMORY;
   pthread_mutex_unlock(&cf_lock);
   return m;
}

static void cf_module_put(cf_module *m)
{
   pthread_mutex_lock(&cf_lock);
   if (--m->refs == 0) {
      cf_module **pp = &cf_modules;
      while (*pp != m)
         pp = &(*pp)->next;
      *pp = m->next;
      cuModuleUnload(m->mod);
      free(m);
   }
   pthread_mutex_unlock(&cf_lock);
}

CUfunction cf_function(cf_plan *p, const char *name)
{
   cf_module *m = p->mod;
   CUfunction f = NULL;
   pthread_mutex_lock(&cf_lock);
   for (int i = 0; i < m->nfn && !f; i++)
      if (!strcmp(m->fn_name[i], name))
         f = m->fn[i];
   if (!f) {
      CUresult r = cuModuleGetFunction(&f, m->mod, name);
      if (r != CUDA_SUCCESS) {
         LOG_ERR("kernel %s of libcufft's module: CUresult %d", name, (int)r);
         f = NULL;
      } else if (m->nfn < CF_MAX_FN && strlen(name) < sizeof(m->fn_name[0])) {
         strcpy(m->fn_name[m->nfn], name);
         m->fn[m->nfn++] = f;
      }
   }
   pthread_mutex_unlock(&cf_lock);
   return f;
}

/* ---- helpers ---- */

const char *cf_result_name(cufftResult r)
{
   switch (r) {
   case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
   case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
   case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
   case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
   case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
   case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
   case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
   case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
   case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
   case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
   case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
   case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
   case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
   case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
   default: return "CUFFT_(unknown)";
   }
}

cufftResult cf_status_of(CUresult r)
{
   switch (r) {
   case CUDA_SUCCESS: return CUFFT_SUCCESS;
   case CUDA_ERROR_OUT_OF_MEMORY: return CUFFT_ALLOC_FAILED;
   case CUDA_ERROR_INVALID_VALUE: return CUFFT_INVALID_VALUE;
   case CUDA_ERROR_NOT_SUPPORTED: return CUFFT_NOT_SUPPORTED;
   default: return CUFFT_INTERNAL_ERROR;
   }
}

cf_plan *cf_plan_of(cufftHandle h)
{
   cf_plan *p = NULL;
   pthread_mutex_lock(&cf_lock);
   if (h >= 1 && h <= cf_nplans)
      p = cf_plans[h - 1];
   pthread_mutex_unlock(&cf_lock);
   return p && p->magic == CF_MAGIC ? p : NULL;
}

static bool cf_type_ok(cufftType t)
{
   return t == CUFFT_C2C || t == CUFFT_R2C || t == CUFFT_C2R || t == CUFFT_Z2Z || t == CUFFT_D2Z || t == CUFFT_Z2D;
}

static bool cf_real_in(cufftType t) { return t == CUFFT_R2C || t == CUFFT_D2Z; }
static bool cf_real_out(cufftType t) { return t == CUFFT_C2R || t == CUFFT_Z2D; }

/* n = 16^a 8^b 4^c 2^d 3^e 5^f 7^g: the radices, largest powers of 2 first;
 * false when another prime divides n. */
static bool cf_factor(cf_fft *f, int64_t n)
{
   static const int rad[] = { 16, 8, 4, 2, 3, 5, 7 };
   f->n = n;
   f->npass = 0;
   if (n == 1) {
      f->radix[f->npass++] = 1;
      return true;
   }
   for (int i = 0; i < 7; i++)
      while (n % rad[i] == 0 && f->npass < CF_MAX_PASS) {
         f->radix[f->npass++] = rad[i];
         n /= rad[i];
      }
   return n == 1;
}

/* The passes' need for work buffers: one when there are two passes, two
 * from three on (the first reads the source, the last writes the result). */
static int cf_nbuf(const cf_dim *d)
{
   if (d->blue)
      return 2;
   if (d->half)   /* the half transform's result or source is a work buffer */
      return d->h.npass >= 2 ? 2 : 1;
   return d->f.npass >= 3 ? 2 : d->f.npass == 2 ? 1 : 0;
}

/* ---- geometry: validate and size a plan (no device work) ---- */

static cufftResult cf_geometry(cf_plan *p, int rank, const long long *n, const long long *inembed, long long istride,
                               long long idist, const long long *onembed, long long ostride, long long odist,
                               cufftType type, long long batch)
{
   CF_CHECK(cf_type_ok(type), CUFFT_INVALID_TYPE);
   CF_CHECK(rank >= 1 && rank <= 3, CUFFT_INVALID_VALUE);   /* the H200's answer */
   CF_CHECK(n, CUFFT_INVALID_VALUE);
   CF_CHECK(batch >= 1, CUFFT_INVALID_SIZE);
   p->type = type;
   p->dbl = type == CUFFT_Z2Z || type == CUFFT_D2Z || type == CUFFT_Z2D;
   p->rank = rank;
   p->batch = batch;
   int64_t total = batch;
   for (int d = 0; d < rank; d++) {
      CF_CHECK(n[d] >= 1 && n[d] <= ((int64_t)1 << 40), CUFFT_INVALID_SIZE);
      p->n[d] = n[d];
      CF_CHECK(total <= ((int64_t)1 << 50) / n[d], CUFFT_INVALID_SIZE);
      total *= n[d];
   }
   p->basic = !inembed || !onembed;
   if (!p->basic) {
      CF_CHECK(istride >= 1 && ostride >= 1 && idist >= 0 && odist >= 0, CUFFT_INVALID_VALUE);
      for (int d = 0; d < rank; d++) {
         p->inembed[d] = inembed[d];
         p->onembed[d] = onembed[d];
         CF_CHECK(d == 0 || (inembed[d] >= 1 && onembed[d] >= 1), CUFFT_INVALID_SIZE);
      }
      p->istride = istride;
      p->idist = idist;
      p->ostride = ostride;
      p->odist = odist;
   }
   /* per dimension: direct, Bluestein, or a real one through half */
   bool real = cf_real_in(type) || cf_real_out(type);
   for (int d = 0; d < rank; d++) {
      cf_dim *dm = &p->dim[d];
      memset(dm, 0, sizeof(*dm));
      if (real && d == rank - 1 && p->n[d] % 2 == 0 && cf_factor(&dm->h, p->n[d] / 2)) {
         dm->half = true;
         dm->f.n = p->n[d];
         dm->f.npass = 0;
      } else if (!cf_factor(&dm->f, p->n[d])) {
         int64_t m = 1;
         while (m < 2 * p->n[d] - 1)
            m *= 2;
         dm->blue = true;
         dm->f.npass = 0;
         cf_factor(&dm->inner, m);
      }
   }
   /* work: the largest stage's lines, two buffers at most */
   int64_t nc = real ? p->n[rank - 1] / 2 + 1 : p->n[rank - 1];
   int64_t wlen = 0;
   int nbuf = 0;
   for (int d = 0; d < rank; d++) {
      int64_t lines = batch;
      for (int e = 0; e < rank; e++)
         if (e != d)
            lines *= e == rank - 1 ? nc : p->n[e];
      int nb = cf_nbuf(&p->dim[d]);
      const cf_dim *dm = &p->dim[d];
      int64_t len = lines * (dm->blue ? dm->inner.n : dm->half ? dm->h.n : p->n[d]);
      if (nb && len > wlen)
         wlen = len;
      if (nb > nbuf)
         nbuf = nb;
   }
   p->wlen = nbuf ? wlen : 0;
   p->hlen = 0;
   if (cf_real_out(type) && rank > 1) {
      p->hlen = batch * nc;
      for (int d = 0; d < rank - 1; d++)
         p->hlen *= p->n[d];
   }
   size_t csize = p->dbl ? 16 : 8;
   p->worksize = (size_t)(nbuf * p->wlen + p->hlen) * csize;
   return CUFFT_SUCCESS;
}

/* ---- device tables ---- */

/* COUNT doubles in the plan's precision, uploaded */
static CUresult cf_upload(cf_plan *p, CUdeviceptr *dst, const double *v, int64_t count)
{
   size_t es = p->dbl ? 8 : 4;
   void *buf = malloc((size_t)count * es);
   if (!buf)
      return CUDA_ERROR_OUT_OF_MEMORY;
   for (int64_t i = 0; i < count; i++) {
      if (p->dbl)
         ((double *)buf)[i] = v[i];
      else
         ((float *)buf)[i] = (float)v[i];
   }
   CUresult r = cuMemAlloc(dst, (size_t)count * es);
   if (r == CUDA_SUCCESS)
      r = cuMemcpyHtoD(*dst, buf, (size_t)count * es);
   free(buf);
   return r;
}

/* cos and sin of 2 pi j/n, reduced to the first octant by symmetry so
 * that the table is symmetric exactly where the true values are */
static void cf_cis(int64_t j, int64_t n, double *c, double *s)
{
   /* angle 2 pi j/n = (pi/4) * (8j/n): take 8j = q n + r (j < 2^44) */
   int64_t q = 8 * j / n, r = 8 * j % n;
   double x = CF_PI / 4 * ((double)r / (double)n);   /* in [0, pi/4) */
   double cs = cos(x), sn = sin(x);
   /* in octant q the angle is q pi/4 + x */
   double ca, sa;   /* cos/sin of q pi/4 */
   static const double oc[8][2] = { { 1, 0 }, { 0, 0 }, { 0, 1 }, { 0, 0 }, { -1, 0 }, { 0, 0 }, { 0, -1 }, { 0, 0 } };
   q &= 7;
   if (q % 2 == 0) {
      ca = oc[q][0];
      sa = oc[q][1];
      *c = ca * cs - sa * sn;
      *s = sa * cs + ca * sn;
   } else {
      /* q pi/4 + x = (q+1) pi/4 - (pi/4 - x): use pi/4 - x for accuracy */
      double y = CF_PI / 4 * ((double)(n - r) / (double)n);
      double cy = cos(y), sy = sin(y);
      int q1 = (q + 1) & 7;
      ca = oc[q1][0];
      sa = oc[q1][1];
      *c = ca * cy + sa * sy;
      *s = sa * cy - ca * sy;
   }
}

/* The passes' twiddles, pass after pass: for the pass of radix R after
 * passes whose radices multiply to p, e^{-2 pi i r k/(p R)} at
 * k (R - 1) + r - 1 (k < p, 0 < r < R), as its threads read them.  The
 * passes' p (R - 1) add up to n - 1 entries. */
static CUresult cf_twiddles(cf_plan *p, cf_fft *f)
{
   int64_t cnt = f->n > 1 ? f->n - 1 : 1;
   double *v = calloc((size_t)cnt * 2, sizeof(double));
   if (!v)
      return CUDA_ERROR_OUT_OF_MEMORY;
   int64_t prod = 1, o = 0;
   for (int j = 0; j < f->npass; j++) {
      int R = f->radix[j];
      for (int64_t k = 0; k < prod; k++)
         for (int r = 1; r < R; r++, o++) {
            double c, s;
            cf_cis(r * k * (f->n / (prod * R)), f->n, &c, &s);
            v[2 * o] = c;
            v[2 * o + 1] = -s;
         }
      prod *= R;
   }
   CUresult r = cf_upload(p, &f->tw, v, 2 * cnt);
   free(v);
   return r;
}

/* e^{-2 pi i k/n}, k <= n/2, for joining the halves of a real transform */
static CUresult cf_half_table(cf_plan *p, cf_dim *d)
{
   int64_t n = d->f.n, cnt = n / 2 + 1;
   double *v = malloc((size_t)cnt * 2 * sizeof(double));
   if (!v)
      return CUDA_ERROR_OUT_OF_MEMORY;
   for (int64_t k = 0; k < cnt; k++) {
      double c, s;
      cf_cis(k, n, &c, &s);
      v[2 * k] = c;
      v[2 * k + 1] = -s;
   }
   CUresult r = cf_upload(p, &d->hw, v, 2 * cnt);
   free(v);
   return r;
}

/* In-place radix-2 FFT (e^{-...}) in double, for the Bluestein filter */
static void cf_host_fft(double *x, int64_t m)
{
   for (int64_t i = 1, j = 0; i < m; i++) {
      int64_t bit = m >> 1;
      for (; j & bit; bit >>= 1)
         j ^= bit;
      j ^= bit;
      if (i < j) {
         double t0 = x[2 * i], t1 = x[2 * i + 1];
         x[2 * i] = x[2 * j];
         x[2 * i + 1] = x[2 * j + 1];
         x[2 * j] = t0;
         x[2 * j + 1] = t1;
      }
   }
   for (int64_t len = 2; len <= m; len *= 2)
      for (int64_t k = 0; k < len / 2; k++) {
         double c, s;
         cf_cis(k, len, &c, &s);
         s = -s;
         for (int64_t i = k; i < m; i += len) {
            int64_t j = i + len / 2;
            double ur = x[2 * i], ui = x[2 * i + 1];
            double vr = x[2 * j] * c - x[2 * j + 1] * s, vi = x[2 * j] * s + x[2 * j + 1] * c;
            x[2 * i] = ur + vr;
            x[2 * i + 1] = ui + vi;
            x[2 * j] = ur - vr;
            x[2 * j + 1] = ui - vi;
         }
      }
}

static CUresult cf_bluestein(cf_plan *p, cf_dim *d)
{
   int64_t n = d->f.n, m = d->inner.n;
   double *w = malloc((size_t)n * 2 * sizeof(double));
   double *b = calloc((size_t)m * 2, sizeof(double));
   CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
   if (w && b) {
      /* e^{-pi i k^2/n} = e^{-2 pi i (k^2 mod 2n)/(2n)}, with
       * (k+1)^2 = k^2 + 2k + 1 kept mod 2n, so nothing overflows */
      int64_t q = 0;
      for (int64_t k = 0; k < n; q = (q + 2 * k + 1) % (2 * n), k++) {
         double c, s;
         cf_cis(q, 2 * n, &c, &s);
         w[2 * k] = c;
         w[2 * k + 1] = -s;
         /* the filter: conj(w), circularly symmetric */
         b[2 * k] = c;
         b[2 * k + 1] = s;
         if (k) {
            b[2 * (m - k)] = c;
            b[2 * (m - k) + 1] = s;
         }
      }
      cf_host_fft(b, m);
      for (int64_t i = 0; i < 2 * m; i++)
         b[i] /= (double)m;
      r = cf_upload(p, &d->chirp, w, 2 * n);
      if (r == CUDA_SUCCESS)
         r = cf_upload(p, &d->filt, b, 2 * m);
   }
   free(w);
   free(b);
   return r;
}

/* Frees what cf_make allocated; the plan stays created. */
static void cf_release(cf_plan *p)
{
   for (int d = 0; d < 3; d++) {
      cf_dim *dm = &p->dim[d];
      if (dm->f.tw)
         cuMemFree(dm->f.tw);
      if (dm->inner.tw)
         cuMemFree(dm->inner.tw);
      if (dm->h.tw)
         cuMemFree(dm->h.tw);
      if (dm->hw)
         cuMemFree(dm->hw);
      if (dm->chirp)
         cuMemFree(dm->chirp);
      if (dm->filt)
         cuMemFree(dm->filt);
      memset(dm, 0, sizeof(*dm));
   }
   if (p->work_owned && p->work)
      cuMemFree(p->work);
   p->work = 0;
   p->work_owned = false;
   cf_jit_release(p);
   p->made = false;
}

/* The callback types a plan's type takes: its load ([0]) and store ([1]) */
static void cf_cb_types(cufftType t, cufftXtCallbackType ty[2])
{
   bool dbl = t == CUFFT_Z2Z || t == CUFFT_D2Z || t == CUFFT_Z2D;
   ty[0] = cf_real_in(t) ? (dbl ? CUFFT_CB_LD_REAL_DOUBLE : CUFFT_CB_LD_REAL)
                         : (dbl ? CUFFT_CB_LD_COMPLEX_DOUBLE : CUFFT_CB_LD_COMPLEX);
   ty[1] = cf_real_out(t) ? (dbl ? CUFFT_CB_ST_REAL_DOUBLE : CUFFT_CB_ST_REAL)
                          : (dbl ? CUFFT_CB_ST_COMPLEX_DOUBLE : CUFFT_CB_ST_COMPLEX);
}

/* a callback type the plan's type does not take: what an H100 (cuFFT 12.0)
 * answered, though it answered so to every plan with an LTO callback */
#define CF_CB_TYPE_MISMATCH CUFFT_INTERNAL_ERROR

/* LTO callbacks at cufftMakePlan*: their types checked against the plan's,
 * packed staging buffers for them added to the work area (before the C2R
 * half spectrum, which stays at its end), their kernels linked (jit.c) */
static cufftResult cf_callbacks(cf_plan *p)
{
   if (!cf_has_callbacks(p))
      return CUFFT_SUCCESS;
   cufftXtCallbackType ty[2];
   cf_cb_types(p->type, ty);
   for (int k = 0; k < 2; k++)
      if (p->cb[k].set && p->cb[k].type != ty[k]) {
         LOG_WARN("cufftMakePlan: an LTO callback of type %d does not fit a plan of type %#x", (int)p->cb[k].type,
                  (int)p->type);
         return CF_CB_TYPE_MISMATCH;
      }
   int r = p->rank;
   int64_t nc = cf_real_in(p->type) || cf_real_out(p->type) ? p->n[r - 1] / 2 + 1 : p->n[r - 1], lines = p->batch;
   for (int d = 0; d < r - 1; d++)
      lines *= p->n[d];
   int64_t nin = lines * (cf_real_in(p->type) ? p->n[r - 1] : nc);
   int64_t nout = lines * (cf_real_out(p->type) ? p->n[r - 1] : nc);
   size_t csize = p->dbl ? 16 : 8;
   size_t hbytes = (size_t)p->hlen * csize;
   p->cboff = p->worksize - hbytes;
   p->cbin = p->cb[0].set ? ((size_t)nin * cf_cb_elem_size(ty[0]) + 255) / 256 * 256 : 0;
   size_t cbout = p->cb[1].set ? (size_t)nout * cf_cb_elem_size(ty[1]) : 0;
   p->worksize += p->cbin + cbout;
   return cf_jit_build(p);
}

CUresult cf_ctx_enter(const cf_plan *p, bool *pushed)
{
   CUcontext cur = NULL;
   *pushed = false;
   CUresult r = cuCtxGetCurrent(&cur);
   if (r == CUDA_SUCCESS && cur != p->ctx) {
      r = cuCtxPushCurrent(p->ctx);
      *pushed = r == CUDA_SUCCESS;
   }
   return r;
}

void cf_ctx_leave(bool pushed)
{
   if (pushed)
      cuCtxPopCurrent(NULL);
}

/* The context the plan belongs to: the current one, or device 0's
 * primary context (retained and made current, as the runtime would);
 * a plan made again keeps its context, pushed for the call (*pushed). */
static CUresult cf_bind_context(cf_plan *p, bool *pushed)
{
   *pushed = false;
   if (p->ctx)
      return cf_ctx_enter(p, pushed);
   CUresult r = cuInit(0);
   if (r == CUDA_SUCCESS)
      r = cuCtxGetCurrent(&p->ctx);
   if (r == CUDA_SUCCESS && !p->ctx) {
      r = cuDeviceGet(&p->dev, 0);
      if (r == CUDA_SUCCESS)
         r = cuDevicePrimaryCtxRetain(&p->ctx, p->dev);
      if (r == CUDA_SUCCESS) {
         p->retained = true;
         r = cuCtxSetCurrent(p->ctx);
      }
   } else if (r == CUDA_SUCCESS)
      r = cuCtxGetDevice(&p->dev);
   if (r == CUDA_SUCCESS && !p->mod)
      p->mod = cf_module_get(p->ctx, &r);
   return r;
}

static cufftResult cf_make(cufftHandle h, int rank, const long long *n, const long long *inembed, long long istride,
                           long long idist, const long long *onembed, long long ostride, long long odist,
                           cufftType type, long long batch, size_t *workSize)
{
   /* a NULL workSize is refused before the handle is looked at (the H200) */
   CF_CHECK(workSize, CUFFT_INVALID_VALUE);
   cf_plan *p = cf_plan_of(h);
   CF_CHECK(p, CUFFT_INVALID_PLAN);
   if (p->made)
      cf_release(p);
   cufftResult s = cf_geometry(p, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
   if (s != CUFFT_SUCCESS)
      return s;
   bool pushed;
   CUresult r = cf_bind_context(p, &pushed);
   if (r == CUDA_SUCCESS && (s = cf_callbacks(p)) != CUFFT_SUCCESS) {
      cf_release(p);
      cf_ctx_leave(pushed);
      return s;
   }
   for (int d = 0; d < rank && r == CUDA_SUCCESS; d++) {
      cf_dim *dm = &p->dim[d];
      if (dm->blue) {
         dm->f.n = p->n[d];
         r = cf_twiddles(p, &dm->inner);
         if (r == CUDA_SUCCESS)
            r = cf_bluestein(p, dm);
      } else if (dm->half) {
         r = cf_twiddles(p, &dm->h);
         if (r == CUDA_SUCCESS)
            r = cf_half_table(p, dm);
      } else
         r = cf_twiddles(p, &dm->f);
   }
   if (r == CUDA_SUCCESS && p->autoalloc && p->worksize) {
      r = cuMemAlloc(&p->work, p->worksize);
      p->work_owned = r == CUDA_SUCCESS;
   }
   if (r != CUDA_SUCCESS) {
      LOG_WARN("cufftMakePlan: CUresult %d", (int)r);
      cf_release(p);
      cf_ctx_leave(pushed);
      return r == CUDA_ERROR_OUT_OF_MEMORY ? CUFFT_ALLOC_FAILED : CUFFT_SETUP_FAILED;
   }
   cf_ctx_leave(pushed);
   p->made = true;
   *workSize = p->worksize;
   return CUFFT_SUCCESS;
}

/* The work size of a geometry, for the estimates and GetSize* */
static cufftResult cf_size_of(int rank, const long long *n, const long long *inembed, long long istride,
                              long long idist, const long long *onembed, long long ostride, long long odist,
                              cufftType type, long long batch, size_t *workSize)
{
   CF_CHECK(workSize, CUFFT_INVALID_VALUE);
   cf_plan tmp;
   memset(&tmp, 0, sizeof(tmp));
   cufftResult s = cf_geometry(&tmp, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
   if (s == CUFFT_SUCCESS)
      *workSize = tmp.worksize;
   return s;
}

/* int arrays of cufftPlanMany as long long */
static const long long *cf_ll(long long out[3], const int *in, int rank)
{
   if (!in)
      return NULL;
   for (int d = 0; d < rank && d < 3; d++)
      out[d] = in[d];
   return out;
}

/* ==== cufftCreate (libcufft.@) ==== */
CF_EXPORT cufftResult cufftCreate(cufftHandle *handle)
{
   CF_ENTER("handle=%p", (void *)handle);
   CF_CHECK(handle, CUFFT_INVALID_VALUE);
   cf_plan *p = calloc(1, sizeof(*p));
   if (!p)
      return CUFFT_ALLOC_FAILED;
   p->magic = CF_MAGIC;
   p->autoalloc = true;
   pthread_mutex_lock(&cf_lock);
   int h = 0;
   for (int i = 0; i < cf_nplans && !h; i++)
      if (!cf_plans[i])
         h = i + 1;
   if (!h) {
      cf_plan **np = realloc(cf_plans, (size_t)(cf_nplans + 16) * sizeof(*np));
      if (np) {
         memset(np + cf_nplans, 0, 16 * sizeof(*np));
         cf_plans = np;
         h = cf_nplans + 1;
         cf_nplans += 16;
      }
   }
   if (h)
      cf_plans[h - 1] = p;
   pthread_mutex_unlock(&cf_lock);
   if (!h) {
      free(p);
      return CUFFT_ALLOC_FAILED;
   }
   *handle = h;
   return CUFFT_SUCCESS;
}

/* ==== cufftDestroy (libcufft.@) ==== */
CF_EXPORT cufftResult cufftDestroy(cufftHandle plan)
{
   CF_ENTER("plan=%d", plan);
   cf_plan *p = cf_plan_of(plan);
   CF_CHECK(p, CUFFT_INVALID_PLAN);
   pthread_mutex_lock(&cf_lock);
   cf_plans[plan - 1] = NULL;
   pthread_mutex_unlock(&cf_lock);
   bool pushed = false;
   if (p->ctx) {
      /* work queued with the plan finishes before its memory goes */
      cf_ctx_enter(p, &pushed);
      cuCtxSynchronize();
   }
   cf_release(p);
   cf_ctx_leave(pushed);
   cf_jit_free(p);
   if (p->mod)
      cf_module_put(p->mod);
   if (p->retained)
      cuDevicePrimaryCtxRelease(p->dev);
   p->magic = 0;
   free(p);
   return CUFFT_SUCCESS;
}

/* ==== cufftMakePlanMany64 (libcufft.@) ==== */
CF_EXPORT cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                          long long int istride, long long int idist, long long int *onembed,
                                          long long int ostride, long long int odist, cufftType type,
                                          long long int batch, size_t *workSize)
{
   CF_ENTER("plan=%d rank=%d n=%p inembed=%p istride=%lld idist=%lld onembed=%p ostride=%lld odist=%lld type=%#x "
            "batch=%lld",
            plan, rank, (void *)n, (void *)inembed, istride, idist, (void *)onembed, ostride, odist, (int)type, batch);
   return cf_make(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

/* ==== cufftMakePlanMany (libcufft.@) ==== */
CF_EXPORT cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist,
                                        int *onembed, int ostride, int odist, cufftType type, int batch,
                                        size_t *workSize)
{
   CF_ENTER("plan=%d rank=%d n=%p inembed=%p istride=%d idist=%d onembed=%p ostride=%d odist=%d type=%#x batch=%d",
            plan, rank, (void *)n, (void *)inembed, istride, idist, (void *)onembed, ostride, odist, (int)type, batch);
   CF_CHECK(cf_plan_of(plan), CUFFT_INVALID_PLAN);
   CF_CHECK(rank >= 1 && rank <= 3, CUFFT_INVALID_VALUE);
   long long nn[3], ie[3], oe[3];
   return cf_make(plan, rank, cf_ll(nn, n, rank), cf_ll(ie, inembed, rank), istride, idist, cf_ll(oe, onembed, rank),
                  ostride, odist, type, batch, workSize);
}

/* ==== cufftMakePlan1d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize)
{
   CF_ENTER("plan=%d nx=%d type=%#x batch=%d", plan, nx, (int)type, batch);
   long long n[1] = { nx };
   return cf_make(plan, 1, n, NULL, 1, 0, NULL, 1, 0, type, batch, workSize);
}

/* ==== cufftMakePlan2d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize)
{
   CF_ENTER("plan=%d nx=%d ny=%d type=%#x", plan, nx, ny, (int)type);
   long long n[2] = { nx, ny };
   return cf_make(plan, 2, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* ==== cufftMakePlan3d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t *workSize)
{
   CF_ENTER("plan=%d nx=%d ny=%d nz=%d type=%#x", plan, nx, ny, nz, (int)type);
   long long n[3] = { nx, ny, nz };
   return cf_make(plan, 3, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* Create + make; the handle is destroyed again when making fails. */
static cufftResult cf_plan_new(cufftHandle *plan, int rank, const long long *n, const long long *inembed,
                               long long istride, long long idist, const long long *onembed, long long ostride,
                               long long odist, cufftType type, long long batch)
{
   CF_CHECK(plan, CUFFT_INVALID_VALUE);
   cufftHandle h;
   cufftResult s = cufftCreate(&h);
   if (s != CUFFT_SUCCESS)
      return s;
   size_t ws;
   s = cf_make(h, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, &ws);
   if (s != CUFFT_SUCCESS) {
      cufftDestroy(h);
      return s;
   }
   *plan = h;
   return CUFFT_SUCCESS;
}

/* ==== cufftPlan1d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch)
{
   CF_ENTER("plan=%p nx=%d type=%#x batch=%d", (void *)plan, nx, (int)type, batch);
   long long n[1] = { nx };
   return cf_plan_new(plan, 1, n, NULL, 1, 0, NULL, 1, 0, type, batch);
}

/* ==== cufftPlan2d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type)
{
   CF_ENTER("plan=%p nx=%d ny=%d type=%#x", (void *)plan, nx, ny, (int)type);
   long long n[2] = { nx, ny };
   return cf_plan_new(plan, 2, n, NULL, 1, 0, NULL, 1, 0, type, 1);
}

/* ==== cufftPlan3d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz, cufftType type)
{
   CF_ENTER("plan=%p nx=%d ny=%d nz=%d type=%#x", (void *)plan, nx, ny, nz, (int)type);
   long long n[3] = { nx, ny, nz };
   return cf_plan_new(plan, 3, n, NULL, 1, 0, NULL, 1, 0, type, 1);
}

/* ==== cufftPlanMany (libcufft.@) ==== */
CF_EXPORT cufftResult cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist,
                                    int *onembed, int ostride, int odist, cufftType type, int batch)
{
   CF_ENTER("plan=%p rank=%d n=%p inembed=%p istride=%d idist=%d onembed=%p ostride=%d odist=%d type=%#x batch=%d",
            (void *)plan, rank, (void *)n, (void *)inembed, istride, idist, (void *)onembed, ostride, odist,
            (int)type, batch);
   CF_CHECK(rank >= 1 && rank <= 3, CUFFT_INVALID_VALUE);
   long long nn[3], ie[3], oe[3];
   return cf_plan_new(plan, rank, cf_ll(nn, n, rank), cf_ll(ie, inembed, rank), istride, idist,
                      cf_ll(oe, onembed, rank), ostride, odist, type, batch);
}

/* The transform type of cufftXt's (input, output, execution) data types
 * (*half: the half-precision forms, computed as the single-precision type
 * in float by exec.c; cuFFT has them for powers of 2 only, so do we). */
static cufftResult cf_xt_type(cudaDataType in, cudaDataType out, cudaDataType ex, int rank, const long long *n,
                              cufftType *t, bool *half)
{
   static const struct { cudaDataType in, out, ex; cufftType t; bool half; } map[] = {
      { CUDA_C_32F, CUDA_C_32F, CUDA_C_32F, CUFFT_C2C, false }, { CUDA_R_32F, CUDA_C_32F, CUDA_C_32F, CUFFT_R2C, false },
      { CUDA_C_32F, CUDA_R_32F, CUDA_C_32F, CUFFT_C2R, false }, { CUDA_C_64F, CUDA_C_64F, CUDA_C_64F, CUFFT_Z2Z, false },
      { CUDA_R_64F, CUDA_C_64F, CUDA_C_64F, CUFFT_D2Z, false }, { CUDA_C_64F, CUDA_R_64F, CUDA_C_64F, CUFFT_Z2D, false },
      { CUDA_C_16F, CUDA_C_16F, CUDA_C_16F, CUFFT_C2C, true },  { CUDA_R_16F, CUDA_C_16F, CUDA_C_16F, CUFFT_R2C, true },
      { CUDA_C_16F, CUDA_R_16F, CUDA_C_16F, CUFFT_C2R, true },
   };
   for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
      if (map[i].in == in && map[i].out == out && map[i].ex == ex) {
         *t = map[i].t;
         *half = map[i].half;
         for (int d = 0; *half && n && d < rank && d < 3; d++)
            if (n[d] < 1 || (n[d] & (n[d] - 1))) {
               LOG_WARN("not supported: a half-precision transform of length %lld (cuFFT's are powers of 2)",
                        (long long)n[d]);
               return CUFFT_NOT_SUPPORTED;
            }
         return CUFFT_SUCCESS;
      }
   LOG_INFO("cufftXt data types %d %d %d -> CUFFT_INVALID_TYPE", (int)in, (int)out, (int)ex);
   return CUFFT_INVALID_TYPE;
}

/* ==== cufftXtMakePlanMany (libcufft.@) ==== */
CF_EXPORT cufftResult cufftXtMakePlanMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                          long long int istride, long long int idist, cudaDataType inputtype,
                                          long long int *onembed, long long int ostride, long long int odist,
                                          cudaDataType outputtype, long long int batch, size_t *workSize,
                                          cudaDataType executiontype)
{
   CF_ENTER("plan=%d rank=%d n=%p inembed=%p istride=%lld idist=%lld itype=%d onembed=%p ostride=%lld odist=%lld "
            "otype=%d batch=%lld workSize=%p etype=%d",
            plan, rank, (void *)n, (void *)inembed, istride, idist, (int)inputtype, (void *)onembed, ostride, odist,
            (int)outputtype, batch, (void *)workSize, (int)executiontype);
   cufftType t;
   bool half = false;
   cufftResult s = cf_xt_type(inputtype, outputtype, executiontype, rank, n, &t, &half);
   if (s != CUFFT_SUCCESS)
      return s;
   cf_plan *p = cf_plan_of(plan);
   if (half && p && cf_has_callbacks(p)) {
      LOG_WARN("cufftXtMakePlanMany: LTO callbacks on half-precision plans are not supported");
      return CUFFT_NOT_SUPPORTED;
   }
   s = cf_make(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, t, batch, workSize);
   if (s == CUFFT_SUCCESS)
      p->fp16 = half;
   return s;
}

/* ==== cufftXtGetSizeMany (libcufft.@) ==== */
CF_EXPORT cufftResult cufftXtGetSizeMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                         long long int istride, long long int idist, cudaDataType inputtype,
                                         long long int *onembed, long long int ostride, long long int odist,
                                         cudaDataType outputtype, long long int batch, size_t *workSize,
                                         cudaDataType executiontype)
{
   CF_ENTER("plan=%d rank=%d n=%p itype=%d otype=%d batch=%lld workSize=%p etype=%d", plan, rank, (void *)n,
            (int)inputtype, (int)outputtype, batch, (void *)workSize, (int)executiontype);
   CF_CHECK(cf_plan_of(plan), CUFFT_INVALID_PLAN);
   cufftType t;
   bool half = false;
   cufftResult s = cf_xt_type(inputtype, outputtype, executiontype, rank, n, &t, &half);
   if (s != CUFFT_SUCCESS)
      return s;
   return cf_size_of(rank, n, inembed, istride, idist, onembed, ostride, odist, t, batch, workSize);
}

/* ==== cufftEstimate1d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftEstimate1d(int nx, cufftType type, int batch, size_t *workSize)
{
   CF_ENTER("nx=%d type=%#x batch=%d workSize=%p", nx, (int)type, batch, (void *)workSize);
   long long n[1] = { nx };
   return cf_size_of(1, n, NULL, 1, 0, NULL, 1, 0, type, batch, workSize);
}

/* ==== cufftEstimate2d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftEstimate2d(int nx, int ny, cufftType type, size_t *workSize)
{
   CF_ENTER("nx=%d ny=%d type=%#x workSize=%p", nx, ny, (int)type, (void *)workSize);
   long long n[2] = { nx, ny };
   return cf_size_of(2, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* ==== cufftEstimate3d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftEstimate3d(int nx, int ny, int nz, cufftType type, size_t *workSize)
{
   CF_ENTER("nx=%d ny=%d nz=%d type=%#x workSize=%p", nx, ny, nz, (int)type, (void *)workSize);
   long long n[3] = { nx, ny, nz };
   return cf_size_of(3, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* ==== cufftEstimateMany (libcufft.@) ==== */
CF_EXPORT cufftResult cufftEstimateMany(int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                                        int ostride, int odist, cufftType type, int batch, size_t *workSize)
{
   CF_ENTER("rank=%d n=%p type=%#x batch=%d workSize=%p", rank, (void *)n, (int)type, batch, (void *)workSize);
   CF_CHECK(rank >= 1 && rank <= 3, CUFFT_INVALID_VALUE);
   long long nn[3], ie[3], oe[3];
   return cf_size_of(rank, cf_ll(nn, n, rank), cf_ll(ie, inembed, rank), istride, idist, cf_ll(oe, onembed, rank),
                     ostride, odist, type, batch, workSize);
}

/* ==== cufftGetSize1d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftGetSize1d(cufftHandle handle, int nx, cufftType type, int batch, size_t *workSize)
{
   CF_ENTER("plan=%d nx=%d type=%#x batch=%d workSize=%p", handle, nx, (int)type, batch, (void *)workSize);
   CF_CHECK(cf_plan_of(handle), CUFFT_INVALID_PLAN);
   long long n[1] = { nx };
   return cf_size_of(1, n, NULL, 1, 0, NULL, 1, 0, type, batch, workSize);
}

/* ==== cufftGetSize2d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftGetSize2d(cufftHandle handle, int nx, int ny, cufftType type, size_t *workSize)
{
   CF_ENTER("plan=%d nx=%d ny=%d type=%#x workSize=%p", handle, nx, ny, (int)type, (void *)workSize);
   CF_CHECK(cf_plan_of(handle), CUFFT_INVALID_PLAN);
   long long n[2] = { nx, ny };
   return cf_size_of(2, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* ==== cufftGetSize3d (libcufft.@) ==== */
CF_EXPORT cufftResult cufftGetSize3d(cufftHandle handle, int nx, int ny, int nz, cufftType type, size_t *workSize)
{
   CF_ENTER("plan=%d nx=%d ny=%d nz=%d type=%#x workSize=%p", handle, nx, ny, nz, (int)type, (void *)workSize);
   CF_CHECK(cf_plan_of(handle), CUFFT_INVALID_PLAN);
   long long n[3] = { nx, ny, nz };
   return cf_size_of(3, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* ==== cufftGetSizeMany (libcufft.@) ==== */
CF_EXPORT cufftResult cufftGetSizeMany(cufftHandle handle, int rank, int *n, int *inembed, int istride, int idist,
                                       int *onembed, int ostride, int odist, cufftType type, int batch,
                                       size_t *workArea)
{
   CF_ENTER("plan=%d rank=%d n=%p type=%#x batch=%d workSize=%p", handle, rank, (void *)n, (int)type, batch,
            (void *)workArea);
   CF_CHECK(cf_plan_of(handle), CUFFT_INVALID_PLAN);
   CF_CHECK(rank >= 1 && rank <= 3, CUFFT_INVALID_VALUE);
   long long nn[3], ie[3], oe[3];
   return cf_size_of(rank, cf_ll(nn, n, rank), cf_ll(ie, inembed, rank), istride, idist, cf_ll(oe, onembed, rank),
                     ostride, odist, type, batch, workArea);
}

/* ==== cufftGetSizeMany64 (libcufft.@) ==== */
CF_EXPORT cufftResult cufftGetSizeMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                         long long int istride, long long int idist, long long int *onembed,
                                         long long int ostride, long long int odist, cufftType type,
                                         long long int batch, size_t *workSize)
{
   CF_ENTER("plan=%d rank=%d n=%p type=%#x batch=%lld workSize=%p", plan, rank, (void *)n, (int)type, batch,
            (void *)workSize);
   CF_CHECK(cf_plan_of(plan), CUFFT_INVALID_PLAN);
   return cf_size_of(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

/* ==== cufftGetSize (libcufft.@) ==== */
CF_EXPORT cufftResult cufftGetSize(cufftHandle handle, size_t *workSize)
{
   CF_ENTER("plan=%d workSize=%p", handle, (void *)workSize);
   cf_plan *p = cf_plan_of(handle);
   CF_CHECK(p, CUFFT_INVALID_PLAN);
   CF_CHECK(workSize, CUFFT_INVALID_VALUE);
   *workSize = p->made ? p->worksize : 0;
   return CUFFT_SUCCESS;
}

/* ==== cufftSetWorkArea (libcufft.@) ==== */
CF_EXPORT cufftResult cufftSetWorkArea(cufftHandle plan, void *workArea)
{
   CF_ENTER("plan=%d workArea=%p", plan, workArea);
   cf_plan *p = cf_plan_of(plan);
   CF_CHECK(p, CUFFT_INVALID_PLAN);
   /* an area cuFFT allocated itself is freed when the program gives one */
   if (p->work_owned && p->work) {
      bool pushed;
      cf_ctx_enter(p, &pushed);
      cuCtxSynchronize();
      cuMemFree(p->work);
      cf_ctx_leave(pushed);
   }
   p->work_owned = false;
   p->work = (CUdeviceptr)(uintptr_t)workArea;
   return CUFFT_SUCCESS;
}

/* ==== cufftSetAutoAllocation (libcufft.@) ==== */
CF_EXPORT cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate)
{
   CF_ENTER("plan=%d autoAllocate=%d", plan, autoAllocate);
   cf_plan *p = cf_plan_of(plan);
   CF_CHECK(p, CUFFT_INVALID_PLAN);
   p->autoalloc = autoAllocate != 0;
   return CUFFT_SUCCESS;
}

/* ==== cufftSetStream (libcufft.@) ==== */
CF_EXPORT cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream)
{
   CF_ENTER("plan=%d stream=%p", plan, (void *)stream);
   cf_plan *p = cf_plan_of(plan);
   CF_CHECK(p, CUFFT_INVALID_PLAN);
   p->stream = (CUstream)stream;
   return CUFFT_SUCCESS;
}

/* ==== cufftGetVersion (libcufft.@) ==== */
CF_EXPORT cufftResult cufftGetVersion(int *version)
{
   CF_ENTER("version=%p", (void *)version);
   CF_CHECK(version, CUFFT_INVALID_VALUE);
   *version = CUFFT_VERSION;
   return CUFFT_SUCCESS;
}

/* ==== cufftGetProperty (libcufft.@) ==== */
CF_EXPORT cufftResult cufftGetProperty(libraryPropertyType type, int *value)
{
   CF_ENTER("type=%d value=%p", (int)type, (void *)value);
   CF_CHECK(value, CUFFT_INVALID_VALUE);
   switch (type) {
   case MAJOR_VERSION: *value = CUFFT_VER_MAJOR; return CUFFT_SUCCESS;
   case MINOR_VERSION: *value = CUFFT_VER_MINOR; return CUFFT_SUCCESS;
   case PATCH_LEVEL: *value = CUFFT_VER_PATCH; return CUFFT_SUCCESS;
   default: return CUFFT_INVALID_TYPE;
   }
}
