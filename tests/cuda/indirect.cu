/*
 * indirect.cu — calls through pointers: a __device__ table of function
 * pointers (initialised in the module), pointers chosen in a kernel,
 * stored to global memory, read back and compared, C++ virtual functions
 * on objects built on the device, and virtual functions that recurse
 * (an expression tree evaluated through its nodes' eval()).
 *
 * The host computes every expected value with the same C code.
 */
#include "check.h"

#include <new>

typedef int (*binop)(int, int);

__host__ __device__ __noinline__ int op_add(int a, int b) { return a + b; }
__host__ __device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__host__ __device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__host__ __device__ __noinline__ int op_mix(int a, int b) { return (a ^ (b << 3)) + 7; }

__device__ binop d_table[4] = { op_add, op_sub, op_mul, op_mix };

/* a table lookup per thread, and a pointer picked by a branch */
__global__ void k_table(const int *a, const int *b, int *out, int n)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   if (t >= n)
      return;
   binop f = d_table[t & 3];
   binop g = (a[t] & 1) ? op_mul : op_sub;
   out[t] = f(a[t], b[t]) + 3 * g(b[t], 5);
}

/* pointers through memory: stored, read back by another thread, compared */
__global__ void k_roundtrip(binop *slots, int *out, int n)
{
   int t = threadIdx.x;
   slots[t] = d_table[(t * 3) & 3];
   __syncthreads();
   binop p = slots[(t + 1) % n];
   int which = p == op_add ? 0 : p == op_sub ? 1 : p == op_mul ? 2 : p == op_mix ? 3 : -1;
   out[t] = which * 1000 + p(t, 2);
   out[n + t] = p == d_table[((t + 1) % n * 3) & 3] && p != nullptr;
}

struct Shape {
   int w, h;
   __device__ Shape(int w_, int h_) : w(w_), h(h_) {}
   __device__ virtual int area() const = 0;
   __device__ virtual int sides() const { return 4; }
   __device__ virtual ~Shape() {}
};

struct Rect : Shape {
   __device__ Rect(int w_, int h_) : Shape(w_, h_) {}
   __device__ int area() const override { return w * h; }
};

struct Tri : Shape {
   __device__ Tri(int w_, int h_) : Shape(w_, h_) {}
   __device__ int area() const override { return w * h / 2; }
   __device__ int sides() const override { return 3; }
};

struct Square : Rect {
   __device__ Square(int s) : Rect(s, s) {}
   __device__ int area() const override { return Rect::area() + 1; }
};

static int host_shape(int k, int *sides)
{
   int w = k % 7 + 1, h = k % 5 + 2;
   switch (k % 3) {
   case 0: *sides = 4; return w * h;
   case 1: *sides = 3; return w * h / 2;
   default: *sides = 4; return w * w + 1;
   }
}

/* objects built in place on the device (their vtables are the device's) */
__global__ void k_shapes(unsigned char *pool, int *area, int *sides, int n)
{
   int k = blockIdx.x * blockDim.x + threadIdx.x;
   if (k >= n)
      return;
   void *at = pool + (size_t)k * 64;
   int w = k % 7 + 1, h = k % 5 + 2;
   Shape *s;
   switch (k % 3) {
   case 0: s = new (at) Rect(w, h); break;
   case 1: s = new (at) Tri(w, h); break;
   default: s = new (at) Square(w); break;
   }
   __syncthreads();
   /* another thread's object, through its vtable */
   const Shape *o = reinterpret_cast<const Shape *>(pool + (size_t)k * 64);
   area[k] = o->area();
   sides[k] = o->sides();
   s->~Shape();
}

/* an expression tree whose nodes evaluate their children: recursion
 * through virtual calls */
struct Expr {
   __device__ virtual int eval(const int *x) const = 0;
};
struct Const : Expr {
   int v;
   __device__ Const(int v_) : v(v_) {}
   __device__ int eval(const int *) const override { return v; }
};
struct Var : Expr {
   int i;
   __device__ Var(int i_) : i(i_) {}
   __device__ int eval(const int *x) const override { return x[i]; }
};
struct Bin : Expr {
   const Expr *l, *r;
   int op;
   __device__ Bin(const Expr *l_, const Expr *r_, int op_) : l(l_), r(r_), op(op_) {}
   __device__ int eval(const int *x) const override
   {
      int a = l->eval(x), b = r->eval(x);
      return op == 0 ? a + b : op == 1 ? a - b : a * b;
   }
};

/* the tree of depth d over x[0..3], as the host evaluates it */
static int host_expr(int d, int seed, const int *x)
{
   if (d == 0)
      return seed % 3 == 0 ? seed % 11 : x[seed % 4];
   int a = host_expr(d - 1, seed * 3 + 1, x), b = host_expr(d - 1, seed * 5 + 2, x);
   int op = seed % 3;
   return op == 0 ? a + b : op == 1 ? a - b : a * b;
}

__device__ const Expr *build_expr(unsigned char *pool, int *used, int d, int seed)
{
   void *at = pool + (*used)++ * 64;
   if (d == 0)
      return seed % 3 == 0 ? (const Expr *)new (at) Const(seed % 11) : (const Expr *)new (at) Var(seed % 4);
   const Expr *l = build_expr(pool, used, d - 1, seed * 3 + 1);
   const Expr *r = build_expr(pool, used, d - 1, seed * 5 + 2);
   return new (at) Bin(l, r, seed % 3);
}

