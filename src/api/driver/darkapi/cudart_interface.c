/*
 * cudart_interface.c — CUDART_INTERFACE {6BD5FB6C-5BF4-E74A-8987-D93912FD9DF9}:
 * the runtime's way to the primary context and (older runtimes) to
 * modules made from nvcc's fatbin wrappers.
 *
 * 13 entries on NVIDIA's driver 580 (size word 0x68; slot 10 is NULL).
 * CUDA 12.9's and 13.0's runtimes call only slot 2, once per device at
 * their initialisation (observed on an H200); they load code with
 * cuLibraryLoadData.  Slots 1, 6, 7, 8 and 12 are what ZLUDA found older
 * runtimes using: module loading from a wrapper or a fatbin, a no-op, and
 * the loading of NVIDIA's JIT compilers, which have nothing to load here.
 */
#include "darkapi.h"

LOG_CHANNEL(darkapi);

/* Loads a module from an image in the current context (fatbin wrapper,
 * fatbin or PTX; core reads the container's own sizes). */
static CUresult load_module(CUmodule *module, const void *image)
{
   API_CHECK(module && image, CUDA_ERROR_INVALID_VALUE);
   API_NEED_CTX(c);
   core_module *m;
   CUresult r = (CUresult)core_module_load(c, image, SIZE_MAX, &m);
   if (r == CUDA_SUCCESS)
      *module = (CUmodule)(void *)m;
   return r;
}

/* [1] a module from a fatbin wrapper (__cudaRegisterFatBinary's argument) */
static CUresult CUDAAPI module_from_wrapper(CUmodule *module, const void *wrapper)
{
   API_ENTER("module=%p wrapper=%p", (void *)module, wrapper);
   return API_RETURN(load_module(module, wrapper));
}

/* [2] the device's primary context, without retaining or activating it
 * (the runtime makes it current, then retains it).  Before cuInit:
 * CUDA_ERROR_NOT_INITIALIZED, as NVIDIA's driver answers. */
static CUresult CUDAAPI primary_context(CUcontext *pctx, CUdevice dev)
{
   API_ENTER("pctx=%p dev=%d", (void *)pctx, dev);
   API_NEED_INIT();
   API_CHECK(pctx, CUDA_ERROR_INVALID_VALUE);
   core_device *d = core_device_get(dev);
   API_CHECK(d, CUDA_ERROR_INVALID_DEVICE);
   core_ctx *c;
   CUresult r = (CUresult)core_ctx_primary_handle(d, &c);
   if (r == CUDA_SUCCESS)
      *pctx = ctx_handle(c);
   return API_RETURN(r);
}

/* [6] the same as [1] with three more arguments, accepted only empty (what
 * they ask for is not known) */
static CUresult CUDAAPI module_from_wrapper_ext(CUmodule *module, const void *wrapper, void *arg3, void *arg4,
                                                unsigned arg5)
{
   API_ENTER("module=%p wrapper=%p arg3=%p arg4=%p arg5=%u", (void *)module, wrapper, arg3, arg4, arg5);
   if (arg3 || arg4 || arg5)
      API_NOT_SUPPORTED("CUDART_INTERFACE slot 6 with its extra arguments set");
   return API_RETURN(load_module(module, wrapper));
}

/* [7] does nothing on NVIDIA's driver as far as anyone has seen */
static CUresult CUDAAPI nothing(uintptr_t arg)
{
   API_ENTER("arg=%#llx", (unsigned long long)arg);
   return API_RETURN(CUDA_SUCCESS);
}

/* [8] a module from a fatbin (not its wrapper), extras as [6] */
static CUresult CUDAAPI module_from_fatbin_ext(const void *fatbin, CUmodule *module, void *arg3, void *arg4,
                                               unsigned arg5)
{
   API_ENTER("fatbin=%p module=%p arg3=%p arg4=%p arg5=%u", fatbin, (void *)module, arg3, arg4, arg5);
   if (arg3 || arg4 || arg5)
      API_NOT_SUPPORTED("CUDART_INTERFACE slot 8 with its extra arguments set");
   return API_RETURN(load_module(module, fatbin));
}

/* [12] NVIDIA's driver loads its PTX compiler and NVVM here; metalcuda's
 * translator is always there */
static CUresult CUDAAPI load_compilers(void)
{
   API_ENTER_VOID();
   return API_RETURN(CUDA_SUCCESS);
}

DARK_UNKNOWN_SLOT(cudart_interface, 3)
DARK_UNKNOWN_SLOT(cudart_interface, 4)
DARK_UNKNOWN_SLOT(cudart_interface, 5)
DARK_UNKNOWN_SLOT(cudart_interface, 9)
DARK_UNKNOWN_SLOT(cudart_interface, 10)
DARK_UNKNOWN_SLOT(cudart_interface, 11)

const dark_fn dark_cudart_interface[] = {
   DARK_SIZE(13),
   (dark_fn)module_from_wrapper,
   (dark_fn)primary_context,
   (dark_fn)dark_cudart_interface_slot3,
   (dark_fn)dark_cudart_interface_slot4,
   (dark_fn)dark_cudart_interface_slot5,
   (dark_fn)module_from_wrapper_ext,
   (dark_fn)nothing,
   (dark_fn)module_from_fatbin_ext,
   (dark_fn)dark_cudart_interface_slot9,
   (dark_fn)dark_cudart_interface_slot10,   /* NULL on NVIDIA's driver: never called */
   (dark_fn)dark_cudart_interface_slot11,
   (dark_fn)load_compilers,
};
