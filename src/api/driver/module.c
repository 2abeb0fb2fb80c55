/*
 * module.c — modules (cuModule*) and libraries (cuLibrary*), which are the
 * same object here: a library is loaded like a module, its kernels
 * translated when first used.  CUkernel and CUfunction are one object too
 * (NVIDIA's runtime passes a CUkernel where a CUfunction is expected).
 */
#include "internal.h"

LOG_CHANNEL(module);

/* Image size is unknown through this API: the container's own sizes bound
 * it (fatbin), or the NUL terminator (PTX). */
static CUresult load_image(core_ctx *c, const void *image, core_module **out)
{
   return (CUresult)core_module_load(c, image, SIZE_MAX, out);
}

/* ==== cuModuleLoadData (libcuda.@) ==== */
CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image)
{
   API_ENTER("module=%p image=%p", (void *)module, image);
   API_CHECK(module && image, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   core_module *m;
   CUresult r = load_image(c, image, &m);
   if (r == CUDA_SUCCESS)
      *module = (CUmodule)(void *)m;
   return API_RETURN(r);
}

/* ==== cuModuleLoadDataEx (libcuda.@) ====
 * JIT options tune ptxas; they do not change results, so they are accepted
 * and ignored, except the log buffers, which we leave empty. */
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues)
{
   API_ENTER("module=%p image=%p numOptions=%u options=%p optionValues=%p", (void *)module, image, numOptions,
             (void *)options, (void *)optionValues);
   API_CHECK(module && image, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(numOptions == 0 || (options && optionValues), CUDA_ERROR_INVALID_VALUE);
   for (unsigned k = 0; k < numOptions; k++) {
      if ((options[k] == CU_JIT_INFO_LOG_BUFFER || options[k] == CU_JIT_ERROR_LOG_BUFFER) && optionValues[k])
         *(char *)optionValues[k] = 0;
      if (options[k] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES || options[k] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
         optionValues[k] = 0;
   }
   return cuModuleLoadData(module, image);
}

/* ==== cuModuleUnload (libcuda.@) ==== */
CUresult CUDAAPI cuModuleUnload(CUmodule hmod)
{
   API_ENTER("hmod=%p", (void *)hmod);
   API_NEED_INIT();
   API_CHECK(core_check_module(module_of(hmod)), CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_module_unload(module_of(hmod)));
}

/* ==== cuModuleGetFunction (libcuda.@) ==== */
CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
   API_ENTER("hfunc=%p hmod=%p name=%s", (void *)hfunc, (void *)hmod, name ? name : "(null)");
   API_CHECK(hfunc && name, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_check_module(module_of(hmod)), CUDA_ERROR_INVALID_HANDLE);
   core_kernel *k;
   CUresult r = (CUresult)core_module_get_kernel(module_of(hmod), name, &k);
   if (r == CUDA_SUCCESS)
      *hfunc = (CUfunction)(void *)k;
   return API_RETURN(r);
}

/* ==== cuModuleGetGlobal_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
   API_ENTER("dptr=%p bytes=%p hmod=%p name=%s", (void *)dptr, (void *)bytes, (void *)hmod,
             name ? name : "(null)");
   API_CHECK(name, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_check_module(module_of(hmod)), CUDA_ERROR_INVALID_HANDLE);
   uint64_t p;
   size_t sz;
   CUresult r = (CUresult)core_module_get_global(module_of(hmod), name, &p, &sz);
   if (r == CUDA_SUCCESS) {
      if (dptr)
         *dptr = p;
      if (bytes)
         *bytes = sz;
   }
   return API_RETURN(r);
}

/* ==== cuLibraryLoadData (libcuda.@) ==== */
CUresult CUDAAPI cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                   void **jitOptionsValues, unsigned int numJitOptions,
                                   CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                   unsigned int numLibraryOptions)
{
   API_ENTER("library=%p code=%p jitOptions=%p jitOptionsValues=%p numJitOptions=%u libraryOptions=%p "
             "libraryOptionValues=%p numLibraryOptions=%u", (void *)library, code, (void *)jitOptions,
             (void *)jitOptionsValues, numJitOptions, (void *)libraryOptions, (void *)libraryOptionValues,
             numLibraryOptions);
   API_CHECK(library && code, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(numJitOptions == 0 || (jitOptions && jitOptionsValues), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(numLibraryOptions == 0 || (libraryOptions && libraryOptionValues), CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   /* A library needs no current context in CUDA (NVIDIA's runtime loads
    * those with __managed__ variables before it has one): it goes into
    * the current context, or else device 0's primary context, made (not
    * retained) for it. */
   core_ctx *c = core_ctx_current();
   if (!core_check_ctx(c)) {
      core_device *d = core_device_get(0);
      API_CHECK(d, CUDA_ERROR_NO_DEVICE);
      CUresult pr = (CUresult)core_ctx_primary(d, &c);
      if (pr != CUDA_SUCCESS)
         return API_RETURN(pr);
   }
   core_module *m;
   CUresult r = (CUresult)core_library_load(c, code, SIZE_MAX, &m);
   if (r == CUDA_SUCCESS)
      *library = (CUlibrary)(void *)m;
   return API_RETURN(r);
}

/* ==== cuLibraryUnload (libcuda.@) ==== */
CUresult CUDAAPI cuLibraryUnload(CUlibrary library)
{
   API_ENTER("library=%p", (void *)library);
   API_NEED_INIT();
   API_CHECK(core_check_module(module_of(library)), CUDA_ERROR_INVALID_HANDLE);
   return API_RETURN((CUresult)core_module_unload(module_of(library)));
}

/* ==== cuLibraryGetKernel (libcuda.@) ==== */
CUresult CUDAAPI cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
   API_ENTER("pKernel=%p library=%p name=%s", (void *)pKernel, (void *)library, name ? name : "(null)");
   API_CHECK(pKernel && name, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_check_module(module_of(library)), CUDA_ERROR_INVALID_HANDLE);
   core_kernel *k;
   CUresult r = (CUresult)core_module_get_kernel(module_of(library), name, &k);
   if (r == CUDA_SUCCESS)
      *pKernel = (CUkernel)(void *)k;
   return API_RETURN(r);
}

/* ==== cuKernelGetFunction (libcuda.@) ==== */
CUresult CUDAAPI cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
   API_ENTER("pFunc=%p kernel=%p", (void *)pFunc, (void *)kernel);
   API_CHECK(pFunc, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_check_kernel(kernel_of(kernel)), CUDA_ERROR_INVALID_HANDLE);
   *pFunc = (CUfunction)(void *)kernel;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuLibraryGetGlobal (libcuda.@) ==== */
CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
   API_ENTER("dptr=%p bytes=%p library=%p name=%s", (void *)dptr, (void *)bytes, (void *)library,
             name ? name : "(null)");
   return cuModuleGetGlobal_v2(dptr, bytes, (CUmodule)(void *)library, name);
}

/* ==== cuLibraryGetModule (libcuda.@) ==== a library is a module here */
CUresult CUDAAPI cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
   API_ENTER("pMod=%p library=%p", (void *)pMod, (void *)library);
   API_CHECK(pMod, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_check_module(module_of(library)), CUDA_ERROR_INVALID_HANDLE);
   *pMod = (CUmodule)(void *)library;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuLibraryGetManaged (libcuda.@) ==== a __managed__ variable: module
 * variables live in the device arena, which the host reaches at the same
 * address, so the variable is its own managed memory (NVIDIA's runtime
 * gives the address to the program's host code) */
CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
   API_ENTER("dptr=%p bytes=%p library=%p name=%s", (void *)dptr, (void *)bytes, (void *)library,
             name ? name : "(null)");
   return cuModuleGetGlobal_v2(dptr, bytes, (CUmodule)(void *)library, name);
}

/* ==== cuModuleGetLoadingMode (libcuda.@) ==== lazy: kernels are
 * translated when first used, and NVIDIA's driver answers the same by
 * default (its runtime then loads a program's fatbins at first launch) */
CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
   API_ENTER("mode=%p", (void *)mode);
   API_CHECK(mode, CUDA_ERROR_INVALID_VALUE);
   *mode = CU_MODULE_LAZY_LOADING;
   return API_RETURN(CUDA_SUCCESS);
}
