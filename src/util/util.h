/*
 * util.h — the small pieces every layer uses: arenas, growable arrays, string
 * builders, hashing, a string map, logging and fault injection.
 *
 * Nothing here knows about CUDA, PTX or Metal.  Everything is built with
 * hidden visibility: these names never leave our libraries.
 */
#ifndef MC_UTIL_H
#define MC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MC_MIN(a, b) ((a) < (b) ? (a) : (b))
#define MC_MAX(a, b) ((a) > (b) ? (a) : (b))
#define ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((uint64_t)(a) - 1))

#if defined(__GNUC__)
#define MC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define MC_NORETURN __attribute__((noreturn))
#define MC_EXPORT __attribute__((visibility("default")))
#else
#define MC_PRINTF(f, a)
#define MC_NORETURN
#define MC_EXPORT
#endif

/* ---- fault.c: fail-after-N countdown for allocation fault injection ---- */

/* After fault_fail_after(n), the n-th call of fault_hit() (counting from 1)
 * and every later one returns true, until fault_reset().  Every allocator
 * that can fail (arena chunks, device arena, Metal buffers, cache writes,
 * dlopen of decompressors) asks fault_hit() first, so tests can walk every
 * failure path (SQLite style). */
void fault_fail_after(long n);
void fault_reset(void);
bool fault_hit(void);

/* Allocation wrappers that honour fault injection; NULL on failure. */
void *mc_malloc(size_t n);
void *mc_calloc(size_t n, size_t size);
void *mc_realloc(void *p, size_t n);
char *mc_strdup(const char *s);
void mc_free(void *p);

/* ---- arena.c: bump allocation released wholesale ---- */

typedef struct arena_chunk arena_chunk;
typedef struct arena {
   arena_chunk *head;
   size_t chunk_size;
   bool failed;          /* an allocation failed: the owner reports OOM */
} arena;

void arena_init(arena *a, size_t chunk_size);
void *arena_alloc(arena *a, size_t size);        /* zeroed, 16-aligned */
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...) MC_PRINTF(2, 3);
void *arena_memdup(arena *a, const void *p, size_t n);
void arena_free_all(arena *a);

/* ---- growable arrays backed by an arena (QBE's vnew/vgrow) ---- */

#define VEC(T) struct { T *data; uint32_t len, cap; }
#define vec_push(ar, v, x)                                                    \
   (vec_reserve_((ar), (void **)&(v)->data, &(v)->cap, (v)->len + 1,         \
                 sizeof(*(v)->data))                                          \
       ? ((v)->data[(v)->len++] = (x), true)                                  \
       : false)
#define vec_foreach(T, it, v) for (T *it = (v)->data; it && it < (v)->data + (v)->len; it++)
bool vec_reserve_(arena *a, void **data, uint32_t *cap, uint32_t need, size_t elem);

/* ---- str.c: a heap string builder ---- */

typedef struct strbuf {
   char *s;
   size_t len, cap;
   bool failed;          /* out of memory: contents are truncated */
} strbuf;

void strbuf_init(strbuf *b);
void strbuf_free(strbuf *b);
void strbuf_putc(strbuf *b, char c);
void strbuf_puts(strbuf *b, const char *s);
void strbuf_putn(strbuf *b, const char *s, size_t n);
void strbuf_printf(strbuf *b, const char *fmt, ...) MC_PRINTF(2, 3);
void strbuf_vprintf(strbuf *b, const char *fmt, va_list ap);
char *strbuf_take(strbuf *b);   /* caller frees with free(); NULL if failed */

/* ---- hash.c ---- */

uint64_t hash_fnv1a(const void *p, size_t n, uint64_t seed);
uint64_t hash_str(const char *s);

typedef struct sha256_ctx {
   uint32_t h[8];
   uint64_t len;
   uint8_t buf[64];
   uint32_t nbuf;
} sha256_ctx;
void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *p, size_t n);
void sha256_final(sha256_ctx *c, uint8_t out[32]);
void sha256_digest(const void *p, size_t n, uint8_t out[32]);
void sha256_hex(const void *p, size_t n, char out[65]);
/* A fast sum against damage, not collisions by design: cache files'
 * integrity (never a cache key). */
void hash_sum256(const void *data, size_t n, uint8_t out[32]);

/* ---- md2.c: MD2 (RFC 1319) and HMAC-MD2, for NVIDIA's integrity check ---- */

typedef struct md2_ctx {
   uint8_t x[48];   /* state, block, state ^ block */
   uint8_t c[16];   /* checksum */
   uint8_t buf[16];
   uint32_t nbuf;
} md2_ctx;
void md2_init(md2_ctx *c);
void md2_update(md2_ctx *c, const void *p, size_t n);
void md2_final(md2_ctx *c, uint8_t out[16]);
typedef struct hmac_md2_ctx {
   md2_ctx inner;
   uint8_t opad[16];
} hmac_md2_ctx;
void hmac_md2_init(hmac_md2_ctx *h, const void *key, size_t n);
void hmac_md2_update(hmac_md2_ctx *h, const void *p, size_t n);
void hmac_md2_final(hmac_md2_ctx *h, uint8_t out[16]);

