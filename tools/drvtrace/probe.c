/*
 * probe.c — asks a driver (through whatever libcuda.so.1 the library path
 * finds) how its export tables answer edge cases: unknown GUIDs, NULL
 * outputs, calls before cuInit, context-local storage across context
 * reset, release and destruction, the primary-context slot, the context
 * checks and the tools buffers.  Run on NVIDIA's driver, its output is what
 * metalcuda's tables are checked against.  Calls that might crash run in a
 * forked child; a crash is reported as the signal.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef uint64_t u64;
typedef int (*get_export_fn)(const void **, const void *);
typedef int (*i_fn)(int);
typedef int (*pi_fn)(int *);
typedef int (*u_fn)(unsigned);
typedef int (*ctx_out_dev_fn)(void **, int);
typedef int (*ctx_fn)(void *);
typedef int (*ctx_out_fn)(void **);
typedef int (*state_fn)(int, unsigned *, int *);
typedef int (*ctx_create_fn)(void **, unsigned, int);
typedef int (*cls_put_fn)(void *, void *, void *, void (*)(void *, void *, void *));
typedef int (*cls_del_fn)(void *, void *);
typedef int (*cls_get_fn)(void **, void *, void *);
typedef int (*cudart2_fn)(void **, int);
typedef int (*check2_fn)(void *, uint32_t *, void **);
typedef u64 (*check3_fn)(void);
typedef void (*buf_fn)(void **, size_t *);
typedef int (*integ_fn)(uint32_t, u64, u64 *);
typedef int (*proc_fn)(const char *, void **, int, u64, int *);

static void *lib;
static get_export_fn get_export;

static const unsigned char G_CUDART[16] = {0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
                                           0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9};
static const unsigned char G_TOOLS_TLS[16] = {0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47,
                                              0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc};
static const unsigned char G_TOOLS_RT[16] = {0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74,
                                             0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66};
static const unsigned char G_CLS[16] = {0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
                                        0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93};
static const unsigned char G_INTEGRITY[16] = {0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
                                              0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2};
static const unsigned char G_CHECKS[16] = {0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43,
                                           0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e};
static const unsigned char G_BYPASS[16] = {0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a,
                                           0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86};
static const unsigned char G_HEAP[16] = {0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a,
                                         0xac, 0xc5, 0x1d, 0x29, 0xce, 0xa6, 0x31, 0xae};
static const unsigned char G_DEVEXT[16] = {0xb1, 0x05, 0x41, 0xe1, 0xf7, 0xc7, 0xc7, 0x4a,
                                           0x9f, 0x64, 0xf2, 0x23, 0xbe, 0x99, 0xf1, 0xe2};
static const unsigned char G_F8[16] = {0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
                                       0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9};
static const unsigned char G_BOGUS[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

#define P(...) (printf(__VA_ARGS__), fflush(stdout))

static void *sym(const char *n)
{
   void *f = dlsym(lib, n);
   if (!f)
      P("probe: no symbol %s\n", n);
   return f;
}

static const u64 *table(const unsigned char *g)
{
   const void *t = NULL;
   int r = get_export(&t, g);
   return r == 0 ? t : NULL;
}

/* Runs fn in a child; prints how it ended. */
static void in_child(const char *what, void (*fn)(void))
{
   fflush(stdout);
   pid_t p = fork();
   if (p == 0) {
      fn();
      fflush(stdout);
      _exit(0);
   }
   int st = 0;
   waitpid(p, &st, 0);
   if (WIFSIGNALED(st))
      P("%s: child killed by signal %d\n", what, WTERMSIG(st));
}

static int dtor_calls;
static void dtor(void *a, void *b, void *c)
{
   dtor_calls++;
   P("  dtor(%p, %p, %p) call %d\n", a, b, c, dtor_calls);
}

/* ---- calls for children ---- */

