/*
 * fuzz_ptx.c — libFuzzer target for the PTX front end and the translator.
 *
 * Any input must: parse without crashing; give every error a line and a
 * column; print and reparse to the same module when it parsed cleanly
 * (tests/unit/test_ptx_util.h); and, loaded as a module, translate every
 * kernel to MSL or fail with a message — never crash, overread or leak.
 * Build and run: tests/fuzz/README.md.
 */
#include "test_ptx_util.h"

#include "compiler/compiler.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_parser(const uint8_t *data, size_t size)
{
   arena ar;
   arena_init(&ar, 0);
   ptx_module *m = ptx_parse_module(&ar, (const char *)data, size);
   if (m && !m->nerrors && !tp_roundtrip(m, NULL)) {
      fprintf(stderr, "round trip: %s\n", tp_diff);
      __builtin_trap();
   }
   for (uint32_t i = 0; m && i < m->nerrors; i++)
      if (m->errors[i].loc.line < 1 || m->errors[i].loc.col < 1)
         __builtin_trap();
   arena_free_all(&ar);
}

static void check_translator(const uint8_t *data, size_t size)
{
   char *err = NULL;
   mc_module *m = compiler_module_load((const char *)data, size, &err);
   if (!m) {
      if (!err)   /* a failed load must say why */
         __builtin_trap();
      free(err);
      return;
   }
   for (uint32_t k = 0; k < compiler_kernel_count(m); k++) {
      mc_kernel_info info;
      char *msl = compiler_translate_kernel(m, k, NULL, &info, &err);
      if (!msl && !err)
         __builtin_trap();
      free(msl);
      free(err);
      err = NULL;
   }
   compiler_module_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   check_parser(data, size);
   check_translator(data, size);
   return 0;
}
