/*
 * residency.c — buffers made resident through a residency set instead of
 * useResource: on every dispatch (issue 15, finding 10; opt-in).
 *
 * macOS 15's MTLResidencySet holds allocations that a command queue keeps
 * resident for every command buffer it runs ([queue addResidencySet:]),
 * so a dispatch need not declare the arena with useResource:.  With
 * METALCUDA_RESIDENCY_SET=1, and where the device answers
 * newResidencySetWithDescriptor:error: (asked at run time, never of the OS
 * version), each device gets one set: every buffer is added when made
 * (addAllocation:, commit, requestResidency) and removed when released,
 * every queue adds the set, and the encoder records no useResource: for a
 * buffer in it.  Elsewhere, or when anything fails (logged once), buffers
 * are declared with useResource: as before.
 *
 * Opt-in until a Mac has run it (docs/mac-checklist.md): a buffer not
 * resident when a kernel reaches it by raw GPU address is a GPU fault.  It
 * saves encoding work per dispatch; it does not reduce what is wired while
 * device memory is one buffer (README.md, "Device memory").
 */
#include "apple.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(apple);

enum { MAX_SETS = 16 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
   mtl_device *dev;
   id set;                      /* id<MTLResidencySet>, owned; NULL: none (tried) */
} sets[MAX_SETS];

static bool wanted(void)
{
   const char *e = getenv("METALCUDA_RESIDENCY_SET");
   return e && !strcmp(e, "1");
}

/* The device's set, made on first use (lock held); NULL: useResource:. */
static id set_locked(mtl_device *dev)
{
   int free_slot = -1;
   for (int i = 0; i < MAX_SETS; i++) {
      if (sets[i].dev == dev)
         return sets[i].set;
      if (!sets[i].dev && free_slot < 0)
         free_slot = i;
   }
   if (free_slot < 0)
      return NULL;
   sets[free_slot].dev = dev;   /* tried once, whatever the outcome */
   id d = apple_dev(dev), cls = (id)objc_getClass("MTLResidencySetDescriptor");
   if (!cls || !apple_responds(d, apple_sel.newResidencySetWithDescriptor_error)) {
      LOG_INFO("%s: no residency sets (before macOS 15): buffers declared with useResource:", dev->info.name);
      return NULL;
   }
   void *pool = apple_pool_push();
   id desc = apple_id(apple_id(cls, apple_sel.alloc), apple_sel.init);
   id error = NULL, set = NULL;
   if (desc) {
      APPLE_SEND(void (*)(id, SEL, NSUInteger), desc, apple_sel.setInitialCapacity, (NSUInteger)16);
      set = APPLE_SEND(id (*)(id, SEL, id, id *), d, apple_sel.newResidencySetWithDescriptor_error, desc, &error);
      apple_release(desc);
   }
   if (!set) {
      char *text = apple_error_text(error, "no set returned");
      LOG_WARN("%s: newResidencySetWithDescriptor: %s; buffers declared with useResource:", dev->info.name,
               text ? text : "failed");
      free(text);
   }
   apple_pool_pop(pool);
   sets[free_slot].set = set;
   return set;
}

void apple_residency_queue(mtl_device *dev, id queue)
{
   if (!wanted())
      return;
   pthread_mutex_lock(&lock);
   id set = set_locked(dev);
   if (set)
      apple_void_id(queue, apple_sel.addResidencySet, set);
   pthread_mutex_unlock(&lock);
}

bool apple_residency_add(mtl_device *dev, id buf)
{
   if (!wanted())
      return false;
   pthread_mutex_lock(&lock);
   id set = set_locked(dev);
   if (set) {
      apple_void_id(set, apple_sel.addAllocation, buf);
      apple_void(set, apple_sel.commit);
      apple_void(set, apple_sel.requestResidency);
   }
   pthread_mutex_unlock(&lock);
   return set != NULL;
}

void apple_residency_remove(mtl_device *dev, id buf)
{
   pthread_mutex_lock(&lock);
   id set = set_locked(dev);
   if (set) {
      apple_void_id(set, apple_sel.removeAllocation, buf);
      apple_void(set, apple_sel.commit);
   }
   pthread_mutex_unlock(&lock);
}
