/*
 * generator.c — cuRAND generators: create (device and host), destroy, seed,
 * offset, ordering, stream, dimensions, versions; the jump tables; and the
 * engine of every generation call (cr_run): restart of the subsequence
 * states when the seed or offset changed, then one pass of the kernels
 * (device generator: our module on the generator's stream, asynchronous as
 * NVIDIA's) or of the same code in a loop (host generator).
 *
 * Jump tables: XORWOW's state moves by a linear map over GF(2) (160 x 160),
 * MRG32k3a's by two 3 x 3 matrices mod m1 and m2; powers 2^0..2^63 (skip
 * values) and 2^(S+0..) (skip subsequences, S = 67 and 76) are computed here
 * by repeated squaring, once per process.
 *
 * A device generator belongs to the context current at its creation (with
 * none, device 0's primary context, retained), as cuBLAS's handle does.
 */
#include "cr.h"
#include "mtgp.h"
#include "mt19937.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(curand);

extern const char cr_kernels_ptx[];

bool cr_gen_ok(curandGenerator_t g)
{
   return g && g->magic == CR_MAGIC;
}

/* ---- jump tables ---- */
static rng_u32 *xw_jumps, *mrg_jumps;
static pthread_once_t jumps_once = PTHREAD_ONCE_INIT;

/* C = A B over GF(2), 160 x 160, rows of 5 words */
static void xw_mul(rng_u32 *c, const rng_u32 *a, const rng_u32 *b)
{
   rng_u32 t[800];
   memset(t, 0, sizeof t);
   for (int i = 0; i < 160; i++)
      for (int j = 0; j < 160; j++)
         if (a[5 * i + j / 32] >> (j % 32) & 1)
            for (int w = 0; w < 5; w++)
               t[5 * i + w] ^= b[5 * j + w];
   memcpy(c, t, sizeof t);
}

static void mrg_mul(rng_u32 *c, const rng_u32 *a, const rng_u32 *b, unsigned long long m)
{
   rng_u32 t[9];
   for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
         unsigned long long acc = 0;
         for (int k = 0; k < 3; k++)
            acc = (acc + (unsigned long long)a[3 * i + k] * b[3 * k + j] % m) % m;
         t[3 * i + j] = (rng_u32)acc;
      }
   memcpy(c, t, sizeof t);
}

static void make_jumps(void)
{
   /* XORWOW: column j of the one-step matrix is the step applied to e_j */
   rng_u32 *p = calloc((size_t)(RNG_XORWOW_SUBSEQ_LOG2 + 13) * 800, 4);
   xw_jumps = calloc((size_t)RNG_XORWOW_JUMPS * 800, 4);
   mrg_jumps = calloc((size_t)RNG_MRG_JUMPS * 18, 4);
   if (!p || !xw_jumps || !mrg_jumps) {
      free(p);
      free(xw_jumps);
      free(mrg_jumps);
      xw_jumps = mrg_jumps = NULL;
      return;
   }
   for (int j = 0; j < 160; j++) {
      rng_xorwow s;
      memset(&s, 0, sizeof s);
      s.v[j / 32] = 1u << (j % 32);
      rng_xorwow_next(&s);
      for (int i = 0; i < 160; i++)
         if (s.v[i / 32] >> (i % 32) & 1)
            p[5 * i + j / 32] |= 1u << (j % 32);
   }
   for (int k = 1; k < RNG_XORWOW_SUBSEQ_LOG2 + 13; k++)
      xw_mul(p + 800 * k, p + 800 * (k - 1), p + 800 * (k - 1));
   memcpy(xw_jumps, p, 64 * 800 * 4);
   memcpy(xw_jumps + 64 * 800, p + RNG_XORWOW_SUBSEQ_LOG2 * 800, 13 * 800 * 4);
   free(p);

   /* MRG32k3a: companion matrices of the two recurrences */
   rng_u32 a1[9] = { 0, 1, 0, 0, 0, 1, (rng_u32)(RNG_M1 - 810728u), 1403580u, 0 };
   rng_u32 a2[9] = { 0, 1, 0, 0, 0, 1, (rng_u32)(RNG_M2 - 1370589u), 0, 527612u };
   for (int k = 0; k < RNG_MRG_SUBSEQ_LOG2 + 17; k++) {
      int slot = k < 64 ? k : k >= RNG_MRG_SUBSEQ_LOG2 ? 64 + k - RNG_MRG_SUBSEQ_LOG2 : -1;
      if (slot >= 0) {
         memcpy(mrg_jumps + 18 * slot, a1, sizeof a1);
         memcpy(mrg_jumps + 18 * slot + 9, a2, sizeof a2);
      }
      mrg_mul(a1, a1, a1, RNG_M1);
      mrg_mul(a2, a2, a2, RNG_M2);
   }
}

