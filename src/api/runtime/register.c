/*
 * register.c — the registration ABI nvcc's host code uses.
 *
 * A program's module constructor registers each fatbin (__cudaRegisterFatBinary),
 * then each kernel by its host stub address and device name
 * (__cudaRegisterFunction) and each __device__/__constant__ variable
 * (__cudaRegisterVar).  Nothing is loaded then: a fatbin is loaded into
 * the current device's primary context the first time one of its kernels
 * or variables is needed, and its kernels are translated on first launch.
 *
 * The handle __cudaGetKernel returns (cudaKernel_t) is the registration
 * record itself, which stays valid across cudaDeviceReset; the driver
 * kernel behind it is looked up again when the device's generation
 * changed.  nvcc 13 launches through __cudaPushCallConfiguration /
 * __cudaPopCallConfiguration around __cudaLaunchKernel.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(register);

#define RT_MAGIC_FATBIN 0x72666174u   /* "rfat" */
#define RT_MAGIC_FUNC 0x7266756eu     /* "rfun" */

typedef struct rt_fatbin {
   uint32_t magic;
   const void *image;                 /* what the wrapper points at */
   void *own_wrapper;                 /* clang HIP mode: the CUDA-style wrapper made for it */
   const void *rdc_units;             /* metalcuda nvcc's device link: the list of units */
   unsigned rdc_refs;                 /* its registrations (one per translation unit) */
   CUlibrary lib[RT_MAX_DEVICES];
   unsigned gen[RT_MAX_DEVICES];
   struct rt_fatbin *next;
} rt_fatbin;

struct rt_function {
   uint32_t magic;
   rt_fatbin *fb;
   const void *host_fun;
   char *name;
   CUkernel kernel[RT_MAX_DEVICES];
   unsigned gen[RT_MAX_DEVICES];
   struct rt_function *next;
};

typedef struct rt_var {
   rt_fatbin *fb;
   const void *host_var;
   char *name;
   size_t size;
   bool constant;
   void **managed_ptr;                /* __managed__: the host's pointer to the variable */
   struct rt_var *next;
} rt_var;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_fatbin *fatbins;
static rt_function *functions;
static rt_var *vars;

/* The layout nvcc emits (cuda-binary-interface.md, "Fatbin format"). */
typedef struct fatbin_wrapper {
   uint32_t magic;
   uint32_t version;
   const void *data;
   const void *filename_or_fatbins;
} fatbin_wrapper;

#define FATBIN_WRAPPER_MAGIC 0x466243b1u

/* ==== __cudaRegisterFatBinary (libcudart.@) ==== */
void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin)
{
   RT_ENTER("fatCubin=%p", fatCubin);
   rt_fatbin *fb = mc_calloc(1, sizeof(*fb));
   if (!fb) {
      LOG_ERR("out of memory registering a fatbin");
      return NULL;
   }
   fb->magic = RT_MAGIC_FATBIN;
   fb->image = fatCubin;
   const fatbin_wrapper *w = fatCubin;
   if (!w || w->magic != FATBIN_WRAPPER_MAGIC)
      LOG_WARN("fatbin at %p has no wrapper magic; it will fail to load", fatCubin);
   pthread_mutex_lock(&reg_lock);
   fb->next = fatbins;
   fatbins = fb;
   pthread_mutex_unlock(&reg_lock);
   return (void **)fb;
}

/* ==== __cudaRegisterFatBinaryEnd (libcudart.@) ==== loading is lazy */
void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
   RT_ENTER("fatCubinHandle=%p", (void *)fatCubinHandle);
}

static rt_fatbin *fatbin_of(void **h)
{
   rt_fatbin *fb = (rt_fatbin *)h;
   return fb && fb->magic == RT_MAGIC_FATBIN ? fb : NULL;
}

