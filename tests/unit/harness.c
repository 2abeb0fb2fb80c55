/*
 * harness.c — runs the tests a binary registered; see harness.h.
 */
#include "harness.h"

#include <stdarg.h>
#include <stdlib.h>

#define MAX_TESTS 1024

static struct { const char *name; test_fn fn; } tests[MAX_TESTS];
static int ntests;
static bool too_many;           /* a test was registered past MAX_TESTS */
static int cur_failed, cur_skipped;
static const char *cur_name;

void test_register(const char *name, test_fn fn)
{
   if (ntests < MAX_TESTS) {
      tests[ntests].name = name;
      tests[ntests].fn = fn;
      ntests++;
   } else {
      too_many = true;
   }
}

void test_fail_(const char *file, int line, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   printf("FAIL %s: %s:%d: ", cur_name, file, line);
   vprintf(fmt, ap);
   printf("\n");
   va_end(ap);
   fflush(stdout);
   cur_failed = 1;
}

void test_skip(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   printf("SKIP %s: ", cur_name);
   vprintf(fmt, ap);
   printf("\n");
   va_end(ap);
   fflush(stdout);
   cur_skipped = 1;
}

const char *test_srcdir(void)
{
   const char *d = getenv("MC_TEST_SRCDIR");
   return d && *d ? d : "tests";
}

int main(int argc, char **argv)
{
   /* A test that cannot be registered would be neither run nor counted. */
   if (too_many) {
      printf("FAIL harness: more than %d tests registered: raise MAX_TESTS in tests/unit/harness.c\n", MAX_TESTS);
      return 1;
   }
   if (argc > 1 && !strcmp(argv[1], "--list")) {
      for (int i = 0; i < ntests; i++)
         printf("%s\n", tests[i].name);
      return 0;
   }
   int failed = 0;
   for (int i = 0; i < ntests; i++) {
      if (argc > 1 && strcmp(argv[1], tests[i].name))
         continue;
      cur_name = tests[i].name;
      cur_failed = cur_skipped = 0;
      tests[i].fn();
      if (!cur_failed && !cur_skipped)
         printf("PASS %s\n", cur_name);
      fflush(stdout);
      failed += cur_failed;
   }
   return failed ? 1 : 0;
}
