/*
 * drvmem.cu — the Driver API's memory calls that the runtime does not
 * reach, called through libcuda.so.1 (dlopen, so the program needs no
 * -lcuda) on the primary context the runtime made current:
 *
 *  - cuMemsetD16 and cuMemsetD2D8/16/32 (sync and async) on a pitched
 *    allocation from cuMemAllocPitch, against a host model of the rows;
 *  - cuMemcpy2DUnaligned and cuMemcpy3D with CU_MEMORYTYPE_UNIFIED sides;
 *  - cuMemGetAddressRange and cuPointerGetAttribute (range start and size,
 *    memory type, managed flag, device ordinal, device pointer) of device,
 *    pinned and managed memory; cuMemHostGetDevicePointer;
 *  - errors: cuMemAllocPitch with an element size of 3, cuMemsetD32 and
 *    cuMemsetD2D16 at misaligned addresses, cuMemsetD2D32 and cuMemcpy2D
 *    (several rows or one) with a pitch below the width, cuMemsetD8 past
 *    the end of an allocation, the memory type of an unknown address and
 *    the host pointer of device memory -> CUDA_ERROR_INVALID_VALUE;
 *    cuMemGetAddressRange of an unknown address -> CUDA_ERROR_NOT_FOUND
 *    (each seen so on an H200).
 */
#include "drv_check.h"

#include <cuda.h>
#include <dlfcn.h>

static void *lib;
#define FN(name, sym) decltype(&name) p_##name = (decltype(&name))dlsym(lib, sym)

