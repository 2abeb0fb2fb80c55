/*
 * printf.cu — device printf: conversions, flags, widths and precisions,
 * 64-bit integers, doubles (passed as kernel parameters and read from
 * memory: no fp64 arithmetic), strings from global, local and shared memory
 * and NULL, printf in a __noinline__ function, printf's return value,
 * several threads printing in turn, output appearing at synchronisation
 * (cudaDeviceSynchronize, a blocking cudaMemcpy) after what the host printed
 * before it.
 *
 * run.sh compares this program's stdout with printf.expected, which is what
 * the host's own printf prints for the same calls.  Every kernel prints from
 * one thread at a time, so the order is fixed.
 */
#include "check.h"

__device__ __noinline__ int say(const char *who, int n, long long big)
{
   return printf("say: %s n=%d big=%lld\n", who, n, big);
}

__global__ void formats(double d, double tiny, const double *dd, int *ret)
{
   ret[0] = printf("ints: %d %i %u %x %X %o %c|\n", -42, 17, 4000000000u, 0xbeef, 0xbeef, 8, 'q');
   printf("flags: [%5d] [%-5d] [%05d] [%+d] [% d] [%#x] [%#o] [%.3d] [%5.3d]\n", 42, 42, 42, 42, 42, 255, 8, 7, 7);
   printf("64: %lld %llu %llx %ld %lu %lX\n", -9000000000ll, 18000000000000000000ull, 0x123456789abcdefull,
          -5000000000l, 5000000000ul, 0xfedcba9876ul);
   printf("doubles: %f %.2f %e %.3E %g %G %10.4f|%-10.1f|\n", d, d, d, tiny, d, tiny, d, d);
   printf("memory: %f %g %.15g\n", dd[0], dd[1], dd[2]);
   ret[1] = printf("no conversions at all\n");
   ret[2] = printf("%s%s%d\n", "", "abc", 0);
   ret[3] = printf("100%% %c%c\n", 'o', 'k');
}

__global__ void strings(const char *global_str)
{
   char local[16];
   __shared__ char shared[16];
   for (int k = 0; k < 15; k++) {
      local[k] = (char)('a' + k);
      shared[k] = (char)('A' + k);
   }
   local[15] = shared[15] = 0;
   printf("strings: [%s] [%s] [%s] [%s]\n", global_str, local, shared, "literal");
   printf("precision: [%.3s] [%8.2s] [%-8s] [%s]\n", local, shared, "ab", (const char *)0);
   say("kernel", 7, -1234567890123ll);
}

__global__ void in_turn()
{
   for (int t = 0; t < 4; t++) {
      if ((int)threadIdx.x == t)
         printf("thread %d of %d\n", t, (int)blockDim.x);
      __syncthreads();
   }
}

__global__ void many(int n)
{
   for (int k = 0; k < n; k++)
      printf("line %02d\n", k);
}

int main()
{
   check_begin("printf");
   printf("host: first\n");
   int *d_ret;
   double *d_dd;
   char *d_str;
   const double dd[3] = { 2.5, 1e-5, 0.1 };
   const char str[] = "from global memory";
   REQUIRE_CUDA(cudaMalloc(&d_ret, 16));
   REQUIRE_CUDA(cudaMalloc(&d_dd, sizeof(dd)));
   REQUIRE_CUDA(cudaMalloc(&d_str, sizeof(str)));
   REQUIRE_CUDA(cudaMemcpy(d_dd, dd, sizeof(dd), cudaMemcpyHostToDevice));
   REQUIRE_CUDA(cudaMemcpy(d_str, str, sizeof(str), cudaMemcpyHostToDevice));

   formats<<<1, 1>>>(3.14159265358979, 6.02e-23, d_dd, d_ret);
   CHECK_CUDA(cudaGetLastError());
   printf("host: launched, not synchronised\n");
   CHECK_CUDA(cudaDeviceSynchronize());
   printf("host: after the first synchronisation\n");
   int ret[4];
   CHECK_CUDA(cudaMemcpy(ret, d_ret, sizeof(ret), cudaMemcpyDeviceToHost));
   /* printf returns the number of arguments */
   CHECK_INT(ret[0], 7);
   CHECK_INT(ret[1], 0);
   CHECK_INT(ret[2], 3);
   CHECK_INT(ret[3], 2);

   strings<<<1, 1>>>(d_str);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   in_turn<<<1, 4>>>();
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   many<<<1, 1>>>(12);
   CHECK_CUDA(cudaGetLastError());
   printf("host: a blocking copy shows the output too\n");
   CHECK_CUDA(cudaMemcpy(ret, d_ret, sizeof(ret), cudaMemcpyDeviceToHost));
   printf("host: done\n");
   cudaFree(d_ret);
   cudaFree(d_dd);
   cudaFree(d_str);
   return check_end();
}
