/*
 * cache.c — the on-disk translation cache (cache.h).
 *
 * Layout: <cache dir>/ptx/<PTX sha-256>-<compiler id>.mod for a module,
 * ...-k<index>.msl for a kernel.  Records are little-endian fixed-size
 * integers and length-prefixed byte strings behind a magic and both keys,
 * and the file ends with an integrity sum of everything before it
 * (hash_sum256, util/hash.c): a damaged file (a torn disk, a stray edit) is a miss,
 * never wrong metadata.  The compiler id comes from the build (compiler_id.h, a hash of
 * every source the translation depends on).
 */
#include "cache.h"

#include "compiler_id.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TCACHE_MAGIC "metalcuda-tcache-2"

const char *tcache_compiler_id(void) { return MC_COMPILER_ID; }

static bool cache_path(char *out, size_t n, const char *hash, const char *suffix)
{
   const char *dir = cache_dir();
   if (!dir[0] || getenv("METALCUDA_NO_TRANSLATION_CACHE"))
      return false;
   return (size_t)snprintf(out, n, "%s/ptx/%s-%s%s", dir, hash, MC_COMPILER_ID, suffix) < n;
}

/* ---- writer ---- */

static void put_u64(strbuf *b, uint64_t v)
{
   char c[8];
   for (int k = 0; k < 8; k++)
      c[k] = (char)(v >> (8 * k));
   strbuf_putn(b, c, 8);
}

static void put_bytes(strbuf *b, const void *p, size_t n)
{
   put_u64(b, n);
   if (n)
      strbuf_putn(b, p, n);
}

static void put_str(strbuf *b, const char *s)
{
   /* NULL and "" differ (an absent initialiser vs an empty name) */
   if (!s) {
      put_u64(b, UINT64_MAX);
      return;
   }
   put_bytes(b, s, strlen(s));
}

static void put_header(strbuf *b, const char *hash, const char *what)
{
   put_str(b, TCACHE_MAGIC);
   put_str(b, MC_COMPILER_ID);
   put_str(b, hash);
   put_str(b, what);
}

static void store(const char *path, strbuf *b)
{
   if (b->s && !b->failed) {
      uint8_t sum[32];
      hash_sum256(b->s, b->len, sum);
      strbuf_putn(b, (const char *)sum, sizeof(sum));
   }
   if (b->s && !b->failed)
      file_write_atomic(path, b->s, b->len);
   strbuf_free(b);
}

/* ---- reader ---- */

typedef struct reader {
   const uint8_t *p, *end;
   arena *ar;
   bool bad;
} reader;

static uint64_t get_u64(reader *r)
{
   if (r->bad || r->end - r->p < 8) {
      r->bad = true;
      return 0;
   }
   uint64_t v = 0;
   for (int k = 0; k < 8; k++)
      v |= (uint64_t)r->p[k] << (8 * k);
   r->p += 8;
   return v;
}

static uint32_t get_u32(reader *r)
{
   uint64_t v = get_u64(r);
   if (v > UINT32_MAX)
      r->bad = true;
   return (uint32_t)v;
}

/* A counted array of `size`-byte records: refuses counts the rest of the
 * file cannot hold (each record takes at least 8 bytes in the file). */
static void *get_array(reader *r, uint32_t n, size_t size)
{
   if (r->bad || (uint64_t)n > (uint64_t)(r->end - r->p) / 8) {
      r->bad = true;
      return NULL;
   }
   void *a = arena_alloc(r->ar, ((size_t)n + 1) * size);
   if (!a)
      r->bad = true;
   return a;
}

/* The next string where it lies in the file (not NUL-terminated), its
 * length in *len; NULL for an absent string (and on error: check r->bad). */
static const char *get_str_ref(reader *r, size_t *len)
{
   uint64_t n = get_u64(r);
   if (r->bad || n == UINT64_MAX)
      return NULL;
   if (n > (uint64_t)(r->end - r->p)) {
      r->bad = true;
      return NULL;
   }
   const char *s = (const char *)r->p;
   r->p += n;
   *len = (size_t)n;
   return s;
}

/* The next string, copied into the arena; NULL as get_str_ref. */
static char *get_str(reader *r)
{
   size_t n;
   const char *ref = get_str_ref(r, &n);
   char *s = ref ? arena_strndup(r->ar, ref, n) : NULL;
   if (ref && !s)
      r->bad = true;
   return s;
}

static bool expect_str(reader *r, const char *want)
{
   char *s = get_str(r);
   return !r->bad && s && !strcmp(s, want);
}

/* The file mapped (*buf, *len: file_unmap them, also on failure), its sum
 * checked and its header read.  Mapped, not read: a kernel's file holds
 * its ~280 KB of MSL, which read() and the copies after it took ~200 page
 * faults to land at every process's first launch (bench/README.md). */
