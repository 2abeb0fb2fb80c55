/*
 * pipeline.cu — several kernels of one module, launched back to back on
 * the default stream with no synchronisation between them, on sizes that
 * are not multiples of the block size (and block sizes that are not
 * multiples of 32):
 *
 *   init       a[i] = hash(i)                          (blocks of 128)
 *   transform  b[i] = a[i] % 2001 - 1000, c[i] = b[i] / 8.0f  (blocks of 100)
 *   scale      c[i] = c[i] * 3 + 1  (exact: c has 3 fractional bits)
 *   partial    thread t of T sums b[t], b[t+T], ... (64-bit) and c likewise
 *              (float, in index order)                  (blocks of 96)
 *   count      thread j counts the b[i] falling in bucket j  (blocks of 33)
 *
 * Only then one cudaMemcpy brings results back (it waits for the stream).
 * The host recomputes everything from its own hash.  Every float sum is
 * exact (values are multiples of 1/8 below 2^20), so the comparison is
 * bit-exact whatever the order; the device order is still reproduced.
 */
#include "check.h"

__device__ unsigned dev_hash(unsigned x)   /* lowbias32, as mix32 on the host */
{
   x ^= x >> 16;
   x *= 0x7feb352du;
   x ^= x >> 15;
   x *= 0x846ca68bu;
   x ^= x >> 16;
   return x;
}

__global__ void init(int n, unsigned seed, unsigned *a)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      a[i] = dev_hash((unsigned)i + seed);
}

__global__ void transform(int n, const unsigned *a, int *b, float *c)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n) {
      b[i] = (int)(a[i] % 2001u) - 1000;
      c[i] = (float)b[i] / 8.0f;
   }
}

__global__ void scale(int n, float *c)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      c[i] = c[i] * 3.0f + 1.0f;
}

__global__ void partial(int n, const int *b, const float *c, long long *isum, float *fsum)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
   long long s = 0;
   float f = 0.0f;
   for (int i = t; i < n; i += T) {
      s += b[i];
      f += c[i];
   }
   isum[t] = s;
   fsum[t] = f;
}

__global__ void count(int n, const int *b, int buckets, int *hist)
{
   int j = blockIdx.x * blockDim.x + threadIdx.x;
   if (j >= buckets)
      return;
   int k = 0;
   for (int i = 0; i < n; i++)
      k += (b[i] + 1000) * buckets / 2001 == j;
   hist[j] = k;
}

int main(void)
{
   check_begin("pipeline");
   const int n = 77777, T = 96 * 11, buckets = 50;
   const unsigned seed = 12345u;
   unsigned *da;
   int *db, *dhist;
   float *dc, *dfsum;
   long long *disum;
   REQUIRE_CUDA(cudaMalloc(&da, n * 4));
   REQUIRE_CUDA(cudaMalloc(&db, n * 4));
   REQUIRE_CUDA(cudaMalloc(&dc, n * 4));
   REQUIRE_CUDA(cudaMalloc(&disum, T * 8));
   REQUIRE_CUDA(cudaMalloc(&dfsum, T * 4));
   REQUIRE_CUDA(cudaMalloc(&dhist, buckets * 4));
   REQUIRE_CUDA(cudaMemset(da, 0xee, n * 4));
   REQUIRE_CUDA(cudaMemset(db, 0xee, n * 4));
   REQUIRE_CUDA(cudaMemset(dc, 0xee, n * 4));
   REQUIRE_CUDA(cudaMemset(disum, 0xee, T * 8));
   REQUIRE_CUDA(cudaMemset(dfsum, 0xee, T * 4));
   REQUIRE_CUDA(cudaMemset(dhist, 0xee, buckets * 4));

   init<<<(n + 127) / 128, 128>>>(n, seed, da);
   transform<<<(n + 99) / 100, 100>>>(n, da, db, dc);
   scale<<<(n + 255) / 256, 256>>>(n, dc);
   partial<<<11, 96>>>(n, db, dc, disum, dfsum);
   count<<<(buckets + 32) / 33, 33>>>(n, db, buckets, dhist);
   CHECK_CUDA(cudaGetLastError());

   /* results, without a cudaDeviceSynchronize: cudaMemcpy waits */
   unsigned *a = (unsigned *)malloc(n * 4), *wa = (unsigned *)malloc(n * 4);
   int *b = (int *)malloc(n * 4), *wb = (int *)malloc(n * 4);
   float *c = (float *)malloc(n * 4), *wc = (float *)malloc(n * 4);
   long long *isum = (long long *)malloc(T * 8);
   float *fsum = (float *)malloc(T * 4), *wfsum = (float *)malloc(T * 4);
   int hist[50], whist[50];
   CHECK_CUDA(cudaMemcpy(a, da, n * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(b, db, n * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(c, dc, n * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(isum, disum, T * 8, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(fsum, dfsum, T * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(hist, dhist, buckets * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaDeviceSynchronize());

   long long total = 0;
   for (int i = 0; i < n; i++) {
      wa[i] = mix32((uint32_t)i + seed);
      wb[i] = (int)(wa[i] % 2001u) - 1000;
      wc[i] = (float)(wb[i] * 3) / 8.0f + 1.0f;   /* b/8*3+1, exact either way */
      total += wb[i];
   }
   CHECK_ARRAY_U32("init", a, wa, n);
   CHECK_ARRAY_I32("transform b", b, wb, n);
   CHECK_ARRAY_F32("transform+scale c", c, wc, n);

   long long got_total = 0, *wisum = (long long *)malloc(T * 8);
   for (int t = 0; t < T; t++) {
      float f = 0.0f;
      wisum[t] = 0;
      for (int i = t; i < n; i += T) {
         f += wc[i];
         wisum[t] += wb[i];
      }
      wfsum[t] = f;
      got_total += isum[t];
   }
   CHECK_INT(got_total, total);
   CHECK_ARRAY_I64("partial integer sums", (const int64_t *)isum, (const int64_t *)wisum, T);
   CHECK_ARRAY_F32("partial float sums", fsum, wfsum, T);

   int hsum = 0;
   memset(whist, 0, sizeof(whist));
   for (int i = 0; i < n; i++)
      whist[(wb[i] + 1000) * buckets / 2001]++;
   for (int j = 0; j < buckets; j++)
      hsum += hist[j];
   CHECK_ARRAY_I32("histogram", hist, whist, buckets);
   CHECK_INT(hsum, n);

   cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(disum), cudaFree(dfsum), cudaFree(dhist);
   free(a), free(wa), free(b), free(wb), free(c), free(wc), free(isum), free(fsum), free(wfsum), free(wisum);
   return check_end();
}
