/*
 * internal.h — helpers shared by the driver API files: handle conversion
 * with cookie checks, and the "initialised / current context" preamble.
 */
#ifndef MC_API_DRIVER_INTERNAL_H
#define MC_API_DRIVER_INTERNAL_H

#include "../api.h"
#include "../../core/core.h"

static inline core_ctx *ctx_of(CUcontext c) { return (core_ctx *)(void *)c; }
static inline CUcontext ctx_handle(core_ctx *c) { return (CUcontext)(void *)c; }
static inline core_module *module_of(const void *h) { return (core_module *)(uintptr_t)h; }
static inline core_kernel *kernel_of(const void *h) { return (core_kernel *)(uintptr_t)h; }

/* CU_STREAM_LEGACY (1) and CU_STREAM_PER_THREAD (2) are both the null
 * stream until per-thread default streams exist. */
static inline bool stream_is_default(CUstream s) { return (uintptr_t)s <= 2; }

/* TEMPORARY, for the lead to replace at merge: the streams helper provides
 * the real drv_stream (same name and signature) in this file.  Resolves a
 * stream handle: NULL, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are the
 * context's null stream (*out = NULL, as core_launch_config.stream has it
 * today); anything else must be a live stream (CUDA_ERROR_INVALID_HANDLE). */
static inline CUresult drv_stream(CUstream h, core_stream **out)
{
   if (stream_is_default(h)) {
      *out = NULL;
      return CUDA_SUCCESS;
   }
   core_stream *s = (core_stream *)(void *)h;
   if (!core_check_stream(s))
      return CUDA_ERROR_INVALID_HANDLE;
   *out = s;
   return CUDA_SUCCESS;
}

/* The current context and the stream handle h resolved (drv_stream), for
 * the work a call queues: CUDA_ERROR_NOT_INITIALIZED, _INVALID_CONTEXT or
 * _INVALID_HANDLE otherwise. */
static inline CUresult drv_ctx_stream(CUstream h, core_ctx **c, core_stream **s)
{
   if (!core_is_initialized())
      return CUDA_ERROR_NOT_INITIALIZED;
   *c = core_ctx_current();
   if (!core_check_ctx(*c))
      return CUDA_ERROR_INVALID_CONTEXT;
   return drv_stream(h, s);
}

/* The context a call acts on: the current one; CUDA_ERROR_INVALID_CONTEXT
 * if none. */
#define API_NEED_INIT() API_CHECK(core_is_initialized(), CUDA_ERROR_NOT_INITIALIZED)
#define API_NEED_CTX(c)                                                      \
   core_ctx *c = core_ctx_current();                                         \
   API_CHECK(core_is_initialized(), CUDA_ERROR_NOT_INITIALIZED);              \
   API_CHECK(core_check_ctx(c), CUDA_ERROR_INVALID_CONTEXT)

#endif
