/*
 * test_api_batch.c — the codes and the last error of the entry points of
 * issue 18 where tests/cuda cannot reach them (the driver's failIdx forms,
 * registration calls, export tables, batches in a capture) or where the expectation is
 * metalcuda's own (refusals), through lib/libcudart.so.13 and the
 * libcuda.so.1 it loads, in a forked child (a crash is a failure, not the
 * end of the binary; the child reports through a pipe).
 *
 * Expectations: CUDA 13's documentation of each call (cuda.h,
 * cuda_runtime_api.h) where it says; NVIDIA's behaviour as observed where
 * noted; metalcuda's refusals (cudaErrorNotSupported, 801) as
 * src/api/driver/device.c documents them.  tests/cuda/batch_copies.cu and
 * device_odds.cu check the rest on whole programs.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "harness.h"
#include "test_child_util.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { OK = 0, INVALID_VALUE = 1, NOT_SUPPORTED = 801 };

/* the layouts of CUDA 13's headers */
typedef struct { int type, id; } loc_t;
typedef struct { int order; loc_t src, dst; unsigned flags; } attrs_t;

typedef int (*rt0_fn)(void);
typedef int (*free_fn)(void *);
typedef int (*malloc_fn)(void **, size_t);
typedef int (*stream_fn)(void **);
typedef int (*rt_batch_fn)(void *const *, const void *const *, const size_t *, size_t, attrs_t *, size_t *, size_t,
                           void *);
typedef int (*cu_batch_fn)(uint64_t *, uint64_t *, size_t *, size_t, attrs_t *, size_t *, size_t, size_t *, void *);
typedef int (*flush_fn)(int, int);
typedef int (*nvsci_fn)(void *, int, int);
typedef void *(*procaddr_fn)(void);
typedef int (*export_fn)(const void **, const void *);
typedef int (*discard_fn)(void **, size_t *, size_t, unsigned long long, void *);
typedef void (*hostvar_fn)(void **, const char *, char *, size_t);
typedef int (*begin_fn)(void *, int);
typedef int (*end_fn)(void *, void **);
typedef int (*nodes_fn)(void *, void **, size_t *);
typedef int (*inst_fn)(void **, void *, unsigned long long);
typedef int (*launch_fn)(void *, void *);
typedef int (*memcpy_fn)(void *, const void *, size_t, int);

static const uint8_t G_CUDART[16] = { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
                                      0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 };
static const uint8_t G_UNKNOWN[16] = { 0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a,
                                       0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86 };

/* every body runs in a child with lib/libcudart.so.13 loaded fresh */
static void in_child(void (*body)(void)) { in_child_with("libcudart.so.13", true, body); }

