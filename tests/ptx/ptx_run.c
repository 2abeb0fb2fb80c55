/*
 * ptx_run.c — runs tests/ptx cases through a CUDA driver: ours (libcuda.so.1
 * built here) to check them, or NVIDIA's on a real GPU to produce their
 * expected outputs.  The same source builds against both (our cuabi.h
 * declares the driver API under NVIDIA's names).
 *
 * A case is one .ptx file whose leading comment block says how to run it:
 *
 *   // block: 64                      threads (x) in the one block (default 1)
 *   // grid: 1                        blocks (default 1)
 *   // in: u32 1 2 0x80000000 ...     input words (may repeat; u32 or u64)
 *   // out: u32 64                    output words, pre-filled with 0xde bytes
 *   // ulp: 2                         compare float words (f32 or f64, as the
 *                                     out: width) within 2 ulps (.approx)
 *   // abs: 1e-6                      or within this absolute error (f32 words)
 *   // rel: 1e-6                      or within this relative error (f32, f64)
 *   // expect: 0x00000001 ...         expected output words, from an NVIDIA GPU
 *   // tmap: AT DATA TYPE RANK DIM... STRIDE... BOX... SWIZZLE
 *                                     a tensor map (cuTensorMapEncodeTiled, the
 *                                     driver's own encoding) of the tensor at
 *                                     byte DATA of the input, written at byte
 *                                     AT of it; STRIDEs are dims 1..RANK-1's
 *
 * Known gaps are listed by case name (or fnmatch pattern) and reason in
 * the .txt files of tests/ptx/todo/, outside the cases so the GPU outputs stay valid when
 * a gap closes: a listed case that fails is a SKIP, one that passes is a
 * FAIL until its line is removed.
 *
 * The kernel is `.entry test(.param .u64 in, .param .u64 out)`.  Expected
 * lines are written only by `ptx_run --generate` (run on NVIDIA hardware by
 * tests/ptx/gen.sh): never from our own output.
 *
 * Usage: ptx_run [--generate] CASE.ptx...   prints PASS/FAIL/SKIP per case.
 */
#ifdef PTX_RUN_NVIDIA
#include <cuda.h>
#else
#include "api/driver/protos.h"
#endif

#include <dirent.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 65536
#define MAX_TMAPS 4

typedef struct tmap_spec {
   unsigned at, data, type, rank, swizzle;
   cuuint64_t dim[5], stride[5];
   cuuint32_t box[5];
} tmap_spec;

typedef struct ptx_case {
   const char *path;
   char *text;
   unsigned block, block_y, block_z, grid;
   int word_bits;              /* 32 or 64, from the out: line */
   int in_bits;                /* 32 or 64, from the in: lines */
   int ulp;
   double rel_tol;
   double abs_tol;
   const char *todo;           /* known gap: the reason */
   uint64_t in[MAX_WORDS];
   unsigned nin;
   unsigned nout;
   uint64_t expect[MAX_WORDS];
   unsigned nexpect;
   bool has_expect;
   tmap_spec tmaps[MAX_TMAPS];
   unsigned ntmaps;
} ptx_case;

static char *read_file(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *s = malloc((size_t)n + 1);
   if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
      free(s);
      s = NULL;
   }
   if (s)
      s[n] = 0;
   fclose(f);
   return s;
}

static unsigned parse_words(const char *p, uint64_t *dst, unsigned max)
{
   unsigned n = 0;
   while (*p && n < max) {
      while (*p == ' ' || *p == '\t')
         p++;
      if (!*p || *p == '\n')
         break;
      char *end;
      dst[n++] = strtoull(p, &end, 0);
      if (end == p)
         break;
      p = end;
   }
   return n;
}

