/*
 * internal.h — state shared by the runtime API files.
 *
 * libcudart talks to the device only through the CUDA driver API (our
 * libcuda.so.1), as NVIDIA's runtime does: it owns the runtime's own
 * notions (the current device per thread, primary-context activation on
 * first use, the kernels and variables the program registered, launch
 * configurations) and nothing below.
 */
#ifndef MC_API_RUNTIME_INTERNAL_H
#define MC_API_RUNTIME_INTERNAL_H

#include "../api.h"

#include <pthread.h>

/* state.c: makes sure the driver is initialised and the calling thread's
 * current device has its primary context current.  Returns the error the
 * runtime reports (cudaErrorNoDevice, cudaErrorInitializationError...). */
cudaError_t rt_lazy_init(void);
/* The runtime's channel descriptor of a driver array format of n channels. */
struct cudaChannelFormatDesc rt_channel_desc(CUarray_format f, unsigned n);
cudaError_t rt_ensure_ctx(void);
/* The preamble of a runtime entry point that acts on the device: returns
 * (traced, recorded as the last error) what rt_ensure_ctx reports. */
#define RT_NEED_CTX()                                                        \
   do {                                                                      \
      cudaError_t e_ = rt_ensure_ctx();                                      \
      if (e_ != cudaSuccess)                                                 \
         return RT_RETURN(e_);                                               \
   } while (0)
int rt_current_device(void);
void rt_set_current_device(int dev);
int rt_device_count(void);
/* Initialises the device's primary context (cudaInitDevice) without making
 * it current. */
cudaError_t rt_init_device(int dev);
/* The device's primary context, initialised (not made current):
 * cudaErrorInvalidDevice for an ordinal out of range. */
cudaError_t rt_primary_ctx(int dev, CUcontext *out);
/* Drops the runtime's hold on the device's primary context (cudaDeviceReset):
 * registered modules must be loaded again afterwards. */
void rt_forget_device(int dev);
/* Incremented at every reset of a device: loaded modules remember it. */
unsigned rt_device_generation(int dev);

/* register.c */
typedef struct rt_function rt_function;
/* The record of a host stub, or the record itself (a cudaKernel_t). */
rt_function *rt_function_by_host(const void *host_fun);
bool rt_function_check(const rt_function *f);
/* The driver kernel of f for the current device (loading its module). */
cudaError_t rt_function_kernel(rt_function *f, CUfunction *out);
const char *rt_function_name(const rt_function *f);
/* library.c: the driver kernel of what a launch or cudaFunc* call names: a
 * host stub, a registered kernel's cudaKernel_t (loading its module for the
 * current device) or a kernel of a library the runtime loaded;
 * cudaErrorInvalidResourceHandle for anything else, as NVIDIA's
 * cudaLaunchKernel answers. */
cudaError_t rt_kernel_of(const void *func, CUfunction *out);
/* The device address and size of a registered __device__, __constant__ or
 * __managed__ variable, by its host shadow's address (loading its module);
 * cudaErrorInvalidSymbol if no variable was registered there. */
cudaError_t rt_symbol(const void *symbol, CUdeviceptr *ptr, size_t *size);

/* memory.c: a copy of `kind` through the driver (async: on stream);
 * cudaErrorInvalidMemcpyDirection for an unknown kind. */
cudaError_t rt_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream,
                      bool async);

/* launch.c */
/* memcpy3d.c: the driver's form of a 3-D copy (arrays: cudaErrorNotSupported). */
cudaError_t rt_memcpy3d_params(const struct cudaMemcpy3DParms *p, CUDA_MEMCPY3D *c);
/* register.c: the host stub of a kernel handle (NULL if none). */
const void *rt_function_host_of(CUfunction k);
/* A copy's driver memory types for a cudaMemcpyKind (false: unknown kind),
 * and one side set from a pointer of that type (memcpy3d.c). */
