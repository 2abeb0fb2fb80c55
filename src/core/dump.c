/*
 * dump.c — METALCUDA_DUMP=DIR writes every PTX module and every kernel's
 * MSL a program loads, named by the module hash, for bug reports.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(dump);

void core_dump(const char *kind, const char *hash, const char *name, const char *text)
{
   const char *dir = getenv("METALCUDA_DUMP");
   if (!dir || !*dir || !text)
      return;
   char path[4096];
   char safe[128];
   size_t k = 0;
   for (; name && name[k] && k < sizeof(safe) - 1; k++)
      safe[k] = (name[k] == '/' || name[k] == '.') ? '_' : name[k];
   safe[k] = 0;
   if (name)
      snprintf(path, sizeof(path), "%s/%.16s-%s.%s", dir, hash, safe, kind);
   else
      snprintf(path, sizeof(path), "%s/%.16s.%s", dir, hash, kind);
   if (!file_write_atomic(path, text, strlen(text)))
      LOG_WARN("cannot write %s", path);
   else
      LOG_INFO("wrote %s", path);
}
