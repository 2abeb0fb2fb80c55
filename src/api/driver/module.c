/*
 * module.c — modules (cuModule*) and libraries (cuLibrary*), which are the
 * same object here: a library is loaded like a module, its kernels
 * translated when first used.  CUkernel and CUfunction are one object too
 * (NVIDIA's runtime passes a CUkernel where a CUfunction is expected).
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(module);

/* Image size is unknown through this API: the container's own sizes bound
 * it (fatbin), or the NUL terminator (PTX). */
static CUresult load_image(core_ctx *c, const void *image, core_module **out)
{
   return (CUresult)core_module_load(c, image, SIZE_MAX, out);
}

/* JIT options tune ptxas; they do not change results, so they are
 * accepted and ignored, except the outputs: the log buffers are left
 * empty (sizes 0) and the wall time is 0 ms. */
static void jit_options_apply(unsigned n, const CUjit_option *options, void **values)
{
   for (unsigned k = 0; k < n; k++) {
      if ((options[k] == CU_JIT_INFO_LOG_BUFFER || options[k] == CU_JIT_ERROR_LOG_BUFFER) && values[k])
         *(char *)values[k] = 0;
      if (options[k] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES || options[k] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
         values[k] = 0;
      if (options[k] == CU_JIT_WALL_TIME) {
         float ms = 0;
         memcpy(&values[k], &ms, sizeof(ms));
      }
   }
}

/* Library options, by name: the universal function and data table only
 * concerns unified functions, of which metalcuda has none (accepted and
 * ignored); a preserved binary is a memory hint (the image is copied
 * anyway), invalid for a file (cuda.h).  Anything else is invalid. */
static bool library_options_ok(unsigned n, const CUlibraryOption *options, bool from_file)
{
   for (unsigned k = 0; k < n; k++) {
      if (options[k] == CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE)
         continue;
      if (options[k] == CU_LIBRARY_BINARY_IS_PRESERVED && !from_file)
         continue;
      LOG_WARN("library option %d is not valid here", (int)options[k]);
      return false;
   }
   return true;
}

/* A module or library image read from a file, NUL-terminated (PTX text
 * needs its terminator; a fatbin's own sizes bound it): *out is malloc'ed.
 * CUDA_ERROR_FILE_NOT_FOUND when it cannot be opened. */
static CUresult read_image_len(const char *path, char **out, size_t *out_len)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      LOG_ERR("cannot open %s: %s", path, strerror(errno));
      return CUDA_ERROR_FILE_NOT_FOUND;
   }
   size_t cap = 1 << 16, len = 0;
   char *buf = mc_malloc(cap);
   while (buf) {
      len += fread(buf + len, 1, cap - 1 - len, f);
      if (len < cap - 1)
         break;
      char *bigger = mc_realloc(buf, cap * 2);
      if (!bigger) {
         free(buf);
         buf = NULL;
         break;
      }
      buf = bigger;
      cap *= 2;
   }
   bool bad = ferror(f) != 0;
   fclose(f);
   if (!buf)
      return CUDA_ERROR_OUT_OF_MEMORY;
   if (bad || len == 0) {
      LOG_ERR("cannot read %s%s", path, bad ? "" : ": empty file");
      free(buf);
      return bad ? CUDA_ERROR_FILE_NOT_FOUND : CUDA_ERROR_INVALID_IMAGE;
   }
   buf[len] = 0;
   *out = buf;
   *out_len = len;
   return CUDA_SUCCESS;
}

static CUresult read_image(const char *path, char **out)
{
   size_t len;
   return read_image_len(path, out, &len);
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

/* ==== cuModuleLoadDataEx (libcuda.@) ==== options: jit_options_apply */
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues)
{
   API_ENTER("module=%p image=%p numOptions=%u options=%p optionValues=%p", (void *)module, image, numOptions,
             (void *)options, (void *)optionValues);
   API_CHECK(module && image, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(numOptions == 0 || (options && optionValues), CUDA_ERROR_INVALID_VALUE);
   jit_options_apply(numOptions, options, optionValues);
   return cuModuleLoadData(module, image);
}

/* ==== cuModuleLoad (libcuda.@) ==== a PTX, cubin or fatbin file: what
 * cuModuleLoadData takes, read from disk */
CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname)
{
   API_ENTER("module=%p fname=%s", (void *)module, fname ? fname : "(null)");
   API_CHECK(module && fname, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   char *image;
   CUresult r = read_image(fname, &image);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   core_module *m;
   r = load_image(c, image, &m);
   free(image);
   if (r == CUDA_SUCCESS)
      *module = (CUmodule)(void *)m;
   return API_RETURN(r);
}

/* ==== cuModuleLoadFatBinary (libcuda.@) ==== a fatbin is one of the
 * images cuModuleLoadData takes */
CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
   API_ENTER("module=%p fatCubin=%p", (void *)module, fatCubin);
   return cuModuleLoadData(module, fatCubin);
}

