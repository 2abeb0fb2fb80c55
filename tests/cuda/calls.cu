/*
 * calls.cu — device functions that stay calls (__noinline__): structs passed
 * and returned by value, several results (a struct and pointers to the
 * caller's locals), nested calls, a callee that loops and returns early, a
 * pointer to shared memory and a callee's own __shared__ array, a callee
 * called from two kernels, and a callee that ends its thread (exit).
 *
 * The host computes every expected value with the same C code.
 */
#include "check.h"

struct Particle {
   float x, y;
   int id;
   char tag;
   long long w;   /* only moved */
};

struct Pair {
   int lo, hi;
};

struct Big {
   unsigned v[6];
   unsigned short s;
};

__host__ __device__ __noinline__ Pair split(unsigned x)
{
   Pair p = { (int)(x & 0xffffu), (int)(x >> 16) };
   return p;
}

/* struct by value in, struct by value out, a result through a pointer */
__host__ __device__ __noinline__ Particle step(Particle p, float dt, int *moved)
{
   Particle q = p;
   q.x = p.x + dt * (float)p.id;
   q.y = p.y - dt;
   q.tag = (char)(p.tag + 1);
   *moved = q.x != p.x;
   return q;
}

/* loops and returns from inside the loop */
__host__ __device__ __noinline__ int first_set(unsigned x, int from)
{
   for (int k = from; k < 32; k++)
      if (x >> k & 1u)
         return k;
   return -1;
}

/* nested: calls split and first_set; several outputs */
__host__ __device__ __noinline__ Big summarize(unsigned x, unsigned y, int *nbits, unsigned *mix)
{
   Big b;
   Pair a = split(x), c = split(y);
   b.v[0] = (unsigned)a.lo;
   b.v[1] = (unsigned)a.hi;
   b.v[2] = (unsigned)c.lo;
   b.v[3] = (unsigned)c.hi;
   int n = 0;
   for (int k = first_set(x, 0); k >= 0; k = first_set(x, k + 1))
      n++;
   *nbits = n;
   b.v[4] = (unsigned)first_set(y, 3);
   b.v[5] = x ^ (y * 2654435761u);
   b.s = (unsigned short)(x + y);
   *mix = b.v[5] + b.s;
   return b;
}

/* works on a buffer the caller owns, in any space */
__device__ __noinline__ void scale_buf(unsigned *buf, int n, unsigned f)
{
   for (int k = 0; k < n; k++)
      buf[k] = buf[k] * f + (unsigned)k;
}

/* a callee with its own shared array (one per block) */
__device__ __noinline__ unsigned block_slot(unsigned v)
{
   __shared__ unsigned slots[64];
   slots[threadIdx.x] = v;
   return slots[threadIdx.x] + 1u;
}

__device__ __noinline__ int maybe_end(int t)
{
   if (t % 5 == 3)
      asm volatile("exit;");
   return t * 7;
}

__global__ void k_structs(const unsigned *in, unsigned *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   Particle p = { (float)in[i] * 0.5f, 3.0f, (int)(in[i] % 7u), (char)(in[i] % 100u), (long long)i << 33 };
   int moved = 0;
   Particle q = step(p, 0.25f, &moved);
   unsigned *o = out + 8 * i;
   o[0] = __float_as_uint(q.x);
   o[1] = __float_as_uint(q.y);
   o[2] = (unsigned)q.id;
   o[3] = (unsigned)(int)q.tag;
   o[4] = (unsigned)moved;
   o[5] = q.w == (long long)i << 33;   /* moved through */
   Pair s = split(in[i]);
   o[6] = (unsigned)s.lo;
   o[7] = (unsigned)s.hi;
}

__global__ void k_nested(const unsigned *in, unsigned *out, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   int nbits = -1;
   unsigned mix = 0;
   Big b = summarize(in[i], in[(i + 1) % n], &nbits, &mix);
   unsigned *o = out + 10 * i;
   for (int k = 0; k < 6; k++)
      o[k] = b.v[k];
   o[6] = b.s;
   o[7] = (unsigned)nbits;
   o[8] = mix;
   o[9] = (unsigned)first_set(in[i], 31);
}

