/*
 * library.c — the runtime's libraries (cudaLibrary*), cudaGetKernel and
 * cudaKernelSetAttributeForDevice, all through the driver's cuLibrary* and
 * cuKernel* calls.
 *
 * A cudaLibrary_t is the driver's CUlibrary and a library's cudaKernel_t
 * its CUkernel (cuda_runtime_api.h: either casts to the other).  The
 * runtime remembers the libraries it loaded and their kernels, so that
 * cudaLaunchKernel, cudaLaunchKernelExC and the cudaFunc* calls recognise
 * such a kernel passed where a host stub is expected (rt_kernel_of)
 * without reading through an unknown pointer.  The cudaKernel_t of a
 * kernel the program registered (cudaGetKernel, as __cudaGetKernel) is its
 * registration record (register.c), which outlives a device reset.
 */
#include "internal.h"

#include <stdlib.h>

LOG_CHANNEL(library);

typedef struct rt_library {
   CUlibrary lib;
   unsigned nkernels;
   CUkernel *kernels;                 /* cuLibraryEnumerateKernels's, at load */
   struct rt_library *next;
} rt_library;

static pthread_mutex_t lib_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_library *libraries;

/* Remembers a library the runtime loaded, with its kernels; unloads it
 * again when that fails (out of memory). */
static cudaError_t remember(CUlibrary lib)
{
   rt_library *l = mc_calloc(1, sizeof(*l));
   CUresult r = l ? cuLibraryGetKernelCount(&l->nkernels, lib) : CUDA_ERROR_OUT_OF_MEMORY;
   if (r == CUDA_SUCCESS && l->nkernels) {
      l->kernels = mc_calloc(l->nkernels, sizeof(*l->kernels));
      r = l->kernels ? cuLibraryEnumerateKernels(l->kernels, l->nkernels, lib) : CUDA_ERROR_OUT_OF_MEMORY;
   }
   if (r != CUDA_SUCCESS) {
      if (l)
         free(l->kernels);
      free(l);
      cuLibraryUnload(lib);
      return cu_to_cuda_error(r);
   }
   l->lib = lib;
   pthread_mutex_lock(&lib_lock);
   l->next = libraries;
   libraries = l;
   pthread_mutex_unlock(&lib_lock);
   return cudaSuccess;
}

/* Forgets a library (false: the runtime did not load it). */
static bool forget(CUlibrary lib)
{
   pthread_mutex_lock(&lib_lock);
   rt_library *l = NULL;
   for (rt_library **p = &libraries; *p; p = &(*p)->next) {
      if ((*p)->lib == lib) {
         l = *p;
         *p = l->next;
         break;
      }
   }
   pthread_mutex_unlock(&lib_lock);
   if (l) {
      free(l->kernels);
      free(l);
   }
   return l != NULL;
}

/* Whether func is a kernel of a library the runtime loaded (compared by
 * address only). */
static bool library_kernel(const void *func)
{
   bool found = false;
   pthread_mutex_lock(&lib_lock);
   for (rt_library *l = libraries; l && !found; l = l->next)
      for (unsigned k = 0; k < l->nkernels && !found; k++)
         found = (const void *)l->kernels[k] == func;
   pthread_mutex_unlock(&lib_lock);
   return found;
}

cudaError_t rt_kernel_of(const void *func, CUfunction *out)
{
   if (!func)
      return cudaErrorInvalidDeviceFunction;
   rt_function *f = rt_function_by_host(func);
   if (!f && !library_kernel(func))
      return cudaErrorInvalidResourceHandle;
   /* a launch on this thread needs the device's context current */
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess || f)
      return e == cudaSuccess ? rt_function_kernel(f, out) : e;
   *out = (CUfunction)(uintptr_t)func;
   return cudaSuccess;
}

/* The runtime loads a library into the current device's primary context
 * (the driver's would otherwise use device 0's), then remembers it. */