const rng_u32 *cr_jumps(curandRngType_t type, size_t *words)
{
   pthread_once(&jumps_once, make_jumps);
   if (type == CURAND_RNG_PSEUDO_XORWOW) {
      *words = (size_t)RNG_XORWOW_JUMPS * 800;
      return xw_jumps;
   }
   if (type == CURAND_RNG_PSEUDO_MRG32K3A) {
      *words = (size_t)RNG_MRG_JUMPS * 18;
      return mrg_jumps;
   }
   if (type == CURAND_RNG_PSEUDO_MTGP32)   /* its parameter sets */
      return cr_mtgp_params_words(words);
   *words = 0;
   return NULL;
}

/* ---- create / destroy ---- */
static curandStatus_t cr_create(curandGenerator_t *generator, curandRngType_t type, bool host)
{
   CR_CHECK(generator, CURAND_STATUS_NOT_INITIALIZED);
   *generator = NULL;
   if (type == CURAND_RNG_PSEUDO_DEFAULT)
      type = CURAND_RNG_PSEUDO_XORWOW;
   if (type == CURAND_RNG_QUASI_DEFAULT)
      type = CURAND_RNG_QUASI_SOBOL32;
   switch (type) {
   case CURAND_RNG_PSEUDO_XORWOW:
   case CURAND_RNG_PSEUDO_MRG32K3A:
   case CURAND_RNG_PSEUDO_PHILOX4_32_10:
      break;
   case CURAND_RNG_QUASI_SOBOL32:
   case CURAND_RNG_QUASI_SOBOL64:
   case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
   case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
      if (!cr_sobol_available(cr_is_scrambled(type)))
         return CURAND_STATUS_TYPE_ERROR;
      break;
   case CURAND_RNG_PSEUDO_MTGP32:
      if (!cr_mtgp_available())
         return CURAND_STATUS_TYPE_ERROR;
      break;
   case CURAND_RNG_PSEUDO_MT19937:
      break;
   default:
      return CURAND_STATUS_TYPE_ERROR;
   }
   curandGenerator_t g = calloc(1, sizeof(*g));
   if (!g)
      return CURAND_STATUS_ALLOCATION_FAILED;
   g->type = type;
   g->host = host;
   g->ordering = cr_is_sobol(type) ? CURAND_ORDERING_QUASI_DEFAULT : CURAND_ORDERING_PSEUDO_DEFAULT;
   g->dims = 1;
   g->fresh = true;
   switch (type) {
   case CURAND_RNG_PSEUDO_XORWOW:
      g->nthreads = RNG_XORWOW_THREADS;
      g->state_size = sizeof(rng_xorwow);
      break;
   case CURAND_RNG_PSEUDO_MRG32K3A:
      g->nthreads = RNG_MRG_THREADS;
      g->state_size = sizeof(rng_mrg);
      break;
   case CURAND_RNG_PSEUDO_MTGP32:
      g->nthreads = RNG_MTGP_STATES;
      g->state_size = sizeof(rng_mtgp);
      break;
   case CURAND_RNG_PSEUDO_MT19937:   /* seeded on the host (mt19937.c): no jump table on the device */
      g->nthreads = RNG_MT_SUBSEQ;
      g->state_size = sizeof(rng_mt);
      break;
   default:
      g->nthreads = RNG_PHILOX_THREADS;
      g->state_size = 0;
      break;
   }
   size_t words = 0;
   const rng_u32 *jumps = cr_jumps(type, &words);
   bool mt = type == CURAND_RNG_PSEUDO_MT19937;
   if (g->state_size && !jumps && !mt) {
      free(g);
      return CURAND_STATUS_ALLOCATION_FAILED;
   }
   if (host) {
      if (g->state_size && !(g->hstates = malloc(g->state_size * g->nthreads))) {
         free(g);
         return CURAND_STATUS_ALLOCATION_FAILED;
      }
      g->magic = CR_MAGIC;
      *generator = g;
      return CURAND_STATUS_SUCCESS;
   }
   if (cuInit(0) != CUDA_SUCCESS) {
      free(g);
      return CURAND_STATUS_INITIALIZATION_FAILED;
   }
   CUresult r = cuCtxGetCurrent(&g->ctx);
   if (r == CUDA_SUCCESS && !g->ctx) {
      r = cuDeviceGet(&g->dev, 0);
      if (r == CUDA_SUCCESS)
         r = cuDevicePrimaryCtxRetain(&g->ctx, g->dev);
      if (r == CUDA_SUCCESS) {
         g->retained = true;
         r = cuCtxSetCurrent(g->ctx);
      }
   } else if (r == CUDA_SUCCESS) {
      r = cuCtxGetDevice(&g->dev);
   }
   if (r == CUDA_SUCCESS)
      r = cuModuleLoadData(&g->mod, cr_kernels_ptx);
   const char *init = type == CURAND_RNG_PSEUDO_XORWOW   ? "cr_init_xorwow"
                      : type == CURAND_RNG_PSEUDO_MTGP32 ? "cr_init_mtgp"
                                                         : "cr_init_mrg";
   const char *gen = type == CURAND_RNG_PSEUDO_XORWOW    ? "cr_gen_xorwow"
                     : type == CURAND_RNG_PSEUDO_MRG32K3A ? "cr_gen_mrg"
                     : type == CURAND_RNG_PSEUDO_MTGP32   ? "cr_gen_mtgp"
                     : cr_is_sobol(type)                  ? "cr_gen_sobol"
                                                          : "cr_gen_philox";
   if (mt)
      gen = "cr_gen_mt19937";
   if (r == CUDA_SUCCESS && g->state_size && !mt)
      r = cuModuleGetFunction(&g->fn_init, g->mod, init);
   if (r == CUDA_SUCCESS)
      r = cuModuleGetFunction(&g->fn_gen, g->mod, gen);
   if (r == CUDA_SUCCESS && g->state_size)
      r = cuMemAlloc(&g->dstates, g->state_size * g->nthreads);
   if (r == CUDA_SUCCESS && g->state_size && !mt)
      r = cuMemAlloc(&g->djumps, words * 4);
   if (r == CUDA_SUCCESS && g->state_size && !mt)
      r = cuMemcpyHtoD(g->djumps, jumps, words * 4);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("curandCreateGenerator: CUresult %d", (int)r);
      if (g->djumps)
         cuMemFree(g->djumps);
      if (g->dstates)
         cuMemFree(g->dstates);
      if (g->mod)
         cuModuleUnload(g->mod);
      if (g->retained)
         cuDevicePrimaryCtxRelease(g->dev);
      free(g);
      return r == CUDA_ERROR_OUT_OF_MEMORY ? CURAND_STATUS_ALLOCATION_FAILED : CURAND_STATUS_INITIALIZATION_FAILED;
   }
   g->magic = CR_MAGIC;
   *generator = g;
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandCreateGenerator (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type)
{
   CR_ENTER("generator=%p rng_type=%d", (void *)generator, (int)rng_type);
   return cr_create(generator, rng_type, false);
}

