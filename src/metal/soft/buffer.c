/*
 * buffer.c — shared-storage buffers, mapped twice.
 *
 * Each buffer is one memory object (memfd) mapped at two virtual
 * addresses: contents() is the CPU view, gpu_address() the GPU view, as on
 * Apple GPUs where MTLBuffer.contents and MTLBuffer.gpuAddress differ.  A
 * write through either view is visible through the other (same pages), and
 * code that confuses the two (a translator that forgets the CPU→GPU delta)
 * touches the wrong address instead of passing by luck.  Mappings are
 * MAP_NORESERVE and the memfd is sparse, so a buffer of tens of GB costs
 * only the pages that are touched.
 *
 * mtl_buffer_new_at (the device arena's chunks): the CPU view is mapped
 * MAP_FIXED over the caller's page-aligned range, the GPU view MAP_FIXED at
 * the caller's gpu_hint (the arena gives every chunk the same delta, so
 * kernels compiled with __MC_SOFT_ONE_DELTA add one delta and vectorise),
 * or with METALCUDA_SOFT_SCATTER wherever the kernel puts it, each buffer
 * then with its own delta (what an Apple GPU may do: the slot table is
 * exercised).  On release an inaccessible anonymous reservation goes back
 * over each borrowed range, which stays the caller's.
 *
 * Live buffers are kept in a registry (address ranges of the GPU view) for
 * validation of raw GPU addresses.
 */
#include "soft.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

LOG_CHANNEL(soft);

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static soft_buffer *registry;
static uint32_t live_count;

static soft_buffer *as_soft(mtl_buffer *b) { return (soft_buffer *)b; }

/* An anonymous memory object of len bytes; -1 on failure. */
static int memory_object(size_t len)
{
#if defined(__linux__)
   int fd = memfd_create("metalcuda-buffer", MFD_CLOEXEC);
#else
   char name[64];
   static _Atomic unsigned seq;
   snprintf(name, sizeof(name), "/metalcuda-%d-%u", (int)getpid(), seq++);
   int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
   if (fd >= 0)
      shm_unlink(name);
#endif
   if (fd < 0)
      return -1;
   if (ftruncate(fd, (off_t)len) != 0) {
      close(fd);
      return -1;
   }
   return fd;
}

#ifdef MAP_NORESERVE
#define SOFT_NORESERVE MAP_NORESERVE
#else
#define SOFT_NORESERVE 0
#endif

/* An inaccessible reservation back over a borrowed CPU range. */
static void unborrow(void *cpu, size_t len)
{
   (void)mmap(cpu, len, PROT_NONE, MAP_PRIVATE | MAP_ANON | MAP_FIXED | SOFT_NORESERVE, -1, 0);
}

/* at, gpu_at: the views' addresses (MAP_FIXED over the caller's ranges),
 * or NULL. */
static bool map_twice(soft_buffer *b, void *at, void *gpu_at)
{
   int fd = memory_object(b->map_length);
   if (fd < 0)
      return false;
   int flags = MAP_SHARED | SOFT_NORESERVE;
   void *cpu = mmap(at, b->map_length, PROT_READ | PROT_WRITE, flags | (at ? MAP_FIXED : 0), fd, 0);
   void *gpu = cpu == MAP_FAILED ? MAP_FAILED
                                 : mmap(gpu_at, b->map_length, PROT_READ | PROT_WRITE,
                                        flags | (gpu_at ? MAP_FIXED : 0), fd, 0);
   close(fd);
   if (gpu == MAP_FAILED) {
      if (cpu != MAP_FAILED) {
         if (at)
            unborrow(cpu, b->map_length);
         else
            munmap(cpu, b->map_length);
      }
      return false;
   }
   b->cpu = cpu;
   b->gpu = gpu;
   return true;
}

