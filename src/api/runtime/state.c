/*
 * state.c — runtime initialisation and the current device.
 *
 * The runtime initialises on its first call (cuInit), and a thread's first
 * call that needs a device makes the primary context of its current device
 * (0 unless cudaSetDevice said otherwise) current, retaining it once per
 * process, as NVIDIA's runtime does.
 */
#include "internal.h"

#include "../../../include/metalcuda.h"

LOG_CHANNEL(runtime);

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static cudaError_t init_error = cudaErrorInitializationError;
static int ndevices;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext primary[RT_MAX_DEVICES];
static unsigned generation[RT_MAX_DEVICES];
static _Thread_local int cur_device;

static cudaError_t sticky_hook(void);

static void init(void)
{
   CUresult r = cuInit(0);
   if (r == CUDA_SUCCESS)
      r = cuDeviceGetCount(&ndevices);
   if (r != CUDA_SUCCESS) {
      init_error = r == CUDA_ERROR_NO_DEVICE ? cudaErrorNoDevice : cu_to_cuda_error(r);
      return;
   }
   if (ndevices > RT_MAX_DEVICES)
      ndevices = RT_MAX_DEVICES;
   init_error = ndevices ? cudaSuccess : cudaErrorNoDevice;
   rt_set_sticky_error_hook(sticky_hook);
}

cudaError_t rt_lazy_init(void)
{
   pthread_once(&init_once, init);
   return init_error;
}

int rt_device_count(void) { return ndevices; }
int rt_current_device(void) { return cur_device; }
void rt_set_current_device(int dev) { cur_device = dev; }

unsigned rt_device_generation(int dev)
{
   return dev >= 0 && dev < RT_MAX_DEVICES ? __atomic_load_n(&generation[dev], __ATOMIC_ACQUIRE) : 0;
}

/* The runtime's hold on the device's primary context, taken once. */
static CUresult retain_primary(int dev, CUcontext *out)
{
   pthread_mutex_lock(&lock);
   CUresult r = CUDA_SUCCESS;
   if (!primary[dev])
      r = cuDevicePrimaryCtxRetain(&primary[dev], dev);
   *out = primary[dev];
   pthread_mutex_unlock(&lock);
   return r;
}

cudaError_t rt_init_device(int dev)
{
   CUcontext c;
   CUresult r = retain_primary(dev, &c);
   return r == CUDA_SUCCESS ? cudaSuccess : cu_to_cuda_error(r);
}

cudaError_t rt_primary_ctx(int dev, CUcontext *out)
{
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return e;
   if (dev < 0 || dev >= ndevices)
      return cudaErrorInvalidDevice;
   CUresult r = retain_primary(dev, out);
   return r == CUDA_SUCCESS ? cudaSuccess : cu_to_cuda_error(r);
}

/* Whether c is a primary context the runtime holds. */
static bool rt_is_primary(CUcontext c)
{
   pthread_mutex_lock(&lock);
   bool found = false;
   for (int d = 0; d < RT_MAX_DEVICES && !found; d++)
      found = primary[d] == c;
   pthread_mutex_unlock(&lock);
   return found;
}

cudaError_t rt_ensure_ctx(void)
{
   cudaError_t e = rt_lazy_init();
   if (e != cudaSuccess)
      return e;
   int dev = cur_device;
   if (dev < 0 || dev >= ndevices)
      return cudaErrorInvalidDevice;
   CUcontext want;
   CUresult r = retain_primary(dev, &want);
   if (r != CUDA_SUCCESS)
      return cu_to_cuda_error(r);
   CUcontext now = NULL;
   cuCtxGetCurrent(&now);
   /* a context the program made current (cuCtxCreate) is used as it is,
    * as NVIDIA's runtime uses it */
   unsigned version;
   if (now && now != want && cuCtxGetApiVersion(now, &version) == CUDA_SUCCESS && !rt_is_primary(now))
      return cudaSuccess;
   if (now != want && (r = cuCtxSetCurrent(want)) != CUDA_SUCCESS)
      return cu_to_cuda_error(r);
   return cudaSuccess;
}

void rt_forget_device(int dev)
{
   pthread_mutex_lock(&lock);
   if (primary[dev]) {
      cuDevicePrimaryCtxReset_v2(dev);
      cuDevicePrimaryCtxRelease_v2(dev);
      primary[dev] = NULL;
   }
   __atomic_add_fetch(&generation[dev], 1, __ATOMIC_ACQ_REL);
   pthread_mutex_unlock(&lock);
}

/* A sticky error (kernel fault) of the current context, without waiting
 * for anything: cudaGetLastError reports it (see rt_get_last_error).  The
 * driver exposes it through metalcuda's private export table. */
static const metalcuda_private_table *private_table;

static void find_private_table(void)
{
   static const CUuuid id = { METALCUDA_PRIVATE_TABLE_ID_BYTES };
   const void *t = NULL;
   if (cuGetExportTable(&t, &id) == CUDA_SUCCESS && t &&
       ((const metalcuda_private_table *)t)->size >= sizeof(metalcuda_private_table))
      private_table = t;
}

static cudaError_t sticky_hook(void)
{
   static pthread_once_t once = PTHREAD_ONCE_INIT;
   pthread_once(&once, find_private_table);
   if (!private_table)
      return cudaSuccess;
   int r = private_table->ctx_sticky_error(NULL);
   return r ? cu_to_cuda_error((CUresult)r) : cudaSuccess;
}
