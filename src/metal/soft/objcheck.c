/*
 * objcheck.c — Metal rules checked on the compiled object, where C++
 * cannot express them.
 *
 * MSL forbids writable program-scope variables ("program scope variable
 * must reside in constant address space") and static locals outside the
 * constant address space.  Once compiled, every such variable is a data
 * symbol in a writable section (ELF .data, .bss, .tbss; Mach-O __DATA's
 * __data, __bss, __common, thread-local sections; common symbols), while
 * `constant` ones land in read-only data.  The object file (before
 * linking, so no C runtime start-up symbols are mixed in) is read by
 * objfile.c, ELF or Mach-O, and every data symbol in a writable section
 * fails the library — except the ones the generated code owns, whose names
 * contain "__mc" (the threadgroup storage and the current-launch pointer),
 * and ELF .data.rel.ro / Mach-O __DATA,__const, read-only after relocation
 * (constant arrays of pointers).
 */
#include "soft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The variable's own name from an Itanium-mangled symbol: the last
 * <length><identifier> component (_ZL7counter, _ZN2ns1xE, _ZZ1fvE5calls);
 * Mach-O's thread-local initialisers (NAME$tlv$init) name NAME. */
static void plain_name(const char *sym, char *out, size_t cap)
{
   snprintf(out, cap, "%s", sym);
   char *tlv = strstr(out, "$tlv$init");
   if (tlv)
      *tlv = 0;
   if (strncmp(sym, "_Z", 2))
      return;
   const char *p = sym + 2, *best = NULL;
   size_t best_len = 0;
   while (*p) {
      if (*p >= '1' && *p <= '9') {
         char *end;
         unsigned long n = strtoul(p, &end, 10);
         if (strlen(end) < n)
            break;
         best = end;
         best_len = n;
         p = end + n;
      } else {
         p++;
      }
   }
   if (best)
      snprintf(out, cap, "%.*s", (int)best_len, best);
}

bool soft_check_object(const char *obj_path, char **err)
{
   size_t len;
   char *img = file_read(obj_path, &len);
   if (!img) {
      mtl_set_err(err, "cannot read the compiled object %s", obj_path);
      return false;
   }
   soft_obj o;
   bool ok = soft_obj_read(&o, (uint8_t *)img, len, err);
   for (uint32_t k = 0; ok && k < o.nsym; k++) {
      const soft_obj_sym *y = &o.sym[k];
      if (!y->data || strstr(y->name, "__mc"))
         continue;
      if (y->sec == SOFT_OBJ_COMMON || (y->sec < o.nsec && o.sec[y->sec].writable)) {
         char plain[256];
         plain_name(y->name, plain, sizeof(plain));
         mtl_set_err(err, "program_source: error: '%s' is a writable program-scope or static "
                     "variable: Metal allows program-scope variables only in the constant "
                     "address space", plain);
         ok = false;
      }
   }
   if (o.img)
      soft_obj_free(&o);
   free(img);
   return ok;
}
