/*
 * loops.cu — per-thread control flow that a structurizer must get right.
 *
 *  - collatz: a data-dependent while loop (steps until 1, 64-bit values),
 *    each thread running a different number of iterations;
 *  - scan_breaks: a for loop with `continue` (skip multiples of 3), `break`
 *    (partial sum past a per-thread limit), an early `return` for
 *    out-of-range threads and a second early `return` for every 7th thread,
 *    whose output must keep its sentinel;
 *  - nested: two nested loops, the inner one leaving by `break` and the
 *    outer one by `continue` and a flag, then a do-while;
 *  - search: a loop whose exit is a `return` from inside the loop body
 *    (first index whose value matches, or -1).
 * All arithmetic is integer, so the host reference is exact.
 */
#include "check.h"

__global__ void collatz(int n, unsigned long long first, int *steps, unsigned long long *peak)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned long long v = first + (unsigned long long)i, top = v;
   int k = 0;
   while (v != 1) {
      v = (v & 1) ? 3 * v + 1 : v >> 1;
      if (v > top)
         top = v;
      k++;
   }
   steps[i] = k;
   peak[i] = top;
}

__global__ void scan_breaks(int n, const int *limit, int *sum, int *count)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   if (i % 7 == 3)
      return;   /* these outputs keep their sentinel */
   int s = 0, c = 0;
   for (int j = 0; j < 1000; j++) {
      if (j % 3 == 0)
         continue;
      s += j ^ i;
      c++;
      if (s > limit[i])
         break;
   }
   sum[i] = s;
   count[i] = c;
}

__global__ void nested(int n, int *out)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   int acc = 0;
   for (int a = 0; a < 12; a++) {
      bool skip = false;
      for (int b = 0; b < 40; b++) {
         if ((a * 40 + b + i) % 17 == 0) {
            skip = (b & 1) != 0;
            break;
         }
         acc += a * b - i % 5;
      }
      if (skip)
         continue;
      acc ^= a << (i % 11);
   }
   unsigned u = (unsigned)i + 1u;
   int d = 0;
   do {
      u /= 3u;
      d++;
   } while (u != 0);
   out[i] = acc * 64 + d;
}

__device__ int find(const int *v, int len, int key)
{
   for (int j = 0; j < len; j++)
      if (v[j] == key)
         return j;
   return -1;
}

__global__ void search(int n, const int *table, int len, int *where)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      where[i] = find(table, len, i * 3 % 1009);
}

/* ---- host references ---- */

static void ref_collatz(uint64_t v, int *steps, uint64_t *peak)
{
   int k = 0;
   uint64_t top = v;
   for (; v != 1; k++) {
      if (v % 2)
         v = 3 * v + 1;
      else
         v /= 2;
      top = v > top ? v : top;
   }
   *steps = k;
   *peak = top;
}

