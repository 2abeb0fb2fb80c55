/*
 * metalcuda.c — the command line.
 *
 *   metalcuda run PROGRAM ARGS...   run an unmodified CUDA program on our libraries
 *   metalcuda translate FILE.ptx    print the MSL of every kernel in a PTX file
 *   metalcuda info                  devices and their properties (like deviceQuery)
 *   metalcuda prepare DIR           the software device's first-compile files (make, make install)
 *   metalcuda nvcc|hipcc ARGS...    the compiler drivers (src/toolchain); also as bin/nvcc
 *   metalcuda version
 *
 * `run` prepends our lib/ directory (found next to this executable, ../lib)
 * to LD_LIBRARY_PATH (DYLD_LIBRARY_PATH on macOS) and execs the program, so
 * its dlopen/DT_NEEDED of libcudart.so.13 / libcuda.so.1 finds ours.
 */
#include "../src/compiler/compiler.h"
#include "../src/core/core.h"
#include "../src/fatbin/fatbin.h"
#include "../src/toolchain/toolchain.h"
#include "../src/util/util.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#define LIBPATH_VAR "DYLD_LIBRARY_PATH"
#else
#define LIBPATH_VAR "LD_LIBRARY_PATH"
#endif

static void usage(FILE *f)
{
   fprintf(f, "usage: metalcuda run PROGRAM [ARGS...]   run a CUDA program through metalcuda\n"
              "       metalcuda translate FILE           print the MSL for a PTX file (or fatbin)\n"
              "       metalcuda info                     list devices and their properties\n"
              "       metalcuda prepare DIR              make the software device's first-compile files in DIR\n"
              "       metalcuda nvcc ARGS...             compile CUDA with clang, like nvcc (no NVIDIA toolkit)\n"
              "       metalcuda hipcc ARGS...            compile HIP with clang, like hipcc\n"
              "       metalcuda version\n"
              "environment: METALCUDA_LOG=error|warn|info|trace, METALCUDA_DUMP=DIR,\n"
              "             METALCUDA_CACHE=DIR, METALCUDA_DEVICE=soft, METALCUDA_CC=MAJOR.MINOR\n");
}

/* The directory holding our libraries: ../lib next to this executable. */
static bool lib_dir(char *out, size_t len)
{
   char exe[PATH_MAX];
#if defined(__APPLE__)
   uint32_t n = sizeof(exe);
   if (_NSGetExecutablePath(exe, &n) != 0)
      return false;
#else
   ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
   if (n <= 0)
      return false;
   exe[n] = 0;
#endif
   char *slash = strrchr(exe, '/');
   if (!slash || (size_t)(slash - exe) + 8 > len)
      return false;
   memcpy(out, exe, (size_t)(slash - exe));
   memcpy(out + (slash - exe), "/../lib", 8);
   char real[PATH_MAX];
   if (realpath(out, real))
      snprintf(out, len, "%s", real);
   return access(out, R_OK) == 0;
}

#if defined(__APPLE__)
/* System Integrity Protection strips DYLD_* variables from every program
 * started from a protected binary: a script's interpreter (/bin/sh,
 * /usr/bin/env, /usr/bin/python3 ...) and whatever it starts no longer see
 * DYLD_LIBRARY_PATH, so a CUDA program started by a script loads no
 * libcudart of ours.  A program run directly keeps it.  Said once, here,
 * rather than found by the user as "library not loaded". */
static void warn_if_script(const char *prog)
{
   FILE *f = strchr(prog, '/') ? fopen(prog, "r") : NULL;
   char head[2] = {0, 0};
   if (f) {
      if (fread(head, 1, 2, f) != 2)
         head[0] = 0;
      fclose(f);
   }
   if (head[0] == '#' && head[1] == '!')
      fprintf(stderr, "metalcuda: %s is a script: macOS's System Integrity Protection removes "
                      "DYLD_LIBRARY_PATH for its interpreter and what it starts; run the CUDA program itself "
                      "with metalcuda run, or link it with -Wl,-rpath,<metalcuda>/lib (README.md)\n", prog);
}
#endif

static int cmd_run(int argc, char **argv)
{
   if (argc < 1) {
      usage(stderr);
      return 2;
   }
   char dir[PATH_MAX];
   if (!lib_dir(dir, sizeof(dir))) {
      fprintf(stderr, "metalcuda: cannot find our lib/ directory next to this program\n");
      return 1;
   }
   const char *old = getenv(LIBPATH_VAR);
   char *val = malloc(strlen(dir) + (old ? strlen(old) : 0) + 2);
   if (!val)
      return 1;
   sprintf(val, "%s%s%s", dir, old && *old ? ":" : "", old ? old : "");
   setenv(LIBPATH_VAR, val, 1);
   free(val);
#if defined(__APPLE__)
   warn_if_script(argv[0]);
#endif
   execvp(argv[0], argv);
   fprintf(stderr, "metalcuda: cannot run %s: %s\n", argv[0], strerror(errno));
   return 127;
}