static bool parse_header(ptx_case *c)
{
   c->block = c->grid = 1;
   c->word_bits = c->in_bits = 32;
   for (const char *line = c->text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
      if (strncmp(line, "//", 2))
         break;
      const char *p = line + 2;
      while (*p == ' ')
         p++;
      if (!strncmp(p, "block:", 6)) {
         char *end;
         c->block = (unsigned)strtoul(p + 6, &end, 0);
         c->block_y = (unsigned)strtoul(end, &end, 0);
         c->block_z = (unsigned)strtoul(end, NULL, 0);
      }
      else if (!strncmp(p, "grid:", 5))
         c->grid = (unsigned)strtoul(p + 5, NULL, 0);
      else if (!strncmp(p, "ulp:", 4))
         c->ulp = atoi(p + 4);
      else if (!strncmp(p, "abs:", 4))
         c->abs_tol = strtod(p + 4, NULL);
      else if (!strncmp(p, "rel:", 4))
         c->rel_tol = strtod(p + 4, NULL);
      else if (!strncmp(p, "in: u32", 7) || !strncmp(p, "in: u64", 7)) {
         c->in_bits = p[5] == '6' ? 64 : 32;
         c->nin += parse_words(p + 7, c->in + c->nin, MAX_WORDS - c->nin);
      }
      else if (!strncmp(p, "out: u32", 8) || !strncmp(p, "out: u64", 8)) {
         c->word_bits = p[6] == '6' ? 64 : 32;
         c->nout = (unsigned)strtoul(p + 8, NULL, 0);
      } else if (!strncmp(p, "tmap:", 5) && c->ntmaps < MAX_TMAPS) {
         uint64_t w[24];
         unsigned n = parse_words(p + 5, w, 24);
         tmap_spec *t = &c->tmaps[c->ntmaps++];
         t->rank = n >= 4 ? (unsigned)w[3] : 0;
         if (t->rank < 1 || t->rank > 5 || n != 5 + 3 * t->rank - 1)
            return false;
         t->at = (unsigned)w[0];
         t->data = (unsigned)w[1];
         t->type = (unsigned)w[2];
         for (unsigned k = 0; k < t->rank; k++) {
            t->dim[k] = w[4 + k];
            t->box[k] = (cuuint32_t)w[4 + 2 * t->rank - 1 + k];
            if (k)
               t->stride[k - 1] = w[4 + t->rank + k - 1];
         }
         t->swizzle = (unsigned)w[n - 1];
      } else if (!strncmp(p, "expect:", 7)) {
         c->has_expect = true;
         c->nexpect += parse_words(p + 7, c->expect + c->nexpect, MAX_WORDS - c->nexpect);
      }
   }
   return c->nout > 0 && c->nout <= MAX_WORDS;
}

/* ---- known gaps: the .txt files of tests/ptx/todo/ ---- */

typedef struct todo_entry {
   char pattern[512];
   char reason[520];
} todo_entry;
static todo_entry todos[4096];
static unsigned ntodos;

static void load_todo_file(const char *path)
{
   FILE *f = fopen(path, "r");
   if (!f)
      return;
   char line[512];
   while (fgets(line, sizeof(line), f) && ntodos < sizeof(todos) / sizeof(todos[0])) {
      if (line[0] == '#' || line[0] == '\n')
         continue;
      line[strcspn(line, "\n")] = 0;
      char *tab = strchr(line, '\t');
      if (tab)
         *tab++ = 0;
      snprintf(todos[ntodos].pattern, sizeof(todos[ntodos].pattern), "%s", line);
      snprintf(todos[ntodos].reason, sizeof(todos[ntodos].reason), " %s", tab ? tab : "");
      ntodos++;
   }
   fclose(f);
}

static void load_todos(const char *case_path)
{
   static bool loaded;
   if (loaded)
      return;
   loaded = true;
   char dir[1024];
   snprintf(dir, sizeof(dir), "%s", case_path);
   char *slash = strrchr(dir, '/');
   snprintf(slash ? slash + 1 : dir, sizeof(dir) - (size_t)(slash ? slash + 1 - dir : 0), "../todo");
   DIR *d = opendir(dir);
   if (!d)
      return;
   struct dirent *de;
   while ((de = readdir(d))) {
      size_t n = strlen(de->d_name);
      if (n > 4 && !strcmp(de->d_name + n - 4, ".txt")) {
         char path[2048];
         snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
         load_todo_file(path);
      }
   }
   closedir(d);
}

