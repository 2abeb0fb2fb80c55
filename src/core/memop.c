/*
 * memop.c — stream memory operations: cuStreamWaitValue32/64 and
 * cuStreamWriteValue32/64 (and cuStreamBatchMemOp, made of them).
 *
 * A batch (cuStreamBatchMemOp, a batch memory-operation node of a graph)
 * is its operations one after another.  A write is a host function on the stream (stream.c): it stores the
 * value once the stream's earlier work has completed, which is also the
 * memory barrier CUDA's default write gives.
 *
 * A wait must hold back only the stream's later work: the host thread
 * that queued it goes on, and the value may be written by the host or by
 * another stream's work queued after it.  It is a gated host function
 * (core_stream_host_gate): once the stream's earlier work is done, a
 * completion handler checks the condition; if it does not hold yet, the
 * wait goes to a poller thread (one for the process, started on first
 * use) that reads the value until it does and then opens the gate.  No
 * completion handler or queue thread ever blocks on the value, so other
 * streams, and the host functions that may write it, keep running.
 *
 * CUDA addresses are CPU addresses (arena.c), so the host reads and
 * writes the value directly; kernels see it through the shared memory.
 */
#include "core.h"

#include <stdlib.h>
#include <time.h>

LOG_CHANNEL(stream);

typedef struct memop_wait {
   uint64_t addr, value;
   uint32_t bytes;
   int cond;                    /* CORE_WAIT_* */
   mtl_event *gate;             /* our reference; signalled with 1 when the condition holds */
   struct memop_wait *next;
} memop_wait;

static pthread_mutex_t poll_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t poll_cv = PTHREAD_COND_INITIALIZER;
static memop_wait *polled;       /* waits whose condition did not hold yet (poll_lock) */
static bool poller_started;      /* poll_lock */

/* The condition, on the value as the host sees it now (CUDA's
 * definitions: GEQ is a cyclic comparison, NOR is ~(*addr | value) != 0). */
static bool condition_holds(const memop_wait *w)
{
   if (w->bytes == 4) {
      uint32_t v = __atomic_load_n((const uint32_t *)(uintptr_t)w->addr, __ATOMIC_ACQUIRE), x = (uint32_t)w->value;
      switch (w->cond) {
      case CORE_WAIT_GEQ: return (int32_t)(v - x) >= 0;
      case CORE_WAIT_EQ: return v == x;
      case CORE_WAIT_AND: return (v & x) != 0;
      default: return ~(v | x) != 0;
      }
   }
   uint64_t v = __atomic_load_n((const uint64_t *)(uintptr_t)w->addr, __ATOMIC_ACQUIRE), x = w->value;
   switch (w->cond) {
   case CORE_WAIT_GEQ: return (int64_t)(v - x) >= 0;
   case CORE_WAIT_EQ: return v == x;
   case CORE_WAIT_AND: return (v & x) != 0;
   default: return ~(v | x) != 0;
   }
}

static void open_gate(memop_wait *w)
{
   mtl_event_set_signaled_value(w->gate, 1);
   mtl_event_release(w->gate);
   free(w);
}

/* Unlinks the waits whose condition holds (poll_lock held). */
static memop_wait *take_satisfied(void)
{
   memop_wait *done = NULL;
   for (memop_wait **p = &polled; *p;) {
      memop_wait *w = *p;
      if (condition_holds(w)) {
         *p = w->next;
         w->next = done;
         done = w;
      } else {
         p = &w->next;
      }
   }
   return done;
}

/* Sleeps between rounds from 20 us up to 1 ms while nothing changes: a
 * prompt answer to a value written soon, little CPU for a long wait. */
static void *poller(void *arg)
{
   (void)arg;
   long pause_ns = 20000;
   pthread_mutex_lock(&poll_lock);
   for (;;) {
      while (!polled) {
         pthread_cond_wait(&poll_cv, &poll_lock);
         pause_ns = 20000;
      }
      memop_wait *done = take_satisfied();
      bool more = polled != NULL;
      pthread_mutex_unlock(&poll_lock);
      while (done) {
         memop_wait *n = done->next;
         open_gate(done);
         done = n;
         pause_ns = 20000;
      }
      if (more) {
         struct timespec ts = { 0, pause_ns };
         nanosleep(&ts, NULL);
         if (pause_ns < 1000000)
            pause_ns *= 2;
      }
      pthread_mutex_lock(&poll_lock);
   }
   return NULL;
}

