/*
 * ptx_corpus — translates every kernel of real PTX files and says what
 * failed, grouped by cause; optionally compiles the MSL on the software
 * device; optionally times the translation.
 *
 *   ptx_corpus [--compile=N] [--quiet] [--known-gaps=FILE] FILE.ptx...
 *
 * For each file: one line "PASS corpus NAME: K kernels translated" or
 * "FAIL corpus NAME: F of K kernels failed", then the causes (the error
 * message without kernel name and line, with a count and one example
 * line).  --compile=N also compiles every Nth translated kernel (N = 1:
 * all) on the Metal device and fails the file if Metal rejects one (a
 * translator bug: MSL that does not compile).  Translation bypasses the
 * on-disk cache.  The last line is
 *   "translated B bytes of PTX in S s (M MB/s), K kernels"
 * which bench/translate.sh reads.
 *
 * --known-gaps=FILE lists refusals that do not fail the file: one message
 * substring per line, a tab, and why (tests/ptx/corpus/known_gaps.txt).
 * Kernels refused for them are counted on a separate "SKIP corpus" line,
 * never as translated.
 */
#include "../../src/compiler/compiler.h"
#include "../../src/metal/mtl.h"
#include "../../src/util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cause {
   char *what;       /* the message without kernel and line */
   char *example;    /* the first full message */
   unsigned count;
} cause;

typedef struct corpus_stats {
   double secs;
   uint64_t bytes;
   unsigned kernels;
} corpus_stats;

/* "cannot translate kernel 'K': PTX line N: what" → "what". */
static const char *strip_location(const char *msg)
{
   const char *p = strstr(msg, "PTX line ");
   if (p && (p = strchr(p + 9, ':')))
      return p + 2;
   p = strstr(msg, "': ");
   return p ? p + 3 : msg;
}

static void add_cause(cause **cs, unsigned *n, const char *msg)
{
   const char *what = strip_location(msg);
   for (unsigned k = 0; k < *n; k++) {
      if (!strcmp((*cs)[k].what, what)) {
         (*cs)[k].count++;
         return;
      }
   }
   cause *ncs = realloc(*cs, (*n + 1) * sizeof(**cs));
   if (!ncs)
      return;
   *cs = ncs;
   ncs[*n] = (cause){ mc_strdup(what), mc_strdup(msg), 1 };
   (*n)++;
}

/* Known-gap patterns (--known-gaps): message substrings. */
static char **gap_pats;
static unsigned ngap_pats;

static bool load_known_gaps(const char *path)
{
   size_t len;
   char *text = file_read(path, &len);
   if (!text)
      return false;
   for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
      if (line[0] == '#' || !line[0])
         continue;
      char *tab = strchr(line, '\t');
      if (tab)
         *tab = 0;
      char **np = realloc(gap_pats, (ngap_pats + 1) * sizeof(*np));
      if (!np)
         break;
      gap_pats = np;
      gap_pats[ngap_pats++] = mc_strdup(line);
   }
   free(text);
   return true;
}

static bool is_known_gap(const char *msg)
{
   for (unsigned k = 0; msg && k < ngap_pats; k++)
      if (strstr(msg, gap_pats[k]))
         return true;
   return false;
}

static const char *base_name(const char *path)
{
   const char *s = strrchr(path, '/');
   return s ? s + 1 : path;
}

/* Compiles one kernel's MSL; NULL if Metal took it, else the message. */
static char *compile_msl(const char *msl, const char *fn_name)
{
   mtl_device *dev = mtl_device_get(0);
   char *err = NULL;
   mtl_compile_options o = { 0 };
   mtl_library *lib = mtl_library_new(dev, msl, &o, &err);
   mtl_function *fn = lib ? mtl_function_new(lib, fn_name, &err) : NULL;
   mtl_pipeline *p = fn ? mtl_pipeline_new(dev, fn, &err) : NULL;
   if (p)
      mtl_pipeline_release(p);
   if (fn)
      mtl_function_release(fn);
   if (lib)
      mtl_library_release(lib);
   return p ? NULL : (err ? err : mc_strdup("unknown error"));
}