/* ==== __cudaUnregisterFatBinary (libcudart.@) ==== */
void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle)
{
   RT_ENTER("fatCubinHandle=%p", (void *)fatCubinHandle);
   rt_fatbin *fb = fatbin_of(fatCubinHandle);
   if (!fb)
      return;
   pthread_mutex_lock(&reg_lock);
   for (rt_fatbin **p = &fatbins; *p; p = &(*p)->next)
      if (*p == fb) {
         *p = fb->next;
         break;
      }
   for (rt_function **p = &functions; *p;) {
      rt_function *f = *p;
      if (f->fb == fb) {
         *p = f->next;
         f->magic = 0;
         free(f->name);
         free(f);
      } else {
         p = &f->next;
      }
   }
   for (rt_var **p = &vars; *p;) {
      rt_var *v = *p;
      if (v->fb == fb) {
         *p = v->next;
         free(v->name);
         free(v);
      } else {
         p = &v->next;
      }
   }
   pthread_mutex_unlock(&reg_lock);
   for (int d = 0; d < RT_MAX_DEVICES; d++)
      if (fb->lib[d] && fb->gen[d] == rt_device_generation(d))
         cuLibraryUnload(fb->lib[d]);
   fb->magic = 0;
   free(fb->own_wrapper);
   free(fb);
}

/* ==== __cudaRegisterFunction (libcudart.@) ==== */
void CUDARTAPI __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                                      dim3 *bDim, dim3 *gDim, int *wSize)
{
   RT_ENTER("fatCubinHandle=%p hostFun=%p deviceFun=%s deviceName=%s thread_limit=%d tid=%p bid=%p "
            "bDim=%p gDim=%p wSize=%p", (void *)fatCubinHandle, (const void *)hostFun,
            deviceFun ? deviceFun : "(null)", deviceName ? deviceName : "(null)", thread_limit, (void *)tid,
            (void *)bid, (void *)bDim, (void *)gDim, (void *)wSize);
   rt_fatbin *fb = fatbin_of(fatCubinHandle);
   const char *name = deviceFun ? deviceFun : deviceName;
   if (!fb || !name || !hostFun)
      return;
   rt_function *f = mc_calloc(1, sizeof(*f));
   char *n = mc_strdup(name);
   if (!f || !n) {
      LOG_ERR("out of memory registering kernel %s", name);
      free(f);
      free(n);
      return;
   }
   f->magic = RT_MAGIC_FUNC;
   f->fb = fb;
   f->host_fun = hostFun;
   f->name = n;
   pthread_mutex_lock(&reg_lock);
   f->next = functions;
   functions = f;
   pthread_mutex_unlock(&reg_lock);
}

/* Records a variable (managed_ptr: a __managed__ one's host pointer). */
static void register_var(rt_fatbin *fb, const void *host_var, const char *name, size_t size, bool constant,
                         void **managed_ptr)
{
   rt_var *v = mc_calloc(1, sizeof(*v));
   char *n = mc_strdup(name);
   if (!v || !n) {
      LOG_ERR("out of memory registering variable %s", name);
      free(v);
      free(n);
      return;
   }
   v->fb = fb;
   v->host_var = host_var;
   v->name = n;
   v->size = size;
   v->constant = constant;
   v->managed_ptr = managed_ptr;
   pthread_mutex_lock(&reg_lock);
   v->next = vars;
   vars = v;
   pthread_mutex_unlock(&reg_lock);
}

/* ==== __cudaRegisterVar (libcudart.@) ==== */
void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                                 const char *deviceName, int ext, size_t size, int constant, int global)
{
   RT_ENTER("fatCubinHandle=%p hostVar=%p deviceAddress=%s deviceName=%s ext=%d size=%zu constant=%d global=%d",
            (void *)fatCubinHandle, (void *)hostVar, deviceAddress ? deviceAddress : "(null)",
            deviceName ? deviceName : "(null)", ext, size, constant, global);
   rt_fatbin *fb = fatbin_of(fatCubinHandle);
   const char *name = deviceAddress ? deviceAddress : deviceName;
   if (fb && name && hostVar)
      register_var(fb, hostVar, name, size, constant != 0, NULL);
}

/* ==== __cudaRegisterManagedVar (libcudart.@) ==== */
void CUDARTAPI __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                                        const char *deviceName, int ext, size_t size, int constant, int global)
{
   RT_ENTER("fatCubinHandle=%p hostVarPtrAddress=%p deviceAddress=%s deviceName=%s ext=%d size=%zu constant=%d "
            "global=%d", (void *)fatCubinHandle, (void *)hostVarPtrAddress, deviceAddress ? deviceAddress : "(null)",
            deviceName ? deviceName : "(null)", ext, size, constant, global);
   rt_fatbin *fb = fatbin_of(fatCubinHandle);
   const char *name = deviceAddress ? deviceAddress : deviceName;
   /* The variable lives in the module's globals (arena memory, which the
    * host reaches at the same address): the host's pointer is set when the
    * module is loaded (fatbin_library), which nvcc's host code asks for
    * through __cudaInitModule before every access. */
   if (fb && name && hostVarPtrAddress)
      register_var(fb, hostVarPtrAddress, name, size, constant != 0, hostVarPtrAddress);
}

