/*
 * prepared.c — files made when metalcuda was built or installed, read
 * where the cache has none.
 *
 * A fresh cache costs the first library of the first program more than a
 * kernel does: the compiler's `--version`, the linker's command from the
 * driver (`-###`) and above all the precompiled prelude (compile.c), about
 * 0.3 s of CPU on a 2-core x86-64 VM (bench/README.md).  `metalcuda
 * prepare DIR` compiles one kernel with DIR as the cache (`make` runs it
 * for lib/metalcuda/prepared, `make install` for the installed tree), and
 * every process then reads those files from DIR/soft when its own cache
 * lacks them, as a toolchain ships its precompiled headers.
 *
 * The directory is <the directory of the object holding this code,
 * libcuda's>/metalcuda/prepared, or METALCUDA_PREPARED (empty: none).  Its
 * files are named by the same keys as the cache's (compiler identity,
 * flags, CPU, the shim's digest), so a file made for another compiler, CPU
 * or set of flags is never found.  A precompiled header records the
 * absolute paths of its header and of the shim, which is why the install
 * prepares its own directory instead of copying the build's, and why the
 * paths are taken through realpath() on both sides.  The directory is only
 * read: when one of its files fails (a precompiled header clang rejects, a
 * linker template that does not link) the process stops using it and
 * makes its own in the cache, as it would without one.
 */
#include "soft.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

LOG_CHANNEL(soft);

static char prepared[PATH_MAX + 16];
static pthread_once_t prepared_once = PTHREAD_ONCE_INIT;
static _Atomic bool distrusted;

/* "<dir of the object holding this function>/metalcuda/prepared", real. */
static bool default_root(char *out, size_t cap)
{
   Dl_info info;
   char obj[PATH_MAX], dir[PATH_MAX + 32];
   if (!dladdr((void *)default_root, &info) || !info.dli_fname || !realpath(info.dli_fname, obj))
      return false;
   char *slash = strrchr(obj, '/');
   if (!slash)
      return false;
   *slash = 0;
   snprintf(dir, sizeof(dir), "%s/metalcuda/prepared", obj);
   return realpath(dir, out) != NULL && strlen(out) < cap;
}

static void init_prepared(void)
{
   char root[PATH_MAX];
   const char *env = getenv("METALCUDA_PREPARED");
   bool have = env ? *env && realpath(env, root) : default_root(root, sizeof(root));
   if (have)
      snprintf(prepared, sizeof(prepared), "%s/soft", root);
   if (have && !strcmp(prepared, soft_cache_base()))
      prepared[0] = 0;              /* metalcuda prepare: the cache itself */
   if (prepared[0])
      LOG_INFO("prepared files in %s", prepared);
}

const char *soft_prepared_base(void)
{
   pthread_once(&prepared_once, init_prepared);
   return prepared[0] && !distrusted ? prepared : NULL;
}

void soft_prepared_distrust(const char *why)
{
   if (!distrusted && soft_prepared_base())
      LOG_INFO("not using %s any more: %s", prepared, why);
   distrusted = true;
}

bool soft_prepared_path(const char *name, char *path, size_t cap)
{
   const char *base = soft_prepared_base();
   return base && (size_t)snprintf(path, cap, "%s/%s", base, name) < cap && access(path, R_OK) == 0;
}