static bool open_reader(reader *r, const char **buf, size_t *len, const char *path, arena *ar, const char *hash,
                        const char *what)
{
   *buf = file_map(path, len);
   if (!*buf || *len < 32)
      return false;
   uint8_t sum[32];
   hash_sum256(*buf, *len - 32, sum);
   if (memcmp(sum, *buf + *len - 32, 32))
      return false;
   *r = (reader){ (const uint8_t *)*buf, (const uint8_t *)*buf + *len - 32, ar, false };
   return expect_str(r, TCACHE_MAGIC) && expect_str(r, MC_COMPILER_ID) && expect_str(r, hash) &&
          expect_str(r, what);
}

/* ---- modules ---- */

void tcache_store_module(const char *hash, const mc_module_meta *meta)
{
   char path[4096];
   if (!cache_path(path, sizeof(path), hash, ".mod"))
      return;
   strbuf b;
   strbuf_init(&b);
   put_header(&b, hash, "module");
   put_u64(&b, meta->sm);
   put_u64(&b, meta->data_bytes);
   put_u64(&b, meta->nkernels);
   for (uint32_t k = 0; k < meta->nkernels; k++) {
      put_str(&b, meta->kernel_names[k]);
      put_u64(&b, meta->kernel_tokens[k]);
   }
   put_u64(&b, meta->nglobals);
   for (uint32_t k = 0; k < meta->nglobals; k++) {
      const mc_global_info *g = &meta->globals[k];
      put_str(&b, g->name);
      put_u64(&b, g->is_const);
      put_u64(&b, g->offset);
      put_u64(&b, g->size);
      put_u64(&b, g->align);
      put_u64(&b, g->init != NULL);
      if (g->init)
         put_bytes(&b, g->init, (size_t)g->size);
      put_u64(&b, g->nrelocs);
      for (uint32_t j = 0; j < g->nrelocs; j++) {
         put_u64(&b, g->relocs[j].offset);
         put_u64(&b, g->relocs[j].target);
         put_u64(&b, (uint64_t)g->relocs[j].addend);
         put_u64(&b, g->relocs[j].size);
      }
   }
   store(path, &b);
}

static bool read_global(reader *r, mc_global_info *g, uint32_t nglobals)
{
   g->name = get_str(r);
   g->is_const = get_u64(r) != 0;
   g->offset = get_u64(r);
   g->size = get_u64(r);
   g->align = get_u32(r);
   if (get_u64(r)) {
      size_t n = 0;
      const char *init = get_str_ref(r, &n);
      g->init = init ? (const uint8_t *)arena_strndup(r->ar, init, n) : NULL;
      if (!g->init || n != g->size)
         r->bad = true;
   }
   g->nrelocs = get_u32(r);
   mc_reloc *rl = get_array(r, g->nrelocs, sizeof(*rl));
   for (uint32_t j = 0; j < g->nrelocs && !r->bad; j++) {
      rl[j].offset = get_u64(r);
      rl[j].target = get_u32(r);
      rl[j].addend = (int64_t)get_u64(r);
      rl[j].size = (uint8_t)get_u64(r);
      if (rl[j].target >= nglobals || (rl[j].size != 4 && rl[j].size != 8) ||
          rl[j].offset > g->size || g->size - rl[j].offset < rl[j].size)
         r->bad = true;
   }
   g->relocs = rl;
   return !r->bad && g->name;
}

bool tcache_load_module(const char *hash, arena *ar, mc_module_meta *meta)
{
   char path[4096];
   const char *buf = NULL;
   size_t len = 0;
   reader r;
   if (!cache_path(path, sizeof(path), hash, ".mod") || !open_reader(&r, &buf, &len, path, ar, hash, "module")) {
      file_unmap(buf, len);
      return false;
   }
   memset(meta, 0, sizeof(*meta));
   meta->sm = get_u32(&r);
   meta->data_bytes = get_u64(&r);
   meta->nkernels = get_u32(&r);
   meta->kernel_names = get_array(&r, meta->nkernels, sizeof(char *));
   meta->kernel_tokens = get_array(&r, meta->nkernels, sizeof(uint64_t));
   for (uint32_t k = 0; k < meta->nkernels && !r.bad; k++) {
      if (!(meta->kernel_names[k] = get_str(&r)))
         r.bad = true;
      meta->kernel_tokens[k] = get_u64(&r);
   }
   meta->nglobals = get_u32(&r);
   meta->globals = get_array(&r, meta->nglobals, sizeof(*meta->globals));
   for (uint32_t k = 0; k < meta->nglobals && !r.bad; k++)
      if (!read_global(&r, &meta->globals[k], meta->nglobals) ||
          meta->globals[k].offset > meta->data_bytes ||
          meta->data_bytes - meta->globals[k].offset < meta->globals[k].size)
         r.bad = true;
   bool ok = !r.bad && r.p == r.end;
   file_unmap(buf, len);
   return ok;
}