/* A string-keyed map (open addressing) whose keys and table live in an
 * arena; values are pointers.  Used for symbol tables. */
typedef struct strmap {
   arena *ar;
   const char **keys;
   void **vals;
   uint32_t cap, len;
} strmap;
void strmap_init(strmap *m, arena *ar);
bool strmap_put(strmap *m, const char *key, void *val); /* key is not copied */
void *strmap_get(const strmap *m, const char *key);

/* A uint64-keyed map (open addressing, arena-backed); key 0 is reserved. */
typedef struct u64map {
   arena *ar;
   uint64_t *keys;
   void **vals;
   uint32_t cap, len;
} u64map;
void u64map_init(u64map *m, arena *ar);
/* The value slot for key (created as NULL if absent and create is set);
 * NULL if absent, or out of memory. */
void **u64map_slot(u64map *m, uint64_t key, bool create);

/* ---- log.c: channels and levels (Wine's debug channels) ---- */

enum log_level { LOG_LEVEL_NONE, LOG_LEVEL_ERROR, LOG_LEVEL_WARN, LOG_LEVEL_INFO, LOG_LEVEL_TRACE };

int log_level(void);                         /* from METALCUDA_LOG, default warn */
void log_set_level(int level);
void log_msg(int level, const char *channel, const char *func, const char *fmt, ...)
   MC_PRINTF(4, 5);
/* A hook that receives every message (tests capture with it). */
void log_set_sink(void (*sink)(int level, const char *msg, void *data), void *data);

#define LOG_CHANNEL(name) __attribute__((unused)) static const char log_channel_[] = #name
#define LOG_ERR(...) log_msg(LOG_LEVEL_ERROR, log_channel_, __func__, __VA_ARGS__)
#define LOG_WARN(...)                                                        \
   do { if (log_level() >= LOG_LEVEL_WARN)                                   \
           log_msg(LOG_LEVEL_WARN, log_channel_, __func__, __VA_ARGS__); } while (0)
#define LOG_INFO(...)                                                        \
   do { if (log_level() >= LOG_LEVEL_INFO)                                   \
           log_msg(LOG_LEVEL_INFO, log_channel_, __func__, __VA_ARGS__); } while (0)
#define LOG_TRACE(...)                                                       \
   do { if (log_level() >= LOG_LEVEL_TRACE)                                  \
           log_msg(LOG_LEVEL_TRACE, log_channel_, __func__, __VA_ARGS__); } while (0)
/* Say a gap out loud once per call site (Wine's FIXME once), whichever
 * thread gets there first. */
#define LOG_ONCE(level, ...)                                                 \
   do { static int once_;                                                    \
        if (!__atomic_exchange_n(&once_, 1, __ATOMIC_RELAXED))               \
           log_msg(level, log_channel_, __func__, __VA_ARGS__); } while (0)

/* ---- loghist.c: the log programs read (cuLogs*) ---- */

typedef void (*loghist_fn)(void *data, int level, char *msg, size_t len);
typedef struct loghist_callback loghist_callback;
/* Records a message (LOG_LEVEL_ERROR or WARN) and passes it to the
 * callbacks. */
void loghist_add(int level, const char *text);
loghist_callback *loghist_register(loghist_fn fn, void *data);   /* NULL: too many */
bool loghist_unregister(loghist_callback *c);                     /* false: not registered */
uint32_t loghist_current(void);            /* the iterator of the next message */
/* Dumps from *it (it NULL or *it 0: from the oldest kept) into buffer of
 * *size bytes, NUL-terminated; *size becomes the bytes written.  -1 when
 * no message fits. */
int loghist_dump_memory(uint32_t *it, char *buffer, size_t *size);
int loghist_dump_file(uint32_t *it, const char *path);   /* -1: cannot write it */

MC_NORETURN void mc_die(const char *fmt, ...) MC_PRINTF(1, 2);  /* broken invariant */

/* ---- fp.c: exact float conversions without relying on _Float16 ---- */

/* binary64 → binary16 bits, round to nearest even (overflow → inf, NaN
 * keeps its top payload bits and stays quiet). */
uint16_t fp_f64_to_f16(double v);
double fp_f16_to_f64(uint16_t h);

/* ---- file.c ---- */

/* Reads a whole file (a pipe too); *len gets its size; NUL-terminated.
 * NULL on error. */
char *file_read(const char *path, size_t *len);
/* Maps a whole regular file read-only, without copying it; NULL on error
 * or if it is empty.  Cache files are replaced by rename(2), never
 * rewritten in place, so a mapping of one keeps its contents.  The caller
 * unmaps it with file_unmap. */
const char *file_map(const char *path, size_t *len);
void file_unmap(const char *p, size_t len);
/* Writes atomically (temp file + rename), creating directories. */
bool file_write_atomic(const char *path, const void *data, size_t len);
bool dir_create_all(const char *path);
/* $METALCUDA_CACHE, else $XDG_CACHE_HOME/metalcuda, else ~/.cache/metalcuda.
 * Returns a static buffer; empty string if no cache directory can be named. */
const char *cache_dir(void);
/* Monotonic time in nanoseconds. */
uint64_t time_ns(void);

#endif
