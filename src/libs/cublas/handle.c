/*
 * handle.c — cuBLAS handles and the library's helpers: create/destroy,
 * stream, pointer, atomics and math modes, workspace, versions, status
 * names, the logger, Set/Get Vector/Matrix; and what the other files share
 * (kernel launches on the handle's stream, scalars, results to the host).
 *
 * A handle belongs to the context current when it was created (NVIDIA's
 * rule); with none current it retains device 0's primary context and makes
 * it current, as the runtime would on its first call.
 */
#include "cb.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(cublas);

extern const char cb_kernels_ptx[];

/* What cublasGetProperty and cublasGetVersion answer: the CUDA 13 cuBLAS
 * whose ABI this library implements (cublas_api.h). */
#define CB_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

bool cb_handle_ok(cublasHandle_t h)
{
   return h && h->magic == CB_MAGIC;
}

cublasStatus_t cb_status_of(CUresult r)
{
   switch (r) {
   case CUDA_SUCCESS: return CUBLAS_STATUS_SUCCESS;
   case CUDA_ERROR_OUT_OF_MEMORY: return CUBLAS_STATUS_ALLOC_FAILED;
   case CUDA_ERROR_INVALID_VALUE: return CUBLAS_STATUS_INVALID_VALUE;
   case CUDA_ERROR_NOT_SUPPORTED: return CUBLAS_STATUS_NOT_SUPPORTED;
   default: return CUBLAS_STATUS_EXECUTION_FAILED;
   }
}

cublasStatus_t cb_enter_ctx(cublasHandle_t h)
{
   CUcontext cur = NULL;
   if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS)
      return CUBLAS_STATUS_NOT_INITIALIZED;
   if (cur != h->ctx && cuCtxSetCurrent(h->ctx) != CUDA_SUCCESS)
      return CUBLAS_STATUS_NOT_INITIALIZED;
   return CUBLAS_STATUS_SUCCESS;
}

static CUfunction cb_function(cublasHandle_t h, const char *name)
{
   for (int i = 0; i < h->nfn; i++)
      if (!strcmp(h->fn_name[i], name))
         return h->fn[i];
   CUfunction f = NULL;
   CUresult r = cuModuleGetFunction(&f, h->mod, name);
   if (r != CUDA_SUCCESS) {
      LOG_ERR("kernel %s of libcublas's module: CUresult %d", name, (int)r);
      return NULL;
   }
   if (h->nfn < CB_MAX_FN && strlen(name) < sizeof(h->fn_name[0])) {
      strcpy(h->fn_name[h->nfn], name);
      h->fn[h->nfn++] = f;
   }
   return f;
}

cublasStatus_t cb_launch(cublasHandle_t h, const char *name, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                         unsigned by, void *args, size_t size)
{
   (void)size;
   cublasStatus_t s = cb_enter_ctx(h);
   if (s != CUBLAS_STATUS_SUCCESS)
      return s;
   CUfunction f = cb_function(h, name);
   if (!f)
      return CUBLAS_STATUS_EXECUTION_FAILED;
   void *params[] = { args };
   CUresult r = cuLaunchKernel(f, gx, gy, gz, bx, by, 1, 0, h->stream, params, NULL);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("launch of %s (%u,%u,%u)x(%u,%u): CUresult %d", name, gx, gy, gz, bx, by, (int)r);
      return CUBLAS_STATUS_EXECUTION_FAILED;
   }
   return CUBLAS_STATUS_SUCCESS;
}