/* ==== curandCreateGeneratorHost (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type)
{
   CR_ENTER("generator=%p rng_type=%d", (void *)generator, (int)rng_type);
   return cr_create(generator, rng_type, true);
}

/* ==== curandDestroyGenerator (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandDestroyGenerator(curandGenerator_t g)
{
   CR_ENTER("generator=%p", (void *)g);
   CR_GEN(g);
   g->magic = 0;
   if (!g->host) {
      CUcontext cur = NULL;
      cuCtxGetCurrent(&cur);
      if (cur != g->ctx)
         cuCtxSetCurrent(g->ctx);
      /* the kernels may still be running on the stream: wait for them */
      cuStreamSynchronize(g->stream);
      if (g->djumps)
         cuMemFree(g->djumps);
      if (g->dstates)
         cuMemFree(g->dstates);
      if (g->dvec)
         cuMemFree(g->dvec);
      cr_poisson_free(&g->ptab);
      cuModuleUnload(g->mod);
      if (cur != g->ctx)
         cuCtxSetCurrent(cur);
      if (g->retained)
         cuDevicePrimaryCtxRelease(g->dev);
   }
   free(g->hstates);
   cr_poisson_free(&g->ptab);
   free(g);
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandGetVersion (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGetVersion(int *version)
{
   CR_ENTER("version=%p", (void *)version);
   CR_CHECK(version, CURAND_STATUS_OUT_OF_RANGE);
   *version = CURAND_VERSION;
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandGetProperty (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGetProperty(libraryPropertyType type, int *value)
{
   CR_ENTER("type=%d value=%p", (int)type, (void *)value);
   CR_CHECK(value, CURAND_STATUS_OUT_OF_RANGE);
   switch (type) {
   case MAJOR_VERSION: *value = CURAND_VER_MAJOR; return CURAND_STATUS_SUCCESS;
   case MINOR_VERSION: *value = CURAND_VER_MINOR; return CURAND_STATUS_SUCCESS;
   case PATCH_LEVEL: *value = CURAND_VER_PATCH; return CURAND_STATUS_SUCCESS;
   default: return CURAND_STATUS_OUT_OF_RANGE;
   }
}

/* ==== curandSetStream (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandSetStream(curandGenerator_t g, cudaStream_t stream)
{
   CR_ENTER("generator=%p stream=%p", (void *)g, (void *)stream);
   CR_GEN(g);
   g->stream = (CUstream)stream;
   return CURAND_STATUS_SUCCESS;
}

/* A new seed or ordering restarts the states where the sequence is now:
 * NVIDIA's generator keeps its position (the outputs generated since the
 * last curandSetGeneratorOffset, or creation), so setting even the same
 * seed again continues at that position rather than from the offset
 * (measured on an H200 with cuRAND 10 of CUDA 13; tests/libs/curand_gen). */
static void restart_here(curandGenerator_t g)
{
   g->offset = g->pos;
   g->fresh = true;
}

/* MTGP32 and MT19937: the stream starts again at its beginning at the next
 * call (which seeds their states then) */
static void restart_from_start(curandGenerator_t g)
{
   g->pos = 0;
   g->fresh = true;
}

/* ==== curandSetPseudoRandomGeneratorSeed (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t g, unsigned long long seed)
{
   CR_ENTER("generator=%p seed=%llu", (void *)g, seed);
   CR_GEN(g);
   CR_CHECK(!cr_is_sobol(g->type), CURAND_STATUS_TYPE_ERROR);
   /* MTGP32: only a different seed restarts, at the stream's start; a
    * device generator's once its states are seeded never does (its stream
    * goes on with the first seed: measured on an H200, cuRAND 10.4) */
   if (g->type == CURAND_RNG_PSEUDO_MTGP32) {
      if (seed != g->seed && !g->mtgp_started)
         restart_from_start(g);
      g->seed = seed;
      return CURAND_STATUS_SUCCESS;
   }
   /* MT19937: a different seed restarts at the stream's start (NVIDIA's
    * host generator) */
   if (g->type == CURAND_RNG_PSEUDO_MT19937) {
      if (seed != g->seed)
         restart_from_start(g);
      g->seed = seed;
      return CURAND_STATUS_SUCCESS;
   }
   g->seed = seed;
   restart_here(g);
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandSetGeneratorOffset (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandSetGeneratorOffset(curandGenerator_t g, unsigned long long offset)
{
   CR_ENTER("generator=%p offset=%llu", (void *)g, offset);
   CR_GEN(g);
   /* NVIDIA's MTGP32 and MT19937 refuse every offset, 0 included */
   CR_CHECK(g->type != CURAND_RNG_PSEUDO_MTGP32 && g->type != CURAND_RNG_PSEUDO_MT19937, CURAND_STATUS_TYPE_ERROR);
   g->offset = offset;
   g->pos = offset;
   g->fresh = true;
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandSetGeneratorOrdering (libcurand.so.10) ==== */
/* What an H200 accepts: XORWOW every pseudo ordering, MRG32k3a and Philox
 * all but SEEDED (CURAND_STATUS_OUT_OF_RANGE), nothing else.  LEGACY and
 * BEST are DEFAULT's sequence for XORWOW and Philox, DYNAMIC for MRG32k3a
 * and Philox; DYNAMIC is the device's own choice (documented as varying
 * between GPUs) and here it is DEFAULT's.  MRG32k3a's LEGACY interleaves
 * 4096 subsequences.  XORWOW's SEEDED sequence seeds each subsequence
 * apart (work.h). */
CR_EXPORT curandStatus_t curandSetGeneratorOrdering(curandGenerator_t g, curandOrdering_t order)
{
   CR_ENTER("generator=%p order=%d", (void *)g, (int)order);
   CR_GEN(g);
   /* Sobol: QUASI_DEFAULT only, and setting it keeps the position */
   if (cr_is_sobol(g->type)) {
      CR_CHECK(order == CURAND_ORDERING_QUASI_DEFAULT, CURAND_STATUS_OUT_OF_RANGE);
      return CURAND_STATUS_SUCCESS;
   }
   CR_CHECK(order >= CURAND_ORDERING_PSEUDO_BEST && order <= CURAND_ORDERING_PSEUDO_DYNAMIC,
            CURAND_STATUS_OUT_OF_RANGE);
   /* MTGP32: BEST, DEFAULT (one sequence) and LEGACY (64 states, not
    * 192), and for a device generator DYNAMIC (DEFAULT's sequence, as on an
    * H200, whose host generator refuses it); another one than the current
    * restarts the stream at its start.  (An H200's device generator
    * changed to LEGACY after generating wrote nothing in its next call, and
    * back to DEFAULT went on elsewhere in the stream: not reproduced.) */
   if (g->type == CURAND_RNG_PSEUDO_MTGP32) {
      CR_CHECK(order != CURAND_ORDERING_PSEUDO_SEEDED && (order != CURAND_ORDERING_PSEUDO_DYNAMIC || !g->host),
               CURAND_STATUS_OUT_OF_RANGE);
      if (order == CURAND_ORDERING_PSEUDO_DYNAMIC)
         order = CURAND_ORDERING_PSEUDO_DEFAULT;
      if (order != g->ordering)
         restart_from_start(g);
      g->ordering = order;
      g->nthreads = order == CURAND_ORDERING_PSEUDO_LEGACY ? RNG_MTGP_LEGACY_STATES : RNG_MTGP_STATES;
      return CURAND_STATUS_SUCCESS;
   }
   /* MT19937: DEFAULT and LEGACY (one sequence; NVIDIA's host generator
    * refuses the others), and for a device generator BEST (DEFAULT's
    * sequence, as on an H200); another one than the current restarts the
    * stream at its start, as a new seed does */
   if (g->type == CURAND_RNG_PSEUDO_MT19937) {
      if (order == CURAND_ORDERING_PSEUDO_BEST && !g->host)
         order = CURAND_ORDERING_PSEUDO_DEFAULT;
      CR_CHECK(order == CURAND_ORDERING_PSEUDO_DEFAULT || order == CURAND_ORDERING_PSEUDO_LEGACY,
               CURAND_STATUS_OUT_OF_RANGE);
      if (order != g->ordering)
         restart_from_start(g);
      g->ordering = order;
      return CURAND_STATUS_SUCCESS;
   }
   CR_CHECK(order != CURAND_ORDERING_PSEUDO_SEEDED || g->type == CURAND_RNG_PSEUDO_XORWOW,
            CURAND_STATUS_OUT_OF_RANGE);
   g->ordering = order;
   restart_here(g);
   /* MRG32k3a's LEGACY sequence interleaves 4096 subsequences, not 81920
    * (the same 2^76 apart; measured) */
   if (g->type == CURAND_RNG_PSEUDO_MRG32K3A)
      g->nthreads = order == CURAND_ORDERING_PSEUDO_LEGACY ? RNG_MRG_LEGACY_THREADS : RNG_MRG_THREADS;
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandSetQuasiRandomGeneratorDimensions (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t g, unsigned int num_dimensions)
{
   CR_ENTER("generator=%p num_dimensions=%u", (void *)g, num_dimensions);
   CR_GEN(g);
   CR_CHECK(cr_is_sobol(g->type), CURAND_STATUS_TYPE_ERROR);
   CR_CHECK(num_dimensions >= 1 && num_dimensions <= 20000, CURAND_STATUS_OUT_OF_RANGE);
   /* the position (points of each dimension) is kept, as NVIDIA's does */
   g->dims = num_dimensions;
   return CURAND_STATUS_SUCCESS;
}

/* ==== curandGenerateSeeds (libcurand.so.10) ==== */
CR_EXPORT curandStatus_t curandGenerateSeeds(curandGenerator_t g)
{
   CR_ENTER("generator=%p", (void *)g);
   CR_GEN(g);
   if (cr_is_sobol(g->type))
      return CURAND_STATUS_SUCCESS;
   if (g->type == CURAND_RNG_PSEUDO_MTGP32) {
      /* NVIDIA's host generator seeds MTGP32 again: its stream starts
       * over; its device generator, once seeded, goes on (an H200) */
      if (!g->mtgp_started)
         restart_from_start(g);
      return cr_mtgp_run(g, CR_U32, NULL, 0, 0, 0);
   }
   if (g->type == CURAND_RNG_PSEUDO_MT19937) {   /* seeds again, as NVIDIA's host generator */
      restart_from_start(g);
      return cr_mt_run(g, CR_U32, NULL, 0, 0, 0);
   }
   return cr_run(g, CR_U32, NULL, 0, 0, 0);
}

/* ---- the engine ---- */
/* XORWOW and MRG32k3a write a subsequence's values T apart: a pass covers
 * CR_ROUNDS rounds of the subsequences, so that what one thread writes
 * spans CR_ROUNDS pages and lines, not the whole output (on the software
 * device, where a thread runs start to end, and on the host). */
#define CR_ROUNDS 16
curandStatus_t cr_ctx_enter(curandGenerator_t g)
{
   CUcontext cur = NULL;
   if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS)
      return CURAND_STATUS_INITIALIZATION_FAILED;
   if (cur != g->ctx && cuCtxSetCurrent(g->ctx) != CUDA_SUCCESS)
      return CURAND_STATUS_INITIALIZATION_FAILED;
   return CURAND_STATUS_SUCCESS;
}

curandStatus_t cr_launch(curandGenerator_t g, CUfunction f, unsigned threads, cr_args *a)
{
   curandStatus_t s = cr_ctx_enter(g);
   if (s != CURAND_STATUS_SUCCESS)
      return s;
   void *params[] = { a };
   unsigned block = 128, grid = (threads + block - 1) / block;
   CUresult r = cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, g->stream, params, NULL);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("curand: launch of %u threads: CUresult %d", threads, (int)r);
      return CURAND_STATUS_LAUNCH_FAILURE;
   }
   return CURAND_STATUS_SUCCESS;
}

void cr_args_init(cr_args *a, curandGenerator_t g, int dist, double mean, double sd)
{
   memset(a, 0, sizeof *a);
   a->seed = g->seed;
   a->nthreads = g->nthreads;
   a->seeded = g->ordering == CURAND_ORDERING_PSEUDO_SEEDED;
   a->dist = dist;
   a->mean = mean;
   a->sd = sd;
   a->meanf = (float)mean;
   a->sdf = (float)sd;
   if (dist == CR_POISSON) {
      a->lambda = g->plambda;
      a->pmethod = g->pmethod;
      a->pknuth = g->pknuth;
      a->pshift = g->ptab.shift;
      /* inversion without sums: plen 0 */
      a->plen = cr_pm_inversion(g->pmethod) && !g->psums ? 0 : g->ptab.n;
      a->pv = g->host ? g->ptab.v : (const double *)(uintptr_t)g->ptab.dv;
      a->pk = g->host ? g->ptab.k : (const rng_u32 *)(uintptr_t)g->ptab.dk;
   }
}

curandStatus_t cr_run(curandGenerator_t g, int dist, void *out, unsigned long long n, double mean, double sd)
{
   /* the stateful generators count Box-Muller pairs as one item */
   unsigned long long items = g->state_size && dist >= CR_NORMAL && dist <= CR_LOGNORMAL_DOUBLE ? n / 2 : n;
   cr_args a;
   cr_args_init(&a, g, dist, mean, sd);
   size_t words;
   const rng_u32 *jumps = cr_jumps(g->type, &words);
   curandStatus_t s;
   if (g->fresh) {
      g->tcur = (uint32_t)(g->offset % g->nthreads);
      g->pos = g->offset;
      if (g->state_size) {
         a.m0 = g->offset;
         if (g->host) {
            a.states = g->hstates;
            a.jumps = jumps;
            for (rng_u32 t = 0; t < g->nthreads; t++)
               if (g->type == CURAND_RNG_PSEUDO_XORWOW)
                  cr_xorwow_init(&a, t);
               else
                  cr_mrg_init(&a, t);
         } else {
            a.states = (void *)(uintptr_t)g->dstates;
            a.jumps = (const rng_u32 *)(uintptr_t)g->djumps;
            if ((s = cr_launch(g, g->fn_init, g->nthreads, &a)) != CURAND_STATUS_SUCCESS)
               return s;
         }
      }
      g->fresh = false;
   }
   if (!items)
      return CURAND_STATUS_SUCCESS;
   a.out = out;
   a.items = items;
   a.tcur = g->tcur;
   a.m0 = g->pos;
   a.base = g->offset;
   if (g->host) {
      a.states = g->hstates;
      if (g->state_size)
         for (a.q0 = 0; a.q0 < items; a.q0 += (rng_u64)g->nthreads * CR_ROUNDS) {
            a.q1 = a.q0 + (rng_u64)g->nthreads * CR_ROUNDS < items ? a.q0 + (rng_u64)g->nthreads * CR_ROUNDS : items;
            for (rng_u32 t = 0; t < g->nthreads; t++)
               if (g->type == CURAND_RNG_PSEUDO_XORWOW)
                  cr_xorwow_thread(&a, t);
               else
                  cr_mrg_thread(&a, t);
         }
      else if (dist == CR_POISSON && cr_pm_stateful(a.pmethod))
         /* CURAND_DEVICE_API: a subsequence at a time (work.h) */
         for (rng_u64 k = a.m0 >> 2; k < (a.m0 + items + 3) >> 2 && k < (a.m0 >> 2) + RNG_PHILOX_THREADS; k++)
            cr_philox_pm(&a, k);
      else
         for (rng_u64 k = a.m0 >> 2; k < (a.m0 + items + 3) >> 2; k++)
            cr_philox_group(&a, k);
   } else {
      a.states = (void *)(uintptr_t)g->dstates;
      /* Philox: a thread per group of four outputs, up to a grid's worth,
       * each striding */
      unsigned long long groups = ((a.m0 + items + 3) >> 2) - (a.m0 >> 2);
      if (!g->state_size) {
         unsigned long long most = dist == CR_POISSON && cr_pm_stateful(a.pmethod) ? RNG_PHILOX_THREADS : 1u << 18;
         unsigned threads = (unsigned)(groups < most ? groups : most);
         if ((s = cr_launch(g, g->fn_gen, threads, &a)) != CURAND_STATUS_SUCCESS)
            return s;
      }
      for (a.q0 = 0; g->state_size && a.q0 < items; a.q0 += (rng_u64)g->nthreads * CR_ROUNDS) {
         a.q1 = a.q0 + (rng_u64)g->nthreads * CR_ROUNDS < items ? a.q0 + (rng_u64)g->nthreads * CR_ROUNDS : items;
         if ((s = cr_launch(g, g->fn_gen, g->nthreads, &a)) != CURAND_STATUS_SUCCESS)
            return s;
      }
   }
   /* where the next call starts: the next subsequence, the next output */
   g->tcur = (uint32_t)((g->tcur + items) % g->nthreads);
   g->pos += n;
   return CURAND_STATUS_SUCCESS;
}
