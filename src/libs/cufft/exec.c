/*
 * exec.c — cufftExec*: a plan run as stages, one per dimension, each a set
 * of 1-D transforms along that dimension over every line of the others
 * and the batch (kargs.h's line layouts), in the plan's stream.
 *
 *   C2C/Z2Z  the last dimension from the input to the output, then the
 *            others in the output, in place;
 *   R2C/D2Z  the last dimension from the real input to the half spectrum
 *            in the output (n/2 + 1 elements), then the others there;
 *   C2R/Z2D  the dimensions but the last from the input to the half
 *            spectrum in the work area, then the last from there (extended
 *            by Hermitian symmetry) to the real output; the input stays
 *            as it was.  Rank 1 goes from the input straight to the output.
 *
 * A real last dimension of even length n (n/2 smooth) is a complex
 * transform of n/2 of the pairs x[2j] + i x[2j+1], the halves' spectra
 * joined after it (R2C) or separated before it (C2R) by one kernel
 * (cf_half_stage).
 *
 * A stage of k Stockham passes reads its source in the first and writes
 * its destination in the last, the passes between going through the two
 * work buffers; Bluestein's stage goes in by one kernel, convolves in the
 * work buffers and comes out by another.  cuFFT's basic layout (NULL
 * embeds) pads the real rows of an in-place real transform to
 * 2 (n/2 + 1) reals, as cuFFT documents.
 */
#include "cf.h"

#include <stdio.h>

LOG_CHANNEL(cufft);

#define CF_BLOCK 256

static cufftResult cf_launch(cf_plan *p, const char *name, int64_t nthreads, void *args)
{
   if (nthreads <= 0)
      return CUFFT_SUCCESS;
   CUfunction f = cf_function(p, name);
   if (!f)
      return CUFFT_EXEC_FAILED;
   int64_t blocks = (nthreads + CF_BLOCK - 1) / CF_BLOCK;
   if (blocks > 0x7fffffff) {
      LOG_WARN("not supported: %lld threads for one pass", (long long)nthreads);
      return CUFFT_INVALID_SIZE;
   }
   void *params[] = { args };
   CUresult r = cuLaunchKernel(f, (unsigned)blocks, 1, 1, CF_BLOCK, 1, 1, 0, p->stream, params, NULL);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("launch of %s (%lld threads): CUresult %d", name, (long long)nthreads, (int)r);
      return CUFFT_EXEC_FAILED;
   }
   return CUFFT_SUCCESS;
}

/* Contiguous lines of length len */
static cf_layout cf_contig(void *ptr, int64_t len)
{
   cf_layout L = { .p = ptr, .es = 1, .s0 = len, .c1 = 1, .c2 = 1 };
   return L;
}

static bool cf_is_contig(const cf_layout *L)
{
   return L->es == 1 && L->c1 == 1 && L->c2 == 1;
}

static int cf_log2(int64_t v)
{
   int k = 0;
   while (((int64_t)1 << k) < v)
      k++;
   return k;
}

/* The lines along dimension d of array a: the batch, then the other
 * dimensions in order */
static cf_layout cf_lines(const cf_array *a, int rank, int d)
{
   cf_layout L = { .p = a->p, .es = a->st[d], .s0 = a->dist, .c1 = 1, .c2 = 1 };
   int k = 0;
   for (int e = 0; e < rank; e++) {
      if (e == d)
         continue;
      if (k++ == 0) {
         L.c1 = a->ext[e];
         L.s1 = a->st[e];
      } else {
         L.c2 = a->ext[e];
         L.s2 = a->st[e];
      }
   }
   return L;
}

/* The passes of f from src: into *dst, or (dst NULL) ping-ponging t0, t1,
 * the buffer holding the result returned in *last. */