__global__ void k_buffers(const unsigned *in, unsigned *out, int n)
{
   __shared__ unsigned sh[64 * 4];
   int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
   unsigned loc[4];
   for (int k = 0; k < 4; k++) {
      loc[k] = in[i] + (unsigned)k;
      sh[4 * t + k] = in[i] ^ (unsigned)k;
   }
   scale_buf(loc, 4, 3u);            /* local memory of this thread */
   scale_buf(&sh[4 * t], 4, 5u);     /* shared memory */
   scale_buf(out + 12 * i + 8, 4, 1u);  /* global memory */
   for (int k = 0; k < 4; k++) {
      out[12 * i + k] = loc[k];
      out[12 * i + 4 + k] = sh[4 * t + k];
   }
   out[12 * i + 8] += block_slot(in[i]);
   (void)n;
}

__global__ void k_exit(unsigned *out)
{
   int t = threadIdx.x;
   int v = maybe_end(t);
   out[t] = (unsigned)v;
}

int main()
{
   check_begin("calls");
   const int n = 128;
   unsigned h_in[n];
   for (int k = 0; k < n; k++)
      h_in[k] = mix32((unsigned)k + 11u) ^ (k % 9 == 0 ? 0u : (unsigned)k << 20);
   h_in[5] = 0;
   h_in[6] = 0xffffffffu;
   unsigned *d_in, *d_out;
   REQUIRE_CUDA(cudaMalloc(&d_in, sizeof(h_in)));
   REQUIRE_CUDA(cudaMalloc(&d_out, n * 12 * 4));
   REQUIRE_CUDA(cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice));
   static unsigned got[n * 12], want[n * 12];

   /* structs by value */
   fill_u32(got, n * 12, SENTINEL32);
   REQUIRE_CUDA(cudaMemcpy(d_out, got, n * 12 * 4, cudaMemcpyHostToDevice));
   k_structs<<<2, 64>>>(d_in, d_out, n);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, n * 8 * 4, cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      Particle p = { (float)h_in[i] * 0.5f, 3.0f, (int)(h_in[i] % 7u), (char)(h_in[i] % 100u), (long long)i << 33 };
      int moved = 0;
      Particle q = step(p, 0.25f, &moved);
      unsigned *o = want + 8 * i;
      o[0] = f32_bits(q.x);
      o[1] = f32_bits(q.y);
      o[2] = (unsigned)q.id;
      o[3] = (unsigned)(int)q.tag;
      o[4] = (unsigned)moved;
      o[5] = 1;
      Pair s = split(h_in[i]);
      o[6] = (unsigned)s.lo;
      o[7] = (unsigned)s.hi;
   }
   CHECK_ARRAY_U32("k_structs", got, want, n * 8);

   /* nested calls, several results */
   k_nested<<<4, 32>>>(d_in, d_out, n);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, n * 10 * 4, cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      int nbits = -1;
      unsigned mix = 0;
      Big b = summarize(h_in[i], h_in[(i + 1) % n], &nbits, &mix);
      unsigned *o = want + 10 * i;
      for (int k = 0; k < 6; k++)
         o[k] = b.v[k];
      o[6] = b.s;
      o[7] = (unsigned)nbits;
      o[8] = mix;
      o[9] = (unsigned)first_set(h_in[i], 31);
   }
   CHECK_ARRAY_U32("k_nested", got, want, n * 10);

   /* pointers to local, shared and global memory; a callee's __shared__ */
   fill_u32(got, n * 12, 7u);
   REQUIRE_CUDA(cudaMemcpy(d_out, got, n * 12 * 4, cudaMemcpyHostToDevice));
   k_buffers<<<2, 64>>>(d_in, d_out, n);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, n * 12 * 4, cudaMemcpyDeviceToHost));
   for (int i = 0; i < n; i++) {
      unsigned *o = want + 12 * i;
      for (int k = 0; k < 4; k++) {
         o[k] = (h_in[i] + (unsigned)k) * 3u + (unsigned)k;
         o[4 + k] = (h_in[i] ^ (unsigned)k) * 5u + (unsigned)k;
         o[8 + k] = 7u + (unsigned)k;
      }
      o[8] += h_in[i] + 1u;
   }
   CHECK_ARRAY_U32("k_buffers", got, want, n * 12);

   /* exit inside a callee: that thread writes nothing */
   fill_u32(got, 64, SENTINEL32);
   REQUIRE_CUDA(cudaMemcpy(d_out, got, 64 * 4, cudaMemcpyHostToDevice));
   k_exit<<<1, 64>>>(d_out);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(got, d_out, 64 * 4, cudaMemcpyDeviceToHost));
   for (int t = 0; t < 64; t++)
      want[t] = t % 5 == 3 ? SENTINEL32 : (unsigned)(t * 7);
   CHECK_ARRAY_U32("k_exit", got, want, 64);

   cudaFree(d_in);
   cudaFree(d_out);
   return check_end();
}
