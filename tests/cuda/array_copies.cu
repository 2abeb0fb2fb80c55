/*
 * array_copies.cu — copies to, from and between CUDA arrays that are not
 * 2-D rectangles from linear memory, against a host model of the arrays'
 * bytes:
 *
 *  - the runtime's deprecated runs of bytes: cudaMemcpyToArray and
 *    cudaMemcpyFromArray from (wOffset, hOffset) on, continuing at the start
 *    of the next row (a run over several rows of a 2-D int array), and
 *    their async forms on a stream (device and pinned host memory);
 *    cudaMemcpyArrayToArray between arrays of different widths, so that
 *    the rows of the two break at different places;
 *  - cudaMemcpy2DToArrayAsync, cudaMemcpy2DFromArrayAsync and
 *    cudaMemcpy2DArrayToArray (rectangles at offsets);
 *  - cudaMemcpy3DPeer and cudaMemcpy3DPeerAsync from device 0 to itself
 *    (pitched memory into a 3-D array, the array into other pitched
 *    memory), a device that does not exist -> cudaErrorInvalidDevice;
 *  - the driver's 1-D array copies (libcuda.so.1 through dlopen):
 *    cuMemcpyHtoA, AtoH, DtoA, AtoD, AtoA at byte offsets, cuMemcpyHtoAAsync
 *    and cuMemcpyAtoHAsync on a stream;
 *  - errors: a run past the end of an array (the part inside it is copied
 *    first, as an H200 does), a driver run past the end of a 1-D array's
 *    row -> invalid value; a null array.
 */
#include "drv_check.h"

#include <cuda.h>
#include <dlfcn.h>
#include <string.h>

enum { W1 = 37, H1 = 9, W2 = 23, H2 = 12 };   /* ints a row, rows */
static unsigned char m1[H1][W1 * 4], m2[H2][W2 * 4];   /* the models of the two arrays */

/* The model of a run of n bytes from (x, y) of an array of rows of rb bytes. */
static void run_put(unsigned char *m, size_t rb, size_t x, size_t y, const unsigned char *src, size_t n)
{
   memcpy(m + y * rb + x, src, n);
}
static void run_get(const unsigned char *m, size_t rb, size_t x, size_t y, unsigned char *dst, size_t n)
{
   memcpy(dst, m + y * rb + x, n);
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
   for (size_t k = 0; k < n; k++)
      p[k] = (unsigned char)(seed * 131u + k * 7u + (k >> 8) * 13u);
}

/* Reads the whole array back and compares it with its model. */
static void compare(cudaArray_t a, const unsigned char *model, size_t rb, size_t rows, const char *what)
{
   unsigned char *got = (unsigned char *)malloc(rb * rows);
   CHECK_CUDA(cudaMemcpy2DFromArray(got, rb, a, 0, 0, rb, rows, cudaMemcpyDeviceToHost));
   size_t bad = 0;
   for (size_t k = 0; k < rb * rows; k++)
      bad += got[k] != model[k];
   if (!CHECK(bad == 0))
      printf("  %s: %zu bytes differ\n", what, bad);
   free(got);
}

static void *lib;
#define FN(name, sym) decltype(&name) p_##name = (decltype(&name))dlsym(lib, sym)