/* ---- registrations nvcc 13 never emits ----
 * __cudaRegisterHostVar(handle, deviceName, hostVar, size) and
 * __cudaRegisterUnifiedTable (five pointer arguments) are exported by
 * NVIDIA's libcudart.so.13 (and .12; HostVar by .11.0 too) and declared in
 * no header.  nvcc 13.0.88 emits neither (checked on the host code of
 * whole-program and -rdc builds, -cudart shared and static, sm_75 and
 * sm_90, with __device__, __constant__ and __managed__ variables, a
 * device function pointer and a host global), and no documentation says
 * what they bind, so metalcuda cannot honour them: they say so once, by
 * name (they return nothing, so no error can reach the program; under
 * METALCUDA_STRICT=1 they abort). */

/* ==== __cudaRegisterHostVar (libcudart.@) ==== */
void CUDARTAPI __cudaRegisterHostVar(void **fatCubinHandle, const char *deviceName, char *hostVar, size_t size)
{
   RT_ENTER("fatCubinHandle=%p deviceName=%s hostVar=%p size=%zu", (void *)fatCubinHandle,
            deviceName ? deviceName : "(null)", (void *)hostVar, size);
   /* REFUSED: emitted by no nvcc 13; what it binds is undocumented */
   static int once;
   api_unsupported_(log_channel_, __func__, "binding a host variable to a device name (undocumented; nvcc 13 "
                    "never emits it)", &once);
}

/* ==== __cudaRegisterUnifiedTable (libcudart.@) ==== */
void CUDARTAPI __cudaRegisterUnifiedTable(void *a0, void *a1, void *a2, void *a3, void *a4)
{
   RT_ENTER("a0=%p a1=%p a2=%p a3=%p a4=%p", a0, a1, a2, a3, a4);
   /* REFUSED: emitted by no nvcc 13; its table is undocumented (metalcuda
    * has no unified functions either: cuLibraryGetUnifiedFunction) */
   static int once;
   api_unsupported_(log_channel_, __func__, "a unified function table (undocumented; nvcc 13 never emits it)",
                    &once);
}

/* ==== __cudaGetProcAddress (libcudart.@) ==== undeclared anywhere:
 * NVIDIA's Linux libcudart.so.13 answers NULL whatever it is asked (its
 * Windows counterpart is the hybrid runtime's lookup, which Linux lacks),
 * and so does metalcuda */
void *CUDARTAPI __cudaGetProcAddress(void)
{
   RT_ENTER_VOID();
   return NULL;
}

/* ==== __cudaRegisterTexture (libcudart.@) ==== */
void CUDARTAPI __cudaRegisterTexture(void **fatCubinHandle, const struct textureReference *hostVar,
                                     const void **deviceAddress, const char *deviceName, int dim, int norm, int ext)
{
   RT_ENTER("fatCubinHandle=%p deviceName=%s", (void *)fatCubinHandle, deviceName ? deviceName : "(null)");
   LOG_ONCE(LOG_LEVEL_WARN, "texture references are not supported (%s)", deviceName ? deviceName : "?");
}

/* ==== __cudaRegisterSurface (libcudart.@) ==== */
void CUDARTAPI __cudaRegisterSurface(void **fatCubinHandle, const struct surfaceReference *hostVar,
                                     const void **deviceAddress, const char *deviceName, int dim, int ext)
{
   RT_ENTER("fatCubinHandle=%p deviceName=%s", (void *)fatCubinHandle, deviceName ? deviceName : "(null)");
   LOG_ONCE(LOG_LEVEL_WARN, "surface references are not supported (%s)", deviceName ? deviceName : "?");
}

/* Points the host's pointer of each __managed__ variable of fb at the
 * variable in lib (reg_lock held). */
