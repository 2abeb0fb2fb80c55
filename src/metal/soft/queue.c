/*
 * queue.c — command queues and command buffers.
 *
 * Each queue has one thread that runs its committed command buffers in
 * commit order, asynchronously from the host, as a GPU front end does,
 * grouped into submissions exactly as an Apple GPU gets them (batch.c):
 * the members of a submission run one after another and complete
 * together, their handlers in order, when the last one is done.
 * Inside a command buffer commands run one after another (Metal's serial
 * compute encoder: a dispatch completes before the next command starts);
 * a dispatch itself spreads its threadgroups over the worker pool
 * (exec.c).
 *
 * A failure — an encoding error that Metal's API validation would report,
 * or a faulting kernel — marks the buffer failed: remaining dispatches,
 * copies and fills are skipped (a kernel's failure also skips the work of
 * the later members of its submission: it ends the MTLCommandBuffer), but event signals and waits still run so
 * that other queues waiting on this one do not hang.  The buffer completes
 * with MTL_CMDBUF_ERROR and the first error's text.
 */
#include "soft.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(soft);

struct soft_queue {
   struct mtl_queue base;
   pthread_mutex_t lock;
   pthread_cond_t cv;
   soft_cmdbuf *head, *tail;      /* submissions (first members) not started */
   uint32_t pending;              /* committed, not completed */
   mtl_batcher batch;             /* committed, not yet submitted (batch.c) */
   bool stop;
   pthread_t thread;
};

static soft_queue *as_queue(mtl_queue *q) { return (soft_queue *)q; }
static soft_cmdbuf *as_cb(mtl_cmdbuf *c) { return (soft_cmdbuf *)c; }

/* ---- command buffers: recording ---- */

void soft_cmdbuf_fail(soft_cmdbuf *cb, const char *fmt, ...)
{
   pthread_mutex_lock(&cb->lock);
   if (!cb->error) {
      strbuf b;
      strbuf_init(&b);
      va_list ap;
      va_start(ap, fmt);
      strbuf_vprintf(&b, fmt, ap);
      va_end(ap);
      cb->error = strbuf_take(&b);
      if (!cb->error)
         cb->error = strdup("out of memory");
      LOG_INFO("command buffer %p: %s", (void *)cb, cb->error ? cb->error : "error");
   }
   pthread_mutex_unlock(&cb->lock);
}

soft_cmd *soft_cmdbuf_add(soft_cmdbuf *cb, soft_cmd_kind kind) { return soft_cmdbuf_add_extra(cb, kind, 0); }

/* Command buffers and commands are recycled: a launch makes a command
 * buffer (about 1.4 KB) with two commands (the dispatch and the stream's
 * event signal, about 1.3 KB each), made on the host thread and freed on
 * the queue's, and malloc and free of those -- the allocator's lock taken
 * by both threads, the page faults of memory it had given back -- were a
 * third of the software device's cost of an empty launch
 * (bench/launch.cu).  Freed ones go to a cache of up to `cap` blocks of
 * one size instead of to free(): command buffers, and commands with up to
 * 1 KB of setBytes data (a kernel's parameters and launch block); larger
 * commands are allocated and freed as before.  Launches run up to a
 * thousand ahead of the device, hence the caches' sizes (about 1 MB in
 * all when full). */
typedef struct block_cache {
   pthread_mutex_t lock;
   size_t size;
   uint32_t n, cap;
   void **free;
} block_cache;

enum { CMD_HEAD = ALIGN_UP(sizeof(soft_cmd), 64), CMD_BLOCK = CMD_HEAD + 1024, CACHED = 256 };

static void *cmd_slots[CACHED], *cmdbuf_slots[CACHED];
static block_cache cmd_cache = {PTHREAD_MUTEX_INITIALIZER, CMD_BLOCK, 0, CACHED, cmd_slots};
static block_cache cmdbuf_cache = {PTHREAD_MUTEX_INITIALIZER, sizeof(soft_cmdbuf), 0, CACHED, cmdbuf_slots};

/* A block of c->size bytes, 64-byte aligned; NULL when out of memory (or
 * an injected fault: asked as for any allocation). */
static void *block_get(block_cache *c)
{
   if (fault_hit())
      return NULL;
   pthread_mutex_lock(&c->lock);
   void *b = c->n ? c->free[--c->n] : NULL;
   pthread_mutex_unlock(&c->lock);
   return b ? b : aligned_alloc(64, ALIGN_UP(c->size, 64));
}

