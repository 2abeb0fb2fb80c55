/*
 * library.c — libraries (a compiled MSL shared object), functions (a
 * kernel's entry wrapper and facts) and compute pipelines.
 *
 * A function is found by the symbols the generated code exports,
 * __mc_entry_NAME and __mc_info_NAME (msl_scan.c).  Functions and
 * pipelines hold a reference to their library, so each outlives the
 * objects it came from, as Metal objects retained by one another do.
 */
#include "soft.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(soft);

mtl_library *soft_library_new(mtl_device *dev, const char *source, const mtl_compile_options *opts,
                              char **err)
{
   soft_library *lib = mc_calloc(1, sizeof(*lib));
   if (!lib) {
      mtl_set_err(err, "out of memory creating a library");
      return NULL;
   }
   uint64_t t0 = time_ns();
   lib->handle = soft_compile(source, opts, err);
   if (!lib->handle) {
      free(lib);
      return NULL;
   }
   LOG_TRACE("library ready in %.2f ms", (double)(time_ns() - t0) / 1e6);
   lib->base.obj = (mtl_obj){MTL_MAGIC_LIBRARY, dev};
   lib->refs = 1;
   return &lib->base;
}

static void library_unref(soft_library *lib)
{
   if (--lib->refs > 0)
      return;
   dlclose(lib->handle);
   lib->base.obj.magic = MTL_MAGIC_DEAD;
   free(lib);
}

void soft_library_release(mtl_library *l) { library_unref((soft_library *)l); }

static void *symbol(void *handle, const char *prefix, const char *name)
{
   char sym[512];
   if ((size_t)snprintf(sym, sizeof(sym), "%s%s", prefix, name) >= sizeof(sym))
      return NULL;
   return dlsym(handle, sym);
}

mtl_function *soft_function_new(mtl_library *l, const char *name, char **err)
{
   soft_library *lib = (soft_library *)l;
   soft_entry_fn entry = (soft_entry_fn)symbol(lib->handle, "__mc_entry_", name);
   const soft_kernel_info *info = symbol(lib->handle, "__mc_info_", name);
   if (!entry || !info) {
      mtl_set_err(err, "no kernel function named '%s' in the library", name);
      return NULL;
   }
   if (info->abi != SOFT_ABI_VERSION) {
      mtl_set_err(err, "kernel '%s' was compiled for launch ABI %u, not %d", name, info->abi,
                  SOFT_ABI_VERSION);
      return NULL;
   }
   soft_function *fn = mc_calloc(1, sizeof(*fn));
   char *copy = fn ? mc_strdup(name) : NULL;
   if (!copy) {
      free(fn);
      mtl_set_err(err, "out of memory creating a function");
      return NULL;
   }
   fn->base.obj = (mtl_obj){MTL_MAGIC_FUNCTION, l->obj.dev};
   fn->lib = lib;
   lib->refs++;
   fn->name = copy;
   fn->entry = entry;
   fn->info = info;
   return &fn->base;
}

void soft_function_release(mtl_function *f)
{
   soft_function *fn = (soft_function *)f;
   library_unref(fn->lib);
   free(fn->name);
   fn->base.obj.magic = MTL_MAGIC_DEAD;
   free(fn);
}

mtl_pipeline *soft_pipeline_new(mtl_device *dev, mtl_function *f, char **err)
{
   soft_function *fn = (soft_function *)f;
   const soft_kernel_info *info = fn->info;
   if (info->static_tg_bytes > MTL_MAX_THREADGROUP_MEMORY) {
      mtl_set_err(err, "kernel '%s': %u bytes of threadgroup memory exceeds Metal's 32 KB limit",
                  fn->name, info->static_tg_bytes);
      return NULL;
   }
   soft_pipeline *p = mc_calloc(1, sizeof(*p));
   char *name = p ? mc_strdup(fn->name) : NULL;
   if (!name) {
      mtl_set_err(err, "out of memory creating a pipeline");
      free(p);
      return NULL;
   }
   p->base.obj = (mtl_obj){MTL_MAGIC_PIPELINE, dev};
   p->refs = 1;
   p->name = name;
   p->lib = fn->lib;
   fn->lib->refs++;
   p->entry = fn->entry;
   p->info = *info;
   /* A GPU's pipeline may allow fewer threads than the device (registers:
    * maxTotalThreadsPerThreadgroup below 1024).  The CPU has no such
    * limit; METALCUDA_SOFT_MAX_THREADS=N models one, so the runtime's
    * handling of it (cudaFuncGetAttributes, launch errors) is tested here:
    * every pipeline then allows at most N threads. */
   const char *cap = getenv("METALCUDA_SOFT_MAX_THREADS");
   if (cap && atoi(cap) > 0 && (uint32_t)atoi(cap) < p->info.max_threads)
      p->info.max_threads = (uint32_t)atoi(cap);
   return &p->base;
}

void soft_pipeline_retain(soft_pipeline *p) { p->refs++; }

void soft_pipeline_unref(soft_pipeline *p)
{
   if (--p->refs > 0)
      return;
   library_unref(p->lib);
   free(p->name);
   p->base.obj.magic = MTL_MAGIC_DEAD;
   free(p);
}

void soft_pipeline_release(mtl_pipeline *p) { soft_pipeline_unref((soft_pipeline *)p); }
uint32_t soft_pipeline_max_total_threads(mtl_pipeline *p) { return ((soft_pipeline *)p)->info.max_threads; }
uint32_t soft_pipeline_thread_execution_width(mtl_pipeline *p) { (void)p; return SOFT_SIMD_WIDTH; }
uint32_t soft_pipeline_static_threadgroup_memory(mtl_pipeline *p)
{
   return ((soft_pipeline *)p)->info.static_tg_bytes;
}
