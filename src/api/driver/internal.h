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

/* The context a call acts on: the current one; CUDA_ERROR_INVALID_CONTEXT
 * if none. */
#define API_NEED_INIT() API_CHECK(core_is_initialized(), CUDA_ERROR_NOT_INITIALIZED)
#define API_NEED_CTX(c)                                                      \
   core_ctx *c = core_ctx_current();                                         \
   API_CHECK(core_is_initialized(), CUDA_ERROR_NOT_INITIALIZED);              \
   API_CHECK(core_check_ctx(c), CUDA_ERROR_INVALID_CONTEXT)

#endif
