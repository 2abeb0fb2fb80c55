/*
 * memops.cu — cudaMalloc, cudaFree, cudaMemset and cudaMemcpy of every
 * kind, at odd offsets and sizes, checked both by copying back and by a
 * kernel that reads the bytes on the device:
 *
 *  - allocations are aligned to 256 bytes (documented by CUDA) and never
 *    overlap: 40 live allocations of assorted sizes, each memset to its own
 *    byte, all intact afterwards; freed memory can be allocated again;
 *  - cudaMemset writes only [offset, offset + count) and uses the low byte
 *    of its value; a kernel counts the bytes it sees;
 *  - host→device, device→device and device→host copies of 1, 3, 4093 ...
 *    bytes at unaligned offsets, host→host through cudaMemcpy, and
 *    cudaMemcpyDefault (unified addressing) in both directions;
 *  - an 8 MB round trip.
 */
#include "check.h"

__global__ void count_bytes(int n, const unsigned char *p, unsigned char v, int *count)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   int c = 0;
   for (int j = i; j < n; j += gridDim.x * blockDim.x)
      c += p[j] == v;
   count[i] = c;
}

/* Sum of the per-thread counts of count_bytes over p[0, n). */
static int device_count(const void *p, int n, unsigned char v)
{
   const int threads = 4 * 64;
   int *d = (int *)dev_alloc_fill32(threads), h[threads], total = 0;
   if (!d)
      return -1;
   count_bytes<<<4, 64>>>(n, (const unsigned char *)p, v, d);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   cudaFree(d);
   for (int k = 0; k < threads; k++)
      total += h[k];
   return total;
}