static bool check_file(const char *path, unsigned compile_every, bool quiet, corpus_stats *st)
{
   size_t len;
   char *ptx = file_read(path, &len);
   if (!ptx) {
      printf("FAIL corpus %s: cannot read it\n", base_name(path));
      return false;
   }
   uint64_t t0 = time_ns();
   char *err = NULL;
   mc_module *m = compiler_module_load(ptx, len, &err);
   if (!m) {
      printf("FAIL corpus %s: %s\n", base_name(path), err ? err : "?");
      free(err);
      free(ptx);
      return false;
   }
   uint32_t nk = compiler_kernel_count(m);
   char **msl = calloc(nk + 1, sizeof(*msl));
   const char **fn = calloc(nk + 1, sizeof(*fn));
   cause *causes = NULL;
   unsigned ncauses = 0, failed = 0, known = 0;
   unsigned in_device = 0;
   for (uint32_t k = 0; k < nk && msl && fn; k++) {
      mc_kernel_info info;
      msl[k] = compiler_translate_kernel(m, k, NULL, &info, &err);
      if (msl[k] && info.shared_static_bytes > MTL_MAX_THREADGROUP_MEMORY) {
         /* more static shared memory than Metal's threadgroup memory: the
          * runtime runs the variant with shared memory in device memory */
         const compiler_options sd = { .shared_in_device = true };
         free(msl[k]);
         msl[k] = compiler_translate_kernel(m, k, &sd, &info, &err);
         in_device++;
      }
      if (!msl[k]) {
         failed++;
         known += is_known_gap(err);
         add_cause(&causes, &ncauses, err ? err : "out of memory");
         free(err);
         continue;
      }
      fn[k] = info.msl_name;
   }
   double secs = (double)(time_ns() - t0) / 1e9;
   st->secs += secs;
   st->bytes += len;
   st->kernels += nk;
   unsigned compiled = 0, rejected = 0;
   for (uint32_t k = 0; compile_every && k < nk && msl && fn; k++) {
      if (!msl[k] || (k % compile_every))
         continue;
      char *why = compile_msl(msl[k], fn[k]);
      compiled++;
      if (why) {
         rejected++;
         printf("  Metal rejected the MSL of kernel %s:\n%.2000s\n", compiler_kernel_name(m, k), why);
         free(why);
      }
   }
   bool ok = failed == known && rejected == 0 && msl && fn;
   if (known)
      printf("SKIP corpus %s: %u of %u kernels refused for known gaps (--known-gaps)\n", base_name(path), known, nk);
   if (ok)
      printf("PASS corpus %s: %u kernels translated (%.1f MB/s)", base_name(path), nk - known,
             (double)len / 1e6 / secs);
   else
      printf("FAIL corpus %s: %u of %u kernels failed to translate", base_name(path), failed, nk);
   if (compile_every)
      printf(", %u compiled on the Metal device, %u rejected", compiled, rejected);
   if (in_device)
      printf(", %u with their shared memory in device memory (over %u bytes)", in_device, MTL_MAX_THREADGROUP_MEMORY);
   printf("\n");
   for (unsigned k = 0; k < ncauses; k++) {
      if (!quiet)
         printf("  %4u x %s\n         e.g. %.300s\n", causes[k].count, causes[k].what, causes[k].example);
      free(causes[k].what);
      free(causes[k].example);
   }
   free(causes);
   for (uint32_t k = 0; k < nk && msl; k++)
      free(msl[k]);
   free(msl);
   free(fn);
   compiler_module_free(m);
   free(ptx);
   return ok;
}

int main(int argc, char **argv)
{
   unsigned compile_every = 0;
   bool quiet = false, ok = true;
   corpus_stats st = { 0, 0, 0 };
   int files = 0;
   for (int k = 1; k < argc; k++) {
      if (!strncmp(argv[k], "--compile=", 10)) {
         compile_every = (unsigned)atoi(argv[k] + 10);
      } else if (!strncmp(argv[k], "--known-gaps=", 13)) {
         if (!load_known_gaps(argv[k] + 13)) {
            fprintf(stderr, "ptx_corpus: cannot read %s\n", argv[k] + 13);
            return 2;
         }
      } else if (!strcmp(argv[k], "--quiet")) {
         quiet = true;
      } else {
         ok &= check_file(argv[k], compile_every, quiet, &st);
         files++;
      }
   }
   if (!files) {
      fprintf(stderr, "usage: ptx_corpus [--compile=N] [--quiet] [--known-gaps=FILE] FILE.ptx...\n");
      return 2;
   }
   printf("translated %llu bytes of PTX in %.3f s (%.2f MB/s), %u kernels\n", (unsigned long long)st.bytes,
          st.secs, st.secs > 0 ? (double)st.bytes / 1e6 / st.secs : 0.0, st.kernels);
   for (unsigned k = 0; k < ngap_pats; k++)
      free(gap_pats[k]);
   free(gap_pats);
   return ok ? 0 : 1;
}
