/*
 * drvtrace.c — a logging libcuda.so.1 put in front of NVIDIA's driver, on a
 * machine with an NVIDIA GPU, to record what NVIDIA's runtime (static or
 * shared, any version) asks of the driver.  x86-64 Linux only: it is a
 * measuring instrument for that machine, never part of metalcuda.
 *
 *    LD_LIBRARY_PATH=DIR_WITH_THIS DRVTRACE_REAL=/path/to/real/libcuda.so.1 \
 *       DRVTRACE_DIR=LOGDIR ./program
 *
 * What it records, one line per event, in LOGDIR/<program>.<pid>.log:
 *  - PROC: every cuGetProcAddress(_v2) lookup (name, version, flags, answer);
 *    the function handed out is a logging trampoline (CALL lines: the first
 *    six integer arguments, the result, and 16 bytes after the call at each
 *    argument that is a readable address), except cuGetExportTable and
 *    cuGetProcAddress themselves, which are ours;
 *  - EXPORT: every cuGetExportTable (GUID as the 16 bytes in memory order,
 *    written like NVIDIA's GUID strings), its answer, and the first time a
 *    table is seen, TABLE/SLOT lines with every entry (size word, function
 *    in the driver's code, data, NULL);
 *  - DARK: every call of a table's function, patched in place (the table
 *    keeps its address, which the integrity check hashes): the arguments,
 *    48 bytes before and after at each readable argument, the result.
 *    The integrity check's own table is left alone, since its function's
 *    address is hashed too (DRVTRACE_PATCH_INTEGRITY=1 patches it anyway:
 *    the runtime then fails its check); with DRVTRACE_CAPTURE=1, INTEGRITY
 *    lines record the driver's answers for chosen versions and times, with
 *    every input the hash is said to cover (pid, thread, table addresses,
 *    devices).
 *
 * Trampolines forward twelve integer arguments (the stack ones are copied
 * from the caller's frame), enough for every driver function; none the
 * runtime calls takes a floating-point argument.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <sys/uio.h>
#endif

#include "drvtrace_gen.h"

/* The kernel's thread id where there is one (NVIDIA's libcuda exists only
 * on Linux; elsewhere the tool builds but has nothing to wrap). */
static long thread_id(void)
{
#if defined(__linux__)
   return (long)syscall(SYS_gettid);
#else
   return (long)(uintptr_t)pthread_self();
#endif
}

typedef uint64_t u64;
typedef u64 (*fn12)(u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64, u64);

static void *real;
static int logfd = 2;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- output: one write per line, so processes and threads interleave by line ---- */

typedef struct line {
   char b[12288];
   size_t n;
} line;

