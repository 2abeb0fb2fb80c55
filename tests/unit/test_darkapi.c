/*
 * test_darkapi.c — the export tables NVIDIA's runtime asks metalcuda's
 * libcuda for (src/api/driver/darkapi), MD2 and the integrity check.
 *
 * Expected values come from elsewhere: MD2's from RFC 1319's test suite
 * and libnettle's MD2 (when installed); the integrity digests, the size
 * words and the answers marked "observed" from NVIDIA's driver 580.159.04
 * on an H200, recorded with tools/drvtrace (darkapi/README.md).  Where
 * NVIDIA's driver crashes (NULL outputs) metalcuda must answer an error
 * instead; those expectations are ours and say so.
 *
 * The abuse tests load lib/libcuda.so.1 in a forked child each, so every
 * one starts before cuInit and a crash is a failure, not the end of the
 * binary; the child reports its failures through a pipe.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "harness.h"
#include "test_child_util.h"

#include "../../src/api/driver/darkapi/integrity_hash.c"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- MD2 ---- */

TEST(md2_rfc1319_suite)
{
   static const struct { const char *msg, *digest; } suite[] = {
      { "", "8350e5a3e24c153df2275c9f80692773" },
      { "a", "32ec01ec4a6dac72c0ab96fb34c0b5d1" },
      { "abc", "da853b0d3f88d99b30283a69e6ded6bb" },
      { "message digest", "ab4f496bfb2a530b219ff33031fe06b0" },
      { "abcdefghijklmnopqrstuvwxyz", "4e8ddff3650292ab5a4108c3aa47940b" },
      { "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "da33def2a42df13975352846c30338cd" },
      { "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
        "d5976f79d83d3a0dc9806c3c66f3efd8" },
   };
   for (size_t i = 0; i < sizeof(suite) / sizeof(suite[0]); i++) {
      uint8_t d[16];
      char hex[33];
      md2_ctx c;
      md2_init(&c);
      /* fed in two pieces, across the block boundary where there is one */
      size_t n = strlen(suite[i].msg), cut = n > 20 ? 17 : n / 2;
      md2_update(&c, suite[i].msg, cut);
      md2_update(&c, suite[i].msg + cut, n - cut);
      md2_final(&c, d);
      for (int k = 0; k < 16; k++)
         snprintf(hex + 2 * k, 3, "%02x", d[k]);
      CHECK_STR(hex, suite[i].digest);
   }
}

TEST(md2_matches_libnettle)
{
   void *h = dlopen("libnettle.so.8", RTLD_NOW | RTLD_LOCAL);
   if (!h)
      h = dlopen("libnettle.so", RTLD_NOW | RTLD_LOCAL);
   if (!h) {
      test_skip("libnettle not installed");
      return;
   }
   void (*n_init)(void *) = (void (*)(void *))dlsym(h, "nettle_md2_init");
   void (*n_update)(void *, size_t, const uint8_t *) =
      (void (*)(void *, size_t, const uint8_t *))dlsym(h, "nettle_md2_update");
   void (*n_digest)(void *, size_t, uint8_t *) = (void (*)(void *, size_t, uint8_t *))dlsym(h, "nettle_md2_digest");
   CHECK(n_init && n_update && n_digest);
   uint8_t msg[300];
   uint32_t x = 12345;
   for (size_t i = 0; i < sizeof(msg); i++) {
      x = x * 1103515245u + 12345u;
      msg[i] = (uint8_t)(x >> 23);
   }
   for (size_t n = 0; n <= sizeof(msg); n += 7) {
      _Alignas(16) uint8_t nctx[512];   /* nettle's struct md2_ctx is 84 bytes */
      uint8_t want[16], got[16];
      n_init(nctx);
      n_update(nctx, n, msg);
      n_digest(nctx, 16, want);
      md2_ctx c;
      md2_init(&c);
      md2_update(&c, msg, n);
      md2_final(&c, got);
      CHECK_MSG(!memcmp(got, want, 16), "MD2 of %zu bytes differs from libnettle's", n);
   }
   dlclose(h);
}

/* ---- the integrity check against NVIDIA's driver ---- */

/* Recorded on an H200 (driver 580.159.04, pid 547, pthread_self
 * 0x7fe7abfcf000) with tools/drvtrace: the driver's answers for these
 * versions and times, and every input (tables at 0x7fe7ab960680 and
 * 0x7fe7ab960660, check function at 0x7fe7a62bf350, one device with UUID
 * e3c81799-f8fd-1849-2aa3-67b5ba1b911e at PCI 0000:00:06). */
static const struct { uint32_t version; uint64_t time, out0, out1; } h200[] = {
   { 13000, 1700000000ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 13000, 81985529216486895ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 13001, 1700000000ull, 0x1841181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 13001, 81985529216486895ull, 0x1841181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 13002, 1700000000ull, 0x85775583be93f888ull, 0xec84cb0506c43990ull },
   { 13002, 81985529216486895ull, 0x6425b51b63413616ull, 0xc17156530d6d3374ull },
   { 13003, 1700000000ull, 0x9b65c9d9a490016dull, 0x77f440a79af863cfull },
   { 13003, 81985529216486895ull, 0x38b6a1f694fb5e0bull, 0x2e51d5048b6779eeull },
   { 13004, 1700000000ull, 0x57310622188b7cafull, 0x3d4480448b0f9bffull },
   { 13004, 81985529216486895ull, 0x30b9392683e366c6ull, 0x1483a309326770c0ull },
   { 13010, 1700000000ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 13010, 81985529216486895ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 13012, 1700000000ull, 0x15086e2ba172fd8cull, 0x1f0efc80cda4dc45ull },
   { 13012, 81985529216486895ull, 0xdab99581766bd444ull, 0xf3e695570b4894b2ull },
   { 12000, 1700000000ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 12000, 81985529216486895ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 12001, 1700000000ull, 0x1841181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 12001, 81985529216486895ull, 0x1841181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 12002, 1700000000ull, 0x91fe49e84f5317c9ull, 0xe991adc0554c7d5eull },
   { 12002, 81985529216486895ull, 0xa7f1a6576dfcef08ull, 0x43a8b750bbb75fe4ull },
   { 12090, 1700000000ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 12090, 81985529216486895ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 12091, 1700000000ull, 0x1841181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 12091, 81985529216486895ull, 0x1841181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 12092, 1700000000ull, 0x17fdbe922d8d8a54ull, 0xfbc1366a9e37576bull },
   { 12092, 81985529216486895ull, 0x65c22db4b8a2088cull, 0x69b099839cacfef8ull },
   { 11000, 1700000000ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 11000, 81985529216486895ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 11002, 1700000000ull, 0xcfcd325b4e86afc0ull, 0x84cf4e85c62a0691ull },
   { 11002, 81985529216486895ull, 0x6c513551678daceaull, 0x4dfbc9fcc9000c13ull },
   { 0, 1700000000ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
   { 0, 81985529216486895ull, 0x3341181c03cb675cull, 0x8ed383aa1f4cd1e8ull },
};

TEST(integrity_hash_reproduces_nvidia_driver)
{
   dark_device_id dev = { { 0xe3, 0xc8, 0x17, 0x99, 0xf8, 0xfd, 0x18, 0x49, 0x2a, 0xa3, 0x67, 0xb5, 0xba, 0x1b, 0x91,
                            0x1e }, 0, 0, 6 };
   for (size_t i = 0; i < sizeof(h200) / sizeof(h200[0]); i++) {
      uint64_t out[2] = { 0, 0 };
      dark_integrity_hash(h200[i].version, h200[i].time, 13000, 547, 0xabfcf000u, (const void *)0x7fe7ab960680ull,
                          (const void *)0x7fe7ab960660ull, (const void *)0x7fe7a62bf350ull, 1, &dev, out);
      CHECK_MSG(out[0] == h200[i].out0 && out[1] == h200[i].out1,
                "version %u time %" PRIu64 ": got %016" PRIx64 " %016" PRIx64 ", NVIDIA's driver %016" PRIx64
                " %016" PRIx64, h200[i].version, h200[i].time, out[0], out[1], h200[i].out0, h200[i].out1);
   }
   /* any input differing changes the digest (the PCI device number here) */
   dark_device_id other = dev;
   other.pci_device = 7;
   uint64_t a[2], b[2];
   dark_integrity_hash(13002, 1700000000, 13000, 547, 0xabfcf000u, (const void *)0x7fe7ab960680ull,
                       (const void *)0x7fe7ab960660ull, (const void *)0x7fe7a62bf350ull, 1, &dev, a);
   dark_integrity_hash(13002, 1700000000, 13000, 547, 0xabfcf000u, (const void *)0x7fe7ab960680ull,
                       (const void *)0x7fe7ab960660ull, (const void *)0x7fe7a62bf350ull, 1, &other, b);
   CHECK(a[0] != b[0] || a[1] != b[1]);
}

/* ---- the tables through lib/libcuda.so.1, each test in a child ---- */

typedef int (*get_export_fn)(const void **, const void *);
typedef int (*u_fn)(unsigned);
typedef int (*i_fn)(int);
typedef int (*pi_fn)(int *);
typedef int (*ctx_fn)(void *);
typedef int (*ctx_out_fn)(void **);
typedef int (*ctx_out_dev_fn)(void **, int);
typedef int (*state_fn)(int, unsigned *, int *);
typedef int (*uuid_fn)(uint8_t *, int);
typedef int (*attr_fn)(int *, int, int);
typedef void (*dtor_fn)(void *, void *, void *);
typedef int (*cls_put_fn)(void *, void *, void *, dtor_fn);
typedef int (*cls_del_fn)(void *, void *);
typedef int (*cls_get_fn)(void **, void *, void *);
typedef int (*cudart2_fn)(void **, int);
typedef int (*checks2_fn)(void *, uint32_t *, void **);
typedef int (*integ_fn)(uint32_t, uint64_t, uint64_t *);
typedef void (*buf_fn)(void **, size_t *);
typedef int (*slot_fn)(void);
typedef int (*log_fn)(const char *, uintptr_t, const char *);

static const uint8_t G_CUDART[16] = { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
                                      0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 };
static const uint8_t G_TOOLS_TLS[16] = { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47,
                                         0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc };
static const uint8_t G_TOOLS_RT[16] = { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74,
                                        0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 };
static const uint8_t G_CLS[16] = { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11,
                                   0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 };
static const uint8_t G_CHECKS[16] = { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43,
                                      0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e };
static const uint8_t G_INTEGRITY[16] = { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b,
                                         0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 };
static const uint8_t G_ERROR_LOG[16] = { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e,
                                         0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 };
/* ZLUDA's CTX_CREATE_BYPASS: NVIDIA's driver has it, no runtime asks */
static const uint8_t G_UNKNOWN[16] = { 0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a,
                                       0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86 };

enum {
   OK = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, INVALID_CONTEXT = 201, INVALID_HANDLE = 400,
   NOT_SUPPORTED = 801,
};

static const uintptr_t *table(const uint8_t *guid)
{
   const void *t = NULL;
   int r = ((get_export_fn)sym("cuGetExportTable"))(&t, guid);
   if (r || !t)
      child_fail(__FILE__, __LINE__, "cuGetExportTable of a known table returned %d", r);
   return t;
}

/* every body runs in a child with lib/libcuda.so.1 loaded fresh */
static void in_child(void (*body)(void)) { in_child_with("libcuda.so.1", false, body); }

static void body_lookup(void)
{
   get_export_fn get = (get_export_fn)sym("cuGetExportTable");
   const void *t = (const void *)0x1234;
   /* observed: NULL arguments are CUDA_ERROR_INVALID_VALUE, the table untouched for a NULL id */
   EXPECT_RC(get(NULL, G_CUDART), INVALID_VALUE);
   EXPECT_RC(get(&t, NULL), INVALID_VALUE);
   EXPECT(t == (const void *)0x1234);
   /* observed: an unknown GUID is CUDA_ERROR_INVALID_VALUE and NULL */
   EXPECT_RC(get(&t, G_UNKNOWN), INVALID_VALUE);
   EXPECT(t == NULL);
   EXPECT_RC(get(&t, G_UNKNOWN), INVALID_VALUE);   /* asked again: logged only once */
   /* observed: the tables are there before cuInit, with these size words */
   static const struct { const uint8_t *g; uintptr_t size; } sized[] = {
      { G_CUDART, 0x68 }, { G_TOOLS_TLS, 0x18 }, { G_TOOLS_RT, 0x38 }, { G_CHECKS, 0x78 }, { G_INTEGRITY, 0x18 },
      { G_ERROR_LOG, 0x18 },
   };
   for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++) {
      const uintptr_t *tab = table(sized[i].g);
      if (tab && tab[0] != sized[i].size)
         child_fail(__FILE__, __LINE__, "table %zu: size word %#lx, NVIDIA's is %#lx", i, (unsigned long)tab[0],
                    (unsigned long)sized[i].size);
      /* every slot within it is a function (none NULL, as NVIDIA's slot 10 of CUDART_INTERFACE is) */
      for (uintptr_t s = 1; tab && s < sized[i].size / sizeof(void *); s++)
         if (!tab[s])
            child_fail(__FILE__, __LINE__, "table %zu slot %lu is NULL", i, (unsigned long)s);
   }
   const uintptr_t *cls = table(G_CLS);
   EXPECT(cls && cls[0] && cls[1] && cls[2]);   /* three functions, no size word */
}

static void body_before_init(void)
{
   void *v = (void *)0x77;
   /* observed: NOT_INITIALIZED before cuInit */
   EXPECT_RC(((cls_get_fn)table(G_CLS)[2])(&v, NULL, (void *)0x1000), NOT_INITIALIZED);
   EXPECT_RC(((cls_put_fn)table(G_CLS)[0])(NULL, (void *)0x1000, (void *)0x2000, NULL), NOT_INITIALIZED);
   EXPECT_RC(((cls_del_fn)table(G_CLS)[1])(NULL, (void *)0x1000), NOT_INITIALIZED);
   EXPECT(v == (void *)0x77);
   void *c = (void *)0x77;
   EXPECT_RC(((cudart2_fn)table(G_CUDART)[2])(&c, 0), NOT_INITIALIZED);
   uint64_t out[2] = { 7, 7 };
   EXPECT_RC(((integ_fn)table(G_INTEGRITY)[1])(13002, 1700000000, out), NOT_INITIALIZED);
   /* observed: the tools buffers are there before cuInit, 1024 and 14 elements, zeroed */
   void *p = NULL;
   size_t n = 0;
   ((buf_fn)table(G_TOOLS_RT)[2])(&p, &n);
   EXPECT(p && n == 1024 && ((uint32_t *)p)[0] == 0 && ((uint32_t *)p)[1023] == 0);
   ((buf_fn)table(G_TOOLS_RT)[6])(&p, &n);
   EXPECT(p && n == 14);
   ((buf_fn)table(G_TOOLS_RT)[2])(NULL, NULL);   /* ours: NULL outputs ignored */
}

static void body_null_outputs(void)
{
   EXPECT_RC(((u_fn)sym("cuInit"))(0), OK);
   /* NVIDIA's driver answers NOT_INITIALIZED in a forked child here, or
    * crashes; ours must answer an error */
   EXPECT_RC(((cls_get_fn)table(G_CLS)[2])(NULL, NULL, (void *)0x1000), INVALID_VALUE);
   EXPECT_RC(((cudart2_fn)table(G_CUDART)[2])(NULL, 0), INVALID_VALUE);
   EXPECT_RC(((checks2_fn)table(G_CHECKS)[2])(NULL, NULL, NULL), INVALID_VALUE);   /* observed */
   uint32_t f = 0x77;
   void *o = (void *)0x77;
   EXPECT_RC(((checks2_fn)table(G_CHECKS)[2])(NULL, &f, &o), INVALID_CONTEXT);   /* none current: observed */
   EXPECT(f == 0x77);
   EXPECT_RC(((integ_fn)table(G_INTEGRITY)[1])(13002, 1700000000, NULL), INVALID_VALUE);
   void *c = (void *)0x77;
   EXPECT_RC(((cudart2_fn)table(G_CUDART)[2])(&c, 99), 101);   /* CUDA_ERROR_INVALID_DEVICE */
   EXPECT_RC(((cudart2_fn)table(G_CUDART)[2])(&c, -1), 101);
   /* slots whose use is unknown fail, they do not crash */
   EXPECT_RC(((slot_fn)table(G_CUDART)[3])(), NOT_SUPPORTED);
   EXPECT_RC(((slot_fn)table(G_CUDART)[10])(), NOT_SUPPORTED);
   EXPECT_RC(((slot_fn)table(G_TOOLS_TLS)[1])(), NOT_SUPPORTED);
   EXPECT_RC(((slot_fn)table(G_CHECKS)[14])(), NOT_SUPPORTED);
   EXPECT_RC(((slot_fn)table(G_INTEGRITY)[2])(), NOT_SUPPORTED);
   /* the runtime's error messages are taken, observed answer 0 */
   EXPECT_RC(((log_fn)table(G_ERROR_LOG)[1])("CUDA", 0, "Invalid device number %d provided"), OK);
   EXPECT_RC(((log_fn)table(G_ERROR_LOG)[1])(NULL, 0, NULL), OK);
}

static int dtor_calls;
static void *dtor_args[3];
static void dtor(void *ctx, void *key, void *value)
{
   dtor_calls++;
   dtor_args[0] = ctx;
   dtor_args[1] = key;
   dtor_args[2] = value;
}

/* What NVIDIA's runtime does at its first call and at cudaDeviceReset
 * (observed sequence), with the answers NVIDIA's driver gave. */
static void body_storage_and_reset(void)
{
   EXPECT_RC(((u_fn)sym("cuInit"))(0), OK);
   cls_put_fn put = (cls_put_fn)table(G_CLS)[0];
   cls_del_fn del = (cls_del_fn)table(G_CLS)[1];
   cls_get_fn get = (cls_get_fn)table(G_CLS)[2];
   void *key = (void *)0x1000, *v = (void *)0x77;
   EXPECT_RC(get(&v, NULL, key), INVALID_CONTEXT);   /* no current context */
   EXPECT_RC(put(NULL, key, (void *)0x2000, dtor), INVALID_CONTEXT);
   void *pc = NULL, *cur = (void *)0x77, *again = NULL;
   EXPECT_RC(((cudart2_fn)table(G_CUDART)[2])(&pc, 0), OK);
   EXPECT(pc != NULL);
   unsigned flags = 0;
   int active = -1;
   EXPECT_RC(((state_fn)sym("cuDevicePrimaryCtxGetState"))(0, &flags, &active), OK);
   EXPECT(active == 0);   /* the handle is not retained */
   EXPECT_RC(((ctx_fn)sym("cuCtxSetCurrent"))(pc), OK);
   EXPECT_RC(get(&v, NULL, key), INVALID_CONTEXT);   /* current, not retained: observed (the runtime's cue) */
   EXPECT_RC(((ctx_out_dev_fn)sym("cuDevicePrimaryCtxRetain"))(&again, 0), OK);
   EXPECT(again == pc);
   EXPECT_RC(get(&v, NULL, key), INVALID_HANDLE);   /* not there yet */
   uint32_t f = 0x77;
   void *o = (void *)0x77;
   EXPECT_RC(((checks2_fn)table(G_CHECKS)[2])(pc, &f, &o), OK);
   EXPECT(f == 0 && o == (void *)0x77);
   EXPECT_RC(put(NULL, key, (void *)0x2000, dtor), OK);
   EXPECT_RC(get(&v, NULL, key), OK);
   EXPECT(v == (void *)0x2000);
   EXPECT_RC(put(pc, key, (void *)0x3000, dtor), INVALID_HANDLE);   /* observed: already there, kept */
   EXPECT_RC(get(&v, pc, key), OK);
   EXPECT(v == (void *)0x2000);
   EXPECT_RC(put(pc, (void *)0x1002, (void *)0x3000, dtor), OK);
   EXPECT_RC(put(pc, (void *)0x1001, (void *)0x4000, NULL), OK);   /* no destructor */
   EXPECT_RC(del(pc, (void *)0x1001), OK);
   EXPECT_RC(del(pc, (void *)0x1001), INVALID_HANDLE);
   EXPECT_RC(get(&v, pc, (void *)0x1001), INVALID_HANDLE);
   EXPECT(dtor_calls == 0);   /* deleting calls no destructor (observed) */
   uint64_t not_a_context[8] = { 0 };   /* readable memory without a context's cookie */
   EXPECT_RC(get(&v, not_a_context, key), INVALID_CONTEXT);
   EXPECT_RC(put(not_a_context, key, (void *)0x2000, dtor), INVALID_CONTEXT);

   /* cudaDeviceReset (observed): the destructors run as (context, key,
    * value), newest first; the handle stays current, answers
    * INVALID_CONTEXT as the current context and INVALID_HANDLE by name,
    * until retained again, at the same address */
   EXPECT_RC(((i_fn)sym("cuDevicePrimaryCtxReset_v2"))(0), OK);
   EXPECT(dtor_calls == 2);
   EXPECT(dtor_args[0] == pc && dtor_args[1] == key && dtor_args[2] == (void *)0x2000);
   EXPECT_RC(((ctx_out_fn)sym("cuCtxGetCurrent"))(&cur), OK);
   EXPECT(cur == pc);
   EXPECT_RC(get(&v, NULL, key), INVALID_CONTEXT);
   EXPECT_RC(get(&v, pc, key), INVALID_HANDLE);
   EXPECT_RC(put(pc, key, (void *)0x2000, dtor), INVALID_CONTEXT);   /* ours: nothing kept in a reset context */
   EXPECT_RC(((checks2_fn)table(G_CHECKS)[2])(pc, &f, &o), OK);
   EXPECT_RC(((ctx_out_dev_fn)sym("cuDevicePrimaryCtxRetain"))(&again, 0), OK);
   EXPECT(again == pc);
   EXPECT_RC(get(&v, NULL, key), INVALID_HANDLE);   /* the key went with the reset */
   EXPECT(dtor_calls == 2);
   /* the last release runs the destructors too (observed) */
   EXPECT_RC(put(NULL, key, (void *)0x5000, dtor), OK);
   EXPECT_RC(((i_fn)sym("cuDevicePrimaryCtxRelease_v2"))(0), OK);
   EXPECT(dtor_calls == 3 && dtor_args[2] == (void *)0x5000);
   EXPECT_RC(get(&v, pc, key), INVALID_HANDLE);
   /* a reset with nothing stored calls nothing */
   EXPECT_RC(((i_fn)sym("cuDevicePrimaryCtxReset_v2"))(0), OK);
   EXPECT(dtor_calls == 3);
}

/* The check's answer equals the hash of what the public API reports. */
static void body_integrity_live(void)
{
   EXPECT_RC(((u_fn)sym("cuInit"))(0), OK);
   const uintptr_t *it = table(G_INTEGRITY);
   const void *cudart = table(G_CUDART);
   integ_fn check = (integ_fn)it[1];
   uint64_t out[2];
   /* observed: versions ending in 0 and 1 */
   EXPECT_RC(check(13000, 1700000000, out), OK);
   EXPECT(out[0] == 0x3341181c03cb675cull && out[1] == 0x8ed383aa1f4cd1e8ull);
   EXPECT_RC(check(12091, 99, out), OK);
   EXPECT(out[0] == 0x1841181c03cb675cull && out[1] == 0x8ed383aa1f4cd1e8ull);
   int drv = 0, ndev = 0;
   EXPECT_RC(((pi_fn)sym("cuDriverGetVersion"))(&drv), OK);
   EXPECT_RC(((pi_fn)sym("cuDeviceGetCount"))(&ndev), OK);
   EXPECT(ndev >= 1 && ndev <= 8);
   dark_device_id ids[8];
   for (int d = 0; d < ndev && d < 8; d++) {
      EXPECT_RC(((uuid_fn)sym("cuDeviceGetUuid"))(ids[d].uuid, d), OK);
      EXPECT_RC(((attr_fn)sym("cuDeviceGetAttribute"))(&ids[d].pci_domain, 50, d), OK);
      EXPECT_RC(((attr_fn)sym("cuDeviceGetAttribute"))(&ids[d].pci_bus, 33, d), OK);
      EXPECT_RC(((attr_fn)sym("cuDeviceGetAttribute"))(&ids[d].pci_device, 34, d), OK);
   }
   uint32_t versions[] = { 13002, 12092, 11002 };
   for (size_t i = 0; i < 3; i++) {
      uint64_t want[2];
      dark_integrity_hash(versions[i], 1796165564, (uint32_t)drv, (uint32_t)getpid(),
                          (uint32_t)(uintptr_t)pthread_self(), cudart, it, (const void *)it[1], (uint32_t)ndev, ids,
                          want);
      EXPECT_RC(check(versions[i], 1796165564, out), OK);
      if (out[0] != want[0] || out[1] != want[1])
         child_fail(__FILE__, __LINE__, "version %u: the check answers %016llx %016llx, the public API's values hash "
                    "to %016llx %016llx", versions[i], (unsigned long long)out[0], (unsigned long long)out[1],
                    (unsigned long long)want[0], (unsigned long long)want[1]);
   }
}

TEST(darkapi_lookup_and_null_arguments) { in_child(body_lookup); }
TEST(darkapi_before_cuinit) { in_child(body_before_init); }
TEST(darkapi_null_outputs_and_unknown_slots) { in_child(body_null_outputs); }
TEST(darkapi_storage_across_reset) { in_child(body_storage_and_reset); }
TEST(darkapi_integrity_agrees_with_device_queries) { in_child(body_integrity_live); }
