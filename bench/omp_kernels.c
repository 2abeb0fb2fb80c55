/*
 * omp_kernels.c — the computations of kernels.cu in plain C with OpenMP,
 * on the same cores: the reference metalcuda's software device is measured
 * against (bench/kernels.sh).  Built with `cc -std=c11 -O2 -fopenmp`: no
 * -march, as the software device's kernels get none either.  Threads: the
 * OpenMP default (one per CPU) unless OMP_NUM_THREADS says otherwise.
 *
 *   omp_kernels KERNEL [REPS]      KERNEL: saxpy stencil sgemm reduce shfl hist saxpy64
 *
 * Each is the ordinary C form of the same algorithm, as one would write it
 * for a CPU: a parallel loop over the elements (SAXPY, stencil), over
 * 16 x 16 output tiles with the same k order (SGEMM), a reduction clause
 * (sums), per-thread private bins merged with atomics (histogram).  Timing
 * as in kernels.cu: one warm-up run, then the median of REPS runs, host
 * wall clock; the last run's output is checked (kernels.h).  Prints
 * "TIME KERNEL <median s>", or why the result is wrong and exits 1.
 */
#define _POSIX_C_SOURCE 200809L
#include "kernels.h"

#include <omp.h>

static void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
#pragma omp parallel for schedule(static)
   for (int i = 0; i < n; i++)
      y[i] = a * x[i] + y[i];
}

static void saxpy64(size_t n, float a, const float *restrict x, float *restrict y)
{
#pragma omp parallel for schedule(static)
   for (size_t i = 0; i < n; i++)
      y[i] = a * x[i] + y[i];
}

static void stencil5(int n, float c0, float c1, const float *restrict in, float *restrict out)
{
#pragma omp parallel for schedule(static)
   for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
         int p = i * n + j;
         out[p] = c0 * in[p] + c1 * (in[p - n] + in[p + n] + in[p - 1] + in[p + 1]);
      }
}

/* 16 x 16 tiles of C, each accumulated over k in increasing order (as the
 * CUDA kernel does), the innermost loop along a row of B and C. */
static void sgemm_tiled(int n, const float *restrict A, const float *restrict B, float *restrict C)
{
   int nt = n / KB_TILE;
#pragma omp parallel for schedule(static)
   for (int tile = 0; tile < nt * nt; tile++) {
      int r0 = tile / nt * KB_TILE, c0 = tile % nt * KB_TILE;
      float acc[KB_TILE][KB_TILE] = {{0}};
      for (int k = 0; k < n; k++)
         for (int i = 0; i < KB_TILE; i++) {
            float a = A[(r0 + i) * n + k];
            const float *b = B + k * n + c0;
            for (int j = 0; j < KB_TILE; j++)
               acc[i][j] += a * b[j];
         }
      for (int i = 0; i < KB_TILE; i++)
         for (int j = 0; j < KB_TILE; j++)
            C[(r0 + i) * n + c0 + j] = acc[i][j];
   }
}

static uint32_t reduce_u32(int n, const uint32_t *in)
{
   uint32_t s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
   for (int i = 0; i < n; i++)
      s += in[i];
   return s;
}

/* Float sum in two levels of chunks: CHUNK consecutive elements summed in
 * a float, CHUNK such sums in another float, added to the thread's float
 * partial, which the reduction clause combines.  (One float running over
 * 8M elements would lose most of its accuracy; the chunks keep every term
 * within CHUNK + CHUNK + n / CHUNK^2 + threads additions of the result,
 * sum_depth, about as deep as the GPU kernels' tree.) */
enum { CHUNK = 256 };

static float reduce_f32(int n, const float *in)
{
   float s = 0.0f;
#pragma omp parallel for schedule(static) reduction(+ : s)
   for (int g = 0; g < n; g += CHUNK * CHUNK) {
      float gs = 0.0f;
      int ge = n - g > CHUNK * CHUNK ? g + CHUNK * CHUNK : n;
      for (int c = g; c < ge; c += CHUNK) {
         float cs = 0.0f;
         int e = ge - c > CHUNK ? c + CHUNK : ge;
         for (int i = c; i < e; i++)
            cs += in[i];
         gs += cs;
      }
      s += gs;
   }
   return s;
}

static double sum_depth(int n)
{
   return 2.0 * CHUNK + (double)(n + CHUNK * CHUNK - 1) / (CHUNK * CHUNK) + omp_get_max_threads();
}

/* Per-thread bins (the CPU's counterpart of per-block shared bins), then
 * added to the shared bins with atomics. */
