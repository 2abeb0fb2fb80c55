/*
 * mtgp32.c — cuRAND's MTGP32 generator (CURAND_RNG_PSEUDO_MTGP32): its
 * parameter sets, and its calls (mtgp.h's restart and generation, kernels
 * on the device or the same code in a loop on the host).
 *
 * Parameters: the 200 sets mtgp32dc_params_fast_11213 of Saito and
 * Matsumoto's MTGP (Hiroshima University), which cuRAND uses, read at build
 * time from an installed CUDA toolkit's curand_mtgp32dc_p_11213.h by
 * tools/gen_mtgp_table.py (pos, sh1, sh2, the mask and the four basis rows
 * of each sixteen-entry table); the tables are expanded here, entry k the
 * xor of the rows of the bits of k, as MTGP defines them.  cuRAND's host
 * API runs 192 states on sets 0 to 191 (64 in the LEGACY ordering).
 *
 * Behaviour (measured on NVIDIA's host generator, cuRAND 10.4.0): the
 * outputs are one stream over the calls (mtgp.h); the offset is refused
 * (CURAND_STATUS_TYPE_ERROR, whatever its value); the orderings BEST and
 * DEFAULT give the same sequence, LEGACY interleaves 64 states (sets 0 to
 * 63, seeded alike) instead of 192, SEEDED and DYNAMIC are
 * CURAND_STATUS_OUT_OF_RANGE; a seed or ordering different from the
 * current one restarts the stream at its start, the same one keeps the
 * position; curandGenerateSeeds restarts it.  The normal forms take one
 * word per output, so odd counts are fine.
 */
#include "cr.h"
#include "mtgp.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(curand);

/* the generated table (build/libs/curand/mtgp_table.c) */
extern const unsigned cr_mtgp_nparams, cr_mtgp_mask, cr_mtgp_params[];

static rng_mtgp_param *params;   /* [RNG_MTGP_STATES] */
static pthread_once_t params_once = PTHREAD_ONCE_INIT;

static void make_params(void)
{
   if (cr_mtgp_nparams < RNG_MTGP_STATES || !(params = calloc(RNG_MTGP_STATES, sizeof *params)))
      return;
   for (unsigned p = 0; p < RNG_MTGP_STATES; p++) {
      const unsigned *r = cr_mtgp_params + 11 * p;
      rng_mtgp_param *k = &params[p];
      k->pos = r[0];
      k->sh1 = r[1];
      k->sh2 = r[2];
      k->mask = cr_mtgp_mask;
      for (unsigned e = 0; e < 16; e++)
         for (unsigned b = 0; b < 4; b++)
            if (e >> b & 1) {
               k->tbl[e] ^= r[3 + b];
               k->tmp[e] ^= r[7 + b];
            }
   }
}

const void *cr_mtgp_params_words(size_t *words)
{
   pthread_once(&params_once, make_params);
   *words = params ? RNG_MTGP_STATES * sizeof *params / 4 : 0;
   return params;
}

bool cr_mtgp_available(void)
{
   size_t words;
   if (cr_mtgp_params_words(&words))
      return true;
   LOG_WARN("the MTGP32 generator is not available: its parameter sets (mtgp32dc_params_fast_11213) were not found "
            "when libcurand was built (tools/gen_mtgp_table.py reads a CUDA toolkit's "
            "include/curand_mtgp32dc_p_11213.h: install the toolkit, put its nvcc on PATH or set CUDA_HOME, or "
            "give a copy of the header as MTGP_HEADER=PATH; remove build/libs/curand/mtgp_table.*, "
            "lib/metalcuda/curand and lib/libcurand.*, make)%s", cr_mtgp_nparams ? " or they could not be allocated" : "");
   return false;
}

curandStatus_t cr_mtgp_run(curandGenerator_t g, int dist, void *out, unsigned long long n, double mean, double sd)
{
   cr_args a;
   cr_args_init(&a, g, dist, mean, sd);
   a.m0 = g->pos;
   a.items = n;
   a.out = out;
   curandStatus_t s;
   size_t words;
   if (g->host) {
      a.states = g->hstates;
      a.jumps = cr_mtgp_params_words(&words);
   } else {
      a.states = (void *)(uintptr_t)g->dstates;
      a.jumps = (const rng_u32 *)(uintptr_t)g->djumps;
   }
   if (g->fresh) {
      if (g->host)
         for (rng_u32 t = 0; t < g->nthreads; t++)
            cr_mtgp_init(&a, t);
      else if ((s = cr_launch(g, g->fn_init, g->nthreads, &a)) != CURAND_STATUS_SUCCESS)
         return s;
      g->fresh = false;
      g->mtgp_started = !g->host;
   }
   if (!n)
      return CURAND_STATUS_SUCCESS;
   if (g->host)
      for (rng_u32 t = 0; t < g->nthreads; t++)
         cr_mtgp_thread(&a, t);
   else if ((s = cr_launch(g, g->fn_gen, g->nthreads, &a)) != CURAND_STATUS_SUCCESS)
      return s;
   g->pos += n;
   return CURAND_STATUS_SUCCESS;
}
