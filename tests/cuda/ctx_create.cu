/*
 * ctx_create.cu — contexts made and destroyed by the driver API (cuCtxCreate
 * in its four versions, cuCtxDestroy), called through libcuda.so.1 (dlopen,
 * so the program needs no -lcuda), as an H200 (driver 580) answers:
 *
 *  - a created context becomes current, pushed on the thread's stack; it
 *    reports the flags it was made with (without the CU_CTX_MAP_HOST a
 *    primary context reports) and API version 3020; it is neither the
 *    primary context nor another created one;
 *  - work runs in it: a module loaded from PTX, memory, a launch, a copy;
 *    the runtime's calls use it (they leave it current);
 *  - cuPointerGetAttribute(CONTEXT) names the context memory was
 *    allocated in (the created one, or the primary), not the current one;
 *  - cuCtxDestroy of the current context pops it; the destroyed handle,
 *    NULL, the primary context and a context current to another thread
 *    are refused; memory allocated in a destroyed context is gone;
 *  - errors of cuCtxCreate: no output pointer, an unknown device, unknown
 *    flags, execution-affinity parameters; cuCtxCreate (CUDA 3.1's entry
 *    point) makes no context at all.
 */
#include "drv_check.h"

#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

typedef CUresult (*create_v1_t)(CUcontext *, unsigned, CUdevice);
typedef CUresult (*create_v3_t)(CUcontext *, CUexecAffinityParam *, int, unsigned, CUdevice);
typedef CUresult (*create_v4_t)(CUcontext *, CUctxCreateParams *, unsigned, CUdevice);
typedef CUresult (*destroy_t)(CUcontext);

static void *lib;
#define FN(name, sym) decltype(&name) p_##name = (decltype(&name))dlsym(lib, sym)
static create_v1_t create_v1, create_v2;
static create_v3_t create_v3;
static create_v4_t create_v4;
static destroy_t destroy, destroy_v2;
static decltype(&cuCtxGetCurrent) get_current;
static decltype(&cuCtxSetCurrent) set_current;
static decltype(&cuCtxPopCurrent) pop_current;
static decltype(&cuCtxPushCurrent) push_current;
static decltype(&cuCtxSynchronize) ctx_sync;

static const char ptx[] = ".version 7.0\n"
                          ".target sm_50\n"
                          ".address_size 64\n"
                          ".visible .entry put(.param .u64 p, .param .u32 v)\n"
                          "{\n"
                          "  .reg .b64 %rd<2>;\n"
                          "  .reg .b32 %r<2>;\n"
                          "  ld.param.u64 %rd1, [p];\n"
                          "  ld.param.u32 %r1, [v];\n"
                          "  cvta.to.global.u64 %rd1, %rd1;\n"
                          "  st.global.u32 [%rd1], %r1;\n"
                          "  ret;\n"
                          "}\n";

/* A thread that has context c current while the main thread tries to
 * destroy it: what a call in it then answers. */
struct orphan {
   CUcontext c;
   pthread_mutex_t m;
   pthread_cond_t cv;
   int stage;   /* 1: c is current here; 2: the main thread tried to destroy it */
   CUresult after;
   CUcontext current_after;
};

static void *orphan_thread(void *arg)
{
   orphan *o = (orphan *)arg;
   set_current(o->c);
   pthread_mutex_lock(&o->m);
   o->stage = 1;
   pthread_cond_broadcast(&o->cv);
   while (o->stage != 2)
      pthread_cond_wait(&o->cv, &o->m);
   pthread_mutex_unlock(&o->m);
   o->after = ctx_sync();
   get_current(&o->current_after);
   set_current(NULL);
   return NULL;
}