int main()
{
   check_begin("drvmem");
   lib = dlopen("libcuda.so.1", RTLD_NOW);
   if (!CHECK(lib != NULL))
      return check_end();
   REQUIRE_CUDA(cudaFree(0));   /* the primary context, current */
   FN(cuMemAllocPitch, "cuMemAllocPitch_v2");
   FN(cuMemFree, "cuMemFree_v2");
   FN(cuMemsetD8, "cuMemsetD8_v2");
   FN(cuMemsetD16, "cuMemsetD16_v2");
   FN(cuMemsetD32, "cuMemsetD32_v2");
   FN(cuMemsetD2D8, "cuMemsetD2D8_v2");
   FN(cuMemsetD2D16, "cuMemsetD2D16_v2");
   FN(cuMemsetD2D32, "cuMemsetD2D32_v2");
   FN(cuMemsetD2D32Async, "cuMemsetD2D32Async");
   FN(cuMemsetD16Async, "cuMemsetD16Async");
   FN(cuMemcpy2DUnaligned, "cuMemcpy2DUnaligned_v2");
   FN(cuMemcpy2D, "cuMemcpy2D_v2");
   FN(cuMemcpy3D, "cuMemcpy3D_v2");
   FN(cuMemGetAddressRange, "cuMemGetAddressRange_v2");
   FN(cuPointerGetAttribute, "cuPointerGetAttribute");
   FN(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
   FN(cuCtxSynchronize, "cuCtxSynchronize");
   if (!CHECK(p_cuMemAllocPitch && p_cuMemFree && p_cuMemsetD8 && p_cuMemsetD16 && p_cuMemsetD32 &&
              p_cuMemsetD2D8 && p_cuMemsetD2D16 && p_cuMemsetD2D32 && p_cuMemsetD2D32Async && p_cuMemsetD16Async &&
              p_cuMemcpy2DUnaligned && p_cuMemcpy2D && p_cuMemcpy3D && p_cuMemGetAddressRange &&
              p_cuPointerGetAttribute && p_cuMemHostGetDevicePointer && p_cuCtxSynchronize))
      return check_end();

   /* fills on a pitched allocation: 24 rows of 200 bytes */
   const size_t W = 200, H = 24;
   CUdeviceptr d;
   size_t pitch = 0;
   CHECK_CU(p_cuMemAllocPitch(&d, &pitch, W, H, 4), CUDA_SUCCESS);
   if (pitch == 0)
      return check_end();
   CHECK(pitch >= W && pitch % 256 == 0);
   unsigned char *model = (unsigned char *)calloc(pitch * H, 1), *got = (unsigned char *)malloc(W * H);
   CHECK_CU(p_cuMemsetD8(d, 0x11, pitch * H), CUDA_SUCCESS);
   memset(model, 0x11, pitch * H);
   /* 37 halves at byte 2 of row 0 */
   CHECK_CU(p_cuMemsetD16(d + 2, 0xA1B2, 37), CUDA_SUCCESS);
   for (int k = 0; k < 37; k++) {
      model[2 + 2 * k] = 0xB2;
      model[3 + 2 * k] = 0xA1;
   }
   /* rows 2..6, bytes 10..59 */
   CHECK_CU(p_cuMemsetD2D8(d + 2 * pitch + 10, pitch, 0x5E, 50, 5), CUDA_SUCCESS);
   for (size_t y = 2; y < 7; y++)
      memset(model + y * pitch + 10, 0x5E, 50);
   /* rows 8..10, 21 halves from byte 6 */
   CHECK_CU(p_cuMemsetD2D16(d + 8 * pitch + 6, pitch, 0x0102, 21, 3), CUDA_SUCCESS);
   for (size_t y = 8; y < 11; y++)
      for (int k = 0; k < 21; k++) {
         model[y * pitch + 6 + 2 * k] = 0x02;
         model[y * pitch + 7 + 2 * k] = 0x01;
      }
   /* rows 12..19, 13 words from byte 40 */
   CHECK_CU(p_cuMemsetD2D32(d + 12 * pitch + 40, pitch, 0xCAFEF00Du, 13, 8), CUDA_SUCCESS);
   for (size_t y = 12; y < 20; y++)
      for (int k = 0; k < 13; k++) {
         uint32_t v = 0xCAFEF00Du;
         memcpy(model + y * pitch + 40 + 4 * k, &v, 4);
      }
   /* async on the null stream: row 21 words, row 23 halves */
   CHECK_CU(p_cuMemsetD2D32Async(d + 21 * pitch, pitch, 0x01020304u, 50, 1, 0), CUDA_SUCCESS);
   for (int k = 0; k < 50; k++) {
      uint32_t v = 0x01020304u;
      memcpy(model + 21 * pitch + 4 * k, &v, 4);
   }
   CHECK_CU(p_cuMemsetD16Async(d + 23 * pitch + 100, 0x7777, 50, 0), CUDA_SUCCESS);
   memset(model + 23 * pitch + 100, 0x77, 100);
   CHECK_CU(p_cuCtxSynchronize(), CUDA_SUCCESS);
   /* back through cuMemcpy2DUnaligned, unified on both sides */
   CUDA_MEMCPY2D c2;
   memset(&c2, 0, sizeof(c2));
   c2.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
   c2.srcDevice = d;
   c2.srcPitch = pitch;
   c2.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
   c2.dstDevice = (CUdeviceptr)(uintptr_t)got;
   c2.dstPitch = W;
   c2.WidthInBytes = W;
   c2.Height = H;
   CHECK_CU(p_cuMemcpy2DUnaligned(&c2), CUDA_SUCCESS);
   size_t bad = 0;
   for (size_t y = 0; y < H; y++)
      for (size_t x = 0; x < W; x++)
         if (got[y * W + x] != model[y * pitch + x] && bad++ < 8)
            printf("    row %zu byte %zu: got %#x, expected %#x\n", y, x, got[y * W + x], model[y * pitch + x]);
   CHECK_INT(bad, 0);

   /* cuMemcpy3D: rows 2..5 of the allocation as 2 slices of 2 rows, 30
    * bytes from x = 8, to a host volume of 30 x 2 x 2 */
   CUDA_MEMCPY3D c3;
   memset(&c3, 0, sizeof(c3));
   unsigned char vol[2][2][30];
   memset(vol, 0, sizeof(vol));
   c3.srcMemoryType = CU_MEMORYTYPE_DEVICE;
   c3.srcDevice = d;
   c3.srcXInBytes = 8;
   c3.srcY = 2;
   c3.srcPitch = pitch;
   c3.srcHeight = 2;
   c3.dstMemoryType = CU_MEMORYTYPE_HOST;
   c3.dstHost = vol;
   c3.dstPitch = 30;
   c3.dstHeight = 2;
   c3.WidthInBytes = 30;
   c3.Height = 2;
   c3.Depth = 2;
   /* srcY + Height past srcHeight: rows outside their slice (an H200
    * answers CUDA_ERROR_INVALID_VALUE); the same rows as slices 1 and 2 */
   CHECK_CU(p_cuMemcpy3D(&c3), CUDA_ERROR_INVALID_VALUE);
   c3.srcY = 0;
   c3.srcZ = 1;
   CHECK_CU(p_cuMemcpy3D(&c3), CUDA_SUCCESS);
   bad = 0;
   for (int z = 0; z < 2; z++)
      for (int y = 0; y < 2; y++)
         for (int x = 0; x < 30; x++)
            bad += vol[z][y][x] != model[(2 + z * 2 + y) * pitch + 8 + x];
   CHECK_INT(bad, 0);

   /* address ranges and pointer attributes */
   CUdeviceptr base = 0;
   size_t size = 0;
   CHECK_CU(p_cuMemGetAddressRange(&base, &size, d + 1000), CUDA_SUCCESS);
   CHECK(base == d);
   CHECK_INT(size, pitch * H);
   CUdeviceptr start = 0;
   size_t rsize = 0;
   unsigned type = 0;
   int ordinal = -1, managed = -1;
   CHECK_CU(p_cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 77), CUDA_SUCCESS);
   CHECK(start == d);
   CHECK_CU(p_cuPointerGetAttribute(&rsize, CU_POINTER_ATTRIBUTE_RANGE_SIZE, d + 77), CUDA_SUCCESS);
   CHECK_INT(rsize, pitch * H);
   CHECK_CU(p_cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d), CUDA_SUCCESS);
   CHECK_INT(type, CU_MEMORYTYPE_DEVICE);
   CHECK_CU(p_cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, d), CUDA_SUCCESS);
   CHECK_INT(ordinal, 0);
   CHECK_CU(p_cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, d), CUDA_SUCCESS);
   CHECK_INT(managed, 0);
   void *m = NULL, *h = NULL;
   REQUIRE_CUDA(cudaMallocManaged(&m, 4096));
   REQUIRE_CUDA(cudaMallocHost(&h, 4096));
   managed = -1;
   CHECK_CU(p_cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, (CUdeviceptr)(uintptr_t)m),
            CUDA_SUCCESS);
   CHECK_INT(managed, 1);
   CHECK_CU(p_cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)h),
            CUDA_SUCCESS);
   CHECK_INT(type, CU_MEMORYTYPE_HOST);
   CUdeviceptr hd = 0;
   CHECK_CU(p_cuMemHostGetDevicePointer(&hd, (char *)h + 8, 0), CUDA_SUCCESS);
   CHECK(hd == (CUdeviceptr)(uintptr_t)h + 8);
   CUdeviceptr dp = 0;
   CHECK_CU(p_cuPointerGetAttribute(&dp, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)(uintptr_t)h),
            CUDA_SUCCESS);
   CHECK(dp == (CUdeviceptr)(uintptr_t)h);

   /* errors */
   CUdeviceptr e;
   size_t ep;
   CHECK_CU(p_cuMemAllocPitch(&e, &ep, 100, 10, 3), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuMemsetD32(d + 2, 0, 4), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuMemsetD2D16(d + 1, pitch, 0, 4, 2), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuMemsetD8(d + pitch * H - 4, 0, 8), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuMemsetD2D32(d, 100, 0, 26, 2), CUDA_ERROR_INVALID_VALUE);   /* pitch below the row */
   c2.srcPitch = W - 1;
   c2.Height = 2;
   CHECK_CU(p_cuMemcpy2D(&c2), CUDA_ERROR_INVALID_VALUE);
   c2.srcPitch = pitch;
   c2.dstPitch = 10;   /* one row too: the pitch is still checked */
   c2.Height = 1;
   CHECK_CU(p_cuMemcpy2D(&c2), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuMemGetAddressRange(&base, &size, 12345), CUDA_ERROR_NOT_FOUND);
   CHECK_CU(p_cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 12345), CUDA_ERROR_INVALID_VALUE);
   void *hp = NULL;   /* device memory has no host address */
   CHECK_CU(p_cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, d), CUDA_ERROR_INVALID_VALUE);

   CHECK_CU(p_cuMemFree(d), CUDA_SUCCESS);
   CHECK_CUDA(cudaFree(m));
   CHECK_CUDA(cudaFreeHost(h));
   free(model);
   free(got);
   return check_end();
}