static void block_put(block_cache *c, void *b)
{
   pthread_mutex_lock(&c->lock);
   bool kept = c->n < c->cap;
   if (kept)
      c->free[c->n++] = b;
   pthread_mutex_unlock(&c->lock);
   if (!kept)
      free(b);
}

soft_cmd *soft_cmdbuf_add_extra(soft_cmdbuf *cb, soft_cmd_kind kind, size_t extra)
{
   if (cb->status != MTL_CMDBUF_NOT_ENQUEUED) {
      LOG_WARN("encoding into a command buffer that was already committed");
      return NULL;
   }
   /* one allocation: the command, then `extra` bytes 64-byte aligned */
   size_t bytes = CMD_HEAD + ALIGN_UP(extra, 64);
   soft_cmd *c = bytes <= CMD_BLOCK ? block_get(&cmd_cache) : fault_hit() ? NULL : aligned_alloc(64, bytes);
   if (c) {
      memset(c, 0, sizeof(*c));
      c->block_bytes = bytes;
      if (extra)
         c->d.bytes = (uint8_t *)c + CMD_HEAD;
   }
   if (!c) {
      soft_cmdbuf_fail(cb, "out of memory encoding a command");
      return NULL;
   }
   c->kind = kind;
   *cb->tail = c;
   cb->tail = &c->next;
   return c;
}

void soft_cmd_free(soft_cmd *c)
{
   if (c->kind == CMD_DISPATCH) {
      for (int i = 0; i < SOFT_MAX_BUFFERS; i++)
         if (c->retained[i])
            soft_buffer_unref(c->retained[i]);
      if (c->d.pipe)
         soft_pipeline_unref(c->d.pipe);   /* d.bytes is part of c's allocation */
   }
   if (c->src)
      soft_buffer_unref(c->src);
   if (c->dst)
      soft_buffer_unref(c->dst);
   if (c->ev)
      soft_event_unref(c->ev);
   if (c->block_bytes <= CMD_BLOCK)
      block_put(&cmd_cache, c);
   else
      free(c);
}

mtl_cmdbuf *soft_cmdbuf_new(mtl_queue *mq, char **err)
{
   soft_cmdbuf *cb = block_get(&cmdbuf_cache);
   if (cb)
      memset(cb, 0, sizeof(*cb));
   if (!cb) {
      mtl_set_err(err, "out of memory creating a command buffer");
      return NULL;
   }
   mtl_device *dev = mq->obj.dev;
   cb->base.obj = (mtl_obj){MTL_MAGIC_CMDBUF, dev};
   cb->enc.obj = (mtl_obj){MTL_MAGIC_ENCODER, dev};
   cb->blit.obj = (mtl_obj){MTL_MAGIC_BLIT, dev};
   cb->q = as_queue(mq);
   cb->refs = 1;
   cb->tail = &cb->head;
   cb->status = MTL_CMDBUF_NOT_ENQUEUED;
   pthread_mutex_init(&cb->lock, NULL);
   pthread_cond_init(&cb->cv, NULL);
   return &cb->base;
}

static void cmdbuf_unref(soft_cmdbuf *cb)
{
   if (--cb->refs > 0)
      return;
   for (soft_cmd *c = cb->head, *n; c; c = n) {
      n = c->next;
      soft_cmd_free(c);
   }
   soft_encoder_reset(&cb->es);
   pthread_mutex_destroy(&cb->lock);
   pthread_cond_destroy(&cb->cv);
   free(cb->handlers);
   free(cb->error);
   cb->base.obj.magic = MTL_MAGIC_DEAD;
   block_put(&cmdbuf_cache, cb);
}

void soft_cmdbuf_release(mtl_cmdbuf *c) { cmdbuf_unref(as_cb(c)); }

void soft_cmdbuf_add_completed_handler(mtl_cmdbuf *c, mtl_completed_fn fn, void *data)
{
   soft_cmdbuf *cb = as_cb(c);
   if (cb->status != MTL_CMDBUF_NOT_ENQUEUED) {
      LOG_WARN("completion handler added after commit: ignored (Metal forbids this)");
      return;
   }
   soft_handler *h = mc_realloc(cb->handlers, (cb->nhandlers + 1) * sizeof(*h));
   if (!h) {
      soft_cmdbuf_fail(cb, "out of memory adding a completion handler");
      return;
   }
   cb->handlers = h;
   h[cb->nhandlers++] = (soft_handler){fn, data};
}