static void add(line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(line *l, const char *fmt, ...)
{
   if (l->n >= sizeof l->b - 1)
      return;
   va_list ap;
   va_start(ap, fmt);
   int k = vsnprintf(l->b + l->n, sizeof l->b - l->n, fmt, ap);
   va_end(ap);
   if (k > 0)
      l->n = l->n + (size_t)k < sizeof l->b ? l->n + (size_t)k : sizeof l->b - 1;
}

static void begin(line *l, const char *kind)
{
   l->n = 0;
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   add(l, "%ld.%06ld %d/%ld %s ", (long)ts.tv_sec, ts.tv_nsec / 1000, getpid(), thread_id(), kind);
}

static void emit(line *l)
{
   add(l, "\n");
   ssize_t w = write(logfd, l->b, l->n);
   (void)w;
}

/* Whether [p, p+n) can be read, by asking the kernel to copy it. */
static bool readable(u64 p, size_t n, void *copy)
{
   if (p < 0x10000 || p >= 0x800000000000ull)
      return false;
#if defined(__linux__)
   struct iovec lo = {copy, n}, re = {(void *)p, n};
   return process_vm_readv(getpid(), &lo, 1, &re, 1, 0) == (ssize_t)n;
#else
   (void)copy;
   return false;   /* no process_vm_readv: arguments are logged without their bytes */
#endif
}

static void add_hex(line *l, u64 p, size_t n)
{
   unsigned char buf[64];
   if (n > sizeof buf || !readable(p, n, buf))
      return;
   add(l, " [%#llx:", (unsigned long long)p);
   for (size_t i = 0; i < n; i++)
      add(l, "%s%02x", i % 8 ? "" : " ", buf[i]);
   add(l, "]");
}

/* ---- the real driver's code ranges (what counts as a function pointer) ---- */

static struct {
   u64 lo, hi;
} code[16];
static int ncode;
static u64 real_base;

static void read_maps(const char *path)
{
   FILE *f = fopen("/proc/self/maps", "r");
   if (!f)
      return;
   char buf[4096];
   char rp[4096];
   if (!realpath(path, rp))
      snprintf(rp, sizeof rp, "%s", path);
   while (fgets(buf, sizeof buf, f)) {
      unsigned long long lo, hi;
      char perms[8];
      if (sscanf(buf, "%llx-%llx %7s", &lo, &hi, perms) != 3 || !strstr(buf, rp))
         continue;
      if (!real_base || lo < real_base)
         real_base = lo;
      if (perms[2] == 'x' && ncode < 16) {
         code[ncode].lo = lo;
         code[ncode].hi = hi;
         ncode++;
      }
   }
   fclose(f);
}

/* The protection of the mapping holding p (read and execute bits), so that
 * making a table writable keeps what else the page needs. */
static int prot_of(u64 p)
{
   int prot = PROT_READ;
   FILE *f = fopen("/proc/self/maps", "r");
   if (!f)
      return prot;
   char buf[4096];
   while (fgets(buf, sizeof buf, f)) {
      unsigned long long lo, hi;
      char perms[8];
      if (sscanf(buf, "%llx-%llx %7s", &lo, &hi, perms) == 3 && p >= lo && p < hi) {
         prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[2] == 'x' ? PROT_EXEC : 0);
         break;
      }
   }
   fclose(f);
   return prot;
}

static bool is_code(u64 p)
{
   for (int i = 0; i < ncode; i++)
      if (p >= code[i].lo && p < code[i].hi)
         return true;
   return false;
}

/* ---- forwarders: every driver symbol jumps to the real one ---- */

static u64 missing(void) { return 500; /* CUDA_ERROR_NOT_FOUND */ }

