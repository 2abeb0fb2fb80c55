/*
 * module.c — modules and kernels.
 *
 * Loading a module extracts its PTX (fatbin wrapper, fatbin, or PTX text),
 * parses it and lays out its .global/.const variables in one block of device
 * memory, filled from the initialisers with addresses patched in.  Kernels
 * are translated lazily, on first launch or attribute query
 * (core_kernel_prepare), each into its own Metal library, so a program that
 * carries thousands of kernels pays only for those it runs.  A translation
 * error is remembered: every launch of that kernel fails the same way, with
 * the message logged once.
 */
#include "core.h"

#include "../fatbin/fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(module);

bool core_check_module(const core_module *m) { return m && m->magic == CORE_MAGIC_MODULE; }
bool core_check_kernel(const core_kernel *k) { return k && k->magic == CORE_MAGIC_KERNEL; }

int core_fatbin_error(int status)
{
   fatbin_status st = (fatbin_status)status;
   switch (st) {
   case FATBIN_ERR_NO_PTX: return CORE_ERROR_NO_BINARY_FOR_GPU;
   case FATBIN_ERR_NOMEM: return CORE_ERROR_OUT_OF_MEMORY;
   case FATBIN_ERR_CODEC_MISSING: return CORE_ERROR_SHARED_OBJECT_INIT_FAILED;
   default: return CORE_ERROR_INVALID_IMAGE;
   }
}

/* Copies initialisers and patches addresses into the data block. */
static void init_globals(core_module *m)
{
   uint8_t *data = (uint8_t *)(uintptr_t)m->data;
   memset(data, 0, compiler_data_bytes(m->cm));
   for (uint32_t k = 0; k < compiler_global_count(m->cm); k++) {
      const mc_global_info *g = compiler_global(m->cm, k);
      if (g->init)
         memcpy(data + g->offset, g->init, g->size);
      for (uint32_t r = 0; r < g->nrelocs; r++) {
         const mc_reloc *rl = &g->relocs[r];
         uint64_t addr = m->data + compiler_global(m->cm, rl->target)->offset + (uint64_t)rl->addend;
         memcpy(data + g->offset + rl->offset, &addr, rl->size);
      }
   }
}

static int module_create(core_ctx *c, char *ptx, size_t len, core_module **out)
{
   char *err = NULL;
   mc_module *cm = compiler_module_open(ptx, len, true, &err);
   if (!cm) {
      LOG_ERR("cannot load PTX module: %s", err ? err : "out of memory");
      int r = err && strstr(err, "out of memory") ? CORE_ERROR_OUT_OF_MEMORY : CORE_ERROR_INVALID_PTX;
      free(err);
      free(ptx);
      return r;
   }
   core_module *m = mc_calloc(1, sizeof(*m));
   uint32_t nk = compiler_kernel_count(cm);
   core_kernel *ks = mc_calloc(nk ? nk : 1, sizeof(*ks));
   int r = m && ks ? CORE_SUCCESS : CORE_ERROR_OUT_OF_MEMORY;
   if (r == CORE_SUCCESS && compiler_data_bytes(cm))
      r = core_mem_alloc_internal(c->dev, compiler_data_bytes(cm), &m->data);
   if (r != CORE_SUCCESS) {
      free(ks);
      free(m);
      compiler_module_free(cm);
      free(ptx);
      return r;
   }
   m->magic = CORE_MAGIC_MODULE;
   m->ctx = c;
   m->cm = cm;
   m->ptx = ptx;
   m->kernels = ks;
   m->nkernels = nk;
   for (uint32_t k = 0; k < nk; k++) {
      ks[k].magic = CORE_MAGIC_KERNEL;
      ks[k].module = m;
      ks[k].index = k;
      ks[k].name = compiler_kernel_name(cm, k);
      ks[k].max_dynamic_shared = ks[k].carveout = ks[k].cache_config = -1;
      pthread_mutex_init(&ks[k].lock, NULL);
   }
   if (m->data)
      init_globals(m);
   uint64_t var;
   size_t size;
   m->devrt = core_module_get_global(m, "__mc_dp_queue", &var, &size) == CORE_SUCCESS;
   core_dump("ptx", compiler_module_hash(cm), NULL, ptx);
   pthread_mutex_lock(&c->lock);
   m->next = c->modules;
   c->modules = m;
   pthread_mutex_unlock(&c->lock);
   LOG_INFO("loaded PTX module %.16s (sm_%u): %u kernels, %u globals (%s)", compiler_module_hash(cm),
            compiler_module_sm(cm), nk, compiler_global_count(cm),
            compiler_module_parsed(cm) ? "parsed" : "described by the translation cache");
   *out = m;
   return CORE_SUCCESS;
}