static void driver_copies()
{
   FN(cuArrayCreate, "cuArrayCreate_v2");
   FN(cuArrayDestroy, "cuArrayDestroy");
   FN(cuMemcpyHtoA, "cuMemcpyHtoA_v2");
   FN(cuMemcpyAtoH, "cuMemcpyAtoH_v2");
   FN(cuMemcpyDtoA, "cuMemcpyDtoA_v2");
   FN(cuMemcpyAtoD, "cuMemcpyAtoD_v2");
   FN(cuMemcpyAtoA, "cuMemcpyAtoA_v2");
   FN(cuMemcpyHtoAAsync, "cuMemcpyHtoAAsync_v2");
   FN(cuMemcpyAtoHAsync, "cuMemcpyAtoHAsync_v2");
   FN(cuMemcpy3DPeer, "cuMemcpy3DPeer");
   FN(cuCtxGetCurrent, "cuCtxGetCurrent");
   if (!CHECK(p_cuArrayCreate && p_cuArrayDestroy && p_cuMemcpyHtoA && p_cuMemcpyAtoH && p_cuMemcpyDtoA &&
              p_cuMemcpyAtoD && p_cuMemcpyAtoA && p_cuMemcpyHtoAAsync && p_cuMemcpyAtoHAsync && p_cuMemcpy3DPeer &&
              p_cuCtxGetCurrent))
      return;
   enum { N = 64 };   /* floats: 256 bytes a row */
   CUDA_ARRAY_DESCRIPTOR d = {};
   d.Width = N;
   d.Height = 0;
   d.Format = CU_AD_FORMAT_FLOAT;
   d.NumChannels = 1;
   CUarray a = NULL, b = NULL;
   CHECK_CU(p_cuArrayCreate(&a, &d), CUDA_SUCCESS);
   CHECK_CU(p_cuArrayCreate(&b, &d), CUDA_SUCCESS);
   if (!a || !b)
      return;
   unsigned char model_a[4 * N], model_b[4 * N], src[4 * N], got[4 * N];
   fill(model_a, sizeof(model_a), 1);
   fill(model_b, sizeof(model_b), 2);
   CHECK_CU(p_cuMemcpyHtoA(a, 0, model_a, sizeof(model_a)), CUDA_SUCCESS);
   CHECK_CU(p_cuMemcpyHtoA(b, 0, model_b, sizeof(model_b)), CUDA_SUCCESS);
   fill(src, sizeof(src), 3);
   CHECK_CU(p_cuMemcpyHtoA(a, 16, src, 100), CUDA_SUCCESS);   /* bytes 16 .. 115 */
   memcpy(model_a + 16, src, 100);
   memset(got, 0, sizeof(got));
   CHECK_CU(p_cuMemcpyAtoH(got, a, 0, sizeof(got)), CUDA_SUCCESS);
   CHECK(memcmp(got, model_a, sizeof(got)) == 0);
   /* device memory in and out */
   void *dev = NULL;
   CHECK_CUDA(cudaMalloc(&dev, 4 * N));
   fill(src, sizeof(src), 4);
   CHECK_CUDA(cudaMemcpy(dev, src, 4 * N, cudaMemcpyHostToDevice));
   CHECK_CU(p_cuMemcpyDtoA(b, 40, (CUdeviceptr)dev + 8, 120), CUDA_SUCCESS);
   memcpy(model_b + 40, src + 8, 120);
   CHECK_CU(p_cuMemcpyAtoD((CUdeviceptr)dev, b, 0, 4 * N), CUDA_SUCCESS);
   CHECK_CUDA(cudaMemcpy(got, dev, 4 * N, cudaMemcpyDeviceToHost));
   CHECK(memcmp(got, model_b, sizeof(got)) == 0);
   /* array to array */
   CHECK_CU(p_cuMemcpyAtoA(a, 200, b, 4, 56), CUDA_SUCCESS);
   memcpy(model_a + 200, model_b + 4, 56);
   CHECK_CU(p_cuMemcpyAtoH(got, a, 0, sizeof(got)), CUDA_SUCCESS);
   CHECK(memcmp(got, model_a, sizeof(got)) == 0);
   /* async, from and to pinned memory */
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   unsigned char *pin = NULL;
   CHECK_CUDA(cudaMallocHost(&pin, 8 * N));
   fill(pin, 4 * N, 5);
   CHECK_CU(p_cuMemcpyHtoAAsync(a, 64, pin, 128, (CUstream)s), CUDA_SUCCESS);
   memcpy(model_a + 64, pin, 128);
   CHECK_CU(p_cuMemcpyAtoHAsync(pin + 4 * N, a, 0, 4 * N, (CUstream)s), CUDA_SUCCESS);
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK(memcmp(pin + 4 * N, model_a, 4 * N) == 0);
   /* cuMemcpy3DPeer: device memory of the current context into array a */
   CUcontext ctx = NULL;
   CHECK_CU(p_cuCtxGetCurrent(&ctx), CUDA_SUCCESS);
   fill(src, sizeof(src), 6);
   CHECK_CUDA(cudaMemcpy(dev, src, 4 * N, cudaMemcpyHostToDevice));
   CUDA_MEMCPY3D_PEER pc = {};
   pc.srcMemoryType = CU_MEMORYTYPE_DEVICE;
   pc.srcDevice = (CUdeviceptr)dev;
   pc.srcContext = ctx;
   pc.srcPitch = 4 * N;
   pc.dstMemoryType = CU_MEMORYTYPE_ARRAY;
   pc.dstArray = a;
   pc.dstXInBytes = 32;
   pc.WidthInBytes = 64;
   pc.Height = 1;
   pc.Depth = 1;
   CHECK_CU(p_cuMemcpy3DPeer(&pc), CUDA_SUCCESS);
   memcpy(model_a + 32, src, 64);
   CHECK_CU(p_cuMemcpyAtoH(got, a, 0, sizeof(got)), CUDA_SUCCESS);
   CHECK(memcmp(got, model_a, sizeof(got)) == 0);
   /* past the end of the row; nothing at all, whatever the offset (H200) */
   CHECK_CU(p_cuMemcpyHtoA(a, 200, src, 57), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuMemcpyAtoH(got, a, 257, 0), CUDA_SUCCESS);
   CHECK_CUDA(cudaFreeHost(pin));
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaFree(dev));
   CHECK_CU(p_cuArrayDestroy(a), CUDA_SUCCESS);
   CHECK_CU(p_cuArrayDestroy(b), CUDA_SUCCESS);
}