static const char *todo_reason(const char *name)
{
   char base[256];
   snprintf(base, sizeof(base), "%s", name);
   char *dot = strrchr(base, '.');
   if (dot && !strcmp(dot, ".ptx"))
      *dot = 0;
   for (unsigned k = 0; k < ntodos; k++)
      if (!fnmatch(todos[k].pattern, base, 0))
         return todos[k].reason;
   return NULL;
}

static const char *case_name(const char *path)
{
   const char *s = strrchr(path, '/');
   return s ? s + 1 : path;
}

#define CU(call)                                                              \
   do {                                                                      \
      CUresult r_ = (call);                                                  \
      if (r_ != CUDA_SUCCESS) {                                              \
         const char *s_ = NULL;                                              \
         cuGetErrorName(r_, &s_);                                            \
         snprintf(err, errlen, "%s failed: %s", #call, s_ ? s_ : "?");       \
         goto out;                                                           \
      }                                                                      \
   } while (0)

/* Runs the case; out receives nout words.  Returns false with err set. */
static bool run_case(ptx_case *c, uint64_t *outw, char *err, size_t errlen)
{
   bool ok = false;
   CUmodule mod = NULL;
   CUdeviceptr din = 0, dout = 0;
   size_t wbytes = (size_t)c->word_bits / 8, ibytes = (size_t)c->in_bits / 8;
   size_t in_bytes = (c->nin ? c->nin : 1) * ibytes, out_bytes = c->nout * wbytes;
   void *host_in = calloc(1, in_bytes), *host_out = malloc(out_bytes);
   if (!host_in || !host_out) {
      snprintf(err, errlen, "out of memory");
      goto out;
   }
   for (unsigned k = 0; k < c->nin; k++) {
      if (ibytes == 4)
         ((uint32_t *)host_in)[k] = (uint32_t)c->in[k];
      else
         ((uint64_t *)host_in)[k] = c->in[k];
   }
   memset(host_out, 0xde, out_bytes);
   CU(cuModuleLoadData(&mod, c->text));
   CUfunction f;
   CU(cuModuleGetFunction(&f, mod, "test"));
   CU(cuMemAlloc_v2(&din, in_bytes));
   CU(cuMemAlloc_v2(&dout, out_bytes));
   for (unsigned k = 0; k < c->ntmaps; k++) {
      const tmap_spec *t = &c->tmaps[k];
      CUtensorMap m;
      cuuint32_t es[5] = { 1, 1, 1, 1, 1 };
      CU(cuTensorMapEncodeTiled(&m, (CUtensorMapDataType)t->type, t->rank, (void *)(uintptr_t)(din + t->data),
                                t->dim, t->stride, t->box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                (CUtensorMapSwizzle)t->swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
      if (t->at + sizeof(m) > in_bytes) {
         snprintf(err, errlen, "tmap %u: byte %u is past the input", k, t->at);
         goto out;
      }
      memcpy((char *)host_in + t->at, &m, sizeof(m));
   }
   CU(cuMemcpyHtoD_v2(din, host_in, in_bytes));
   CU(cuMemcpyHtoD_v2(dout, host_out, out_bytes));
   void *args[] = { &din, &dout };
   CU(cuLaunchKernel(f, c->grid, 1, 1, c->block, c->block_y ? c->block_y : 1, c->block_z ? c->block_z : 1, 0, NULL,
                     args, NULL));
   CU(cuCtxSynchronize());
   CU(cuMemcpyDtoH_v2(host_out, dout, out_bytes));
   for (unsigned k = 0; k < c->nout; k++)
      outw[k] = wbytes == 4 ? ((uint32_t *)host_out)[k] : ((uint64_t *)host_out)[k];
   ok = true;
out:
   if (din)
      cuMemFree_v2(din);
   if (dout)
      cuMemFree_v2(dout);
   if (mod)
      cuModuleUnload(mod);
   free(host_in);
   free(host_out);
   return ok;
}

static int64_t f32_ulp_distance(uint32_t a, uint32_t b)
{
   /* map to a monotonic integer line */
   int64_t x = (a & 0x80000000u) ? -(int64_t)(a & 0x7fffffffu) : (int64_t)a;
   int64_t y = (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
   return x > y ? x - y : y - x;
}

static int64_t f64_ulp_distance(uint64_t a, uint64_t b)
{
   int64_t x = (a >> 63) ? -(int64_t)(a & INT64_MAX) : (int64_t)a;
   int64_t y = (b >> 63) ? -(int64_t)(b & INT64_MAX) : (int64_t)b;
   return x > y ? x - y : y - x;   /* no overflow: finite magnitudes are below 2^63 - 2^52 */
}

/* f64 words (.approx forms of f64): within c->ulp ulps or c->rel_tol of
 * the expected value; NaN matches NaN only, infinity itself only. */
static bool f64_words_match(const ptx_case *c, uint64_t got, uint64_t want)
{
   const uint64_t inf = 0x7ff0000000000000ull;
   bool nan_g = (got & INT64_MAX) > inf, nan_w = (want & INT64_MAX) > inf;
   if (nan_g || nan_w)
      return nan_g && nan_w;
   if ((got & INT64_MAX) == inf || (want & INT64_MAX) == inf)
      return false;
   if (c->ulp && f64_ulp_distance(got, want) <= c->ulp)
      return true;
   double g, w;
   memcpy(&g, &got, 8);
   memcpy(&w, &want, 8);
   return c->rel_tol > 0 && fabs(g - w) <= c->rel_tol * fabs(w);
}

static bool words_match(const ptx_case *c, uint64_t got, uint64_t want)
{
   if (got == want)
      return true;
   if ((c->ulp || c->rel_tol > 0) && c->word_bits == 64)
      return f64_words_match(c, got, want);
   if ((c->ulp || c->abs_tol > 0 || c->rel_tol > 0) && c->word_bits == 32) {
      bool nan_g = (got & 0x7fffffffu) > 0x7f800000u, nan_w = (want & 0x7fffffffu) > 0x7f800000u;
      if (nan_g || nan_w)
         return nan_g && nan_w;
      /* an infinity is never within a tolerance of a finite value */
      if ((got & 0x7fffffffu) == 0x7f800000u || (want & 0x7fffffffu) == 0x7f800000u)
         return false;
      if (c->ulp && f32_ulp_distance((uint32_t)got, (uint32_t)want) <= c->ulp)
         return true;
      float g, w;
      uint32_t gb = (uint32_t)got, wb = (uint32_t)want;
      memcpy(&g, &gb, 4);
      memcpy(&w, &wb, 4);
      double d = g > w ? (double)g - w : (double)w - g;
      return (c->abs_tol > 0 && d <= c->abs_tol) || (c->rel_tol > 0 && d <= c->rel_tol * fabs((double)w));
   }
   return false;
}

static bool write_expect(ptx_case *c, const uint64_t *outw)
{
   /* Drop old expect lines, then append new ones after the header. */
   size_t n = strlen(c->text);
   char *res = malloc(n + c->nout * 24 + 64);
   if (!res)
      return false;
   size_t o = 0;
   const char *p = c->text;
   bool in_header = true;
   while (*p) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
      bool is_comment = !strncmp(p, "//", 2);
      if (in_header && !is_comment) {
         for (unsigned k = 0; k < c->nout; k += 8) {
            o += (size_t)sprintf(res + o, "// expect:");
            for (unsigned j = k; j < c->nout && j < k + 8; j++)
               o += (size_t)sprintf(res + o, c->word_bits == 32 ? " 0x%08" PRIx64 : " 0x%016" PRIx64, outw[j]);
            res[o++] = '\n';
         }
         in_header = false;
      }
      if (!(in_header && is_comment && strstr(p, "expect:") && strstr(p, "expect:") < p + len)) {
         memcpy(res + o, p, len);
         o += len;
      }
      p += len;
   }
   FILE *f = fopen(c->path, "wb");
   bool ok = f && fwrite(res, 1, o, f) == o;
   if (f)
      fclose(f);
   free(res);
   return ok;
}

static CUdevice the_dev;

/* A kernel fault poisons the context (CUDA's sticky errors): start the
 * next case on a fresh one. */
static void reset_context(void)
{
   CUcontext ctx;
   cuDevicePrimaryCtxReset_v2(the_dev);
   if (cuDevicePrimaryCtxRetain(&ctx, the_dev) == CUDA_SUCCESS)
      cuCtxSetCurrent(ctx);
}

static int check_one(const char *path, bool generate)
{
   static ptx_case c;
   static uint64_t outw[MAX_WORDS];
   memset(&c, 0, sizeof(c));
   c.path = path;
   c.text = read_file(path);
   const char *name = case_name(path);
   load_todos(path);
   c.todo = todo_reason(name);
   if (!c.text || !parse_header(&c)) {
      printf("FAIL %s: cannot read the case header\n", name);
      free(c.text);
      return 1;
   }
   char err[512] = "";
   bool ran = run_case(&c, outw, err, sizeof(err));
   if (!ran)
      reset_context();
   int failed = 0;
   if (!ran && c.todo && !generate) {
      printf("SKIP %s: known gap:%s\n", name, c.todo);
   } else if (!ran) {
      printf("FAIL %s: %s\n", name, err);
      failed = 1;
   } else if (generate) {
      printf(write_expect(&c, outw) ? "PASS %s: expected output written\n" : "FAIL %s: cannot write\n", name);
   } else if (!c.has_expect) {
      printf("SKIP %s: no expected output yet (produce it on an NVIDIA GPU: tests/ptx/gen.sh)\n", name);
   } else if (c.nexpect != c.nout) {
      printf("FAIL %s: %u expected words for %u outputs\n", name, c.nexpect, c.nout);
      failed = 1;
   } else {
      unsigned bad = 0, first = 0;
      for (unsigned k = 0; k < c.nout; k++)
         if (!words_match(&c, outw[k], c.expect[k]) && !bad++)
            first = k;
      if (bad && c.todo) {
         printf("SKIP %s: known gap:%s (%u of %u words differ)\n", name, c.todo, bad, c.nout);
      } else if (bad) {
         printf("FAIL %s: %u of %u words differ; word %u: got 0x%" PRIx64 ", expected 0x%" PRIx64
                " (from the NVIDIA GPU)\n", name, bad, c.nout, first, outw[first], c.expect[first]);
         failed = 1;
      } else if (c.todo) {
         printf("FAIL %s: passes now: remove it from tests/ptx/todo/\n", name);
         failed = 1;
      } else {
         printf("PASS %s\n", name);
      }
   }
   fflush(stdout);
   free(c.text);
   return failed;
}

int main(int argc, char **argv)
{
   bool generate = argc > 1 && !strcmp(argv[1], "--generate");
   int first = generate ? 2 : 1;
   CUcontext ctx;
   CUdevice dev;
   if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
       cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
      printf("FAIL ptx_run: no CUDA device\n");
      return 1;
   }
   the_dev = dev;
   int failed = 0;
   for (int k = first; k < argc; k++)
      failed += check_one(argv[k], generate);
   cuDevicePrimaryCtxRelease_v2(dev);
   return failed ? 1 : 0;
}