int core_link_ptx(const char *const *texts, const size_t *lens, uint32_t n, char **ptx, size_t *len)
{
   char *lerr = NULL;
   *ptx = compiler_link_ptx(texts, lens, n, len, &lerr);
   if (*ptx)
      return CORE_SUCCESS;
   LOG_ERR("cannot link the PTX of %u units: %s", n, lerr ? lerr : "out of memory");
   int r = lerr && !strstr(lerr, "out of memory") ? CORE_ERROR_INVALID_PTX : CORE_ERROR_OUT_OF_MEMORY;
   free(lerr);
   return r;
}

int core_module_load(core_ctx *c, const void *image, size_t image_len, core_module **out)
{
   int major, minor;
   core_device_cc(c->dev, &major, &minor);
   char err[512] = "";
   fatbin_ptx_units units;
   fatbin_status st = fatbin_extract_ptx_units(image, image_len, (uint32_t)(major * 10 + minor), &units, err,
                                               sizeof(err));
   if (st != FATBIN_OK) {
      LOG_ERR("cannot load module: %s", err[0] ? err : "malformed image");
      return core_fatbin_error(st);
   }
   /* CUDA 12's device runtime, when the units call it, as one more unit
    * (NVIDIA's cudadevrt unit keeps its other functions) */
   if (core_devrt_needed((const char *const *)units.text, units.len, units.n)) {
      for (uint32_t u = 0; u < units.n; u++)
         core_devrt_rename_nvidia(units.text[u], units.len[u]);
      size_t dlen;
      const char *d = core_devrt_ptx(&dlen);
      char *copy = mc_malloc(dlen + 1);
      if (!copy || !fatbin_ptx_units_add(&units, copy, dlen)) {
         free(copy);
         fatbin_ptx_units_free(&units);
         return CORE_ERROR_OUT_OF_MEMORY;
      }
      memcpy(copy, d, dlen + 1);
   }
   if (units.n == 1) {
      /* whole-program code: the text is the module's */
      char *ptx = units.text[0];
      size_t len = units.len[0];
      units.text[0] = NULL;
      fatbin_ptx_units_free(&units);
      return module_create(c, ptx, len, out);
   }
   /* -rdc=true: the device-link image names every unit, whose PTX is
    * linked here as nvlink links their SASS. */
   char *ptx;
   size_t len;
   uint32_t n = units.n;
   int r = core_link_ptx((const char *const *)units.text, units.len, n, &ptx, &len);
   fatbin_ptx_units_free(&units);
   if (r != CORE_SUCCESS)
      return r;
   LOG_INFO("linked the PTX of %u units of relocatable device code", n);
   return module_create(c, ptx, len, out);
}

int core_library_load(core_ctx *c, const void *image, size_t image_len, core_module **out)
{
   int r = core_module_load(c, image, image_len, out);
   if (r == CORE_SUCCESS)
      (*out)->library = true;
   return r;
}

void core_module_reset(core_module *m)
{
   if (m->data)
      init_globals(m);
}

static void kernel_release(core_kernel *k)
{
   mtl_pipeline *p[] = { k->pipeline, k->sd_pipeline, k->st_pipeline };
   mtl_function *f[] = { k->fn, k->sd_fn, k->st_fn };
   mtl_library *l[] = { k->lib, k->sd_lib, k->st_lib };
   for (int v = 0; v < 3; v++) {
      if (p[v])
         mtl_pipeline_release(p[v]);
      if (f[v])
         mtl_function_release(f[v]);
      if (l[v])
         mtl_library_release(l[v]);
   }
   k->magic = CORE_MAGIC_DEAD;
   pthread_mutex_destroy(&k->lock);
}

