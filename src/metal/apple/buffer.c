/*
 * buffer.c — shared-storage MTLBuffers.
 *
 * Storage mode shared: the CPU (contents) and the GPU (gpuAddress) see the
 * same memory, at different virtual addresses.  Hazard tracking stays on
 * (tracked, Metal's default for buffers): with it Metal orders passes and
 * command buffers that use the same buffer, bound or declared with
 * useResource, which is the serial order mtl.h promises.  Untracked
 * buffers would save CPU time but need fences between every pair of
 * passes; not worth it until measured.
 *
 * contents and gpuAddress never change for a buffer: both are read once.
 */
#include "apple.h"

#include <stdlib.h>

LOG_CHANNEL(apple);

static apple_buffer *as_apple(mtl_buffer *b) { return (apple_buffer *)b; }

mtl_buffer *apple_buffer_new(mtl_device *dev, size_t length, char **err)
{
   if (length == 0) {
      mtl_set_err(err, "newBufferWithLength: length must not be zero");
      return NULL;
   }
   if (length > dev->info.max_buffer_length) {
      mtl_set_err(err, "newBufferWithLength: %zu bytes exceeds maxBufferLength (%llu)", length,
                  (unsigned long long)dev->info.max_buffer_length);
      return NULL;
   }
   apple_buffer *b = fault_hit() ? NULL : mc_calloc(1, sizeof(*b));
   if (!b) {
      mtl_set_err(err, "out of memory allocating a buffer of %zu bytes", length);
      return NULL;
   }
   void *pool = apple_pool_push();
   b->buf = APPLE_SEND(id (*)(id, SEL, NSUInteger, NSUInteger), apple_dev(dev),
                       apple_sel.newBufferWithLength_options, (NSUInteger)length,
                       (NSUInteger)(APPLE_RESOURCE_STORAGE_SHARED | APPLE_RESOURCE_HAZARD_TRACKED));
   if (b->buf) {
      b->cpu = APPLE_SEND(void *(*)(id, SEL), b->buf, apple_sel.contents);
      b->gpu = apple_u64(b->buf, apple_sel.gpuAddress);
   }
   apple_pool_pop(pool);
   if (!b->buf) {
      mtl_set_err(err, "newBufferWithLength: Metal could not allocate %zu bytes", length);
      free(b);
      return NULL;
   }
   b->length = length;
   b->base.obj = (mtl_obj){MTL_MAGIC_BUFFER, dev};
   b->in_set = apple_residency_add(dev, b->buf);
   LOG_TRACE("buffer %zu bytes cpu %p gpu %#llx", length, b->cpu, (unsigned long long)b->gpu);
   return &b->base;
}

void *apple_buffer_contents(mtl_buffer *buf) { return as_apple(buf)->cpu; }
uint64_t apple_buffer_gpu_address(mtl_buffer *buf) { return as_apple(buf)->gpu; }
size_t apple_buffer_length(mtl_buffer *buf) { return as_apple(buf)->length; }

/* Metal has no per-page protection of a buffer's GPU view. */
bool apple_buffer_set_gpu_access(mtl_buffer *buf, uint64_t offset, uint64_t length, bool accessible)
{
   (void)buf, (void)offset, (void)length, (void)accessible;
   return false;
}

/* Commands that use the buffer hold their own retain on the MTLBuffer, so
 * it outlives this release while they need it. */
void apple_buffer_release(mtl_buffer *buf)
{
   apple_buffer *b = as_apple(buf);
   if (b->in_set)
      apple_residency_remove(buf->obj.dev, b->buf);
   apple_release(b->buf);
   b->base.obj.magic = MTL_MAGIC_DEAD;
   free(b);
}