/* cudaMemcpy3DPeer(Async) from device 0 to itself: a box of a pitched
 * 3-D allocation into a 3-D array and out again into another. */
static void peer_copies()
{
   enum { X = 12, Y = 5, Z = 3 };   /* ints */
   cudaExtent e = make_cudaExtent(X * sizeof(int), Y, Z);
   cudaPitchedPtr dev;
   CHECK_CUDA(cudaMalloc3D(&dev, e));
   static int h[Z][Y][X], back[Z][Y][X];
   for (int z = 0; z < Z; z++)
      for (int y = 0; y < Y; y++)
         for (int x = 0; x < X; x++)
            h[z][y][x] = 1000 * z + 100 * y + x;
   cudaMemcpy3DParms up = {};
   up.srcPtr = make_cudaPitchedPtr(h, X * sizeof(int), X, Y);
   up.dstPtr = dev;
   up.extent = e;
   up.kind = cudaMemcpyHostToDevice;
   CHECK_CUDA(cudaMemcpy3D(&up));
   cudaChannelFormatDesc fd = cudaCreateChannelDesc<int>();
   cudaArray_t a3 = NULL;
   CHECK_CUDA(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(X, Y, Z)));
   cudaMemcpy3DPeerParms p = {};
   p.srcPtr = dev;
   p.srcDevice = 0;
   p.dstArray = a3;
   p.dstDevice = 0;
   p.extent = make_cudaExtent(X, Y, Z);   /* elements: an array is a side */
   CHECK_CUDA(cudaMemcpy3DPeer(&p));
   cudaPitchedPtr dev2;   /* peer copies are between devices' memory */
   CHECK_CUDA(cudaMalloc3D(&dev2, e));
   cudaMemcpy3DPeerParms q = {};
   q.srcArray = a3;
   q.srcDevice = 0;
   q.dstPtr = dev2;
   q.dstDevice = 0;
   q.extent = make_cudaExtent(X, Y, Z);
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   CHECK_CUDA(cudaMemcpy3DPeerAsync(&q, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   cudaMemcpy3DParms down = {};
   down.srcPtr = dev2;
   down.dstPtr = make_cudaPitchedPtr(back, X * sizeof(int), X, Y);
   down.extent = e;
   down.kind = cudaMemcpyDeviceToHost;
   CHECK_CUDA(cudaMemcpy3D(&down));
   CHECK(memcmp(h, back, sizeof(h)) == 0);
   CHECK_CUDA(cudaFree(dev2.ptr));
   p.dstDevice = 99;
   CHECK_ERR(cudaMemcpy3DPeer(&p), cudaErrorInvalidDevice);
   cudaGetLastError();
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaFreeArray(a3));
   CHECK_CUDA(cudaFree(dev.ptr));
}

