/*
 * recursion.cu — recursive device functions: direct (Fibonacci, a tree
 * walk 1000 calls deep with a raised cudaLimitStackSize, root isolation by
 * recursive interval bisection), mutual (Hofstadter's Female and Male
 * sequences, even/odd), a frame's own local array that must survive the
 * recursive calls made after it is filled, a pointer to the caller's local
 * array passed down (N-Queens), and a recursion deeper than the stack,
 * which fails the launch.
 *
 * The host computes every expected value with the same C code.
 */
#include "check.h"

__host__ __device__ __noinline__ unsigned fib(unsigned n)
{
   return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* a binary tree in arrays: -1 is no child */
__host__ __device__ __noinline__ long long tree_sum(const int *left, const int *right, const int *val, int node,
                                                    int depth, int *maxdepth)
{
   if (node < 0)
      return 0;
   if (depth > *maxdepth)
      *maxdepth = depth;
   long long s = val[node];
   s += 3 * tree_sum(left, right, val, left[node], depth + 1, maxdepth);
   s += tree_sum(left, right, val, right[node], depth + 1, maxdepth);
   return s;
}

/* p(x) = x^3 - 7x + 3 (scaled integers), interval arithmetic on [lo, hi]
 * in units of 1/1024: the roots' cells, found by bisection */
struct Ival {
   long long lo, hi;
};

__host__ __device__ Ival imul(Ival a, Ival b)
{
   long long p[4] = { a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi };
   Ival r = { p[0], p[0] };
   for (int k = 1; k < 4; k++) {
      r.lo = p[k] < r.lo ? p[k] : r.lo;
      r.hi = p[k] > r.hi ? p[k] : r.hi;
   }
   return r;
}

__host__ __device__ __noinline__ int roots(long long lo, long long hi, int depth, int64_t *out, int n)
{
   Ival x = { lo, hi };
   Ival x2 = imul(x, x);                       /* scale 2^20 */
   Ival x3 = imul(x2, x);                      /* scale 2^30 */
   long long s = 1ll << 20;
   Ival p = { x3.lo - 7 * hi * s + 3 * s * 1024, x3.hi - 7 * lo * s + 3 * s * 1024 };
   if (p.lo > 0 || p.hi < 0)
      return n;                                /* no root here */
   if (hi - lo <= 1 || depth > 40) {
      out[n] = lo;
      return n + 1;
   }
   long long mid = lo + (hi - lo) / 2;
   n = roots(lo, mid, depth + 1, out, n);
   return roots(mid, hi, depth + 1, out, n);
}

/* Hofstadter: F(0) = 1, M(0) = 0, F(n) = n - M(F(n-1)), M(n) = n - F(M(n-1)) */
__host__ __device__ __noinline__ int hof_m(int n);
__host__ __device__ __noinline__ int hof_f(int n) { return n == 0 ? 1 : n - hof_m(hof_f(n - 1)); }
__host__ __device__ __noinline__ int hof_m(int n) { return n == 0 ? 0 : n - hof_f(hof_m(n - 1)); }

__host__ __device__ __noinline__ bool is_odd(unsigned n);
__host__ __device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__host__ __device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

/* the frame's own array, filled before the recursive call, read after */
__host__ __device__ __noinline__ unsigned mix_down(unsigned x, int depth)
{
   volatile unsigned buf[6];
   for (int k = 0; k < 6; k++)
      buf[k] = x * (unsigned)(k + 3) + (unsigned)depth;
   unsigned below = depth ? mix_down(x ^ (x >> 3) ^ buf[depth % 6], depth - 1) : 0;
   unsigned h = below;
   for (int k = 0; k < 6; k++)
      h = h * 31u + buf[k];
   return h;
}

/* N-Queens: the column array is the kernel's, passed down by pointer */
__host__ __device__ __noinline__ int queens(int *cols, int row, int n)
{
   if (row == n)
      return 1;
   int count = 0;
   for (int c = 0; c < n; c++) {
      bool ok = true;
      for (int r = 0; r < row; r++)
         if (cols[r] == c || cols[r] - c == r - row || cols[r] - c == row - r)
            ok = false;
      if (!ok)
         continue;
      cols[row] = c;
      count += queens(cols, row + 1, n);
   }
   return count;
}

/* seven arguments: an H200 (CUDA 13.0) runs it 41 deep in the default
 * 1 KB stack, 24 bytes a frame */
__host__ __device__ __noinline__ long long wide(const int *a, const int *b, const int *c, int node, int depth, int *md,
                                                int n)
{
   if (node >= n)
      return 0;
   if (depth > *md)
      *md = depth;
   long long s = a[0] + node;
   s += 3 * wide(a, b, c, node + 1, depth + 1, md, n);
   s += wide(a, b, c, n, depth + 1, md, n);
   return s;
}

__global__ void k_wide(const int *v, long long *sum, int *depth, int n)
{
   int md = 0;
   *sum = wide(v, v + 1, v + 2, 0, 0, &md, n);
   *depth = md;
}

__host__ __device__ __noinline__ unsigned forever(unsigned n, unsigned *sink)
{
   if (n == 0)
      return *sink;
   return forever(n - 1, sink) + n;
}

__global__ void k_fib(unsigned *out, int n)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < n)
      out[t] = fib((unsigned)t % 20u);
}

