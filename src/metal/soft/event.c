/*
 * event.c — shared events (MTLSharedEvent): a 64-bit counter that command
 * buffers signal and wait on, and the host reads, sets and waits on.
 * Timed waits measure CLOCK_MONOTONIC so a wall-clock change cannot stretch
 * them: on Linux the condition variable waits for a CLOCK_MONOTONIC
 * deadline (pthread_condattr_setclock); macOS has no such attribute (its
 * condition variables take CLOCK_REALTIME deadlines only), so there each
 * wait is relative (pthread_cond_timedwait_relative_np), re-armed with
 * what is left of the monotonic deadline after every wake-up.
 */
#include "soft.h"

#include <stdlib.h>
#include <time.h>

static soft_event *as_soft(mtl_event *e) { return (soft_event *)e; }

mtl_event *soft_event_new(mtl_device *dev, char **err)
{
   soft_event *ev = mc_calloc(1, sizeof(*ev));
   if (!ev) {
      mtl_set_err(err, "out of memory creating an event");
      return NULL;
   }
#if defined(__APPLE__)
   pthread_cond_init(&ev->cv, NULL);
#else
   pthread_condattr_t ca;
   pthread_condattr_init(&ca);
   pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
   pthread_cond_init(&ev->cv, &ca);
   pthread_condattr_destroy(&ca);
#endif
   pthread_mutex_init(&ev->lock, NULL);
   ev->refs = 1;
   ev->base.obj = (mtl_obj){MTL_MAGIC_EVENT, dev};
   return &ev->base;
}

void soft_event_retain(soft_event *ev) { ev->refs++; }

void soft_event_unref(soft_event *ev)
{
   if (--ev->refs > 0)
      return;
   pthread_cond_destroy(&ev->cv);
   pthread_mutex_destroy(&ev->lock);
   ev->base.obj.magic = MTL_MAGIC_DEAD;
   free(ev);
}

void soft_event_release(mtl_event *e) { soft_event_unref(as_soft(e)); }

uint64_t soft_event_signaled_value(mtl_event *e)
{
   soft_event *ev = as_soft(e);
   pthread_mutex_lock(&ev->lock);
   uint64_t v = ev->value;
   pthread_mutex_unlock(&ev->lock);
   return v;
}

void soft_event_signal(soft_event *ev, uint64_t value)
{
   pthread_mutex_lock(&ev->lock);
   ev->value = value;
   pthread_cond_broadcast(&ev->cv);
   pthread_mutex_unlock(&ev->lock);
}

void soft_event_set_signaled_value(mtl_event *e, uint64_t value) { soft_event_signal(as_soft(e), value); }

void soft_event_block(soft_event *ev, uint64_t value)
{
   pthread_mutex_lock(&ev->lock);
   while (ev->value < value)
      pthread_cond_wait(&ev->cv, &ev->lock);
   pthread_mutex_unlock(&ev->lock);
}

bool soft_event_wait(mtl_event *e, uint64_t value, uint64_t timeout_ms)
{
   soft_event *ev = as_soft(e);
   uint64_t now = time_ns(), span = timeout_ms * 1000000ull;
   /* a timeout too long to count in nanoseconds: forever */
   uint64_t deadline = timeout_ms > UINT64_MAX / 1000000ull || span > UINT64_MAX - now ? UINT64_MAX
                                                                                       : now + span;
   pthread_mutex_lock(&ev->lock);
   while (ev->value < value && (now = time_ns()) < deadline) {
      uint64_t target = deadline == UINT64_MAX ? now + 3600ull * 1000000000ull : deadline;
#if defined(__APPLE__)
      uint64_t left = target - now;
      struct timespec rel = {(time_t)(left / 1000000000ull), (long)(left % 1000000000ull)};
      pthread_cond_timedwait_relative_np(&ev->cv, &ev->lock, &rel);
#else
      struct timespec abs = {(time_t)(target / 1000000000ull), (long)(target % 1000000000ull)};
      pthread_cond_timedwait(&ev->cv, &ev->lock, &abs);
#endif
   }
   bool reached = ev->value >= value;
   pthread_mutex_unlock(&ev->lock);
   return reached;
}