static cufftResult cf_passes(cf_plan *p, const cf_fft *f, cf_layout src, const cf_layout *dst, void *t0, void *t1,
                             int64_t nlines, int dir, int load, int store, void **last)
{
   int64_t prod = 1;
   size_t twoff = 0;   /* this pass's twiddles in the table: after p (R - 1) of each pass before */
   cufftResult s = CUFFT_SUCCESS;
   for (int j = 0; j < f->npass && s == CUFFT_SUCCESS; j++) {
      int R = f->radix[j];
      bool final = j == f->npass - 1;
      cf_pass_args a = { .src = src, .tw = (const char *)(uintptr_t)f->tw + twoff * (p->dbl ? 16 : 8), .n = f->n, .p = prod,
                         .nthreads = nlines * (f->n / R), .dir = dir, .load = j ? CF_LOAD_C : load,
                         .store = final ? store : CF_STORE_C };
      void *buf = j % 2 == 0 ? t0 : t1;
      a.dst = final && dst ? *dst : cf_contig(buf, f->n);
      if (final && last)
         *last = buf;
      /* a power of 2 over contiguous complex lines: the kernel that
       * shifts instead of dividing */
      bool fast = (f->n & (f->n - 1)) == 0 && R > 1 && a.load == CF_LOAD_C && a.store == CF_STORE_C &&
                  cf_is_contig(&a.src) && cf_is_contig(&a.dst);
      if (fast) {
         a.lm = cf_log2(f->n / R);
         a.lp = cf_log2(prod);
      }
      char name[24];
      snprintf(name, sizeof(name), "cf_%spass%d_%c", fast ? "f" : "", R, p->dbl ? 'z' : 'c');
      s = cf_launch(p, name, a.nthreads, &a);
      src = a.dst;
      twoff += (size_t)prod * (R - 1);
      prod *= R;
   }
   return s;
}

/* A real transform of even length n through a complex one of n/2: R2C
 * transforms the pairs of reals into a work buffer and joins the halves
 * into the output; C2R separates them into a work buffer and transforms
 * it into the pairs of reals of the output (kernels.cu). */
static cufftResult cf_half_stage(cf_plan *p, const cf_dim *dm, cf_layout S, cf_layout D, int64_t nlines, int load,
                                 void *w0, void *w1)
{
   int64_t n = dm->f.n, h = n / 2;
   char name[24], tag = p->dbl ? 'z' : 'c';
   cf_half_args a = { .src = S, .dst = D, .w = (const void *)(uintptr_t)dm->hw, .n = n };
   if (load == CF_LOAD_R) {
      void *res = NULL;
      cufftResult s =
         cf_passes(p, &dm->h, S, NULL, w0, w1, nlines, CUFFT_FORWARD, CF_LOAD_P, CF_STORE_C, &res);
      if (s != CUFFT_SUCCESS)
         return s;
      a.src = cf_contig(res, h);
      a.nthreads = nlines * (h + 1);
      snprintf(name, sizeof(name), "cf_r2c_post_%c", tag);
      return cf_launch(p, name, a.nthreads, &a);
   }
   a.dst = cf_contig(w0, h);
   a.nthreads = nlines * h;
   snprintf(name, sizeof(name), "cf_c2r_pre_%c", tag);
   cufftResult s = cf_launch(p, name, a.nthreads, &a);
   if (s == CUFFT_SUCCESS)
      s = cf_passes(p, &dm->h, cf_contig(w0, h), &D, w1, w0, nlines, CUFFT_INVERSE, CF_LOAD_C, CF_STORE_P, NULL);
   return s;
}

