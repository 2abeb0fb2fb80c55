/*
 * tensormap.c — metalcuda's CUtensorMap: the 128 bytes cuTensorMapEncodeTiled
 * writes and cp.async.bulk.tensor reads (layout: compiler.h MC_TMAP_*; the
 * reader is the prelude's prelude/tma.metal).  NVIDIA's encoding is private
 * to its driver and hardware; a program treats the object as opaque, so
 * ours only has to hold what the copies need.  The driver entry point
 * (api/driver/tensormap.c) checks the arguments first.
 */
#include "core.h"

#include "../compiler/compiler.h"

#include <string.h>

void core_tensormap_encode(uint64_t words[16], const core_tensormap_desc *d)
{
   memset(words, 0, 16 * sizeof(uint64_t));
   words[0] = d->address;
   words[1] = (uint64_t)MC_TMAP_MAGIC | (uint64_t)d->elem_bytes << 32 | (uint64_t)d->rank << 40 |
              (uint64_t)(d->swizzle_bytes / 16) << 48 | (uint64_t)d->dtype << 56;
   for (uint32_t k = 0; k < d->rank; k++) {
      words[2 + k] = d->dim[k];
      if (k)
         words[6 + k] = d->stride[k - 1];
      words[11 + k / 4] |= (uint64_t)d->box[k] << (16 * (k % 4));
   }
}

bool core_tensormap_is_ours(const uint64_t words[16])
{
   return (uint32_t)words[1] == MC_TMAP_MAGIC;
}

void core_tensormap_set_address(uint64_t words[16], uint64_t address)
{
   words[0] = address;
}
