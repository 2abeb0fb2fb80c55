// Calls of every shape: indirect calls through function pointers and
// virtual functions, recursion, stack allocation, device malloc, large
// switch statements, struct parameters, managed and extern variables.
#include <cstdio>
#include <cstdlib>

struct Big { double d[5]; int i; char c; };

typedef float (*binop)(float, float);
__device__ float addf(float a, float b) { return a + b; }
__device__ float mulf(float a, float b) { return a * b; }
__device__ binop g_ops[2] = {addf, mulf};

struct Shape {
   __device__ virtual float area() const { return 0; }
   __device__ virtual ~Shape() {}
};
struct Square : Shape {
   float s;
   __device__ Square(float x) : s(x) {}
   __device__ float area() const override { return s * s; }
};

__device__ __noinline__ unsigned long long fact(unsigned n) { return n < 2 ? 1 : n * fact(n - 1); }

__device__ __noinline__ Big make_big(int i)
{
   Big b;
   for (int k = 0; k < 5; k++)
      b.d[k] = i * k;
   b.i = i;
   b.c = (char)i;
   return b;
}

__global__ void calls(float *out, int which, Big big, unsigned long long *f)
{
   int t = threadIdx.x;
   binop op = g_ops[(t + which) & 1];
   out[t] = op(out[t], 2.0f);
   Shape *s = new Square(out[t]);
   out[t] += s->area();
   delete s;
   f[t] = fact(t % 20) + (unsigned long long)big.d[t % 5] + big.i;
   Big b = make_big(t);
   out[t] += (float)b.d[2] + b.c;
   int *heap = (int *)malloc(16 * sizeof(int));
   if (heap) {
      heap[t % 16] = t;
      out[t] += heap[t % 16];
      free(heap);
   }
   float *stack = (float *)alloca(sizeof(float) * ((which & 15) + 1));
   stack[0] = out[t];
   out[t] = stack[0];
   switch (which + t) {
   case 0: out[t] += 1; break;
   case 1: out[t] *= 3; break;
   case 2: out[t] -= 7; break;
   case 3: out[t] = -out[t]; break;
   case 4: out[t] += 0.5f; break;
   case 5: out[t] /= 9; break;
   case 6: out[t] = 42; break;
   case 7: out[t] += t; break;
   default: break;
   }
   printf("%d %f %lld %u %s %p %e %g %x %c %hhd %ld %lu %f %f %f\n", t, out[t], (long long)f[t],
          (unsigned)which, "s", (void *)s, 1e-5, 2.5, 255, 'z', (signed char)1, 2L, 3UL, 1.0,
          2.0, 3.0);
}

extern __device__ int ext_var;
__global__ void use_ext(int *o) { o[0] = ext_var; }

__global__ void grid_const(const __grid_constant__ Big b, double *o) { o[threadIdx.x] = b.d[threadIdx.x % 5]; }

__global__ void __maxnreg__(40) limited(float *x) { x[threadIdx.x] = sqrtf(x[threadIdx.x]); }

__global__ void empty() {}