static void c_unknown(void)
{
   const void *t = (const void *)0x1234;
   int r = get_export(&t, G_BOGUS);
   P("cuGetExportTable(bogus guid) -> %d table=%p\n", r, t);
}
static void c_null_out(void)
{
   int r = get_export(NULL, G_CUDART);
   P("cuGetExportTable(NULL, CUDART_INTERFACE) -> %d\n", r);
}
static void c_null_id(void)
{
   const void *t = (const void *)0x1234;
   int r = get_export(&t, NULL);
   P("cuGetExportTable(&t, NULL) -> %d table=%p\n", r, t);
}
static void c_cls_get(void)
{
   void *v = (void *)0x77;
   int r = ((cls_get_fn)table(G_CLS)[2])(&v, NULL, (void *)0x1000);
   P("CLS get(&v, NULL ctx, key) -> %d v=%p\n", r, v);
}
static void c_cls_put(void)
{
   int r = ((cls_put_fn)table(G_CLS)[0])(NULL, (void *)0x1000, (void *)0x2000, dtor);
   P("CLS put(NULL ctx, key, value, dtor) -> %d\n", r);
}
static void c_cls_del(void)
{
   int r = ((cls_del_fn)table(G_CLS)[1])(NULL, (void *)0x1000);
   P("CLS delete(NULL ctx, key) -> %d\n", r);
}
static void c_cls_get_null_out(void)
{
   int r = ((cls_get_fn)table(G_CLS)[2])(NULL, NULL, (void *)0x1000);
   P("CLS get(NULL out, NULL ctx, key) -> %d\n", r);
}
static void c_cudart2(void)
{
   void *c = (void *)0x77;
   int r = ((cudart2_fn)table(G_CUDART)[2])(&c, 0);
   P("CUDART[2](&ctx, 0) -> %d ctx=%p\n", r, c);
}
static void c_cudart2_null(void)
{
   int r = ((cudart2_fn)table(G_CUDART)[2])(NULL, 0);
   P("CUDART[2](NULL, 0) -> %d\n", r);
}
static void c_cudart2_baddev(void)
{
   void *c = (void *)0x77;
   int r = ((cudart2_fn)table(G_CUDART)[2])(&c, 99);
   P("CUDART[2](&ctx, 99) -> %d ctx=%p\n", r, c);
   r = ((cudart2_fn)table(G_CUDART)[2])(&c, -1);
   P("CUDART[2](&ctx, -1) -> %d ctx=%p\n", r, c);
}
static void c_checks(void)
{
   const u64 *t = table(G_CHECKS);
   u64 r3 = ((check3_fn)t[3])();
   P("CHECKS[3]() -> %#llx\n", (unsigned long long)r3);
   uint32_t u = 0x77;
   void *p = (void *)0x77;
   int r = ((check2_fn)t[2])(NULL, &u, &p);
   P("CHECKS[2](NULL, &u, &p) -> %d u=%u p=%p\n", r, u, p);
}
static void c_checks_null(void)
{
   int r = ((check2_fn)table(G_CHECKS)[2])(NULL, NULL, NULL);
   P("CHECKS[2](NULL, NULL, NULL) -> %d\n", r);
}
static void c_tools(void)
{
   const u64 *t = table(G_TOOLS_RT);
   for (int s = 2; s <= 6; s += 4) {
      void *p = (void *)0x77;
      size_t n = 0x77;
      ((buf_fn)t[s])(&p, &n);
      P("TOOLS_RT[%d](&p, &n): p=%p n=%zu", s, p, n);
      if (p && p != (void *)0x77)
         for (int i = 0; i < 16; i++)
            P(" %08x", ((uint32_t *)p)[i]);
      P("\n");
   }
}
static void c_integrity(void)
{
   u64 out[2] = {0x77, 0x77};
   int r = ((integ_fn)table(G_INTEGRITY)[1])(13002, 1700000000ull, out);
   P("INTEGRITY[1](13002) -> %d out=%016llx %016llx\n", r, (unsigned long long)out[0], (unsigned long long)out[1]);
   r = ((integ_fn)table(G_INTEGRITY)[1])(13000, 1700000000ull, out);
   P("INTEGRITY[1](13000) -> %d out=%016llx %016llx\n", r, (unsigned long long)out[0], (unsigned long long)out[1]);
}
static void c_integrity_null(void)
{
   int r = ((integ_fn)table(G_INTEGRITY)[1])(13002, 1700000000ull, NULL);
   P("INTEGRITY[1](13002, t, NULL) -> %d\n", r);
}

static void tables(const char *when)
{
   const struct {
      const char *n;
      const unsigned char *g;
   } all[] = {{"CUDART_INTERFACE", G_CUDART}, {"TOOLS_TLS", G_TOOLS_TLS}, {"TOOLS_RUNTIME_CALLBACK_HOOKS", G_TOOLS_RT},
              {"CONTEXT_LOCAL_STORAGE", G_CLS}, {"CTX_CREATE_BYPASS", G_BYPASS}, {"HEAP_ACCESS", G_HEAP},
              {"DEVICE_EXTENDED_RT", G_DEVEXT}, {"INTEGRITY_CHECK", G_INTEGRITY}, {"CONTEXT_CHECKS", G_CHECKS},
              {"F8CFF951", G_F8}};
   for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
      const void *t = (const void *)0x1234;
      int r = get_export(&t, all[i].g);
      P("%s: cuGetExportTable(%s) -> %d table=%p", when, all[i].n, r, t);
      if (r == 0 && t)
         P(" [0]=%#llx", (unsigned long long)((const u64 *)t)[0]);
      P("\n");
   }
}