/* ==== cuModuleGetFunctionCount (libcuda.@) ==== */
CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
   API_ENTER("count=%p mod=%p", (void *)count, (void *)mod);
   API_CHECK(count, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_check_module(module_of(mod)), CUDA_ERROR_INVALID_HANDLE);
   *count = core_module_kernel_count(module_of(mod));
   return API_RETURN(CUDA_SUCCESS);
}

/* Up to n of a module's kernels, in the order of its PTX (the order
 * cuModuleGetFunctionCount counts). */
static CUresult enumerate_kernels(void **out, unsigned n, const void *handle)
{
   API_ENTER("out=%p n=%u handle=%p", (void *)out, n, handle);
   API_CHECK(out, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_check_module(module_of(handle)), CUDA_ERROR_INVALID_HANDLE);
   core_module *m = module_of(handle);
   core_kernel *kern;
   for (unsigned k = 0; k < n && (kern = core_module_kernel_at(m, k)); k++)
      out[k] = kern;
   return API_RETURN(CUDA_SUCCESS);
}

/* ==== cuModuleEnumerateFunctions (libcuda.@) ==== */
CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod)
{
   API_ENTER("functions=%p numFunctions=%u mod=%p", (void *)functions, numFunctions, (void *)mod);
   return enumerate_kernels((void **)functions, numFunctions, mod);
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

/* The context a library goes into.  A library needs no current context
 * in CUDA (NVIDIA's runtime loads those with __managed__ variables before
 * it has one): it goes into the current context, or else device 0's
 * primary context, made (not retained) for it. */
static CUresult library_ctx(core_ctx **out)
{
   core_ctx *c = core_ctx_current();
   if (!core_check_ctx(c)) {
      core_device *d = core_device_get(0);
      if (!d)
         return CUDA_ERROR_NO_DEVICE;
      CUresult pr = (CUresult)core_ctx_primary(d, &c);
      if (pr != CUDA_SUCCESS)
         return pr;
   }
   *out = c;
   return CUDA_SUCCESS;
}

/* The options of cuLibraryLoadData and cuLibraryLoadFromFile (checked by
 * name), then the load of code (an image in memory). */
static CUresult library_load(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                             void **jitOptionsValues, unsigned numJitOptions, CUlibraryOption *libraryOptions,
                             unsigned numLibraryOptions, bool from_file)
{
   if (!library_options_ok(numLibraryOptions, libraryOptions, from_file))
      return CUDA_ERROR_INVALID_VALUE;
   jit_options_apply(numJitOptions, jitOptions, jitOptionsValues);
   core_ctx *c;
   CUresult r = library_ctx(&c);
   if (r != CUDA_SUCCESS)
      return r;
   core_module *m;
   r = (CUresult)core_library_load(c, code, SIZE_MAX, &m);
   if (r == CUDA_SUCCESS)
      *library = (CUlibrary)(void *)m;
   return r;
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
   return API_RETURN(library_load(library, code, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                                  numLibraryOptions, false));
}

/* ==== cuLibraryLoadFromFile (libcuda.@) ==== */
CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                                       void **jitOptionsValues, unsigned int numJitOptions,
                                       CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                       unsigned int numLibraryOptions)
{
   API_ENTER("library=%p fileName=%s jitOptions=%p jitOptionsValues=%p numJitOptions=%u libraryOptions=%p "
             "libraryOptionValues=%p numLibraryOptions=%u", (void *)library, fileName ? fileName : "(null)",
             (void *)jitOptions, (void *)jitOptionsValues, numJitOptions, (void *)libraryOptions,
             (void *)libraryOptionValues, numLibraryOptions);
   API_CHECK(library && fileName, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(numJitOptions == 0 || (jitOptions && jitOptionsValues), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(numLibraryOptions == 0 || (libraryOptions && libraryOptionValues), CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   char *image;
   CUresult r = read_image(fileName, &image);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   r = library_load(library, image, jitOptions, jitOptionsValues, numJitOptions, libraryOptions,
                    numLibraryOptions, true);
   free(image);
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

/* ==== cuLibraryGetKernelCount (libcuda.@) ==== */
CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
   API_ENTER("count=%p lib=%p", (void *)count, (void *)lib);
   return cuModuleGetFunctionCount(count, (CUmodule)(void *)lib);
}

/* ==== cuLibraryEnumerateKernels (libcuda.@) ==== the order of
 * cuModuleEnumerateFunctions (a library is its module) */
CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels, CUlibrary lib)
{
   API_ENTER("kernels=%p numKernels=%u lib=%p", (void *)kernels, numKernels, (void *)lib);
   return enumerate_kernels((void **)kernels, numKernels, lib);
}

/* ==== cuKernelGetLibrary (libcuda.@) ==== a kernel of a module loaded
 * by cuModuleLoad* is a CUfunction, not a CUkernel: an invalid handle */
CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
   API_ENTER("pLib=%p kernel=%p", (void *)pLib, (void *)kernel);
   API_CHECK(pLib, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_check_kernel(kernel_of(kernel)), CUDA_ERROR_INVALID_HANDLE);
   core_module *m = core_kernel_module(kernel_of(kernel));
   API_CHECK(core_module_is_library(m), CUDA_ERROR_INVALID_HANDLE);
   *pLib = (CUlibrary)(void *)m;
   return API_RETURN(CUDA_SUCCESS);
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

/* ==== cuLibraryGetUnifiedFunction (libcuda.@) ==== unified functions
 * (callable from host and device at one address) need
 * CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS, which metalcuda's devices
 * do not have (the attribute is 0); cuda.h: "If there is no device with
 * attribute CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS present in the
 * system, the call may return CUDA_ERROR_NOT_FOUND"; an H200 (which has
 * none either) answers CUDA_ERROR_INVALID_VALUE for a library's kernel, and
 * so does this.
 * REFUSED: no library has a unified function */
CUresult CUDAAPI cuLibraryGetUnifiedFunction(void **fptr, CUlibrary library, const char *symbol)
{
   API_ENTER("fptr=%p library=%p symbol=%s", (void *)fptr, (void *)library, symbol ? symbol : "(null)");
   API_CHECK(fptr && symbol, CUDA_ERROR_INVALID_VALUE);
   API_NEED_INIT();
   API_CHECK(core_check_module(module_of(library)), CUDA_ERROR_INVALID_HANDLE);
   LOG_INFO("%s: no unified function (no device has unified function pointers)", symbol);
   return API_RETURN(CUDA_ERROR_INVALID_VALUE);
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

/* ---- the JIT linker (core/link.c): the "cubin" it completes is linked PTX ---- */

static core_link *link_of(CUlinkState s) { return (core_link *)(void *)s; }

/* ==== cuLinkCreate_v2 (libcuda.@) ==== options: jit_options_apply (the
 * logs stay empty) */
CUresult CUDAAPI cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                 CUlinkState *stateOut)
{
   API_ENTER("numOptions=%u options=%p optionValues=%p stateOut=%p", numOptions, (void *)options,
             (void *)optionValues, (void *)stateOut);
   API_CHECK(stateOut, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(numOptions == 0 || (options && optionValues), CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   jit_options_apply(numOptions, options, optionValues);
   core_link *l;
   CUresult r = (CUresult)core_link_create(c, &l);
   if (r == CUDA_SUCCESS)
      *stateOut = (CUlinkState)(void *)l;
   return API_RETURN(r);
}

/* ==== cuLinkCreate (libcuda.@) ==== CUDA 5.5's name of the same call */
CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                              CUlinkState *stateOut)
{
   return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}

/* An input: PTX, a fatbin, or a cubin that is PTX (this linker's output);
 * objects, libraries and NVVM IR are refused by name. */
static CUresult link_add(CUlinkState state, CUjitInputType type, const void *data, size_t size, const char *name)
{
   API_CHECK(core_check_link(link_of(state)), CUDA_ERROR_INVALID_HANDLE);
   API_CHECK(data && size, CUDA_ERROR_INVALID_VALUE);
   switch (type) {
   case CU_JIT_INPUT_PTX:
   case CU_JIT_INPUT_FATBINARY:
   case CU_JIT_INPUT_CUBIN:
      return (CUresult)core_link_add(link_of(state), data, size, name);
   case CU_JIT_INPUT_OBJECT:
      API_NOT_SUPPORTED("cuLinkAddData/cuLinkAddFile of host objects (CU_JIT_INPUT_OBJECT)");
   case CU_JIT_INPUT_LIBRARY:
      API_NOT_SUPPORTED("cuLinkAddData/cuLinkAddFile of libraries (CU_JIT_INPUT_LIBRARY)");
   case CU_JIT_INPUT_NVVM:
      API_NOT_SUPPORTED("cuLinkAddData/cuLinkAddFile of NVVM IR (CU_JIT_INPUT_NVVM)");
   default:
      return CUDA_ERROR_INVALID_VALUE;
   }
}

/* ==== cuLinkAddData_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                                  unsigned int numOptions, CUjit_option *options, void **optionValues)
{
   API_ENTER("state=%p type=%d data=%p size=%zu name=%s numOptions=%u", (void *)state, (int)type, data, size,
             name ? name : "(null)", numOptions);
   API_CHECK(numOptions == 0 || (options && optionValues), CUDA_ERROR_INVALID_VALUE);
   jit_options_apply(numOptions, options, optionValues);
   return API_RETURN(link_add(state, type, data, size, name));
}

/* ==== cuLinkAddData (libcuda.@) ==== */
CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                               unsigned int numOptions, CUjit_option *options, void **optionValues)
{
   return cuLinkAddData_v2(state, type, data, size, name, numOptions, options, optionValues);
}

/* ==== cuLinkAddFile_v2 (libcuda.@) ==== */
CUresult CUDAAPI cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                                  CUjit_option *options, void **optionValues)
{
   API_ENTER("state=%p type=%d path=%s numOptions=%u", (void *)state, (int)type, path ? path : "(null)", numOptions);
   API_CHECK(path, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(numOptions == 0 || (options && optionValues), CUDA_ERROR_INVALID_VALUE);
   API_CHECK(core_check_link(link_of(state)), CUDA_ERROR_INVALID_HANDLE);
   jit_options_apply(numOptions, options, optionValues);
   char *image;
   size_t len;
   CUresult r = read_image_len(path, &image, &len);
   if (r != CUDA_SUCCESS)
      return API_RETURN(r);
   r = link_add(state, type, image, len, path);
   free(image);
   return API_RETURN(r);
}

/* ==== cuLinkAddFile (libcuda.@) ==== */
CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                               CUjit_option *options, void **optionValues)
{
   return cuLinkAddFile_v2(state, type, path, numOptions, options, optionValues);
}

/* ==== cuLinkComplete (libcuda.@) ==== once per state (a second call is
 * CUDA_ERROR_INVALID_HANDLE on an H100), sizeOut optional; the image lives
 * until cuLinkDestroy */
CUresult CUDAAPI cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
   API_ENTER("state=%p cubinOut=%p sizeOut=%p", (void *)state, (void *)cubinOut, (void *)sizeOut);
   API_CHECK(cubinOut, CUDA_ERROR_INVALID_VALUE);
   API_CHECK(core_check_link(link_of(state)), CUDA_ERROR_INVALID_HANDLE);
   const void *image;
   size_t size;
   CUresult r = (CUresult)core_link_complete(link_of(state), &image, &size);
   if (r == CUDA_SUCCESS) {
      *cubinOut = (void *)(uintptr_t)image;
      if (sizeOut)
         *sizeOut = size;
   }
   return API_RETURN(r);
}

/* ==== cuLinkDestroy (libcuda.@) ==== */
CUresult CUDAAPI cuLinkDestroy(CUlinkState state)
{
   API_ENTER("state=%p", (void *)state);
   API_CHECK(core_check_link(link_of(state)), CUDA_ERROR_INVALID_HANDLE);
   core_link_destroy(link_of(state));
   return API_RETURN(CUDA_SUCCESS);
}