static void body_copy_batches(void)
{
   rt0_fn last = (rt0_fn)sym("cudaGetLastError");
   malloc_fn mall = (malloc_fn)sym("cudaMalloc");
   stream_fn mk = (stream_fn)sym("cudaStreamCreate");
   rt_batch_fn rt = (rt_batch_fn)sym("cudaMemcpyBatchAsync");
   cu_batch_fn cu = (cu_batch_fn)sym("cuMemcpyBatchAsync");
   discard_fn discard = (discard_fn)sym("cudaMemDiscardBatchAsync");
   if (!last || !mall || !mk || !rt || !cu || !discard)
      return;
   void *d = NULL, *s = NULL;
   EXPECT_RC(mall(&d, 256), OK);
   EXPECT_RC(mk(&s), OK);
   void *dsts[3] = { d, (char *)d + 64, (char *)d + 128 };
   const void *srcs[3] = { (char *)d + 192, (char *)d + 192, (char *)d + 192 };
   size_t sizes[3] = { 16, 16, 16 }, idx[2] = { 0, 1 };
   attrs_t at[2] = { { 1, { 0, 0 }, { 0, 0 }, 0 }, { 1, { 0, 0 }, { 0, 0 }, 0 } };
   /* the legacy NULL stream (documented: must not be) */
   EXPECT_RC(rt(dsts, srcs, sizes, 3, at, idx, 1, NULL), INVALID_VALUE);
   EXPECT_RC(last(), INVALID_VALUE);
   EXPECT_RC(last(), OK);
   EXPECT_RC(rt(dsts, srcs, sizes, 0, at, idx, 1, s), INVALID_VALUE);   /* no copies: no attribute fits */
   EXPECT_RC(rt(dsts, srcs, sizes, 3, at, idx, 2, s), OK);
   EXPECT_RC(rt(dsts, srcs, sizes, 3, at, idx, 2, (void *)2), OK);   /* cudaStreamPerThread */
   /* CUDA 12.8's driver form: failIdx names the copy at fault, SIZE_MAX
    * when no copy is */
   uint64_t cd[3] = { (uintptr_t)dsts[0], (uintptr_t)dsts[1], (uintptr_t)dsts[2] };
   uint64_t cs[3] = { (uintptr_t)srcs[0], (uintptr_t)srcs[1], (uintptr_t)srcs[2] };
   size_t fail = 7;
   EXPECT_RC(cu(cd, cs, sizes, 3, at, idx, 2, &fail, s), OK);
   at[1].order = 0;
   EXPECT_RC(cu(cd, cs, sizes, 3, at, idx, 2, &fail, s), INVALID_VALUE);
   EXPECT(fail == 1);
   at[1].order = 2;
   at[1].flags = 2;   /* only PREFER_OVERLAP_WITH_COMPUTE is a flag */
   EXPECT_RC(cu(cd, cs, sizes, 3, at, idx, 2, &fail, s), INVALID_VALUE);
   EXPECT(fail == 1);
   at[1].flags = 1;
   cd[2] = 0;
   EXPECT_RC(cu(cd, cs, sizes, 3, at, idx, 2, &fail, s), INVALID_VALUE);
   EXPECT(fail == 2);
   cd[2] = (uintptr_t)dsts[2];
   sizes[2] = 100;   /* runs off the end of the allocation */
   EXPECT_RC(cu(cd, cs, sizes, 3, at, idx, 2, &fail, s), INVALID_VALUE);
   EXPECT(fail == 2);
   sizes[2] = 16;
   EXPECT_RC(cu(cd, cs, sizes, 3, at, idx, 2, &fail, NULL), INVALID_VALUE);
   EXPECT(fail == SIZE_MAX);
   /* managed batches want managed memory */
   void *ptrs[1] = { d };
   EXPECT_RC(discard(ptrs, sizes, 1, 0, s), INVALID_VALUE);
   EXPECT_RC(discard(ptrs, sizes, 1, 0, NULL), INVALID_VALUE);
   EXPECT_RC(last(), INVALID_VALUE);
}

TEST(copy_batch_codes_and_fail_index) { in_child(body_copy_batches); }

static void body_refusals(void)
{
   rt0_fn last = (rt0_fn)sym("cudaGetLastError");
   flush_fn flush = (flush_fn)sym("cudaDeviceFlushGPUDirectRDMAWrites");
   nvsci_fn nvsci = (nvsci_fn)sym("cudaDeviceGetNvSciSyncAttributes");
   free_fn cfree = (free_fn)sym("cudaFree");
   if (!last || !flush || !nvsci || !cfree)
      return;
   EXPECT_RC(cfree(NULL), OK);
   EXPECT_RC(flush(0, 100), NOT_SUPPORTED);
   EXPECT_RC(last(), NOT_SUPPORTED);
   char list[64];
   EXPECT_RC(nvsci(list, 0, 1), NOT_SUPPORTED);
   EXPECT_RC(last(), NOT_SUPPORTED);
   EXPECT_RC(last(), OK);
}

/* Captured, a batch's copies become copy nodes that the graph replays; a
 * source read during the call cannot be captured (metalcuda's refusal:
 * the graph would read it after the call). */
