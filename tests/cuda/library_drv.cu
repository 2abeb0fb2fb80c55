/*
 * library_drv.cu — the Driver API's module and library management that the
 * runtime does not reach, called through libcuda.so.1 (dlopen, so the
 * program needs no -lcuda) on the primary context the runtime made current,
 * with the PTX of library_ptx.h (.target sm_75):
 *
 *  - cuModuleLoad of the PTX written to /tmp, cuModuleLoadFatBinary of it
 *    wrapped in a fatbin; cuModuleGetFunctionCount and
 *    cuModuleEnumerateFunctions (the count, the handles those of
 *    cuModuleGetFunction, the same order twice); a launch of an enumerated
 *    function against a host computation;
 *  - cuLibraryLoadFromFile, cuLibraryGetKernelCount,
 *    cuLibraryEnumerateKernels, cuKernelGetLibrary (the library back from
 *    each kernel), a launch through cuKernelGetFunction;
 *  - cuLibraryGetUnifiedFunction of a library without unified functions:
 *    CUDA_ERROR_INVALID_VALUE (an H200's answer);
 *  - errors: a missing file (CUDA_ERROR_FILE_NOT_FOUND), NULL outputs
 *    (CUDA_ERROR_INVALID_VALUE).
 */
#include "drv_check.h"
#include "library_ptx.h"

#include <cuda.h>
#include <dlfcn.h>
#include <unistd.h>

#define N 600
#define BLOCK 128

static void *dl;
#define FN(name, sym) decltype(&name) p_##name = (decltype(&name))dlsym(dl, sym)

static int in_h[N], out_h[N], want[N];

