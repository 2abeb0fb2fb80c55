/*
 * compiler.c — the compiler's front door (compiler.h): parse a module once,
 * lay out its globals, then translate kernels on demand.
 *
 * Each translation builds the kernel's IR in a scratch arena that is freed
 * afterwards, so translating a few kernels of a huge module costs only
 * those kernels (lazy per-kernel translation, ARCHITECTURE §4).  The module
 * arena keeps the AST, the globals and the kernel infos handed out.
 *
 * A module opened with the cache (compiler_module_open) first looks for its
 * metadata and then for each kernel's translation on disk (cache.c); the
 * PTX is parsed only when something is missing.
 */
#include "compiler.h"

#include "cache.h"

#include "ir/ir.h"
#include "msl/msl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mc_module {
   arena ar;                  /* AST, globals, infos: lives with the module */
   const char *text;          /* the caller's PTX text (outlives the module) */
   size_t len;
   bool use_cache;
   ptx_module *ptx;           /* NULL until parsed */
   const ptx_func **kernels;  /* parsed entries, in meta.kernel_names order */
   char hash[65];
   mc_module_meta meta;       /* what compiler.h hands out */
};

static char *err_dup(const char *fmt, ...) MC_PRINTF(1, 2);
static char *err_dup(const char *fmt, ...)
{
   char buf[2048];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof(buf), fmt, ap);
   va_end(ap);
   return mc_strdup(buf);
}

/* Whether decl k is a kernel of the module: an .entry, and not a
 * declaration of one the module defines (clang's -fgpu-rdc PTX declares a
 * template kernel before the table that takes its address, and linked
 * units may each declare and define one). */
static bool is_kernel(const ptx_module *p, uint32_t k)
{
   if (p->decls[k].kind != PTX_DECL_FUNC || !p->decls[k].u.func->is_entry)
      return false;
   const ptx_func *f = p->decls[k].u.func;
   return f->has_body || !f->name || ptx_find_func(p, f->name) == f;
}

static bool collect_kernels(mc_module *m)
{
   const ptx_module *p = m->ptx;
   uint32_t n = 0;
   for (uint32_t k = 0; k < p->ndecls; k++)
      n += is_kernel(p, k);
   m->kernels = arena_alloc(&m->ar, (n + 1) * sizeof(*m->kernels));
   if (!m->kernels)
      return false;
   n = 0;
   for (uint32_t k = 0; k < p->ndecls; k++)
      if (is_kernel(p, k))
         m->kernels[n++] = p->decls[k].u.func;
   return true;
}

static bool list_kernel_names(mc_module *m)
{
   uint32_t n = 0;
   for (uint32_t k = 0; k < m->ptx->ndecls; k++)
      n += is_kernel(m->ptx, k);
   m->meta.nkernels = n;
   m->meta.kernel_names = arena_alloc(&m->ar, (n + 1) * sizeof(char *));
   m->meta.kernel_tokens = arena_alloc(&m->ar, (n + 1) * sizeof(uint64_t));
   if (!m->meta.kernel_names || !m->meta.kernel_tokens)
      return false;
   for (uint32_t k = 0; k < n; k++) {
      m->meta.kernel_names[k] = m->kernels[k]->name;
      m->meta.kernel_tokens[k] = ir_func_token(m->ptx, m->kernels[k]->name);
   }
   return true;
}

/* An initialiser word holding a function's address gets the function's
 * token (MC_FUNC_WINDOW) written into a copy of the initial bytes; false
 * if ir names no function of the module.  o->init NULL after true: out of
 * memory. */
static bool func_token(mc_module *m, mc_global_info *o, const ir_reloc *ir)
{
   uint64_t token = ir_func_token(m->ptx, ir->sym);
   if (!token || ir->size > 8 || ir->offset + ir->size > o->size)
      return false;
   uint8_t *init = arena_alloc(&m->ar, o->size ? o->size : 1);
   if (init && o->init)
      memcpy(init, o->init, o->size);
   o->init = init;
   if (init) {
      token += (uint64_t)ir->addend;
      memcpy(init + ir->offset, &token, ir->size);
   }
   return true;
}

