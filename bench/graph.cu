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
 *
 * A data-dependent loop of K iterations (each a kernel that bumps the array
 * and counts down, to completion), two ways:
 *   host loop  launch, copy the count back, test it on the host, again;
 *   WHILE      one graph with a conditional WHILE node whose body's kernel
 *              clears the condition when the count reaches 0.
 * Reports host loop / WHILE per iteration (higher is better).
 */
#include "bench.h"

__global__ void bump(int *p) { p[threadIdx.x] += 1; }

/* one loop iteration: bump, count down; the WHILE form clears its condition */
__global__ void step_host(int *p, int *left)
{
   p[threadIdx.x] += 1;
   __syncthreads();
   if (threadIdx.x == 0)
      --*left;
}

__global__ void step_cond(int *p, int *left, cudaGraphConditionalHandle h)
{
   p[threadIdx.x] += 1;
   __syncthreads();
   if (threadIdx.x == 0 && --*left == 0)
      cudaGraphSetConditional(h, 0);
}

/* host loop / WHILE node per iteration, for K iterations; the array
 * (expect, updated) is checked after each way */
static int loop_row(int *d, int T, int K, cudaStream_t s, int *expect)
{
   const int reps = 9;
   int *left;
   BENCH_CHECK(cudaMalloc(&left, sizeof(int)));
   cudaGraph_t g;
   BENCH_CHECK(cudaGraphCreate(&g, 0));
   cudaGraphConditionalHandle h;
   BENCH_CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
   cudaGraphNodeParams cp = { cudaGraphNodeTypeConditional };
   cp.conditional.handle = h;
   cp.conditional.type = cudaGraphCondTypeWhile;
   cp.conditional.size = 1;
   cudaGraphNode_t node;
   BENCH_CHECK(cudaGraphAddNode(&node, g, NULL, NULL, 0, &cp));
   void *args[] = { &d, &left, &h };
   cudaKernelNodeParams kp = {};
   kp.func = (void *)step_cond;
   kp.gridDim = dim3(1);
   kp.blockDim = dim3(T);
   kp.kernelParams = args;
   BENCH_CHECK(cudaGraphAddKernelNode(&node, cp.conditional.phGraph_out[0], NULL, 0, &kp));
   cudaGraphExec_t x;
   BENCH_CHECK(cudaGraphInstantiate(&x, g, 0));
   double t_host[reps], t_while[reps];
   for (int r = -1; r < reps; r++) {   /* -1: warm-up */
      double t0 = now_s();
      int n = K;
      BENCH_CHECK(cudaMemcpyAsync(left, &n, sizeof(int), cudaMemcpyHostToDevice, s));
      do {
         step_host<<<1, T, 0, s>>>(d, left);
         BENCH_CHECK(cudaMemcpyAsync(&n, left, sizeof(int), cudaMemcpyDeviceToHost, s));
         BENCH_CHECK(cudaStreamSynchronize(s));
      } while (n > 0);
      double t1 = now_s();
      n = K;
      BENCH_CHECK(cudaMemcpyAsync(left, &n, sizeof(int), cudaMemcpyHostToDevice, s));
      BENCH_CHECK(cudaGraphLaunch(x, s));
      BENCH_CHECK(cudaStreamSynchronize(s));
      double t2 = now_s();
      *expect += 2 * K;
      int hv[64];
      BENCH_CHECK(cudaMemcpy(hv, d, T * sizeof(int), cudaMemcpyDeviceToHost));
      for (int i = 0; i < T; i++)
         if (hv[i] != *expect) {
            fprintf(stderr, "graph.cu: loop: element %d is %d, expected %d\n", i, hv[i], *expect);
            return 1;
         }
      if (r >= 0) {
         t_host[r] = (t1 - t0) / K;
         t_while[r] = (t2 - t1) / K;
      }
   }
   double th = median(t_host, reps), tw = median(t_while, reps);
   char v[64], ref[64];
   snprintf(ref, sizeof(ref), "host loop: %.3f us per iteration", th * 1e6);
   snprintf(v, sizeof(v), "WHILE node: %.3f us per iteration", tw * 1e6);
   row("data-dependent loop: WHILE node vs host loop", v, ref, th / tw,
       "host-loop time / WHILE time, to completion; higher is better");
   BENCH_CHECK(cudaGraphExecDestroy(x));
   BENCH_CHECK(cudaGraphDestroy(g));
   BENCH_CHECK(cudaFree(left));
   return 0;
}

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
   if (loop_row(d, T, K, s, &expect))
      return 1;
   printf("NOTE chain of %d kernels x %d repetitions, medians; the loops %d iterations\n", K, reps, K);
   BENCH_CHECK(cudaGraphExecDestroy(x));
   BENCH_CHECK(cudaGraphDestroy(g));
   BENCH_CHECK(cudaStreamDestroy(s));
   BENCH_CHECK(cudaFree(d));
   return 0;
}
