/*
 * device_heap.cu — malloc/free and new/delete in kernels (issue 17): the
 * device heap of cudaLimitMallocHeapSize bytes.
 *
 *   - the limit reads 8 MB by default and takes a new size before any
 *     kernel that uses the heap has run (here 32 MB), not after
 *     (cudaErrorInvalidValue);
 *   - one thread gets 20 MB (more than the default heap) and gives it back;
 *     more than the heap is NULL;
 *   - 64 blocks of 256 threads each malloc a block of a size of their own
 *     (1 to 200 bytes), fill it, check it after a barrier, free it, four
 *     rounds: no NULL, no two live blocks overlap (a shared pattern check);
 *   - new/delete of objects with a constructor and a destructor, and new[]
 *     of arrays, under the same contention: constructor and destructor
 *     counts;
 *   - nodes malloc'd by one kernel, linked into a list with atomicCAS,
 *     walked by a second kernel and freed by a third: heap memory lives
 *     across launches;
 *   - 1 MB blocks until the heap says NULL: fewer than 32.
 *
 * Expected values come from a host reference.
 */
#include "check.h"

#define BLOCKS 64
#define THREADS 256
#define NT (BLOCKS * THREADS)

__device__ unsigned ctor_count, dtor_count;

struct obj {
   unsigned id, twice;
   __device__ obj(unsigned i) : id(i), twice(2 * i) { atomicAdd(&ctor_count, 1u); }
   __device__ ~obj() { atomicAdd(&dtor_count, 1u); }
};

struct node {
   node *next;
   unsigned value;
};

__global__ void k_big(unsigned long long *out, size_t big, size_t too_big)
{
   char *p = (char *)malloc(big);
   out[0] = p != NULL;
   if (p) {
      p[0] = 1;
      p[big - 1] = 2;
      out[1] = p[0] + p[big - 1];
      free(p);
   }
   out[2] = malloc(too_big) == NULL;
}

__global__ void k_rounds(unsigned *bad, unsigned *nulls)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   for (unsigned round = 0; round < 4; round++) {
      unsigned n = 1 + (t * 7 + round * 13) % 200;
      unsigned char *p = (unsigned char *)malloc(n);
      if (!p) {
         atomicAdd(nulls, 1u);
         __syncthreads();
         continue;
      }
      for (unsigned k = 0; k < n; k++)
         p[k] = (unsigned char)(t + k);
      __syncthreads();   /* every thread of the block has filled its block */
      unsigned wrong = 0;
      for (unsigned k = 0; k < n; k++)
         wrong += p[k] != (unsigned char)(t + k);
      if (((unsigned long long)p & 15) != 0)
         wrong++;
      atomicAdd(bad, wrong);
      free(p);
   }
}

__global__ void k_objects(unsigned *bad)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   obj *o = new obj(t);
   unsigned *arr = new unsigned[t % 17 + 1];
   for (unsigned k = 0; k <= t % 17; k++)
      arr[k] = t ^ k;
   unsigned wrong = (o->id != t) + (o->twice != 2 * t);
   for (unsigned k = 0; k <= t % 17; k++)
      wrong += arr[k] != (t ^ k);
   delete o;
   delete[] arr;
   atomicAdd(bad, wrong);
}

__global__ void k_push(node **head)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
   node *n = (node *)malloc(sizeof(node));
   if (!n)
      return;
   n->value = t;
   node *old = *(node *volatile *)head;
   for (;;) {
      n->next = old;
      __threadfence();
      node *seen = (node *)atomicCAS((unsigned long long *)head, (unsigned long long)old, (unsigned long long)n);
      if (seen == old)
         break;
      old = seen;
   }
}

__global__ void k_walk(node *const *head, unsigned long long *out)
{
   unsigned long long sum = 0, count = 0;
   for (node *n = *head; n; n = n->next) {
      sum += n->value;
      count++;
   }
   out[0] = sum;
   out[1] = count;
}