int main(void)
{
   lib = dlopen("libcuda.so.1", RTLD_NOW);
   if (!lib) {
      P("probe: %s\n", dlerror());
      return 1;
   }
   get_export = (get_export_fn)sym("cuGetExportTable");
   u_fn cu_init = (u_fn)sym("cuInit");
   ctx_out_dev_fn retain = (ctx_out_dev_fn)sym("cuDevicePrimaryCtxRetain");
   i_fn release = (i_fn)sym("cuDevicePrimaryCtxRelease_v2");
   i_fn reset = (i_fn)sym("cuDevicePrimaryCtxReset_v2");
   state_fn state = (state_fn)sym("cuDevicePrimaryCtxGetState");
   ctx_out_fn get_cur = (ctx_out_fn)sym("cuCtxGetCurrent");
   ctx_fn set_cur = (ctx_fn)sym("cuCtxSetCurrent");
   ctx_create_fn create = (ctx_create_fn)sym("cuCtxCreate_v2");
   ctx_fn destroy = (ctx_fn)sym("cuCtxDestroy_v2");
   proc_fn proc = (proc_fn)sym("cuGetProcAddress_v2");

   P("== before cuInit\n");
   tables("before init");
   in_child("unknown", c_unknown);
   in_child("null out", c_null_out);
   in_child("null id", c_null_id);
   in_child("cls get", c_cls_get);
   in_child("cls put", c_cls_put);
   in_child("cls del", c_cls_del);
   in_child("cudart2", c_cudart2);
   in_child("checks", c_checks);
   in_child("tools", c_tools);
   in_child("integrity", c_integrity);

   P("== cuInit -> %d\n", cu_init(0));
   tables("after init");
   in_child("cls get null out", c_cls_get_null_out);
   in_child("cudart2 null", c_cudart2_null);
   in_child("checks null", c_checks_null);
   in_child("integrity null", c_integrity_null);
   if (!table(G_CLS) || !table(G_CHECKS) || !table(G_CUDART) || !table(G_TOOLS_RT) || !table(G_INTEGRITY)) {
      P("probe: a table is missing, stopping\n");
      return 0;
   }
   c_cudart2_baddev();
   c_cls_get();
   c_cls_put();
   c_cls_del();
   c_checks();
   c_tools();

   if (!table(G_CLS) || !table(G_CHECKS) || !table(G_CUDART) || !table(G_TOOLS_RT) || !table(G_INTEGRITY)) {
      P("probe: a table is missing, stopping\n");
      return 0;
   }
   const u64 *cls = table(G_CLS);
   cls_put_fn put = (cls_put_fn)cls[0];
   cls_del_fn del = (cls_del_fn)cls[1];
   cls_get_fn get = (cls_get_fn)cls[2];
   check2_fn check2 = (check2_fn)table(G_CHECKS)[2];
   cudart2_fn cudart2 = (cudart2_fn)table(G_CUDART)[2];
   unsigned fl = 0;
   int act = -1;
   void *cur = (void *)0x77, *c2 = NULL, *pc = NULL, *v = NULL;
   int r;

   P("== primary context through CUDART[2]\n");
   state(0, &fl, &act);
   P("state before: flags=%#x active=%d\n", fl, act);
   r = cudart2(&c2, 0);
   state(0, &fl, &act);
   get_cur(&cur);
   P("CUDART[2](&ctx, 0) -> %d ctx=%p; state flags=%#x active=%d; current=%p\n", r, c2, fl, act, cur);
   r = set_cur(c2);
   v = (void *)0x77;
   int rg = get(&v, NULL, (void *)0x1000);
   uint32_t u0 = 0x77;
   void *p0 = (void *)0x77;
   int rc2 = check2(c2, &u0, &p0);
   P("set current (not retained) -> %d; get(NULL ctx) -> %d v=%p; CHECKS[2] -> %d u=%u p=%p\n", r, rg, v, rc2, u0,
     p0);
   r = retain(&pc, 0);
   state(0, &fl, &act);
   P("retain -> %d ctx=%p (same as CUDART[2]: %d); active=%d\n", r, pc, pc == c2, act);
   r = cudart2(&c2, 0);
   P("CUDART[2] again -> %d ctx=%p\n", r, c2);
   uint32_t u = 0x77;
   void *p = (void *)0x77;
   r = check2(pc, &u, &p);
   P("CHECKS[2](primary, &u, &p) -> %d u=%u p=%p\n", r, u, p);

   P("== context-local storage on the primary context\n");
   r = put(pc, (void *)0x1000, (void *)0x2000, dtor);
   P("put(primary, 0x1000, 0x2000, dtor) -> %d\n", r);
   v = NULL;
   r = get(&v, pc, (void *)0x1000);
   P("get(primary, 0x1000) -> %d v=%p\n", r, v);
   v = (void *)0x77;
   r = get(&v, NULL, (void *)0x1000);
   P("get(NULL ctx, 0x1000) with no current context -> %d v=%p\n", r, v);
   set_cur(pc);
   v = NULL;
   r = get(&v, NULL, (void *)0x1000);
   P("get(NULL ctx, 0x1000) with primary current -> %d v=%p\n", r, v);
   v = (void *)0x77;
   r = get(&v, pc, (void *)0x1001);
   P("get(primary, 0x1001 never put) -> %d v=%p\n", r, v);
   r = put(pc, (void *)0x1000, (void *)0x3000, dtor);
   v = NULL;
   int r2 = get(&v, pc, (void *)0x1000);
   P("put same key again -> %d; get -> %d v=%p; dtor calls so far %d\n", r, r2, v, dtor_calls);
   r = del(pc, (void *)0x1000);
   P("delete(primary, 0x1000) -> %d; dtor calls %d\n", r, dtor_calls);
   r = del(pc, (void *)0x1000);
   P("delete again -> %d\n", r);
   v = (void *)0x77;
   r = get(&v, pc, (void *)0x1000);
   P("get after delete -> %d v=%p\n", r, v);
   r = put(pc, (void *)0x1002, (void *)0x4000, NULL);
   P("put with NULL dtor -> %d\n", r);
   r = put(pc, (void *)0x1003, (void *)0x5000, dtor);
   r = put(pc, (void *)0x1004, (void *)0x6000, dtor);
   P("== cuDevicePrimaryCtxReset (dtor calls before: %d)\n", dtor_calls);
   r = reset(0);
   P("reset -> %d; dtor calls now %d\n", r, dtor_calls);
   state(0, &fl, &act);
   get_cur(&cur);
   P("after reset: active=%d current=%p\n", act, cur);
   v = (void *)0x77;
   r = get(&v, pc, (void *)0x1003);
   P("get(old primary handle, 0x1003) after reset -> %d v=%p\n", r, v);
   r = cudart2(&c2, 0);
   state(0, &fl, &act);
   P("CUDART[2] after reset -> %d ctx=%p (same handle: %d) active=%d\n", r, c2, c2 == pc, act);

   P("== release to zero\n");
   r = retain(&pc, 0);
   state(0, &fl, &act);
   P("retain -> %d ctx=%p active=%d\n", r, pc, act);
   r = put(pc, (void *)0x1005, (void *)0x7000, dtor);
   P("put -> %d\n", r);
   int before = dtor_calls;
   r = release(0);
   state(0, &fl, &act);
   P("release -> %d active=%d dtor calls %d -> %d\n", r, act, before, dtor_calls);
   r = release(0);
   state(0, &fl, &act);
   P("release again -> %d active=%d dtor calls %d\n", r, act, dtor_calls);
   v = (void *)0x77;
   r = get(&v, pc, (void *)0x1005);
   P("get after release -> %d v=%p\n", r, v);

   P("== created context\n");
   void *cc = NULL;
   r = create(&cc, 0, 0);
   P("cuCtxCreate -> %d ctx=%p\n", r, cc);
   r = put(cc, (void *)0x1006, (void *)0x8000, dtor);
   before = dtor_calls;
   r2 = get(&v, NULL, (void *)0x1006);
   P("put on created -> %d; get via current -> %d v=%p\n", r, r2, v);
   r = check2(cc, &u, &p);
   P("CHECKS[2](created, &u, &p) -> %d u=%u p=%p\n", r, u, p);
   r = destroy(cc);
   P("cuCtxDestroy -> %d dtor calls %d -> %d\n", r, before, dtor_calls);
   get_cur(&cur);
   P("current after destroy: %p\n", cur);

   P("== cuGetProcAddress_v2 edges\n");
   const char *names[] = {"cuGetExportTable", "cuGetProcAddress", "cuNoSuchFunction", "cuInit", "cuMemAlloc"};
   int vers[] = {0, 2000, 3020, 12000, 12090, 13000, 13010, 99999};
   for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
      for (size_t k = 0; k < sizeof vers / sizeof vers[0]; k++) {
         void *f = (void *)0x77;
         int st = -1;
         r = proc(names[i], &f, vers[k], 0, &st);
         Dl_info di = {0};
         const char *s = f && f != (void *)0x77 && dladdr(f, &di) && di.dli_sname ? di.dli_sname : "-";
         P("proc(%s, %d) -> %d status=%d fn=%s\n", names[i], vers[k], r, st, s);
      }
   void *f = NULL;
   int st = -1;
   r = proc("cuInit", &f, 13000, 7, &st);
   P("proc(cuInit, 13000, flags=7) -> %d status=%d\n", r, st);
   r = proc("cuInit", &f, 13000, 0, NULL);
   P("proc(cuInit, 13000, status NULL) -> %d\n", r);
   P("probe done\n");
   return 0;
}
