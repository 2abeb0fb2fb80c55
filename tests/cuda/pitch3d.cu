/*
 * pitch3d.cu — pitched allocations and 2-D/3-D copies and fills at odd
 * sizes and offsets, against a host model of every byte that matters
 * (padding bytes past each row's width are never compared):
 *
 *  - cudaMallocPitch: pitch >= the width and a multiple of 256;
 *    cudaMalloc3D: the same, xsize/ysize echo the extent;
 *  - cudaMemcpy2D host->device with a host pitch wider than the row,
 *    cudaMemset2D of an inner rectangle, device->device into a second
 *    pitched allocation at an offset, device->host with a tight pitch;
 *  - a kernel writing a pitched float array (row = base + y * pitch);
 *  - cudaMemset3D of a whole volume and of an inner box; cudaMemcpy3D
 *    host->device into a box at (x, y, z) = (3, 1, 1), device->device
 *    between volumes at different positions, device->host of everything;
 *  - errors: a pitch smaller than the width -> cudaErrorInvalidPitchValue
 *    (cudaErrorInvalidValue for a single row, as seen on an H200), but a
 *    pitch of 0 is no pitch for a single row (an H100),
 *    an unknown kind -> cudaErrorInvalidMemcpyDirection; zero-sized copies
 *    succeed.
 */
#include "check.h"

__global__ void fill_pitched(float *base, size_t pitch, int w, int h)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
   if (x < w && y < h) {
      float *row = (float *)((char *)base + y * pitch);
      row[x] = (float)(y * 1000 + x);
   }
}

/* Compares the first `width` bytes of each of `rows` rows of two pitched
 * buffers; one check. */
static void check_rows(const char *what, const unsigned char *got, size_t gpitch, const unsigned char *want,
                       size_t wpitch, size_t width, size_t rows)
{
   size_t bad = 0;
   for (size_t r = 0; r < rows; r++)
      for (size_t x = 0; x < width; x++)
         if (got[r * gpitch + x] != want[r * wpitch + x] && bad++ < 8)
            printf("    %s: row %zu byte %zu: got %#x, expected %#x\n", what, r, x, got[r * gpitch + x],
                   want[r * wpitch + x]);
   check_int((long long)bad, 0, what, __FILE__, __LINE__);
}

