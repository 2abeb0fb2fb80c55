/*
 * context_storage.c — CONTEXT_LOCAL_STORAGE {C693336E-1121-DF11-A8C3-68F355D89593}:
 * a value per (context, key) with a destructor, where NVIDIA's runtime
 * keeps its state for each context (one key; it looks the value up on
 * nearly every API call).  The storage itself is core's
 * (core_ctx_cls_*), since a context reset must run the destructors.
 *
 * Three functions and no size word, as on NVIDIA's driver 580:
 *   [0] put(ctx, key, value, dtor)   [1] delete(ctx, key)   [2] get(&value, ctx, key)
 * A NULL context means the current one.  What NVIDIA's driver answers
 * (observed on an H200): before cuInit CUDA_ERROR_NOT_INITIALIZED; with a
 * NULL context and none current, or a current primary context not
 * retained (reset, or made current before its first retain),
 * CUDA_ERROR_INVALID_CONTEXT; a key not there, or put again,
 * CUDA_ERROR_INVALID_HANDLE (the former is the runtime's cue to build its
 * state and put it); a reset or the last release runs the destructors as
 * dtor(context, key, value), newest first, and empties the storage; delete
 * calls none.
 */
#include "darkapi.h"

LOG_CHANNEL(darkapi);

/* The context a call names: ctx, which may be a primary context that was
 * reset (its storage is empty then), or the current one if NULL, which
 * must be in use (NVIDIA's driver: INVALID_CONTEXT for a current primary
 * context not retained, or reset; the runtime retains it on that cue). */
static core_ctx *storage_ctx(CUcontext ctx)
{
   if (ctx)
      return core_ctx_known(ctx_of(ctx)) ? ctx_of(ctx) : NULL;
   core_ctx *c = core_ctx_current();
   return core_ctx_in_use(c) ? c : NULL;
}

/* [0] */
static CUresult CUDAAPI storage_put(CUcontext ctx, void *key, void *value, core_cls_dtor dtor)
{
   API_ENTER("ctx=%p key=%p value=%p dtor=%p", (void *)ctx, key, value, (void *)(uintptr_t)dtor);
   API_NEED_INIT();
   core_ctx *c = storage_ctx(ctx);
   API_CHECK(c, CUDA_ERROR_INVALID_CONTEXT);
   return API_RETURN((CUresult)core_ctx_cls_put(c, key, value, dtor));
}

/* [1] forgets the key without calling its destructor (observed): the
 * runtime calls this at exit, then frees its state itself */
static CUresult CUDAAPI storage_delete(CUcontext ctx, void *key)
{
   API_ENTER("ctx=%p key=%p", (void *)ctx, key);
   API_NEED_INIT();
   core_ctx *c = storage_ctx(ctx);
   API_CHECK(c, CUDA_ERROR_INVALID_CONTEXT);
   return API_RETURN((CUresult)core_ctx_cls_delete(c, key));
}

/* [2] */
static CUresult CUDAAPI storage_get(void **value, CUcontext ctx, void *key)
{
   API_ENTER("value=%p ctx=%p key=%p", (void *)value, (void *)ctx, key);
   API_NEED_INIT();
   API_CHECK(value, CUDA_ERROR_INVALID_VALUE);
   core_ctx *c = storage_ctx(ctx);
   API_CHECK(c, CUDA_ERROR_INVALID_CONTEXT);
   return API_RETURN((CUresult)core_ctx_cls_get(c, key, value));
}

const dark_fn dark_context_storage[] = {
   (dark_fn)storage_put,
   (dark_fn)storage_delete,
   (dark_fn)storage_get,
};