static void hist256(int nbytes, const uint8_t *in, uint32_t *hist)
{
#pragma omp parallel
   {
      uint32_t h[256] = {0};
#pragma omp for schedule(static)
      for (int i = 0; i < nbytes; i++)
         h[in[i]]++;
      for (int b = 0; b < 256; b++) {
#pragma omp atomic
         hist[b] += h[b];
      }
   }
}

/* ---- the harness ---- */

static int reps;
static double *times;

#define TIMED(reset, body)                                                                                   \
   do {                                                                                                      \
      reset;                                                                                                 \
      body; /* warm-up */                                                                                   \
      for (int r_ = 0; r_ < reps; r_++) {                                                                    \
         reset;                                                                                              \
         double t0_ = now_s();                                                                               \
         body;                                                                                               \
         times[r_] = now_s() - t0_;                                                                          \
      }                                                                                                      \
   } while (0)

static int run_saxpy_as(int wide)
{
   const int n = KB_SAXPY_N;
   float *x = kb_xmalloc(n * sizeof(float)), *y0 = kb_xmalloc(n * sizeof(float)), *y = kb_xmalloc(n * sizeof(float));
   kb_fill_sym(x, n, 1);
   kb_fill_sym(y0, n, 2);
   if (wide)
      TIMED(memcpy(y, y0, n * sizeof(float)), saxpy64((size_t)n, KB_SAXPY_A, x, y));
   else
      TIMED(memcpy(y, y0, n * sizeof(float)), saxpy(n, KB_SAXPY_A, x, y));
   int bad = kb_check_saxpy(n, KB_SAXPY_A, x, y0, y, "OpenMP");
   free(x), free(y0), free(y);
   return bad;
}

static int run_saxpy(void) { return run_saxpy_as(0); }
static int run_saxpy64(void) { return run_saxpy_as(1); }

static int run_stencil(void)
{
   const int n = KB_STENCIL_N;
   size_t nn = (size_t)n * n;
   float *in = kb_xmalloc(nn * sizeof(float)), *out = calloc(nn, sizeof(float));
   if (!out)
      return 1;
   kb_fill_sym(in, nn, 3);
   TIMED((void)0, stencil5(n, KB_STENCIL_C0, KB_STENCIL_C1, in, out));
   int bad = kb_check_stencil(n, KB_STENCIL_C0, KB_STENCIL_C1, in, out, "OpenMP");
   free(in), free(out);
   return bad;
}

static int run_sgemm(void)
{
   const int n = KB_SGEMM_N;
   size_t nn = (size_t)n * n;
   float *A = kb_xmalloc(nn * sizeof(float)), *B = kb_xmalloc(nn * sizeof(float)), *C = kb_xmalloc(nn * sizeof(float));
   kb_fill_sym(A, nn, 4);
   kb_fill_sym(B, nn, 5);
   TIMED((void)0, sgemm_tiled(n, A, B, C));
   int bad = kb_check_sgemm(n, A, B, C, "OpenMP");
   free(A), free(B), free(C);
   return bad;
}

static int run_reduce(void)
{
   const int n = KB_REDUCE_N;
   uint32_t *in = kb_xmalloc(n * sizeof(uint32_t)), got = 0;
   kb_fill_small(in, n, 6);
   TIMED(got = 0xffffffffu, got = reduce_u32(n, in));
   int bad = kb_check_reduce(n, in, got, "OpenMP");
   free(in);
   return bad;
}

static int run_shfl(void)
{
   const int n = KB_SHFL_N;
   float *in = kb_xmalloc(n * sizeof(float)), got = 0;
   kb_fill_unit(in, n, 7);
   TIMED(got = -1.0f, got = reduce_f32(n, in));
   int bad = kb_check_sum(n, in, got, sum_depth(n), "OpenMP");
   free(in);
   return bad;
}

static int run_hist(void)
{
   const int nbytes = KB_HIST_BYTES;
   uint8_t *in = kb_xmalloc(nbytes);
   uint32_t hist[256];
   kb_fill_bytes(in, nbytes, 8);
   TIMED(memset(hist, 0, sizeof(hist)), hist256(nbytes, in, hist));
   int bad = kb_check_hist(nbytes, in, hist, "OpenMP");
   free(in);
   return bad;
}

int main(int argc, char **argv)
{
   int k = kb_parse_args(argc, argv, &reps);
   int (*const run[KB_NKERNELS])(void) = {run_saxpy, run_stencil, run_sgemm, run_reduce, run_shfl, run_hist,
                                              run_saxpy64};
   times = kb_xmalloc(reps * sizeof(double));
   if (run[k]())
      return 1;
   printf("TIME %s %.9f\n", kb_names[k], median(times, reps));
   free(times);
   return 0;
}
