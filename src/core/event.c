/*
 * event.c — events: a recorded position in a stream.
 *
 * A record commits a marker buffer on the stream (so it runs after the
 * stream's earlier work, queue order) which signals a shared event of its
 * own; its completion handler stores the buffer's GPU start time: the
 * moment the device reached the marker, all earlier work done.  Not the end
 * time: that is stamped after the marker's signal, so a stream waiting on
 * the signal could stamp its own later marker first and an elapsed time
 * across the two streams would come out negative.  The
 * record's state is a mark, shared by the event and the handler (counted
 * references), so destroying an event or recording it again while a marker
 * is pending is safe.
 *
 * - query/synchronize look at the last mark (never recorded: complete);
 * - elapsed time is the difference of two marks' times, which the device
 *   (the soft queue thread, or the GPU) stamps when it reaches them;
 * - cuStreamWaitEvent encodes a wait for the mark's shared event into the
 *   waiting stream: a fresh shared event per record keeps later records
 *   from satisfying (or regressing) earlier waits.
 */
#include "core.h"

#include <stdlib.h>

LOG_CHANNEL(event);

struct core_event_mark {
   pthread_mutex_t lock;
   pthread_cond_t cv;
   bool done;
   double time;                  /* seconds, the device's clock: marker reached */
   uint32_t refs;                /* the event + the pending handler (lock) */
   mtl_event *signal;            /* set to 1 by the marker buffer */
};

bool core_check_event(const core_event *e) { return e && e->magic == CORE_MAGIC_EVENT; }

static void mark_unref(core_event_mark *m)
{
   pthread_mutex_lock(&m->lock);
   bool last = --m->refs == 0;
   pthread_mutex_unlock(&m->lock);
   if (!last)
      return;
   mtl_event_release(m->signal);
   pthread_cond_destroy(&m->cv);
   pthread_mutex_destroy(&m->lock);
   free(m);
}

static void mark_reached(mtl_cmdbuf *cb, void *data)
{
   core_event_mark *m = data;
   pthread_mutex_lock(&m->lock);
   m->time = mtl_cmdbuf_gpu_start_time(cb);
   m->done = true;
   pthread_cond_broadcast(&m->cv);
   pthread_mutex_unlock(&m->lock);
   mark_unref(m);
}

/* Reached: the marker's signal ran.  Its handler (which stamps the time)
 * may not have run yet: a stream waiting on the signal can already be
 * further on, so queries look at the signal, not at the handler. */
static bool mark_done(core_event_mark *m) { return mtl_event_signaled_value(m->signal) >= 1; }

/* Waits for the marker's handler (the time is known after it). */
static void mark_wait(core_event_mark *m)
{
   pthread_mutex_lock(&m->lock);
   while (!m->done)
      pthread_cond_wait(&m->cv, &m->lock);
   pthread_mutex_unlock(&m->lock);
}

int core_event_create(core_ctx *c, unsigned flags, core_event **out)
{
   core_event *e = mc_calloc(1, sizeof(*e));
   if (!e)
      return CORE_ERROR_OUT_OF_MEMORY;
   e->magic = CORE_MAGIC_EVENT;
   e->ctx = c;
   e->flags = flags;
   pthread_mutex_init(&e->lock, NULL);
   pthread_mutex_lock(&c->streams_lock);
   e->next = c->events;
   if (c->events)
      c->events->prev = e;
   c->events = e;
   pthread_mutex_unlock(&c->streams_lock);
   *out = e;
   return CORE_SUCCESS;
}

static void event_free(core_event *e)
{
   e->magic = CORE_MAGIC_DEAD;
   if (e->mark)
      mark_unref(e->mark);      /* a pending marker keeps its own reference */
   pthread_mutex_destroy(&e->lock);
   free(e);
}

void core_event_destroy(core_event *e)
{
   core_ctx *c = e->ctx;
   core_capture_forget_event(e);
   pthread_mutex_lock(&c->streams_lock);
   if (e->prev)
      e->prev->next = e->next;
   else
      c->events = e->next;
   if (e->next)
      e->next->prev = e->prev;
   pthread_mutex_unlock(&c->streams_lock);
   event_free(e);
}

void core_events_destroy_all(core_ctx *c)
{
   pthread_mutex_lock(&c->streams_lock);
   core_event *all = c->events;
   c->events = NULL;
   pthread_mutex_unlock(&c->streams_lock);
   while (all) {
      core_event *n = all->next;
      event_free(all);
      all = n;
   }
}