static void bind_managed_vars(rt_fatbin *fb, CUlibrary lib)
{
   for (rt_var *v = vars; v; v = v->next) {
      if (v->fb != fb || !v->managed_ptr)
         continue;
      CUdeviceptr p;
      size_t size;
      if (cuLibraryGetGlobal(&p, &size, lib, v->name) == CUDA_SUCCESS)
         *v->managed_ptr = (void *)(uintptr_t)p;
      else
         LOG_ERR("__managed__ variable %s is not in its module", v->name);
   }
}

/* Loads fb into the current device's primary context if needed. */
static cudaError_t fatbin_library(rt_fatbin *fb, CUlibrary *out)
{
   cudaError_t e = rt_ensure_ctx();
   if (e != cudaSuccess)
      return e;
   int d = rt_current_device();
   unsigned g = rt_device_generation(d);
   pthread_mutex_lock(&reg_lock);
   CUresult r = CUDA_SUCCESS;
   if (!fb->lib[d] || fb->gen[d] != g) {
      fb->lib[d] = NULL;
      r = cuLibraryLoadData(&fb->lib[d], fb->image, NULL, NULL, 0, NULL, NULL, 0);
      fb->gen[d] = g;
      if (r != CUDA_SUCCESS)
         fb->lib[d] = NULL;
      else
         bind_managed_vars(fb, fb->lib[d]);
   }
   *out = fb->lib[d];
   pthread_mutex_unlock(&reg_lock);
   return r == CUDA_SUCCESS ? cudaSuccess : cu_to_cuda_error(r);
}

/* ==== __cudaInitModule (libcudart.@) ==== */
char CUDARTAPI __cudaInitModule(void **fatCubinHandle)
{
   RT_ENTER("fatCubinHandle=%p", (void *)fatCubinHandle);
   rt_fatbin *fb = fatbin_of(fatCubinHandle);
   CUlibrary lib;
   return fb && fatbin_library(fb, &lib) == cudaSuccess;
}

cudaError_t rt_symbol(const void *symbol, CUdeviceptr *ptr, size_t *size)
{
   pthread_mutex_lock(&reg_lock);
   /* a __managed__ variable is named by its host pointer's target once
    * its module is loaded (what `&var` gives in host code) */
   rt_var *v = vars;
   while (v && v->host_var != symbol && !(v->managed_ptr && *v->managed_ptr == symbol))
      v = v->next;
   rt_fatbin *fb = v ? v->fb : NULL;
   char *name = v ? mc_strdup(v->name) : NULL;
   pthread_mutex_unlock(&reg_lock);
   if (!fb)
      return cudaErrorInvalidSymbol;
   if (!name)
      return cudaErrorMemoryAllocation;
   CUlibrary lib;
   cudaError_t e = fatbin_library(fb, &lib);
   if (e == cudaSuccess) {
      CUresult r = cuLibraryGetGlobal(ptr, size, lib, name);
      if (r != CUDA_SUCCESS) {
         LOG_ERR("variable %s is not in its module", name);
         e = r == CUDA_ERROR_NOT_FOUND ? cudaErrorInvalidSymbol : cu_to_cuda_error(r);
      }
   }
   free(name);
   return e;
}

rt_function *rt_function_by_host(const void *host_fun)
{
   pthread_mutex_lock(&reg_lock);
   /* also a record itself: the cudaKernel_t of cudaGetKernel, which
    * cudaLaunchKernel and the cudaFunc* calls take in a stub's place */
   rt_function *f = functions;
   while (f && f->host_fun != host_fun && (const void *)f != host_fun)
      f = f->next;
   pthread_mutex_unlock(&reg_lock);
   return f;
}

bool rt_function_check(const rt_function *f) { return f && f->magic == RT_MAGIC_FUNC; }
const char *rt_function_name(const rt_function *f) { return f->name; }

cudaError_t rt_function_kernel(rt_function *f, CUfunction *out)
{
   CUlibrary lib;
   cudaError_t e = fatbin_library(f->fb, &lib);
   if (e != cudaSuccess)
      return e;
   int d = rt_current_device();
   unsigned g = rt_device_generation(d);
   if (!f->kernel[d] || f->gen[d] != g) {
      CUresult r = cuLibraryGetKernel(&f->kernel[d], lib, f->name);
      if (r != CUDA_SUCCESS) {
         f->kernel[d] = NULL;
         LOG_ERR("kernel %s is not in its module", f->name);
         return r == CUDA_ERROR_NOT_FOUND ? cudaErrorInvalidDeviceFunction : cu_to_cuda_error(r);
      }
      f->gen[d] = g;
   }
   *out = (CUfunction)(void *)f->kernel[d];
   return cudaSuccess;
}