__global__ void k_tree(const int *left, const int *right, const int *val, int root, long long *sum, int *depth)
{
   int md = 0;
   *sum = tree_sum(left, right, val, root, 0, &md);
   *depth = md;
}

__global__ void k_roots(int64_t *out, int *count)
{
   *count = roots(-4096, 4096, 0, out, 0);
}

__global__ void k_mutual(int *f, int *m, unsigned *parity, int n)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < n) {
      f[t] = hof_f(t);
      m[t] = hof_m(t);
      parity[t] = is_even((unsigned)t * 7u) ? 1u : 0u;
   }
}

__global__ void k_mix(unsigned *out, int n)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t < n)
      out[t] = mix_down((unsigned)t * 2654435761u, t % 12);
}

__global__ void k_queens(int *out, int n)
{
   int cols[10];
   int t = threadIdx.x;
   cols[0] = t;
   out[t] = t < n ? queens(cols, 1, n) : -1;
}

__global__ void k_forever(unsigned *out, unsigned n)
{
   *out = forever(n, out);
}

int main(void)
{
   check_begin("recursion");

   /* direct: fib of each thread's t % 20 */
   {
      const int n = 256;
      unsigned *d, h[n];
      CHECK_CUDA(cudaMalloc(&d, n * sizeof(unsigned)));
      CHECK_CUDA(cudaMemset(d, 0xff, n * sizeof(unsigned)));
      k_fib<<<2, 128>>>(d, n);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
      unsigned want[n];
      for (int t = 0; t < n; t++)
         want[t] = fib((unsigned)t % 20u);
      CHECK_ARRAY_U32("fib", h, want, n);
      CHECK_CUDA(cudaFree(d));
   }

   /* with CUDA's default 1 KB stack: 36 calls deep (an H200 goes to 41) */
   {
      const int n = 36;
      int hv[64], *dv, *dd, depth = -1, md = 0;
      long long *ds, s = 0;
      for (int k = 0; k < 64; k++)
         hv[k] = (int)(mix32((uint32_t)k + 5u) % 100u);
      CHECK_CUDA(cudaMalloc(&dv, sizeof(hv)));
      CHECK_CUDA(cudaMalloc(&ds, sizeof(long long)));
      CHECK_CUDA(cudaMalloc(&dd, sizeof(int)));
      CHECK_CUDA(cudaMemcpy(dv, hv, sizeof(hv), cudaMemcpyHostToDevice));
      k_wide<<<1, 1>>>(dv, ds, dd, n);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(&s, ds, sizeof(s), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(&depth, dd, sizeof(int), cudaMemcpyDeviceToHost));
      CHECK_INT(s, wide(hv, hv + 1, hv + 2, 0, 0, &md, n));
      CHECK_INT(depth, n - 1);
      CHECK_CUDA(cudaFree(dv));
      CHECK_CUDA(cudaFree(ds));
      CHECK_CUDA(cudaFree(dd));
   }

   /* a tree 1000 levels deep (a chain with leaves hanging off it): needs a
    * larger stack than CUDA's default 1 KB */
   {
      const int chain = 1000, nn = 2 * chain;
      static int left[nn], right[nn], val[nn];
      for (int k = 0; k < nn; k++) {
         left[k] = right[k] = -1;
         val[k] = (int)(mix32((uint32_t)k) % 1000u);
      }
      for (int k = 0; k + 1 < chain; k++) {
         left[k] = k + 1;           /* the chain */
         right[k] = chain + k;      /* a leaf */
      }
      size_t stack = 0;
      CHECK_CUDA(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
      CHECK_INT((long long)stack, 1024);
      CHECK_CUDA(cudaDeviceSetLimit(cudaLimitStackSize, 128 * 1024));
      CHECK_CUDA(cudaDeviceGetLimit(&stack, cudaLimitStackSize));
      CHECK_INT((long long)stack, 128 * 1024);
      int *dl, *dr, *dv, *dd;
      long long *ds;
      CHECK_CUDA(cudaMalloc(&dl, sizeof(left)));
      CHECK_CUDA(cudaMalloc(&dr, sizeof(right)));
      CHECK_CUDA(cudaMalloc(&dv, sizeof(val)));
      CHECK_CUDA(cudaMalloc(&ds, sizeof(long long)));
      CHECK_CUDA(cudaMalloc(&dd, sizeof(int)));
      CHECK_CUDA(cudaMemcpy(dl, left, sizeof(left), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dr, right, sizeof(right), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dv, val, sizeof(val), cudaMemcpyHostToDevice));
      k_tree<<<1, 1>>>(dl, dr, dv, 0, ds, dd);
      CHECK_CUDA(cudaDeviceSynchronize());
      /* a kernel that ran with the 1 KB stack runs again with the new one */
      {
         unsigned *df, hf[64], wf[64];
         CHECK_CUDA(cudaMalloc(&df, sizeof(hf)));
         k_fib<<<1, 64>>>(df, 64);
         CHECK_CUDA(cudaDeviceSynchronize());
         CHECK_CUDA(cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost));
         for (int t = 0; t < 64; t++)
            wf[t] = fib((unsigned)t % 20u);
         CHECK_ARRAY_U32("fib after the stack grew", hf, wf, 64);
         CHECK_CUDA(cudaFree(df));
      }
      long long s = 0;
      int depth = 0, md = 0;
      CHECK_CUDA(cudaMemcpy(&s, ds, sizeof(s), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(&depth, dd, sizeof(depth), cudaMemcpyDeviceToHost));
      /* the host walks it with the same function, with the sum's weights
       * making the order of the calls matter */
      long long want = tree_sum(left, right, val, 0, 0, &md);
      CHECK_INT(s, want);
      CHECK_INT(depth, chain - 1);
      CHECK_INT(md, chain - 1);
      CHECK_CUDA(cudaFree(dl));
      CHECK_CUDA(cudaFree(dr));
      CHECK_CUDA(cudaFree(dv));
      CHECK_CUDA(cudaFree(ds));
      CHECK_CUDA(cudaFree(dd));
   }

   /* interval bisection: the cells of p's three roots */
   {
      int64_t *d, h[64], want[64];
      int *dc, count = 0;
      CHECK_CUDA(cudaMalloc(&d, sizeof(h)));
      CHECK_CUDA(cudaMalloc(&dc, sizeof(int)));
      k_roots<<<1, 1>>>(d, dc);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(&count, dc, sizeof(int), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
      int wn = roots(-4096, 4096, 0, want, 0);
      CHECK_INT(count, wn);
      CHECK(wn >= 3 && wn < 64);
      if (count == wn)
         CHECK_ARRAY_I64("roots", h, want, wn);
      CHECK_CUDA(cudaFree(d));
      CHECK_CUDA(cudaFree(dc));
   }

   /* mutual recursion */
   {
      const int n = 40;
      int *df, *dm, hf[n], hm[n], wf[n], wm[n];
      unsigned *dp, hp[n], wp[n];
      CHECK_CUDA(cudaMalloc(&df, sizeof(hf)));
      CHECK_CUDA(cudaMalloc(&dm, sizeof(hm)));
      CHECK_CUDA(cudaMalloc(&dp, sizeof(hp)));
      k_mutual<<<1, 64>>>(df, dm, dp, n);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(hm, dm, sizeof(hm), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(hp, dp, sizeof(hp), cudaMemcpyDeviceToHost));
      for (int t = 0; t < n; t++) {
         wf[t] = hof_f(t);
         wm[t] = hof_m(t);
         wp[t] = is_even((unsigned)t * 7u) ? 1u : 0u;
      }
      CHECK_ARRAY_I32("hofstadter F", hf, wf, n);
      CHECK_ARRAY_I32("hofstadter M", hm, wm, n);
      CHECK_ARRAY_U32("even", hp, wp, n);
      CHECK_CUDA(cudaFree(df));
      CHECK_CUDA(cudaFree(dm));
      CHECK_CUDA(cudaFree(dp));
   }

   /* each frame's own array */
   {
      const int n = 200;
      unsigned *d, h[n], want[n];
      CHECK_CUDA(cudaMalloc(&d, sizeof(h)));
      k_mix<<<2, 100>>>(d, n);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
      for (int t = 0; t < n; t++)
         want[t] = mix_down((unsigned)t * 2654435761u, t % 12);
      CHECK_ARRAY_U32("frame arrays", h, want, n);
      CHECK_CUDA(cudaFree(d));
   }

   /* the caller's array through a pointer: 8 queens, first queen per thread */
   {
      const int n = 8;
      int *d, h[32], want[32];
      CHECK_CUDA(cudaMalloc(&d, sizeof(h)));
      k_queens<<<1, 32>>>(d, n);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
      int total = 0;
      for (int t = 0; t < 32; t++) {
         int cols[10];
         cols[0] = t;
         want[t] = t < n ? queens(cols, 1, n) : -1;
         total += t < n ? h[t] : 0;
      }
      CHECK_ARRAY_I32("queens", h, want, 32);
      CHECK_INT(total, 92);
   }

   /* deeper than the stack: the launch fails (NVIDIA: cudaErrorIllegalAddress
    * or the hardware stack error, a sticky error, so this comes last) */
   {
      unsigned *d;
      CHECK_CUDA(cudaMalloc(&d, sizeof(unsigned)));
      CHECK_CUDA(cudaMemset(d, 0, sizeof(unsigned)));
      k_forever<<<1, 32>>>(d, 100000000u);
      cudaError_t e = cudaDeviceSynchronize();
      printf("stack overflow: synchronize %d (%s)\n", (int)e, cudaGetErrorName(e));
      CHECK(e != cudaSuccess);
   }
   return check_end();
}