int core_module_unload(core_module *m)
{
   core_ctx *c = m->ctx;
   /* A library kept by a context that was reset: nothing of it runs, and
    * the context has no lock until it is revived. */
   bool live = core_check_ctx(c);
   if (live) {
      /* Kernels of this module may still be running. */
      core_ctx_synchronize(c);
      pthread_mutex_lock(&c->lock);
   }
   for (core_module **p = &c->modules; *p; p = &(*p)->next) {
      if (*p == m) {
         *p = m->next;
         break;
      }
   }
   if (live)
      pthread_mutex_unlock(&c->lock);
   for (uint32_t k = 0; k < m->nkernels; k++)
      kernel_release(&m->kernels[k]);
   if (m->data)
      core_mem_free_internal(c->dev, m->data);
   if (m->devrt_queue)
      core_mem_free_internal(c->dev, m->devrt_queue);
   compiler_module_free(m->cm);
   free(m->kernels);
   free(m->ptx);
   m->magic = CORE_MAGIC_DEAD;
   free(m);
   return CORE_SUCCESS;
}

int core_module_get_kernel(core_module *m, const char *name, core_kernel **out)
{
   int idx = compiler_kernel_find(m->cm, name);
   if (idx < 0)
      return CORE_ERROR_NOT_FOUND;
   *out = &m->kernels[idx];
   return CORE_SUCCESS;
}

int core_module_get_global(core_module *m, const char *name, uint64_t *ptr, size_t *size)
{
   int idx = compiler_global_find(m->cm, name);
   if (idx < 0)
      return CORE_ERROR_NOT_FOUND;
   const mc_global_info *g = compiler_global(m->cm, (uint32_t)idx);
   if (ptr)
      *ptr = m->data + g->offset;
   if (size)
      *size = (size_t)g->size;
   return CORE_SUCCESS;
}

uint32_t core_module_kernel_count(const core_module *m) { return m->nkernels; }

core_kernel *core_module_kernel_at(core_module *m, uint32_t i) { return i < m->nkernels ? &m->kernels[i] : NULL; }

core_module *core_kernel_module(const core_kernel *k) { return k->module; }
bool core_module_is_library(const core_module *m) { return m->library; }

/* The recursion stack a translation gets now: the context's
 * cudaLimitStackSize (compiler_options.stack_bytes). */
static uint32_t stack_now(core_kernel *k)
{
   size_t v = MC_DEFAULT_STACK;
   core_ctx_get_limit(k->module->ctx, CORE_LIMIT_STACK_SIZE, &v);
   return v > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)v;
}

/* Translates the kernel, with its shared memory in device memory when sd
 * (compiler_options.shared_in_device), for a recursion stack of stack
 * bytes. */
static int translate_variant_stack(core_kernel *k, bool sd, uint32_t stack, mc_kernel_info *info, char **msl)
{
   char *err = NULL;
   const compiler_options co = { .shared_in_device = sd, .stack_bytes = stack };
   *msl = compiler_translate_kernel(k->module->cm, k->index, &co, info, &err);
   if (*msl)
      return CORE_SUCCESS;
   LOG_ERR("%s", err ? err : "out of memory");
   int r = err && strstr(err, "out of memory") ? CORE_ERROR_OUT_OF_MEMORY : CORE_ERROR_INVALID_PTX;
   free(err);
   return r;
}

static int translate_variant(core_kernel *k, bool sd, mc_kernel_info *info, char **msl)
{
   return translate_variant_stack(k, sd, stack_now(k), info, msl);
}

/* Compiles a translation (freed here) into *lib, *fn, *pipeline. */
static int build_variant(core_kernel *k, char *msl, const mc_kernel_info *info, bool sd, mtl_library **lib,
                         mtl_function **fn, mtl_pipeline **pipeline)
{
   core_module *m = k->module;
   char *err = NULL;
   core_dump("metal", compiler_module_hash(m->cm), k->name, msl);
   mtl_device *dev = core_device_mtl(m->ctx->dev);
   /* The pinned language version, on every device (mtl.h MTL_MSL_VERSION). */
   mtl_compile_options opts = { .language_version = MTL_MSL_VERSION };
   opts.fast_math = getenv("METALCUDA_FAST_MATH") && *getenv("METALCUDA_FAST_MATH") == '1';
   uint64_t t0 = time_ns();
   *lib = mtl_library_new(dev, msl, &opts, &err);
   free(msl);
   if (*lib)
      *fn = mtl_function_new(*lib, info->msl_name, &err);
   if (*fn)
      *pipeline = mtl_pipeline_new(dev, *fn, &err);
   if (!*pipeline) {
      LOG_ERR("Metal rejected the translation of kernel '%s' (a metalcuda bug): %s", k->name,
              err ? err : "unknown error");
      free(err);
      return CORE_ERROR_INVALID_PTX;
   }
   LOG_INFO("kernel %s%s ready in %.1f ms (%s)", k->name, sd ? " (shared memory in device memory)" : "",
            (double)(time_ns() - t0) / 1e6, info->from_cache ? "translation from the cache" : "translated");
   return CORE_SUCCESS;
}

