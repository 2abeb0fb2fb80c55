/*
 * memory.c — copies and fills.  Device memory is shared with the host (one
 * arena, CPU-visible), so after the legacy stream has drained, a copy is a
 * plain memcpy: cudaMemcpy's semantics (synchronous for the host, ordered
 * after earlier work on the legacy stream and so on every blocking stream;
 * non-blocking streams keep running) at memcpy speed.
 */
#include "core.h"

#include <string.h>

LOG_CHANNEL(memory);

int core_memcpy(core_ctx *c, uint64_t dst, uint64_t src, size_t n)
{
   int r = core_stream_sync_legacy(c);
   if (r != CORE_SUCCESS)
      return r;
   if (n)
      memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
   return CORE_SUCCESS;
}

int core_memset(core_ctx *c, uint64_t dst, uint32_t value, size_t elem_size, size_t count)
{
   int r = core_stream_sync_legacy(c);
   if (r != CORE_SUCCESS)
      return r;
   switch (elem_size) {
   case 1:
      memset((void *)(uintptr_t)dst, (int)(value & 0xff), count);
      break;
   case 2: {
      uint16_t *p = (uint16_t *)(uintptr_t)dst;
      for (size_t k = 0; k < count; k++)
         p[k] = (uint16_t)value;
      break;
   }
   case 4: {
      uint32_t *p = (uint32_t *)(uintptr_t)dst;
      for (size_t k = 0; k < count; k++)
         p[k] = value;
      break;
   }
   default:
      return CORE_ERROR_INVALID_VALUE;
   }
   return CORE_SUCCESS;
}
