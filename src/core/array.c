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
 * as CUDA documents), with the border colour in the texture's format
 * ("the border colour" below).  Live handles are listed, so destroying an unknown
 * or already destroyed one frees nothing (and succeeds, as NVIDIA's does).
 */
#include "core.h"

#include <math.h>
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

/* ---- the border colour in the texture's format ----
 *
 * An H100 (CUDA 13.0, driver 580; tests/cuda/NATIVE.md, thirtieth
 * session: 256 border colours per format, read with point and linear
 * filtering, and 65 536 filtered reads across each texture's edges)
 * converts the border colour into the texture's format and reads it as a
 * texel: the channels a format lacks read 0, and filtering mixes it with
 * the texels by the format's own rule.  The conversions fit every probed
 * colour: n-bit unorm and signed (n-1)-bit snorm magnitudes take the
 * colour, clamped to [0, 1] or [-1, 1], truncated to n + 4 fraction bits,
 * times 2^n - 1, rounded half toward zero; sRGB's colour channels encode
 * the clamped colour exactly (IEC 61966-2-1) and round to nearest; half
 * floats truncate toward zero; 32-bit formats keep its bits, and 8- and
 * 16-bit integers read as elements the low bits of its float's.  (NaN was
 * not probed: it reads 0 in the normalised formats.) */

static uint32_t border_unorm(float c, unsigned bits)
{
   const unsigned f = bits + 4;
   const uint64_t q = (1u << bits) - 1;
   if (!(c > 0.0f))
      return 0;
   if (c >= 1.0f)
      return (uint32_t)q;
   uint64_t fixed = (uint64_t)((double)c * (double)(1u << f));   /* truncated */
   return (uint32_t)((fixed * q + (1u << (f - 1)) - 1) >> f);  /* half toward zero */
}

static uint32_t border_snorm(float c, unsigned bits)
{
   uint32_t k = border_unorm(c < 0.0f ? -c : c, bits - 1);
   return (c < 0.0f ? 0u - k : k) & ((1u << bits) - 1);
}

static uint32_t border_srgb(float c)
{
   double v = c > 0.0f ? (c < 1.0f ? c : 1.0) : 0.0;
   double e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
   return (uint32_t)floor(e * 255.0 + 0.5);
}

static uint32_t border_half(float c)
{
   uint16_t h = fp_f64_to_f16(c);
   if ((h & 0x7fff) && (h & 0x7c00) != 0x7c00 && fabs(fp_f16_to_f64(h)) > fabs(c))
      h--;   /* the magnitude one step down: toward zero */
   else if ((h & 0x7fff) == 0x7c00 && !isinf(c))
      h--;   /* past the largest half */
   return h;
}

/* t's border colour (floats' bits) as raw channels of its format. */
static void encode_border(mc_tex *t)
{
   bool norm = (t->flags & MC_TEX_F_NORM_READ) || t->kind == MC_TEX_UNORM || t->kind == MC_TEX_SNORM;
   bool sign = t->kind == MC_TEX_SIGNED || t->kind == MC_TEX_SNORM;
   bool srgb = (t->flags & MC_TEX_F_SRGB) && norm && t->chan_bytes == 1 && !sign;
   uint32_t srgb_chans = srgb ? (t->nchan == 4 ? 3 : 1) : 0, bits = 8 * t->chan_bytes;
   for (uint32_t k = 0; k < 4; k++) {
      float c;
      memcpy(&c, &t->border[k], sizeof(c));
      uint32_t raw;
      if (k >= t->nchan)
         raw = 0;
      else if (bits == 32)
         raw = t->border[k];   /* floats and 32-bit integers: its bits */
      else if (t->kind == MC_TEX_FLOAT)
         raw = border_half(c);
      else if (!norm)
         raw = t->border[k] & ((1u << bits) - 1);
      else if (k < srgb_chans)
         raw = border_srgb(c);
      else
         raw = sign ? border_snorm(c, bits) : border_unorm(c, bits);
      t->border[k] = raw;
   }
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
   encode_border(&t->desc);
   memcpy((void *)(uintptr_t)t->handle, &t->desc, sizeof(t->desc));
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