bool rt_copy_kinds(enum cudaMemcpyKind kind, CUmemorytype *src, CUmemorytype *dst);
void rt_copy_side(CUmemorytype t, const void *p, CUmemorytype *type, const void **host, CUdeviceptr *dev);
/* Bytes per element of a CUDA array (0 if it is none). */
size_t rt_array_elem(cudaArray_const_t a);
/* A channel description as a driver array format (array.c):
 * cudaErrorInvalidChannelDescriptor for none of CUDA's,
 * cudaErrorNotSupported (logged, naming the kind) for a kind metalcuda
 * does not read (block compressed, NV12, 10-10-10-2). */
cudaError_t rt_channel_format(const struct cudaChannelFormatDesc *d, CUarray_format *f, unsigned *channels);
/* A grid and block CUDA 13 accepts (launch.c). */
bool rt_launch_config_ok(dim3 grid, dim3 block);
cudaError_t rt_launch(rt_function *f, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream);
/* The same for a driver kernel. */
cudaError_t rt_launch_cu(CUfunction k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream);

/* The _ptds synchronous copies and fills (nvcc --default-stream
 * per-thread): the async form on cudaStreamPerThread (e), then, as a
 * synchronous call, the wait for that stream -- ordered against the
 * thread's own stream rather than every blocking stream. */
static inline cudaError_t rt_ptds_sync(cudaError_t e)
{
   return e == cudaSuccess ? cudaStreamSynchronize(cudaStreamPerThread) : e;
}

/* The stream of a _ptsz entry point (nvcc --default-stream per-thread
 * calls them): the NULL stream there is the thread's own. */
static inline cudaStream_t rt_ptsz(cudaStream_t s)
{
   return s ? s : cudaStreamPerThread;
}

#define RT_MAX_DEVICES 16

/* The CUDA 13 form of an entry point that libcudart.so.12 and .11.0 export
 * under the same name with another signature or structure (abi12.c,
 * abi11.c, linked into those libraries only): weak, so the form there
 * takes its place at link time.  Every caller of such a name inside the
 * runtime is itself one of them (a _ptsz twin). */
#define RT_CUDA13_FORM __attribute__((weak))
/* The older form's C name differs (protos.h declares CUDA 13's under
 * CUDA's name); it is exported under CUDA's name through an assembler
 * label (Mach-O prefixes an underscore). */
#define RT_STR2_(x) #x
#define RT_STR_(x) RT_STR2_(x)
#define RT_EXPORT_AS(name) __asm__(RT_STR_(__USER_LABEL_PREFIX__) #name)

/* version.c, built once per soname: the CUDA version the library is the
 * runtime of (13000, 12090, 11080), which cudaRuntimeGetVersion reports and
 * cudaGetDriverEntryPoint asks the driver's entry points at. */
int rt_runtime_version(void);
/* entrypoint.c: cudaGetDriverEntryPoint's lookup, untraced. */
cudaError_t rt_driver_entry_point(const char *symbol, void **funcPtr, unsigned long long flags,
                                  enum cudaDriverEntryPointQueryResult *driverStatus, bool per_thread);

/* device.c: CUDA 13's properties of device d (abi12.c converts them). */
void rt_fill_props(struct cudaDeviceProp *p, int d);
/* The device cudaChooseDevice picks for what want asks. */
int rt_choose_device(const struct cudaDeviceProp *want);
/* hostmem.c: cudaPointerGetAttributes's answer, untraced; the managed
 * memory hints of CUDA 13's form (CUDA 12's _v2). */
cudaError_t rt_pointer_attributes(struct cudaPointerAttributes *out, const void *ptr);
cudaError_t rt_mem_prefetch(const void *devPtr, size_t count, struct cudaMemLocation location, unsigned flags,
                            cudaStream_t stream);
cudaError_t rt_mem_advise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location);
/* stream.c: cudaStreamGetCaptureInfo of CUDA 13 (CUDA 12's _v3), untraced. */
cudaError_t rt_capture_info(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                            unsigned long long *id_out, cudaGraph_t *graph_out,
                            const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                            size_t *numDependencies_out);

#endif