static void encode_event(soft_cmdbuf *cb, soft_cmd_kind kind, mtl_event *e, uint64_t value)
{
   if (cb->es.active || cb->blit_active) {
      soft_cmdbuf_fail(cb, "%s: an encoder is still open (call end first)",
                       kind == CMD_SIGNAL ? "encodeSignalEvent" : "encodeWaitForEvent");
      return;
   }
   soft_cmd *c = soft_cmdbuf_add(cb, kind);
   if (!c)
      return;
   c->ev = (soft_event *)e;
   soft_event_retain(c->ev);
   c->ev_value = value;
}

void soft_cmdbuf_encode_signal_event(mtl_cmdbuf *c, mtl_event *ev, uint64_t value)
{
   encode_event(as_cb(c), CMD_SIGNAL, ev, value);
}

void soft_cmdbuf_encode_wait_event(mtl_cmdbuf *c, mtl_event *ev, uint64_t value)
{
   encode_event(as_cb(c), CMD_WAIT, ev, value);
}

/* ---- command buffers: running ---- */

/* METALCUDA_SOFT_WATCHDOG_MS=N models the GPU watchdog of a Mac (about
 * 5 s of GPU time per MTLCommandBuffer, then MTLCommandBufferErrorTimeout):
 * a submission (batch.c: what an Apple GPU runs as one MTLCommandBuffer)
 * whose dispatches have run longer than N ms fails as a timeout.  A CPU
 * kernel cannot be stopped midway, so the dispatch that crossed the limit
 * runs to its end first; what is modelled is which work fails and the
 * error the runtime then reports (issue 15, finding 11), and so the
 * runtime's splitting of long grids into submissions of their own is
 * tested here.  0 or unset: no watchdog, as a CPU has none. */
static uint64_t watchdog_ns(void)
{
   const char *e = getenv("METALCUDA_SOFT_WATCHDOG_MS");
   return e && atoll(e) > 0 ? (uint64_t)atoll(e) * 1000000ull : 0;
}

/* Runs one command; t0: when the submission started (the watchdog). */
static void run_command(soft_cmdbuf *cb, soft_cmd *c, bool failed, uint64_t t0)
{
   char *err = NULL;
   switch (c->kind) {
   case CMD_DISPATCH: {
      if (failed)
         break;
      uint64_t limit = watchdog_ns();
      if (!soft_run_dispatch(&c->d, &err, &cb->fault_addr)) {
         soft_cmdbuf_fail(cb, "%s", err ? err : "dispatch failed");
         cb->failure = MTL_FAILURE_EXECUTION;
         free(err);
      } else if (limit && time_ns() - t0 > limit) {
         /* Metal's own text for it */
         soft_cmdbuf_fail(cb, "Caused GPU Timeout Error (00000002:kIOGPUCommandBufferCallbackErrorTimeout) "
                          "(the software device's watchdog model: METALCUDA_SOFT_WATCHDOG_MS)");
         cb->failure = MTL_FAILURE_TIMEOUT;
      }
      break;
   }
   case CMD_COPY:
      if (!failed)
         memmove(c->dst->cpu + c->dst_off, c->src->cpu + c->src_off, c->size);
      break;
   case CMD_FILL:
      if (!failed)
         memset(c->dst->cpu + c->dst_off, c->value, c->size);
      break;
   case CMD_SIGNAL:
      soft_event_signal(c->ev, c->ev_value);
      break;
   case CMD_WAIT:
      soft_event_block(c->ev, c->ev_value);
      break;
   }
}

/* Runs a member's commands.  `after`: an earlier member of the submission
 * failed while running, which ends the MTLCommandBuffer: none of this
 * one's work runs (its event signals and waits still do, as on an Apple
 * GPU, where completion gives a failed buffer's signals). */
static void run_member(soft_cmdbuf *cb, const soft_cmdbuf *after, uint64_t t0)
{
   if (after && !cb->error) {
      soft_cmdbuf_fail(cb, "not run: an earlier command buffer of the same submission failed (%s)",
                       after->error ? after->error : "error");
      cb->failure = after->failure;
   }
   pthread_mutex_lock(&cb->lock);
   cb->start_ns = time_ns();
   cb->status = MTL_CMDBUF_SCHEDULED;
   if (cb->error && !cb->failure)
      cb->failure = MTL_FAILURE_ENCODING;
   pthread_mutex_unlock(&cb->lock);
   for (soft_cmd *c = cb->head; c; c = c->next)
      run_command(cb, c, cb->error != NULL, t0);
   pthread_mutex_lock(&cb->lock);
   cb->end_ns = time_ns();
   pthread_mutex_unlock(&cb->lock);
}

