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
 *
 * apple_buffer_new_at: newBufferWithBytesNoCopy:length:options:deallocator:
 * over the caller's page-aligned memory (the device arena's chunks, whose
 * CPU addresses core/arena.c fixes), with a nil deallocator: the memory
 * stays the caller's; contents is then that memory.
 */
#include "apple.h"

#include <stdlib.h>
#include <unistd.h>

LOG_CHANNEL(apple);

static apple_buffer *as_apple(mtl_buffer *b) { return (apple_buffer *)b; }

static mtl_buffer *buffer_new(mtl_device *dev, void *at, size_t length, char **err)
{
   if (length == 0) {
      mtl_set_err(err, "newBufferWithLength: length must not be zero");
      return NULL;
   }
   size_t page = (size_t)sysconf(_SC_PAGESIZE);
   if (at && ((uintptr_t)at % page || length % page)) {
      mtl_set_err(err, "newBufferWithBytesNoCopy: %p and %zu bytes are not page-aligned", at, length);
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
   NSUInteger options = (NSUInteger)(APPLE_RESOURCE_STORAGE_SHARED | APPLE_RESOURCE_HAZARD_TRACKED);
   if (at)   /* - (id<MTLBuffer>)newBufferWithBytesNoCopy:(void *)pointer length:(NSUInteger)length
              *   options:(MTLResourceOptions)options deallocator:(void (^)(void *, NSUInteger))deallocator */
      b->buf = APPLE_SEND(id (*)(id, SEL, void *, NSUInteger, NSUInteger, id), apple_dev(dev),
                          apple_sel.newBufferWithBytesNoCopy, at, (NSUInteger)length, options, (id)NULL);
   else
      b->buf = APPLE_SEND(id (*)(id, SEL, NSUInteger, NSUInteger), apple_dev(dev),
                          apple_sel.newBufferWithLength_options, (NSUInteger)length, options);
   if (b->buf) {
      b->cpu = APPLE_SEND(void *(*)(id, SEL), b->buf, apple_sel.contents);
      b->gpu = apple_u64(b->buf, apple_sel.gpuAddress);
   }
   apple_pool_pop(pool);
   if (!b->buf) {
      mtl_set_err(err, "%s: Metal could not allocate %zu bytes", at ? "newBufferWithBytesNoCopy" : "newBufferWithLength",
                  length);
      free(b);
      return NULL;
   }
   b->length = length;
   b->base.obj = (mtl_obj){MTL_MAGIC_BUFFER, dev};
   b->in_set = apple_residency_add(dev, b->buf);
   LOG_TRACE("buffer %zu bytes cpu %p gpu %#llx", length, b->cpu, (unsigned long long)b->gpu);
   return &b->base;
}

mtl_buffer *apple_buffer_new(mtl_device *dev, size_t length, char **err) { return buffer_new(dev, NULL, length, err); }

/* gpu_hint: Metal picks gpuAddress itself. */
mtl_buffer *apple_buffer_new_at(mtl_device *dev, void *cpu, size_t length, uint64_t gpu_hint, char **err)
{
   (void)gpu_hint;
   if (!cpu) {
      mtl_set_err(err, "newBufferWithBytesNoCopy: no memory given");
      return NULL;
   }
   return buffer_new(dev, cpu, length, err);
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
