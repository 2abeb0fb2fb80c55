/*
 * curand_mtgp32_single.cu — cuRAND's MTGP32 float output and seeding by
 * array: curand_mtgp32_single() and curand_mtgp32_single_specific()
 * (curand_mtgp32_kernel.h: floats in [1, 2) through the parameter set's
 * float tempering table), mixed with curand(), curand_uniform() and
 * curand_mtgp32_specific() on the same states, and the host functions
 * mtgp32_init_by_array() / mtgp32_init_by_str() (curand_mtgp32_host.h).
 *
 * Device part: NB blocks, one state each (curandMakeMTGP32KernelState,
 * seed 4321: parameter sets 0 to NB - 1), in blocks of 64 and of 256
 * threads; every thread runs the same schedule of NOPS block-wide calls
 * and writes each call's 32 bits (a float's bits).  On NVIDIA's header
 * the float functions are not MTGP's parallel step: thread x of a 1-D
 * block computes the value one further on (offset + 1 + x;
 * _specific: offset + index), stores it at word 1 + x (index) of the
 * ring rather than after the state's last value, and moves the offset on
 * as curand() does.  Where the words read overlap those stored the result
 * depends on the order the GPU's warps run in, so the schedules keep the
 * offset of every float call where they do not (checked on the host,
 * float_call_safe), and the dump runs every schedule twice.  The calls
 * after a float call read what it left in the ring (the words a curand()
 * would have written there hold what they held a round of 1024 before):
 * the interplay of the offsets is in the expected words.  A state made by
 * curandMakeMTGP32KernelState has only its first 351 words set (NVIDIA's
 * leaves the rest of the ring as its host allocation had it), so each
 * schedule first goes once round the ring with curand() (1024 / d calls,
 * not recorded): without that the words after a float call differed
 * between two runs of NVIDIA's header (built by NVIDIA's nvcc, run through
 * metalcuda, whose host allocations differ).  Every float is also checked to lie
 * in [1, 2) and every uniform in (0, 1].
 *
 * Host part: mtgp32_init_by_array with arrays of 4, 1, 0 and 500 words
 * (more than the 351 of the state), mtgp32_init_by_str with an ASCII
 * string, one with bytes above 127 and the empty string, on parameter sets
 * 0, 7 and 199: the 351 words and the return values.
 *
 * Expected: an H200 running this program built by NVIDIA's nvcc against
 * NVIDIA's headers (`curand_mtgp32_single --dump
 * tests/libs/curand_mtgp32_single_expected.h`, the same file from both
 * runtimes); it passes natively (H200, both runtimes, 161 checks,
 * 2026-12-04) and through metalcuda (NAME, NAME.static: NVIDIA's header
 * translated; NAME.mc: metalcuda's header).
 */
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>
#include <curand_mtgp32_host.h>
#include <curand_mtgp32_kernel.h>
#include <curand_mtgp32dc_p_11213.h>
#include "../cuda/check.h"
#include <stdio.h>
#include <string.h>

#if __has_include("curand_mtgp32_single_expected.h")
#include "curand_mtgp32_single_expected.h"
#define HAVE_EXPECTED 1
#else
#define HAVE_EXPECTED 0
#endif

#define NB 3
#define NCONF 2
#define NOPS 14
#define SIZE 351   /* mexp / 32 + 1 */
#define NINIT 7

enum { WORD, UNIFORM, SINGLE, SINGLE_SPEC, SPEC, SINGLE_SPEC_REV, SPEC_REV };
static const char *op_name[] = { "curand", "curand_uniform", "curand_mtgp32_single",
                                 "curand_mtgp32_single_specific(t % n)", "curand_mtgp32_specific(t % n)",
                                 "curand_mtgp32_single_specific(n - 1 - t % n)",
                                 "curand_mtgp32_specific(n - 1 - t % n)" };

struct schedule {
   int threads, n;   /* block size; the count the _specific calls pass */
   int op[NOPS];
};
/* block 256: the float calls at offsets 256 to 675 (pos <= 93 for the
 * sets used); block 64: at 64 to 867.  With n = 200 in a block of 256,
 * threads t and t + 200 share an index: curand_mtgp32_specific(t % n)
 * would have two threads of index 0 move the offset (at once, on a GPU),
 * so the block of 256 uses the reversed indices, whose 0 is thread 199's. */
static const schedule conf[NCONF] = {
   { 64, 64, { WORD, SINGLE, SINGLE, UNIFORM, SINGLE_SPEC_REV, SPEC_REV, SINGLE, SINGLE_SPEC, WORD, UNIFORM, SINGLE,
               SPEC, WORD, SINGLE } },
   { 256, 200, { WORD, SINGLE, SINGLE, UNIFORM, WORD, SINGLE_SPEC, SINGLE_SPEC_REV, SPEC_REV, UNIFORM, WORD, SINGLE,
                 WORD, WORD, SPEC_REV } },
};

