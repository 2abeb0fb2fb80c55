/*
 * test_tcache.c — the on-disk translation cache: a second run of a program
 * parses and translates nothing, damaged cache files are misses, and
 * what comes back from the cache is exactly what translation produced.
 *
 * Every test's PTX carries a nonce (pid and time), so the first load is a
 * miss whatever the cache directory already holds.
 */
#include "harness.h"

#include "compiler/cache.h"
#include "compiler/compiler.h"
#include "core/core.h"
#include "util/util.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static char *nonce_ptx(const char *tag)
{
   strbuf b;
   strbuf_init(&b);
   strbuf_printf(&b, "// %s %d %llu\n", tag, (int)getpid(), (unsigned long long)time_ns());
   strbuf_puts(&b,
      ".version 9.0\n.target sm_75\n.address_size 64\n"
      ".global .align 4 .u32 table[4] = {3, 5, 7, 11};\n"
      ".global .align 8 .u64 tp = generic(table);\n"
      ".visible .entry scale(.param .u64 out, .param .u32 k)\n{\n"
      "  .reg .b32 %r<6>;\n  .reg .b64 %rd<6>;\n"
      "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r1, [k];\n  mov.u32 %r2, %tid.x;\n"
      "  ld.global.u64 %rd2, [tp];\n  mul.wide.u32 %rd3, %r2, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
      "  ld.u32 %r3, [%rd4];\n  mul.lo.u32 %r4, %r3, %r1;\n  add.s64 %rd5, %rd1, %rd3;\n"
      "  st.global.u32 [%rd5], %r4;\n  ret;\n}\n"
      ".visible .entry other(.param .u64 out)\n{\n  .reg .b64 %rd<2>;\n"
      "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], 42;\n  ret;\n}\n");
   return strbuf_take(&b);
}

static bool info_equal(const mc_kernel_info *a, const mc_kernel_info *b)
{
   if (strcmp(a->name, b->name) || strcmp(a->msl_name, b->msl_name) || a->nparams != b->nparams ||
       a->param_bytes != b->param_bytes || a->shared_static_bytes != b->shared_static_bytes ||
       a->uses_dynamic_shared != b->uses_dynamic_shared || a->local_bytes != b->local_bytes ||
       a->shared_dynamic_offset != b->shared_dynamic_offset ||
       a->shared_dynamic_align != b->shared_dynamic_align ||
       memcmp(a->reqntid, b->reqntid, sizeof(a->reqntid)) || memcmp(a->maxntid, b->maxntid, sizeof(a->maxntid)))
      return false;
   for (uint32_t k = 0; k < a->nparams; k++)
      if (strcmp(a->params[k].name, b->params[k].name) || a->params[k].offset != b->params[k].offset ||
          a->params[k].size != b->params[k].size || a->params[k].align != b->params[k].align)
         return false;
   return true;
}

TEST(second_open_parses_and_translates_nothing)
{
   char *ptx = nonce_ptx("second-open");
   char *err = NULL;
   mc_module *m = compiler_module_open(ptx, strlen(ptx), true, &err);
   CHECK_MSG(m, "first open failed: %s", err ? err : "?");
   CHECK(compiler_module_parsed(m));
   mc_kernel_info i1;
   char *msl1 = compiler_translate_kernel(m, 0, NULL, &i1, &err);
   CHECK(msl1);
   CHECK(!i1.from_cache);
   /* the infos point into the module: compare before freeing it */
   mc_module *m2 = compiler_module_open(ptx, strlen(ptx), true, &err);
   CHECK(m2);
   CHECK(!compiler_module_parsed(m2));
   CHECK_INT(compiler_kernel_count(m2), 2);
   CHECK_STR(compiler_kernel_name(m2, 1), "other");
   CHECK_INT(compiler_global_count(m2), compiler_global_count(m));
   CHECK_U64(compiler_data_bytes(m2), compiler_data_bytes(m));
   const mc_global_info *g1 = compiler_global(m, 1), *g2 = compiler_global(m2, 1);
   CHECK_STR(g2->name, g1->name);
   CHECK_INT(g2->nrelocs, 1);
   CHECK_INT(g2->relocs[0].target, g1->relocs[0].target);
   CHECK(!memcmp(compiler_global(m2, 0)->init, compiler_global(m, 0)->init, 16));
   mc_kernel_info i2;
   char *msl2 = compiler_translate_kernel(m2, 0, NULL, &i2, &err);
   CHECK(msl2);
   CHECK(i2.from_cache);
   CHECK(!compiler_module_parsed(m2));
   CHECK_STR(msl2, msl1);
   CHECK(info_equal(&i1, &i2));
   /* kernel 1 was never translated: it is, and the text gets parsed */
   mc_kernel_info i3;
   char *msl3 = compiler_translate_kernel(m2, 1, NULL, &i3, &err);
   CHECK(msl3);
   CHECK(!i3.from_cache);
   CHECK(compiler_module_parsed(m2));
   /* variants the cache does not hold are translated */
   compiler_options o = { .no_optimize = true };
   char *msl4 = compiler_translate_kernel(m2, 0, &o, &i3, &err);
   CHECK(msl4 && !i3.from_cache);
   free(msl1);
   free(msl2);
   free(msl3);
   free(msl4);
   compiler_module_free(m);
   compiler_module_free(m2);
   free(ptx);
}