static cudaError_t load_done(CUresult r, CUlibrary lib, cudaLibrary_t *library)
{
   if (r != CUDA_SUCCESS)
      return cu_to_cuda_error(r);
   cudaError_t e = remember(lib);
   if (e == cudaSuccess)
      *library = (cudaLibrary_t)lib;
   return e;
}

/* ==== cudaLibraryLoadData (libcudart.@) ==== cudaJitOption and
 * cudaLibraryOption are the driver's numbers */
cudaError_t CUDARTAPI cudaLibraryLoadData(cudaLibrary_t *library, const void *code, enum cudaJitOption *jitOptions,
                                          void **jitOptionsValues, unsigned int numJitOptions,
                                          enum cudaLibraryOption *libraryOptions, void **libraryOptionValues,
                                          unsigned int numLibraryOptions)
{
   RT_ENTER("library=%p code=%p jitOptions=%p jitOptionsValues=%p numJitOptions=%u libraryOptions=%p "
            "libraryOptionValues=%p numLibraryOptions=%u", (void *)library, code, (void *)jitOptions,
            (void *)jitOptionsValues, numJitOptions, (void *)libraryOptions, (void *)libraryOptionValues,
            numLibraryOptions);
   RT_CHECK(library && code, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUlibrary lib = NULL;
   CUresult r = cuLibraryLoadData(&lib, code, (CUjit_option *)jitOptions, jitOptionsValues, numJitOptions,
                                  (CUlibraryOption *)libraryOptions, libraryOptionValues, numLibraryOptions);
   return RT_RETURN(load_done(r, lib, library));
}

/* ==== cudaLibraryLoadFromFile (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLibraryLoadFromFile(cudaLibrary_t *library, const char *fileName,
                                              enum cudaJitOption *jitOptions, void **jitOptionsValues,
                                              unsigned int numJitOptions, enum cudaLibraryOption *libraryOptions,
                                              void **libraryOptionValues, unsigned int numLibraryOptions)
{
   RT_ENTER("library=%p fileName=%s jitOptions=%p jitOptionsValues=%p numJitOptions=%u libraryOptions=%p "
            "libraryOptionValues=%p numLibraryOptions=%u", (void *)library, fileName ? fileName : "(null)",
            (void *)jitOptions, (void *)jitOptionsValues, numJitOptions, (void *)libraryOptions,
            (void *)libraryOptionValues, numLibraryOptions);
   RT_CHECK(library && fileName, cudaErrorInvalidValue);
   RT_NEED_CTX();
   CUlibrary lib = NULL;
   CUresult r = cuLibraryLoadFromFile(&lib, fileName, (CUjit_option *)jitOptions, jitOptionsValues, numJitOptions,
                                      (CUlibraryOption *)libraryOptions, libraryOptionValues, numLibraryOptions);
   return RT_RETURN(load_done(r, lib, library));
}

/* ==== cudaLibraryUnload (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLibraryUnload(cudaLibrary_t library)
{
   RT_ENTER("library=%p", (void *)library);
   CUresult r = cuLibraryUnload((CUlibrary)library);
   /* after the driver's check: an unknown handle stays unknown */
   if (r == CUDA_SUCCESS)
      forget((CUlibrary)library);
   return RT_RETURN_CU(r);
}

/* ==== cudaLibraryGetKernel (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library, const char *name)
{
   RT_ENTER("pKernel=%p library=%p name=%s", (void *)pKernel, (void *)library, name ? name : "(null)");
   return RT_RETURN_CU(cuLibraryGetKernel((CUkernel *)pKernel, (CUlibrary)library, name));
}

/* A variable's address through the driver's query (a CUdeviceptr), as
 * the runtime's pointer. */
static CUresult variable(CUresult (*query)(CUdeviceptr *, size_t *, CUlibrary, const char *), void **dptr,
                         size_t *bytes, cudaLibrary_t library, const char *name)
{
   CUdeviceptr p = 0;
   CUresult r = query(dptr ? &p : NULL, bytes, (CUlibrary)library, name);
   if (r == CUDA_SUCCESS && dptr)
      *dptr = (void *)(uintptr_t)p;
   return r;
}