/* The members' end, when the whole submission is done (Metal completes an
 * MTLCommandBuffer as a whole): final status, handlers, waiters. */
static void complete_member(soft_cmdbuf *cb)
{
   pthread_mutex_lock(&cb->lock);
   cb->status = cb->error ? MTL_CMDBUF_ERROR : MTL_CMDBUF_COMPLETED;
   pthread_mutex_unlock(&cb->lock);
   for (uint32_t i = 0; i < cb->nhandlers; i++)
      cb->handlers[i].fn(&cb->base, cb->handlers[i].data);
   pthread_mutex_lock(&cb->lock);
   cb->done = true;
   pthread_cond_broadcast(&cb->cv);
   pthread_mutex_unlock(&cb->lock);
}

static soft_cmdbuf *link_cb(mtl_batch_link *l)
{
   return l ? (soft_cmdbuf *)((char *)l - offsetof(soft_cmdbuf, link)) : NULL;
}

static void run_submission(soft_cmdbuf *first)
{
   uint64_t t0 = time_ns();
   const soft_cmdbuf *failed = NULL;
   for (soft_cmdbuf *cb = first; cb; cb = link_cb(cb->link.next)) {
      bool encoding = cb->error != NULL;
      run_member(cb, failed, t0);
      if (!failed && !encoding && cb->error)
         failed = cb;
   }
   for (soft_cmdbuf *cb = first, *n; cb; cb = n) {
      n = link_cb(cb->link.next);
      complete_member(cb);
      cmdbuf_unref(cb);               /* the queue's reference */
   }
}

static void *queue_main(void *arg)
{
   soft_queue *q = arg;
   void *token = soft_thread_enter();
   pthread_mutex_lock(&q->lock);
   for (;;) {
      while (!q->head && !q->stop)
         pthread_cond_wait(&q->cv, &q->lock);
      if (!q->head)
         break;
      soft_cmdbuf *first = q->head;
      q->head = first->sub_next;
      if (!q->head)
         q->tail = NULL;
      uint32_t n = first->sub_n;
      pthread_mutex_unlock(&q->lock);
      run_submission(first);
      mtl_batcher_completed(&q->batch);
      pthread_mutex_lock(&q->lock);
      q->pending -= n;
      pthread_cond_broadcast(&q->cv);
   }
   pthread_mutex_unlock(&q->lock);
   soft_thread_leave(token);
   return NULL;
}

/* batch.c's submit: one submission to the queue's thread. */
static void submit(void *owner, mtl_batch_link *first, uint32_t n)
{
   soft_queue *q = owner;
   soft_cmdbuf *cb = link_cb(first);
   cb->sub_n = n;
   cb->sub_next = NULL;
   pthread_mutex_lock(&q->lock);
   if (q->tail)
      q->tail->sub_next = cb;
   else
      q->head = cb;
   q->tail = cb;
   pthread_cond_broadcast(&q->cv);
   pthread_mutex_unlock(&q->lock);
}

/* What batch.c needs to know of a committed buffer. */
static void describe(soft_cmdbuf *cb)
{
   bool work = false;
   cb->link = (mtl_batch_link){0};
   for (const soft_cmd *c = cb->head; c; c = c->next) {
      if (c->kind == CMD_DISPATCH) {
         const uint32_t *g = c->d.launch.grid;
         cb->link.dispatches++;
         cb->link.groups += (uint64_t)g[0] * g[1] * g[2];
      }
      work |= c->kind == CMD_DISPATCH || c->kind == CMD_COPY || c->kind == CMD_FILL;
      cb->link.cut_before |= c->kind == CMD_WAIT;
   }
   cb->link.cut_before |= !work;
}

void soft_cmdbuf_commit(mtl_cmdbuf *c)
{
   soft_cmdbuf *cb = as_cb(c);
   if (cb->status != MTL_CMDBUF_NOT_ENQUEUED) {
      LOG_WARN("command buffer committed twice: ignored");
      return;
   }
   if (cb->es.active || cb->blit_active)
      soft_cmdbuf_fail(cb, "commit: an encoder is still open (call end first)");
   soft_queue *q = cb->q;
   cb->refs++;
   pthread_mutex_lock(&cb->lock);
   cb->status = MTL_CMDBUF_COMMITTED;
   pthread_mutex_unlock(&cb->lock);
   describe(cb);
   pthread_mutex_lock(&q->lock);
   q->pending++;
   pthread_mutex_unlock(&q->lock);
   mtl_batcher_commit(&q->batch, &cb->link);
}