int main(void)
{
   check_begin("memops");

   /* alignment and overlap */
   enum { NA = 40 };
   unsigned char *ptr[NA];
   size_t size[NA];
   for (int k = 0; k < NA; k++) {
      size[k] = 1 + (mix32((uint32_t)k) % 70000u) * (k % 4 == 0 ? 7 : 1);
      ptr[k] = NULL;
      CHECK_CUDA(cudaMalloc(&ptr[k], size[k]));
      CHECK_INT((uintptr_t)ptr[k] % 256, 0);
      CHECK_CUDA(cudaMemset(ptr[k], k + 1, size[k]));
   }
   for (int k = 0; k < NA; k++) {
      unsigned char *h = (unsigned char *)malloc(size[k]);
      memset(h, 0, size[k]);
      CHECK_CUDA(cudaMemcpy(h, ptr[k], size[k], cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (size_t j = 0; j < size[k]; j++)
         bad += h[j] != k + 1;
      check_int((long long)bad, 0, "bytes of another allocation found", __FILE__, __LINE__);
      free(h);
   }
   for (int k = 0; k < NA; k += 2)
      CHECK_CUDA(cudaFree(ptr[k]));
   for (int k = 0; k < NA; k += 2) {
      CHECK_CUDA(cudaMalloc(&ptr[k], size[k]));
      CHECK_CUDA(cudaMemset(ptr[k], 0xc0, size[k]));
   }
   for (int k = 1; k < NA; k += 2)   /* the survivors are intact */
      CHECK_INT(device_count(ptr[k], (int)size[k], (unsigned char)(k + 1)), size[k]);
   for (int k = 0; k < NA; k++)
      CHECK_CUDA(cudaFree(ptr[k]));

   /* memset: range and low byte */
   const int n = 10007;
   unsigned char *d, *d2;
   unsigned char *h = (unsigned char *)malloc(n), *w = (unsigned char *)malloc(n);
   REQUIRE_CUDA(cudaMalloc(&d, n));
   REQUIRE_CUDA(cudaMalloc(&d2, n));
   CHECK_CUDA(cudaMemset(d, 0x11, n));
   CHECK_CUDA(cudaMemset(d + 3, 0x1234, 1001));   /* writes 0x34 */
   CHECK_CUDA(cudaMemset(d + 5000, 0xff, 1));
   CHECK_CUDA(cudaMemset(d + 6000, 0, 0));        /* nothing */
   memset(w, 0x11, n);
   memset(w + 3, 0x34, 1001);
   w[5000] = 0xff;
   memset(h, 0xcd, n);
   CHECK_CUDA(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));
   CHECK(memcmp(h, w, n) == 0);
   CHECK_INT(h[2], 0x11);
   CHECK_INT(h[3], 0x34);
   CHECK_INT(h[1003], 0x34);
   CHECK_INT(h[1004], 0x11);
   CHECK_INT(device_count(d, n, 0x34), 1001);
   CHECK_INT(device_count(d, n, 0xff), 1);

   /* copies at odd offsets and sizes */
   unsigned char *src = (unsigned char *)malloc(n);
   for (int i = 0; i < n; i++)
      src[i] = (unsigned char)mix32((uint32_t)i);
   CHECK_CUDA(cudaMemset(d, 0, n));
   CHECK_CUDA(cudaMemset(d2, 0, n));
   memset(w, 0, n);
   static const int offs[][3] = { { 1, 0, 1 }, { 7, 3, 3 }, { 100, 17, 4093 }, { 5001, 4999, 4 }, { 9000, 9003, 1004 } };
   for (unsigned k = 0; k < sizeof(offs) / sizeof(offs[0]); k++) {
      int doff = offs[k][0], soff = offs[k][1], len = offs[k][2];
      CHECK_CUDA(cudaMemcpy(d + doff, src + soff, len, cudaMemcpyHostToDevice));
      memcpy(w + doff, src + soff, len);
   }
   memset(h, 0xcd, n);
   CHECK_CUDA(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));
   CHECK(memcmp(h, w, n) == 0);
   /* device to device, odd offsets, then back */
   CHECK_CUDA(cudaMemcpy(d2 + 33, d + 95, 5000, cudaMemcpyDeviceToDevice));
   CHECK_CUDA(cudaMemcpy(d2 + 9999, d + 9000, 8, cudaMemcpyDeviceToDevice));
   unsigned char *w2 = (unsigned char *)calloc(n, 1);
   memcpy(w2 + 33, w + 95, 5000);
   memcpy(w2 + 9999, w + 9000, 8);
   memset(h, 0xcd, n);
   CHECK_CUDA(cudaMemcpy(h, d2, n, cudaMemcpyDeviceToHost));
   CHECK(memcmp(h, w2, n) == 0);
   /* device to host into an odd host offset */
   memset(h, 0xcd, n);
   CHECK_CUDA(cudaMemcpy(h + 11, d2 + 33, 3, cudaMemcpyDeviceToHost));
   CHECK(h[10] == 0xcd && h[14] == 0xcd && memcmp(h + 11, w2 + 33, 3) == 0);
   /* host to host through the runtime */
   memset(h, 0, n);
   CHECK_CUDA(cudaMemcpy(h + 1, src + 2, n - 2, cudaMemcpyHostToHost));
   CHECK(h[0] == 0 && memcmp(h + 1, src + 2, n - 2) == 0);
   /* cudaMemcpyDefault: the direction comes from the pointers */
   CHECK_CUDA(cudaMemcpy(d, src, n, cudaMemcpyDefault));
   memset(h, 0xcd, n);
   CHECK_CUDA(cudaMemcpy(h, d, n, cudaMemcpyDefault));
   CHECK(memcmp(h, src, n) == 0);
   CHECK_CUDA(cudaMemcpy(d2, d, n, cudaMemcpyDefault));
   CHECK_INT(device_count(d2, n, src[77]), device_count(d, n, src[77]));

   /* 8 MB round trip */
   const size_t big = (size_t)8 << 20;
   unsigned *hb = (unsigned *)malloc(big), *hb2 = (unsigned *)malloc(big);
   unsigned char *db;
   for (size_t i = 0; i < big / 4; i++)
      hb[i] = mix32((uint32_t)i) ^ (uint32_t)i;
   REQUIRE_CUDA(cudaMalloc(&db, big));
   CHECK_CUDA(cudaMemcpy(db, hb, big, cudaMemcpyHostToDevice));
   fill_u32(hb2, big / 4, SENTINEL32);
   CHECK_CUDA(cudaMemcpy(hb2, db, big, cudaMemcpyDeviceToHost));
   CHECK(memcmp(hb, hb2, big) == 0);

   cudaFree(d), cudaFree(d2), cudaFree(db);
   free(h), free(w), free(w2), free(src), free(hb), free(hb2);
   return check_end();
}
