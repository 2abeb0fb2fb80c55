/*
 * array.c — CUDA arrays and texture/surface objects.
 *
 * A CUDA array is opaque to programs, so its layout is ours: the elements
 * row after row, 2-D slices one after another, in device memory of the
 * arena (an internal allocation: cudaFree never releases it), with no
 * padding.  Copies reach it through its address and pitch (the driver's
 * 2-D/3-D copies resolve CU_MEMORYTYPE_ARRAY to them).
 *
 * A texture or surface object is the CUDA address of its descriptor,
 * struct mc_tex (compiler.h), copied into device memory, so a kernel needs
 * nothing but the 64-bit handle it was given to find the data, the format
 * and the sampling state (prelude/tex.metal filters in software, exactly
 * as CUDA documents).  Live handles are listed, so destroying an unknown
 * or already destroyed one frees nothing (and succeeds, as NVIDIA's does).
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(memory);

typedef struct tex_entry {
   uint64_t handle;
   core_device *dev;
   core_ctx *ctx;                /* where it was made */
   mc_tex desc;                 /* host copy, for queries */
   unsigned char api[CORE_TEX_API_MAX];   /* the API's descriptors as given (core_tex_set_api) */
   size_t api_len;
   struct tex_entry *next;
} tex_entry;

static struct {
   pthread_mutex_t lock;
   tex_entry *live;
} texs = {.lock = PTHREAD_MUTEX_INITIALIZER};

bool core_check_array(const core_array *a) { return a && a->magic == CORE_MAGIC_ARRAY; }

int core_array_create(core_ctx *c, const core_array *shape, core_array **out)
{
   uint64_t elem = (uint64_t)shape->chan_bytes * shape->nchan;
   uint64_t rows = shape->height ? shape->height : 1, slices = shape->depth ? shape->depth : 1;
   uint64_t pitch = (uint64_t)shape->width * elem, bytes = pitch * rows * slices;
   if (!elem || !shape->width || bytes / slices / rows != pitch)
      return CORE_ERROR_INVALID_VALUE;
   core_array *a = mc_calloc(1, sizeof(*a));
   if (!a)
      return CORE_ERROR_OUT_OF_MEMORY;
   *a = *shape;
   a->ctx = c;
   a->pitch = pitch;
   a->slice = pitch * rows;
   int r = core_mem_alloc_internal(c->dev, (size_t)bytes, &a->mem);
   if (r != CORE_SUCCESS) {
      free(a);
      return r;
   }
   memset((void *)(uintptr_t)a->mem, 0, (size_t)bytes);   /* CUDA address = CPU address */
   a->magic = CORE_MAGIC_ARRAY;
   *out = a;
   return CORE_SUCCESS;
}

int core_array_destroy(core_array *a)
{
   if (!core_check_array(a))
      return CORE_ERROR_INVALID_VALUE;
   if (a->owner)   /* a level of a mipmapped array: it goes with it (an H200 answers success) */
      return CORE_SUCCESS;
   int r = core_ctx_synchronize(a->ctx);   /* kernels still reading it (cudaFreeArray synchronises) */
   a->magic = CORE_MAGIC_DEAD;
   core_mem_free_internal(a->ctx->dev, a->mem);
   free(a);
   return r;
}

int core_tex_create(core_ctx *c, const mc_tex *desc, uint64_t *handle)
{
   tex_entry *t = mc_calloc(1, sizeof(*t));
   if (!t)
      return CORE_ERROR_OUT_OF_MEMORY;
   int r = core_mem_alloc_internal(c->dev, sizeof(mc_tex), &t->handle);
   if (r != CORE_SUCCESS) {
      free(t);
      return r;
   }
   t->dev = c->dev;
   t->ctx = c;
   t->desc = *desc;
   memcpy((void *)(uintptr_t)t->handle, desc, sizeof(*desc));
   pthread_mutex_lock(&texs.lock);
   t->next = texs.live;
   texs.live = t;
   pthread_mutex_unlock(&texs.lock);
   *handle = t->handle;
   return CORE_SUCCESS;
}

static void tex_free(void *data)
{
   tex_entry *t = data;
   core_mem_free_internal(t->dev, t->handle);
   free(t);
}

int core_tex_destroy(uint64_t handle)
{
   pthread_mutex_lock(&texs.lock);
   tex_entry **p = &texs.live;
   while (*p && (*p)->handle != handle)
      p = &(*p)->next;
   tex_entry *t = *p;
   if (t)
      *p = t->next;
   pthread_mutex_unlock(&texs.lock);
   if (!t) {
      /* NVIDIA's runtime and driver answer success (an H200, driver 580) */
      LOG_WARN("destroying %#llx, which is no live texture or surface object", (unsigned long long)handle);
      return CORE_SUCCESS;
   }
   /* Work queued before the destruction may still read it: programs
    * destroy an object right after the launch that reads it and pass on
    * NVIDIA's GPUs (CUDA samples' convolutionFFT2D), so its memory is
    * freed once the context's queued work has completed. */
   if (core_check_ctx(t->ctx))
      core_after_queued_work(t->ctx, tex_free, t);
   else
      tex_free(t);
   return CORE_SUCCESS;
}

/* The entry of a live object; texs.lock held. */
static tex_entry *tex_find(uint64_t handle)
{
   tex_entry *t = texs.live;
   while (t && t->handle != handle)
      t = t->next;
   return t;
}

bool core_tex_set_api(uint64_t handle, const void *api, size_t len)
{
   if (len > CORE_TEX_API_MAX)
      return false;
   pthread_mutex_lock(&texs.lock);
   tex_entry *t = tex_find(handle);
   if (t) {
      memcpy(t->api, api, len);
      t->api_len = len;
   }
   pthread_mutex_unlock(&texs.lock);
   return t != NULL;
}

bool core_tex_get_api(uint64_t handle, void *api, size_t len)
{
   pthread_mutex_lock(&texs.lock);
   tex_entry *t = tex_find(handle);
   bool ok = t && t->api_len == len;
   if (ok)
      memcpy(api, t->api, len);
   pthread_mutex_unlock(&texs.lock);
   return ok;
}

bool core_tex_lookup(uint64_t handle, mc_tex *out)
{
   bool found = false;
   pthread_mutex_lock(&texs.lock);
   for (tex_entry *t = texs.live; t && !found; t = t->next)
      if (t->handle == handle) {
         *out = t->desc;
         found = true;
      }
   pthread_mutex_unlock(&texs.lock);
   return found;
}
