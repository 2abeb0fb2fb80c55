/*
 * mipmap.c — mipmapped arrays (cuMipmappedArrayCreate and its level
 * queries).  Each level is an ordinary array (array.c's layout) owned by
 * the mipmapped array; their addresses, pitches and sizes are also kept in
 * a table in device memory (compiler.h's mc_tex_level), which a texture
 * object over the mipmapped array names, so that a kernel's tex.level
 * finds every level through the object's handle alone (prelude/tex.metal).
 * Level l of an n-element dimension has max(1, n >> l) elements, as on an
 * H200; a layered array keeps its layers, a cube map its six faces per
 * cube, at every level.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(memory);

bool core_check_mipmap(const core_mipmap *m) { return m && m->magic == CORE_MAGIC_MIPMAP; }

static uint32_t level_size(uint32_t n, uint32_t l) { return n ? (n >> l ? n >> l : 1) : 0; }

int core_mipmap_create(core_ctx *c, const core_array *shape, uint32_t nlevels, core_mipmap **out)
{
   bool layers = (shape->flags & (0x01u | 0x04u)) != 0;   /* CUDA_ARRAY3D_LAYERED, _CUBEMAP */
   uint32_t big = shape->width > shape->height ? shape->width : shape->height;
   if (!layers && shape->depth > big)
      big = shape->depth;
   uint32_t most = 1;
   while (most < CORE_MIP_MAX_LEVELS && big >> most)
      most++;
   if (nlevels == 0)
      nlevels = 1;
   if (nlevels > most)
      nlevels = most;
   core_mipmap *m = mc_calloc(1, sizeof(*m));
   if (!m)
      return CORE_ERROR_OUT_OF_MEMORY;
   m->ctx = c;
   int r = core_mem_alloc_internal(c->dev, nlevels * sizeof(mc_tex_level), &m->table);
   for (uint32_t l = 0; r == CORE_SUCCESS && l < nlevels; l++) {
      core_array lv = *shape;
      lv.width = level_size(shape->width, l);
      lv.height = level_size(shape->height, l);
      if (!layers)
         lv.depth = level_size(shape->depth, l);
      if ((r = core_array_create(c, &lv, &m->level[l])) != CORE_SUCCESS)
         break;
      core_array *a = m->level[l];
      a->owner = m;
      m->nlevels = l + 1;
      mc_tex_level *t = (mc_tex_level *)(uintptr_t)m->table + l;   /* CUDA address = CPU address */
      *t = (mc_tex_level){ .base = a->mem, .pitch = a->pitch, .slice = a->slice, .width = a->width,
                           .height = a->height ? a->height : 1, .depth = a->depth ? a->depth : 1 };
   }
   if (r != CORE_SUCCESS) {
      core_mipmap_destroy(m);
      return r;
   }
   m->magic = CORE_MAGIC_MIPMAP;
   *out = m;
   return CORE_SUCCESS;
}

/* Also the unwinding of a failed creation (no magic yet). */
int core_mipmap_destroy(core_mipmap *m)
{
   int r = CORE_SUCCESS;
   m->magic = CORE_MAGIC_DEAD;
   for (uint32_t l = 0; l < m->nlevels; l++) {
      m->level[l]->owner = NULL;
      int e = core_array_destroy(m->level[l]);   /* synchronises: kernels may still read it */
      if (r == CORE_SUCCESS)
         r = e;
   }
   if (m->table)
      core_mem_free_internal(m->ctx->dev, m->table);
   free(m);
   return r;
}