/* One stage: dimension d from array sa to array da */
static cufftResult cf_stage(cf_plan *p, int d, const cf_array *sa, const cf_array *da, int dir, int load, int store)
{
   const cf_dim *dm = &p->dim[d];
   cf_layout S = cf_lines(sa, p->rank, d), D = cf_lines(da, p->rank, d);
   int64_t nlines = p->batch * S.c1 * S.c2;
   size_t csize = p->dbl ? 16 : 8;
   char *w0 = (char *)(uintptr_t)p->work, *w1 = w0 + (size_t)p->wlen * csize;
   if (dm->half)
      return cf_half_stage(p, dm, S, D, nlines, load, w0, w1);
   if (!dm->blue)
      return cf_passes(p, &dm->f, S, &D, w0, w1, nlines, dir, load, store, NULL);

   int64_t n = dm->f.n, m = dm->inner.n;
   char tag = p->dbl ? 'z' : 'c', name[24];
   cf_chirp_args a = { .src = S, .dst = cf_contig(w0, m), .w = (const void *)(uintptr_t)dm->chirp,
                       .b = (const void *)(uintptr_t)dm->filt, .n = n, .m = m, .nthreads = nlines * m, .dir = dir,
                       .load = load, .store = store };
   snprintf(name, sizeof(name), "cf_chirp_in_%c", tag);
   cufftResult s = cf_launch(p, name, a.nthreads, &a);
   void *x = NULL, *y = NULL;
   if (s == CUFFT_SUCCESS)
      s = cf_passes(p, &dm->inner, cf_contig(w0, m), NULL, w1, w0, nlines, CUFFT_FORWARD, CF_LOAD_C, CF_STORE_C, &x);
   if (s == CUFFT_SUCCESS) {
      a.dst = cf_contig(x, m);
      snprintf(name, sizeof(name), "cf_chirp_mul_%c", tag);
      s = cf_launch(p, name, a.nthreads, &a);
   }
   if (s == CUFFT_SUCCESS)
      s = cf_passes(p, &dm->inner, cf_contig(x, m), NULL, x == w0 ? w1 : w0, x, nlines, CUFFT_INVERSE, CF_LOAD_C,
                    CF_STORE_C, &y);
   if (s == CUFFT_SUCCESS) {
      a.src = cf_contig(y, m);
      a.dst = D;
      a.nthreads = nlines * n;
      snprintf(name, sizeof(name), "cf_chirp_out_%c", tag);
      s = cf_launch(p, name, a.nthreads, &a);
   }
   return s;
}

/* The input and output arrays of a plan for data at in and out */
static void cf_arrays(const cf_plan *p, void *in, void *out, cf_array *ia, cf_array *oa)
{
   int r = p->rank;
   bool rin = p->type == CUFFT_R2C || p->type == CUFFT_D2Z, rout = p->type == CUFFT_C2R || p->type == CUFFT_Z2D;
   int64_t nc = (rin || rout) ? p->n[r - 1] / 2 + 1 : p->n[r - 1];
   cf_array *as[2] = { ia, oa };
   for (int k = 0; k < 2; k++) {
      cf_array *a = as[k];
      bool real = k == 0 ? rin : rout;
      a->p = k == 0 ? in : out;
      int64_t emb[3], stride, dist;
      for (int d = 0; d < r; d++)
         a->ext[d] = p->n[d];
      if (!real)
         a->ext[r - 1] = nc;
      if (p->basic) {
         for (int d = 0; d < r; d++)
            emb[d] = a->ext[d];
         /* in place, the real rows are padded to the complex ones */
         if (real && in == out)
            emb[r - 1] = 2 * nc;
         stride = 1;
         dist = 1;
         for (int d = 0; d < r; d++)
            dist *= emb[d];
      } else {
         for (int d = 0; d < r; d++)
            emb[d] = k == 0 ? p->inembed[d] : p->onembed[d];
         stride = k == 0 ? p->istride : p->ostride;
         dist = k == 0 ? p->idist : p->odist;
      }
      int64_t st = stride;
      for (int d = r - 1; d >= 0; d--) {
         a->st[d] = st;
         st *= emb[d];
      }
      a->dist = dist;
   }
}

static cufftResult cf_exec_stages(cf_plan *p, void *in, void *out, int dir);
static cufftResult cf_exec_fp16(cf_plan *p, void *in, void *out, int dir);
static cufftResult cf_exec_cb(cf_plan *p, void *in, void *out, int dir);