#define X(name)                                                                                  \
   __attribute__((visibility("hidden"))) void *fwd_##name;                                      \
   __asm__(".pushsection .text\n.globl " #name "\n.type " #name ",@function\n" #name            \
           ":\n\tjmp *fwd_" #name "(%rip)\n.size " #name ", .-" #name "\n.popsection\n");
DT_FORWARDERS(X)
#undef X

typedef int (*get_export_fn)(const void **, const void *);
typedef int (*get_proc_v2_fn)(const char *, void **, int, u64, int *);
typedef int (*get_proc_fn)(const char *, void **, int, u64);
static get_export_fn real_get_export;
static get_proc_v2_fn real_get_proc_v2;
static get_proc_fn real_get_proc;

__attribute__((constructor)) static void init(void)
{
   const char *path = getenv("DRVTRACE_REAL");
   if (!path)
      path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
   const char *dir = getenv("DRVTRACE_DIR");
   if (dir) {
      char name[4096], comm[64] = "prog";
      FILE *c = fopen("/proc/self/comm", "r");
      if (c) {
         if (fgets(comm, sizeof comm, c))
            comm[strcspn(comm, "\n")] = 0;
         fclose(c);
      }
      snprintf(name, sizeof name, "%s/%s%s%s.%d.log", dir, getenv("DRVTRACE_TAG") ? getenv("DRVTRACE_TAG") : "",
               getenv("DRVTRACE_TAG") ? "." : "", comm, getpid());
      int fd = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (fd >= 0)
         logfd = fd;
   }
   real = dlopen(path, RTLD_NOW | RTLD_LOCAL);
   line l;
   begin(&l, "INIT");
   add(&l, "real=%s handle=%p", path, real);
   if (!real)
      add(&l, " error=%s", dlerror());
   emit(&l);
#define X(name)                                                                                  \
   fwd_##name = real ? dlsym(real, #name) : NULL;                                               \
   if (!fwd_##name)                                                                             \
      fwd_##name = (void *)missing;
   DT_FORWARDERS(X)
#undef X
   if (real) {
      real_get_export = (get_export_fn)dlsym(real, "cuGetExportTable");
      real_get_proc_v2 = (get_proc_v2_fn)dlsym(real, "cuGetProcAddress_v2");
      real_get_proc = (get_proc_fn)dlsym(real, "cuGetProcAddress");
      read_maps(path);
   }
}

/* ---- logging trampolines for looked-up functions ---- */

static struct {
   const char *name;
   void *real;
   u64 calls;
} procs[DT_NPROC];
static int nprocs;

static void proc_log(int i, u64 r, const u64 *a)
{
   u64 n = __atomic_add_fetch(&procs[i].calls, 1, __ATOMIC_RELAXED);
   if (n > 40 && (n & (n - 1)))   /* the first 40 calls, then powers of two */
      return;
   line l;
   begin(&l, "CALL");
   add(&l, "%s#%llu(%#llx, %#llx, %#llx, %#llx, %#llx, %#llx) -> %d", procs[i].name, (unsigned long long)n,
       (unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)a[2], (unsigned long long)a[3],
       (unsigned long long)a[4], (unsigned long long)a[5], (int)r);
   for (int k = 0; k < 6; k++)
      add_hex(&l, a[k], 16);
   emit(&l);
}

#define X(i)                                                                                     \
   static u64 ptramp_##i(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g, u64 h, u64 j, u64 k,   \
                         u64 m, u64 n)                                                          \
   {                                                                                            \
      u64 r = ((fn12)procs[i].real)(a, b, c, d, e, f, g, h, j, k, m, n);                        \
      u64 args[6] = {a, b, c, d, e, f};                                                         \
      proc_log(i, r, args);                                                                     \
      return r;                                                                                 \
   }
DT_PROC_POOL(X)
#undef X
#define X(i) (void *)ptramp_##i,
static void *const ptramps[DT_NPROC] = {DT_PROC_POOL(X)};
#undef X

int cuGetExportTable(const void **pp, const void *id);

static void *wrap_proc(const char *name, void *fn)
{
   if (!fn || getenv("DRVTRACE_NO_CALLS"))
      return fn;
   if (!strcmp(name, "cuGetExportTable"))
      return (void *)cuGetExportTable;
   pthread_mutex_lock(&lock);
   void *w = fn;
   int i;
   for (i = 0; i < nprocs; i++)
      if (procs[i].real == fn)
         break;
   if (i < nprocs) {
      w = ptramps[i];
   } else if (nprocs < DT_NPROC) {
      procs[nprocs].name = strdup(name);
      procs[nprocs].real = fn;
      w = ptramps[nprocs++];
   }
   pthread_mutex_unlock(&lock);
   return w;
}

int cuGetProcAddress_v2(const char *symbol, void **pfn, int ver, u64 flags, int *status);
int cuGetProcAddress(const char *symbol, void **pfn, int ver, u64 flags);

int cuGetProcAddress_v2(const char *symbol, void **pfn, int ver, u64 flags, int *status)
{
   int r = real_get_proc_v2 ? real_get_proc_v2(symbol, pfn, ver, flags, status) : 500;
   line l;
   begin(&l, "PROC");
   add(&l, "v2 %s ver=%d flags=%llu -> %d status=%d fn=%p", symbol ? symbol : "(null)", ver,
       (unsigned long long)flags, r, status ? *status : -1, pfn ? *pfn : NULL);
   emit(&l);
   if (r == 0 && pfn && symbol) {
      if (!strcmp(symbol, "cuGetProcAddress") && *pfn)
         *pfn = ver >= 12000 ? (void *)cuGetProcAddress_v2 : (void *)cuGetProcAddress;
      else
         *pfn = wrap_proc(symbol, *pfn);
   }
   return r;
}

int cuGetProcAddress(const char *symbol, void **pfn, int ver, u64 flags)
{
   int r = real_get_proc ? real_get_proc(symbol, pfn, ver, flags) : 500;
   line l;
   begin(&l, "PROC");
   add(&l, "v1 %s ver=%d flags=%llu -> %d fn=%p", symbol ? symbol : "(null)", ver, (unsigned long long)flags, r,
       pfn ? *pfn : NULL);
   emit(&l);
   if (r == 0 && pfn && symbol) {
      if (!strcmp(symbol, "cuGetProcAddress") && *pfn)
         *pfn = (void *)cuGetProcAddress;
      else
         *pfn = wrap_proc(symbol, *pfn);
   }
   return r;
}

/* ---- export tables ---- */

static const struct {
   const char *name;
   unsigned char g[16];
} known[] = {
   {"CUDART_INTERFACE", {0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}},
   {"TOOLS_TLS", {0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc}},
   {"TOOLS_RUNTIME_CALLBACK_HOOKS",
    {0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}},
   {"CONTEXT_LOCAL_STORAGE", {0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93}},
   {"CTX_CREATE_BYPASS", {0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a, 0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86}},
   {"HEAP_ACCESS", {0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a, 0xac, 0xc5, 0x1d, 0x29, 0xce, 0xa6, 0x31, 0xae}},
   {"DEVICE_EXTENDED_RT", {0xb1, 0x05, 0x41, 0xe1, 0xf7, 0xc7, 0xc7, 0x4a, 0x9f, 0x64, 0xf2, 0x23, 0xbe, 0x99, 0xf1, 0xe2}},
   {"INTEGRITY_CHECK", {0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2}},
   {"CONTEXT_CHECKS", {0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e}},
   {"UNKNOWN_F8CFF951", {0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9}},
};

static const char *guid_name(const unsigned char *g)
{
   for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
      if (!memcmp(known[i].g, g, 16))
         return known[i].name;
   return "?";
}

static void add_guid(line *l, const unsigned char *g)
{
   add(l, "{%02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-%02X%02X%02X%02X%02X%02X}", g[0], g[1], g[2], g[3], g[4],
       g[5], g[6], g[7], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
}

static struct {
   const u64 *addr;
   unsigned char g[16];
} tables[64];
static int ntables;

static struct {
   int table;
   int slot;
   void *real;
} darks[DT_NDARK];
static int ndarks;

static void dark_log(int i, u64 r, const u64 *a, const unsigned char (*pre)[48], const bool *had)
{
   line l;
   begin(&l, "DARK");
   add(&l, "%s[%d](", guid_name(tables[darks[i].table].g), darks[i].slot);
   for (int k = 0; k < 6; k++)
      add(&l, "%s%#llx", k ? ", " : "", (unsigned long long)a[k]);
   add(&l, ") -> %#llx", (unsigned long long)r);
   for (int k = 0; k < 6; k++) {
      if (!had[k])
         continue;
      add(&l, " a%d.before=", k);
      for (int j = 0; j < 48; j++)
         add(&l, "%s%02x", j % 8 ? "" : " ", pre[k][j]);
      add(&l, " a%d.after=", k);
      add_hex(&l, a[k], 48);
   }
   emit(&l);
}

#define X(i)                                                                                     \
   static u64 dtramp_##i(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g, u64 h, u64 j, u64 k,   \
                         u64 m, u64 n)                                                          \
   {                                                                                            \
      u64 args[6] = {a, b, c, d, e, f};                                                         \
      unsigned char pre[6][48];                                                                 \
      bool had[6];                                                                              \
      for (int q = 0; q < 6; q++)                                                               \
         had[q] = readable(args[q], 48, pre[q]);                                                \
      u64 r = ((fn12)darks[i].real)(a, b, c, d, e, f, g, h, j, k, m, n);                        \
      dark_log(i, r, args, (const unsigned char(*)[48])pre, had);                               \
      return r;                                                                                 \
   }
DT_DARK_POOL(X)
#undef X
#define X(i) (void *)dtramp_##i,
static void *const dtramps[DT_NDARK] = {DT_DARK_POOL(X)};
#undef X

static const unsigned char *guid_of(const char *name)
{
   for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
      if (!strcmp(known[i].name, name))
         return known[i].g;
   return NULL;
}

/* The driver's integrity answers for chosen versions and times, with the
 * inputs a keyed hash over them would use, so that an implementation can be
 * checked against them. */
static void integrity_capture(const u64 *itab)
{
   typedef int (*icheck)(uint32_t, u64, u64 *);
   typedef int (*i_fn)(int *);
   typedef int (*init_fn)(unsigned);
   typedef int (*cnt_fn)(int *);
   typedef int (*uuid_fn)(unsigned char *, int);
   typedef int (*attr_fn)(int *, int, int);
   icheck f = (icheck)itab[1];
   const char *need[] = {"cuDriverGetVersion", "cuInit", "cuDeviceGetCount", "cuDeviceGetUuid", "cuDeviceGetUuid_v2",
                         "cuDeviceGetAttribute"};
   for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
      if (!dlsym(real, need[i]))
         return;
   const void *cudart = NULL;
   real_get_export(&cudart, guid_of("CUDART_INTERFACE"));
   int drv = 0, nd = 0;
   ((i_fn)dlsym(real, "cuDriverGetVersion"))(&drv);
   int ir = ((init_fn)dlsym(real, "cuInit"))(0);
   ((cnt_fn)dlsym(real, "cuDeviceGetCount"))(&nd);
   line l;
   begin(&l, "INTEGRITY");
   add(&l, "inputs pid=%d pthread_self=%#lx gettid=%ld driver=%d cuInit=%d cudart_table=%p integrity_table=%p "
           "fn=%p ndev=%d sizeof_pthread_t=%zu",
       getpid(), (unsigned long)pthread_self(), thread_id(), drv, ir, cudart, (const void *)itab,
       (void *)f, nd, sizeof(pthread_t));
   emit(&l);
   for (int d = 0; d < nd; d++) {
      unsigned char u1[16] = {0}, u2[16] = {0};
      int r1 = ((uuid_fn)dlsym(real, "cuDeviceGetUuid"))(u1, d);
      int r2 = ((uuid_fn)dlsym(real, "cuDeviceGetUuid_v2"))(u2, d);
      int dom = -1, bus = -1, dev = -1;
      ((attr_fn)dlsym(real, "cuDeviceGetAttribute"))(&dom, 50, d);
      ((attr_fn)dlsym(real, "cuDeviceGetAttribute"))(&bus, 33, d);
      ((attr_fn)dlsym(real, "cuDeviceGetAttribute"))(&dev, 34, d);
      begin(&l, "INTEGRITY");
      add(&l, "device %d uuid(%d)=", d, r1);
      for (int i = 0; i < 16; i++)
         add(&l, "%02x", u1[i]);
      add(&l, " uuid_v2(%d)=", r2);
      for (int i = 0; i < 16; i++)
         add(&l, "%02x", u2[i]);
      add(&l, " pci_domain=%d pci_bus=%d pci_device=%d", dom, bus, dev);
      emit(&l);
   }
   static const uint32_t versions[] = {13000, 13001, 13002, 13003, 13004, 13010, 13012, 12000,
                                       12001, 12002, 12090, 12091, 12092, 11000, 11002, 0};
   static const u64 times[] = {1700000000ull, 0x123456789abcdefull};
   for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++)
      for (size_t t = 0; t < 2; t++) {
         u64 out[2] = {0xdeadbeefdeadbeefull, 0xdeadbeefdeadbeefull};
         int r = f(versions[v], times[t], out);
         begin(&l, "INTEGRITY");
         add(&l, "check version=%u time=%llu -> %d out=%016llx %016llx", versions[v], (unsigned long long)times[t],
             r, (unsigned long long)out[0], (unsigned long long)out[1]);
         emit(&l);
      }
}

