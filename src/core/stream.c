/*
 * stream.c — streams: an ordered queue of work (one Metal command queue per
 * stream, so work of different streams runs concurrently).  Command
 * buffers complete asynchronously; a completion handler turns a failed
 * buffer (a kernel fault) or a trap flag into the context's sticky error.
 *
 * Ordering between streams (CUDA's rules for the legacy default stream):
 * every buffer a stream commits ends by signalling the stream's `progress`
 * shared event with its sequence number.  When the legacy stream commits,
 * it first commits a buffer that waits for each blocking stream's last
 * committed sequence number (unless already reached or already waited
 * for); when a blocking stream commits (per-thread default streams are
 * blocking), it first waits the same way for the legacy stream.  Streams
 * created non-blocking skip both.  Waits only ever name buffers committed
 * before, so they cannot deadlock.
 *
 * Lifetimes: cuStreamDestroy returns at once (CUDA semantics); the stream
 * stays in ctx->streams, marked destroyed, so the legacy stream still
 * orders against its pending work, and is freed by the first reap that
 * finds its work done.  Per-thread default streams live until their thread
 * exits or their context is destroyed.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(stream);

bool core_check_stream(const core_stream *s) { return s && s->magic == CORE_MAGIC_STREAM; }

/* cuStreamGetId's ids: "unique for the life of the program", so a counter
 * that never goes back, shared by every context (legacy and per-thread
 * streams included); 0 is never given out. */