cufftResult cf_exec(cf_plan *p, void *in, void *out, int dir)
{
   bool pushed;
   if (cf_ctx_enter(p, &pushed) != CUDA_SUCCESS)
      return CUFFT_EXEC_FAILED;
   cufftResult s = p->fp16                     ? cf_exec_fp16(p, in, out, dir)
                   : cf_has_callbacks(p)          ? cf_exec_cb(p, in, out, dir)
                                                  : cf_exec_stages(p, in, out, dir);
   cf_ctx_leave(pushed);
   return s;
}

/* The elements an array spans, first to last (of its type: real or complex). */
static int64_t cf_span(const cf_plan *p, const cf_array *a)
{
   int64_t last = (p->batch - 1) * a->dist;
   for (int d = 0; d < p->rank; d++)
      last += (a->ext[d] - 1) * a->st[d];
   return last + 1;
}

static cufftResult cf_convert(cf_plan *p, const char *name, const void *src, void *dst, int64_t n)
{
   cf_convert_args a = { src, dst, n };
   return cf_launch(p, name, n < 65536 * CF_BLOCK ? n : 65536 * CF_BLOCK, &a);
}

/* A half-precision plan: the input's span to floats in a staging buffer of
 * the same layout, the float transform there, the output's span back to
 * halves.  Out of place, the output's span is converted in first too, so
 * that what lies in its gaps comes back unchanged (half -> float -> half
 * is exact).  The staging buffers come from the stream-ordered allocator
 * on the plan's stream. */
static cufftResult cf_exec_fp16(cf_plan *p, void *in, void *out, int dir)
{
   cf_array ia, oa;
   cf_arrays(p, in, out, &ia, &oa);
   bool rin = p->type == CUFFT_R2C, rout = p->type == CUFFT_C2R, inplace = in == out;
   int64_t nin = cf_span(p, &ia) * (rin ? 1 : 2), nout = cf_span(p, &oa) * (rout ? 1 : 2);
   int64_t nstage_in = inplace && nout > nin ? nout : nin;
   CUdeviceptr si = 0, so = 0;
   if (cuMemAllocAsync(&si, (size_t)nstage_in * 4, p->stream) != CUDA_SUCCESS ||
       (!inplace && cuMemAllocAsync(&so, (size_t)nout * 4, p->stream) != CUDA_SUCCESS)) {
      if (si)
         cuMemFreeAsync(si, p->stream);
      return CUFFT_ALLOC_FAILED;
   }
   void *fi = (void *)(uintptr_t)si, *fo = inplace ? fi : (void *)(uintptr_t)so;
   cufftResult s = cf_convert(p, "cf_h2f", in, fi, inplace ? nstage_in : nin);
   if (s == CUFFT_SUCCESS && !inplace)
      s = cf_convert(p, "cf_h2f", out, fo, nout);
   if (s == CUFFT_SUCCESS)
      s = cf_exec_stages(p, fi, fo, dir);
   if (s == CUFFT_SUCCESS)
      s = cf_convert(p, "cf_f2h", fo, out, inplace ? nstage_in : nout);
   cuMemFreeAsync(si, p->stream);
   if (so)
      cuMemFreeAsync(so, p->stream);
   return s;
}

static cufftResult cf_run(cf_plan *p, const cf_array *ia0, const cf_array *oa0, int dir);

static cufftResult cf_exec_stages(cf_plan *p, void *in, void *out, int dir)
{
   cf_array ia, oa;
   cf_arrays(p, in, out, &ia, &oa);
   return cf_run(p, &ia, &oa, dir);
}

/* The array A packed at ptr: the same extents, no gaps */
static cf_array cf_packed(const cf_plan *p, const cf_array *a, void *ptr)
{
   cf_array q = *a;
   q.p = ptr;
   int64_t st = 1;
   for (int d = p->rank - 1; d >= 0; d--) {
      q.st[d] = st;
      st *= q.ext[d];
   }
   q.dist = st;
   return q;
}

/* The callback kernel K (jit.c) over every element of array A: the
 * program's data at DATA, our packed staging buffer at BUF */