/* ==== __cudaGetKernel (libcudart.@) ==== */
cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
   RT_ENTER("kernel=%p hostFun=%p", (void *)kernel, hostFun);
   RT_CHECK(kernel, cudaErrorInvalidValue);
   rt_function *f = rt_function_by_host(hostFun);
   RT_CHECK(f, cudaErrorInvalidDeviceFunction);
   *kernel = (cudaKernel_t)(void *)f;
   return RT_RETURN(cudaSuccess);
}

/* ---- launch configuration stack (<<<grid, block, shared, stream>>>) ---- */

typedef struct call_config {
   dim3 grid, block;
   size_t shared;
   struct CUstream_st *stream;
} call_config;

#define CONFIG_DEPTH 32
static _Thread_local call_config config_stack[CONFIG_DEPTH];
static _Thread_local unsigned config_depth;

/* ==== __cudaPushCallConfiguration (libcudart.@) ==== */
unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               struct CUstream_st *stream)
{
   RT_ENTER("grid=(%u,%u,%u) block=(%u,%u,%u) sharedMem=%zu stream=%p", gridDim.x, gridDim.y, gridDim.z,
            blockDim.x, blockDim.y, blockDim.z, sharedMem, (void *)stream);
   if (config_depth >= CONFIG_DEPTH)
      return 1;
   call_config c = { gridDim, blockDim, sharedMem, stream };
   config_stack[config_depth++] = c;
   return 0;
}

/* ==== __cudaPopCallConfiguration (libcudart.@) ==== */
cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
   RT_ENTER("gridDim=%p blockDim=%p sharedMem=%p stream=%p", (void *)gridDim, (void *)blockDim,
            (void *)sharedMem, stream);
   RT_CHECK(config_depth > 0, cudaErrorMissingConfiguration);
   call_config c = config_stack[--config_depth];
   if (gridDim)
      *gridDim = c.grid;
   if (blockDim)
      *blockDim = c.block;
   if (sharedMem)
      *sharedMem = c.shared;
   if (stream)
      *(struct CUstream_st **)stream = c.stream;
   return RT_RETURN(cudaSuccess);
}

/* ==== __cudaLaunchKernel (libcudart.@) ==== */
cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                         size_t sharedMem, cudaStream_t stream)
{
   RT_ENTER("kernel=%p grid=(%u,%u,%u) block=(%u,%u,%u) args=%p sharedMem=%zu stream=%p", (void *)kernel,
            gridDim.x, gridDim.y, gridDim.z, blockDim.x, blockDim.y, blockDim.z, (void *)args, sharedMem,
            (void *)stream);
   rt_function *f = (rt_function *)(void *)kernel;
   RT_CHECK(rt_function_check(f), cudaErrorInvalidResourceHandle);
   return RT_RETURN(rt_launch(f, gridDim, blockDim, args, sharedMem, stream));
}

/* ==== __cudaLaunchKernel_ptsz (libcudart.@) ==== */
cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                              size_t sharedMem, cudaStream_t stream)
{
   /* built with --default-stream per-thread: NULL is the thread's stream */
   return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream ? stream : cudaStreamPerThread);
}

/* ---- the same registration as clang's HIP host code makes it ----
 *
 * metalcuda's nvcc compiles a .cu file's host side in clang's HIP mode (the
 * device side stays CUDA): only there does clang honour __managed__, making
 * the host reach such a variable through a pointer the runtime sets
 * (src/toolchain/README.md).  Its module constructor and kernel stubs call
 * these, which are the calls above under HIP's names and shapes.  They are
 * metalcuda's own exports, not NVIDIA's (not in entries.h). */

#define HIP_WRAPPER_MAGIC 0x48495046u   /* "HIPF" */

static pthread_mutex_t rdc_lock = PTHREAD_MUTEX_INITIALIZER;   /* a device link's registration */

MC_EXPORT void **__hipRegisterFatBinary(const void *data);
MC_EXPORT int __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
                                    const char *deviceName, unsigned threadLimit, uint3 *tid, uint3 *bid,
                                    dim3 *blockDim, dim3 *gridDim, int *wSize);
