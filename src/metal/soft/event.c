/*
 * event.c — shared events (MTLSharedEvent): a 64-bit counter that command
 * buffers signal and wait on, and the host reads, sets and waits on.
 * Waits use CLOCK_MONOTONIC so a wall-clock change cannot stretch them.
 */
#include "soft.h"

#include <errno.h>
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
   pthread_condattr_t ca;
   pthread_condattr_init(&ca);
   pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
   pthread_cond_init(&ev->cv, &ca);
   pthread_condattr_destroy(&ca);
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
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   ts.tv_sec += (time_t)(timeout_ms / 1000);
   ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
   if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
   }
   pthread_mutex_lock(&ev->lock);
   int rc = 0;
   while (ev->value < value && rc != ETIMEDOUT)
      rc = pthread_cond_timedwait(&ev->cv, &ev->lock, &ts);
   bool reached = ev->value >= value;
   pthread_mutex_unlock(&ev->lock);
   return reached;
}