static cufftResult cf_cb_pass(cf_plan *p, int k, const cf_array *a, void *data, void *buf)
{
   int r = p->rank;
   int64_t x[3] = { 1, 1, 1 }, s[3] = { 0, 0, 0 }, total = p->batch;
   for (int d = 0; d < r; d++) {   /* the dimensions right-aligned in the kernel's three */
      x[3 - r + d] = a->ext[d];
      s[3 - r + d] = a->st[d];
      total *= a->ext[d];
   }
   void *info = p->cb[k].info;
   int64_t dist = a->dist;
   uint32_t shared = (uint32_t)p->cb[k].shared;
   void *params[] = { &data, &buf, &info, &total, &x[0], &x[1], &x[2], &dist, &s[0], &s[1], &s[2], &shared };
   int64_t blocks = (total + CF_BLOCK - 1) / CF_BLOCK;
   CF_CHECK(blocks <= 0x7fffffff, CUFFT_INVALID_SIZE);
   CUresult res = cuLaunchKernel(p->cbfn[k], (unsigned)blocks, 1, 1, CF_BLOCK, 1, 1, shared, p->stream, params, NULL);
   if (res != CUDA_SUCCESS) {
      LOG_WARN("launch of the %s callback's kernel (%lld threads): CUresult %d", k ? "store" : "load",
               (long long)total, (int)res);
      return CUFFT_EXEC_FAILED;
   }
   return CUFFT_SUCCESS;
}

/* A plan with LTO callbacks: the load callback over the input into a
 * packed staging buffer of the work area, the transform from there (or
 * from the input), into a second packed buffer when there is a store
 * callback, which then takes every element of it. */
static cufftResult cf_exec_cb(cf_plan *p, void *in, void *out, int dir)
{
   cf_array ia, oa;
   cf_arrays(p, in, out, &ia, &oa);
   char *stage = (char *)(uintptr_t)p->work + p->cboff;
   cf_array si = ia, so = oa;
   cufftResult s = CUFFT_SUCCESS;
   if (p->cb[0].set) {
      si = cf_packed(p, &ia, stage);
      s = cf_cb_pass(p, 0, &ia, in, stage);
   }
   if (p->cb[1].set)
      so = cf_packed(p, &oa, stage + p->cbin);
   if (s == CUFFT_SUCCESS)
      s = cf_run(p, &si, &so, dir);
   if (s == CUFFT_SUCCESS && p->cb[1].set)
      s = cf_cb_pass(p, 1, &oa, out, stage + p->cbin);
   return s;
}

/* The stages of the plan from array ia0 to array oa0 */
static cufftResult cf_run(cf_plan *p, const cf_array *ia0, const cf_array *oa0, int dir)
{
   cf_array ia = *ia0, oa = *oa0;
   int r = p->rank;
   cufftResult s = CUFFT_SUCCESS;
   switch (p->type) {
   case CUFFT_C2C:
   case CUFFT_Z2Z:
      for (int d = r - 1; d >= 0 && s == CUFFT_SUCCESS; d--)
         s = cf_stage(p, d, d == r - 1 ? &ia : &oa, &oa, dir, CF_LOAD_C, CF_STORE_C);
      break;
   case CUFFT_R2C:
   case CUFFT_D2Z:
      s = cf_stage(p, r - 1, &ia, &oa, CUFFT_FORWARD, CF_LOAD_R, CF_STORE_H);
      for (int d = r - 2; d >= 0 && s == CUFFT_SUCCESS; d--)
         s = cf_stage(p, d, &oa, &oa, CUFFT_FORWARD, CF_LOAD_C, CF_STORE_C);
      break;
   default: /* C2R, Z2D */
      if (r == 1) {
         s = cf_stage(p, 0, &ia, &oa, CUFFT_INVERSE, CF_LOAD_H, CF_STORE_R);
         break;
      }
      /* the half spectrum, contiguous, at the end of the work area */
      cf_array ha = { .p = (char *)(uintptr_t)p->work + p->worksize - (size_t)p->hlen * (p->dbl ? 16 : 8) };
      int64_t st = 1;
      for (int d = r - 1; d >= 0; d--) {
         ha.ext[d] = ia.ext[d];
         ha.st[d] = st;
         st *= ha.ext[d];
      }
      ha.dist = st;
      for (int d = 0; d < r - 1 && s == CUFFT_SUCCESS; d++)
         s = cf_stage(p, d, d == 0 ? &ia : &ha, &ha, CUFFT_INVERSE, CF_LOAD_C, CF_STORE_C);
      if (s == CUFFT_SUCCESS)
         s = cf_stage(p, r - 1, &ha, &oa, CUFFT_INVERSE, CF_LOAD_H, CF_STORE_R);
      break;
   }
   return s;
}

