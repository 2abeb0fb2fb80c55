/*
 * library_mgmt.cu — the runtime's library management (CUDA 12's
 * context-independent loading):
 *
 *  - cudaLibraryLoadData of a PTX text (library_ptx.h, .target sm_75) and
 *    of the same PTX in a fatbin; cudaLibraryGetKernelCount and
 *    cudaLibraryEnumerateKernels (the count, the handles those of
 *    cudaLibraryGetKernel, the same order twice); cudaLibraryGetGlobal
 *    (the initial value, a new value the kernel then reads) and
 *    cudaLibraryGetManaged (read by the host after the kernel counted);
 *  - launches of the library's kernels through cudaLaunchKernel with the
 *    cudaKernel_t cast, against a host computation (one from a thread of
 *    its own);
 *  - cudaKernelSetAttributeForDevice(cudaFuncAttributeMaxDynamicSharedMemorySize)
 *    on a library kernel and on the cudaGetKernel handle of an ordinary
 *    __global__ function: a launch with 64 KiB of dynamic shared memory
 *    fails before (cudaErrorInvalidValue) and runs after; the stub's own
 *    launch (<<<>>>) then runs too;
 *  - cudaLibraryLoadFromFile of the PTX written to /tmp;
 *  - errors: a NULL image or count (cudaErrorInvalidValue), a missing file
 *    (cudaErrorFileNotFound), cudaLibraryBinaryIsPreserved with a file
 *    (cudaErrorInvalidValue, as documented), unknown kernel and variable
 *    names (cudaErrorSymbolNotFound), cudaLibraryGetUnifiedFunction of a
 *    library without unified functions (cudaErrorInvalidValue, an H200's
 *    answer), a device out of range
 *    (cudaErrorInvalidDevice), cudaGetKernel of a host function that is
 *    no kernel (cudaErrorInvalidDeviceFunction).
 */
#include "check.h"
#include "library_ptx.h"

#include <pthread.h>
#include <unistd.h>

#define N 1000
#define BLOCK 256
#define BIG_SHARED (64 * 1024)
#define TOP (BIG_SHARED / 4 - 1)

/* The same reversal as the library's smem_rev, in CUDA C. */
__global__ void rev_dyn(int *out, const int *in, int top)
{
   extern __shared__ int s[];
   int t = threadIdx.x, gid = blockIdx.x * blockDim.x + t;
   s[top - t] = in[gid];
   __syncthreads();
   out[gid] = s[top - ((int)blockDim.x - 1 - t)];
}

static void not_a_kernel(void) {}

static int in_h[N], out_h[N], want[N];

static void fill_input(void)
{
   uint32_t x = 12345;
   for (int i = 0; i < N; i++) {
      x = x * 1103515245u + 12345u;
      in_h[i] = (int)(x >> 8) - (1 << 22);
   }
}

/* Count and enumeration against cudaLibraryGetKernel's handles. */
static void check_enumeration(cudaLibrary_t lib, cudaKernel_t scale, cudaKernel_t rev)
{
   unsigned count = 0;
   CHECK_CUDA(cudaLibraryGetKernelCount(&count, lib));
   CHECK_INT(count, LIB_KERNELS);
   cudaKernel_t ks[LIB_KERNELS] = {}, again[LIB_KERNELS] = {};
   CHECK_CUDA(cudaLibraryEnumerateKernels(ks, LIB_KERNELS, lib));
   CHECK_CUDA(cudaLibraryEnumerateKernels(again, LIB_KERNELS, lib));
   CHECK(ks[0] && ks[1] && ks[0] != ks[1]);
   CHECK((ks[0] == scale && ks[1] == rev) || (ks[0] == rev && ks[1] == scale));
   CHECK(ks[0] == again[0] && ks[1] == again[1]);
}

