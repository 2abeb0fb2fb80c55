// vector_add.cu — the first CUDA program to run through metalcuda.
//
// Adds two vectors of 1,000,000 floats on the GPU (or on metalcuda's
// software device), copies the sum back and checks every element against
// the same addition done on the CPU.
//
//   nvcc -cudart shared vector_add.cu -o vector_add
//   metalcuda run ./vector_add          # through metalcuda
//   ./vector_add                        # on an NVIDIA GPU, unchanged
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// One thread per element; the last block is only partly used.
__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      c[i] = a[i] + b[i];
}

// Stops the program with a message if a CUDA call failed.
#define CUDA_CHECK(call)                                                                      \
   do {                                                                                        \
      cudaError_t err = (call);                                                                \
      if (err != cudaSuccess) {                                                                \
         fprintf(stderr, "%s failed: %s (%s)\n", #call, cudaGetErrorString(err),               \
                 cudaGetErrorName(err));                                                       \
         return 1;                                                                             \
      }                                                                                        \
   } while (0)

int main()
{
   const int n = 1000000;
   const size_t bytes = n * sizeof(float);

   cudaDeviceProp prop;
   CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
   printf("device: %s\n", prop.name);

   // Inputs on the host.
   float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
   for (int i = 0; i < n; i++) {
      a[i] = i * 0.5f;
      b[i] = 1000.0f - i * 0.25f;
      c[i] = -1.0f;
   }

   // Copy them to the device, add, copy the result back.
   float *da, *db, *dc;
   CUDA_CHECK(cudaMalloc(&da, bytes));
   CUDA_CHECK(cudaMalloc(&db, bytes));
   CUDA_CHECK(cudaMalloc(&dc, bytes));
   CUDA_CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
   CUDA_CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));

   const int threads = 256, blocks = (n + threads - 1) / threads;
   vector_add<<<blocks, threads>>>(da, db, dc, n);
   CUDA_CHECK(cudaGetLastError());        // was the launch accepted?
   CUDA_CHECK(cudaDeviceSynchronize());   // did the kernel run without error?
   CUDA_CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
   printf("launched %d blocks of %d threads for %d elements\n", blocks, threads, n);

   // Check every element: one float addition is exact IEEE arithmetic, so
   // the GPU must give the CPU's result bit for bit.
   int wrong = 0;
   for (int i = 0; i < n; i++) {
      float want = a[i] + b[i];
      if (c[i] != want) {
         if (wrong < 5)
            printf("c[%d] = %g, expected %g\n", i, c[i], want);
         wrong++;
      }
   }
   printf("c[0] = %g, c[%d] = %g\n", c[0], n - 1, c[n - 1]);

   cudaFree(da);
   cudaFree(db);
   cudaFree(dc);
   free(a);
   free(b);
   free(c);

   if (wrong) {
      printf("FAIL: %d of %d elements are wrong\n", wrong, n);
      return 1;
   }
   printf("PASS: all %d elements are correct\n", n);
   return 0;
}