/* scale_add by a driver function: out = in * a + 7 (the initial bias). */
static void run_scale_add(CUfunction f, CUdeviceptr out_d, CUdeviceptr in_d, int a, const char *what)
{
   FN(cuLaunchKernel, "cuLaunchKernel");
   FN(cuCtxSynchronize, "cuCtxSynchronize");
   FN(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
   FN(cuMemsetD32, "cuMemsetD32_v2");
   if (!CHECK(p_cuLaunchKernel && p_cuCtxSynchronize && p_cuMemcpyDtoH && p_cuMemsetD32))
      return;
   int n = N;
   void *args[] = { &out_d, &in_d, &a, &n };
   CHECK_CU(p_cuMemsetD32(out_d, 0, N), CUDA_SUCCESS);
   CHECK_CU(p_cuLaunchKernel(f, (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
   CHECK_CU(p_cuCtxSynchronize(), CUDA_SUCCESS);
   CHECK_CU(p_cuMemcpyDtoH(out_h, out_d, sizeof(out_h)), CUDA_SUCCESS);
   lib_scale_add_ref(want, in_h, a, LIB_BIAS0, N);
   CHECK_ARRAY_I32(what, out_h, want, N);
}

/* An enumeration of two handles (e0, e1, then a0, a1 from a second call)
 * against those looked up by name: the same two, in the same order twice. */
static void check_enumerated(const void *e0, const void *e1, const void *a0, const void *a1, const void *scale,
                             const void *rev)
{
   CHECK(scale && rev && scale != rev);
   CHECK((e0 == scale && e1 == rev) || (e0 == rev && e1 == scale));
   CHECK(e0 == a0 && e1 == a1);
}

/* A module's functions: counted, enumerated (cuModuleGetFunction's
 * handles, in a stable order), scale_add run from the enumeration. */
static void check_module(CUmodule mod, CUdeviceptr out_d, CUdeviceptr in_d, int a, const char *what)
{
   FN(cuModuleGetFunctionCount, "cuModuleGetFunctionCount");
   FN(cuModuleEnumerateFunctions, "cuModuleEnumerateFunctions");
   FN(cuModuleGetFunction, "cuModuleGetFunction");
   if (!CHECK(p_cuModuleGetFunctionCount && p_cuModuleEnumerateFunctions && p_cuModuleGetFunction))
      return;
   unsigned count = 0;
   CHECK_CU(p_cuModuleGetFunctionCount(&count, mod), CUDA_SUCCESS);
   CHECK_INT(count, LIB_KERNELS);
   CHECK_CU(p_cuModuleGetFunctionCount(NULL, mod), CUDA_ERROR_INVALID_VALUE);
   CUfunction scale = NULL, rev = NULL, fs[LIB_KERNELS] = {}, again[LIB_KERNELS] = {};
   CHECK_CU(p_cuModuleGetFunction(&scale, mod, "scale_add"), CUDA_SUCCESS);
   CHECK_CU(p_cuModuleGetFunction(&rev, mod, "smem_rev"), CUDA_SUCCESS);
   CHECK_CU(p_cuModuleEnumerateFunctions(fs, LIB_KERNELS, mod), CUDA_SUCCESS);
   CHECK_CU(p_cuModuleEnumerateFunctions(again, LIB_KERNELS, mod), CUDA_SUCCESS);
   CHECK_CU(p_cuModuleEnumerateFunctions(NULL, LIB_KERNELS, mod), CUDA_ERROR_INVALID_VALUE);
   check_enumerated(fs[0], fs[1], again[0], again[1], scale, rev);
   if (fs[0] && fs[1])
      run_scale_add(fs[0] == scale ? fs[0] : fs[1], out_d, in_d, a, what);
}

static void check_library(const char *path, CUdeviceptr out_d, CUdeviceptr in_d)
{
   FN(cuLibraryLoadFromFile, "cuLibraryLoadFromFile");
   FN(cuLibraryUnload, "cuLibraryUnload");
   FN(cuLibraryGetKernel, "cuLibraryGetKernel");
   FN(cuLibraryGetKernelCount, "cuLibraryGetKernelCount");
   FN(cuLibraryEnumerateKernels, "cuLibraryEnumerateKernels");
   FN(cuKernelGetLibrary, "cuKernelGetLibrary");
   FN(cuKernelGetFunction, "cuKernelGetFunction");
   FN(cuLibraryGetUnifiedFunction, "cuLibraryGetUnifiedFunction");
   if (!CHECK(p_cuLibraryLoadFromFile && p_cuLibraryUnload && p_cuLibraryGetKernel && p_cuLibraryGetKernelCount &&
              p_cuLibraryEnumerateKernels && p_cuKernelGetLibrary && p_cuKernelGetFunction &&
              p_cuLibraryGetUnifiedFunction))
      return;
   CUlibrary lib = NULL;
   CHECK_CU(p_cuLibraryLoadFromFile(&lib, "/nonexistent/library_drv.ptx", NULL, NULL, 0, NULL, NULL, 0),
            CUDA_ERROR_FILE_NOT_FOUND);
   CHECK_CU(p_cuLibraryLoadFromFile(&lib, path, NULL, NULL, 0, NULL, NULL, 0), CUDA_SUCCESS);
   if (!lib)
      return;
   unsigned count = 0;
   CHECK_CU(p_cuLibraryGetKernelCount(&count, lib), CUDA_SUCCESS);
   CHECK_INT(count, LIB_KERNELS);
   CHECK_CU(p_cuLibraryGetKernelCount(NULL, lib), CUDA_ERROR_INVALID_VALUE);
   CUkernel scale = NULL, rev = NULL, ks[LIB_KERNELS] = {}, again[LIB_KERNELS] = {};
   CHECK_CU(p_cuLibraryGetKernel(&scale, lib, "scale_add"), CUDA_SUCCESS);
   CHECK_CU(p_cuLibraryGetKernel(&rev, lib, "smem_rev"), CUDA_SUCCESS);
   CHECK_CU(p_cuLibraryEnumerateKernels(ks, LIB_KERNELS, lib), CUDA_SUCCESS);
   CHECK_CU(p_cuLibraryEnumerateKernels(again, LIB_KERNELS, lib), CUDA_SUCCESS);
   CHECK_CU(p_cuLibraryEnumerateKernels(NULL, LIB_KERNELS, lib), CUDA_ERROR_INVALID_VALUE);
   check_enumerated(ks[0], ks[1], again[0], again[1], scale, rev);
   for (int i = 0; i < LIB_KERNELS; i++) {
      CUlibrary back = NULL;
      CHECK_CU(p_cuKernelGetLibrary(&back, ks[i]), CUDA_SUCCESS);
      CHECK(back == lib);
   }
   CHECK_CU(p_cuKernelGetLibrary(NULL, scale), CUDA_ERROR_INVALID_VALUE);
   void *fp = NULL;
   CHECK_CU(p_cuLibraryGetUnifiedFunction(&fp, lib, "scale_add"), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuLibraryGetUnifiedFunction(NULL, lib, "scale_add"), CUDA_ERROR_INVALID_VALUE);
   CUfunction f = NULL;
   CHECK_CU(p_cuKernelGetFunction(&f, scale), CUDA_SUCCESS);
   if (f)
      run_scale_add(f, out_d, in_d, -9, "scale_add of cuLibraryLoadFromFile");
   CHECK_CU(p_cuLibraryUnload(lib), CUDA_SUCCESS);
}

int main()
{
   check_begin("library_drv");
   dl = dlopen("libcuda.so.1", RTLD_NOW);
   if (!CHECK(dl != NULL))
      return check_end();
   REQUIRE_CUDA(cudaFree(0));   /* the primary context, current */
   FN(cuModuleLoad, "cuModuleLoad");
   FN(cuModuleLoadFatBinary, "cuModuleLoadFatBinary");
   FN(cuModuleUnload, "cuModuleUnload");
   FN(cuMemAlloc, "cuMemAlloc_v2");
   FN(cuMemFree, "cuMemFree_v2");
   FN(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
   if (!CHECK(p_cuModuleLoad && p_cuModuleLoadFatBinary && p_cuModuleUnload && p_cuMemAlloc && p_cuMemFree &&
              p_cuMemcpyHtoD))
      return check_end();

   for (int i = 0; i < N; i++)
      in_h[i] = i * 37 - 5000;
   CUdeviceptr in_d = 0, out_d = 0;
   CHECK_CU(p_cuMemAlloc(&in_d, sizeof(in_h)), CUDA_SUCCESS);
   CHECK_CU(p_cuMemAlloc(&out_d, sizeof(out_h)), CUDA_SUCCESS);
   CHECK_CU(p_cuMemcpyHtoD(in_d, in_h, sizeof(in_h)), CUDA_SUCCESS);

   char path[64];
   snprintf(path, sizeof(path), "/tmp/library_drv.%d.ptx", (int)getpid());
   FILE *f = fopen(path, "w");
   if (!CHECK(f != NULL))
      return check_end();
   CHECK(fwrite(library_ptx, 1, strlen(library_ptx), f) == strlen(library_ptx));
   fclose(f);

   CUmodule mod = NULL;
   CHECK_CU(p_cuModuleLoad(&mod, "/nonexistent/library_drv.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
   CHECK_CU(p_cuModuleLoad(NULL, path), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuModuleLoad(&mod, path), CUDA_SUCCESS);
   if (mod) {
      check_module(mod, out_d, in_d, 4, "scale_add of cuModuleLoad");
      CHECK_CU(p_cuModuleUnload(mod), CUDA_SUCCESS);
   }

   size_t len = 0;
   unsigned char *fb = lib_fatbin(&len);
   mod = NULL;
   CHECK_CU(p_cuModuleLoadFatBinary(&mod, fb), CUDA_SUCCESS);
   CHECK_CU(p_cuModuleLoadFatBinary(NULL, fb), CUDA_ERROR_INVALID_VALUE);
   free(fb);
   if (mod) {
      check_module(mod, out_d, in_d, 6, "scale_add of cuModuleLoadFatBinary");
      CHECK_CU(p_cuModuleUnload(mod), CUDA_SUCCESS);
   }

   check_library(path, out_d, in_d);
   remove(path);
   CHECK_CU(p_cuMemFree(in_d), CUDA_SUCCESS);
   CHECK_CU(p_cuMemFree(out_d), CUDA_SUCCESS);
   return check_end();
}