static mtl_buffer *buffer_new(mtl_device *dev, void *at, void *gpu_at, size_t length, char **err)
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
   soft_buffer *b = fault_hit() ? NULL : mc_calloc(1, sizeof(*b));
   if (!b) {
      mtl_set_err(err, "out of memory allocating a buffer of %zu bytes", length);
      return NULL;
   }
   size_t page = (size_t)sysconf(_SC_PAGESIZE);
   b->length = length;
   b->map_length = (length + page - 1) / page * page;
   if (at && ((uintptr_t)at % page || (uintptr_t)gpu_at % page || length % page)) {
      mtl_set_err(err, "newBufferWithBytesNoCopy: %p and %zu bytes are not page-aligned", at, length);
      free(b);
      return NULL;
   }
   b->borrowed = at != NULL;
   b->gpu_borrowed = gpu_at != NULL;
   if (!map_twice(b, at, gpu_at)) {
      mtl_set_err(err, "cannot map a buffer of %zu bytes: %s", length, strerror(errno));
      free(b);
      return NULL;
   }
   b->base.obj = (mtl_obj){MTL_MAGIC_BUFFER, dev};
   b->refs = 1;
   pthread_mutex_lock(&registry_lock);
   b->next = registry;
   if (registry)
      registry->prev = b;
   registry = b;
   live_count++;
   pthread_mutex_unlock(&registry_lock);
   LOG_TRACE("buffer %zu bytes cpu %p gpu %p", length, (void *)b->cpu, (void *)b->gpu);
   return &b->base;
}

mtl_buffer *soft_buffer_new(mtl_device *dev, size_t length, char **err)
{
   return buffer_new(dev, NULL, NULL, length, err);
}

mtl_buffer *soft_buffer_new_at(mtl_device *dev, void *cpu, size_t length, uint64_t gpu_hint, char **err)
{
   if (!cpu) {
      mtl_set_err(err, "newBufferWithBytesNoCopy: no memory given");
      return NULL;
   }
   return buffer_new(dev, cpu, soft_scatter() ? NULL : (void *)(uintptr_t)gpu_hint, length, err);
}

void *soft_buffer_contents(mtl_buffer *buf) { return as_soft(buf)->cpu; }

/* Only the GPU view: the host keeps reaching every byte through contents(). */
bool soft_buffer_set_gpu_access(mtl_buffer *buf, uint64_t offset, uint64_t length, bool accessible)
{
   soft_buffer *b = as_soft(buf);
   uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
   if (offset % page || length % page)
      return false;
   return length == 0 || mprotect(b->gpu + offset, length, accessible ? PROT_READ | PROT_WRITE : PROT_NONE) == 0;
}
uint64_t soft_buffer_gpu_address(mtl_buffer *buf) { return (uint64_t)(uintptr_t)as_soft(buf)->gpu; }
size_t soft_buffer_length(mtl_buffer *buf) { return as_soft(buf)->length; }

void soft_buffer_retain(soft_buffer *b) { b->refs++; }

void soft_buffer_release(mtl_buffer *buf) { soft_buffer_unref(as_soft(buf)); }

void soft_buffer_unref(soft_buffer *b)
{
   if (--b->refs > 0)
      return;
   pthread_mutex_lock(&registry_lock);
   if (b->prev)
      b->prev->next = b->next;
   else
      registry = b->next;
   if (b->next)
      b->next->prev = b->prev;
   live_count--;
   pthread_mutex_unlock(&registry_lock);
   if (b->borrowed)
      unborrow(b->cpu, b->map_length);
   else
      munmap(b->cpu, b->map_length);
   if (b->gpu_borrowed)
      unborrow(b->gpu, b->map_length);
   else
      munmap(b->gpu, b->map_length);
   b->base.obj.magic = MTL_MAGIC_DEAD;
   free(b);
}

soft_buffer *soft_buffer_find_gpu(uint64_t addr, size_t len)
{
   soft_buffer *found = NULL;
   pthread_mutex_lock(&registry_lock);
   for (soft_buffer *b = registry; b; b = b->next) {
      uint64_t lo = (uint64_t)(uintptr_t)b->gpu;
      if (addr >= lo && addr - lo <= b->length && len <= b->length - (addr - lo)) {
         found = b;
         break;
      }
   }
   pthread_mutex_unlock(&registry_lock);
   return found;
}

uint32_t soft_buffer_live_count(void)
{
   pthread_mutex_lock(&registry_lock);
   uint32_t n = live_count;
   pthread_mutex_unlock(&registry_lock);
   return n;
}