static bool export_globals(mc_module *m, ir_module *im, char **err)
{
   m->meta.data_bytes = im->data_bytes;
   m->meta.nglobals = im->globals.len;
   m->meta.globals = arena_alloc(&m->ar, (m->meta.nglobals + 1) * sizeof(*m->meta.globals));
   if (!m->meta.globals)
      return false;
   for (uint32_t k = 0; k < m->meta.nglobals; k++) {
      const ir_global *g = &im->globals.data[k];
      mc_global_info *o = &m->meta.globals[k];
      o->name = g->name;
      o->is_const = g->space == IR_SPACE_CONST;
      o->offset = g->offset;
      o->size = g->size;
      o->align = g->align;
      o->init = g->init;
      o->nrelocs = g->relocs.len;
      mc_reloc *r = arena_alloc(&m->ar, (g->relocs.len + 1) * sizeof(*r));
      if (!r)
         return false;
      uint32_t nr = 0;
      for (uint32_t j = 0; j < g->relocs.len; j++) {
         const ir_reloc *ir = &g->relocs.data[j];
         const ir_global *t = strmap_get(&im->global_map, ir->sym);
         if (!t && func_token(m, o, ir)) {
            if (!o->init)
               return false;
            continue;
         }
         if (!t) {
            *err = err_dup("initialiser of '%s' refers to '%s', which is not a .global/.const variable "
                           "of this module", g->name, ir->sym);
            return false;
         }
         r[nr].offset = ir->offset;
         r[nr].target = (uint32_t)(t - im->globals.data);
         r[nr].addend = ir->addend;
         r[nr].size = ir->size;
         nr++;
      }
      o->nrelocs = nr;
      o->relocs = r;
   }
   return true;
}

/* Parses the text (once); errors at module level fail, errors inside a
 * function stay with it. */
static bool parse_module(mc_module *m, char **err)
{
   if (m->ptx)
      return true;
   m->ptx = ptx_parse_module(&m->ar, m->text, m->len);
   if (!m->ptx) {
      *err = err_dup("out of memory while parsing PTX");
      return false;
   }
   for (uint32_t k = 0; k < m->ptx->nerrors; k++) {
      const ptx_error *e = &m->ptx->errors[k];
      bool in_func = false;
      for (uint32_t d = 0; d < m->ptx->ndecls && !in_func; d++) {
         const ptx_decl *dc = &m->ptx->decls[d];
         in_func = dc->kind == PTX_DECL_FUNC && dc->u.func->error == e->msg;
      }
      if (!in_func) {
         *err = err_dup("PTX %s", e->msg);
         return false;
      }
   }
   if (m->ptx->address_size != 64) {
      *err = err_dup("PTX with .address_size %u is not supported (64-bit only)", m->ptx->address_size);
      return false;
   }
   if (!collect_kernels(m)) {
      *err = err_dup("out of memory");
      return false;
   }
   return true;
}

/* Kernel names, globals and their layout, from the parsed module. */
static bool describe_module(mc_module *m, char **err)
{
   ir_module *im = ir_module_create(&m->ar, m->ptx);
   if (!im || !ir_build_globals(im)) {
      *err = err_dup("%s", im && im->error ? im->error : "out of memory");
      return false;
   }
   m->meta.sm = m->ptx->sm;
   if (!list_kernel_names(m) || !export_globals(m, im, err)) {
      if (!*err)
         *err = err_dup("out of memory");
      return false;
   }
   return true;
}

