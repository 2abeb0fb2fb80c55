/*
 * api.h — the shape every exported entry point has (STYLE.md, "API layer").
 *
 * An implemented driver function reads, top to bottom: one trace line with
 * all its arguments, argument checks that return NVIDIA's exact codes, one
 * call into src/core/, one traced exit:
 *
 *    LOG_CHANNEL(memory);
 *
 *    CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr)
 *    {
 *       API_ENTER("dptr=%#llx", (unsigned long long)dptr);
 *       API_CHECK(dptr == 0 || core_mem_owns(dptr), CUDA_ERROR_INVALID_VALUE);
 *       return API_RETURN(core_mem_free(dptr));
 *    }
 *
 * A runtime function is the same with RT_ENTER/RT_CHECK/RT_RETURN, which
 * also record a failure as the thread's last error (cudaGetLastError), or
 * RT_RETURN_CU to hand back a driver result mapped the way NVIDIA's runtime
 * maps it.  The function name is added to every trace line by the logger
 * (METALCUDA_LOG=trace shows them; failures show at info).
 *
 * Prototypes come from driver/protos.h and runtime/protos.h (generated, with
 * NVIDIA's signatures and default visibility), included here, so a definition
 * that drifts from the ABI does not compile.
 *
 * Something an implemented function does not support yet goes through
 * API_NOT_SUPPORTED("what") / RT_NOT_SUPPORTED("what"), which return the
 * not-supported error after saying so once: never a silent success;
 * METALCUDA_STRICT=1 makes it fatal.  Unimplemented entry points are stubs.c's business.
 *
 * A driver file must not use the RT_ macros nor a runtime file the API_
 * ones: each library links only its own error.c, and -z defs turns a mix-up
 * into a link error.
 */
#ifndef MC_API_H
#define MC_API_H

#include "cuabi.h"
#include "../util/util.h"
#include "driver/protos.h"
#include "runtime/protos.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- driver/error.c ---- */

/* "CUDA_ERROR_INVALID_VALUE", or "CUresult(1234)" for a code that has no
 * name (in a thread-local buffer); never NULL.  For traces. */
const char *cu_result_name(CUresult r);

/* ---- runtime/error.c ---- */

/* The calling thread's last error (cudaGetLastError semantics): a failing
 * call records its error, cudaGetLastError returns and clears it,
 * cudaPeekAtLastError returns it.  cudaSuccess never overwrites an error. */
void rt_set_last_error(cudaError_t e);
cudaError_t rt_get_last_error(bool reset);
/* Sticky errors (a kernel fault corrupts the context: every later call
 * fails with it) belong to core.  When a hook is installed and the thread
 * has no error recorded, rt_get_last_error reports the hook's error once
 * (until a failing call records it again): cudaGetLastError clears a
 * sticky error from the thread's record as NVIDIA's runtime does, while the
 * context keeps failing every call. */
void rt_set_sticky_error_hook(cudaError_t (*hook)(void));
/* The runtime error NVIDIA's runtime returns for a driver result. */
cudaError_t cu_to_cuda_error(CUresult r);
/* "cudaErrorInvalidValue", or "cudaError_t(1234)"; never NULL.  For traces. */
const char *cuda_error_name(cudaError_t e);

/* ---- the common paths ---- */

/* METALCUDA_STRICT=1: a call of something not implemented aborts, so a test
 * run cannot pass over it.  Read at each such call (they are rare), which
 * lets a test set it in a forked child. */
static inline bool api_strict(void)
{
   const char *e = getenv("METALCUDA_STRICT");
   return e && *e && *e != '0';
}

/* Reports that `func` cannot do `what` yet (what == NULL: `func` itself is
 * not implemented): once per call site at warn level (Wine's FIXME once),
 * or fatally under METALCUDA_STRICT=1. */
static inline void api_unsupported_(const char *channel, const char *func, const char *what, int *once)
{
   if (api_strict()) {
      fprintf(stderr, "metalcuda: %s%s%s is not implemented yet (METALCUDA_STRICT=1)\n",
              what ? func : "", what ? ": " : "", what ? what : func);
      abort();
   }
   if (!__atomic_exchange_n(once, 1, __ATOMIC_RELAXED))
      log_msg(LOG_LEVEL_WARN, channel, func, "%s is not implemented yet", what ? what : func);
}

