/*
 * stream.c — streams: an ordered queue of work (one Metal command queue per
 * stream).  Command buffers complete asynchronously; a completion handler
 * turns a failed buffer (a kernel fault) or a trap flag into the context's
 * sticky error.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(stream);

bool core_check_stream(const core_stream *s) { return s && s->magic == CORE_MAGIC_STREAM; }

int core_stream_create(core_ctx *c, core_stream **out)
{
   core_stream *s = mc_calloc(1, sizeof(*s));
   if (!s)
      return CORE_ERROR_OUT_OF_MEMORY;
   char *err = NULL;
   s->queue = mtl_queue_new(core_device_mtl(c->dev), &err);
   if (!s->queue) {
      LOG_ERR("cannot create a command queue: %s", err ? err : "out of memory");
      free(err);
      free(s);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   s->magic = CORE_MAGIC_STREAM;
   s->ctx = c;
   pthread_mutex_init(&s->lock, NULL);
   *out = s;
   return CORE_SUCCESS;
}

void core_stream_destroy(core_stream *s)
{
   if (!s)
      return;
   core_stream_synchronize(s);
   if (s->last)   /* synchronisation keeps the last buffer; it is done now */
      mtl_cmdbuf_release(s->last);
   mtl_queue_release(s->queue);
   s->magic = CORE_MAGIC_DEAD;
   pthread_mutex_destroy(&s->lock);
   free(s);
}

/* Why a kernel that set mc_launch.status failed (MC_STATUS_*). */
static const char *kernel_status_text(uint32_t st)
{
   switch (st) {
   case MC_STATUS_WARP_MASK:
      return "a warp operation's member mask names threads that are not converged at it (Metal has no "
             "independent thread scheduling within a SIMD-group)";
   case MC_STATUS_BAR_COUNT:
      return "bar.sync/bar.red with a thread count other than the whole block (Metal barriers synchronise "
             "the whole threadgroup)";
   case MC_STATUS_NBAR:
      return "a named barrier (bar.sync/bar.arrive) with an id above 15 or a thread count that is not a "
             "multiple of 32 up to the block size";
   default:
      return "a kernel executed a trap instruction";
   }
}

/* What a finished command buffer reports to: its context, and the PTX
 * name of the kernel it ran (Metal knows only the MSL function's). */
typedef struct completion {
   core_ctx *ctx;
   char kernel[200];
} completion;

/* Runs on a device thread when a command buffer finishes. */
static void check_completed(mtl_cmdbuf *cb, core_ctx *c, const char *kernel)
{
   if (mtl_cmdbuf_get_status(cb) == MTL_CMDBUF_ERROR) {
      char msg[512], where[200] = "";
      uint64_t fault = mtl_cmdbuf_fault_address(cb);
      if (fault) {   /* as a CUDA address, placed among the allocations */
         uint64_t cuda = fault - core_arena_delta(c->dev);
         size_t n = (size_t)snprintf(where, sizeof(where), ": CUDA address %#llx is ", (unsigned long long)cuda);
         if (n < sizeof(where))
            core_mem_describe(c->dev, cuda, where + n, sizeof(where) - n);
      }
      snprintf(msg, sizeof(msg), "kernel %s%s%sfailed: %s%s", kernel ? "'" : "", kernel ? kernel : "",
               kernel ? "' " : "", mtl_cmdbuf_error(cb) ? mtl_cmdbuf_error(cb) : "unknown error", where);
      core_ctx_set_sticky(c, CORE_ERROR_ILLEGAL_ADDRESS, msg);
   }
   volatile uint32_t *status = (volatile uint32_t *)(uintptr_t)c->status_word;
   uint32_t st = *status;
   if (st == MC_STATUS_OK)
      return;
   *status = MC_STATUS_OK;
   if (st == MC_STATUS_ASSERT) {
      core_ctx_set_sticky(c, CORE_ERROR_ASSERT, "a kernel failed a device-side assertion");
   } else if (st == MC_STATUS_MISALIGNED) {
      char msg[300];
      snprintf(msg, sizeof(msg), "kernel %s%s%sloaded or stored at an address that is not a multiple of the "
               "access size (found by METALCUDA_VALIDATE; an NVIDIA GPU faults there)", kernel ? "'" : "",
               kernel ? kernel : "", kernel ? "' " : "");
      core_ctx_set_sticky(c, CORE_ERROR_MISALIGNED_ADDRESS, msg);
   } else {
      core_ctx_set_sticky(c, CORE_ERROR_LAUNCH_FAILED, kernel_status_text(st));
   }
}

static void on_completed(mtl_cmdbuf *cb, void *data) { check_completed(cb, data, NULL); }

static void on_kernel_completed(mtl_cmdbuf *cb, void *data)
{
   completion *cp = data;
   check_completed(cb, cp->ctx, cp->kernel);
   free(cp);
}

void core_stream_commit(core_stream *s, mtl_cmdbuf *cb, const char *kernel)
{
   completion *cp = kernel ? mc_malloc(sizeof(*cp)) : NULL;
   if (cp) {
      cp->ctx = s->ctx;
      snprintf(cp->kernel, sizeof(cp->kernel), "%s", kernel);
      mtl_cmdbuf_add_completed_handler(cb, on_kernel_completed, cp);
   } else {
      mtl_cmdbuf_add_completed_handler(cb, on_completed, s->ctx);
   }
   pthread_mutex_lock(&s->lock);
   mtl_cmdbuf_commit(cb);
   /* Queue order: once the newer buffer completes, so has the older one,
    * so only the last needs keeping for synchronisation. */
   mtl_cmdbuf *old = s->last;
   s->last = cb;
   pthread_mutex_unlock(&s->lock);
   if (old)
      mtl_cmdbuf_release(old);
}

int core_stream_synchronize(core_stream *s)
{
   /* The wait holds the lock and leaves s->last in place: a thread that
    * took the last buffer away and waited for it unlocked would let another
    * thread synchronising the same stream (the default stream is shared by
    * every host thread) find nothing to wait for and return before its own,
    * earlier, work had run.  Holding the lock also keeps a concurrent
    * commit from releasing the buffer being waited for. */
   pthread_mutex_lock(&s->lock);
   mtl_cmdbuf *cb = s->last;
   if (cb) {
      mtl_cmdbuf_wait_until_completed(cb);
      /* Metal may run completion handlers after waitUntilCompleted
       * returns; check here too (the first error wins, so twice is fine). */
      on_completed(cb, s->ctx);
   }
   pthread_mutex_unlock(&s->lock);
   core_printf_sync(s);   /* device printf output appears at synchronisation */
   return core_ctx_error(s->ctx);
}
