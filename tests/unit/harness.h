/*
 * harness.h — the unit-test harness (Wine's ok(), SQLite's honesty).
 *
 * A test file defines test functions with TEST(name) and lists nothing:
 * TEST registers the function at load time.  Each check prints the value
 * it actually got.  A test binary prints one line per test:
 *     PASS name
 *     FAIL name: file:line: what failed (got ..., expected ...)
 *     SKIP name: reason
 * and exits non-zero if any test failed.  tests/run.sh counts these lines.
 *
 * Run one binary with a test name as argument to run only that test, or
 * with --list to print the names of its tests, one a line, running none:
 * tests/unit/run.sh compares the results with that list, so a test lost to
 * a crash is counted as failed.
 */
#ifndef MC_TEST_HARNESS_H
#define MC_TEST_HARNESS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
void test_fail_(const char *file, int line, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));
void test_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Directory holding the test's data (tests/ in the source tree). */
const char *test_srcdir(void);

#define TEST(name)                                                           \
   static void test_##name(void);                                            \
   __attribute__((constructor)) static void test_reg_##name(void)            \
   { test_register(#name, test_##name); }                                    \
   static void test_##name(void)

#define CHECK(cond)                                                          \
   do { if (!(cond)) { test_fail_(__FILE__, __LINE__, "CHECK(%s)", #cond); return; } } while (0)
#define CHECK_MSG(cond, ...)                                                 \
   do { if (!(cond)) { test_fail_(__FILE__, __LINE__, __VA_ARGS__); return; } } while (0)
#define CHECK_INT(got, want)                                                 \
   do { long long g_ = (long long)(got), w_ = (long long)(want);             \
        if (g_ != w_) { test_fail_(__FILE__, __LINE__, "%s: got %lld, expected %lld", #got, g_, w_); return; } } while (0)
#define CHECK_U64(got, want)                                                 \
   do { uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                \
        if (g_ != w_) { test_fail_(__FILE__, __LINE__, "%s: got %#" PRIx64 ", expected %#" PRIx64, #got, g_, w_); return; } } while (0)
#define CHECK_STR(got, want)                                                 \
   do { const char *g_ = (got), *w_ = (want);                                \
        if (!g_ || strcmp(g_, w_)) { test_fail_(__FILE__, __LINE__, "%s: got \"%s\", expected \"%s\"", #got, g_ ? g_ : "(null)", w_); return; } } while (0)
#define CHECK_CONTAINS(got, needle)                                          \
   do { const char *g_ = (got), *n_ = (needle);                              \
        if (!g_ || !strstr(g_, n_)) { test_fail_(__FILE__, __LINE__, "%s: \"%s\" does not contain \"%s\"", #got, g_ ? g_ : "(null)", n_); return; } } while (0)

#endif