static int cmd_translate(int argc, char **argv)
{
   if (argc != 1) {
      usage(stderr);
      return 2;
   }
   size_t len;
   char *src = file_read(argv[0], &len);
   if (!src) {
      fprintf(stderr, "metalcuda: cannot read %s: %s\n", argv[0], strerror(errno));
      return 1;
   }
   char *ptx = NULL, err[512] = "";
   size_t plen = 0;
   if (fatbin_extract_ptx(src, len, 1000, &ptx, &plen, err, sizeof(err)) != FATBIN_OK) {
      fprintf(stderr, "metalcuda: %s: %s\n", argv[0], err);
      free(src);
      return 1;
   }
   free(src);
   char *msg = NULL;
   mc_module *m = compiler_module_load(ptx, plen, &msg);
   if (!m) {
      fprintf(stderr, "metalcuda: %s: %s\n", argv[0], msg);
      free(msg);
      free(ptx);
      return 1;
   }
   uint32_t n = compiler_kernel_count(m);
   mc_kernel_info *infos = calloc(n ? n : 1, sizeof(*infos));
   char *msl = infos ? compiler_translate_all(m, NULL, infos, &msg) : NULL;
   int rc = 0;
   if (!msl) {
      fprintf(stderr, "metalcuda: %s: %s\n", argv[0], msg ? msg : "out of memory");
      rc = 1;
   } else {
      fputs(msl, stdout);
      for (uint32_t k = 0; k < n; k++)
         printf("// %s: kernel %s, %u parameter bytes, %u static shared bytes%s, %u local bytes\n",
                infos[k].msl_name, infos[k].name, infos[k].param_bytes, infos[k].shared_static_bytes,
                infos[k].uses_dynamic_shared ? " + dynamic" : "", infos[k].local_bytes);
   }
   free(msl);
   free(msg);
   free(infos);
   compiler_module_free(m);
   free(ptx);
   return rc;
}

/* nftw callback: removes what it is given (children come first). */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
   (void)st, (void)type, (void)ftw;
   return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* Removes what a fresh cache holds beside the files prepared.c reads: the
 * translation cache (every top-level entry but soft/) and the kernel's
 * library (soft's *.so, *.dylib). */
static bool prune_prepared(const char *dir)
{
   static const char *const keep[] = {"shim-", "cxx-", "ld-", "pch-", "prelude-"};
   char path[PATH_MAX + 256];
   bool ok = true;
   const char *sub[] = {"", "/soft"};
   for (int s = 0; s < 2; s++) {
      snprintf(path, sizeof(path), "%s%s", dir, sub[s]);
      DIR *d = opendir(path);
      for (struct dirent *e; d && (e = readdir(d));) {
         if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || (!s && !strcmp(e->d_name, "soft")))
            continue;
         bool kept = false;
         for (size_t i = 0; s && i < sizeof(keep) / sizeof(keep[0]); i++)
            kept |= !strncmp(e->d_name, keep[i], strlen(keep[i])) && !strstr(e->d_name, ".tmp");
         snprintf(path, sizeof(path), "%s%s/%s", dir, sub[s], e->d_name);
         if (!kept)
            ok &= nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;
      }
      if (d)
         closedir(d);
   }
   return ok;
}

/* `metalcuda prepare DIR`: the files a fresh cache makes at its first
 * kernel (the compiler's identity, the linker's command, the shim, the
 * precompiled prelude: about 0.3 s of CPU), made in DIR for the software
 * device to read where its cache has none (src/metal/soft/prepared.c).
 * `make` runs it for lib/metalcuda/prepared, `make install` for the
 * installed tree; it prepares for the host compiler and the METALCUDA_*
 * settings of its own environment. */