/* scale_add through its cudaKernel_t: out = in * a + bias. */
static void run_scale_add(cudaKernel_t k, int *out_d, const int *in_d, int a, int bias)
{
   int n = N;
   void *args[] = { &out_d, &in_d, &a, &n };
   CHECK_CUDA(cudaMemset(out_d, 0, N * sizeof(int)));
   CHECK_CUDA(cudaLaunchKernel((const void *)k, dim3((N + BLOCK - 1) / BLOCK), dim3(BLOCK), args, 0, 0));
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(out_h, out_d, sizeof(out_h), cudaMemcpyDeviceToHost));
   lib_scale_add_ref(want, in_h, a, bias, N);
   CHECK_ARRAY_I32("scale_add", out_h, want, N);
}

/* A launch of a reversal kernel with 64 KiB of dynamic shared memory: n
 * must be a multiple of BLOCK. */
static cudaError_t launch_rev(const void *k, int *out_d, const int *in_d, int n)
{
   int top = TOP;
   void *args[] = { &out_d, &in_d, &top };
   return cudaLaunchKernel(k, dim3(n / BLOCK), dim3(BLOCK), args, BIG_SHARED, 0);
}

static void check_rev(int *out_d, int n, const char *what)
{
   CHECK_CUDA(cudaMemcpy(out_h, out_d, n * sizeof(int), cudaMemcpyDeviceToHost));
   lib_smem_rev_ref(want, in_h, BLOCK, n);
   CHECK_ARRAY_I32(what, out_h, want, n);
}

/* A reversal kernel with big dynamic shared memory: refused until its
 * maximum is raised for the device, then run through its handle. */
static void check_big_shared(cudaKernel_t k, int dev, int *out_d, const int *in_d, int n, const char *what)
{
   CHECK_ERR(launch_rev((const void *)k, out_d, in_d, n), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   CHECK_CUDA(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize, BIG_SHARED, dev));
   CHECK_CUDA(cudaMemset(out_d, 0, n * sizeof(int)));
   CHECK_CUDA(launch_rev((const void *)k, out_d, in_d, n));
   CHECK_CUDA(cudaDeviceSynchronize());
   check_rev(out_d, n, what);
}

/* cudaGetKernel's handle of rev_dyn: launched by cudaLaunchKernel, its
 * attribute set through it, which the stub's launch then has too. */
static void check_get_kernel(int dev, int *out_d, const int *in_d)
{
   const int n = 2 * BLOCK;
   cudaKernel_t k = NULL;
   CHECK_CUDA(cudaGetKernel(&k, rev_dyn));
   if (!CHECK(k != NULL))
      return;
   check_big_shared(k, dev, out_d, in_d, n, "rev_dyn through cudaGetKernel");
   CHECK_CUDA(cudaMemset(out_d, 0, n * sizeof(int)));
   rev_dyn<<<n / BLOCK, BLOCK, BIG_SHARED>>>(out_d, in_d, TOP);
   CHECK_CUDA(cudaGetLastError());
   CHECK_CUDA(cudaDeviceSynchronize());
   check_rev(out_d, n, "rev_dyn by its stub");
   int count = 0;
   CHECK_CUDA(cudaGetDeviceCount(&count));
   CHECK_ERR(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize, BIG_SHARED, count),
             cudaErrorInvalidDevice);
   cudaKernel_t none = NULL;
   CHECK_ERR(cudaGetKernel(&none, (const void *)not_a_kernel), cudaErrorInvalidDeviceFunction);
   cudaGetLastError();
}

/* A launch of a library kernel from a thread that has made no runtime
 * call before: the launch itself makes the device's context current. */
struct thread_launch {
   cudaKernel_t k;
   int *out_d;
   const int *in_d;
   int a, n;
   cudaError_t launch, sync;
};

static void *launch_on_thread(void *p)
{
   thread_launch *t = (thread_launch *)p;
   void *args[] = { &t->out_d, &t->in_d, &t->a, &t->n };
   t->launch = cudaLaunchKernel((const void *)t->k, dim3((N + BLOCK - 1) / BLOCK), dim3(BLOCK), args, 0, 0);
   t->sync = cudaDeviceSynchronize();
   return NULL;
}