mc_module *compiler_module_open(const char *ptx, size_t len, bool use_cache, char **err)
{
   *err = NULL;
   mc_module *m = mc_calloc(1, sizeof(*m));
   if (!m) {
      *err = err_dup("out of memory");
      return NULL;
   }
   arena_init(&m->ar, 256 * 1024);
   m->text = ptx;
   m->len = len;
   m->use_cache = use_cache;
   sha256_hex(ptx, len, m->hash);
   if (use_cache && tcache_load_module(m->hash, &m->ar, &m->meta))
      return m;
   if (!parse_module(m, err) || !describe_module(m, err))
      goto fail;
   if (m->ar.failed) {
      *err = err_dup("out of memory");
      goto fail;
   }
   if (use_cache)
      tcache_store_module(m->hash, &m->meta);
   return m;
fail:
   compiler_module_free(m);
   return NULL;
}

mc_module *compiler_module_load(const char *ptx, size_t len, char **err)
{
   return compiler_module_open(ptx, len, false, err);
}

char *compiler_link_ptx(const char *const *texts, const size_t *lens, uint32_t n, size_t *out_len,
                        char **err)
{
   return ptx_link(texts, lens, n, out_len, err);
}

void compiler_module_free(mc_module *m)
{
   if (!m)
      return;
   arena_free_all(&m->ar);
   free(m);
}

const char *compiler_module_hash(const mc_module *m) { return m->hash; }
uint32_t compiler_module_sm(const mc_module *m) { return m->meta.sm; }
uint32_t compiler_kernel_count(const mc_module *m) { return m->meta.nkernels; }
bool compiler_module_parsed(const mc_module *m) { return m->ptx != NULL; }

const char *compiler_kernel_name(const mc_module *m, uint32_t index)
{
   return index < m->meta.nkernels ? m->meta.kernel_names[index] : NULL;
}

int compiler_kernel_by_token(const mc_module *m, uint64_t token)
{
   for (uint32_t k = 0; k < m->meta.nkernels; k++)
      if (m->meta.kernel_tokens[k] == token)
         return (int)k;
   return -1;
}

int compiler_kernel_find(const mc_module *m, const char *name)
{
   for (uint32_t k = 0; k < m->meta.nkernels; k++)
      if (!strcmp(m->meta.kernel_names[k], name))
         return (int)k;
   return -1;
}

uint32_t compiler_global_count(const mc_module *m) { return m->meta.nglobals; }

const mc_global_info *compiler_global(const mc_module *m, uint32_t index)
{
   return index < m->meta.nglobals ? &m->meta.globals[index] : NULL;
}

int compiler_global_find(const mc_module *m, const char *name)
{
   for (uint32_t k = 0; k < m->meta.nglobals; k++)
      if (!strcmp(m->meta.globals[k].name, name))
         return (int)k;
   return -1;
}

uint64_t compiler_data_bytes(const mc_module *m) { return m->meta.data_bytes; }

/* Fills info (strings copied into the module arena, which outlives the
 * scratch arena the IR lived in). */
static bool fill_info(mc_module *m, const ir_func *f, const char *msl_name, mc_kernel_info *info)
{
   memset(info, 0, sizeof(*info));
   info->name = f->name;   /* points into the AST (module arena) */
   info->msl_name = arena_strdup(&m->ar, msl_name);
   info->nparams = f->params.len;
   mc_kparam *p = arena_alloc(&m->ar, (f->params.len + 1) * sizeof(*p));
   if (!p || !info->msl_name)
      return false;
   for (uint32_t k = 0; k < f->params.len; k++) {
      p[k].name = f->params.data[k].name;
      p[k].offset = f->params.data[k].offset;
      p[k].size = f->params.data[k].size;
      p[k].align = f->params.data[k].align;
   }
   info->params = p;
   info->param_bytes = f->param_bytes;
   info->shared_static_bytes = f->shared_static_bytes;
   info->uses_dynamic_shared = f->uses_dynamic_shared;
   info->shared_dynamic_align = f->shared_dynamic_align;
   info->shared_dynamic_offset = (uint32_t)ALIGN_UP(f->shared_static_bytes, f->shared_dynamic_align);
   info->local_bytes = MC_MAX(f->local_total, f->local_bytes);
   info->uses_printf = f->uses_printf;
   info->uses_malloc = f->uses_malloc;
   info->stack_bytes = f->stack_bytes;
   memcpy(info->reqntid, f->reqntid, sizeof(info->reqntid));
   memcpy(info->maxntid, f->maxntid, sizeof(info->maxntid));
   return true;
}