/* The kernel's main variant: with threadgroup memory, unless its static
 * shared memory alone is more than the device has (then every launch
 * needs the variant with shared memory in device memory). */
static int compile_kernel(core_kernel *k)
{
   char *msl;
   int r = translate_variant(k, false, &k->info, &msl);
   if (r == CORE_SUCCESS &&
       k->info.shared_static_bytes > core_device_info(k->module->ctx->dev)->max_threadgroup_memory) {
      free(msl);
      k->shared_in_device = true;
      r = translate_variant(k, true, &k->info, &msl);
   }
   if (r != CORE_SUCCESS)
      return r;
   return build_variant(k, msl, &k->info, k->shared_in_device, &k->lib, &k->fn, &k->pipeline);
}

int core_kernel_prepare_sd(core_kernel *k, mtl_pipeline **out)
{
   int r = core_kernel_prepare(k);
   if (r != CORE_SUCCESS)
      return r;
   if (k->shared_in_device) {
      *out = k->pipeline;
      return CORE_SUCCESS;
   }
   pthread_mutex_lock(&k->lock);
   if (!k->sd_tried) {
      mc_kernel_info info;
      char *msl;
      k->sd_error = translate_variant(k, true, &info, &msl);
      if (k->sd_error == CORE_SUCCESS)
         k->sd_error = build_variant(k, msl, &info, true, &k->sd_lib, &k->sd_fn, &k->sd_pipeline);
      k->sd_tried = true;
   }
   r = k->sd_error;
   *out = k->sd_pipeline;
   pthread_mutex_unlock(&k->lock);
   return r;
}

/* A recursive kernel translated for another stack size than the
 * context's cudaLimitStackSize now: its variant for the new size, made
 * once (st_*); a third size is refused rather than replacing a pipeline
 * that launches in flight may use. */
int core_kernel_prepare_stack(core_kernel *k, mtl_pipeline **out)
{
   uint32_t want = stack_now(k);
   if (!k->info.stack_bytes || k->info.stack_bytes == want)
      return CORE_SUCCESS;
   if (k->shared_in_device || *out != k->pipeline) {
      LOG_WARN("kernel %s: a recursion stack of %u bytes (cudaLimitStackSize) with shared memory beyond the "
               "threadgroup memory is not supported after the kernel first ran with %u", k->name, want,
               k->info.stack_bytes);
      return CORE_ERROR_NOT_SUPPORTED;
   }
   pthread_mutex_lock(&k->lock);
   int r = CORE_SUCCESS;
   if (!k->st_pipeline) {
      mc_kernel_info info;
      char *msl;
      r = translate_variant_stack(k, false, want, &info, &msl);
      if (r == CORE_SUCCESS)
         r = build_variant(k, msl, &info, false, &k->st_lib, &k->st_fn, &k->st_pipeline);
      if (r == CORE_SUCCESS)
         k->st_bytes = want;
   } else if (k->st_bytes != want) {
      LOG_WARN("kernel %s: cudaLimitStackSize changed a second time after the kernel ran (%u, then %u, now %u "
               "bytes): not supported", k->name, k->info.stack_bytes, k->st_bytes, want);
      r = CORE_ERROR_NOT_SUPPORTED;
   }
   if (r == CORE_SUCCESS)
      *out = k->st_pipeline;
   pthread_mutex_unlock(&k->lock);
   return r;
}

int core_kernel_prepare(core_kernel *k)
{
   pthread_mutex_lock(&k->lock);
   if (!k->translated) {
      k->error = compile_kernel(k);
      k->translated = true;
   }
   int r = k->error;
   pthread_mutex_unlock(&k->lock);
   return r;
}