int main()
{
   check_begin("pitch3d");

   /* ---- 2-D ---- */
   const size_t W = 301, H = 17, hp = W + 13;
   void *d1 = NULL, *d2 = NULL;
   size_t p1 = 0, p2 = 0;
   REQUIRE_CUDA(cudaMallocPitch(&d1, &p1, W, H));
   REQUIRE_CUDA(cudaMallocPitch(&d2, &p2, W + 40, H + 3));
   CHECK(p1 >= W && p1 % 256 == 0);
   CHECK(p2 >= W + 40 && p2 % 256 == 0);
   CHECK((uintptr_t)d1 % 256 == 0);

   unsigned char *src = (unsigned char *)malloc(hp * H);
   for (size_t i = 0; i < hp * H; i++)
      src[i] = (unsigned char)mix32((uint32_t)i);
   /* model of d1 (pitch p1) */
   unsigned char *m1 = (unsigned char *)calloc(p1 * H, 1);
   CHECK_CUDA(cudaMemcpy2D(d1, p1, src, hp, W, H, cudaMemcpyHostToDevice));
   for (size_t y = 0; y < H; y++)
      memcpy(m1 + y * p1, src + y * hp, W);
   /* inner rectangle: rows 3..9, bytes 5..104 */
   CHECK_CUDA(cudaMemset2D((char *)d1 + 3 * p1 + 5, p1, 0x1AB, 100, 7));
   for (size_t y = 3; y < 10; y++)
      memset(m1 + y * p1 + 5, 0xAB, 100);
   /* device -> device into d2 at (x=17, y=2), 250 x 14 */
   CHECK_CUDA(cudaMemset2D(d2, p2, 0x5C, W + 40, H + 3));
   unsigned char *m2 = (unsigned char *)malloc(p2 * (H + 3));
   memset(m2, 0x5C, p2 * (H + 3));
   CHECK_CUDA(cudaMemcpy2D((char *)d2 + 2 * p2 + 17, p2, (char *)d1 + 1 * p1 + 4, p1, 250, 14,
                           cudaMemcpyDeviceToDevice));
   for (size_t y = 0; y < 14; y++)
      memcpy(m2 + (y + 2) * p2 + 17, m1 + (y + 1) * p1 + 4, 250);
   /* back to the host with a tight pitch */
   unsigned char *out1 = (unsigned char *)malloc(W * H), *out2 = (unsigned char *)malloc((W + 40) * (H + 3));
   CHECK_CUDA(cudaMemcpy2D(out1, W, d1, p1, W, H, cudaMemcpyDeviceToHost));
   check_rows("2-D: d1", out1, W, m1, p1, W, H);
   CHECK_CUDA(cudaMemcpy2D(out2, W + 40, d2, p2, W + 40, H + 3, cudaMemcpyDefault));
   check_rows("2-D: d2", out2, W + 40, m2, p2, W + 40, H + 3);

   /* a kernel on a pitched float array */
   const int fw = 70, fh = 33;
   float *f = NULL;
   size_t fp = 0;
   REQUIRE_CUDA(cudaMallocPitch((void **)&f, &fp, fw * sizeof(float), fh));
   fill_pitched<<<dim3((fw + 15) / 16, (fh + 15) / 16), dim3(16, 16)>>>(f, fp, fw, fh);
   CHECK_CUDA(cudaGetLastError());
   float *fo = (float *)malloc(fw * fh * sizeof(float)), *fwant = (float *)malloc(fw * fh * sizeof(float));
   CHECK_CUDA(cudaMemcpy2D(fo, fw * sizeof(float), f, fp, fw * sizeof(float), fh, cudaMemcpyDeviceToHost));
   for (int y = 0; y < fh; y++)
      for (int x = 0; x < fw; x++)
         fwant[y * fw + x] = (float)(y * 1000 + x);
   CHECK_ARRAY_F32("pitched kernel output", fo, fwant, (size_t)fw * fh);

   /* ---- 3-D ---- */
   struct cudaExtent ext = make_cudaExtent(45, 7, 5);
   struct cudaPitchedPtr v1, v2;
   REQUIRE_CUDA(cudaMalloc3D(&v1, ext));
   REQUIRE_CUDA(cudaMalloc3D(&v2, ext));
   CHECK(v1.pitch >= 45 && v1.pitch % 256 == 0);
   CHECK_INT(v1.xsize, 45);
   CHECK_INT(v1.ysize, 7);
   const size_t vp = v1.pitch, sl = vp * 7;   /* model: slice = 7 rows of pitch */
   unsigned char *mv1 = (unsigned char *)malloc(sl * 5), *mv2 = (unsigned char *)malloc(v2.pitch * 7 * 5);
   CHECK_CUDA(cudaMemset3D(v1, 0x11, ext));
   memset(mv1, 0x11, sl * 5);
   /* inner box at (x=2, y=1, z=1) of 20 x 3 x 2 */
   struct cudaPitchedPtr inner = v1;
   inner.ptr = (char *)v1.ptr + 1 * sl + 1 * vp + 2;
   CHECK_CUDA(cudaMemset3D(inner, 0x22, make_cudaExtent(20, 3, 2)));
   for (size_t z = 1; z < 3; z++)
      for (size_t y = 1; y < 4; y++)
         memset(mv1 + z * sl + y * vp + 2, 0x22, 20);
   /* host -> device: a 4 x 6 x 3 host volume (rows of 11 bytes, 6 rows a
    * slice), its box at (1, 2, 0) of 9 x 4 x 3 to (3, 1, 1) */
   const size_t hx = 11, hy = 6, hz = 4;
   unsigned char *hv = (unsigned char *)malloc(hx * hy * hz);
   for (size_t i = 0; i < hx * hy * hz; i++)
      hv[i] = (unsigned char)(mix32((uint32_t)i + 999) | 1);
   struct cudaMemcpy3DParms p = { 0 };
   p.srcPtr = make_cudaPitchedPtr(hv, hx, hx, hy);
   p.srcPos = make_cudaPos(1, 2, 0);
   p.dstPtr = v1;
   p.dstPos = make_cudaPos(3, 1, 1);
   p.extent = make_cudaExtent(9, 4, 3);
   p.kind = cudaMemcpyHostToDevice;
   CHECK_CUDA(cudaMemcpy3D(&p));
   for (size_t z = 0; z < 3; z++)
      for (size_t y = 0; y < 4; y++)
         memcpy(mv1 + (z + 1) * sl + (y + 1) * vp + 3, hv + z * hx * hy + (y + 2) * hx + 1, 9);
   /* device -> device: v1's box (0, 0, 1) 45 x 7 x 4 to v2 at (0, 0, 0) */
   CHECK_CUDA(cudaMemset3D(v2, 0x77, ext));
   memset(mv2, 0x77, v2.pitch * 7 * 5);
   struct cudaMemcpy3DParms q = { 0 };
   q.srcPtr = v1;
   q.srcPos = make_cudaPos(0, 0, 1);
   q.dstPtr = v2;
   q.extent = make_cudaExtent(45, 7, 4);
   q.kind = cudaMemcpyDeviceToDevice;
   CHECK_CUDA(cudaMemcpy3D(&q));
   for (size_t z = 0; z < 4; z++)
      for (size_t y = 0; y < 7; y++)
         memcpy(mv2 + z * v2.pitch * 7 + y * v2.pitch, mv1 + (z + 1) * sl + y * vp, 45);
   /* device -> host of both volumes, tight */
   unsigned char *o1 = (unsigned char *)malloc(45 * 7 * 5), *o2 = (unsigned char *)malloc(45 * 7 * 5);
   struct cudaMemcpy3DParms r = { 0 };
   r.srcPtr = v1;
   r.dstPtr = make_cudaPitchedPtr(o1, 45, 45, 7);
   r.extent = ext;
   r.kind = cudaMemcpyDeviceToHost;
   CHECK_CUDA(cudaMemcpy3D(&r));
   check_rows("3-D: v1", o1, 45, mv1, vp, 45, 7 * 5);
   r.srcPtr = v2;
   r.dstPtr = make_cudaPitchedPtr(o2, 45, 45, 7);
   r.kind = cudaMemcpyDefault;
   CHECK_CUDA(cudaMemcpy3D(&r));
   check_rows("3-D: v2", o2, 45, mv2, v2.pitch, 45, 7 * 5);

   /* ---- errors and empty copies ---- */
   CHECK_ERR(cudaMemcpy2D(out1, W - 1, d1, p1, W, 2, cudaMemcpyDeviceToHost), cudaErrorInvalidPitchValue);
   CHECK_ERR(cudaMemcpy2D(d1, p1, src, W - 1, W, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
   CHECK_ERR(cudaMemcpy2D(d1, p1, src, hp, W, 2, (cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
   /* one row: the driver's invalid value instead (seen on an H200) */
   CHECK_ERR(cudaMemcpy2D(out1, W - 1, d1, p1, W, 1, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
   cudaGetLastError();
   /* a pitch of 0: one row needs none (volumeRender's cudaMemcpy2DToArray
    * of its transfer function), more rows are cudaErrorInvalidPitchValue;
    * the driver takes 0 for any height (seen on an H100, both runtimes) */
   CHECK_CUDA(cudaMemcpy2D(d2, p2, src, 0, W, 1, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy2D(out2, 0, d2, p2, W, 1, cudaMemcpyDeviceToHost));
   check_rows("2-D: one row, pitches 0", out2, W, src, W, W, 1);
   CHECK_ERR(cudaMemcpy2D(d2, p2, src, 0, W, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
   cudaGetLastError();
   cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned char>();
   cudaArray_t arr;
   CHECK_CUDA(cudaMallocArray(&arr, &cd, W, 2));
   CHECK_CUDA(cudaMemcpy2DToArray(arr, 0, 1, src + 3, 0, W, 1, cudaMemcpyHostToDevice));
   memset(out2, 0, W);
   CHECK_CUDA(cudaMemcpy2DFromArray(out2, 0, arr, 0, 1, W, 1, cudaMemcpyDeviceToHost));
   check_rows("2-D: one array row, pitches 0", out2, W, src + 3, W, W, 1);
   CHECK_ERR(cudaMemcpy2DToArray(arr, 0, 0, src, 0, W, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
   cudaGetLastError();
   CHECK_CUDA(cudaFreeArray(arr));
   CHECK_CUDA(cudaMemcpy2D(d1, p1, src, hp, 0, H, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy2D(d1, p1, src, hp, W, 0, cudaMemcpyHostToDevice));
   r.extent = make_cudaExtent(0, 7, 5);
   CHECK_CUDA(cudaMemcpy3D(&r));
   CHECK_CUDA(cudaMemset2D(d1, p1, 0, 0, H));
   /* nothing changed */
   CHECK_CUDA(cudaMemcpy2D(out1, W, d1, p1, W, H, cudaMemcpyDeviceToHost));
   check_rows("2-D: d1 after empty operations", out1, W, m1, p1, W, H);

   CHECK_CUDA(cudaFree(v1.ptr));
   CHECK_CUDA(cudaFree(v2.ptr));
   CHECK_CUDA(cudaFree(f));
   CHECK_CUDA(cudaFree(d1));
   CHECK_CUDA(cudaFree(d2));
   free(src); free(m1); free(m2); free(out1); free(out2); free(fo); free(fwant);
   free(mv1); free(mv2); free(hv); free(o1); free(o2);
   return check_end();
}
