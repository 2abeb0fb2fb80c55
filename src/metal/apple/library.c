/*
 * library.c — MSL libraries, kernel functions and compute pipelines.
 *
 * Libraries are compiled from source by the OS's Metal compiler, in IEEE
 * mode unless fast math is asked for (ARCHITECTURE §4): on macOS 15 and
 * later mathMode = safe and mathFloatingPointFunctions = precise; before,
 * fastMathEnabled = NO (the only switch there is).  Fast math is on by
 * default in Metal, so the options are always set.
 *
 * Pipelines are created with binding reflection, which gives the buffer
 * and threadgroup indices the kernel declares: the encoding rules check
 * them as the software device does (an index the kernel uses left
 * unbound fails the command buffer instead of reading garbage).
 */
#include "apple.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(apple);

/* ---- libraries ---- */

static void set_math(id co, bool fast)
{
   if (apple_responds(co, apple_sel.setMathMode)) {
      apple_void_int(co, apple_sel.setMathMode, fast ? APPLE_MATH_MODE_FAST : APPLE_MATH_MODE_SAFE);
      if (apple_responds(co, apple_sel.setMathFloatingPointFunctions))
         apple_void_int(co, apple_sel.setMathFloatingPointFunctions,
                        fast ? APPLE_MATH_FUNCTIONS_FAST : APPLE_MATH_FUNCTIONS_PRECISE);
   } else {
      APPLE_SEND(void (*)(id, SEL, BOOL), co, apple_sel.setFastMathEnabled, (BOOL)fast);
   }
}

/* MTLCompileOptions for opts (owned). */
static id compile_options(mtl_device *dev, const mtl_compile_options *opts)
{
   id co = apple_id(apple_id(apple_cls.MTLCompileOptions, apple_sel.alloc), apple_sel.init);
   if (!co)
      return NULL;
   uint32_t v = opts && opts->language_version ? opts->language_version : dev->info.msl_version;
   APPLE_SEND(void (*)(id, SEL, NSUInteger), co, apple_sel.setLanguageVersion,
              apple_language_version(v));
   set_math(co, opts && opts->fast_math);
   return co;
}

mtl_library *apple_library_new(mtl_device *dev, const char *source, const mtl_compile_options *opts,
                               char **err)
{
   apple_library *lib = mc_calloc(1, sizeof(*lib));
   if (!lib) {
      mtl_set_err(err, "out of memory creating a library");
      return NULL;
   }
   void *pool = apple_pool_push();
   uint64_t t0 = time_ns();
   id src = apple_string_new(source), co = compile_options(dev, opts), error = NULL;
   if (src && co)
      lib->lib = APPLE_SEND(id (*)(id, SEL, id, id, id *), apple_dev(dev),
                            apple_sel.newLibraryWithSource_options_error, src, co, &error);
   if (!lib->lib) {
      char *text = apple_error_text(error, src ? "newLibraryWithSource failed"
                                               : "newLibraryWithSource: the source is not UTF-8");
      mtl_set_err(err, "%s", text ? text : "newLibraryWithSource failed");
      free(text);
   }
   apple_release(src);
   apple_release(co);
   apple_pool_pop(pool);
   if (!lib->lib) {
      free(lib);
      return NULL;
   }
   LOG_TRACE("library ready in %.2f ms", (double)(time_ns() - t0) / 1e6);
   lib->base.obj = (mtl_obj){MTL_MAGIC_LIBRARY, dev};
   return &lib->base;
}

/* Functions retain the MTLLibrary themselves; pipelines need it no more. */
void apple_library_release(mtl_library *l)
{
   apple_library *lib = (apple_library *)l;
   apple_release(lib->lib);
   lib->base.obj.magic = MTL_MAGIC_DEAD;
   free(lib);
}

/* ---- functions ---- */

mtl_function *apple_function_new(mtl_library *l, const char *name, char **err)
{
   apple_library *lib = (apple_library *)l;
   apple_function *fn = mc_calloc(1, sizeof(*fn));
   char *copy = fn ? mc_strdup(name) : NULL;
   if (!copy) {
      free(fn);
      mtl_set_err(err, "out of memory creating a function");
      return NULL;
   }
   void *pool = apple_pool_push();
   id str = apple_string_new(name);
   id f = str ? apple_id_id(lib->lib, apple_sel.newFunctionWithName, str) : NULL;
   apple_release(str);
   /* Only kernels, as on the software device (which only finds those). */
   if (f && apple_uint(f, apple_sel.functionType) != APPLE_FUNCTION_KERNEL) {
      apple_release(f);
      f = NULL;
   }
   apple_pool_pop(pool);
   if (!f) {
      mtl_set_err(err, "no kernel function named '%s' in the library", name);
      free(copy);
      free(fn);
      return NULL;
   }
   fn->base.obj = (mtl_obj){MTL_MAGIC_FUNCTION, l->obj.dev};
   fn->fn = f;
   fn->lib = apple_retain(lib->lib);
   fn->name = copy;
   return &fn->base;
}