int main()
{
   check_begin("ctx_create");
   lib = dlopen("libcuda.so.1", RTLD_NOW);
   if (!CHECK(lib != NULL))
      return check_end();
   create_v1 = (create_v1_t)dlsym(lib, "cuCtxCreate");
   create_v2 = (create_v1_t)dlsym(lib, "cuCtxCreate_v2");
   create_v3 = (create_v3_t)dlsym(lib, "cuCtxCreate_v3");
   create_v4 = (create_v4_t)dlsym(lib, "cuCtxCreate_v4");
   destroy = (destroy_t)dlsym(lib, "cuCtxDestroy");
   destroy_v2 = (destroy_t)dlsym(lib, "cuCtxDestroy_v2");
   get_current = (decltype(get_current))dlsym(lib, "cuCtxGetCurrent");
   set_current = (decltype(set_current))dlsym(lib, "cuCtxSetCurrent");
   pop_current = (decltype(pop_current))dlsym(lib, "cuCtxPopCurrent_v2");
   push_current = (decltype(push_current))dlsym(lib, "cuCtxPushCurrent_v2");
   ctx_sync = (decltype(ctx_sync))dlsym(lib, "cuCtxSynchronize");
   FN(cuInit, "cuInit");
   FN(cuDeviceGet, "cuDeviceGet");
   FN(cuCtxGetFlags, "cuCtxGetFlags");
   FN(cuCtxGetApiVersion, "cuCtxGetApiVersion");
   FN(cuCtxGetDevice, "cuCtxGetDevice");
   FN(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
   FN(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
   FN(cuModuleLoadData, "cuModuleLoadData");
   FN(cuModuleGetFunction, "cuModuleGetFunction");
   FN(cuMemAlloc, "cuMemAlloc_v2");
   FN(cuMemFree, "cuMemFree_v2");
   FN(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
   FN(cuLaunchKernel, "cuLaunchKernel");
   FN(cuPointerGetAttribute, "cuPointerGetAttribute");
   if (!CHECK(create_v1 && create_v2 && create_v3 && create_v4 && destroy && destroy_v2 && get_current &&
              set_current && pop_current && push_current && ctx_sync && p_cuInit && p_cuDeviceGet && p_cuCtxGetFlags &&
              p_cuCtxGetApiVersion && p_cuCtxGetDevice && p_cuDevicePrimaryCtxRetain &&
              p_cuDevicePrimaryCtxRelease && p_cuModuleLoadData && p_cuModuleGetFunction && p_cuMemAlloc &&
              p_cuMemFree && p_cuMemcpyDtoH && p_cuLaunchKernel && p_cuPointerGetAttribute))
      return check_end();

   CUcontext x = NULL;
   CHECK_CU(create_v2(&x, 0, 0), CUDA_ERROR_NOT_INITIALIZED);
   CHECK_CU(p_cuInit(0), CUDA_SUCCESS);
   CUdevice dev;
   CHECK_CU(p_cuDeviceGet(&dev, 0), CUDA_SUCCESS);

   /* cuCtxCreate_v2: current, its flags, its API version */
   CUcontext a = NULL, cur = NULL;
   CHECK_CU(create_v2(&a, CU_CTX_SCHED_BLOCKING_SYNC, dev), CUDA_SUCCESS);
   CHECK(a != NULL);
   CHECK_CU(get_current(&cur), CUDA_SUCCESS);
   CHECK(cur == a);
   unsigned flags = 0, version = 0;
   CHECK_CU(p_cuCtxGetFlags(&flags), CUDA_SUCCESS);
   CHECK_INT(flags, CU_CTX_SCHED_BLOCKING_SYNC);
   CHECK_CU(p_cuCtxGetApiVersion(a, &version), CUDA_SUCCESS);
   CHECK_INT(version, 3020);
   CUdevice d2 = -1;
   CHECK_CU(p_cuCtxGetDevice(&d2), CUDA_SUCCESS);
   CHECK_INT(d2, dev);

   /* cuCtxCreate_v4 over it: pushed; popping it uncovers a */
   CUcontext b = NULL;
   CHECK_CU(create_v4(&b, NULL, 0, dev), CUDA_SUCCESS);
   CHECK(b != NULL && b != a);
   CHECK_CU(get_current(&cur), CUDA_SUCCESS);
   CHECK(cur == b);
   CHECK_CU(p_cuCtxGetApiVersion(b, &version), CUDA_SUCCESS);
   CHECK_INT(version, 3020);
   CHECK_CU(p_cuCtxGetFlags(&flags), CUDA_SUCCESS);
   CHECK_INT(flags, 0);
   CUcontext popped = NULL;
   CHECK_CU(pop_current(&popped), CUDA_SUCCESS);
   CHECK(popped == b);
   CHECK_CU(get_current(&cur), CUDA_SUCCESS);
   CHECK(cur == a);
   CHECK_CU(push_current(b), CUDA_SUCCESS);

   /* the primary context is another one */
   CUcontext p = NULL;
   CHECK_CU(p_cuDevicePrimaryCtxRetain(&p, dev), CUDA_SUCCESS);
   CHECK(p != NULL && p != a && p != b);

   /* cuCtxCreate (CUDA 3.1's, 32-bit pointers) makes none; _v3 without
    * affinity and v4 with empty parameters do */
   CUcontext c1 = NULL, c3 = NULL, c4 = NULL;
   CHECK_CU(create_v1(&c1, 0, dev), CUDA_ERROR_OUT_OF_MEMORY);
   CHECK(c1 == NULL);
   CHECK_CU(create_v3(&c3, NULL, 0, 0, dev), CUDA_SUCCESS);
   CUctxCreateParams cp;
   memset(&cp, 0, sizeof(cp));
   CHECK_CU(create_v4(&c4, &cp, CU_CTX_SCHED_SPIN, dev), CUDA_SUCCESS);
   CHECK(c3 && c4 && c3 != c4);
   CHECK_CU(destroy_v2(c4), CUDA_SUCCESS);
   CHECK_CU(destroy_v2(c3), CUDA_SUCCESS);
   CHECK_CU(get_current(&cur), CUDA_SUCCESS);
   CHECK(cur == b);

   /* errors */
   CHECK_CU(create_v2(NULL, 0, dev), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(create_v2(&x, 0, 99), CUDA_ERROR_INVALID_DEVICE);
   CHECK_CU(create_v2(&x, 0x1000, dev), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(create_v2(&x, 3, dev), CUDA_ERROR_INVALID_VALUE);
   CUexecAffinityParam ap;
   memset(&ap, 0, sizeof(ap));
   ap.type = CU_EXEC_AFFINITY_TYPE_SM_COUNT;
   ap.param.smCount.val = 4;
   CHECK_CU(create_v3(&x, &ap, 1, 0, dev), CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY);
   cp.execAffinityParams = &ap;
   cp.numExecAffinityParams = 1;
   CHECK_CU(create_v4(&x, &cp, 0, dev), CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY);
   CHECK_CU(get_current(&cur), CUDA_SUCCESS);
   CHECK(cur == b);

   /* work in b */
   CUmodule mod = NULL;
   CUfunction fn = NULL;
   CUdeviceptr mem = 0;
   unsigned got = 0, val = 42;
   CHECK_CU(p_cuModuleLoadData(&mod, ptx), CUDA_SUCCESS);
   CHECK_CU(p_cuModuleGetFunction(&fn, mod, "put"), CUDA_SUCCESS);
   CHECK_CU(p_cuMemAlloc(&mem, 4), CUDA_SUCCESS);
   void *args[] = { &mem, &val };
   CHECK_CU(p_cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
   CHECK_CU(ctx_sync(), CUDA_SUCCESS);
   CHECK_CU(p_cuMemcpyDtoH(&got, mem, 4), CUDA_SUCCESS);
   CHECK_INT(got, 42);
   /* the runtime uses the context the program made current */
   void *rp = NULL;
   CHECK_CUDA(cudaMalloc(&rp, 64));
   CHECK_CU(get_current(&cur), CUDA_SUCCESS);
   CHECK(cur == b);
   CHECK_CUDA(cudaMemset(rp, 7, 64));
   CHECK_CUDA(cudaMemcpy(&got, rp, 4, cudaMemcpyDeviceToHost));
   CHECK_INT(got, 0x07070707);
   CHECK_CUDA(cudaFree(rp));
   CHECK_CU(get_current(&cur), CUDA_SUCCESS);
   CHECK(cur == b);

   /* memory belongs to the context it was allocated in, whichever is
    * current when asked */
   CUcontext owner = NULL;
   CHECK_CU(p_cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, mem), CUDA_SUCCESS);
   CHECK(owner == b);
   CUdeviceptr pmem = 0;
   CHECK_CU(push_current(p), CUDA_SUCCESS);
   CHECK_CU(p_cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, mem), CUDA_SUCCESS);
   CHECK(owner == b);
   CHECK_CU(p_cuMemAlloc(&pmem, 4), CUDA_SUCCESS);
   CHECK_CU(p_cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, pmem), CUDA_SUCCESS);
   CHECK(owner == p);
   CHECK_CU(pop_current(&popped), CUDA_SUCCESS);
   CHECK(popped == p);
   CHECK_CU(p_cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, pmem), CUDA_SUCCESS);
   CHECK(owner == p);
   CHECK_CU(p_cuMemFree(pmem), CUDA_SUCCESS);

   /* destroying the current context pops it; the handle is then stale */
   CHECK_CU(destroy(b), CUDA_SUCCESS);
   CHECK_CU(get_current(&cur), CUDA_SUCCESS);
   CHECK(cur == a);
   CUresult again = destroy(b);   /* an H200 answered either, from run to run */
   CHECK(again == CUDA_ERROR_INVALID_CONTEXT || again == CUDA_ERROR_CONTEXT_IS_DESTROYED);
   CHECK_CU(p_cuCtxGetApiVersion(b, &version), CUDA_ERROR_INVALID_CONTEXT);
   CHECK_CU(p_cuMemFree(mem), CUDA_ERROR_INVALID_VALUE);   /* b's memory went with it */
   CHECK_CU(destroy(NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(destroy(p), CUDA_ERROR_INVALID_CONTEXT);

   /* a context destroyed while another thread has it current */
   orphan o;
   memset(&o, 0, sizeof(o));
   pthread_mutex_init(&o.m, NULL);
   pthread_cond_init(&o.cv, NULL);
   CHECK_CU(create_v2(&o.c, 0, dev), CUDA_SUCCESS);
   CHECK_CU(pop_current(&popped), CUDA_SUCCESS);
   pthread_t th;
   pthread_create(&th, NULL, orphan_thread, &o);
   pthread_mutex_lock(&o.m);
   while (o.stage != 1)
      pthread_cond_wait(&o.cv, &o.m);
   pthread_mutex_unlock(&o.m);
   CHECK_CU(destroy(o.c), CUDA_ERROR_INVALID_CONTEXT);   /* current to the other thread */
   pthread_mutex_lock(&o.m);
   o.stage = 2;
   pthread_cond_broadcast(&o.cv);
   pthread_mutex_unlock(&o.m);
   pthread_join(th, NULL);
   CHECK_INT(o.after, CUDA_SUCCESS);
   CHECK(o.current_after == o.c);
   CHECK_CU(destroy(o.c), CUDA_SUCCESS);   /* the thread let it go */

   CHECK_CU(destroy(a), CUDA_SUCCESS);
   CHECK_CU(get_current(&cur), CUDA_SUCCESS);
   CHECK(cur == NULL);
   CHECK_CU(p_cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);
   return check_end();
}
