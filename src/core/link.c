/*
 * link.c — the JIT linker of the driver API (cuLinkCreate, cuLinkAddData,
 * cuLinkComplete): collects the PTX of its inputs (PTX text, or the PTX a
 * fatbin holds, as a module load selects it) and links the units as the
 * loader links the units of relocatable device code (core_link_ptx,
 * PTX ISA §11.6).  The "cubin" it completes is that linked PTX text,
 * NUL-terminated: cuModuleLoadData reads it as it reads any PTX.  Inputs
 * that hold only SASS are refused with the fatbin reader's message (a
 * GPU's machine code cannot be translated).
 */
#include "core.h"

#include "../fatbin/fatbin.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(link);

struct core_link {
   uint32_t magic;
   uint32_t sm;             /* the device's compute capability, major * 10 + minor */
   fatbin_ptx_units units;  /* the inputs' PTX, in order */
   char *image;             /* the completed image, or NULL */
   size_t image_len;
};

int core_link_create(core_ctx *c, core_link **out)
{
   core_link *l = mc_calloc(1, sizeof(*l));
   if (!l)
      return CORE_ERROR_OUT_OF_MEMORY;
   int major, minor;
   core_device_cc(c->dev, &major, &minor);
   l->magic = CORE_MAGIC_LINK;
   l->sm = (uint32_t)(major * 10 + minor);
   *out = l;
   return CORE_SUCCESS;
}

bool core_check_link(const core_link *l) { return l && l->magic == CORE_MAGIC_LINK; }

/* Moves the units of `from` to the end of l's and empties `from`; false
 * (out of memory) when l could not take them all, the rest freed. */
static bool take_units(core_link *l, fatbin_ptx_units *from)
{
   uint32_t i = 0;
   while (i < from->n && fatbin_ptx_units_add(&l->units, from->text[i], from->len[i]))
      i++;
   bool all = i == from->n;
   from->n -= i;
   if (from->n)
      memmove(from->text, from->text + i, from->n * sizeof(*from->text));
   fatbin_ptx_units_free(from);
   return all;
}

int core_link_add(core_link *l, const void *data, size_t size, const char *name)
{
   char err[512] = "";
   fatbin_ptx_units u;
   fatbin_status st = fatbin_extract_ptx_units(data, size, l->sm, &u, err, sizeof(err));
   if (st != FATBIN_OK) {
      LOG_ERR("cannot link %s: %s", name ? name : "an input", err[0] ? err : fatbin_status_name(st));
      return core_fatbin_error(st);
   }
   return take_units(l, &u) ? CORE_SUCCESS : CORE_ERROR_OUT_OF_MEMORY;
}

int core_link_complete(core_link *l, const void **image, size_t *size)
{
   if (l->image)
      return CORE_ERROR_INVALID_HANDLE;   /* once per state (an H100) */
   if (l->units.n == 0) {
      LOG_ERR("cuLinkComplete with no input");
      return CORE_ERROR_INVALID_VALUE;
   }
   size_t len;
   int r = core_link_ptx((const char *const *)l->units.text, l->units.len, l->units.n, &l->image, &len);
   if (r != CORE_SUCCESS)
      return r;
   l->image_len = len + 1;   /* with its NUL */
   *image = l->image;
   *size = l->image_len;
   return CORE_SUCCESS;
}

void core_link_destroy(core_link *l)
{
   fatbin_ptx_units_free(&l->units);
   free(l->image);
   l->magic = CORE_MAGIC_DEAD;
   free(l);
}
