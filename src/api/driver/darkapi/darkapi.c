/*
 * darkapi.c — which table a GUID names (cuGetExportTable, init.c, asks
 * here), and the fallback of slots nobody has seen used.
 */
#include "darkapi.h"

#include <stdio.h>
#include <string.h>

LOG_CHANNEL(darkapi);

/* GUIDs as NVIDIA's runtime passes them: the 16 bytes in memory order,
 * written here in the order of the usual GUID string. */
static const struct {
   const char *name;
   unsigned char id[16];
   const dark_fn *table;
} tables[] = {
   {"CUDART_INTERFACE", {0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9},
    dark_cudart_interface},
   {"TOOLS_TLS", {0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc},
    dark_tools_tls},
   {"TOOLS_RUNTIME_CALLBACK_HOOKS",
    {0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66},
    dark_tools_callbacks},
   {"CONTEXT_LOCAL_STORAGE", {0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93},
    dark_context_storage},
   {"CONTEXT_CHECKS", {0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e},
    dark_context_checks},
   {"INTEGRITY_CHECK", {0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2},
    dark_integrity},
   {"ERROR_LOG", {0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9},
    dark_error_log},
};

/* GUIDs already reported unknown: each is logged once. */
enum { SEEN_MAX = 32 };
static unsigned char seen[SEEN_MAX][16];
static unsigned nseen;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

const void *dark_find(const unsigned char id[16])
{
   for (size_t i = 0; i < ARRAY_SIZE(tables); i++)
      if (!memcmp(tables[i].id, id, 16))
         return tables[i].table;
   pthread_mutex_lock(&seen_lock);
   bool fresh = true;
   for (unsigned i = 0; i < nseen && fresh; i++)
      fresh = memcmp(seen[i], id, 16) != 0;
   if (fresh && nseen < SEEN_MAX)
      memcpy(seen[nseen++], id, 16);
   pthread_mutex_unlock(&seen_lock);
   if (fresh)
      LOG_WARN("unknown export table {%02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-%02X%02X%02X%02X%02X%02X} "
               "asked for: CUDA_ERROR_INVALID_VALUE, as NVIDIA's driver answers for a table it lacks",
               id[0], id[1], id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10], id[11], id[12], id[13],
               id[14], id[15]);
   return NULL;
}

CUresult dark_unknown_slot(const char *table, int slot, int *once)
{
   char what[160];
   snprintf(what, sizeof(what), "slot %d of NVIDIA's export table %s (its use is not known)", slot, table);
   api_unsupported_(log_channel_, "cuGetExportTable", what, once);
   return CUDA_ERROR_NOT_SUPPORTED;
}
