/*
 * oracle.h — the reference BLAS of tests/libs: OpenBLAS (Debian's
 * libopenblas-dev, which .ci/run installs), dlopen'ed so that the programs
 * build and link without it; where it is absent (the H200 machine) a plain
 * double-precision loop stands in, and the program says which it used.
 *
 * Results are compared within the standard error bound of the computation
 * (Higham, Accuracy and Stability of Numerical Algorithms, §3.5): for a
 * dot product of length k, |fl(x.y) - x.y| <= gamma_k |x|.|y| with
 * gamma_k = k u / (1 - k u); two implementations then differ by at most
 * twice that, plus the rounding of the final scaling, so
 *    |got - ref| <= 2 (k + 2) u (|alpha| (|A||B|)_ij + |beta| |C_ij|)
 * with u the unit roundoff of the type; |A||B| is computed here in double.
 */
#ifndef TESTS_LIBS_ORACLE_H
#define TESTS_LIBS_ORACLE_H

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { CB_COLMAJOR = 102, CB_NOTRANS = 111, CB_TRANS = 112, CB_CONJTRANS = 113 };

struct oracle {
   void *lib;
   void (*sgemm)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
   void (*dgemm)(int, int, int, int, int, int, double, const double *, int, const double *, int, double, double *,
                 int);
   void (*cgemm)(int, int, int, int, int, int, const void *, const void *, int, const void *, int, const void *,
                 void *, int);
   void (*zgemm)(int, int, int, int, int, int, const void *, const void *, int, const void *, int, const void *,
                 void *, int);
   void (*sgemv)(int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
   void (*dgemv)(int, int, int, int, double, const double *, int, const double *, int, double, double *, int);
   /* cublas_l2x: the complex double routines, which serve every type
    * there (real data in complex double: a Hermitian routine is then the
    * symmetric one) */
   void (*zgemv)(int, int, int, int, const void *, const void *, int, const void *, int, const void *, void *, int);
   void (*zgbmv)(int, int, int, int, int, int, const void *, const void *, int, const void *, int, const void *,
                 void *, int);
   void (*zhemv)(int, int, int, const void *, const void *, int, const void *, int, const void *, void *, int);
   void (*zhbmv)(int, int, int, int, const void *, const void *, int, const void *, int, const void *, void *, int);
   void (*zhpmv)(int, int, int, const void *, const void *, const void *, int, const void *, void *, int);
   void (*zgeru)(int, int, int, const void *, const void *, int, const void *, int, void *, int);
   void (*zgerc)(int, int, int, const void *, const void *, int, const void *, int, void *, int);
   void (*zher)(int, int, int, double, const void *, int, void *, int);
   void (*zher2)(int, int, int, const void *, const void *, int, const void *, int, void *, int);
   void (*zhpr)(int, int, int, double, const void *, int, void *);
   void (*zhpr2)(int, int, int, const void *, const void *, int, const void *, int, void *);
   void (*ztbmv)(int, int, int, int, int, int, const void *, int, void *, int);
   void (*ztpmv)(int, int, int, int, int, const void *, void *, int);
   void (*zsyrk)(int, int, int, int, int, const void *, const void *, int, const void *, void *, int);
   void (*zsyr2k)(int, int, int, int, int, const void *, const void *, int, const void *, int, const void *, void *,
                  int);
   void (*zherk)(int, int, int, int, int, double, const void *, int, double, void *, int);
   void (*zher2k)(int, int, int, int, int, const void *, const void *, int, const void *, int, double, void *, int);
   void (*zhemm)(int, int, int, int, int, const void *, const void *, int, const void *, int, const void *, void *,
                 int);
   void (*ztrmm)(int, int, int, int, int, int, int, const void *, const void *, int, void *, int);
};
enum { CB_UPPER = 121, CB_LOWER = 122, CB_NONUNIT = 131, CB_UNIT = 132, CB_LEFT = 141, CB_RIGHT = 142 };

static struct oracle oracle_open(void)
{
   struct oracle o = { 0 };
   /* MC_NO_OPENBLAS=1: the plain loops even where OpenBLAS is installed */
   const char *no = getenv("MC_NO_OPENBLAS");
   if (!(no && *no == '1'))
      o.lib = dlopen("libopenblas.so.0", RTLD_NOW);
   if (!o.lib && !(no && *no == '1'))
      o.lib = dlopen("libopenblas.dylib", RTLD_NOW);
   if (o.lib) {
      *(void **)&o.sgemm = dlsym(o.lib, "cblas_sgemm");
      *(void **)&o.dgemm = dlsym(o.lib, "cblas_dgemm");
      *(void **)&o.cgemm = dlsym(o.lib, "cblas_cgemm");
      *(void **)&o.zgemm = dlsym(o.lib, "cblas_zgemm");
      *(void **)&o.sgemv = dlsym(o.lib, "cblas_sgemv");
      *(void **)&o.dgemv = dlsym(o.lib, "cblas_dgemv");
#define ORACLE_SYM(f) *(void **)&o.f = dlsym(o.lib, "cblas_" #f)
      ORACLE_SYM(zgemv); ORACLE_SYM(zgbmv); ORACLE_SYM(zhemv); ORACLE_SYM(zhbmv); ORACLE_SYM(zhpmv);
      ORACLE_SYM(zgeru); ORACLE_SYM(zgerc); ORACLE_SYM(zher); ORACLE_SYM(zher2); ORACLE_SYM(zhpr);
      ORACLE_SYM(zhpr2); ORACLE_SYM(ztbmv); ORACLE_SYM(ztpmv); ORACLE_SYM(zsyrk); ORACLE_SYM(zsyr2k);
      ORACLE_SYM(zherk); ORACLE_SYM(zher2k); ORACLE_SYM(zhemm); ORACLE_SYM(ztrmm);
#undef ORACLE_SYM
   }
   printf("oracle: %s\n", o.sgemm && o.dgemm && o.cgemm && o.zgemm && o.sgemv && o.dgemv
                             ? "OpenBLAS (libopenblas.so.0)"
                             : "plain double-precision loops (no OpenBLAS here)");
   return o;
}

static int oracle_have(const struct oracle *o)
{
   return o->sgemm && o->dgemm && o->cgemm && o->zgemm && o->sgemv && o->dgemv;
}

/* every routine cublas_l2x needs (it has no fallback loops) */
static int oracle_have_l2x(const struct oracle *o)
{
   return o->zgemm && o->zgemv && o->zgbmv && o->zhemv && o->zhbmv && o->zhpmv && o->zgeru && o->zgerc && o->zher &&
          o->zher2 && o->zhpr && o->zhpr2 && o->ztbmv && o->ztpmv && o->zsyrk && o->zsyr2k && o->zherk &&
          o->zher2k && o->zhemm && o->ztrmm;
}

static int cblas_op(int op)   /* cublasOperation_t -> CBLAS_TRANSPOSE */
{
   return op == 0 ? CB_NOTRANS : op == 1 ? CB_TRANS : CB_CONJTRANS;
}

/* deterministic test data in [-1, 1) */
static unsigned oracle_seed = 12345;
static double rnd(void)
{
   oracle_seed = oracle_seed * 1103515245u + 12345u;
   return ((oracle_seed >> 8) & 0xffff) / 32768.0 - 1.0;
}

#endif
