/*
 * validate.c — the encoding rules Metal's API validation enforces, shared
 * by the backends so that a broken rule gives the same message on every
 * device.
 *
 * Real Metal only checks these with the validation layer on (and then
 * aborts the process); without it, a broken rule is undefined behaviour on
 * the GPU.  So both backends check them while encoding and fail the
 * command buffer with the message instead (soft/encoder.c,
 * apple/encoder.c).  Each check returns true when the rule holds, else
 * false with the message in msg[MTL_MSG_MAX].
 */
#include "mtl_backend.h"

#include <stdio.h>

bool mtl_check_index(const char *what, uint32_t index, char *msg)
{
   if (index < MTL_MAX_BUFFER_BINDINGS)
      return true;
   snprintf(msg, MTL_MSG_MAX, "%s: index %u is out of range (Metal has %d slots, 0-%d)", what,
            index, MTL_MAX_BUFFER_BINDINGS, MTL_MAX_BUFFER_BINDINGS - 1);
   return false;
}

bool mtl_check_set_bytes(size_t length, char *msg)
{
   if (length <= MTL_MAX_SET_BYTES)
      return true;
   snprintf(msg, MTL_MSG_MAX, "setBytes: %zu bytes exceeds Metal's 4 KB limit (use a buffer)",
            length);
   return false;
}

bool mtl_check_set_buffer(size_t offset, size_t buf_length, char *msg)
{
   if (offset <= buf_length)
      return true;
   snprintf(msg, MTL_MSG_MAX, "setBuffer: offset %zu is past the end of a %zu-byte buffer", offset,
            buf_length);
   return false;
}

bool mtl_check_threadgroup_length(size_t length, char *msg)
{
   if (length % MTL_THREADGROUP_MEMORY_ALIGN) {
      snprintf(msg, MTL_MSG_MAX,
               "setThreadgroupMemoryLength: %zu bytes is not a multiple of 16", length);
      return false;
   }
   if (length > MTL_MAX_THREADGROUP_MEMORY) {
      snprintf(msg, MTL_MSG_MAX, "setThreadgroupMemoryLength: %zu bytes exceeds Metal's 32 KB of "
               "threadgroup memory", length);
      return false;
   }
   return true;
}

static bool check_sizes(const mtl_kernel_facts *k, mtl_size g, mtl_size t, char *msg)
{
   if (!g.width || !g.height || !g.depth || !t.width || !t.height || !t.depth) {
      snprintf(msg, MTL_MSG_MAX, "dispatchThreadgroups of '%s': a dimension is zero (threadgroups "
               "%ux%ux%u, threads per threadgroup %ux%ux%u)", k->name, g.width, g.height, g.depth,
               t.width, t.height, t.depth);
      return false;
   }
   uint64_t n = (uint64_t)t.width * t.height * t.depth;
   if (n > k->max_threads) {
      snprintf(msg, MTL_MSG_MAX, "dispatchThreadgroups of '%s': %llu threads per threadgroup "
               "exceeds the pipeline's maxTotalThreadsPerThreadgroup (%u)", k->name,
               (unsigned long long)n, k->max_threads);
      return false;
   }
   if ((uint64_t)g.width * t.width > UINT32_MAX || (uint64_t)g.height * t.height > UINT32_MAX ||
       (uint64_t)g.depth * t.depth > UINT32_MAX) {
      snprintf(msg, MTL_MSG_MAX, "dispatchThreadgroups of '%s': the grid has more than 2^32 "
               "threads in one dimension", k->name);
      return false;
   }
   return true;
}

static bool check_bindings(const mtl_kernel_facts *k, uint32_t bound,
                           const uint32_t tg_len[MTL_MAX_BUFFER_BINDINGS], char *msg)
{
   uint64_t dyn = 0;
   for (int i = 0; i < MTL_MAX_BUFFER_BINDINGS; i++) {
      if ((k->buffer_mask >> i & 1) && !(bound >> i & 1)) {
         snprintf(msg, MTL_MSG_MAX, "dispatch of '%s': buffer index %d used by the kernel is not "
                  "bound", k->name, i);
         return false;
      }
      if ((k->tg_mask >> i & 1) && !tg_len[i]) {
         snprintf(msg, MTL_MSG_MAX, "dispatch of '%s': threadgroup memory index %d used by the "
                  "kernel has no length (setThreadgroupMemoryLength)", k->name, i);
         return false;
      }
      dyn += tg_len[i];
   }
   if (dyn + k->static_tg_bytes > MTL_MAX_THREADGROUP_MEMORY) {
      snprintf(msg, MTL_MSG_MAX, "dispatch of '%s': %llu bytes of threadgroup memory (%u static + "
               "%llu dynamic) exceeds Metal's 32 KB limit", k->name,
               (unsigned long long)(dyn + k->static_tg_bytes), k->static_tg_bytes,
               (unsigned long long)dyn);
      return false;
   }
   return true;
}

bool mtl_check_dispatch(const mtl_kernel_facts *k, mtl_size groups, mtl_size threads,
                        uint32_t bound_mask, const uint32_t tg_len[MTL_MAX_BUFFER_BINDINGS],
                        char *msg)
{
   if (!k) {
      snprintf(msg, MTL_MSG_MAX, "dispatchThreadgroups: no compute pipeline state set");
      return false;
   }
   return check_sizes(k, groups, threads, msg) && check_bindings(k, bound_mask, tg_len, msg);
}

bool mtl_check_range(const char *what, size_t off, size_t len, size_t buf_length, char *msg)
{
   if (off <= buf_length && len <= buf_length - off)
      return true;
   snprintf(msg, MTL_MSG_MAX, "%s: range [%zu, +%zu) is outside a %zu-byte buffer", what, off, len,
            buf_length);
   return false;
}