static uint64_t next_stream_id(void)
{
   static uint64_t last;
   return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

static int stream_new(core_ctx *c, unsigned flags, int priority, core_stream **out)
{
   core_stream *s = mc_calloc(1, sizeof(*s));
   if (!s)
      return CORE_ERROR_OUT_OF_MEMORY;
   char *err = NULL;
   mtl_device *dev = core_device_mtl(c->dev);
   s->queue = mtl_queue_new(dev, &err);
   if (s->queue)
      s->progress = mtl_event_new(dev, &err);
   if (!s->queue || !s->progress) {
      LOG_ERR("cannot create a stream: %s", err ? err : "out of memory");
      free(err);
      if (s->queue)
         mtl_queue_release(s->queue);
      free(s);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   s->magic = CORE_MAGIC_STREAM;
   s->ctx = c;
   s->flags = flags;
   s->priority = priority;
   s->id = next_stream_id();
   pthread_mutex_init(&s->lock, NULL);
   pthread_cond_init(&s->synced_cv, NULL);
   *out = s;
   return CORE_SUCCESS;
}

/* Frees s once its work is done (waits for the queue's last handlers). */
static void stream_free(core_stream *s)
{
   free(s->attrs);
   mtl_queue_release(s->queue);
   if (s->last)
      mtl_cmdbuf_release(s->last);
   mtl_event_release(s->progress);
   s->magic = CORE_MAGIC_DEAD;
   pthread_cond_destroy(&s->synced_cv);
   pthread_mutex_destroy(&s->lock);
   free(s);
}

static uint64_t committed_seq(core_stream *s) { return __atomic_load_n(&s->committed, __ATOMIC_ACQUIRE); }

/* All committed buffers of s have run (their progress signals are the
 * last command of each). */
static bool stream_idle(core_stream *s)
{
   uint64_t n = committed_seq(s);
   return n == 0 || mtl_event_signaled_value(s->progress) >= n;
}

/* Unlinks the destroyed streams whose work is done (ctx->streams_lock
 * held); returns them chained through next, for stream_free outside the
 * lock. */
static core_stream *unlink_finished(core_ctx *c)
{
   core_stream *done = NULL;
   for (core_stream **p = &c->streams; *p;) {
      core_stream *s = *p;
      if (s->destroyed && !s->users && stream_idle(s)) {
         *p = s->next;
         s->next = done;
         done = s;
      } else {
         p = &s->next;
      }
   }
   return done;
}

static void reap(core_ctx *c)
{
   pthread_mutex_lock(&c->streams_lock);
   core_stream *done = unlink_finished(c);
   pthread_mutex_unlock(&c->streams_lock);
   while (done) {
      core_stream *n = done->next;
      stream_free(done);
      done = n;
   }
}

int core_stream_create_null(core_ctx *c, core_stream **out)
{
   int r = stream_new(c, 0, 0, out);
   if (r == CORE_SUCCESS)
      (*out)->is_null = true;
   return r;
}

int core_stream_create(core_ctx *c, unsigned flags, int priority, core_stream **out)
{
   reap(c);
   core_stream *s;
   int r = stream_new(c, flags, priority, &s);
   if (r != CORE_SUCCESS)
      return r;
   pthread_mutex_lock(&c->streams_lock);
   s->next = c->streams;
   c->streams = s;
   pthread_mutex_unlock(&c->streams_lock);
   *out = s;
   return CORE_SUCCESS;
}

void core_stream_destroy(core_stream *s)
{
   core_ctx *c = s->ctx;
   core_capture_forget_stream(s);
   pthread_mutex_lock(&c->streams_lock);
   s->magic = CORE_MAGIC_DEAD;      /* the handle is gone; the work is not */
   s->destroyed = true;
   pthread_mutex_unlock(&c->streams_lock);
   reap(c);
}

void core_stream_free_null(core_stream *s)
{
   if (!s)
      return;
   core_stream_synchronize(s);
   stream_free(s);
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
   case MC_STATUS_TENSOR_MAP:
      return "cp.async.bulk.tensor with a tensor map that cuTensorMapEncodeTiled did not write";
   case MC_STATUS_TENSOR_COORD:
      return "cp.async.bulk.tensor with an innermost coordinate that is not a multiple of 16 bytes, or a "
             "store at a negative coordinate (illegal instructions on NVIDIA GPUs)";
   case MC_STATUS_TEX_GRAD_CUBE:
      return "texCubemapGrad/texCubemapLayeredGrad (tex.grad.cube/.acube) with P exactly on a cube's edge or "
             "corner (two of its largest magnitudes equal) while P + dPdx or P + dPdy falls on another face, or "
             "with P not finite or zero and a gradient component that is not finite "
             "(not supported: the H200's level of detail there is not fitted exactly; every other P, on or off "
             "P's face, works)";
   case MC_STATUS_TEX_GRAD_ANISO:
      return "tex2DGrad (tex.grad) on a mipmapped texture with maxAnisotropy of 2 or more (not supported: its "
             "anisotropic filtering is not fitted; tex2DLod and the other reads of such a texture work)";
   case MC_STATUS_LOOP_EXIT:
      return "threads of a block left a loop that has a barrier at different iterations (not supported: "
             "metalcuda runs such a loop, whose exit test depends on the thread, in step, every thread leaving "
             "it at the same iteration, and this launch's threads did not)";
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
         uint64_t cuda = core_arena_cuda(c->dev, fault);
         size_t n = (size_t)snprintf(where, sizeof(where), ": CUDA address %#llx is ", (unsigned long long)cuda);
         if (n < sizeof(where))
            core_mem_describe(c->dev, cuda, where + n, sizeof(where) - n);
      }
      /* What Metal said, as the CUDA error a program can act on: the GPU
       * watchdog is cudaErrorLaunchTimeout, as a display watchdog's kill is
       * on NVIDIA's; Metal refusing the process's work after repeated
       * faults is a launch failure that no retry fixes (issue 15). */
      mtl_cmdbuf_failure why = mtl_cmdbuf_failure_kind(cb);
      const char *text = mtl_cmdbuf_error(cb) ? mtl_cmdbuf_error(cb) : "unknown error";
      const char *q = kernel ? "'" : "", *name = kernel ? kernel : "";
      if (why == MTL_FAILURE_TIMEOUT) {
         snprintf(msg, sizeof(msg), "kernel %s%s%s ran past the GPU watchdog and was stopped (Metal stops a "
                  "command buffer after about 5 seconds of GPU time); split the work into shorter launches: %s",
                  q, name, q, text);
         core_ctx_set_sticky(c, CORE_ERROR_LAUNCH_TIMEOUT, msg);
      } else if (why == MTL_FAILURE_REFUSED) {
         snprintf(msg, sizeof(msg), "kernel %s%s%s was not run: Metal no longer runs this process's GPU work "
                  "(after repeated GPU faults); the process must be restarted: %s", q, name, q, text);
         core_ctx_set_sticky(c, CORE_ERROR_LAUNCH_FAILED, msg);
      } else {
         snprintf(msg, sizeof(msg), "kernel %s%s%sfailed: %s%s", q, name, kernel ? "' " : "", text, where);
         core_ctx_set_sticky(c, CORE_ERROR_ILLEGAL_ADDRESS, msg);
      }
   }
   volatile uint32_t *status = (volatile uint32_t *)(uintptr_t)c->status_word;
   uint32_t st = *status;
   if (st == MC_STATUS_OK)
      return;
   *status = MC_STATUS_OK;
   if (st == MC_STATUS_ASSERT) {
      core_ctx_set_sticky(c, CORE_ERROR_ASSERT, "a kernel failed a device-side assertion");
   } else if (st == MC_STATUS_STACK) {
      char msg[300];
      snprintf(msg, sizeof(msg), "kernel %s%s%srecursed deeper than its stack (cudaLimitStackSize) holds",
               kernel ? "'" : "", kernel ? kernel : "", kernel ? "' " : "");
      core_ctx_set_sticky(c, CORE_ERROR_ILLEGAL_ADDRESS, msg);
   } else if (st == MC_STATUS_SURFACE) {
      /* an H200 reports cudaErrorIllegalAddress for suld/sust.trap outside */
      core_ctx_set_sticky(c, CORE_ERROR_ILLEGAL_ADDRESS, "a kernel accessed a surface outside its array "
                          "(cudaBoundaryModeTrap)");
   } else if (st == MC_STATUS_MISALIGNED) {
      char msg[300];
      snprintf(msg, sizeof(msg), "kernel %s%s%sloaded or stored at an address that is not a multiple of the "
               "access size (found by METALCUDA_VALIDATE; an NVIDIA GPU faults there)", kernel ? "'" : "",
               kernel ? kernel : "", kernel ? "' " : "");
      core_ctx_set_sticky(c, CORE_ERROR_MISALIGNED_ADDRESS, msg);
   } else if (st == MC_STATUS_TEX_GRAD_CUBE || st == MC_STATUS_TEX_GRAD_ANISO || st == MC_STATUS_LOOP_EXIT) {
      core_ctx_set_sticky(c, CORE_ERROR_NOT_SUPPORTED, kernel_status_text(st));
   } else if (st == MC_STATUS_TENSOR_COORD || st == MC_STATUS_TENSOR_MAP) {
      core_ctx_set_sticky(c, CORE_ERROR_ILLEGAL_INSTRUCTION, kernel_status_text(st));
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

/* Opens the buffer that makes s wait for the work it must follow, or
 * returns it (NULL: nothing to wait for).  s->lock held. */
static mtl_cmdbuf *add_wait(core_stream *s, mtl_cmdbuf *wait, core_stream *on, uint64_t value)
{
   if (!wait) {
      char *err = NULL;
      wait = mtl_cmdbuf_new(s->queue, &err);
      if (!wait) {
         /* Metal cannot make a buffer only when out of memory: the
          * program then fails anyway; say why ordering was lost. */
         LOG_ERR("cannot order stream %p after stream %p: %s", (void *)s, (void *)on, err ? err : "out of memory");
         free(err);
         return NULL;
      }
   }
   mtl_cmdbuf_encode_wait_event(wait, on->progress, value);
   return wait;
}

/* CUDA's implicit synchronisation with the legacy default stream (see the
 * comment at the top).  s->lock held. */
static void order_against_default(core_stream *s)
{
   if (s->flags & CORE_STREAM_NON_BLOCKING)
      return;
   core_ctx *c = s->ctx;
   mtl_cmdbuf *wait = NULL;
   if (s->is_null) {
      pthread_mutex_lock(&c->streams_lock);
      for (core_stream *b = c->streams; b; b = b->next) {
         uint64_t v = committed_seq(b);
         if ((b->flags & CORE_STREAM_NON_BLOCKING) || v <= b->null_waited || stream_idle(b))
            continue;
         wait = add_wait(s, wait, b, v);
         b->null_waited = v;
      }
      pthread_mutex_unlock(&c->streams_lock);
   } else {
      core_stream *n = c->null_stream;
      uint64_t v = committed_seq(n);
      if (v > s->seen_null && !stream_idle(n)) {
         wait = add_wait(s, wait, n, v);
         s->seen_null = v;
      }
   }
   if (wait) {
      mtl_cmdbuf_commit(wait);
      mtl_cmdbuf_release(wait);    /* the queue keeps it until it ran */
   }
}

/* Commits cb after what it must follow, as the next sequence number. */
static void commit_locked(core_stream *s, mtl_cmdbuf *cb)
{
   order_against_default(s);
   mtl_cmdbuf_encode_signal_event(cb, s->progress, s->seq + 1);
   mtl_cmdbuf_commit(cb);
   s->seq++;
   __atomic_store_n(&s->committed, s->seq, __ATOMIC_RELEASE);
   /* Queue order: once the newer buffer completes, so has the older one,
    * so only the last needs keeping for synchronisation. */
   mtl_cmdbuf *old = s->last;
   s->last = cb;
   if (old)
      mtl_cmdbuf_release(old);
}

/* Adds the fault/trap check to cb. */
static void add_check(core_stream *s, mtl_cmdbuf *cb, const char *kernel)
{
   completion *cp = kernel ? mc_malloc(sizeof(*cp)) : NULL;
   if (cp) {
      cp->ctx = s->ctx;
      snprintf(cp->kernel, sizeof(cp->kernel), "%s", kernel);
      mtl_cmdbuf_add_completed_handler(cb, on_kernel_completed, cp);
   } else {
      mtl_cmdbuf_add_completed_handler(cb, on_completed, s->ctx);
   }
}

void core_stream_commit(core_stream *s, mtl_cmdbuf *cb, const char *kernel)
{
   add_check(s, cb, kernel);
   pthread_mutex_lock(&s->lock);
   commit_locked(s, cb);
   pthread_mutex_unlock(&s->lock);
}

/* The first synchroniser takes the last buffer and waits for it (only one
 * may release it); others arriving meanwhile, finding none, wait until it
 * reports that sequence number complete. */
int core_stream_synchronize(core_stream *s)
{
   pthread_mutex_lock(&s->lock);
   uint64_t target = s->seq;
   mtl_cmdbuf *cb = s->last;
   s->last = NULL;
   if (!cb)
      while (s->synced < target)
         pthread_cond_wait(&s->synced_cv, &s->lock);
   pthread_mutex_unlock(&s->lock);
   if (cb) {
      mtl_cmdbuf_wait_until_completed(cb);
      /* Metal may run completion handlers after waitUntilCompleted
       * returns; check here too (the first error wins, so twice is fine). */
      on_completed(cb, s->ctx);
      mtl_cmdbuf_release(cb);
      pthread_mutex_lock(&s->lock);
      if (s->synced < target)
         s->synced = target;
      pthread_cond_broadcast(&s->synced_cv);
      pthread_mutex_unlock(&s->lock);
   }
   core_printf_sync(s);   /* device printf output appears at synchronisation */
   return core_ctx_error(s->ctx);
}

int core_stream_query(core_stream *s)
{
   int r = core_ctx_error(s->ctx);
   if (r != CORE_SUCCESS)
      return r;
   return stream_idle(s) ? CORE_SUCCESS : CORE_ERROR_NOT_READY;
}

/* An empty buffer on s (for waits, markers and host functions). */
static int empty_cmdbuf(core_stream *s, mtl_cmdbuf **out)
{
   char *err = NULL;
   *out = mtl_cmdbuf_new(s->queue, &err);
   if (*out)
      return CORE_SUCCESS;
   LOG_ERR("cannot create a command buffer: %s", err ? err : "out of memory");
   free(err);
   return CORE_ERROR_OUT_OF_MEMORY;
}

int core_stream_sync_legacy(core_ctx *c)
{
   core_stream *n = c->null_stream;
   mtl_cmdbuf *cb;
   int r = empty_cmdbuf(n, &cb);
   if (r != CORE_SUCCESS)
      return r;
   core_stream_commit(n, cb, NULL);    /* brings in the waits for blocking streams */
   return core_stream_synchronize(n);
}

int core_stream_wait_event(core_stream *s, core_event *e)
{
   if (s->cap || e->cap)   /* a join into a capture, or an error (capture.c) */
      return core_capture_event_wait(s, e);
   if (s->is_null) {
      int r = core_capture_legacy(s->ctx);
      if (r != CORE_SUCCESS)
         return r;
   }
   pthread_mutex_lock(&e->lock);
   mtl_event *ev;
   uint64_t value;
   int r = CORE_SUCCESS;
   if (core_event_pending_signal(e, &ev, &value)) {
      mtl_cmdbuf *cb;
      if ((r = empty_cmdbuf(s, &cb)) == CORE_SUCCESS) {
         mtl_cmdbuf_encode_wait_event(cb, ev, value);   /* cb keeps ev alive */
         core_stream_commit(s, cb, NULL);
      }
   }
   pthread_mutex_unlock(&e->lock);
   return r;
}

/* ---- host functions ---- */

/* A host function is two buffers: the first runs it from its completion
 * handler (so after the stream's earlier work) and then opens a gate; the
 * second waits for the gate, so later work waits until the function
 * returned, whichever thread Metal runs completion handlers on. */
typedef struct host_call {
   core_host_fn fn;
   void *data;
   core_ctx *ctx;
   mtl_event *gate;              /* the handler's reference (NULL: fn opens the gate itself) */
} host_call;

static void run_host_call(mtl_cmdbuf *cb, void *arg)
{
   (void)cb;
   host_call *h = arg;
   h->fn(h->data, core_ctx_error(h->ctx));
   if (h->gate) {
      mtl_event_set_signaled_value(h->gate, 1);
      mtl_event_release(h->gate);
   }
   free(h);
}

static int host_fn_now(core_stream *s, core_host_fn fn, void *data);
static int host_fn_gated(core_stream *s, core_host_fn fn, void *data, mtl_event *gate);

int core_stream_host_gate(core_stream *s, core_host_fn fn, void *data, mtl_event *gate)
{
   if (s->is_null) {
      int r = core_capture_legacy(s->ctx);
      if (r != CORE_SUCCESS)
         return r;
   }
   return host_fn_gated(s, fn, data, gate);
}

int core_stream_host_fn(core_stream *s, core_host_fn fn, void *data)
{
   if (s->is_null) {
      int r = core_capture_legacy(s->ctx);
      if (r != CORE_SUCCESS)
         return r;
   }
   return host_fn_now(s, fn, data);
}

/* core_stream_host_fn without the legacy stream's capture rules (the
 * runtime's own work, which no capture sees) */
static int host_fn_now(core_stream *s, core_host_fn fn, void *data) { return host_fn_gated(s, fn, data, NULL); }

/* The two buffers; gate: the caller's (fn opens it), else one of ours. */
static int host_fn_gated(core_stream *s, core_host_fn fn, void *data, mtl_event *gate)
{
   host_call *h = mc_malloc(sizeof(*h));
   if (!h)
      return CORE_ERROR_OUT_OF_MEMORY;
   *h = (host_call){ fn, data, s->ctx, NULL };
   char *err = NULL;
   if (!gate)
      h->gate = gate = mtl_event_new(core_device_mtl(s->ctx->dev), &err);
   mtl_cmdbuf *run = NULL, *wait = NULL;
   if (!gate || empty_cmdbuf(s, &run) != CORE_SUCCESS || empty_cmdbuf(s, &wait) != CORE_SUCCESS) {
      LOG_ERR("cannot queue a host function: %s", err ? err : "out of memory");
      free(err);
      if (run)
         mtl_cmdbuf_release(run);
      if (h->gate)
         mtl_event_release(h->gate);
      free(h);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   mtl_cmdbuf_add_completed_handler(run, run_host_call, h);
   mtl_cmdbuf_encode_wait_event(wait, gate, 1);
   add_check(s, run, NULL);
   add_check(s, wait, NULL);
   pthread_mutex_lock(&s->lock);
   commit_locked(s, run);
   commit_locked(s, wait);   /* nothing of another thread between the two */
   pthread_mutex_unlock(&s->lock);
   return CORE_SUCCESS;
}

/* ---- every stream of a context ---- */

/* The context's streams, each held alive (users) until release_all. */
static core_stream **hold_all(core_ctx *c, size_t *n)
{
   pthread_mutex_lock(&c->streams_lock);
   size_t count = 0;
   for (core_stream *s = c->streams; s; s = s->next)
      count++;
   core_stream **v = mc_calloc(count ? count : 1, sizeof(*v));
   *n = 0;
   if (v)
      for (core_stream *s = c->streams; s; s = s->next) {
         s->users++;
         v[(*n)++] = s;
      }
   pthread_mutex_unlock(&c->streams_lock);
   return v;
}

static void release_all(core_ctx *c, core_stream **v, size_t n)
{
   pthread_mutex_lock(&c->streams_lock);
   for (size_t i = 0; i < n; i++)
      v[i]->users--;
   pthread_mutex_unlock(&c->streams_lock);
   free(v);
}

int core_streams_synchronize_all(core_ctx *c)
{
   size_t n;
   core_stream **v = hold_all(c, &n);
   if (!v)
      return CORE_ERROR_OUT_OF_MEMORY;
   for (size_t i = 0; i < n; i++)
      core_stream_synchronize(v[i]);
   release_all(c, v, n);
   int r = core_stream_synchronize(c->null_stream);
   reap(c);
   return r;
}

typedef struct after_work {
   void (*fn)(void *);
   void *data;
   uint32_t left;               /* streams still to reach it, plus the caller's until all are queued */
} after_work;

static void after_one(void *arg, int status)
{
   (void)status;
   after_work *a = arg;
   if (__atomic_sub_fetch(&a->left, 1, __ATOMIC_ACQ_REL) == 0) {
      a->fn(a->data);
      free(a);
   }
}

void core_after_queued_work(core_ctx *c, void (*fn)(void *), void *data)
{
   size_t n;
   core_stream **v = hold_all(c, &n);
   after_work *a = mc_calloc(1, sizeof(*a));
   if (!v || !a) {   /* no memory to wait asynchronously: wait here */
      free(a);
      if (v)
         release_all(c, v, n);
      core_streams_synchronize_all(c);
      fn(data);
      return;
   }
   *a = (after_work){ fn, data, 1 };
   for (size_t i = 0; i <= n; i++) {
      core_stream *s = i < n ? v[i] : c->null_stream;
      if (stream_idle(s))
         continue;
      __atomic_add_fetch(&a->left, 1, __ATOMIC_ACQ_REL);
      if (host_fn_now(s, after_one, a) != CORE_SUCCESS) {
         core_stream_synchronize(s);   /* could not queue: its work is done after this */
         __atomic_sub_fetch(&a->left, 1, __ATOMIC_ACQ_REL);
      }
   }
   release_all(c, v, n);
   after_one(a, CORE_SUCCESS);
}

void core_streams_destroy_all(core_ctx *c)
{
   core_streams_synchronize_all(c);
   pthread_mutex_lock(&c->streams_lock);
   core_stream *all = c->streams;
   c->streams = NULL;
   pthread_mutex_unlock(&c->streams_lock);
   while (all) {
      core_stream *n = all->next;
      stream_free(all);
      all = n;
   }
}

/* ---- attributes: hints kept for the program to read back ---- */

void core_stream_get_attr(core_stream *s, int id, void *value)
{
   pthread_mutex_lock(&s->lock);
   if (s->attrs && id >= 0 && id < CORE_STREAM_ATTRS)
      memcpy(value, s->attrs[id], CORE_STREAM_ATTR_BYTES);
   else
      memset(value, 0, CORE_STREAM_ATTR_BYTES);
   pthread_mutex_unlock(&s->lock);
}

int core_stream_set_attr(core_stream *s, int id, const void *value)
{
   if (id < 0 || id >= CORE_STREAM_ATTRS)
      return CORE_ERROR_INVALID_VALUE;
   int r = CORE_SUCCESS;
   pthread_mutex_lock(&s->lock);
   if (!s->attrs)
      s->attrs = mc_calloc(CORE_STREAM_ATTRS, CORE_STREAM_ATTR_BYTES);
   if (s->attrs)
      memcpy(s->attrs[id], value, CORE_STREAM_ATTR_BYTES);
   else
      r = CORE_ERROR_OUT_OF_MEMORY;
   pthread_mutex_unlock(&s->lock);
   return r;
}