MC_EXPORT void __hipRegisterVar(void **modules, void *var, char *hostVar, char *deviceVar, int ext, size_t size,
                                int constant, int global);
MC_EXPORT void __hipRegisterManagedVar(void *hipModule, void **pointer, void *init_value, const char *name,
                                       size_t size, unsigned align);
MC_EXPORT void __hipUnregisterFatBinary(void **modules);
MC_EXPORT unsigned __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                              struct CUstream_st *stream);
MC_EXPORT cudaError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);
MC_EXPORT cudaError_t hipLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                      cudaStream_t stream);
MC_EXPORT cudaError_t hipLaunchKernel_spt(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                          size_t sharedMem, cudaStream_t stream);

/* ==== __hipRegisterFatBinary (libcudart.@, metalcuda) ==== */
void **__hipRegisterFatBinary(const void *data)
{
   RT_ENTER("data=%p", data);
   const fatbin_wrapper *w = data;
   if (!w || w->magic != HIP_WRAPPER_MAGIC) {
      LOG_ERR("fatbin at %p has no HIP wrapper magic: not registered", data);
      return NULL;
   }
   const fatbin_wrapper *inner = w->data;
   if (inner && inner->magic == FATBIN_WRAPPER_MAGIC && inner->version == 2 && inner->filename_or_fatbins) {
      /* relocatable device code through metalcuda nvcc's device link: the
       * HIP wrapper of each translation unit points at its own copy of one
       * version-2 wrapper over the list of every unit (src/toolchain's
       * dlink_object).  They are one module, registered once and counted,
       * as HIP's runtime keeps one per image; loading links the units. */
      pthread_mutex_lock(&rdc_lock);
      rt_fatbin *fb = NULL;
      pthread_mutex_lock(&reg_lock);
      for (rt_fatbin *f = fatbins; f && !fb; f = f->next)
         if (f->rdc_units == inner->filename_or_fatbins)
            fb = f;
      if (fb)
         fb->rdc_refs++;
      pthread_mutex_unlock(&reg_lock);
      if (!fb) {
         fb = (rt_fatbin *)__cudaRegisterFatBinary((void *)inner);
         if (fb) {
            fb->rdc_units = inner->filename_or_fatbins;
            fb->rdc_refs = 1;
         }
      }
      pthread_mutex_unlock(&rdc_lock);
      return (void **)fb;
   }
   /* the same container behind another magic: give the loader the wrapper
    * nvcc's host code would have */
   fatbin_wrapper *cw = mc_calloc(1, sizeof(*cw));
   if (!cw) {
      LOG_ERR("out of memory registering a fatbin");
      return NULL;
   }
   cw->magic = FATBIN_WRAPPER_MAGIC;
   cw->version = 1;
   cw->data = w->data;
   rt_fatbin *fb = (rt_fatbin *)__cudaRegisterFatBinary(cw);
   if (!fb) {
      free(cw);
      return NULL;
   }
   fb->own_wrapper = cw;
   return (void **)fb;
}

/* The device name of a symbol HIP-mode host code registers.  With -rdc,
 * clang gives a unit's static variables and kernels used from the host a
 * name of their own, NAME.static.ID and NAME.intern.ID in HIP mode; the
 * device side, compiled in CUDA mode, names them NAME__static__ID and
 * NAME__intern__ID (PTX has no '.' in names).  NULL: name as it is. */
static const char *device_name(const char *name, char *buf, size_t len)
{
   static const char *const hip[2] = { ".static.", ".intern." };
   static const char *const cuda[2] = { "__static__", "__intern__" };
   if (!name)
      return NULL;
   for (int i = 0; i < 2; i++) {
      const char *at = strstr(name, hip[i]);
      if (!at || strchr(at + strlen(hip[i]), '.'))
         continue;
      if ((size_t)snprintf(buf, len, "%.*s%s%s", (int)(at - name), name, cuda[i], at + strlen(hip[i])) >= len)
         return NULL;
      return buf;
   }
   return NULL;
}

/* ==== __hipRegisterFunction (libcudart.@, metalcuda) ==== the host
 * function is clang's kernel handle, which host code uses as the kernel */