static void body_capture(void)
{
   malloc_fn mall = (malloc_fn)sym("cudaMalloc");
   stream_fn mk = (stream_fn)sym("cudaStreamCreate");
   rt_batch_fn rt = (rt_batch_fn)sym("cudaMemcpyBatchAsync");
   begin_fn begin = (begin_fn)sym("cudaStreamBeginCapture");
   end_fn end = (end_fn)sym("cudaStreamEndCapture");
   nodes_fn nodes = (nodes_fn)sym("cudaGraphGetNodes");
   inst_fn inst = (inst_fn)sym("cudaGraphInstantiate");
   launch_fn launch = (launch_fn)sym("cudaGraphLaunch");
   free_fn sync = (free_fn)sym("cudaStreamSynchronize");
   memcpy_fn copy = (memcpy_fn)sym("cudaMemcpy");
   if (!mall || !mk || !rt || !begin || !end || !nodes || !inst || !launch || !sync || !copy)
      return;
   char *d = NULL;
   void *s = NULL, *g = NULL, *ge = NULL;
   EXPECT_RC(mall((void **)&d, 96), OK);
   EXPECT_RC(mk(&s), OK);
   char init[96];
   for (int i = 0; i < 96; i++)
      init[i] = (char)i;
   EXPECT_RC(copy(d, init, 96, 4), OK);
   void *dsts[2] = { d + 48, d + 64 };
   const void *srcs[2] = { d, d + 16 };
   size_t sizes[2] = { 16, 16 }, idx[1] = { 0 };
   attrs_t at = { 1, { 0, 0 }, { 0, 0 }, 0 };
   EXPECT_RC(begin(s, 0), OK);   /* cudaStreamCaptureModeGlobal */
   EXPECT_RC(rt(dsts, srcs, sizes, 2, &at, idx, 1, s), OK);
   at.order = 2;   /* DuringApiCall */
   EXPECT_RC(rt(dsts, srcs, sizes, 2, &at, idx, 1, s), NOT_SUPPORTED);
   EXPECT_RC(end(s, &g), OK);
   size_t n = 0;
   EXPECT_RC(nodes(g, NULL, &n), OK);
   EXPECT(n == 2);
   char got[96];
   EXPECT_RC(copy(got, d, 96, 4), OK);
   EXPECT(got[48] == 48 && got[64] == 64);   /* captured, not done */
   EXPECT_RC(inst(&ge, g, 0), OK);
   EXPECT_RC(launch(ge, s), OK);
   EXPECT_RC(sync(s), OK);
   EXPECT_RC(copy(got, d, 96, 4), OK);
   EXPECT(got[48] == 0 && got[63] == 15 && got[64] == 16 && got[79] == 31);
}

TEST(captured_copy_batches_become_nodes) { in_child(body_capture); }

TEST(rdma_flush_and_nvscisync_are_refused) { in_child(body_refusals); }

static void body_registration(void)
{
   procaddr_fn gpa = (procaddr_fn)sym("__cudaGetProcAddress");
   export_fn rt_export = (export_fn)sym("cudaGetExportTable");
   export_fn cu_export = (export_fn)sym("cuGetExportTable");
   hostvar_fn hostvar = (hostvar_fn)sym("__cudaRegisterHostVar");
   rt0_fn last = (rt0_fn)sym("cudaGetLastError");
   if (!gpa || !rt_export || !cu_export || !hostvar || !last)
      return;
   EXPECT(gpa() == NULL);   /* NVIDIA's Linux libcudart.so.13: return 0 */
   const void *t = (const void *)0x1234, *u = NULL;
   EXPECT_RC(rt_export(&t, G_UNKNOWN), INVALID_VALUE);
   EXPECT(t == NULL);
   EXPECT_RC(last(), INVALID_VALUE);
   EXPECT_RC(rt_export(NULL, G_CUDART), INVALID_VALUE);
   EXPECT_RC(last(), INVALID_VALUE);
   EXPECT_RC(rt_export(&t, G_CUDART), OK);
   EXPECT_RC(cu_export(&u, G_CUDART), OK);
   EXPECT(t != NULL && t == u);
   /* refused by name, returns nothing, leaves the last error alone */
   static char var[8];
   hostvar(NULL, "var", var, sizeof var);
   EXPECT_RC(last(), OK);
}

TEST(registration_odds_and_export_tables) { in_child(body_registration); }
