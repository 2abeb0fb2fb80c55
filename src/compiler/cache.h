/*
 * cache.h — the on-disk translation cache (private to src/compiler).
 *
 * A module's metadata (kernel names, globals, layout) and each kernel's MSL
 * and launch info are stored under the PTX text's SHA-256 and the
 * compiler's identity (a hash of the compiler's sources, made at build
 * time), so a second run of a program parses and translates nothing, and
 * any change to the compiler misses the cache instead of reusing stale
 * output.  Files are written atomically; a missing, truncated or foreign
 * file is a miss, never an error.
 */
#ifndef MC_COMPILER_CACHE_H
#define MC_COMPILER_CACHE_H

#include "compiler.h"
#include "util/util.h"

typedef struct mc_module_meta {
   uint32_t sm;
   uint64_t data_bytes;
   uint32_t nkernels;
   const char **kernel_names;
   uint64_t *kernel_tokens;     /* each kernel's address as `mov r, kernel` gives it (ir_func_token) */
   uint32_t nglobals;
   mc_global_info *globals;
} mc_module_meta;

/* The build-time identity of the compiler (hex). */
const char *tcache_compiler_id(void);

/* Hits fill *meta / *info with memory from `ar`. */
bool tcache_load_module(const char *hash, arena *ar, mc_module_meta *meta);
void tcache_store_module(const char *hash, const mc_module_meta *meta);
/* Returns the MSL (malloc'ed) on a hit, NULL on a miss.  shared_in_device,
 * stack_bytes: the variant of those compiler_options, kept apart. */
char *tcache_load_kernel(const char *hash, uint32_t index, bool shared_in_device, uint32_t stack_bytes, arena *ar,
                         mc_kernel_info *info);
void tcache_store_kernel(const char *hash, uint32_t index, bool shared_in_device, uint32_t stack_bytes,
                         const mc_kernel_info *info, const char *msl);

#endif
