/*
 * test_api_errors.c — error names and strings, the last-error state, the
 * driver-to-runtime mapping, the stubs' not-supported path, and the
 * inter-process handles and external resource interop refused as not
 * supported (driver/ipc.c, runtime/interop.c), the memory pools'
 * argument checks and what metalcuda refuses of them (driver/mempool.c;
 * tests/cuda/mempools.cu runs them on a real program), the argument checks
 * and reference counting of user objects (driver/userobj.c) and the
 * argument checks of stream memory operations (driver/memop.c).
 *
 * The unit tests link only the internal library, so the API files under
 * test are compiled into this file.  Each defines its own log channel;
 * renaming the identifier per file keeps them apart.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "harness.h"

#define log_channel_ log_channel_drv_error_
#include "../../src/api/driver/error.c"
#undef log_channel_
#define log_channel_ log_channel_rt_error_
#include "../../src/api/runtime/error.c"
#undef log_channel_
#define log_channel_ log_channel_drv_stub_
#include "../../src/api/driver/stubs.c"
#undef log_channel_
#define log_channel_ log_channel_rt_stub_
#include "../../src/api/runtime/stubs.c"
#undef log_channel_
#define log_channel_ log_channel_drv_ipc_
#include "../../src/api/driver/ipc.c"
#undef log_channel_
#define log_channel_ log_channel_rt_ipc_
#include "../../src/api/runtime/ipc.c"
#undef log_channel_
#define log_channel_ log_channel_rt_interop_
#include "../../src/api/runtime/interop.c"
#undef log_channel_
#define log_channel_ log_channel_drv_mempool_
#include "../../src/api/driver/mempool.c"
#undef log_channel_
#define log_channel_ log_channel_drv_userobj_
#include "../../src/api/driver/userobj.c"
#undef log_channel_
#define log_channel_ log_channel_drv_memop_
#include "../../src/api/driver/memop.c"
#undef log_channel_

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define SENTINEL ((const char *)(uintptr_t)0xdeadbeef)

/* ---- names and strings checked against values from elsewhere ----
 *
 * The tables in error.c were read from NVIDIA's libraries; these samples
 * come from somewhere else, so a slip in that reading shows:
 *  - programs printing cudaGetErrorString: PyTorch's "CUDA error: an illegal
 *    memory access was encountered" (ksml4.com/fixed-cuda-error-an-illegal-
 *    memory-access-was-encountered) and "CUDA error: device-side assert
 *    triggered" (deadends.dev/cuda/device-side-assert/cuda12-a100);
 *  - CuPy printing cuGetErrorName + cuGetErrorString: "CUDA_ERROR_INVALID_
 *    SOURCE: device kernel image is invalid" (blog.gitcode.com/97365c4fb6e4
 *    8aeeb946081ebb144482.html);
 *  - NVIDIA's driver API reference (docs.nvidia.com/cuda/cuda-driver-api,
 *    "Error Handling"): an unknown code gives CUDA_ERROR_INVALID_VALUE and
 *    *pStr = NULL;
 *  - numbers: the enumerators of CUDA 13.0's cuda.h and driver_types.h.
 * The remaining strings are everyday knowledge of CUDA users, recalled
 * rather than read off the tables ("invalid argument", "out of memory", ...).
 */