/* ==== cudaLibraryGetGlobal (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLibraryGetGlobal(void **dptr, size_t *bytes, cudaLibrary_t library, const char *name)
{
   RT_ENTER("dptr=%p bytes=%p library=%p name=%s", (void *)dptr, (void *)bytes, (void *)library,
            name ? name : "(null)");
   return RT_RETURN_CU(variable(cuLibraryGetGlobal, dptr, bytes, library, name));
}

/* ==== cudaLibraryGetManaged (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLibraryGetManaged(void **dptr, size_t *bytes, cudaLibrary_t library, const char *name)
{
   RT_ENTER("dptr=%p bytes=%p library=%p name=%s", (void *)dptr, (void *)bytes, (void *)library,
            name ? name : "(null)");
   return RT_RETURN_CU(variable(cuLibraryGetManaged, dptr, bytes, library, name));
}

/* ==== cudaLibraryGetUnifiedFunction (libcudart.@) ==== the driver's
 * answer: no unified function is ever found (driver/module.c says why) */
cudaError_t CUDARTAPI cudaLibraryGetUnifiedFunction(void **fptr, cudaLibrary_t library, const char *symbol)
{
   RT_ENTER("fptr=%p library=%p symbol=%s", (void *)fptr, (void *)library, symbol ? symbol : "(null)");
   return RT_RETURN_CU(cuLibraryGetUnifiedFunction(fptr, (CUlibrary)library, symbol));
}

/* ==== cudaLibraryGetKernelCount (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib)
{
   RT_ENTER("count=%p lib=%p", (void *)count, (void *)lib);
   return RT_RETURN_CU(cuLibraryGetKernelCount(count, (CUlibrary)lib));
}

/* ==== cudaLibraryEnumerateKernels (libcudart.@) ==== */
cudaError_t CUDARTAPI cudaLibraryEnumerateKernels(cudaKernel_t *kernels, unsigned int numKernels, cudaLibrary_t lib)
{
   RT_ENTER("kernels=%p numKernels=%u lib=%p", (void *)kernels, numKernels, (void *)lib);
   return RT_RETURN_CU(cuLibraryEnumerateKernels((CUkernel *)kernels, numKernels, (CUlibrary)lib));
}

/* ==== cudaGetKernel (libcudart.@) ==== a registered kernel's handle:
 * the one __cudaGetKernel gives */
cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
   RT_ENTER("kernelPtr=%p entryFuncAddr=%p", (void *)kernelPtr, entryFuncAddr);
   return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

/* ==== cudaKernelSetAttributeForDevice (libcudart.@) ====
 * cudaFuncAttribute numbers are the driver's CUfunction_attribute ones.  A
 * library's kernel is one driver object for every device; a registered
 * kernel has one per device (its fatbin loaded in each), reached here for
 * the current device. */
cudaError_t CUDARTAPI cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr, int value,
                                                      int device)
{
   RT_ENTER("kernel=%p attr=%d value=%d device=%d", (void *)kernel, (int)attr, value, device);
   RT_CHECK(kernel, cudaErrorInvalidDeviceFunction);
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return RT_RETURN(e);
   RT_CHECK(device >= 0 && device < rt_device_count(), cudaErrorInvalidDevice);
   const void *func = (const void *)kernel;
   if (rt_function_by_host(func) && device != rt_current_device())
      RT_NOT_SUPPORTED("a registered kernel's attribute for another device than the current one");
   CUfunction k;
   e = rt_kernel_of(func, &k);
   if (e != cudaSuccess)
      return RT_RETURN(e == cudaErrorInvalidResourceHandle ? cudaErrorInvalidDeviceFunction : e);
   return RT_RETURN_CU(cuKernelSetAttribute((CUfunction_attribute)attr, value, (CUkernel)k, device));
}