/* The checks every cufftExec* makes.  The plan's own type runs whichever
 * cufftExec* is called (an H200 answers CUFFT_SUCCESS for cufftExecR2C or
 * cufftExecZ2Z on a C2C plan); the direction is checked where the call
 * takes one. */
static cufftResult cf_exec_checked(cufftHandle plan, void *in, void *out, int dir)
{
   cf_plan *p = cf_plan_of(plan);
   CF_CHECK(p && p->made, CUFFT_INVALID_PLAN);
   CF_CHECK(dir == CUFFT_FORWARD || dir == CUFFT_INVERSE, CUFFT_INVALID_VALUE);
   CF_CHECK(in && out, CUFFT_INVALID_VALUE);
   CF_CHECK(!p->worksize || p->work, CUFFT_INVALID_VALUE);
   return cf_exec(p, in, out, dir);
}

/* ==== cufftExecC2C (libcufft.@) ==== */
CF_EXPORT cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata, int direction)
{
   CF_ENTER("plan=%d idata=%p odata=%p direction=%d", plan, (void *)idata, (void *)odata, direction);
   return cf_exec_checked(plan, idata, odata, direction);
}

/* ==== cufftExecZ2Z (libcufft.@) ==== */
CF_EXPORT cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata,
                                   int direction)
{
   CF_ENTER("plan=%d idata=%p odata=%p direction=%d", plan, (void *)idata, (void *)odata, direction);
   return cf_exec_checked(plan, idata, odata, direction);
}

/* ==== cufftExecR2C (libcufft.@) ==== */
CF_EXPORT cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata)
{
   CF_ENTER("plan=%d idata=%p odata=%p", plan, (void *)idata, (void *)odata);
   return cf_exec_checked(plan, idata, odata, CUFFT_FORWARD);
}

/* ==== cufftExecD2Z (libcufft.@) ==== */
CF_EXPORT cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata)
{
   CF_ENTER("plan=%d idata=%p odata=%p", plan, (void *)idata, (void *)odata);
   return cf_exec_checked(plan, idata, odata, CUFFT_FORWARD);
}

/* ==== cufftExecC2R (libcufft.@) ==== */
CF_EXPORT cufftResult cufftExecC2R(cufftHandle plan, cufftComplex *idata, cufftReal *odata)
{
   CF_ENTER("plan=%d idata=%p odata=%p", plan, (void *)idata, (void *)odata);
   return cf_exec_checked(plan, idata, odata, CUFFT_INVERSE);
}

/* ==== cufftXtExec (libcufft.@) ==== */
CF_EXPORT cufftResult cufftXtExec(cufftHandle plan, void *input, void *output, int direction)
{
   CF_ENTER("plan=%d input=%p output=%p direction=%d", plan, input, output, direction);
   return cf_exec_checked(plan, input, output, direction);
}

/* ==== cufftExecZ2D (libcufft.@) ==== */
CF_EXPORT cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata)
{
   CF_ENTER("plan=%d idata=%p odata=%p", plan, (void *)idata, (void *)odata);
   return cf_exec_checked(plan, idata, odata, CUFFT_INVERSE);
}