/* Translates kernels[idx] and the .funcs it calls (its library: each .func
 * once, callees before callers, named after the kernel) appending the MSL
 * to out. */
static bool translate_one(mc_module *m, uint32_t idx, const compiler_options *opts, strbuf *out,
                          mc_kernel_info *info, char **err)
{
   arena scratch;
   arena_init(&scratch, 256 * 1024);
   ir_module *im = ir_module_create(&scratch, m->ptx);
   bool ok = im && ir_build_globals(im);
   ir_func *f = ok ? ir_build_func(im, m->kernels[idx]) : NULL;
   ir_pipeline_options po = { .optimize = !(opts && opts->no_optimize) };
   if (f) {
      f->shared_in_device = opts && opts->shared_in_device;
      f->stack_bytes = opts && opts->stack_bytes ? opts->stack_bytes : MC_DEFAULT_STACK;
   }
   ok = f && ir_link_calls(im, f) && ir_run_pipeline(im, &po);
   char name[64];
   snprintf(name, sizeof(name), "mc_kernel_%u", idx);
   if (ok)
      ir_foreach_func(g, im)
         if (g != f && ok)
            ok = msl_emit_func(out, g, name);
   ok = ok && msl_emit_kernel(out, f, name) && fill_info(m, f, name, info);
   if (!ok)
      *err = err_dup("cannot translate kernel '%s': %s", m->kernels[idx]->name,
                     im && im->error ? im->error : "out of memory");
   arena_free_all(&scratch);
   return ok;
}

char *compiler_translate_kernel(mc_module *m, uint32_t index, const compiler_options *opts,
                                mc_kernel_info *info, char **err)
{
   *err = NULL;
   if (index >= m->meta.nkernels) {
      *err = err_dup("no kernel with index %u", index);
      return NULL;
   }
   bool cached = m->use_cache && !(opts && opts->no_optimize);
   if (cached) {
      char *msl = tcache_load_kernel(m->hash, index, opts && opts->shared_in_device, opts ? opts->stack_bytes : 0,
                                     &m->ar, info);
      if (msl)
         return msl;
   }
   if (!parse_module(m, err))
      return NULL;
   strbuf out;
   strbuf_init(&out);
   char comment[512];
   snprintf(comment, sizeof(comment), "PTX module %.16s, kernel %s", m->hash, m->kernels[index]->name);
   msl_emit_header(&out, comment, opts && opts->shared_in_device);
   if (!translate_one(m, index, opts, &out, info, err)) {
      strbuf_free(&out);
      return NULL;
   }
   char *s = strbuf_take(&out);
   if (!s)
      *err = err_dup("out of memory");
   else if (cached)
      tcache_store_kernel(m->hash, index, opts && opts->shared_in_device, opts ? opts->stack_bytes : 0, info, s);
   return s;
}

/* Every kernel with its own library (a .func two kernels call appears
 * once per kernel, under each kernel's name), as the runtime compiles them. */
char *compiler_translate_all(mc_module *m, const compiler_options *opts, mc_kernel_info *infos, char **err)
{
   *err = NULL;
   if (!parse_module(m, err))
      return NULL;
   strbuf out;
   strbuf_init(&out);
   char comment[128];
   snprintf(comment, sizeof(comment), "PTX module %.16s", m->hash);
   msl_emit_header(&out, comment, opts && opts->shared_in_device);
   for (uint32_t k = 0; k < m->meta.nkernels; k++) {
      if (!translate_one(m, k, opts, &out, &infos[k], err)) {
         strbuf_free(&out);
         return NULL;
      }
   }
   char *s = strbuf_take(&out);
   if (!s)
      *err = err_dup("out of memory");
   return s;
}
