/*
 * fuzz_fatbin.c — libFuzzer target for the fatbin reader (src/fatbin/).
 *
 * The input is an image of exactly `size` bytes: parse it, decompress every
 * entry (text for PTX, raw bytes for the rest), and run the one-call path.
 * Any status is fine; a crash, an overread (ASan) or a leak is the bug.
 * Wrappers in the input hold pointers, which the bounded parser only
 * follows when they point inside the input, so random bytes are safe.
 * How to build and run: tests/fuzz/README.md.
 */
#include "../../src/fatbin/fatbin.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   char err[256];
   fatbin_classify(data, size);
   fatbin_entries es;
   if (fatbin_parse(data, size, &es, err, sizeof(err)) == FATBIN_OK) {
      for (uint32_t i = 0; i < es.n; i++) {
         char *text;
         size_t len;
         if (fatbin_entry_text(&es.v[i], &text, &len, err, sizeof(err)) == FATBIN_OK)
            free(text);
         if (es.v[i].kind != FATBIN_KIND_PTX) {
            uint8_t *bytes;
            if (fatbin_entry_data(&es.v[i], &bytes, &len, err, sizeof(err)) == FATBIN_OK)
               free(bytes);
         }
      }
      fatbin_select_ptx(&es, 75);
      fatbin_entries_free(&es);
   }
   char *text;
   size_t len;
   if (fatbin_extract_ptx(data, size, 75, &text, &len, err, sizeof(err)) == FATBIN_OK)
      free(text);
   return 0;
}