static int mark_new(core_ctx *c, core_event_mark **out)
{
   core_event_mark *m = mc_calloc(1, sizeof(*m));
   if (!m)
      return CORE_ERROR_OUT_OF_MEMORY;
   char *err = NULL;
   m->signal = mtl_event_new(core_device_mtl(c->dev), &err);
   if (!m->signal) {
      LOG_ERR("cannot create a shared event: %s", err ? err : "out of memory");
      free(err);
      free(m);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   pthread_mutex_init(&m->lock, NULL);
   pthread_cond_init(&m->cv, NULL);
   m->refs = 2;                 /* the event and the marker's handler */
   *out = m;
   return CORE_SUCCESS;
}

int core_event_record(core_event *e, core_stream *s)
{
   if (s->cap || e->cap)   /* a fork point of a capture, or leaving one (capture.c) */
      return core_capture_event_record(e, s);
   if (s->is_null) {
      int r = core_capture_legacy(s->ctx);
      if (r != CORE_SUCCESS)
         return r;
   }
   core_event_mark *m;
   int r = mark_new(e->ctx, &m);
   if (r != CORE_SUCCESS)
      return r;
   char *err = NULL;
   mtl_cmdbuf *cb = mtl_cmdbuf_new(s->queue, &err);
   if (!cb) {
      LOG_ERR("cannot create a command buffer: %s", err ? err : "out of memory");
      free(err);
      m->refs = 1;
      mark_unref(m);
      return CORE_ERROR_OUT_OF_MEMORY;
   }
   mtl_cmdbuf_encode_signal_event(cb, m->signal, 1);
   mtl_cmdbuf_add_completed_handler(cb, mark_reached, m);
   pthread_mutex_lock(&e->lock);
   core_event_mark *old = e->mark;
   e->mark = m;
   core_stream_commit(s, cb, NULL);   /* under e->lock: records of one event stay in call order */
   pthread_mutex_unlock(&e->lock);
   if (old)
      mark_unref(old);
   return CORE_SUCCESS;
}

int core_event_query(core_event *e)
{
   pthread_mutex_lock(&e->lock);
   bool done = !e->mark || mark_done(e->mark);
   pthread_mutex_unlock(&e->lock);
   return done ? CORE_SUCCESS : CORE_ERROR_NOT_READY;
}

int core_event_synchronize(core_event *e)
{
   pthread_mutex_lock(&e->lock);
   core_event_mark *m = e->mark;
   if (m) {
      pthread_mutex_lock(&m->lock);
      m->refs++;
      pthread_mutex_unlock(&m->lock);
   }
   pthread_mutex_unlock(&e->lock);
   if (!m)
      return CORE_SUCCESS;
   mark_wait(m);
   mark_unref(m);
   core_printf_flush_idle(e->ctx);   /* device printf output appears at synchronisation */
   return core_ctx_error(e->ctx);
}

/* The time of e's last record: CORE_ERROR_INVALID_HANDLE if never
 * recorded or timing is disabled, NOT_READY if pending. */
static int mark_time(core_event *e, double *t)
{
   if (e->flags & CORE_EVENT_DISABLE_TIMING)
      return CORE_ERROR_INVALID_HANDLE;
   pthread_mutex_lock(&e->lock);
   int r = CORE_ERROR_INVALID_HANDLE;
   if (e->mark) {
      r = CORE_ERROR_NOT_READY;
      if (mark_done(e->mark)) {     /* the handler's stamp is imminent */
         mark_wait(e->mark);
         *t = e->mark->time;
         r = CORE_SUCCESS;
      }
   }
   pthread_mutex_unlock(&e->lock);
   return r;
}

int core_event_elapsed(core_event *a, core_event *b, float *ms)
{
   double ta = 0, tb = 0;
   int r = mark_time(a, &ta);
   int rb = mark_time(b, &tb);
   /* an unusable handle outranks a pending one */
   if (r == CORE_SUCCESS || (r == CORE_ERROR_NOT_READY && rb == CORE_ERROR_INVALID_HANDLE))
      r = rb;
   if (r != CORE_SUCCESS)
      return r;
   *ms = (float)((tb - ta) * 1e3);
   return CORE_SUCCESS;
}

bool core_event_pending_signal(core_event *e, mtl_event **ev, uint64_t *value)
{
   if (!e->mark || mark_done(e->mark))
      return false;
   *ev = e->mark->signal;
   *value = 1;
   return true;
}