static bool start_poller(void)
{
   if (poller_started)
      return true;
   poller_started = core_start_thread(poller);
   return poller_started;
}

/* The stream's earlier work is done: the gate opens now, or once the
 * poller sees the condition hold.  After a sticky error nothing waits
 * (the context's work fails anyway; a wait would only hang it). */
static void begin_wait(void *data, int status)
{
   memop_wait *w = data;
   if (status != CORE_SUCCESS || condition_holds(w)) {
      open_gate(w);
      return;
   }
   pthread_mutex_lock(&poll_lock);
   if (!start_poller()) {
      pthread_mutex_unlock(&poll_lock);
      LOG_ERR("cannot start the thread that polls cuStreamWaitValue's values: the wait is dropped");
      open_gate(w);
      return;
   }
   w->next = polled;
   polled = w;
   pthread_cond_signal(&poll_cv);
   pthread_mutex_unlock(&poll_lock);
}

/* The value must lie in memory both sides reach: device, page-locked or
 * managed memory, or registered host memory. */
static bool reachable(core_ctx *c, uint64_t addr, uint32_t bytes)
{
   uint64_t base, size;
   uint32_t flags;
   return core_mem_lookup(c->dev, addr, bytes, &base, &size) ||
          (core_host_lookup(addr, &base, &size, &flags) && addr + bytes <= base + size);
}

int core_stream_wait_value(core_stream *s, uint64_t addr, uint64_t value, uint32_t bytes, int cond)
{
   if (!reachable(s->ctx, addr, bytes))
      return CORE_ERROR_INVALID_VALUE;
   memop_wait *w = mc_calloc(1, sizeof(*w));
   if (!w)
      return CORE_ERROR_OUT_OF_MEMORY;
   char *err = NULL;
   *w = (memop_wait){ addr, value, bytes, cond, mtl_event_new(core_device_mtl(s->ctx->dev), &err), NULL };
   if (!w->gate) {
      LOG_ERR("cannot queue a stream wait: %s", err ? err : "out of memory");
      free(err);
      free(w);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   int r = core_stream_host_gate(s, begin_wait, w, w->gate);
   if (r != CORE_SUCCESS) {
      mtl_event_release(w->gate);
      free(w);
   }
   return r;
}

typedef struct memop_write {
   uint64_t addr, value;
   uint32_t bytes;
} memop_write;

static void do_write(void *data, int status)
{
   (void)status;   /* written even after an error: a wait on it must not hang */
   memop_write *m = data;
   if (m->bytes == 4)
      __atomic_store_n((uint32_t *)(uintptr_t)m->addr, (uint32_t)m->value, __ATOMIC_RELEASE);
   else
      __atomic_store_n((uint64_t *)(uintptr_t)m->addr, m->value, __ATOMIC_RELEASE);
   free(m);
}

int core_stream_write_value(core_stream *s, uint64_t addr, uint64_t value, uint32_t bytes)
{
   if (!reachable(s->ctx, addr, bytes))
      return CORE_ERROR_INVALID_VALUE;
   memop_write *m = mc_malloc(sizeof(*m));
   if (!m)
      return CORE_ERROR_OUT_OF_MEMORY;
   *m = (memop_write){ addr, value, bytes };
   int r = core_stream_host_fn(s, do_write, m);
   if (r != CORE_SUCCESS)
      free(m);
   return r;
}

int core_stream_memops(core_stream *s, const core_memop *ops, uint32_t n)
{
   int r = CORE_SUCCESS;
   for (uint32_t i = 0; i < n && r == CORE_SUCCESS; i++) {
      const core_memop *m = &ops[i];
      if (m->kind == CORE_MEMOP_WAIT)
         r = core_stream_wait_value(s, m->addr, m->value, m->bytes, m->cond);
      else if (m->kind == CORE_MEMOP_WRITE)
         r = core_stream_write_value(s, m->addr, m->value, m->bytes);
      /* a barrier: each operation already follows the stream's earlier work */
   }
   return r;
}