int main()
{
   check_begin("array_copies");
   cudaChannelFormatDesc fd = cudaCreateChannelDesc<int>();
   cudaArray_t a1 = NULL, a2 = NULL;
   REQUIRE_CUDA(cudaMallocArray(&a1, &fd, W1, H1));
   REQUIRE_CUDA(cudaMallocArray(&a2, &fd, W2, H2));
   const size_t r1 = W1 * 4, r2 = W2 * 4;
   fill(&m1[0][0], sizeof(m1), 10);
   fill(&m2[0][0], sizeof(m2), 11);
   CHECK_CUDA(cudaMemcpy2DToArray(a1, 0, 0, m1, r1, r1, H1, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy2DToArray(a2, 0, 0, m2, r2, r2, H2, cudaMemcpyHostToDevice));

   /* a run over rows 2 .. 5 of a1: 128 bytes of row 2, rows 3 and 4, 124 of row 5 */
   unsigned char src[1024], got[1024];
   fill(src, sizeof(src), 12);
   CHECK_CUDA(cudaMemcpyToArray(a1, 20, 2, src, 400, cudaMemcpyHostToDevice));
   run_put(&m1[0][0], r1, 20, 2, src, 400);
   compare(a1, &m1[0][0], r1, H1, "cudaMemcpyToArray");
   memset(got, 0, sizeof(got));
   CHECK_CUDA(cudaMemcpyFromArray(got, a1, 100, 4, 300, cudaMemcpyDeviceToHost));
   unsigned char want[1024];
   run_get(&m1[0][0], r1, 100, 4, want, 300);
   CHECK(memcmp(got, want, 300) == 0);

   /* async runs: device memory in, pinned memory out */
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreate(&s));
   void *dev = NULL;
   unsigned char *pin = NULL;
   CHECK_CUDA(cudaMalloc(&dev, 1024));
   CHECK_CUDA(cudaMallocHost(&pin, 1024));
   fill(src, sizeof(src), 13);
   CHECK_CUDA(cudaMemcpy(dev, src, 1024, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpyToArrayAsync(a1, 0, 6, dev, 3 * r1, cudaMemcpyDeviceToDevice, s));
   run_put(&m1[0][0], r1, 0, 6, src, 3 * r1);
   CHECK_CUDA(cudaMemcpyFromArrayAsync(pin, a1, 4, 5, 2 * r1, cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   run_get(&m1[0][0], r1, 4, 5, want, 2 * r1);
   CHECK(memcmp(pin, want, 2 * r1) == 0);

   /* async rectangles */
   fill(src, sizeof(src), 14);
   CHECK_CUDA(cudaMemcpy2DToArrayAsync(a2, 8, 3, src, 50, 40, 5, cudaMemcpyHostToDevice, s));
   for (int y = 0; y < 5; y++)
      memcpy(&m2[3 + y][8], src + 50 * y, 40);
   CHECK_CUDA(cudaMemcpy2DFromArrayAsync(pin, 64, a2, 12, 1, 60, 7, cudaMemcpyDeviceToHost, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   bool rect_ok = true;
   for (int y = 0; y < 7; y++)
      rect_ok = rect_ok && memcmp(pin + 64 * y, &m2[1 + y][12], 60) == 0;
   CHECK(rect_ok);
   compare(a2, &m2[0][0], r2, H2, "cudaMemcpy2DToArrayAsync");

   /* between arrays: a rectangle, then a run whose rows break at different places */
   CHECK_CUDA(cudaMemcpy2DArrayToArray(a2, 4, 6, a1, 16, 2, 48, 4, cudaMemcpyDeviceToDevice));
   for (int y = 0; y < 4; y++)
      memcpy(&m2[6 + y][4], &m1[2 + y][16], 48);
   compare(a2, &m2[0][0], r2, H2, "cudaMemcpy2DArrayToArray");
   CHECK_CUDA(cudaMemcpyArrayToArray(a2, 12, 3, a1, 60, 1, 250, cudaMemcpyDeviceToDevice));
   run_get(&m1[0][0], r1, 60, 1, want, 250);
   run_put(&m2[0][0], r2, 12, 3, want, 250);
   compare(a2, &m2[0][0], r2, H2, "cudaMemcpyArrayToArray");

   /* errors: past the end of the array; no array */
   /* the last row is written, then the run fails (an H200 does so) */
   CHECK_ERR(cudaMemcpyToArray(a1, 0, H1 - 1, src, r1 + 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
   run_put(&m1[0][0], r1, 0, H1 - 1, src, r1);
   CHECK_ERR(cudaMemcpyFromArray(got, a2, 8, H2 - 1, r2, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemcpyToArray(NULL, 0, 0, src, 4, cudaMemcpyHostToDevice), cudaErrorInvalidResourceHandle);
   compare(a1, &m1[0][0], r1, H1, "after the failed copies");

   CHECK_CUDA(cudaFreeHost(pin));
   CHECK_CUDA(cudaFree(dev));
   CHECK_CUDA(cudaStreamDestroy(s));
   CHECK_CUDA(cudaFreeArray(a1));
   CHECK_CUDA(cudaFreeArray(a2));

   peer_copies();
   lib = dlopen("libcuda.so.1", RTLD_NOW);
   if (CHECK(lib != NULL))
      driver_copies();
   return check_end();
}
