#include "test_ptx_util.h"
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   arena ar;
   arena_init(&ar, 0);
   ptx_module *m = ptx_parse_module(&ar, (const char *)data, size);
   if (m && !m->nerrors && !tp_roundtrip(m, NULL)) {
      fprintf(stderr, "round trip: %s\n", tp_diff);
      __builtin_trap();
   }
   for (uint32_t i = 0; m && i < m->nerrors; i++)
      if (m->errors[i].loc.line < 1 || m->errors[i].loc.col < 1) __builtin_trap();
   arena_free_all(&ar);
   return 0;
}
