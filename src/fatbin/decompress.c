/*
 * decompress.c — zstd and LZ4 through dlopen of the system libraries.
 *
 * nvcc 13 compresses PTX with zstd by default and with LZ4 under
 * -compress-mode=speed (src/fatbin/README.md).  We load libzstd/liblz4 at
 * run time instead of linking them: nothing is needed to build, and a
 * program whose fatbin is uncompressed runs on a machine without either.
 * Each library is opened once (pthread_once) and kept for the life of the
 * process; only the four zstd functions and one LZ4 function below are used,
 * declared here with the types of the libraries' stable ABIs.
 *
 * Fault injection: fault_hit() is asked on every call, before the once-only
 * load, and a hit reads as "library missing".  Failing the real dlopen
 * instead would poison the process-wide once flag and break every later
 * test; asking per call walks the same error path each time.
 */
#include "fatbin.h"

#include "../util/util.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* libzstd (zstd.h, stable API since 1.0) */
typedef size_t (*zstd_decompress_fn)(void *dst, size_t dst_cap, const void *src, size_t src_len);
typedef unsigned (*zstd_is_error_fn)(size_t code);
typedef const char *(*zstd_error_name_fn)(size_t code);
typedef unsigned long long (*zstd_frame_size_fn)(const void *src, size_t src_len);
#define DECOMPRESS_ZSTD_CONTENTSIZE_UNKNOWN (0ULL - 1)
#define DECOMPRESS_ZSTD_CONTENTSIZE_ERROR (0ULL - 2)

/* liblz4 (lz4.h, stable since r1xx) */
typedef int (*lz4_decompress_fn)(const char *src, char *dst, int src_len, int dst_cap);

typedef struct codec {
   pthread_once_t once;
   bool ok;
   const char *what;          /* "libzstd" */
   const char *debian, *brew; /* package names for the install hint */
   const char *const *paths;  /* dlopen candidates, in order */
   char why[512];             /* the dlerror()s when !ok */
} codec;

#if defined(__APPLE__)
static const char *const zstd_paths[] = {
   "libzstd.1.dylib", "/opt/homebrew/lib/libzstd.1.dylib", "/usr/local/lib/libzstd.1.dylib", NULL,
};
static const char *const lz4_paths[] = {
   "liblz4.1.dylib", "/opt/homebrew/lib/liblz4.1.dylib", "/usr/local/lib/liblz4.1.dylib", NULL,
};
#else
static const char *const zstd_paths[] = { "libzstd.so.1", NULL };
static const char *const lz4_paths[] = { "liblz4.so.1", NULL };
#endif

static codec zstd = { PTHREAD_ONCE_INIT, false, "libzstd", "libzstd1", "zstd", zstd_paths, "" };
static codec lz4 = { PTHREAD_ONCE_INIT, false, "liblz4", "liblz4-1", "lz4", lz4_paths, "" };

static zstd_decompress_fn zstd_decompress_p;
static zstd_is_error_fn zstd_is_error_p;
static zstd_error_name_fn zstd_error_name_p;
static zstd_frame_size_fn zstd_frame_size_p;
static lz4_decompress_fn lz4_decompress_p;

static fatbin_status fail(fatbin_status st, char *err, size_t errlen, const char *fmt, ...)
   MC_PRINTF(4, 5);
static fatbin_status fail(fatbin_status st, char *err, size_t errlen, const char *fmt, ...)
{
   if (err && errlen) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err, errlen, fmt, ap);
      va_end(ap);
   }
   return st;
}

/* Opens the first candidate that loads and has every symbol; the handle is
 * never closed (the function pointers live as long as the process). */
_Static_assert(sizeof(void *) == sizeof(lz4_decompress_fn), "dlsym results fit function pointers");

static void *codec_open(codec *c, const char *const *syms, void **fns, size_t nsyms)
{
   size_t used = 0;
   c->why[0] = '\0';
   for (const char *const *p = c->paths; *p; p++) {
      void *h = dlopen(*p, RTLD_NOW | RTLD_LOCAL);
      if (!h) {
         const char *e = dlerror();
         used += (size_t)snprintf(c->why + used, used < sizeof(c->why) ? sizeof(c->why) - used : 0,
                                  "%s%s", used ? "; " : "", e ? e : *p);
         used = MC_MIN(used, sizeof(c->why));
         continue;
      }
      size_t i;
      for (i = 0; i < nsyms; i++)
         if (!(fns[i] = dlsym(h, syms[i])))
            break;
      if (i == nsyms)
         return h;
      used += (size_t)snprintf(c->why + used, used < sizeof(c->why) ? sizeof(c->why) - used : 0,
                               "%s%s lacks %s", used ? "; " : "", *p, syms[i]);
      used = MC_MIN(used, sizeof(c->why));
      dlclose(h);
   }
   return NULL;
}