static int cmd_prepare(int argc, char **argv)
{
   static const char ptx[] = ".version 7.0\n.target sm_75\n.address_size 64\n"
                             ".visible .entry mc_prepare(.param .u64 p)\n{\n   ret;\n}\n";
   if (argc != 1) {
      usage(stderr);
      return 2;
   }
   char dir[PATH_MAX];
   if (!dir_create_all(argv[0]) || !realpath(argv[0], dir)) {
      fprintf(stderr, "metalcuda: cannot create %s: %s\n", argv[0], strerror(errno));
      return 1;
   }
   setenv("METALCUDA_CACHE", dir, 1);
   setenv("METALCUDA_PREPARED", "", 1);     /* none but DIR itself */
   setenv("METALCUDA_DEVICE", "soft", 1);
   core_ctx *c = NULL;
   core_module *m = NULL;
   core_kernel *k = NULL;
   int r = core_init();
   if (r == CORE_SUCCESS)
      r = core_ctx_create(core_device_get(0), 0, &c);
   if (r == CORE_SUCCESS)
      r = core_module_load(c, ptx, sizeof(ptx), &m);
   if (r == CORE_SUCCESS)
      r = core_module_get_kernel(m, "mc_prepare", &k);
   if (r == CORE_SUCCESS)
      r = core_kernel_prepare(k);
   if (m)
      core_module_unload(m);
   if (c)
      core_ctx_destroy(c);
   if (r != CORE_SUCCESS) {
      fprintf(stderr, "metalcuda: cannot prepare %s (error %d; METALCUDA_LOG=info says more): the software "
                      "device will make these files in its cache instead\n", dir, r);
      return 1;
   }
   if (!prune_prepared(dir)) {
      fprintf(stderr, "metalcuda: cannot tidy %s: %s\n", dir, strerror(errno));
      return 1;
   }
   return 0;
}

static int cmd_info(void)
{
   int r = core_init();
   if (r != CORE_SUCCESS) {
      fprintf(stderr, "metalcuda: no device (error %d)\n", r);
      return 1;
   }
   printf("metalcuda %s: %d device(s)\n", MC_COMPILER_VERSION, core_device_count());
   for (int d = 0; d < core_device_count(); d++) {
      core_device *dev = core_device_get(d);
      const mtl_device_info *i = core_device_info(dev);
      int major, minor;
      core_device_cc(dev, &major, &minor);
      uint64_t free_b, total;
      core_mem_info(dev, &free_b, &total);
      printf("\nDevice %d: \"%s\"\n", d, i->name);
      printf("  Backend:                         %s\n", i->is_software ? "software Metal device (CPU)" : "Metal");
      printf("  Compute capability reported:     %d.%d\n", major, minor);
      printf("  Global memory (arena):           %llu MB\n", (unsigned long long)(total >> 20));
      printf("  Unified memory:                  %s\n", i->has_unified_memory ? "yes" : "no");
      printf("  Compute units:                   %u\n", i->compute_units);
      printf("  Max threads per block:           %u\n", i->max_threads_per_threadgroup);
      printf("  Max block dimensions:            1024 x 1024 x 64\n");
      printf("  Max grid dimensions:             2147483647 x 65535 x 65535\n");
      printf("  Shared memory per block:         %u bytes\n", i->max_threadgroup_memory);
      printf("  Warp size:                       %u\n", i->simd_width);
      printf("  Max buffer length:               %llu MB\n", (unsigned long long)(i->max_buffer_length >> 20));
      printf("  Metal Shading Language:          %u.%u\n", i->msl_version / 100, i->msl_version % 100 / 10);
   }
   return 0;
}

int main(int argc, char **argv)
{
   /* installed as bin/nvcc or bin/hipcc (a link to this program): be that driver */
   const char *self = strrchr(argv[0], '/');
   self = self ? self + 1 : argv[0];
   if (!strcmp(self, "nvcc"))
      return tc_nvcc_main(argc - 1, argv + 1);
   if (!strcmp(self, "hipcc"))
      return tc_hipcc_main(argc - 1, argv + 1);
   if (argc < 2) {
      usage(stderr);
      return 2;
   }
   const char *cmd = argv[1];
   if (!strcmp(cmd, "run"))
      return cmd_run(argc - 2, argv + 2);
   if (!strcmp(cmd, "translate"))
      return cmd_translate(argc - 2, argv + 2);
   if (!strcmp(cmd, "info"))
      return cmd_info();
   if (!strcmp(cmd, "prepare"))
      return cmd_prepare(argc - 2, argv + 2);
   if (!strcmp(cmd, "nvcc"))
      return tc_nvcc_main(argc - 2, argv + 2);
   if (!strcmp(cmd, "hipcc"))
      return tc_hipcc_main(argc - 2, argv + 2);
   if (!strcmp(cmd, "version")) {
      printf("metalcuda %s\n", MC_COMPILER_VERSION);
      return 0;
   }
   if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
      usage(stdout);
      return 0;
   }
   fprintf(stderr, "metalcuda: unknown command '%s'\n", cmd);
   usage(stderr);
   return 2;
}