static char *cache_file(const char *hash, const char *suffix)
{
   strbuf b;
   strbuf_init(&b);
   strbuf_printf(&b, "%s/ptx/%s-%s%s", cache_dir(), hash, tcache_compiler_id(), suffix);
   return strbuf_take(&b);
}

/* Every truncation and a sweep of bit flips of either file must be a miss
 * (the files carry a checksum): never a crash, a failed open, or metadata
 * read back wrong. */
TEST(damaged_cache_files_are_misses)
{
   char *ptx = nonce_ptx("damaged");
   char *err = NULL;
   mc_module *m = compiler_module_open(ptx, strlen(ptx), true, &err);
   CHECK(m);
   mc_kernel_info info;
   char *msl = compiler_translate_kernel(m, 0, NULL, &info, &err);
   CHECK(msl);
   char *mod_path = cache_file(compiler_module_hash(m), ".mod");
   char *k_path = cache_file(compiler_module_hash(m), "-k0.msl");
   size_t mod_len = 0, k_len = 0;
   char *mod = file_read(mod_path, &mod_len), *kf = file_read(k_path, &k_len);
   CHECK_MSG(mod && kf, "cache files missing: %s, %s", mod_path, k_path);
   int opened = 0, hits = 0, module_cases = 0;
   for (int which = 0; which < 2; which++) {
      const char *path = which ? k_path : mod_path;
      const char *good = which ? kf : mod;
      size_t len = which ? k_len : mod_len;
      char *bad = malloc(len + 1);
      CHECK(bad);
      for (size_t cut = 0; cut <= len; cut += 1 + len / 97) {
         for (int flip = -1; flip < 3; flip++) {
            if (flip < 0 && cut == len)
               continue;   /* intact */
            memcpy(bad, good, len);
            size_t n = cut;
            if (flip >= 0) {   /* same length, one bit changed */
               n = len;
               bad[cut % len] ^= (char)(1 << (flip * 3));
            }
            CHECK(file_write_atomic(path, bad, n));
            mc_module *m2 = compiler_module_open(ptx, strlen(ptx), true, &err);
            CHECK_MSG(m2, "open failed after damaging %s at %zu: %s", path, cut, err ? err : "?");
            opened++;
            mc_kernel_info i2;
            char *msl2 = compiler_translate_kernel(m2, 0, NULL, &i2, &err);
            CHECK_MSG(msl2, "translation failed after damaging %s at %zu", path, cut);
            CHECK_INT(compiler_kernel_count(m2), 2);
            CHECK_MSG(which ? !i2.from_cache : compiler_module_parsed(m2),
                      "damaged %s (cut %zu, flip %d) was taken as a hit", path, cut, flip);
            CHECK_STR(msl2, msl);
            if (!which) {
               module_cases++;
               hits += i2.from_cache;
            }
            free(msl2);
            compiler_module_free(m2);
         }
      }
      CHECK(file_write_atomic(path, good, len));
      free(bad);
   }
   printf("  %d damaged cache files were misses\n", opened);
   CHECK_INT(hits, module_cases);   /* the intact kernel file stays usable */
   free(mod);
   free(kf);
   free(mod_path);
   free(k_path);
   free(msl);
   compiler_module_free(m);
   free(ptx);
}

/* One "run": load through core, launch, check the result; exits with
 * 0 if it ran right, 10 + (module parsed) + 2 * (kernel translated) when
 * the run was right but the cache was not used, 1 on a wrong result. */
static int run_once(const char *ptx)
{
   if (core_init() != CORE_SUCCESS)
      return 1;
   core_ctx *c;
   if (core_ctx_primary(core_device_get(0), &c) != CORE_SUCCESS)
      return 1;
   core_module *m;
   core_kernel *k;
   uint64_t out;
   if (core_module_load(c, ptx, strlen(ptx), &m) != CORE_SUCCESS ||
       core_module_get_kernel(m, "scale", &k) != CORE_SUCCESS || core_mem_alloc(c->dev, 16, &out) != CORE_SUCCESS)
      return 1;
   uint32_t scale = 3;
   void *args[] = { &out, &scale };
   core_launch_config cfg = { { 1, 1, 1 }, { 4, 1, 1 }, 0, NULL, args, NULL, 0, false };
   if (core_launch(k, &cfg) != CORE_SUCCESS || core_ctx_synchronize(c) != CORE_SUCCESS)
      return 1;
   const uint32_t *o = (const uint32_t *)(uintptr_t)out;
   if (o[0] != 9 || o[1] != 15 || o[2] != 21 || o[3] != 33)
      return 1;
   return (compiler_module_parsed(m->cm) || !k->info.from_cache)
             ? 10 + compiler_module_parsed(m->cm) + 2 * !k->info.from_cache : 0;
}

static int run_in_child(const char *ptx)
{
   fflush(stdout);
   pid_t pid = fork();
   if (pid == 0)
      _exit(run_once(ptx));
   int st = 0;
   if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
      return -1;
   return WEXITSTATUS(st);
}

/* Two processes that share nothing but the cache directory. */
TEST(second_run_translates_nothing)
{
   char *ptx = nonce_ptx("second-run");
   CHECK(ptx);
   int first = run_in_child(ptx), second = run_in_child(ptx);
   free(ptx);
   CHECK_MSG(first == 13, "first run: status %d (13: ran right, parsed and translated)", first);
   CHECK_MSG(second == 0, "second run: status %d (0: ran right from the cache alone)", second);
}