__global__ void run_schedule(curandStateMtgp32_t *st, schedule sc, unsigned int *out)
{
   curandStateMtgp32_t *s = st + blockIdx.x;
   unsigned int t = threadIdx.x, *o = out + (size_t)blockIdx.x * NOPS * sc.threads + t;
   unsigned char n = (unsigned char)sc.n, i = (unsigned char)(t % sc.n), r = (unsigned char)(sc.n - 1 - t % sc.n);
   /* once round the ring: every word written (see the file's header) */
   for (unsigned int k = 0; k < MTGP32_STATE_SIZE / blockDim.x; k++)
      curand(s);
   for (int k = 0; k < NOPS; k++) {
      unsigned int v = 0;
      switch (sc.op[k]) {
      case WORD: v = curand(s); break;
      case UNIFORM: v = __float_as_uint(curand_uniform(s)); break;
      case SINGLE: v = __float_as_uint(curand_mtgp32_single(s)); break;
      case SINGLE_SPEC: v = __float_as_uint(curand_mtgp32_single_specific(s, i, n)); break;
      case SPEC: v = curand_mtgp32_specific(s, i, n); break;
      case SINGLE_SPEC_REV: v = __float_as_uint(curand_mtgp32_single_specific(s, r, n)); break;
      case SPEC_REV: v = curand_mtgp32_specific(s, r, n); break;
      }
      o[(size_t)k * sc.threads] = v;
   }
}

/* The offset before each call, and whether a float call there reads only
 * words it does not store (NVIDIA's header: reads from offset + 1 to
 * offset + d + pos, stores at 1 to d; _specific: offset to
 * offset + n - 1 + pos and 0 to n - 1). */
static bool float_call_safe(unsigned int off, unsigned int lo, unsigned int hi, unsigned int pos)
{
   for (unsigned int w = lo; w <= hi + pos; w++) {
      unsigned int p = (off + w) & MTGP32_STATE_MASK;
      if (p >= lo && p <= hi)
         return false;
   }
   return true;
}

static unsigned int dev_got[NCONF][NB][NOPS][256];
static unsigned int init_got[NINIT][SIZE];
static int init_ret[NINIT];

static void run_device(curandStateMtgp32_t *st, mtgp32_kernel_params_t *kp, unsigned int *dout)
{
   for (int c = 0; c < NCONF; c++) {
      const schedule &sc = conf[c];
      unsigned int d = (unsigned int)sc.threads;
      for (int b = 0; b < NB; b++) {
         unsigned int off = 0, pos = (unsigned int)mtgp32dc_params_fast_11213[b].pos;
         for (int k = 0; k < NOPS; k++) {
            int op = sc.op[k];
            unsigned int step = op == WORD || op == UNIFORM || op == SINGLE ? d : (unsigned int)sc.n;
            if (op == SINGLE && !float_call_safe(off, 1, d, pos))
               printf("   schedule %d op %d: offset %u overlaps\n", c, k, off), CHECK(false);
            if ((op == SINGLE_SPEC || op == SINGLE_SPEC_REV) && !float_call_safe(off, 0, (unsigned)sc.n - 1, pos))
               printf("   schedule %d op %d: offset %u overlaps\n", c, k, off), CHECK(false);
            off = (off + step) & MTGP32_STATE_MASK;
         }
      }
      CHECK_INT(curandMakeMTGP32KernelState(st, mtgp32dc_params_fast_11213, kp, NB, 4321), CURAND_STATUS_SUCCESS);
      CHECK_CUDA(cudaMemset(dout, 0, sizeof dev_got[0]));
      run_schedule<<<NB, sc.threads>>>(st, sc, dout);
      CHECK_CUDA(cudaGetLastError());
      static unsigned int tmp[NB * NOPS * 256];
      CHECK_CUDA(cudaMemcpy(tmp, dout, sizeof(unsigned int) * NB * NOPS * d, cudaMemcpyDeviceToHost));
      for (int b = 0; b < NB; b++)
         for (int k = 0; k < NOPS; k++)
            for (unsigned int t = 0; t < d; t++)
               dev_got[c][b][k][t] = tmp[((size_t)b * NOPS + k) * d + t];
   }
}

static void run_init(void)
{
   unsigned int a4[4] = { 0x123, 0x234, 0x345, 0x456 }, a1[1] = { 0xdeadbeef }, a500[500];
   for (int i = 0; i < 500; i++)
      a500[i] = 2654435761u * (unsigned int)i ^ 0x5bd1e995u;
   unsigned char s1[] = "MTGP32 seeded by a string", s2[] = "caf\xc3\xa9 \xff\x80", s3[] = "";
   memset(init_got, 0, sizeof init_got);
   init_ret[0] = mtgp32_init_by_array(init_got[0], &mtgp32dc_params_fast_11213[0], a4, 4);
   init_ret[1] = mtgp32_init_by_array(init_got[1], &mtgp32dc_params_fast_11213[7], a1, 1);
   init_ret[2] = mtgp32_init_by_array(init_got[2], &mtgp32dc_params_fast_11213[199], a4, 0);
   init_ret[3] = mtgp32_init_by_array(init_got[3], &mtgp32dc_params_fast_11213[0], a500, 500);
   init_ret[4] = mtgp32_init_by_str(init_got[4], &mtgp32dc_params_fast_11213[0], s1);
   init_ret[5] = mtgp32_init_by_str(init_got[5], &mtgp32dc_params_fast_11213[7], s2);
   init_ret[6] = mtgp32_init_by_str(init_got[6], &mtgp32dc_params_fast_11213[199], s3);
}