__global__ void k_expr(unsigned char *pool, const int *xs, int *out, int n, int depth)
{
   __shared__ const Expr *root;
   if (threadIdx.x == 0) {
      int used = 0;
      root = build_expr(pool, &used, depth, 1);
   }
   __syncthreads();
   int t = threadIdx.x;
   if (t < n)
      out[t] = root->eval(xs + 4 * t);
}

int main(void)
{
   check_begin("indirect");
   const int n = 256;
   int ha[n], hb[n], want[n], got[n];
   for (int t = 0; t < n; t++) {
      ha[t] = (int)(mix32((uint32_t)t) % 2000u) - 1000;
      hb[t] = (int)(mix32((uint32_t)t + 77u) % 200u) - 100;
   }
   int *da, *db, *dout;
   CHECK_CUDA(cudaMalloc(&da, sizeof(ha)));
   CHECK_CUDA(cudaMalloc(&db, sizeof(hb)));
   CHECK_CUDA(cudaMalloc(&dout, 2 * sizeof(got)));
   CHECK_CUDA(cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice));

   /* the table */
   {
      binop host_table[4] = { op_add, op_sub, op_mul, op_mix };
      CHECK_CUDA(cudaMemset(dout, 0xff, sizeof(got)));
      k_table<<<2, 128>>>(da, db, dout, n);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
      for (int t = 0; t < n; t++)
         want[t] = host_table[t & 3](ha[t], hb[t]) + 3 * ((ha[t] & 1) ? op_mul : op_sub)(hb[t], 5);
      CHECK_ARRAY_I32("table calls", got, want, n);
   }

   /* through memory */
   {
      const int m = 64;
      binop *slots;
      int hr[2 * m], wr[2 * m];
      CHECK_CUDA(cudaMalloc(&slots, m * sizeof(binop)));
      k_roundtrip<<<1, m>>>(slots, dout, m);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(hr, dout, sizeof(hr), cudaMemcpyDeviceToHost));
      binop host_table[4] = { op_add, op_sub, op_mul, op_mix };
      for (int t = 0; t < m; t++) {
         int which = ((t + 1) % m * 3) & 3;
         wr[t] = which * 1000 + host_table[which](t, 2);
         wr[m + t] = 1;
      }
      CHECK_ARRAY_I32("pointers through memory", hr, wr, 2 * m);
      /* the table's addresses as the host reads them: distinct, non-null */
      binop copy[4];
      CHECK_CUDA(cudaMemcpyFromSymbol(copy, d_table, sizeof(copy)));
      CHECK(copy[0] && copy[1] && copy[2] && copy[3]);
      CHECK(copy[0] != copy[1] && copy[1] != copy[2] && copy[2] != copy[3] && copy[0] != copy[3]);
      /* and written back by the host, still callable */
      binop swapped[4] = { copy[2], copy[3], copy[0], copy[1] };
      CHECK_CUDA(cudaMemcpyToSymbol(d_table, swapped, sizeof(swapped)));
      k_table<<<2, 128>>>(da, db, dout, n);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
      for (int t = 0; t < n; t++)
         want[t] = host_table[(t + 2) & 3](ha[t], hb[t]) + 3 * ((ha[t] & 1) ? op_mul : op_sub)(hb[t], 5);
      CHECK_ARRAY_I32("table written by the host", got, want, n);
      CHECK_CUDA(cudaFree(slots));
   }

   /* virtual functions */
   {
      const int m = 200;
      unsigned char *pool;
      int *dsides, harea[m], hsides[m], warea[m], wsides[m];
      CHECK_CUDA(cudaMalloc(&pool, 64 * m));
      CHECK_CUDA(cudaMalloc(&dsides, sizeof(hsides)));
      k_shapes<<<1, m>>>(pool, dout, dsides, m);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(harea, dout, sizeof(harea), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(hsides, dsides, sizeof(hsides), cudaMemcpyDeviceToHost));
      for (int k = 0; k < m; k++)
         warea[k] = host_shape(k, &wsides[k]);
      CHECK_ARRAY_I32("virtual area", harea, warea, m);
      CHECK_ARRAY_I32("virtual sides", hsides, wsides, m);
      CHECK_CUDA(cudaFree(pool));
      CHECK_CUDA(cudaFree(dsides));
   }

   /* recursion through virtual calls: a tree of depth 6 (127 nodes) */
   {
      const int m = 64, depth = 6;
      unsigned char *pool;
      int hx[4 * m], *dx, hv[m], wv[m];
      for (int k = 0; k < 4 * m; k++)
         hx[k] = (int)(mix32((uint32_t)k * 9u) % 21u) - 10;
      CHECK_CUDA(cudaMalloc(&pool, 64 * 128));
      CHECK_CUDA(cudaMalloc(&dx, sizeof(hx)));
      CHECK_CUDA(cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice));
      k_expr<<<1, m>>>(pool, dx, dout, m, depth);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(hv, dout, sizeof(hv), cudaMemcpyDeviceToHost));
      for (int t = 0; t < m; t++)
         wv[t] = host_expr(depth, 1, hx + 4 * t);
      CHECK_ARRAY_I32("virtual recursion", hv, wv, m);
      CHECK_CUDA(cudaFree(pool));
      CHECK_CUDA(cudaFree(dx));
   }
   CHECK_CUDA(cudaFree(da));
   CHECK_CUDA(cudaFree(db));
   CHECK_CUDA(cudaFree(dout));
   return check_end();
}