int main(void)
{
   check_begin("loops");

   /* collatz on 1 .. 50000 */
   const int nc = 50000;
   int *dsteps = (int *)dev_alloc_fill32(nc);
   unsigned long long *dpeak;
   REQUIRE_CUDA(cudaMalloc(&dpeak, nc * 8));
   uint64_t *h64 = (uint64_t *)malloc(nc * 8), *w64 = (uint64_t *)malloc(nc * 8);
   fill_u64(h64, nc, SENTINEL64);
   REQUIRE_CUDA(cudaMemcpy(dpeak, h64, nc * 8, cudaMemcpyHostToDevice));
   int *hs = (int *)malloc(nc * 4), *ws = (int *)malloc(nc * 4);
   collatz<<<(nc + 127) / 128, 128>>>(nc, 1, dsteps, dpeak);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hs, dsteps, nc * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(h64, dpeak, nc * 8, cudaMemcpyDeviceToHost));
   for (int i = 0; i < nc; i++)
      ref_collatz((uint64_t)i + 1, &ws[i], &w64[i]);
   CHECK_ARRAY_I32("collatz steps", hs, ws, nc);
   CHECK_ARRAY_U64("collatz peak", h64, w64, nc);
   CHECK_INT(hs[26], 111);            /* 27 takes 111 steps ... */
   CHECK_INT(h64[26], 9232);          /* ... and peaks at 9232 */

   /* scan_breaks */
   const int nb = 3001;
   int *hlim = (int *)malloc(nb * 4), *hsum = (int *)malloc(nb * 4), *hcnt = (int *)malloc(nb * 4);
   int *wsum = (int *)malloc(nb * 4), *wcnt = (int *)malloc(nb * 4);
   for (int i = 0; i < nb; i++)
      hlim[i] = (int)(mix32((uint32_t)i) % 400000u) - 1000;   /* some negative: break at once */
   int *dlim, *dsum = (int *)dev_alloc_fill32(nb), *dcnt = (int *)dev_alloc_fill32(nb);
   REQUIRE_CUDA(cudaMalloc(&dlim, nb * 4));
   REQUIRE_CUDA(cudaMemcpy(dlim, hlim, nb * 4, cudaMemcpyHostToDevice));
   scan_breaks<<<(nb + 63) / 64, 64>>>(nb, dlim, dsum, dcnt);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hsum, dsum, nb * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(hcnt, dcnt, nb * 4, cudaMemcpyDeviceToHost));
   int full = 0;
   for (int i = 0; i < nb; i++) {
      if (i % 7 == 3) {
         wsum[i] = wcnt[i] = (int)SENTINEL32;
         continue;
      }
      int s = 0, c = 0, j = 0;
      while (j < 1000) {
         if (j % 3 != 0) {
            s += j ^ i;
            c++;
            if (s > hlim[i])
               break;
         }
         j++;
      }
      full += j == 1000;
      wsum[i] = s;
      wcnt[i] = c;
   }
   CHECK(full > 0);   /* the data exercises both exits */
   CHECK_ARRAY_I32("scan_breaks sum", hsum, wsum, nb);
   CHECK_ARRAY_I32("scan_breaks count", hcnt, wcnt, nb);

   /* nested */
   const int nn = 2500;
   int *dn = (int *)dev_alloc_fill32(nn), *hn = (int *)malloc(nn * 4), *wn = (int *)malloc(nn * 4);
   nested<<<(nn + 95) / 96, 96>>>(nn, dn);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hn, dn, nn * 4, cudaMemcpyDeviceToHost));
   for (int i = 0; i < nn; i++) {
      int acc = 0;
      for (int a = 0; a < 12; a++) {
         int b = 0, skip = 0;
         for (; b < 40 && (a * 40 + b + i) % 17 != 0; b++)
            acc += a * b - i % 5;
         if (b < 40)
            skip = b % 2;
         if (!skip)
            acc ^= a << (i % 11);
      }
      int d = 1;
      for (unsigned u = (unsigned)i + 1u; u >= 3u; u /= 3u)
         d++;
      wn[i] = acc * 64 + d;
   }
   CHECK_ARRAY_I32("nested", hn, wn, nn);

   /* search */
   const int len = 700, nq = 1500;
   int *htab = (int *)malloc(len * 4), *hw = (int *)malloc(nq * 4), *ww = (int *)malloc(nq * 4);
   for (int j = 0; j < len; j++)
      htab[j] = (int)(mix32((uint32_t)j + 5u) % 1009u);
   int *dtab, *dw = (int *)dev_alloc_fill32(nq);
   REQUIRE_CUDA(cudaMalloc(&dtab, len * 4));
   REQUIRE_CUDA(cudaMemcpy(dtab, htab, len * 4, cudaMemcpyHostToDevice));
   search<<<(nq + 255) / 256, 256>>>(nq, dtab, len, dw);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(hw, dw, nq * 4, cudaMemcpyDeviceToHost));
   int found = 0;
   for (int i = 0; i < nq; i++) {
      ww[i] = -1;
      for (int j = len - 1; j >= 0; j--)   /* last-to-first, keep the lowest */
         if (htab[j] == i * 3 % 1009)
            ww[i] = j;
      found += ww[i] >= 0;
   }
   CHECK(found > 0 && found < nq);   /* both outcomes occur */
   CHECK_ARRAY_I32("search", hw, ww, nq);

   cudaFree(dsteps), cudaFree(dpeak), cudaFree(dlim), cudaFree(dsum), cudaFree(dcnt), cudaFree(dn);
   cudaFree(dtab), cudaFree(dw);
   free(h64), free(w64), free(hs), free(ws), free(hlim), free(hsum), free(hcnt), free(wsum), free(wcnt);
   free(hn), free(wn), free(htab), free(hw), free(ww);
   return check_end();
}