static void dump(FILE *f)
{
   fprintf(f, "/* curand_mtgp32_single_expected.h — written by `curand_mtgp32_single --dump FILE`\n"
              " * on an NVIDIA GPU (NVIDIA's nvcc, curand_mtgp32_kernel.h, curand_mtgp32_host.h):\n"
              " * [schedule][block][call][thread] words; the init cases' 351 words and returns */\n");
   fprintf(f, "static const unsigned int cms_dev[%d][%d][%d][256] = {\n", NCONF, NB, NOPS);
   for (int c = 0; c < NCONF; c++) {
      fprintf(f, "  {\n");
      for (int b = 0; b < NB; b++) {
         fprintf(f, "    {\n");
         for (int k = 0; k < NOPS; k++) {
            fprintf(f, "      { /* %s */", op_name[conf[c].op[k]]);
            for (int t = 0; t < conf[c].threads; t++)
               fprintf(f, "%s0x%08x,", t % 8 == 0 ? "\n        " : " ", dev_got[c][b][k][t]);
            fprintf(f, "\n      },\n");
         }
         fprintf(f, "    },\n");
      }
      fprintf(f, "  },\n");
   }
   fprintf(f, "};\nstatic const unsigned int cms_init[%d][%d] = {\n", NINIT, SIZE);
   for (int i = 0; i < NINIT; i++) {
      fprintf(f, "  {");
      for (int w = 0; w < SIZE; w++)
         fprintf(f, "%s0x%08x,", w % 8 == 0 ? "\n    " : " ", init_got[i][w]);
      fprintf(f, "\n  },\n");
   }
   fprintf(f, "};\nstatic const int cms_init_ret[%d] = {", NINIT);
   for (int i = 0; i < NINIT; i++)
      fprintf(f, " %d,", init_ret[i]);
   fprintf(f, " };\n");
}

int main(int argc, char **argv)
{
   check_begin("curand_mtgp32_single");
   mtgp32_kernel_params_t *kp;
   curandStateMtgp32_t *st;
   unsigned int *dout;
   CHECK_CUDA(cudaMalloc(&kp, sizeof *kp));
   CHECK_CUDA(cudaMalloc(&st, NB * sizeof *st));
   CHECK_CUDA(cudaMalloc(&dout, sizeof dev_got[0]));
   CHECK_INT(curandMakeMTGP32Constants(mtgp32dc_params_fast_11213, kp), CURAND_STATUS_SUCCESS);
   run_device(st, kp, dout);
   run_init();

   /* what holds for any implementation: the ranges */
   for (int c = 0; c < NCONF; c++)
      for (int b = 0; b < NB; b++)
         for (int k = 0; k < NOPS; k++) {
            int op = conf[c].op[k];
            if (op == WORD || op == SPEC || op == SPEC_REV)
               continue;
            int bad = 0;
            for (int t = 0; t < conf[c].threads; t++) {
               float f = bits_f32(dev_got[c][b][k][t]);
               bad += op == UNIFORM ? !(f > 0.0f && f <= 1.0f) : !(f >= 1.0f && f < 2.0f);
            }
            if (!CHECK(bad == 0))
               printf("   block %d of %d, call %d (%s): %d values out of range\n", b, conf[c].threads, k,
                      op_name[op], bad);
         }

   if (argc > 2 && strcmp(argv[1], "--dump") == 0) {
      /* the schedules again: the same words (no dependence on timing) */
      static unsigned int first[NCONF][NB][NOPS][256];
      memcpy(first, dev_got, sizeof first);
      run_device(st, kp, dout);
      CHECK(memcmp(first, dev_got, sizeof first) == 0);
      FILE *f = fopen(argv[2], "w");
      if (CHECK(f != NULL)) {
         dump(f);
         fclose(f);
      }
      return check_end();
   }
#if HAVE_EXPECTED
   for (int c = 0; c < NCONF; c++)
      for (int b = 0; b < NB; b++)
         for (int k = 0; k < NOPS; k++) {
            char what[120];
            snprintf(what, sizeof what, "block %d of %d, call %d (%s)", b, conf[c].threads, k,
                     op_name[conf[c].op[k]]);
            CHECK_ARRAY_U32(what, dev_got[c][b][k], cms_dev[c][b][k], (size_t)conf[c].threads);
         }
   for (int i = 0; i < NINIT; i++) {
      char what[60];
      snprintf(what, sizeof what, "init case %d", i);
      CHECK_ARRAY_U32(what, init_got[i], cms_init[i], SIZE);
      CHECK_INT(init_ret[i], cms_init_ret[i]);
   }
#else
   CHECK(!"curand_mtgp32_single_expected.h is missing (write it with --dump on an NVIDIA GPU)");
#endif
   CHECK_CUDA(cudaFree(dout));
   CHECK_CUDA(cudaFree(st));
   CHECK_CUDA(cudaFree(kp));
   return check_end();
}
