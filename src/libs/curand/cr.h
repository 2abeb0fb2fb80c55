/*
 * cr.h — libcurand's table of contents (src/libs/curand).
 *
 * libcurand is a client of the CUDA Driver API like any program: a device
 * generator holds the context it was created in, the module of our kernels
 * (kernels.cu, PTX embedded by kernels.S, loaded with cuModuleLoadData), its
 * stream and the per-subsequence states in device memory; a host generator
 * (curandCreateGeneratorHost) runs the same arithmetic (rng.h, work.h) on
 * the CPU.  Exported functions are CR_EXPORT (everything else is hidden);
 * stubs.c defines every other name NVIDIA's library exports, as weak stubs.
 */
#ifndef MC_CR_H
#define MC_CR_H

#include <cuda.h>
#include <curand.h>
#include <stdbool.h>
#include <stdint.h>
#include "util/util.h"
#include "work.h"

#define CR_EXPORT __attribute__((visibility("default")))
#define CR_MAGIC 0x6372474eu   /* "crGN" */

/* A Poisson square histogram (poisson.c): values shift + j, n columns and
 * the entry n; or (INVERSION) inversion's n cumulative sums; host copies,
 * and device copies for a device generator */
typedef struct {
   double lambda;
   bool inversion;
   rng_u32 shift, n;
   double *v;
   rng_u32 *k;
   CUdeviceptr dv, dk;
} cr_poisson_tab;

struct curandGenerator_st {
   uint32_t magic;
   curandRngType_t type;
   bool host;                   /* curandCreateGeneratorHost */
   curandOrdering_t ordering;
   unsigned long long seed, offset;
   bool fresh;                  /* states to restart before the next call */
   bool mtgp_started;           /* MTGP32, device generator: its states were seeded (generator.c) */
   uint32_t tcur;               /* the subsequence the next item goes to */
   uint32_t nthreads;
   unsigned long long pos;      /* index of the next output (a new seed or ordering restarts there);
                                   Sobol: of the next point of each dimension */
   unsigned dims;               /* Sobol: dimensions */
   size_t state_size;           /* bytes of one subsequence's state */
   /* host generator */
   void *hstates;
   /* device generator */
   CUcontext ctx;
   bool retained;
   CUdevice dev;
   CUmodule mod;
   CUstream stream;
   CUdeviceptr dstates, djumps;
   CUdeviceptr dvec;            /* Sobol: direction vectors of dvec_dims dimensions */
   unsigned dvec_dims;
   CUfunction fn_init, fn_gen;
   /* curandGeneratePoisson: the call's lambda and method, the last histogram */
   double plambda;
   unsigned pmethod;
   bool psums;   /* inversion through ptab's sums */
   float pknuth; /* CR_PM_KNUTH: expf(lambda) */
   cr_poisson_tab ptab;
};

/* Trace of an entry point (METALCUDA_LOG=trace), with its arguments. */
#define CR_ENTER(...) LOG_TRACE(__VA_ARGS__)
/* A failing check: said at info level with the condition, then returned. */
#define CR_CHECK(cond, status)                                                                     \
   do {                                                                                             \
      if (!(cond)) {                                                                               \
         LOG_INFO("%s -> %d", #cond, (int)(status));                                               \
         return status;                                                                             \
      }                                                                                             \
   } while (0)
#define CR_GEN(g) CR_CHECK(cr_gen_ok(g), CURAND_STATUS_NOT_INITIALIZED)

/* ---- generator.c ---- */
bool cr_gen_ok(curandGenerator_t g);
/* The jump table of a stateful generator type (rng.h), computed once. */
const rng_u32 *cr_jumps(curandRngType_t type, size_t *words);
/* Runs one call: N outputs of distribution DIST into OUT (device or host
 * memory as the generator is); restarts the states first when needed. */
curandStatus_t cr_run(curandGenerator_t g, int dist, void *out, unsigned long long n, double mean, double sd);
/* A call's argument block: the generator's seed and subsequences, the
 * distribution's parameters, the rest zero. */
void cr_args_init(cr_args *a, curandGenerator_t g, int dist, double mean, double sd);
/* Launches F over THREADS threads on the generator's stream, with the
 * argument block A as its one parameter. */
curandStatus_t cr_launch(curandGenerator_t g, CUfunction f, unsigned threads, cr_args *a);
/* Makes a device generator's context current, as its calls do (the one
 * that was current is not given back); INITIALIZATION_FAILED if it cannot. */
curandStatus_t cr_ctx_enter(curandGenerator_t g);

/* ---- poisson.c ---- */
/* The square histogram of the Poisson distribution at LAMBDA into T
 * (host copies); 0, or -1 out of memory. */
int cr_poisson_build(cr_poisson_tab *t, double lambda);
/* Inversion's sums at LAMBDA <= 500 into T; 0, or -1 out of memory. */
int cr_poisson_build_sums(cr_poisson_tab *t, double lambda);
void cr_poisson_free(cr_poisson_tab *t);

/* ---- sobol.c ---- */
static inline bool cr_is_scrambled(curandRngType_t type)
{
   return type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 || type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}
static inline bool cr_is_sobol(curandRngType_t type)
{
   return type == CURAND_RNG_QUASI_SOBOL32 || type == CURAND_RNG_QUASI_SOBOL64 || cr_is_scrambled(type);
}
/* The width of a Sobol generator's words: 64 for (scrambled) Sobol64. */
static inline int cr_sobol_bits(curandRngType_t type)
{
   return type == CURAND_RNG_QUASI_SOBOL64 || type == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 ? 64 : 32;
}
/* The direction vectors of 32 or 64 bits (20000 dimensions), or NULL. */
const void *cr_sobol_vectors(int bits);
/* The scrambled direction vectors of 32 or 64 bits and (into *CONSTANTS)
 * the scramble constants, or NULL. */
const void *cr_sobol_scrambled(int bits, const void **constants);
/* Whether the vectors (and, for SCRAMBLED, the scrambled ones) are there;
 * says why not. */
bool cr_sobol_available(bool scrambled);
/* One call of a Sobol generator: N outputs (a multiple of its dimensions). */
curandStatus_t cr_sobol_run(curandGenerator_t g, int dist, void *out, unsigned long long n, double mean, double sd);

/* ---- mtgp32.c ---- */
/* MTGP32's parameter sets, expanded (RNG_MTGP_STATES rng_mtgp_param), or
 * NULL (no table at build time). */
const void *cr_mtgp_params_words(size_t *words);
/* Whether the parameter sets are there; says why not. */
bool cr_mtgp_available(void);
/* One call of an MTGP32 generator: N outputs, one word each. */
curandStatus_t cr_mtgp_run(curandGenerator_t g, int dist, void *out, unsigned long long n, double mean, double sd);

/* ---- mt19937.c ---- */
/* One call of an MT19937 generator: N outputs, one word each. */
curandStatus_t cr_mt_run(curandGenerator_t g, int dist, void *out, unsigned long long n, double mean, double sd);

#endif