static inline CUresult api_return_cu_(const char *channel, const char *func, CUresult r)
{
   int level = r == CUDA_SUCCESS ? LOG_LEVEL_TRACE : LOG_LEVEL_INFO;
   if (log_level() >= level)
      log_msg(level, channel, func, "-> %s", cu_result_name(r));
   if (r != CUDA_SUCCESS) {   /* every failure is in the log programs read (cuLogsDumpToMemory) */
      char line[160];
      snprintf(line, sizeof(line), "metalcuda: error: %s: %s failed: %s", channel, func, cu_result_name(r));
      loghist_add(LOG_LEVEL_ERROR, line);
   }
   return r;
}

static inline cudaError_t rt_return_(const char *channel, const char *func, cudaError_t e)
{
   int level = e == cudaSuccess ? LOG_LEVEL_TRACE : LOG_LEVEL_INFO;
   if (log_level() >= level)
      log_msg(level, channel, func, "-> %s", cuda_error_name(e));
   if (e != cudaSuccess)
      rt_set_last_error(e);
   return e;
}

/* ---- driver entry points ---- */

/* One trace line with every argument: API_ENTER("dptr=%#llx n=%zu", ...).
 * A function without arguments writes API_ENTER_VOID(). */
#define API_ENTER(...) LOG_TRACE(__VA_ARGS__)
#define API_ENTER_VOID() LOG_TRACE("()")

/* Returns `err` (traced) unless `cond` holds. */
#define API_CHECK(cond, err)                                                 \
   do {                                                                      \
      if (!(cond)) {                                                         \
         LOG_TRACE("check failed: %s", #cond);                               \
         return API_RETURN(err);                                             \
      }                                                                      \
   } while (0)

/* Traces the result by name and yields it: return API_RETURN(r); */
#define API_RETURN(r) api_return_cu_(log_channel_, __func__, (r))

/* Returns CUDA_ERROR_NOT_SUPPORTED from the function, saying once what is
 * missing: if (extra) API_NOT_SUPPORTED("the extra argument"); */
#define API_NOT_SUPPORTED(what)                                              \
   do {                                                                      \
      static int once_;                                                      \
      api_unsupported_(log_channel_, __func__, (what), &once_);              \
      return API_RETURN(CUDA_ERROR_NOT_SUPPORTED);                           \
   } while (0)

/* ---- runtime entry points ---- */

#define RT_ENTER(...) LOG_TRACE(__VA_ARGS__)
#define RT_ENTER_VOID() LOG_TRACE("()")

#define RT_CHECK(cond, err)                                                  \
   do {                                                                      \
      if (!(cond)) {                                                         \
         LOG_TRACE("check failed: %s", #cond);                               \
         return RT_RETURN(err);                                              \
      }                                                                      \
   } while (0)

/* Traces, records a failure as the thread's last error, yields it. */
#define RT_RETURN(e) rt_return_(log_channel_, __func__, (e))
/* The same for a driver result, mapped to the runtime's code. */
#define RT_RETURN_CU(r) RT_RETURN(cu_to_cuda_error(r))

/* A runtime entry point metalcuda does not implement (stubs.c, and the
 * older sonames' extras in abi12.c/abi11.c): logs its name once, records
 * and returns cudaErrorNotSupported.  (void) parameters: stubs.c says why
 * that is safe. */
#define RT_DEFINE_STUB(name)                                                  \
   MC_EXPORT cudaError_t CUDARTAPI name(void);                                \
   MC_EXPORT cudaError_t CUDARTAPI name(void)                                 \
   {                                                                          \
      static int once_;                                                       \
      api_unsupported_(log_channel_, #name, NULL, &once_);                    \
      rt_set_last_error(cudaErrorNotSupported);                               \
      return cudaErrorNotSupported;                                           \
   }

#define RT_NOT_SUPPORTED(what)                                               \
   do {                                                                      \
      static int once_;                                                      \
      api_unsupported_(log_channel_, __func__, (what), &once_);              \
      return RT_RETURN(cudaErrorNotSupported);                               \
   } while (0)

#endif