static void check_other_thread(cudaKernel_t scale, int *out_d, const int *in_d, int bias)
{
   CHECK_CUDA(cudaMemset(out_d, 0, N * sizeof(int)));
   CHECK_CUDA(cudaDeviceSynchronize());
   thread_launch t = { scale, out_d, in_d, 13, N, cudaErrorUnknown, cudaErrorUnknown };
   pthread_t th;
   if (!CHECK(pthread_create(&th, NULL, launch_on_thread, &t) == 0))
      return;
   pthread_join(th, NULL);
   CHECK_ERR(t.launch, cudaSuccess);
   CHECK_ERR(t.sync, cudaSuccess);
   CHECK_CUDA(cudaMemcpy(out_h, out_d, sizeof(out_h), cudaMemcpyDeviceToHost));
   lib_scale_add_ref(want, in_h, 13, bias, N);
   CHECK_ARRAY_I32("scale_add on another thread", out_h, want, N);
}

/* The library's variables: bias (read, then rewritten for the next
 * launch), table's size, mcount (managed, counted by scale_add). */
static void check_globals(cudaLibrary_t lib, cudaKernel_t scale, int *out_d, const int *in_d)
{
   void *bias_d = NULL, *table_d = NULL;
   size_t bytes = 0;
   CHECK_CUDA(cudaLibraryGetGlobal(&bias_d, &bytes, lib, "bias"));
   CHECK_INT(bytes, 4);
   int bias = 0;
   CHECK_CUDA(cudaMemcpy(&bias, bias_d, 4, cudaMemcpyDeviceToHost));
   CHECK_INT(bias, LIB_BIAS0);
   CHECK_CUDA(cudaLibraryGetGlobal(&table_d, &bytes, lib, "table"));
   CHECK_INT(bytes, 16);
   int table[4] = {};
   CHECK_CUDA(cudaMemcpy(table, table_d, sizeof(table), cudaMemcpyDeviceToHost));
   CHECK(table[0] == 1 && table[1] == 2 && table[2] == 3 && table[3] == 4);

   unsigned *mcount = NULL;
   CHECK_CUDA(cudaLibraryGetManaged((void **)&mcount, &bytes, lib, "mcount"));
   CHECK_INT(bytes, 4);
   if (!CHECK(mcount != NULL))
      return;
   CHECK_INT(*mcount, LIB_MCOUNT0);

   run_scale_add(scale, out_d, in_d, 3, LIB_BIAS0);
   bias = -1234567;
   CHECK_CUDA(cudaMemcpy(bias_d, &bias, 4, cudaMemcpyHostToDevice));
   run_scale_add(scale, out_d, in_d, -5, bias);
   CHECK_INT(*mcount, LIB_MCOUNT0 + 2 * N);
   check_other_thread(scale, out_d, in_d, bias);
}