__global__ void k_free_list(node **head)
{
   node *n = *head;
   while (n) {
      node *next = n->next;
      free(n);
      n = next;
   }
   *head = NULL;
}

__global__ void k_exhaust(unsigned *count)
{
   unsigned n = 0;
   void *kept[64];
   while (n < 64 && (kept[n] = malloc(1 << 20)) != NULL)
      n++;
   *count = n;
   for (unsigned k = 0; k < n; k++)
      free(kept[k]);
}

int main(void)
{
   check_begin("device_heap");
   size_t limit = 0;
   CHECK_CUDA(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
   CHECK_INT(limit, 8u << 20);
   CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32u << 20));
   CHECK_CUDA(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
   CHECK(limit >= (32u << 20));
   printf("  heap: %zu bytes\n", limit);

   unsigned long long *d64, h64[3];
   CHECK_CUDA(cudaMalloc(&d64, sizeof(h64)));
   CHECK_CUDA(cudaMemset(d64, 0, sizeof(h64)));
   k_big<<<1, 1>>>(d64, (size_t)20 << 20, (size_t)64 << 20);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h64, d64, sizeof(h64), cudaMemcpyDeviceToHost));
   CHECK_INT(h64[0], 1);   /* 20 MB: more than the default heap */
   CHECK_INT(h64[1], 3);
   CHECK_INT(h64[2], 1);   /* more than the heap: NULL */
   CHECK_ERR(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);   /* recorded, not sticky */
   CHECK_CUDA(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize));
   CHECK(limit >= (32u << 20));

   unsigned *d32, h32[2];
   CHECK_CUDA(cudaMalloc(&d32, sizeof(h32)));
   CHECK_CUDA(cudaMemset(d32, 0, sizeof(h32)));
   k_rounds<<<BLOCKS, THREADS>>>(d32, d32 + 1);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h32, d32, sizeof(h32), cudaMemcpyDeviceToHost));
   CHECK_INT(h32[0], 0);   /* bytes found changed, misaligned blocks */
   CHECK_INT(h32[1], 0);   /* NULLs */

   unsigned zero = 0;
   CHECK_CUDA(cudaMemcpyToSymbol(ctor_count, &zero, 4));
   CHECK_CUDA(cudaMemcpyToSymbol(dtor_count, &zero, 4));
   CHECK_CUDA(cudaMemset(d32, 0, sizeof(h32)));
   k_objects<<<BLOCKS, THREADS>>>(d32);
   CHECK_CUDA(cudaDeviceSynchronize());
   unsigned ctors, dtors;
   CHECK_CUDA(cudaMemcpy(h32, d32, 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpyFromSymbol(&ctors, ctor_count, 4));
   CHECK_CUDA(cudaMemcpyFromSymbol(&dtors, dtor_count, 4));
   CHECK_INT(h32[0], 0);
   CHECK_INT(ctors, NT);
   CHECK_INT(dtors, NT);

   node **head;
   CHECK_CUDA(cudaMalloc(&head, sizeof(*head)));
   CHECK_CUDA(cudaMemset(head, 0, sizeof(*head)));
   k_push<<<BLOCKS, THREADS>>>(head);
   k_walk<<<1, 1>>>(head, d64);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h64, d64, 2 * sizeof(*h64), cudaMemcpyDeviceToHost));
   CHECK_INT(h64[0], (unsigned long long)NT * (NT - 1) / 2);
   CHECK_INT(h64[1], NT);
   k_free_list<<<1, 1>>>(head);
   CHECK_CUDA(cudaDeviceSynchronize());

   k_exhaust<<<1, 1>>>(d32);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h32, d32, 4, cudaMemcpyDeviceToHost));
   printf("  1 MB blocks before NULL: %u\n", h32[0]);
   CHECK(h32[0] >= 8 && h32[0] < 32);
   cudaFree(d64);
   cudaFree(d32);
   cudaFree(head);
   return check_end();
}