static void describe_and_patch(const u64 *t, const unsigned char *g)
{
   pthread_mutex_lock(&lock);
   for (int i = 0; i < ntables; i++)
      if (tables[i].addr == t) {
         pthread_mutex_unlock(&lock);
         return;
      }
   if (ntables >= 64) {
      pthread_mutex_unlock(&lock);
      return;
   }
   int ti = ntables++;
   tables[ti].addr = t;
   memcpy(tables[ti].g, g, 16);
   bool sized = t[0] >= 8 && t[0] < 4096 && t[0] % 8 == 0;
   int n = 0;
   if (sized)
      n = (int)(t[0] / 8);
   else
      while (n < 12 && is_code(t[n]))
         n++;
   line l;
   begin(&l, "TABLE");
   add(&l, "%s ", guid_name(g));
   add_guid(&l, g);
   add(&l, " at %p (driver+%#llx) %s entries=%d", (const void *)t, (unsigned long long)((u64)t - real_base),
       sized ? "sized" : "unsized", n);
   for (int i = 0; i < n + 2; i++)
      add(&l, " [%d]=%#llx%s", i, (unsigned long long)t[i],
          is_code(t[i]) ? "(code)" : i >= n ? "(past end)" : t[i] ? "(data)" : "");
   emit(&l);
   bool integrity = !memcmp(g, guid_of("INTEGRITY_CHECK"), 16);
   bool patch = !integrity || getenv("DRVTRACE_PATCH_INTEGRITY");
   for (int i = sized ? 1 : 0; i < n && patch; i++) {
      if (!is_code(t[i]) || ndarks >= DT_NDARK)
         continue;
      u64 page = (u64)&t[i] & ~(u64)4095;
      if (mprotect((void *)page, 4096, prot_of(page) | PROT_WRITE) != 0) {
         begin(&l, "TABLE");
         add(&l, "cannot patch slot %d: %s", i, strerror(errno));
         emit(&l);
         continue;
      }
      darks[ndarks].table = ti;
      darks[ndarks].slot = i;
      darks[ndarks].real = (void *)t[i];
      ((u64 *)t)[i] = (u64)dtramps[ndarks];
      ndarks++;
   }
   pthread_mutex_unlock(&lock);
   if (integrity && getenv("DRVTRACE_CAPTURE") && n >= 2)
      integrity_capture(t);
}

int cuGetExportTable(const void **pp, const void *id)
{
   int r = real_get_export ? real_get_export(pp, id) : 500;
   line l;
   begin(&l, "EXPORT");
   if (id) {
      add_guid(&l, id);
      add(&l, " %s", guid_name(id));
   } else {
      add(&l, "(null id)");
   }
   add(&l, " -> %d table=%p", r, pp ? *pp : NULL);
   emit(&l);
   if (r == 0 && pp && *pp && id)
      describe_and_patch(*pp, id);
   return r;
}

__attribute__((destructor)) static void fini(void)
{
   line l;
   for (int i = 0; i < nprocs; i++) {
      if (!procs[i].calls)
         continue;
      begin(&l, "COUNT");
      add(&l, "%s %llu", procs[i].name, (unsigned long long)procs[i].calls);
      emit(&l);
   }
}