/* ---- kernels ---- */

/* A kernel's file; "-sd": the variant with shared memory in device memory
 * (compiler_options.shared_in_device); "-sN": translated for a recursion
 * stack of N bytes (compiler_options.stack_bytes) other than CUDA's
 * default. */
static void kernel_suffix(char *out, size_t n, uint32_t index, bool shared_in_device, uint32_t stack_bytes)
{
   char st[16] = "";
   if (stack_bytes && stack_bytes != MC_DEFAULT_STACK)
      snprintf(st, sizeof(st), "-s%u", stack_bytes);
   snprintf(out, n, "-k%u%s%s.msl", index, shared_in_device ? "-sd" : "", st);
}

void tcache_store_kernel(const char *hash, uint32_t index, bool shared_in_device, uint32_t stack_bytes,
                         const mc_kernel_info *info, const char *msl)
{
   char path[4096], suffix[48];
   kernel_suffix(suffix, sizeof(suffix), index, shared_in_device, stack_bytes);
   if (!cache_path(path, sizeof(path), hash, suffix))
      return;
   strbuf b;
   strbuf_init(&b);
   put_header(&b, hash, suffix);
   put_str(&b, info->name);
   put_str(&b, info->msl_name);
   put_u64(&b, info->nparams);
   for (uint32_t k = 0; k < info->nparams; k++) {
      put_str(&b, info->params[k].name);
      put_u64(&b, info->params[k].offset);
      put_u64(&b, info->params[k].size);
      put_u64(&b, info->params[k].align);
   }
   put_u64(&b, info->param_bytes);
   put_u64(&b, info->shared_static_bytes);
   put_u64(&b, info->uses_dynamic_shared);
   put_u64(&b, info->shared_dynamic_offset);
   put_u64(&b, info->shared_dynamic_align);
   put_u64(&b, info->local_bytes);
   put_u64(&b, info->uses_printf);
   put_u64(&b, info->uses_malloc);
   put_u64(&b, info->stack_bytes);
   for (int k = 0; k < 3; k++)
      put_u64(&b, info->reqntid[k]);
   for (int k = 0; k < 3; k++)
      put_u64(&b, info->maxntid[k]);
   put_str(&b, msl);
   store(path, &b);
}

char *tcache_load_kernel(const char *hash, uint32_t index, bool shared_in_device, uint32_t stack_bytes, arena *ar,
                         mc_kernel_info *info)
{
   char path[4096], suffix[48];
   const char *buf = NULL;
   size_t len = 0;
   kernel_suffix(suffix, sizeof(suffix), index, shared_in_device, stack_bytes);
   reader r;
   if (!cache_path(path, sizeof(path), hash, suffix) || !open_reader(&r, &buf, &len, path, ar, hash, suffix)) {
      file_unmap(buf, len);
      return NULL;
   }
   memset(info, 0, sizeof(*info));
   info->name = get_str(&r);
   info->msl_name = get_str(&r);
   info->nparams = get_u32(&r);
   mc_kparam *p = get_array(&r, info->nparams, sizeof(*p));
   for (uint32_t k = 0; k < info->nparams && !r.bad; k++) {
      p[k].name = get_str(&r);
      p[k].offset = get_u32(&r);
      p[k].size = get_u32(&r);
      p[k].align = get_u32(&r);
   }
   info->params = p;
   info->param_bytes = get_u32(&r);
   info->shared_static_bytes = get_u32(&r);
   info->uses_dynamic_shared = get_u64(&r) != 0;
   info->shared_dynamic_offset = get_u32(&r);
   info->shared_dynamic_align = get_u32(&r);
   info->local_bytes = get_u32(&r);
   info->uses_printf = get_u64(&r) != 0;
   info->uses_malloc = get_u64(&r) != 0;
   info->stack_bytes = get_u32(&r);
   for (int k = 0; k < 3; k++)
      info->reqntid[k] = get_u32(&r);
   for (int k = 0; k < 3; k++)
      info->maxntid[k] = get_u32(&r);
   size_t n = 0;
   const char *msl = get_str_ref(&r, &n);     /* copied once, into what the caller owns */
   char *out = !r.bad && msl && r.p == r.end && info->name && info->msl_name ? mc_malloc(n + 1) : NULL;
   if (out) {
      memcpy(out, msl, n);
      out[n] = 0;
   }
   info->from_cache = true;
   file_unmap(buf, len);
   return out;
}