void soft_cmdbuf_wait_until_completed(mtl_cmdbuf *c)
{
   soft_cmdbuf *cb = as_cb(c);
   pthread_mutex_lock(&cb->lock);
   if (cb->status == MTL_CMDBUF_NOT_ENQUEUED)
      LOG_WARN("waiting on a command buffer that was never committed: returning at once");
   else
      while (!cb->done)
         pthread_cond_wait(&cb->cv, &cb->lock);
   pthread_mutex_unlock(&cb->lock);
}

mtl_cmdbuf_status soft_cmdbuf_get_status(mtl_cmdbuf *c)
{
   soft_cmdbuf *cb = as_cb(c);
   pthread_mutex_lock(&cb->lock);
   mtl_cmdbuf_status s = cb->status;
   pthread_mutex_unlock(&cb->lock);
   return s;
}

uint64_t soft_cmdbuf_fault_address(mtl_cmdbuf *c)
{
   soft_cmdbuf *cb = (soft_cmdbuf *)c;
   /* final once the dispatches ran: completion handlers may ask */
   pthread_mutex_lock(&cb->lock);
   uint64_t a = cb->fault_addr;
   pthread_mutex_unlock(&cb->lock);
   return a;
}

const char *soft_cmdbuf_error(mtl_cmdbuf *c)
{
   soft_cmdbuf *cb = as_cb(c);
   return soft_cmdbuf_get_status(c) == MTL_CMDBUF_ERROR ? cb->error : NULL;
}

mtl_cmdbuf_failure soft_cmdbuf_failure(mtl_cmdbuf *c)
{
   soft_cmdbuf *cb = as_cb(c);
   return soft_cmdbuf_get_status(c) != MTL_CMDBUF_ERROR ? MTL_FAILURE_NONE
        : cb->failure ? cb->failure : MTL_FAILURE_ENCODING;
}

double soft_cmdbuf_gpu_start_time(mtl_cmdbuf *c) { return (double)as_cb(c)->start_ns / 1e9; }
double soft_cmdbuf_gpu_end_time(mtl_cmdbuf *c) { return (double)as_cb(c)->end_ns / 1e9; }

/* ---- queues ---- */

mtl_queue *soft_queue_new(mtl_device *dev, char **err)
{
   soft_queue *q = mc_calloc(1, sizeof(*q));
   if (!q) {
      mtl_set_err(err, "out of memory creating a command queue");
      return NULL;
   }
   if (!soft_pool_acquire(err)) {
      free(q);
      return NULL;
   }
   q->base.obj = (mtl_obj){MTL_MAGIC_QUEUE, dev};
   pthread_mutex_init(&q->lock, NULL);
   pthread_cond_init(&q->cv, NULL);
   mtl_batcher_init(&q->batch, submit, q);
   if (soft_thread_create(&q->thread, queue_main, q)) {
      mtl_set_err(err, "cannot start the command queue's thread");
      mtl_batcher_destroy(&q->batch);
      pthread_mutex_destroy(&q->lock);
      pthread_cond_destroy(&q->cv);
      soft_pool_release();
      free(q);
      return NULL;
   }
   return &q->base;
}

void soft_queue_release(mtl_queue *mq)
{
   soft_queue *q = as_queue(mq);
   mtl_batcher_drain(&q->batch);
   pthread_mutex_lock(&q->lock);
   while (q->pending)
      pthread_cond_wait(&q->cv, &q->lock);
   q->stop = true;
   pthread_cond_broadcast(&q->cv);
   pthread_mutex_unlock(&q->lock);
   pthread_join(q->thread, NULL);
   mtl_batcher_destroy(&q->batch);
   pthread_mutex_destroy(&q->lock);
   pthread_cond_destroy(&q->cv);
   soft_pool_release();
   q->base.obj.magic = MTL_MAGIC_DEAD;
   free(q);
}

void soft_queue_stats(mtl_queue *mq, uint64_t *submissions, uint64_t *cmdbufs)
{
   mtl_batcher_stats(&as_queue(mq)->batch, submissions, cmdbufs);
}