static const struct { CUresult code; const char *name, *string; } cu_samples[] = {
   { CUDA_SUCCESS, "CUDA_SUCCESS", "no error" },
   { CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
   { CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
   { CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
   { CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
   { CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
   { CUDA_ERROR_INVALID_SOURCE, "CUDA_ERROR_INVALID_SOURCE", "device kernel image is invalid" },
   { CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle" },
   { CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
   { CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
   { CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered" },
   { CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure" },
   { CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported" },
   { CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

static const struct { cudaError_t code; int value; const char *name, *string; } rt_samples[] = {
   { cudaSuccess, 0, "cudaSuccess", "no error" },
   { cudaErrorInvalidValue, 1, "cudaErrorInvalidValue", "invalid argument" },
   { cudaErrorMemoryAllocation, 2, "cudaErrorMemoryAllocation", "out of memory" },
   { cudaErrorInsufficientDriver, 35, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version" },
   { cudaErrorNoDevice, 100, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
   { cudaErrorInvalidDevice, 101, "cudaErrorInvalidDevice", "invalid device ordinal" },
   { cudaErrorNoKernelImageForDevice, 209, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device" },
   { cudaErrorIllegalAddress, 700, "cudaErrorIllegalAddress", "an illegal memory access was encountered" },
   { cudaErrorLaunchOutOfResources, 701, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch" },
   { cudaErrorAssert, 710, "cudaErrorAssert", "device-side assert triggered" },
   { cudaErrorLaunchFailure, 719, "cudaErrorLaunchFailure", "unspecified launch failure" },
   { cudaErrorNotSupported, 801, "cudaErrorNotSupported", "operation not supported" },
   { cudaErrorUnknown, 999, "cudaErrorUnknown", "unknown error" },
};

TEST(cu_error_samples)
{
   for (size_t i = 0; i < ARRAY_SIZE(cu_samples); i++) {
      const char *n = SENTINEL, *s = SENTINEL;
      CHECK_INT(cuGetErrorName(cu_samples[i].code, &n), CUDA_SUCCESS);
      CHECK_INT(cuGetErrorString(cu_samples[i].code, &s), CUDA_SUCCESS);
      CHECK_STR(n, cu_samples[i].name);
      CHECK_STR(s, cu_samples[i].string);
   }
}

TEST(cuda_error_samples)
{
   for (size_t i = 0; i < ARRAY_SIZE(rt_samples); i++) {
      CHECK_INT(rt_samples[i].code, rt_samples[i].value);
      CHECK_STR(cudaGetErrorName(rt_samples[i].code), rt_samples[i].name);
      CHECK_STR(cudaGetErrorString(rt_samples[i].code), rt_samples[i].string);
   }
}

TEST(cu_error_unknown_code)
{
   static const int codes[] = { -1, 9, 35, 203, 1000, 9999, 10000 };
   for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
      const char *n = SENTINEL, *s = SENTINEL;
      CHECK_INT(cuGetErrorName((CUresult)codes[i], &n), CUDA_ERROR_INVALID_VALUE);
      CHECK_INT(cuGetErrorString((CUresult)codes[i], &s), CUDA_ERROR_INVALID_VALUE);
      CHECK_MSG(n == NULL, "cuGetErrorName(%d): *pStr = %p, expected NULL", codes[i], (const void *)n);
      CHECK_MSG(s == NULL, "cuGetErrorString(%d): *pStr = %p, expected NULL", codes[i], (const void *)s);
   }
   CHECK_INT(cuGetErrorName(CUDA_SUCCESS, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuGetErrorString(CUDA_SUCCESS, NULL), CUDA_ERROR_INVALID_VALUE);
}

TEST(cuda_error_unknown_code)
{
   /* Observed with NVIDIA's libcudart.so.13: both say the same. */
   static const int codes[] = { -1, 135, 202, 916, 1000, 9999, 10001 };
   for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
      CHECK_STR(cudaGetErrorName((cudaError_t)codes[i]), "unrecognized error code");
      CHECK_STR(cudaGetErrorString((cudaError_t)codes[i]), "unrecognized error code");
   }
}

/* ---- every enumerator has its own name ---- */

static const struct { const char *type, *name; long long value; } enumerators[] = {
#define CUABI_CONST(n)
#define CUABI_TYPE(t)
#define CUABI_SAME(a, b)
#define CUABI_ENUM_TYPE(key, tag, t)
#define CUABI_STRUCT_TYPE(key, tag, t)
#define CUABI_FIELD(key, t, m)
#define CUABI_ENUM(key, n) { #key, #n, (long long)(n) },
#include "../tools/cuabi_list.h"
#undef CUABI_CONST
#undef CUABI_TYPE
#undef CUABI_SAME
#undef CUABI_ENUM_TYPE
#undef CUABI_STRUCT_TYPE
#undef CUABI_FIELD
#undef CUABI_ENUM
};

TEST(every_cuerror_has_its_name)
{
   int n = 0;
   for (size_t i = 0; i < ARRAY_SIZE(enumerators); i++) {
      if (strcmp(enumerators[i].type, "CUresult"))
         continue;
      const char *name = SENTINEL, *str = SENTINEL;
      CHECK_INT(cuGetErrorName((CUresult)enumerators[i].value, &name), CUDA_SUCCESS);
      CHECK_STR(name, enumerators[i].name);
      CHECK_INT(cuGetErrorString((CUresult)enumerators[i].value, &str), CUDA_SUCCESS);
      CHECK_MSG(str && *str && str != SENTINEL, "%s has no description", enumerators[i].name);
      n++;
   }
   CHECK_INT(n, 101);          /* CUDA 13.0's cuda.h */
   CHECK_INT(n, (int)ARRAY_SIZE(cu_errors));
}

TEST(every_cudaerror_has_its_name)
{
   int n = 0;
   for (size_t i = 0; i < ARRAY_SIZE(enumerators); i++) {
      if (strcmp(enumerators[i].type, "cudaError"))
         continue;
      CHECK_STR(cudaGetErrorName((cudaError_t)enumerators[i].value), enumerators[i].name);
      const char *s = cudaGetErrorString((cudaError_t)enumerators[i].value);
      CHECK_MSG(s && *s && strcmp(s, "unrecognized error code"), "%s has no description",
                enumerators[i].name);
      n++;
   }
   CHECK_INT(n, 134);          /* CUDA 13.0's driver_types.h */
   CHECK_INT(n, (int)ARRAY_SIZE(rt_errors));
}

/* The driver's table and the runtime's were read from two different NVIDIA
 * libraries; NVIDIA gives the same description to the same number. */
TEST(driver_and_runtime_strings_agree)
{
   for (size_t i = 0; i < ARRAY_SIZE(cu_errors); i++) {
      CUresult c = cu_errors[i].code;
      cudaError_t r = cu_to_cuda_error(c);
      CHECK_INT(r, c);
      if (c == CUDA_ERROR_CONTEXT_ALREADY_CURRENT || c == CUDA_ERROR_KEY_ROTATION) {
         /* no runtime counterpart: NVIDIA's runtime passes the number on */
         CHECK_STR(cudaGetErrorString(r), "unrecognized error code");
         continue;
      }
      const char *s = NULL;
      CHECK_INT(cuGetErrorString(c, &s), CUDA_SUCCESS);
      CHECK_STR(cudaGetErrorString(r), s);
   }
}

/* With the CUDA toolkit installed, NVIDIA's own libcudart.so.13 answers
 * cudaGetErrorName/String without a GPU: compare every code. */
TEST(cuda_errors_match_nvidia_libcudart)
{
   const char *paths[] = { getenv("MC_NVIDIA_CUDART"), "/usr/local/cuda/lib64/libcudart.so.13",
                           "/usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.13",
                           "libcudart.so.13" };
   void *h = NULL;
   for (size_t i = 0; i < ARRAY_SIZE(paths) && !h; i++)
      if (paths[i] && *paths[i])
         h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
   if (!h) {
      test_skip("NVIDIA's libcudart.so.13 not found (set MC_NVIDIA_CUDART)");
      return;
   }
   typedef const char *(*str_fn)(cudaError_t);
   str_fn nv_name = (str_fn)dlsym(h, "cudaGetErrorName");
   str_fn nv_string = (str_fn)dlsym(h, "cudaGetErrorString");
   CHECK(nv_name && nv_string);
   CHECK_MSG(nv_name != cudaGetErrorName, "dlsym found our own cudaGetErrorName");
   for (int c = -2; c < 1100; c++) {
      CHECK_STR(cudaGetErrorName((cudaError_t)c), nv_name((cudaError_t)c));
      CHECK_STR(cudaGetErrorString((cudaError_t)c), nv_string((cudaError_t)c));
   }
   CHECK_STR(cudaGetErrorName(cudaErrorApiFailureBase), nv_name(cudaErrorApiFailureBase));
   CHECK_STR(cudaGetErrorString(cudaErrorApiFailureBase), nv_string(cudaErrorApiFailureBase));
   dlclose(h);
}

/* ---- the thread's last error ---- */

static void *other_thread_last_error(void *arg)
{
   (void)arg;
   return (void *)(uintptr_t)rt_get_last_error(false);
}

TEST(last_error_semantics)
{
   rt_get_last_error(true);
   CHECK_INT(rt_get_last_error(false), cudaSuccess);
   rt_set_last_error(cudaErrorInvalidValue);
   rt_set_last_error(cudaSuccess);                  /* a success does not erase it */
   CHECK_INT(rt_get_last_error(false), cudaErrorInvalidValue);   /* peek keeps it */
   rt_set_last_error(cudaErrorMemoryAllocation);    /* the latest failure wins */
   CHECK_INT(rt_get_last_error(false), cudaErrorMemoryAllocation);

   pthread_t t;                                      /* per thread */
   void *other = (void *)(uintptr_t)0xdead;
   CHECK(pthread_create(&t, NULL, other_thread_last_error, NULL) == 0);
   pthread_join(t, &other);
   CHECK_INT((uintptr_t)other, cudaSuccess);

   CHECK_INT(rt_get_last_error(true), cudaErrorMemoryAllocation);  /* get resets */
   CHECK_INT(rt_get_last_error(false), cudaSuccess);
}

static cudaError_t sticky_value;
static cudaError_t sticky_hook_fn(void) { return sticky_value; }

TEST(sticky_error_hook)
{
   rt_get_last_error(true);
   rt_set_sticky_error_hook(sticky_hook_fn);
   sticky_value = cudaSuccess;
   rt_set_last_error(cudaErrorInvalidValue);
   CHECK_INT(rt_get_last_error(true), cudaErrorInvalidValue);
   /* As NVIDIA's runtime on an H200: the thread's recorded error first;
    * a sticky error not yet reported is reported once; a failing call
    * records it again (every call fails in such a context). */
   sticky_value = cudaErrorIllegalAddress;
   rt_set_last_error(cudaErrorInvalidValue);
   CHECK_INT(rt_get_last_error(false), cudaErrorInvalidValue);
   CHECK_INT(rt_get_last_error(true), cudaErrorInvalidValue);
   CHECK_INT(rt_get_last_error(false), cudaErrorIllegalAddress);  /* peek: not yet reported */
   CHECK_INT(rt_get_last_error(true), cudaErrorIllegalAddress);
   CHECK_INT(rt_get_last_error(true), cudaSuccess);               /* reported once */
   CHECK_INT(rt_get_last_error(false), cudaSuccess);
   rt_set_last_error(cudaErrorIllegalAddress);                     /* a later call failed with it */
   CHECK_INT(rt_get_last_error(true), cudaErrorIllegalAddress);
   CHECK_INT(rt_get_last_error(true), cudaSuccess);
   sticky_value = cudaSuccess;                                     /* a fresh context */
   CHECK_INT(rt_get_last_error(true), cudaSuccess);
   sticky_value = cudaErrorIllegalAddress;                         /* faults again: reported again */
   CHECK_INT(rt_get_last_error(true), cudaErrorIllegalAddress);
   sticky_value = cudaSuccess;
   rt_set_sticky_error_hook(NULL);
}

TEST(rt_return_records_failures)
{
   rt_get_last_error(true);
   CHECK_INT(rt_return_("test", "f", cudaSuccess), cudaSuccess);
   CHECK_INT(rt_get_last_error(false), cudaSuccess);
   CHECK_INT(rt_return_("test", "f", cu_to_cuda_error(CUDA_ERROR_INVALID_HANDLE)),
             cudaErrorInvalidResourceHandle);
   CHECK_INT(rt_get_last_error(true), cudaErrorInvalidResourceHandle);
}

/* ---- stubs ----
 *
 * Whichever entries are stubs at the moment: the tables list them all. */

static const struct { const char *name; CUresult (*fn)(void); } driver_stubs[] = {
#define IMPL(name)
#define STUB(name) { #name, name },
#include "../../src/api/driver/entries.h"
#undef IMPL
#undef STUB
};

static const struct { const char *name; cudaError_t (*fn)(void); } runtime_stubs[] = {
#define IMPL(name, r)
#define STUB(name, r) STUB_##r(name)
#define STUB_E(name) { #name, name },
#define STUB_V(name)
#include "../../src/api/runtime/entries.h"
#undef IMPL
#undef STUB
#undef STUB_E
#undef STUB_V
};

static int captured;
static char captured_msg[512];

static void capture(int level, const char *msg, void *data)
{
   (void)data;
   if (level == LOG_LEVEL_WARN) {
      captured++;
      snprintf(captured_msg, sizeof(captured_msg), "%s", msg);
   }
}

TEST(driver_stub_fails_and_says_so_once)
{
   unsetenv("METALCUDA_STRICT");
   log_set_level(LOG_LEVEL_WARN);
   captured = 0;
   log_set_sink(capture, NULL);
   CUresult r1 = driver_stubs[0].fn();
   CUresult r2 = driver_stubs[0].fn();
   log_set_sink(NULL, NULL);
   CHECK_INT(r1, CUDA_ERROR_NOT_SUPPORTED);
   CHECK_INT(r2, CUDA_ERROR_NOT_SUPPORTED);
   CHECK_INT(captured, 1);
   char want[256];
   snprintf(want, sizeof(want), "%s is not implemented yet", driver_stubs[0].name);
   CHECK_CONTAINS(captured_msg, want);
   /* and every other stub fails too (their messages go to the sink) */
   log_set_sink(capture, NULL);
   size_t failed = 0;
   for (size_t i = 1; i < ARRAY_SIZE(driver_stubs); i++)
      failed += driver_stubs[i].fn() == CUDA_ERROR_NOT_SUPPORTED;
   log_set_sink(NULL, NULL);
   CHECK_INT(failed, ARRAY_SIZE(driver_stubs) - 1);
}

TEST(runtime_stub_fails_sets_last_error_and_says_so_once)
{
   unsetenv("METALCUDA_STRICT");
   log_set_level(LOG_LEVEL_WARN);
   rt_get_last_error(true);
   captured = 0;
   log_set_sink(capture, NULL);
   cudaError_t r1 = runtime_stubs[0].fn();
   cudaError_t r2 = runtime_stubs[0].fn();
   log_set_sink(NULL, NULL);
   CHECK_INT(r1, cudaErrorNotSupported);
   CHECK_INT(r2, cudaErrorNotSupported);
   CHECK_INT(captured, 1);
   char want[256];
   snprintf(want, sizeof(want), "%s is not implemented yet", runtime_stubs[0].name);
   CHECK_CONTAINS(captured_msg, want);
   CHECK_INT(rt_get_last_error(true), cudaErrorNotSupported);
   log_set_sink(capture, NULL);
   size_t failed = 0;
   for (size_t i = 1; i < ARRAY_SIZE(runtime_stubs); i++)
      failed += runtime_stubs[i].fn() == cudaErrorNotSupported;
   log_set_sink(NULL, NULL);
   CHECK_INT(failed, ARRAY_SIZE(runtime_stubs) - 1);
   CHECK_INT(rt_get_last_error(true), cudaErrorNotSupported);
}

/* METALCUDA_STRICT=1 turns the stub into an abort; run it in a child. */
static int strict_child(CUresult (*stub)(void))
{
   fflush(stdout);
   pid_t pid = fork();
   if (pid == 0) {
      int devnull = open("/dev/null", O_WRONLY);
      if (devnull >= 0)
         dup2(devnull, 2);        /* keep the abort message out of the test log */
      setenv("METALCUDA_STRICT", "1", 1);
      stub();
      _exit(0);
   }
   int status = 0;
   waitpid(pid, &status, 0);
   return status;
}

TEST(strict_mode_aborts_in_a_stub)
{
   int status = strict_child(driver_stubs[ARRAY_SIZE(driver_stubs) - 1].fn);
   CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
             "child status %#x: expected SIGABRT", status);
}

TEST(ipc_handles_are_refused_as_not_supported)
{
   cudaIpcMemHandle_t mh;
   cudaIpcEventHandle_t eh;
   void *p = NULL;
   cudaEvent_t ev = NULL;
   memset(&mh, 0, sizeof(mh));
   memset(&eh, 0, sizeof(eh));
   CHECK_INT(sizeof(mh), 64);
   CHECK_INT(cudaIpcGetMemHandle(&mh, (void *)(uintptr_t)0x1000), cudaErrorNotSupported);
   CHECK_INT(cudaGetLastError(), cudaErrorNotSupported);
   CHECK_INT(cudaIpcOpenMemHandle(&p, mh, 1), cudaErrorNotSupported);
   CHECK_INT(cudaIpcCloseMemHandle(p), cudaErrorNotSupported);
   CHECK_INT(cudaIpcGetEventHandle(&eh, ev), cudaErrorNotSupported);
   CHECK_INT(cudaIpcOpenEventHandle(&ev, eh), cudaErrorNotSupported);
   CHECK_INT(cudaGetLastError(), cudaErrorNotSupported);
   CHECK_INT(cudaGetLastError(), cudaSuccess);
   CUipcMemHandle cmh;
   memset(&cmh, 0, sizeof(cmh));
   CUdeviceptr d = 0;
   CHECK_INT(cuIpcOpenMemHandle(&d, cmh, 1), CUDA_ERROR_NOT_SUPPORTED);
   CHECK_INT(cuIpcOpenMemHandle_v2(&d, cmh, 1), CUDA_ERROR_NOT_SUPPORTED);
   struct cudaMemPoolPtrExportData x;
   CHECK_INT(cudaMemPoolExportPointer(&x, (void *)(uintptr_t)0x1000), cudaErrorNotSupported);
   CHECK_INT(cudaMemPoolImportPointer(&p, NULL, &x), cudaErrorNotSupported);
   CHECK_INT(cudaGetLastError(), cudaErrorNotSupported);
}

TEST(external_resource_interop_is_refused_as_not_supported)
{
   cudaExternalMemory_t m = NULL;
   cudaExternalSemaphore_t sem = NULL;
   void *p = NULL;
   CHECK_INT(cudaImportExternalMemory(&m, NULL), cudaErrorNotSupported);
   CHECK_INT(cudaExternalMemoryGetMappedBuffer(&p, m, NULL), cudaErrorNotSupported);
   CHECK_INT(cudaImportExternalSemaphore(&sem, NULL), cudaErrorNotSupported);
   CHECK_INT(cudaSignalExternalSemaphoresAsync(&sem, NULL, 1, NULL), cudaErrorNotSupported);
   CHECK_INT(cudaWaitExternalSemaphoresAsync_ptsz(&sem, NULL, 1, NULL), cudaErrorNotSupported);
   CHECK_INT(cudaGraphAddExternalSemaphoresWaitNode(NULL, NULL, NULL, 0, NULL), cudaErrorNotSupported);
   cudaGraphicsResource_t r = NULL;
   CHECK_INT(cudaGraphicsMapResources(1, &r, NULL), cudaErrorNotSupported);
   CHECK_INT(cudaGraphicsUnregisterResource(r), cudaErrorNotSupported);
   CHECK_INT(cudaGetLastError(), cudaErrorNotSupported);
   CHECK_INT(cudaGetLastError(), cudaSuccess);
}

/* ---- memory pools (driver/mempool.c) ---- */

static CUmemPoolProps pool_props(void)
{
   CUmemPoolProps p;
   memset(&p, 0, sizeof(p));
   p.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
   p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
   p.location.id = 0;
   return p;
}

TEST(memory_pool_arguments_are_checked)
{
   CUmemPoolProps props = pool_props();
   CUmemoryPool pool = NULL, got = NULL;
   /* a pointer that is no pool is refused without being read */
   CUmemoryPool bogus = (CUmemoryPool)(uintptr_t)0x10;
   CHECK_INT(cuMemPoolCreate(NULL, &props), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuMemPoolCreate(&pool, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuMemPoolDestroy(NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuMemPoolDestroy(bogus), CUDA_ERROR_INVALID_VALUE);
   CUmemAccessDesc d = { { CU_MEM_LOCATION_TYPE_DEVICE, 0 }, CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
   CHECK_INT(cuMemPoolSetAccess(bogus, &d, 1), CUDA_ERROR_INVALID_VALUE);
   CUmemAccess_flags f;
   CHECK_INT(cuMemPoolGetAccess(&f, bogus, &d.location), CUDA_ERROR_INVALID_VALUE);
   CUdeviceptr p = 0;
   CHECK_INT(cuMemAllocFromPoolAsync(&p, 16, bogus, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuDeviceGetMemPool(NULL, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuMemGetMemPool(NULL, &d.location, CU_MEM_ALLOCATION_TYPE_PINNED), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuMemGetDefaultMemPool(NULL, &d.location, CU_MEM_ALLOCATION_TYPE_PINNED), CUDA_ERROR_INVALID_VALUE);

   CHECK(core_init() == CORE_SUCCESS);
   CHECK_INT(cuMemGetDefaultMemPool(&got, NULL, CU_MEM_ALLOCATION_TYPE_PINNED), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuMemGetDefaultMemPool(&got, &d.location, CU_MEM_ALLOCATION_TYPE_INVALID), CUDA_ERROR_INVALID_VALUE);
   CUmemLocation bad = { CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0 };
   CHECK_INT(cuMemGetDefaultMemPool(&got, &bad, CU_MEM_ALLOCATION_TYPE_PINNED), CUDA_ERROR_INVALID_VALUE);
   bad = (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, core_device_count() };   /* invalid value, as an H200's */
   CHECK_INT(cuMemGetDefaultMemPool(&got, &bad, CU_MEM_ALLOCATION_TYPE_PINNED), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuDeviceGetMemPool(&got, core_device_count()), CUDA_ERROR_INVALID_VALUE);
   CUmemoryPool def = NULL;
   CHECK_INT(cuDeviceGetDefaultMemPool(&def, 0), CUDA_SUCCESS);
   CHECK_INT(cuMemGetDefaultMemPool(&got, &d.location, CU_MEM_ALLOCATION_TYPE_PINNED), CUDA_SUCCESS);
   CHECK(got == def);
   CHECK_INT(cuMemPoolDestroy(def), CUDA_ERROR_INVALID_VALUE);   /* a default pool stays */

   props.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
   CHECK_INT(cuMemPoolCreate(&pool, &props), CUDA_ERROR_INVALID_VALUE);
   props = pool_props();
   props.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
   CHECK_INT(cuMemPoolCreate(&pool, &props), CUDA_ERROR_INVALID_VALUE);
   props = pool_props();
   props.location.id = core_device_count();
   CHECK_INT(cuMemPoolCreate(&pool, &props), CUDA_ERROR_INVALID_VALUE);

   /* the pool's device: read-write, which cannot be lowered */
   props = pool_props();
   CHECK(cuMemPoolCreate(&pool, &props) == CUDA_SUCCESS);
   CHECK(pool != def);
   CHECK_INT(cuMemPoolGetAccess(&f, pool, &d.location), CUDA_SUCCESS);
   CHECK_INT(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
   CHECK_INT(cuMemPoolSetAccess(pool, NULL, 1), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuMemPoolSetAccess(pool, &d, 1), CUDA_SUCCESS);
   d.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
   CHECK_INT(cuMemPoolSetAccess(pool, &d, 1), CUDA_ERROR_INVALID_DEVICE);
   d.flags = (CUmemAccess_flags)2;
   CHECK_INT(cuMemPoolSetAccess(pool, &d, 1), CUDA_ERROR_INVALID_VALUE);
   d = (CUmemAccessDesc){ { CU_MEM_LOCATION_TYPE_DEVICE, core_device_count() }, CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
   CHECK_INT(cuMemPoolSetAccess(pool, &d, 1), CUDA_ERROR_INVALID_DEVICE);

   /* the current pool follows cuDeviceSetMemPool, and the default comes
    * back when the current pool is destroyed */
   CHECK_INT(cuDeviceSetMemPool(0, bogus), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuDeviceSetMemPool(core_device_count(), pool), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuDeviceSetMemPool(0, pool), CUDA_SUCCESS);
   CHECK_INT(cuDeviceGetMemPool(&got, 0), CUDA_SUCCESS);
   CHECK(got == pool);
   CUmemLocation dev0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
   CHECK_INT(cuMemGetMemPool(&got, &dev0, CU_MEM_ALLOCATION_TYPE_PINNED), CUDA_SUCCESS);
   CHECK(got == pool);
   CHECK_INT(cuMemPoolDestroy(pool), CUDA_SUCCESS);
   CHECK_INT(cuDeviceGetMemPool(&got, 0), CUDA_SUCCESS);
   CHECK(got == def);
   /* a destroyed pool is no handle any more */
   CHECK_INT(cuMemPoolDestroy(pool), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuDeviceSetMemPool(0, pool), CUDA_ERROR_INVALID_VALUE);
   cuuint64_t v;
   CHECK_INT(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v), CUDA_ERROR_INVALID_VALUE);
}

TEST(memory_pools_metalcuda_cannot_give_are_refused)
{
   CHECK(core_init() == CORE_SUCCESS);
   CUmemoryPool pool = NULL;
   CUmemPoolProps props = pool_props();
   props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
   CHECK_INT(cuMemPoolCreate(&pool, &props), CUDA_ERROR_NOT_SUPPORTED);
   props = pool_props();
   props.location.type = CU_MEM_LOCATION_TYPE_HOST;
   CHECK_INT(cuMemPoolCreate(&pool, &props), CUDA_ERROR_NOT_SUPPORTED);
   props.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
   CHECK_INT(cuMemPoolCreate(&pool, &props), CUDA_ERROR_NOT_SUPPORTED);
   props = pool_props();
   props.allocType = CU_MEM_ALLOCATION_TYPE_MANAGED;
   CHECK_INT(cuMemPoolCreate(&pool, &props), CUDA_ERROR_NOT_SUPPORTED);
   props = pool_props();
   props.usage = 1;
   CHECK_INT(cuMemPoolCreate(&pool, &props), CUDA_ERROR_NOT_SUPPORTED);
   CHECK(pool == NULL);
   CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 }, none = { CU_MEM_LOCATION_TYPE_NONE, 0 };
   CHECK_INT(cuMemGetDefaultMemPool(&pool, &host, CU_MEM_ALLOCATION_TYPE_PINNED), CUDA_ERROR_NOT_SUPPORTED);
   CHECK_INT(cuMemGetMemPool(&pool, &none, CU_MEM_ALLOCATION_TYPE_MANAGED), CUDA_ERROR_NOT_SUPPORTED);
   CHECK_INT(cuMemGetMemPool(&pool, &none, CU_MEM_ALLOCATION_TYPE_PINNED), CUDA_ERROR_INVALID_VALUE);
}

/* A pool destroyed with allocations out lives until the last is freed;
 * frees find the pool an allocation came from (core/mempool.c). */
TEST(a_destroyed_pool_keeps_its_allocations_until_freed)
{
   CHECK(core_init() == CORE_SUCCESS);
   core_device *d = core_device_get(0);
   core_mempool *def = core_mempool_default(d), *p = NULL, *q = NULL;
   CHECK(core_mempool_create(d, 0, &p) == CORE_SUCCESS);
   CHECK(core_mempool_create(d, 4096, &q) == CORE_SUCCESS);
   uint64_t a = 0, b = 0, c = 0, x = 0, used = 1;
   CHECK(core_mempool_alloc(p, 1000, &a) == CORE_SUCCESS);
   CHECK(core_mempool_alloc(p, 3000, &b) == CORE_SUCCESS);
   CHECK(core_mempool_alloc(def, 500, &c) == CORE_SUCCESS);
   /* maxSize: 4096 bytes at most */
   CHECK_INT(core_mempool_alloc(q, 4097, &x), CORE_ERROR_OUT_OF_MEMORY);
   CHECK(core_mempool_alloc(q, 4000, &x) == CORE_SUCCESS);
   CHECK_INT(core_mempool_alloc(q, 100, &x), CORE_ERROR_OUT_OF_MEMORY);
   CHECK(core_mempool_of(d, a) == p);
   CHECK(core_mempool_of(d, b + 2999) == p);
   CHECK(core_mempool_of(d, c) == def);
   CHECK(core_mempool_of(d, x) == q);
   CHECK_INT(core_mempool_get(p, CORE_POOL_USED_MEM_CURRENT, &used), CORE_SUCCESS);
   CHECK_INT(used, 4000);
   CHECK_INT(core_mempool_destroy(q), CORE_SUCCESS);   /* x still out */
   CHECK(!core_check_mempool(q));
   CHECK_INT(core_mempool_destroy(p), CORE_SUCCESS);
   CHECK(!core_check_mempool(p));
   CHECK_INT(core_mempool_destroy(p), CORE_ERROR_INVALID_VALUE);
   CHECK_INT(core_mempool_destroy(def), CORE_ERROR_INVALID_VALUE);
   /* the memory is still there, and still p's */
   CHECK(core_mem_lookup(d, a, 1000, NULL, NULL));
   CHECK_INT(core_mempool_free(d, a + 8), CORE_ERROR_INVALID_VALUE);   /* not an allocation's start */
   CHECK_INT(core_mempool_free(d, a), CORE_SUCCESS);
   CHECK(!core_mem_lookup(d, a, 1, NULL, NULL));
   CHECK_INT(core_mempool_free(d, a), CORE_ERROR_INVALID_VALUE);
   CHECK(core_mempool_of(d, b) != NULL);
   CHECK_INT(core_mempool_free(d, b), CORE_SUCCESS);   /* the last: p goes (ASan sees a leak otherwise) */
   CHECK(core_mempool_of(d, b) == NULL);
   CHECK_INT(core_mempool_free(d, x), CORE_SUCCESS);
   CHECK_INT(core_mempool_free(d, c), CORE_SUCCESS);
   CHECK_INT(core_mempool_get(def, CORE_POOL_USED_MEM_CURRENT, &used), CORE_SUCCESS);
   CHECK_INT(used, 0);
}

/* ---- user objects (driver/userobj.c, src/core/userobj.c) ---- */

static int uo_destroyed;

static void CUDA_CB uo_destroy(void *p)
{
   (void)p;
   __atomic_add_fetch(&uo_destroyed, 1, __ATOMIC_ACQ_REL);
}

/* Destructors run on another thread: waits up to 5 s, then a little more
 * for a wrong second call to show. */
static int uo_count_after_wait(int want)
{
   for (int i = 0; i < 5000 && __atomic_load_n(&uo_destroyed, __ATOMIC_ACQUIRE) < want; i++)
      usleep(1000);
   usleep(20000);
   return __atomic_load_n(&uo_destroyed, __ATOMIC_ACQUIRE);
}

TEST(user_object_argument_errors)
{
   CUuserObject o = NULL;
   int x;
   CHECK_INT(cuUserObjectCreate(NULL, &x, uo_destroy, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuUserObjectCreate(&o, &x, uo_destroy, 1, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuUserObjectCreate(&o, &x, uo_destroy, 1, 3), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuUserObjectCreate(&o, &x, uo_destroy, 0, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuUserObjectCreate(&o, &x, uo_destroy, 0x80000000u, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
             CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuUserObjectCreate(&o, &x, NULL, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC), CUDA_ERROR_INVALID_VALUE);
   CHECK(o == NULL);
   CHECK_INT(cuUserObjectRetain(NULL, 1), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuUserObjectRelease(NULL, 1), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuGraphRetainUserObject(NULL, NULL, 1, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuGraphReleaseUserObject(NULL, NULL, 1), CUDA_ERROR_INVALID_VALUE);
}

TEST(user_object_references_of_graphs_and_copies)
{
   __atomic_store_n(&uo_destroyed, 0, __ATOMIC_RELEASE);
   core_user_object *co;
   core_graph *g, *c;
   CHECK_INT(core_user_object_create(NULL, uo_destroy, 1, &co), CORE_SUCCESS);
   CHECK_INT(core_graph_create(NULL, &g), CORE_SUCCESS);
   CUuserObject o = (CUuserObject)(void *)co;
   CUgraph hg = (CUgraph)(void *)g;
   CHECK_INT(cuUserObjectRetain(o, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuUserObjectRelease(o, 2), CUDA_ERROR_INVALID_VALUE);   /* more than exist */
   CHECK_INT(cuGraphRetainUserObject(hg, o, 2, 0), CUDA_SUCCESS);
   CHECK_INT(cuGraphRetainUserObject(hg, o, 1, 2), CUDA_ERROR_INVALID_VALUE);   /* unknown flag */
   CHECK_INT(cuGraphRetainUserObject(hg, o, 0, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuGraphReleaseUserObject(hg, o, 3), CUDA_ERROR_INVALID_VALUE);     /* holds 2 */
   CHECK_INT(cuGraphReleaseUserObject(hg, o, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuUserObjectRelease(o, 1), CUDA_SUCCESS);   /* the creator's */
   CHECK_INT(core_graph_copy(g, NULL, &c), CORE_SUCCESS);
   CHECK_INT(cuGraphReleaseUserObject(hg, o, 2), CUDA_SUCCESS);
   CHECK_INT(cuGraphReleaseUserObject(hg, o, 1), CUDA_ERROR_INVALID_VALUE);     /* holds none now */
   CHECK_INT(uo_count_after_wait(0), 0);   /* the copy holds 2 */
   core_graph_destroy(g);
   core_graph_destroy(c);
   CHECK_INT(uo_count_after_wait(1), 1);
   /* moved references: the creator's become the graph's */
   CHECK_INT(core_user_object_create(NULL, uo_destroy, 2, &co), CORE_SUCCESS);
   CHECK_INT(core_graph_create(NULL, &g), CORE_SUCCESS);
   o = (CUuserObject)(void *)co;
   hg = (CUgraph)(void *)g;
   CHECK_INT(cuGraphRetainUserObject(hg, o, 2, CU_GRAPH_USER_OBJECT_MOVE), CUDA_SUCCESS);
   CHECK_INT(uo_count_after_wait(1), 1);
   core_graph_destroy(g);
   CHECK_INT(uo_count_after_wait(2), 2);
}

/* ---- stream memory operations: checks before the stream (driver/memop.c) ---- */

TEST(stream_memop_argument_errors)
{
   CHECK_INT(cuStreamWaitValue32(NULL, 0, 1, CU_STREAM_WAIT_VALUE_GEQ), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuStreamWaitValue32_v2(NULL, 0x1002, 1, CU_STREAM_WAIT_VALUE_GEQ), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuStreamWaitValue64_v2(NULL, 0x1004, 1, CU_STREAM_WAIT_VALUE_EQ), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuStreamWaitValue32_v2(NULL, 0x1000, 1, 4), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuStreamWaitValue32_v2(NULL, 0x1000, 1, CU_STREAM_WAIT_VALUE_FLUSH), CUDA_ERROR_NOT_SUPPORTED);
   CHECK_INT(cuStreamWriteValue32_v2(NULL, 0x1001, 1, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuStreamWriteValue64_ptsz(NULL, 0x1004, 1, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuStreamWriteValue32_v2(NULL, 0x1000, 1, 2), CUDA_ERROR_INVALID_VALUE);
   CUstreamBatchMemOpParams ops[2];
   memset(ops, 0, sizeof(ops));
   CHECK_INT(cuStreamBatchMemOp_v2(NULL, 1, NULL, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_INT(cuStreamBatchMemOp_v2(NULL, 256, ops, 0), CUDA_ERROR_INVALID_VALUE);
   ops[0].operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
   ops[0].writeValue.address = 0x1000;
   CHECK_INT(cuStreamBatchMemOp_v2(NULL, 1, ops, 1), CUDA_ERROR_INVALID_VALUE);   /* flags */
   ops[1].operation = (CUstreamBatchMemOpType)99;
   CHECK_INT(cuStreamBatchMemOp(NULL, 2, ops, 0), CUDA_ERROR_INVALID_VALUE);
   ops[1].operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
   CHECK_INT(cuStreamBatchMemOp_v2(NULL, 2, ops, 0), CUDA_ERROR_NOT_SUPPORTED);
   ops[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
   ops[1].memoryBarrier.flags = 2;
   CHECK_INT(cuStreamBatchMemOp_v2(NULL, 2, ops, 0), CUDA_ERROR_INVALID_VALUE);
   ops[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
   ops[1].waitValue.address = 0x1004;   /* misaligned for 8 bytes */
   CHECK_INT(cuStreamBatchMemOp_v2(NULL, 2, ops, 0), CUDA_ERROR_INVALID_VALUE);
}