cb_scalar cb_scalar_of(cublasHandle_t h, const void *p, char kind)
{
   cb_scalar s = { 0 };
   if (h->pmode == CUBLAS_POINTER_MODE_DEVICE) {
      s.p = p;
      return s;
   }
   switch (kind) {
   case 's': s.f = *(const float *)p; s.d = s.f; break;
   case 'i': s.d = *(const int32_t *)p; s.f = (float)s.d; break;
   case 'd': s.d = *(const double *)p; s.f = (float)s.d; break;
   case 'c': s.f = ((const float *)p)[0]; s.fi = ((const float *)p)[1]; s.d = s.f; s.di = s.fi; break;
   case 'z': s.d = ((const double *)p)[0]; s.di = ((const double *)p)[1]; s.f = (float)s.d; s.fi = (float)s.di; break;
   case 'h': {   /* IEEE binary16 to float, exactly */
      uint16_t b = *(const uint16_t *)p;
      uint32_t sign = (uint32_t)(b >> 15) << 31, e = (b >> 10) & 31, m = b & 1023, bits;
      if (e == 31)
         bits = sign | 0x7f800000u | m << 13;
      else if (e)
         bits = sign | (e + 112) << 23 | m << 13;
      else if (!m)
         bits = sign;
      else {   /* subnormal: normalise */
         e = 113;
         while (!(m & 1024)) {
            m <<= 1;
            e--;
         }
         bits = sign | e << 23 | (m & 1023) << 13;
      }
      memcpy(&s.f, &bits, 4);
      s.d = s.f;
      break;
   }
   case 'b': {   /* bfloat16: a float's upper half */
      uint32_t bits = (uint32_t)*(const uint16_t *)p << 16;
      memcpy(&s.f, &bits, 4);
      s.d = s.f;
      break;
   }
   }
   return s;
}

