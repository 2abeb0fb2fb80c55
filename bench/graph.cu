/*
 * graph.cu — the host cost of replaying a graph against launching the same
 * kernels one by one.
 *
 * A chain of K = 64 dependent kernel launches (each adds 1 to every element
 * of a small array: the result proves the order) is issued two ways, in
 * each repetition (9, after a warm-up):
 *   launches   K <<<>>> launches on a stream: host time of the calls, per kernel;
 *   graph      one cudaGraphLaunch of the same chain, captured once:
 *              host time of the call, per kernel node;
 * both followed by a synchronisation timed separately (per kernel, the
 * time to run to completion).  Reports launches / graph (host time per
 * kernel; issue 18's target: at least 3) and the same for launch +
 * completion.  The array is checked after every repetition.
 */
#include "bench.h"

__global__ void bump(int *p) { p[threadIdx.x] += 1; }

int main(int argc, char **argv)
{
   const int reps = 9, K = argc > 1 ? atoi(argv[1]) : 64, T = 64;
   print_device();
   int *d;
   BENCH_CHECK(cudaMalloc(&d, T * sizeof(int)));
   BENCH_CHECK(cudaMemset(d, 0, T * sizeof(int)));
   cudaStream_t s;
   BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

   cudaGraph_t g;
   BENCH_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   for (int k = 0; k < K; k++)
      bump<<<1, T, 0, s>>>(d);
   BENCH_CHECK(cudaStreamEndCapture(s, &g));
   cudaGraphExec_t x;
   BENCH_CHECK(cudaGraphInstantiate(&x, g, 0));

   for (int w = 0; w < 20; w++) {   /* warm-up: translation, first launches */
      for (int k = 0; k < K; k++)
         bump<<<1, T, 0, s>>>(d);
      BENCH_CHECK(cudaGraphLaunch(x, s));
   }
   BENCH_CHECK(cudaStreamSynchronize(s));
   int expect = 40 * K;

   double t_launch[reps], t_ldrain[reps], t_graph[reps], t_gdrain[reps];
   for (int r = 0; r < reps; r++) {
      double t0 = now_s();
      for (int k = 0; k < K; k++)
         bump<<<1, T, 0, s>>>(d);
      double t1 = now_s();
      BENCH_CHECK(cudaStreamSynchronize(s));
      double t2 = now_s();
      BENCH_CHECK(cudaGraphLaunch(x, s));
      double t3 = now_s();
      BENCH_CHECK(cudaStreamSynchronize(s));
      double t4 = now_s();
      expect += 2 * K;
      int h[T];
      BENCH_CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
      for (int i = 0; i < T; i++)
         if (h[i] != expect) {
            fprintf(stderr, "graph.cu: element %d is %d, expected %d\n", i, h[i], expect);
            return 1;
         }
      t_launch[r] = (t1 - t0) / K;
      t_ldrain[r] = (t2 - t0) / K;
      t_graph[r] = (t3 - t2) / K;
      t_gdrain[r] = (t4 - t2) / K;
   }
   double l = median(t_launch, reps), ld = median(t_ldrain, reps);
   double gr = median(t_graph, reps), gd = median(t_gdrain, reps);
   char v[64], ref[64];
   snprintf(ref, sizeof(ref), "launch: %.3f us per kernel", l * 1e6);
   snprintf(v, sizeof(v), "graph: %.3f us per kernel", gr * 1e6);
   row("graph replay vs launches, host time per kernel", v, ref, l / gr,
       "launch time / replay time; higher is better (target >= 3)");
   snprintf(ref, sizeof(ref), "launch: %.3f us per kernel", ld * 1e6);
   snprintf(v, sizeof(v), "graph: %.3f us per kernel", gd * 1e6);
   row("graph replay vs launches, to completion", v, ref, ld / gd, "higher is better");
   printf("NOTE chain of %d kernels x %d repetitions, medians\n", K, reps);
   BENCH_CHECK(cudaGraphExecDestroy(x));
   BENCH_CHECK(cudaGraphDestroy(g));
   BENCH_CHECK(cudaStreamDestroy(s));
   BENCH_CHECK(cudaFree(d));
   return 0;
}
