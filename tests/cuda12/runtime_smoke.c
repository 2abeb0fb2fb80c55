/*
 * runtime_smoke.c — a C program on NVIDIA's CUDA runtime API without nvcc's host
 * code: it registers a fatbin itself (__cudaRegisterFatBinary, as nvcc's
 * generated code does) and launches with cudaLaunchKernel, so the same
 * source links against any runtime version (CUDA 12's static or shared
 * libcudart too, with a kernel built by CUDA 13's nvcc).  Prints PASS/FAIL.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct { unsigned x, y, z; } dim3_;
typedef int cudaError_t;
cudaError_t cudaGetDeviceCount(int *);
cudaError_t cudaSetDevice(int);
cudaError_t cudaMalloc(void **, size_t);
cudaError_t cudaFree(void *);
cudaError_t cudaMemcpy(void *, const void *, size_t, int);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDriverGetVersion(int *);
cudaError_t cudaRuntimeGetVersion(int *);
cudaError_t cudaLaunchKernel(const void *, dim3_, dim3_, void **, size_t, void *);
cudaError_t cudaStreamCreate(void **);
cudaError_t cudaStreamSynchronize(void *);
cudaError_t cudaStreamDestroy(void *);
cudaError_t cudaEventCreate(void **);
cudaError_t cudaEventRecord(void *, void *);
cudaError_t cudaEventSynchronize(void *);
cudaError_t cudaEventElapsedTime(float *, void *, void *);
cudaError_t cudaEventDestroy(void *);
cudaError_t cudaMallocHost(void **, size_t);
cudaError_t cudaFreeHost(void *);
cudaError_t cudaGetLastError(void);
const char *cudaGetErrorName(cudaError_t);
void **__cudaRegisterFatBinary(void *);
void __cudaRegisterFatBinaryEnd(void **);
void __cudaUnregisterFatBinary(void **);
void __cudaRegisterFunction(void **, const char *, char *, const char *, int, void *, void *, void *, void *, int *);

/* The kernel's fatbin (kernel.cu built by nvcc -fatbin), read from the
 * file argv[1] names into 8-byte-aligned memory that lives as long as the
 * program, as nvcc's embedded fatbins do. */
static unsigned long long fatbin[1 << 14];
static struct { int magic, version; const void *data; void *unused; } wrapper = {0x466243b1, 1, fatbin, NULL};
static char add_one_stub;   /* the "host function" the kernel is registered under */

static int fails;
#define CK(call)                                                                          \
   do {                                                                                   \
      cudaError_t e_ = (call);                                                            \
      if (e_) {                                                                           \
         printf("  %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, e_, cudaGetErrorName(e_)); \
         fails++;                                                                         \
      }                                                                                   \
   } while (0)

int main(int argc, char **argv)
{
   FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
   size_t got = f ? fread(fatbin, 1, sizeof(fatbin), f) : 0;
   if (f)
      fclose(f);
   if (got < 16 || got == sizeof(fatbin)) {
      printf("FAIL runtime_smoke: usage: %s KERNEL.fatbin (a fatbin under %zu bytes)\n", argv[0], sizeof(fatbin));
      return 1;
   }
   void **h = __cudaRegisterFatBinary(&wrapper);
   __cudaRegisterFunction(h, &add_one_stub, "add_one", "add_one", -1, NULL, NULL, NULL, NULL, NULL);
   __cudaRegisterFatBinaryEnd(h);
   int n = 0, dv = 0, rv = 0;
   CK(cudaGetDeviceCount(&n));
   CK(cudaDriverGetVersion(&dv));
   CK(cudaRuntimeGetVersion(&rv));
   printf("devices %d driver %d runtime %d\n", n, dv, rv);
   CK(cudaSetDevice(0));
   enum { N = 1000 };
   int host[N], *d = NULL, *pinned = NULL;
   for (int i = 0; i < N; i++)
      host[i] = 3 * i;
   CK(cudaMalloc((void **)&d, sizeof host));
   CK(cudaMallocHost((void **)&pinned, sizeof host));
   CK(cudaMemcpy(d, host, sizeof host, 1));
   void *s = NULL, *e0 = NULL, *e1 = NULL;
   CK(cudaStreamCreate(&s));
   CK(cudaEventCreate(&e0));
   CK(cudaEventCreate(&e1));
   int count = N;
   void *args[] = {&d, &count};
   dim3_ grid = {(N + 127) / 128, 1, 1}, block = {128, 1, 1};
   CK(cudaEventRecord(e0, s));
   CK(cudaLaunchKernel(&add_one_stub, grid, block, args, 0, s));
   CK(cudaLaunchKernel(&add_one_stub, grid, block, args, 0, s));
   CK(cudaEventRecord(e1, s));
   CK(cudaEventSynchronize(e1));
   float ms = -1;
   CK(cudaEventElapsedTime(&ms, e0, e1));
   CK(cudaStreamSynchronize(s));
   CK(cudaMemcpy(pinned, d, sizeof host, 2));
   int bad = pinned ? 0 : 1;
   for (int i = 0; pinned && i < N; i++)
      if (pinned[i] != 3 * i + 2 * (i + 1)) {
         if (!bad)
            printf("  element %d: got %d, expected %d\n", i, pinned[i], 3 * i + 2 * (i + 1));
         bad++;
      }
   fails += bad != 0;
   CK(cudaEventDestroy(e0));
   CK(cudaEventDestroy(e1));
   CK(cudaStreamDestroy(s));
   CK(cudaFreeHost(pinned));
   CK(cudaFree(d));
   CK(cudaDeviceSynchronize());
   CK(cudaDeviceReset());
   /* after a reset: the runtime makes a new primary context on first use */
   CK(cudaMalloc((void **)&d, 64));
   CK(cudaFree(d));
   CK(cudaGetLastError());
   __cudaUnregisterFatBinary(h);
   if (fails)
      printf("FAIL runtime_smoke: %d failures\n", fails);
   else
      printf("PASS runtime_smoke (elapsed %.3f ms)\n", ms);
   return fails != 0;
}