cublasStatus_t cb_result_to_host(cublasHandle_t h, void *host, CUdeviceptr dev, size_t size)
{
   CUresult r = cuMemcpyDtoHAsync(host, dev, size, h->stream);
   if (r == CUDA_SUCCESS)
      r = cuStreamSynchronize(h->stream);
   return r == CUDA_SUCCESS ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

/* ==== cublasCreate_v2 (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
   CB_ENTER("handle=%p", (void *)handle);
   CB_CHECK(handle, CUBLAS_STATUS_INVALID_VALUE);
   *handle = NULL;
   if (cuInit(0) != CUDA_SUCCESS)
      return CUBLAS_STATUS_NOT_INITIALIZED;
   cublasHandle_t h = calloc(1, sizeof(*h));
   if (!h)
      return CUBLAS_STATUS_ALLOC_FAILED;
   CUresult r = cuCtxGetCurrent(&h->ctx);
   if (r == CUDA_SUCCESS && !h->ctx) {
      r = cuDeviceGet(&h->dev, 0);
      if (r == CUDA_SUCCESS)
         r = cuDevicePrimaryCtxRetain(&h->ctx, h->dev);
      if (r == CUDA_SUCCESS) {
         h->retained = true;
         r = cuCtxSetCurrent(h->ctx);
      }
   } else if (r == CUDA_SUCCESS) {
      r = cuCtxGetDevice(&h->dev);
   }
   if (r == CUDA_SUCCESS)
      r = cuModuleLoadData(&h->mod, cb_kernels_ptx);
   if (r == CUDA_SUCCESS)
      r = cuMemAlloc(&h->scratch, CB_RED_BLOCKS * 16 + 64);
   if (r != CUDA_SUCCESS) {
      LOG_WARN("cublasCreate: CUresult %d", (int)r);
      if (h->mod)
         cuModuleUnload(h->mod);
      if (h->retained)
         cuDevicePrimaryCtxRelease(h->dev);
      free(h);
      return r == CUDA_ERROR_OUT_OF_MEMORY ? CUBLAS_STATUS_ALLOC_FAILED : CUBLAS_STATUS_NOT_INITIALIZED;
   }
   h->magic = CB_MAGIC;
   h->pmode = CUBLAS_POINTER_MODE_HOST;
   h->amode = CUBLAS_ATOMICS_NOT_ALLOWED;
   h->math = CUBLAS_DEFAULT_MATH;
   h->emu_special = CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;   /* the rest: 0, the defaults */
   *handle = h;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasDestroy_v2 (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasDestroy_v2(cublasHandle_t h)
{
   CB_ENTER("handle=%p", (void *)h);
   CB_HANDLE(h);
   /* NVIDIA's destroy synchronises: work queued with the handle finishes */
   cb_enter_ctx(h);
   cuCtxSynchronize();
   cuMemFree(h->scratch);
   if (h->pack)
      cuMemFree(h->pack);
   cuModuleUnload(h->mod);
   if (h->retained)
      cuDevicePrimaryCtxRelease(h->dev);
   h->magic = 0;
   free(h);
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetVersion_v2 (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasGetVersion_v2(cublasHandle_t h, int *version)
{
   CB_ENTER("handle=%p version=%p", (void *)h, (void *)version);
   CB_CHECK(version, CUBLAS_STATUS_INVALID_VALUE);
   *version = CB_VERSION;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetVersion (libcublas.@): the legacy API's, no handle ==== */
CB_EXPORT cublasStatus_t cublasGetVersion(int *version);
CB_EXPORT cublasStatus_t cublasGetVersion(int *version)
{
   CB_ENTER("version=%p", (void *)version);
   CB_CHECK(version, CUBLAS_STATUS_INVALID_VALUE);
   *version = CB_VERSION;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetProperty (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value)
{
   CB_ENTER("type=%d value=%p", (int)type, (void *)value);
   CB_CHECK(value, CUBLAS_STATUS_INVALID_VALUE);
   switch (type) {
   case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; break;
   case MINOR_VERSION: *value = CUBLAS_VER_MINOR; break;
   case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; break;
   default: return CUBLAS_STATUS_INVALID_VALUE;
   }
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetCudartVersion (libcublas.@) ==== */
CB_EXPORT size_t cublasGetCudartVersion(void)
{
   CB_ENTER("%s", "");
   return 13000;
}

/* ==== cublasSetWorkspace_v2 (libcublas.@) ====
 * Recorded; the kernels need no workspace beyond the handle's scratch. */
CB_EXPORT cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t h, void *workspace, size_t size)
{
   CB_ENTER("handle=%p workspace=%p size=%zu", (void *)h, workspace, size);
   CB_HANDLE(h);
   CB_CHECK(workspace || !size, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(((uintptr_t)workspace & 255) == 0, CUBLAS_STATUS_INVALID_VALUE);
   h->ws = workspace;
   h->ws_size = size;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasSetStream_v2 (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t stream)
{
   CB_ENTER("handle=%p stream=%p", (void *)h, (void *)stream);
   CB_HANDLE(h);
   h->stream = (CUstream)stream;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetStream_v2 (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasGetStream_v2(cublasHandle_t h, cudaStream_t *stream)
{
   CB_ENTER("handle=%p stream=%p", (void *)h, (void *)stream);
   CB_HANDLE(h);
   CB_CHECK(stream, CUBLAS_STATUS_INVALID_VALUE);
   *stream = (cudaStream_t)h->stream;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetPointerMode_v2 (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t *mode)
{
   CB_ENTER("handle=%p mode=%p", (void *)h, (void *)mode);
   /* the pointer before the handle: cuBLAS 13.1 answers (NULL, NULL)
    * with INVALID_VALUE (H200, 2026-12-02) */
   CB_CHECK(mode, CUBLAS_STATUS_INVALID_VALUE);
   CB_HANDLE(h);
   *mode = h->pmode;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasSetPointerMode_v2 (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t mode)
{
   CB_ENTER("handle=%p mode=%d", (void *)h, (int)mode);
   CB_HANDLE(h);
   CB_CHECK(mode == CUBLAS_POINTER_MODE_HOST || mode == CUBLAS_POINTER_MODE_DEVICE, CUBLAS_STATUS_INVALID_VALUE);
   h->pmode = mode;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetAtomicsMode (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasGetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t *mode)
{
   CB_ENTER("handle=%p mode=%p", (void *)h, (void *)mode);
   CB_HANDLE(h);
   CB_CHECK(mode, CUBLAS_STATUS_INVALID_VALUE);
   *mode = h->amode;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasSetAtomicsMode (libcublas.@): recorded; no kernel uses atomics ==== */
CB_EXPORT cublasStatus_t cublasSetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t mode)
{
   CB_ENTER("handle=%p mode=%d", (void *)h, (int)mode);
   CB_HANDLE(h);
   CB_CHECK(mode == CUBLAS_ATOMICS_NOT_ALLOWED || mode == CUBLAS_ATOMICS_ALLOWED, CUBLAS_STATUS_INVALID_VALUE);
   h->amode = mode;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetMathMode (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t *mode)
{
   CB_ENTER("handle=%p mode=%p", (void *)h, (void *)mode);
   CB_HANDLE(h);
   CB_CHECK(mode, CUBLAS_STATUS_INVALID_VALUE);
   *mode = h->math;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasSetMathMode (libcublas.@) ====
 * Recorded: every mode computes in full precision here (tensor-op and
 * TF32 modes permit less precision, never require it). */
CB_EXPORT cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t mode)
{
   CB_ENTER("handle=%p mode=%d", (void *)h, (int)mode);
   CB_HANDLE(h);
   int base = (int)mode & ~CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
   CB_CHECK(base >= CUBLAS_DEFAULT_MATH && base <= CUBLAS_FP32_EMULATED_BF16X9_MATH, CUBLAS_STATUS_INVALID_VALUE);
   h->math = mode;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasGetSmCountTarget (libcublas.@) ==== */
CB_EXPORT cublasStatus_t cublasGetSmCountTarget(cublasHandle_t h, int *target)
{
   CB_ENTER("handle=%p target=%p", (void *)h, (void *)target);
   CB_HANDLE(h);
   CB_CHECK(target, CUBLAS_STATUS_INVALID_VALUE);
   *target = h->sm_target;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasSetSmCountTarget (libcublas.@): recorded (0: all) ==== */
CB_EXPORT cublasStatus_t cublasSetSmCountTarget(cublasHandle_t h, int target)
{
   CB_ENTER("handle=%p target=%d", (void *)h, target);
   CB_HANDLE(h);
   CB_CHECK(target >= 0, CUBLAS_STATUS_INVALID_VALUE);
   h->sm_target = target;
   return CUBLAS_STATUS_SUCCESS;
}

/* ---- cuBLAS 13's emulation settings ----
 * NVIDIA's cuBLAS may compute FP32 and FP64 products with emulated
 * arithmetic (BF16x9, fixed point) under these settings; metalcuda has no
 * such paths (its FP32 and FP64 are native IEEE), so a handle keeps them
 * and answers them and computation is unchanged.  Defaults as NVIDIA
 * documents them: strategy DEFAULT, special values DEFAULT (0xFFFF),
 * mantissa control DYNAMIC, maximum mantissa bit count 0 (the library's
 * choice), offset 0, no bit-count pointer.  Refused with INVALID_VALUE: an
 * enum value that is none, a negative maximum bit count, a NULL output. */
#define CB_EMU_GET(Name, T, field)                                                                            \
   CB_EXPORT cublasStatus_t cublasGet##Name(cublasHandle_t h, T *value)                                        \
   {                                                                                                          \
      CB_ENTER("handle=%p value=%p", (void *)h, (void *)value);                                               \
      CB_HANDLE(h);                                                                                           \
      CB_CHECK(value, CUBLAS_STATUS_INVALID_VALUE);                                                           \
      *value = h->field;                                                                                      \
      return CUBLAS_STATUS_SUCCESS;                                                                           \
   }
#define CB_EMU_SET(Name, T, field, valid)                                                                     \
   CB_EXPORT cublasStatus_t cublasSet##Name(cublasHandle_t h, T value)                                         \
   {                                                                                                          \
      CB_ENTER("handle=%p value=%lld", (void *)h, (long long)(intptr_t)value);                                \
      CB_HANDLE(h);                                                                                           \
      CB_CHECK(valid, CUBLAS_STATUS_INVALID_VALUE);                                                           \
      h->field = value;                                                                                       \
      return CUBLAS_STATUS_SUCCESS;                                                                           \
   }
/* ==== cublasGetEmulationStrategy, cublasSetEmulationStrategy (libcublas.@) ==== */
CB_EMU_GET(EmulationStrategy, cublasEmulationStrategy_t, emu_strategy)
CB_EMU_SET(EmulationStrategy, cublasEmulationStrategy_t, emu_strategy,
           (unsigned)value <= CUBLAS_EMULATION_STRATEGY_EAGER)
/* ==== cublasGetEmulationSpecialValuesSupport, cublasSetEmulationSpecialValuesSupport (libcublas.@) ==== */
/* a mask: any combination of the bits is taken */
CB_EMU_GET(EmulationSpecialValuesSupport, cudaEmulationSpecialValuesSupport, emu_special)
CB_EMU_SET(EmulationSpecialValuesSupport, cudaEmulationSpecialValuesSupport, emu_special, true)
/* ==== cublasGetFixedPointEmulationMantissaControl, cublasSet... (libcublas.@) ==== */
CB_EMU_GET(FixedPointEmulationMantissaControl, cudaEmulationMantissaControl, emu_control)
CB_EMU_SET(FixedPointEmulationMantissaControl, cudaEmulationMantissaControl, emu_control,
           (unsigned)value <= CUDA_EMULATION_MANTISSA_CONTROL_FIXED)
/* ==== cublasGetFixedPointEmulationMaxMantissaBitCount, cublasSet... (libcublas.@) ==== */
CB_EMU_GET(FixedPointEmulationMaxMantissaBitCount, int, emu_max_bits)
CB_EMU_SET(FixedPointEmulationMaxMantissaBitCount, int, emu_max_bits, value >= 0)
/* ==== cublasGetFixedPointEmulationMantissaBitOffset, cublasSet... (libcublas.@) ==== */
CB_EMU_GET(FixedPointEmulationMantissaBitOffset, int, emu_offset)
CB_EMU_SET(FixedPointEmulationMantissaBitOffset, int, emu_offset, true)
/* ==== cublasGetFixedPointEmulationMantissaBitCountPointer, cublasSet... (libcublas.@) ==== */
CB_EMU_GET(FixedPointEmulationMantissaBitCountPointer, int *, emu_bits_ptr)
CB_EMU_SET(FixedPointEmulationMantissaBitCountPointer, int *, emu_bits_ptr, true)

/* ==== cublasGetStatusName, cublasGetStatusString (libcublas.@) ====
 * NVIDIA's names and strings.  Observed on an H200 (cuBLAS 13.1.0.3):
 * SUCCESS, INVALID_VALUE and NOT_SUPPORTED's strings, and "unrecognized
 * status" for a value that is none (name and string); the other strings
 * are our wording of cublas_api.h's comments. */
CB_EXPORT const char *cublasGetStatusName(cublasStatus_t status)
{
   switch (status) {
#define N(x) case x: return #x;
      N(CUBLAS_STATUS_SUCCESS) N(CUBLAS_STATUS_NOT_INITIALIZED) N(CUBLAS_STATUS_ALLOC_FAILED)
      N(CUBLAS_STATUS_INVALID_VALUE) N(CUBLAS_STATUS_ARCH_MISMATCH) N(CUBLAS_STATUS_MAPPING_ERROR)
      N(CUBLAS_STATUS_EXECUTION_FAILED) N(CUBLAS_STATUS_INTERNAL_ERROR) N(CUBLAS_STATUS_NOT_SUPPORTED)
      N(CUBLAS_STATUS_LICENSE_ERROR)
#undef N
   }
   return "unrecognized status";
}

CB_EXPORT const char *cublasGetStatusString(cublasStatus_t status)
{
   switch (status) {
   case CUBLAS_STATUS_SUCCESS: return "success";
   case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
   case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
   case CUBLAS_STATUS_INVALID_VALUE: return "an unsupported value or parameter was passed to the function";
   case CUBLAS_STATUS_ARCH_MISMATCH: return "the function requires a feature absent from the device architecture";
   case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
   case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
   case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal cuBLAS operation failed";
   case CUBLAS_STATUS_NOT_SUPPORTED: return "the requested functionality is not supported";
   case CUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
   }
   return "unrecognized status";
}

/* ==== the logger (libcublas.@) ====
 * cuBLAS's own API log has nothing to say here (METALCUDA_LOG=trace traces
 * every call); the configuration is accepted and the callback kept. */
static cublasLogCallback cb_log_callback;

CB_EXPORT cublasStatus_t cublasLoggerConfigure(int logIsOn, int logToStdOut, int logToStdErr, const char *file)
{
   CB_ENTER("on=%d stdout=%d stderr=%d file=%s", logIsOn, logToStdOut, logToStdErr, file ? file : "(null)");
   return CUBLAS_STATUS_SUCCESS;
}

CB_EXPORT cublasStatus_t cublasSetLoggerCallback(cublasLogCallback cb)
{
   CB_ENTER("callback=%p", (void *)(uintptr_t)cb);
   cb_log_callback = cb;
   return CUBLAS_STATUS_SUCCESS;
}

CB_EXPORT cublasStatus_t cublasGetLoggerCallback(cublasLogCallback *cb)
{
   CB_ENTER("callback=%p", (void *)cb);
   CB_CHECK(cb, CUBLAS_STATUS_INVALID_VALUE);
   *cb = cb_log_callback;
   return CUBLAS_STATUS_SUCCESS;
}

/* ==== cublasSet/GetVector/Matrix(Async) (libcublas.@) ====
 * Strided copies between host and device memory: cuMemcpy2D with the
 * increments (leading dimensions) as pitches. */
static cublasStatus_t cb_copy2d(bool to_dev, int64_t rows, int64_t cols, int64_t elem, const void *src, int64_t spitch,
                                void *dst, int64_t dpitch, CUstream stream, bool async)
{
   if (rows == 0 || cols == 0)
      return CUBLAS_STATUS_SUCCESS;
   CUDA_MEMCPY2D c;
   memset(&c, 0, sizeof(c));
   c.srcMemoryType = to_dev ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
   c.dstMemoryType = to_dev ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
   if (to_dev) {
      c.srcHost = src;
      c.dstDevice = (CUdeviceptr)(uintptr_t)dst;
   } else {
      c.srcDevice = (CUdeviceptr)(uintptr_t)src;
      c.dstHost = dst;
   }
   c.srcPitch = (size_t)(spitch * elem);
   c.dstPitch = (size_t)(dpitch * elem);
   c.WidthInBytes = (size_t)(rows * elem);
   c.Height = (size_t)cols;
   CUresult r = async ? cuMemcpy2DAsync(&c, stream) : cuMemcpy2D(&c);
   if (r != CUDA_SUCCESS) {
      LOG_INFO("cuMemcpy2D: CUresult %d", (int)r);
      return CUBLAS_STATUS_MAPPING_ERROR;
   }
   return CUBLAS_STATUS_SUCCESS;
}

/* A vector of N elements with increment INC is a matrix of N columns of
 * one element each, pitch INC. */
static cublasStatus_t cb_vector(bool to_dev, int64_t n, int64_t elem, const void *x, int64_t incx, void *y,
                                int64_t incy, CUstream stream, bool async)
{
   CB_CHECK(elem > 0 && incx > 0 && incy > 0 && x && y, CUBLAS_STATUS_INVALID_VALUE);
   /* a negative length: the copy fails (an H200 answers MAPPING_ERROR) */
   CB_CHECK(n >= 0, CUBLAS_STATUS_MAPPING_ERROR);
   return cb_copy2d(to_dev, 1, n, elem, x, incx, y, incy, stream, async);
}

static cublasStatus_t cb_matrix(bool to_dev, int64_t rows, int64_t cols, int64_t elem, const void *A, int64_t lda,
                                void *B, int64_t ldb, CUstream stream, bool async)
{
   CB_CHECK(rows >= 0 && cols >= 0 && elem > 0 && lda > 0 && ldb > 0, CUBLAS_STATUS_INVALID_VALUE);
   /* a leading dimension below the rows: the copy fails (an H200 answers
    * MAPPING_ERROR) */
   CB_CHECK(lda >= rows && ldb >= rows, CUBLAS_STATUS_MAPPING_ERROR);
   CB_CHECK(A && B, CUBLAS_STATUS_INVALID_VALUE);
   return cb_copy2d(to_dev, rows, cols, elem, A, lda, B, ldb, stream, async);
}

/* Each defined with 64-bit sizes (the _64 export) and again with int. */
#define CB_VECTOR_COPY(NAME, TO_DEV)                                                                 \
   CB_EXPORT cublasStatus_t NAME##_64(int64_t n, int64_t elem, const void *x, int64_t incx, void *y, int64_t incy) \
   {                                                                                                \
      CB_ENTER("n=%lld elem=%lld x=%p incx=%lld y=%p incy=%lld", (long long)n, (long long)elem, x,    \
               (long long)incx, y, (long long)incy);                                                 \
      return cb_vector(TO_DEV, n, elem, x, incx, y, incy, NULL, false);                              \
   }                                                                                                \
   CB_EXPORT cublasStatus_t NAME(int n, int elem, const void *x, int incx, void *y, int incy)         \
   {                                                                                                \
      return NAME##_64(n, elem, x, incx, y, incy);                                                   \
   }                                                                                                \
   CB_EXPORT cublasStatus_t NAME##Async_64(int64_t n, int64_t elem, const void *x, int64_t incx, void *y,      \
                                           int64_t incy, cudaStream_t s)                            \
   {                                                                                                \
      CB_ENTER("n=%lld elem=%lld x=%p incx=%lld y=%p incy=%lld stream=%p", (long long)n, (long long)elem, x, \
               (long long)incx, y, (long long)incy, (void *)s);                                      \
      return cb_vector(TO_DEV, n, elem, x, incx, y, incy, (CUstream)s, true);                        \
   }                                                                                                \
   CB_EXPORT cublasStatus_t NAME##Async(int n, int elem, const void *x, int incx, void *y, int incy, cudaStream_t s) \
   {                                                                                                \
      return NAME##Async_64(n, elem, x, incx, y, incy, s);                                           \
   }
CB_VECTOR_COPY(cublasSetVector, true)
CB_VECTOR_COPY(cublasGetVector, false)

#define CB_MATRIX_COPY(NAME, TO_DEV)                                                                 \
   CB_EXPORT cublasStatus_t NAME##_64(int64_t rows, int64_t cols, int64_t elem, const void *A, int64_t lda, void *B, \
                                      int64_t ldb)                                                  \
   {                                                                                                \
      CB_ENTER("rows=%lld cols=%lld elem=%lld A=%p lda=%lld B=%p ldb=%lld", (long long)rows, (long long)cols, \
               (long long)elem, A, (long long)lda, B, (long long)ldb);                               \
      return cb_matrix(TO_DEV, rows, cols, elem, A, lda, B, ldb, NULL, false);                       \
   }                                                                                                \
   CB_EXPORT cublasStatus_t NAME(int rows, int cols, int elem, const void *A, int lda, void *B, int ldb) \
   {                                                                                                \
      return NAME##_64(rows, cols, elem, A, lda, B, ldb);                                            \
   }                                                                                                \
   CB_EXPORT cublasStatus_t NAME##Async_64(int64_t rows, int64_t cols, int64_t elem, const void *A, int64_t lda, \
                                           void *B, int64_t ldb, cudaStream_t s)                    \
   {                                                                                                \
      CB_ENTER("rows=%lld cols=%lld elem=%lld A=%p lda=%lld B=%p ldb=%lld stream=%p", (long long)rows,  \
               (long long)cols, (long long)elem, A, (long long)lda, B, (long long)ldb, (void *)s);    \
      return cb_matrix(TO_DEV, rows, cols, elem, A, lda, B, ldb, (CUstream)s, true);                 \
   }                                                                                                \
   CB_EXPORT cublasStatus_t NAME##Async(int rows, int cols, int elem, const void *A, int lda, void *B, int ldb, \
                                        cudaStream_t s)                                             \
   {                                                                                                \
      return NAME##Async_64(rows, cols, elem, A, lda, B, ldb, s);                                    \
   }
CB_MATRIX_COPY(cublasSetMatrix, true)
CB_MATRIX_COPY(cublasGetMatrix, false)

/* ==== cublasXerbla (libcublas.@) ====
 * BLAS's error report, in reference BLAS's xerbla format (the routine's
 * name padded to six characters), which is also what NVIDIA's library
 * prints (seen on an H200). */
CB_EXPORT void cublasXerbla(const char *srName, int info)
{
   CB_ENTER("srName=%s info=%d", srName ? srName : "(null)", info);
   printf(" ** On entry to %-6s parameter number %2d had an illegal value\n", srName ? srName : "(null)", info);
}
