/*
 * event.c — shared events (MTLSharedEvent): a 64-bit counter that command
 * buffers signal and wait on, and the host reads, sets and waits on.
 *
 * Host waits use waitUntilSignaledValue:timeoutMS: where Metal has it
 * (macOS 14); before, they poll signaledValue, sleeping between looks
 * from 20 µs up to 1 ms, which bounds the added latency without spinning
 * a core.  (notifyListener:atValue:block: would wake exactly, but needs an
 * MTLSharedEventListener and a block that can outlive a timed-out wait.)
 */
#include "apple.h"

#include <stdlib.h>
#include <time.h>

static apple_event *as_apple(mtl_event *e) { return (apple_event *)e; }

mtl_event *apple_event_new(mtl_device *dev, char **err)
{
   apple_event *ev = mc_calloc(1, sizeof(*ev));
   if (!ev) {
      mtl_set_err(err, "out of memory creating an event");
      return NULL;
   }
   void *pool = apple_pool_push();
   ev->ev = apple_id(apple_dev(dev), apple_sel.newSharedEvent);
   apple_pool_pop(pool);
   if (!ev->ev) {
      mtl_set_err(err, "newSharedEvent: Metal returned no event");
      free(ev);
      return NULL;
   }
   ev->base.obj = (mtl_obj){MTL_MAGIC_EVENT, dev};
   return &ev->base;
}

/* Commands that signal or wait on the event retain the MTLSharedEvent. */
void apple_event_release(mtl_event *e)
{
   apple_event *ev = as_apple(e);
   apple_release(ev->ev);
   ev->base.obj.magic = MTL_MAGIC_DEAD;
   free(ev);
}

uint64_t apple_event_signaled_value(mtl_event *e)
{
   return apple_u64(as_apple(e)->ev, apple_sel.signaledValue);
}

void apple_event_set_signaled_value(mtl_event *e, uint64_t value)
{
   APPLE_SEND(void (*)(id, SEL, uint64_t), as_apple(e)->ev, apple_sel.setSignaledValue, value);
}

static bool poll_wait(id ev, uint64_t value, uint64_t timeout_ms)
{
   uint64_t now = time_ns(), span = timeout_ms * 1000000ull;
   uint64_t deadline = timeout_ms > UINT64_MAX / 1000000ull || span > UINT64_MAX - now
                          ? UINT64_MAX : now + span;    /* a huge timeout: forever */
   long pause_ns = 20000;
   for (;;) {
      if (apple_u64(ev, apple_sel.signaledValue) >= value)
         return true;
      if (time_ns() >= deadline)
         return false;
      struct timespec ts = {0, pause_ns};
      nanosleep(&ts, NULL);
      pause_ns = pause_ns < 1000000 ? pause_ns * 2 : 1000000;
   }
}

bool apple_event_wait(mtl_event *e, uint64_t value, uint64_t timeout_ms)
{
   id ev = as_apple(e)->ev;
   if (apple_u64(ev, apple_sel.signaledValue) >= value)
      return true;
   if (!apple_responds(ev, apple_sel.waitUntilSignaledValue))
      return poll_wait(ev, value, timeout_ms);
   return APPLE_SEND(BOOL (*)(id, SEL, uint64_t, uint64_t), ev, apple_sel.waitUntilSignaledValue,
                     value, timeout_ms);
}