int __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction, const char *deviceName,
                          unsigned threadLimit, uint3 *tid, uint3 *bid, dim3 *blockDim, dim3 *gridDim, int *wSize)
{
   char buf[1024];
   const char *dev = device_name(deviceFunction, buf, sizeof(buf));
   __cudaRegisterFunction(modules, hostFunction, dev ? buf : deviceFunction, dev ? buf : deviceName,
                          (int)threadLimit, tid, bid, blockDim, gridDim, wSize);
   return 0;
}

/* ==== __hipRegisterVar (libcudart.@, metalcuda) ==== */
void __hipRegisterVar(void **modules, void *var, char *hostVar, char *deviceVar, int ext, size_t size, int constant,
                      int global)
{
   char buf[1024];
   char *dev = (char *)device_name(deviceVar, buf, sizeof(buf));
   __cudaRegisterVar(modules, var, dev ? dev : hostVar, dev ? dev : deviceVar, ext, size, constant, global);
}

/* ==== __hipRegisterManagedVar (libcudart.@, metalcuda) ====
 * *pointer is what host code dereferences for the variable: it is pointed
 * at the module's variable (arena memory, which the host reaches at the
 * same address) now, since clang's host code reads it with no call first;
 * that loads the module at registration, in the program's constructor.
 * init_value is clang's host copy of the initializer, which the module's
 * variable already has. */
void __hipRegisterManagedVar(void *hipModule, void **pointer, void *init_value, const char *name, size_t size,
                             unsigned align)
{
   RT_ENTER("hipModule=%p pointer=%p init_value=%p name=%s size=%zu align=%u", hipModule, (void *)pointer,
            init_value, name ? name : "(null)", size, align);
   rt_fatbin *fb = fatbin_of((void **)hipModule);
   if (!fb || !name || !pointer)
      return;
   char buf[1024];
   const char *dev = device_name(name, buf, sizeof(buf));
   register_var(fb, pointer, dev ? dev : name, size, false, pointer);
   CUlibrary lib;
   if (fatbin_library(fb, &lib) != cudaSuccess) {
      LOG_ERR("__managed__ variable %s: its module does not load", name);
      return;
   }
   pthread_mutex_lock(&reg_lock);
   bind_managed_vars(fb, lib);   /* those registered after the module loaded too */
   pthread_mutex_unlock(&reg_lock);
}

/* ==== __hipUnregisterFatBinary (libcudart.@, metalcuda) ==== a module of
 * relocatable device code goes with the last unit's unregistration */
void __hipUnregisterFatBinary(void **modules)
{
   RT_ENTER("modules=%p", (void *)modules);
   rt_fatbin *fb = fatbin_of(modules);
   if (fb && fb->rdc_units) {
      pthread_mutex_lock(&rdc_lock);
      bool last = --fb->rdc_refs == 0;
      pthread_mutex_unlock(&rdc_lock);
      if (!last)
         return;
   }
   __cudaUnregisterFatBinary(modules);
}

/* ==== __hipPushCallConfiguration (libcudart.@, metalcuda) ==== */
unsigned __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream)
{
   return __cudaPushCallConfiguration(gridDim, blockDim, sharedMem, stream);
}

/* ==== __hipPopCallConfiguration (libcudart.@, metalcuda) ==== */
cudaError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
   return __cudaPopCallConfiguration(gridDim, blockDim, sharedMem, stream);
}

/* ==== hipLaunchKernel, hipLaunchKernel_spt (libcudart.@, metalcuda) ====
 * what clang's kernel stubs call (_spt: --default-stream per-thread) */
cudaError_t hipLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                            cudaStream_t stream)
{
   return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}
cudaError_t hipLaunchKernel_spt(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                cudaStream_t stream)
{
   return cudaLaunchKernel_ptsz(func, gridDim, blockDim, args, sharedMem, stream);
}

const void *rt_function_host_of(CUfunction k)
{
   const void *host = NULL;
   pthread_mutex_lock(&reg_lock);
   for (rt_function *f = functions; f && !host; f = f->next)
      for (int d = 0; d < RT_MAX_DEVICES && !host; d++)
         if (f->kernel[d] && (CUfunction)(void *)f->kernel[d] == k)
            host = f->host_fun;
   pthread_mutex_unlock(&reg_lock);
   return host;
}