void apple_function_release(mtl_function *f)
{
   apple_function *fn = (apple_function *)f;
   apple_release(fn->fn);
   apple_release(fn->lib);
   free(fn->name);
   fn->base.obj.magic = MTL_MAGIC_DEAD;
   free(fn);
}

/* ---- pipelines ---- */

/* The indices of the kernel's buffer and threadgroup arguments, from
 * MTLComputePipelineReflection.bindings (macOS 13; id<MTLBinding>: type,
 * index).  Every declared argument counts, used or not, as on the
 * software device. */
static void binding_masks(id reflection, mtl_kernel_facts *k)
{
   if (!apple_responds(reflection, apple_sel.bindings))
      return;
   id all = apple_id(reflection, apple_sel.bindings);
   NSUInteger n = all ? apple_uint(all, apple_sel.count) : 0;
   for (NSUInteger i = 0; i < n; i++) {
      id b = APPLE_SEND(id (*)(id, SEL, NSUInteger), all, apple_sel.objectAtIndex, i);
      NSInteger type = apple_int(b, apple_sel.type);
      NSUInteger index = apple_uint(b, apple_sel.index);
      if (index >= MTL_MAX_BUFFER_BINDINGS)
         continue;
      if (type == APPLE_BINDING_BUFFER)
         k->buffer_mask |= 1u << index;
      else if (type == APPLE_BINDING_THREADGROUP_MEMORY)
         k->tg_mask |= 1u << index;
   }
}

/* newComputePipelineStateWithFunction:options:reflection:error: (owned). */
static id new_pipeline(mtl_device *dev, id fn, mtl_kernel_facts *k, char **err)
{
   id reflection = NULL, error = NULL;
   id pso = APPLE_SEND(id (*)(id, SEL, id, NSUInteger, id *, id *), apple_dev(dev),
                       apple_sel.newComputePipelineState, fn,
                       (NSUInteger)APPLE_PIPELINE_OPTION_BINDING_INFO, &reflection, &error);
   if (!pso) {
      char *text = apple_error_text(error, "newComputePipelineState failed");
      mtl_set_err(err, "kernel '%s': %s", k->name, text ? text : "newComputePipelineState failed");
      free(text);
      return NULL;
   }
   k->max_threads = (uint32_t)apple_uint(pso, apple_sel.maxTotalThreadsPerThreadgroup);
   k->static_tg_bytes = (uint32_t)apple_uint(pso, apple_sel.staticThreadgroupMemoryLength);
   binding_masks(reflection, k);
   return pso;
}

mtl_pipeline *apple_pipeline_new(mtl_device *dev, mtl_function *f, char **err)
{
   apple_function *fn = (apple_function *)f;
   apple_pipeline *p = mc_calloc(1, sizeof(*p));
   char *name = p ? mc_strdup(fn->name) : NULL;
   if (!name) {
      mtl_set_err(err, "out of memory creating a pipeline");
      free(p);
      return NULL;
   }
   p->facts.name = name;
   void *pool = apple_pool_push();
   p->pso = new_pipeline(dev, fn->fn, &p->facts, err);
   if (p->pso)
      p->simd_width = (uint32_t)apple_uint(p->pso, apple_sel.threadExecutionWidth);
   apple_pool_pop(pool);
   if (p->pso && p->facts.static_tg_bytes > MTL_MAX_THREADGROUP_MEMORY) {
      mtl_set_err(err, "kernel '%s': %u bytes of threadgroup memory exceeds Metal's 32 KB limit",
                  name, p->facts.static_tg_bytes);
      apple_release(p->pso);
      p->pso = NULL;
   }
   if (!p->pso) {
      free(name);
      free(p);
      return NULL;
   }
   p->base.obj = (mtl_obj){MTL_MAGIC_PIPELINE, dev};
   p->refs = 1;
   p->name = name;
   return &p->base;
}

void apple_pipeline_retain(apple_pipeline *p) { p->refs++; }

void apple_pipeline_unref(apple_pipeline *p)
{
   if (--p->refs > 0)
      return;
   apple_release(p->pso);
   free(p->name);
   p->base.obj.magic = MTL_MAGIC_DEAD;
   free(p);
}

void apple_pipeline_release(mtl_pipeline *p) { apple_pipeline_unref((apple_pipeline *)p); }

uint32_t apple_pipeline_max_total_threads(mtl_pipeline *p)
{
   return ((apple_pipeline *)p)->facts.max_threads;
}

uint32_t apple_pipeline_thread_execution_width(mtl_pipeline *p)
{
   return ((apple_pipeline *)p)->simd_width;
}

uint32_t apple_pipeline_static_threadgroup_memory(mtl_pipeline *p)
{
   return ((apple_pipeline *)p)->facts.static_tg_bytes;
}