static void check_errors(cudaLibrary_t lib)
{
   cudaLibrary_t other = NULL;
   CHECK_ERR(cudaLibraryLoadData(&other, NULL, NULL, NULL, 0, NULL, NULL, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaLibraryLoadFromFile(&other, "/nonexistent/library_mgmt.ptx", NULL, NULL, 0, NULL, NULL, 0),
             cudaErrorFileNotFound);
   CHECK_ERR(cudaLibraryGetKernelCount(NULL, lib), cudaErrorInvalidValue);
   cudaKernel_t k = NULL;
   CHECK_ERR(cudaLibraryGetKernel(&k, lib, "no_such_kernel"), cudaErrorSymbolNotFound);
   void *p = NULL;
   size_t bytes = 0;
   CHECK_ERR(cudaLibraryGetGlobal(&p, &bytes, lib, "no_such_variable"), cudaErrorSymbolNotFound);
   void *fp = NULL;
   CHECK_ERR(cudaLibraryGetUnifiedFunction(&fp, lib, "scale_add"), cudaErrorInvalidValue);
   cudaGetLastError();
}

/* The PTX written to a file, loaded from it, run; a file with
 * cudaLibraryBinaryIsPreserved is refused. */
static void check_from_file(int *out_d, const int *in_d)
{
   char path[64];
   snprintf(path, sizeof(path), "/tmp/library_mgmt.%d.ptx", (int)getpid());
   FILE *f = fopen(path, "w");
   if (!CHECK(f != NULL))
      return;
   CHECK(fwrite(library_ptx, 1, strlen(library_ptx), f) == strlen(library_ptx));
   fclose(f);
   cudaLibrary_t lib = NULL;
   enum cudaLibraryOption opt = cudaLibraryBinaryIsPreserved;
   void *val = (void *)(uintptr_t)1;
   CHECK_ERR(cudaLibraryLoadFromFile(&lib, path, NULL, NULL, 0, &opt, &val, 1), cudaErrorInvalidValue);
   cudaGetLastError();
   CHECK_CUDA(cudaLibraryLoadFromFile(&lib, path, NULL, NULL, 0, NULL, NULL, 0));
   remove(path);
   if (!lib)
      return;
   cudaKernel_t scale = NULL;
   CHECK_CUDA(cudaLibraryGetKernel(&scale, lib, "scale_add"));
   if (scale)
      run_scale_add(scale, out_d, in_d, 11, LIB_BIAS0);   /* a fresh library: bias back at 7 */
   CHECK_CUDA(cudaLibraryUnload(lib));
}

/* The same PTX in a fatbin, with a JIT option whose output is written. */
static void check_fatbin(int *out_d, const int *in_d)
{
   size_t len = 0;
   unsigned char *fb = lib_fatbin(&len);
   if (!CHECK(fb != NULL))
      return;
   cudaLibrary_t lib = NULL;
   enum cudaJitOption jopt[] = { cudaJitInfoLogBuffer, cudaJitInfoLogBufferSizeBytes };
   char log[256];
   void *jval[] = { log, (void *)(uintptr_t)sizeof(log) };
   CHECK_CUDA(cudaLibraryLoadData(&lib, fb, jopt, jval, 2, NULL, NULL, 0));
   free(fb);
   if (!lib)
      return;
   cudaKernel_t scale = NULL;
   CHECK_CUDA(cudaLibraryGetKernel(&scale, lib, "scale_add"));
   if (scale)
      run_scale_add(scale, out_d, in_d, 2, LIB_BIAS0);
   CHECK_CUDA(cudaLibraryUnload(lib));
}

int main()
{
   check_begin("library_mgmt");
   int dev = 0;
   REQUIRE_CUDA(cudaGetDevice(&dev));
   fill_input();
   int *in_d = NULL, *out_d = NULL;
   REQUIRE_CUDA(cudaMalloc(&in_d, sizeof(in_h)));
   REQUIRE_CUDA(cudaMalloc(&out_d, sizeof(out_h)));
   REQUIRE_CUDA(cudaMemcpy(in_d, in_h, sizeof(in_h), cudaMemcpyHostToDevice));

   cudaLibrary_t lib = NULL;
   REQUIRE_CUDA(cudaLibraryLoadData(&lib, library_ptx, NULL, NULL, 0, NULL, NULL, 0));
   cudaKernel_t scale = NULL, rev = NULL;
   CHECK_CUDA(cudaLibraryGetKernel(&scale, lib, "scale_add"));
   CHECK_CUDA(cudaLibraryGetKernel(&rev, lib, "smem_rev"));
   if (!CHECK(scale && rev))
      return check_end();
   check_enumeration(lib, scale, rev);
   check_globals(lib, scale, out_d, in_d);
   check_big_shared(rev, dev, out_d, in_d, 3 * BLOCK, "smem_rev");
   check_errors(lib);
   CHECK_CUDA(cudaLibraryUnload(lib));

   check_get_kernel(dev, out_d, in_d);
   check_from_file(out_d, in_d);
   check_fatbin(out_d, in_d);
   CHECK_CUDA(cudaFree(in_d));
   CHECK_CUDA(cudaFree(out_d));
   return check_end();
}