static void zstd_load(void)
{
   static const char *const syms[] = {
      "ZSTD_decompress", "ZSTD_isError", "ZSTD_getErrorName", "ZSTD_getFrameContentSize",
   };
   void *fns[ARRAY_SIZE(syms)];
   if (!codec_open(&zstd, syms, fns, ARRAY_SIZE(syms)))
      return;
   /* POSIX guarantees dlsym's object pointers convert to functions; memcpy
    * says so without ISO C's warning about the cast. */
   memcpy(&zstd_decompress_p, &fns[0], sizeof(void *));
   memcpy(&zstd_is_error_p, &fns[1], sizeof(void *));
   memcpy(&zstd_error_name_p, &fns[2], sizeof(void *));
   memcpy(&zstd_frame_size_p, &fns[3], sizeof(void *));
   zstd.ok = true;
}

static void lz4_load(void)
{
   static const char *const syms[] = { "LZ4_decompress_safe" };
   void *fns[1];
   if (!codec_open(&lz4, syms, fns, 1))
      return;
   memcpy(&lz4_decompress_p, &fns[0], sizeof(void *));
   lz4.ok = true;
}

static fatbin_status codec_get(codec *c, void (*load)(void), char *err, size_t errlen)
{
   if (fault_hit())
      return fail(FATBIN_ERR_CODEC_MISSING, err, errlen,
                  "%s could not be loaded (fault injected); it is needed to decompress this "
                  "fatbin: install it (Debian/Ubuntu: apt install %s; Homebrew: brew install %s)",
                  c->what, c->debian, c->brew);
   pthread_once(&c->once, load);
   if (!c->ok)
      return fail(FATBIN_ERR_CODEC_MISSING, err, errlen,
                  "%s could not be loaded (%s); it is needed to decompress this fatbin: "
                  "install it (Debian/Ubuntu: apt install %s; Homebrew: brew install %s)",
                  c->what, c->why, c->debian, c->brew);
   return FATBIN_OK;
}

fatbin_status decompress_zstd(const void *src, size_t src_len, void *dst, size_t dst_cap,
                              size_t *out_len, char *err, size_t errlen)
{
   fatbin_status st = codec_get(&zstd, zstd_load, err, errlen);
   if (st != FATBIN_OK)
      return st;
   size_t r = zstd_decompress_p(dst, dst_cap, src, src_len);
   if (zstd_is_error_p(r))
      return fail(FATBIN_ERR_CODEC, err, errlen,
                  "zstd: %s (%zu compressed bytes, room for %zu)", zstd_error_name_p(r), src_len,
                  dst_cap);
   *out_len = r;
   return FATBIN_OK;
}

fatbin_status decompress_zstd_frame_size(const void *src, size_t src_len, uint64_t *size,
                                         char *err, size_t errlen)
{
   fatbin_status st = codec_get(&zstd, zstd_load, err, errlen);
   if (st != FATBIN_OK)
      return st;
   unsigned long long r = zstd_frame_size_p(src, src_len);
   if (r == DECOMPRESS_ZSTD_CONTENTSIZE_ERROR)
      return fail(FATBIN_ERR_CODEC, err, errlen,
                  "zstd: no valid frame header in %zu compressed bytes", src_len);
   *size = r == DECOMPRESS_ZSTD_CONTENTSIZE_UNKNOWN ? 0 : (uint64_t)r;
   return FATBIN_OK;
}

fatbin_status decompress_lz4(const void *src, size_t src_len, void *dst, size_t dst_cap,
                             size_t *out_len, char *err, size_t errlen)
{
   fatbin_status st = codec_get(&lz4, lz4_load, err, errlen);
   if (st != FATBIN_OK)
      return st;
   /* The LZ4 block API counts in int. */
   if (src_len > INT_MAX || dst_cap > INT_MAX)
      return fail(FATBIN_ERR_CODEC, err, errlen,
                  "lz4: %zu compressed bytes into %zu exceeds the LZ4 block limit of %d",
                  src_len, dst_cap, INT_MAX);
   int r = lz4_decompress_p(src, dst, (int)src_len, (int)dst_cap);
   if (r < 0)
      return fail(FATBIN_ERR_CODEC, err, errlen,
                  "lz4: corrupt block, or it expands past %zu bytes (LZ4_decompress_safe "
                  "returned %d for %zu compressed bytes)",
                  dst_cap, r, src_len);
   *out_len = (size_t)r;
   return FATBIN_OK;
}
