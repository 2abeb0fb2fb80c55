/*
 * batch_copies.cu — CUDA 12.8/13's batches: cudaMemcpyBatchAsync,
 * cudaMemcpy3DBatchAsync, cudaMemPrefetchBatchAsync,
 * cudaMemDiscardBatchAsync, cudaMemDiscardAndPrefetchBatchAsync.
 *
 * What is checked comes from CUDA 13's documentation of these calls
 * (cuda_runtime_api.h) and a host byte model of each copy:
 *   - 96 copies of odd sizes (1..383 bytes) between device, pinned and
 *     pageable host memory in every direction, under three attribute runs
 *     (attrsIdxs {0, 32, 64}: stream order, any order, during the call);
 *   - the batch as a whole in stream order: after a kernel that writes its
 *     sources, before a kernel that reads its destinations (no host
 *     synchronisation between them);
 *   - cudaMemcpySrcAccessOrderDuringApiCall reads the source during the
 *     call: a stack buffer changed right after the call is copied as it
 *     was;
 *   - the per-thread default stream is accepted; the legacy NULL stream is
 *     cudaErrorInvalidValue ("must not be legacy NULL stream"; an H100 with
 *     driver 580 answers so, vLLM #46379);
 *   - attribute runs breaking the documented rules (numAttrs 0 or above
 *     count, first index not 0, indices not rising, last not below count,
 *     srcAccessOrder invalid) are cudaErrorInvalidValue and copy nothing;
 *   - 3-D batches: pitched pointer to pointer (rowLength and layerHeight in
 *     elements, 0 = packed), pointer to a CUDA array and back at offsets,
 *     array to array; zero extents, rowLength below the width, flags,
 *     arrays of different element sizes and an unknown operand type are
 *     cudaErrorInvalidValue;
 *   - managed memory: a prefetch batch sets each range's last prefetch
 *     location (two location runs), discard batches and a discard and
 *     prefetch batch succeed and the ranges hold what is written after
 *     them; device memory and flags are cudaErrorInvalidValue.
 * Built against CUDA 12.9 (tests/cuda12), the copies go through CUDA 12.8's
 * forms (with a failIdx argument, not checked: what NVIDIA writes there is
 * not known here) and the managed-memory batches,
 * which CUDA 13 added, are left out.
 */
#include "check.h"

#include <vector>

/* CUDA 13's signatures over CUDA 12.8's, which have failIdx: SIZE_MAX when
 * the failure is no copy's */
#if CUDART_VERSION >= 13000
#define BATCH(d, s, n, c, a, i, na, st) cudaMemcpyBatchAsync((d), (s), (n), (c), (a), (i), (na), (st))
#define BATCH3D(n, ops, fl, st) cudaMemcpy3DBatchAsync((n), (ops), (fl), (st))
#else
static size_t fail_idx;
#define BATCH(d, s, n, c, a, i, na, st)                                                                   \
   cudaMemcpyBatchAsync((void **)(d), (void **)(s), (size_t *)(n), (c), (a), (i), (na), &fail_idx, (st))
#define BATCH3D(n, ops, fl, st) cudaMemcpy3DBatchAsync((n), (ops), &fail_idx, (fl), (st))
#endif

/* REQUIRE_CUDA for the helpers, which return nothing */
#define NEED(call)                      \
   do {                                 \
      if (!CHECK_CUDA(call))            \
         exit(check_end());             \
   } while (0)

__global__ void iota_kernel(unsigned char *p, int n, int seed)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] = (unsigned char)(i * 7 + seed);
}

__global__ void sum_kernel(const unsigned char *p, int n, unsigned *out)
{
   unsigned s = 0;
   for (int i = 0; i < n; i++)
      s += p[i] * (unsigned)(i + 1);
   *out = s;
}

static cudaMemcpyAttributes attr_of(cudaMemcpySrcAccessOrder o)
{
   cudaMemcpyAttributes a;
   memset(&a, 0, sizeof a);
   a.srcAccessOrder = o;
   return a;
}

static void copies_1d(cudaStream_t s)
{
   const int N = 96;
   const size_t cap = 384;
   unsigned char *dev, *pinned, *pageable = (unsigned char *)malloc(4 * N * cap);
   NEED(cudaMalloc(&dev, 4 * N * cap));
   NEED(cudaMallocHost(&pinned, 4 * N * cap));
   std::vector<unsigned char> model(4 * N * cap), dev_init(4 * N * cap);
   for (size_t i = 0; i < 4 * N * cap; i++) {
      dev_init[i] = (unsigned char)mix32((uint32_t)i);
      pinned[i] = (unsigned char)mix32((uint32_t)i + 1000000u);
      pageable[i] = (unsigned char)mix32((uint32_t)i + 2000000u);
   }
   NEED(cudaMemcpy(dev, dev_init.data(), 4 * N * cap, cudaMemcpyHostToDevice));
   /* region r of each memory: [r*N*cap, (r+1)*N*cap); copy i reads region 0
    * slot i of one memory and writes region 1..3 slot i of another */
   void *dsts[N];
   const void *srcs[N];
   size_t sizes[N];
   unsigned char *mem[3] = { dev, pinned, pageable };
   std::vector<unsigned char> ref_dev(dev_init), ref_pin(pinned, pinned + 4 * N * cap),
      ref_page(pageable, pageable + 4 * N * cap);
   std::vector<unsigned char> *ref[3] = { &ref_dev, &ref_pin, &ref_page };
   for (int i = 0; i < N; i++) {
      int from = i % 3, to = (i / 3) % 3;
      size_t off = (size_t)i * cap, n = 1 + (size_t)(mix32(i) % (cap - 1));
      srcs[i] = mem[from] + off + (i & 3);
      dsts[i] = mem[to] + (size_t)(1 + to) * N * cap + off + ((i >> 2) & 3);
      sizes[i] = n;
      memcpy(ref[to]->data() + (size_t)(1 + to) * N * cap + off + ((i >> 2) & 3),
             ref[from]->data() + off + (i & 3), n);
   }
   cudaMemcpyAttributes attrs[3] = { attr_of(cudaMemcpySrcAccessOrderStream), attr_of(cudaMemcpySrcAccessOrderAny),
                                     attr_of(cudaMemcpySrcAccessOrderDuringApiCall) };
   size_t idx[3] = { 0, 32, 64 };
   CHECK_CUDA(BATCH(dsts, srcs, sizes, N, attrs, idx, 3, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   std::vector<unsigned char> got(4 * N * cap);
   NEED(cudaMemcpy(got.data(), dev, 4 * N * cap, cudaMemcpyDeviceToHost));
   CHECK(memcmp(got.data(), ref_dev.data(), got.size()) == 0);
   CHECK(memcmp(pinned, ref_pin.data(), got.size()) == 0);
   CHECK(memcmp(pageable, ref_page.data(), got.size()) == 0);
   cudaFree(dev);
   cudaFreeHost(pinned);
   free(pageable);
}

/* The batch after a kernel that writes its sources, before one that reads
 * its destinations, nothing synchronised between. */
static void stream_order(cudaStream_t s)
{
   const int N = 40, n = 1000;
   unsigned char *a, *b;
   unsigned *sum;
   NEED(cudaMalloc(&a, N * n));
   NEED(cudaMalloc(&b, N * n));
   NEED(cudaMallocHost(&sum, sizeof(unsigned)));
   *sum = SENTINEL32;
   NEED(cudaMemset(b, 0, N * n));
   NEED(cudaDeviceSynchronize());
   void *dsts[N];
   const void *srcs[N];
   size_t sizes[N];
   for (int i = 0; i < N; i++) {   /* reverse the chunks */
      srcs[i] = a + i * n;
      dsts[i] = b + (N - 1 - i) * n;
      sizes[i] = n;
   }
   cudaMemcpyAttributes at = attr_of(cudaMemcpySrcAccessOrderStream);
   size_t zero = 0;
   iota_kernel<<<(N * n + 255) / 256, 256, 0, s>>>(a, N * n, 5);
   CHECK_CUDA(BATCH(dsts, srcs, sizes, N, &at, &zero, 1, s));
   sum_kernel<<<1, 1, 0, s>>>(b, N * n, sum);
   CHECK_CUDA(cudaStreamSynchronize(s));
   unsigned want = 0;
   for (int i = 0; i < N; i++)
      for (int j = 0; j < n; j++) {
         int src = (N - 1 - i) * n + j;   /* b[i*n + j] = a[(N-1-i)*n + j] */
         want += (unsigned char)(src * 7 + 5) * (unsigned)(i * n + j + 1);
      }
   CHECK_INT(*sum, want);
   cudaFree(a);
   cudaFree(b);
   cudaFreeHost(sum);
}

/* DuringApiCall: the source is read before the call returns. */
static void during_call(cudaStream_t s)
{
   unsigned char stack[64];
   unsigned char *d;
   NEED(cudaMalloc(&d, 64));
   for (int i = 0; i < 64; i++)
      stack[i] = (unsigned char)(i + 100);
   void *dst = d;
   const void *src = stack;
   size_t size = 64, zero = 0;
   cudaMemcpyAttributes at = attr_of(cudaMemcpySrcAccessOrderDuringApiCall);
   CHECK_CUDA(BATCH(&dst, &src, &size, 1, &at, &zero, 1, s));
   memset(stack, 0xee, sizeof stack);
   CHECK_CUDA(cudaStreamSynchronize(s));
   unsigned char got[64];
   NEED(cudaMemcpy(got, d, 64, cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int i = 0; i < 64; i++)
      bad += got[i] != (unsigned char)(i + 100);
   CHECK_INT(bad, 0);
   cudaFree(d);
}

static void streams_and_errors(cudaStream_t s)
{
   const int N = 4;
   unsigned char *d;
   NEED(cudaMalloc(&d, 2 * N * 16));
   NEED(cudaMemset(d, 0x11, N * 16));
   NEED(cudaMemset(d + N * 16, 0x22, N * 16));
   void *dsts[N];
   const void *srcs[N];
   size_t sizes[N];
   for (int i = 0; i < N; i++) {
      srcs[i] = d + i * 16;
      dsts[i] = d + N * 16 + i * 16;
      sizes[i] = 16;
   }
   cudaMemcpyAttributes at[N];
   for (int i = 0; i < N; i++)
      at[i] = attr_of(cudaMemcpySrcAccessOrderStream);
   size_t idx[N] = { 0, 1, 2, 3 };
   /* the legacy NULL stream is refused; the per-thread stream is not */
   CHECK_ERR(BATCH(dsts, srcs, sizes, N, at, idx, 1, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaGetLastError(), cudaErrorInvalidValue);
   CHECK_ERR(BATCH(dsts, srcs, sizes, N, at, idx, 1, cudaStreamLegacy), cudaErrorInvalidValue);
   /* attribute runs against the rules */
   size_t not0[2] = { 1, 2 }, flat[2] = { 0, 0 }, down[3] = { 0, 2, 1 }, past[2] = { 0, N };
   CHECK_ERR(BATCH(dsts, srcs, sizes, N, at, idx, 0, s), cudaErrorInvalidValue);
   CHECK_ERR(BATCH(dsts, srcs, sizes, 2, at, idx, 3, s), cudaErrorInvalidValue);
   CHECK_ERR(BATCH(dsts, srcs, sizes, N, at, not0, 2, s), cudaErrorInvalidValue);
   CHECK_ERR(BATCH(dsts, srcs, sizes, N, at, flat, 2, s), cudaErrorInvalidValue);
   CHECK_ERR(BATCH(dsts, srcs, sizes, N, at, down, 3, s), cudaErrorInvalidValue);
   CHECK_ERR(BATCH(dsts, srcs, sizes, N, at, past, 2, s), cudaErrorInvalidValue);
   cudaMemcpyAttributes bad = attr_of(cudaMemcpySrcAccessOrderInvalid);
   size_t zero = 0;
   CHECK_ERR(BATCH(dsts, srcs, sizes, N, &bad, &zero, 1, s), cudaErrorInvalidValue);
   cudaGetLastError();
   NEED(cudaStreamSynchronize(s));
   unsigned char got[N * 16];
   NEED(cudaMemcpy(got, d + N * 16, N * 16, cudaMemcpyDeviceToHost));
   int untouched = 0;
   for (int i = 0; i < N * 16; i++)
      untouched += got[i] == 0x22;
   CHECK_INT(untouched, N * 16);   /* the refused batches copied nothing */
   /* four runs of one copy each, on the per-thread stream */
   CHECK_CUDA(BATCH(dsts, srcs, sizes, N, at, idx, N, cudaStreamPerThread));
   CHECK_CUDA(cudaStreamSynchronize(cudaStreamPerThread));
   NEED(cudaMemcpy(got, d + N * 16, N * 16, cudaMemcpyDeviceToHost));
   int copied = 0;
   for (int i = 0; i < N * 16; i++)
      copied += got[i] == 0x11;
   CHECK_INT(copied, N * 16);
   cudaFree(d);
}

static cudaMemcpy3DOperand ptr_op(void *p, size_t row, size_t layer)
{
   cudaMemcpy3DOperand o;
   memset(&o, 0, sizeof o);
   o.type = cudaMemcpyOperandTypePointer;
   o.op.ptr.ptr = p;
   o.op.ptr.rowLength = row;
   o.op.ptr.layerHeight = layer;
   return o;
}

static cudaMemcpy3DOperand array_op(cudaArray_t a, size_t x, size_t y, size_t z)
{
   cudaMemcpy3DOperand o;
   memset(&o, 0, sizeof o);
   o.type = cudaMemcpyOperandTypeArray;
   o.op.array.array = a;
   o.op.array.offset.x = x;
   o.op.array.offset.y = y;
   o.op.array.offset.z = z;
   return o;
}

static cudaMemcpy3DBatchOp op3(cudaMemcpy3DOperand src, cudaMemcpy3DOperand dst, size_t w, size_t h, size_t d)
{
   cudaMemcpy3DBatchOp op;
   memset(&op, 0, sizeof op);
   op.src = src;
   op.dst = dst;
   op.extent = make_cudaExtent(w, h, d);
   op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
   return op;
}

static void copies_3d(cudaStream_t s)
{
   /* pointer to pointer: a 5x3x2 box from a 9-wide, 4-high host volume to
    * a 7-wide, 3-high (layerHeight) device volume at an offset */
   const int SW = 9, SH = 4, SD = 3, DW = 7, DH = 3, DD = 2;
   unsigned char src[SW * SH * SD], *dev;
   for (int i = 0; i < SW * SH * SD; i++)
      src[i] = (unsigned char)(i + 1);
   NEED(cudaMalloc(&dev, DW * DH * DD));
   NEED(cudaMemset(dev, 0, DW * DH * DD));
   cudaMemcpy3DBatchOp ops[4];
   ops[0] = op3(ptr_op(src + 1 + SW * 1, SW, SH), ptr_op(dev + 2, DW, DH), 5, 2, 2);
   /* packed (0, 0): the whole 3x1x1 row into the last layer's last row */
   ops[1] = op3(ptr_op(src, 0, 0), ptr_op(dev + DW * DH + DW * 2 + 4, 0, 0), 3, 1, 1);
   CHECK_CUDA(BATCH3D(2, ops, 0, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   unsigned char got[DW * DH * DD], want[DW * DH * DD];
   memset(want, 0, sizeof want);
   for (int z = 0; z < 2; z++)
      for (int y = 0; y < 2; y++)
         for (int x = 0; x < 5; x++)
            want[z * DW * DH + y * DW + 2 + x] = src[z * SW * SH + (y + 1) * SW + 1 + x];
   for (int x = 0; x < 3; x++)
      want[DW * DH + DW * 2 + 4 + x] = src[x];
   NEED(cudaMemcpy(got, dev, sizeof got, cudaMemcpyDeviceToHost));
   CHECK(memcmp(got, want, sizeof got) == 0);

   /* arrays of int: host -> array at (1, 2, 1), array -> array, array -> device */
   const int AX = 6, AY = 5, AZ = 3;
   cudaChannelFormatDesc fd = cudaCreateChannelDesc<int>();
   cudaArray_t a1, a2;
   NEED(cudaMalloc3DArray(&a1, &fd, make_cudaExtent(AX, AY, AZ)));
   NEED(cudaMalloc3DArray(&a2, &fd, make_cudaExtent(AX, AY, AZ)));
   int host[4 * 3 * 2], back[4 * 3 * 2], *dint;
   for (int i = 0; i < 24; i++)
      host[i] = 1000 + i * 13;
   NEED(cudaMalloc(&dint, sizeof back));
   ops[0] = op3(ptr_op(host, 0, 0), array_op(a1, 1, 2, 1), 4, 3, 2);
   CHECK_CUDA(BATCH3D(1, ops, 0, s));
   ops[0] = op3(array_op(a1, 1, 2, 1), array_op(a2, 2, 0, 0), 4, 3, 2);
   CHECK_CUDA(BATCH3D(1, ops, 0, s));
   ops[0] = op3(array_op(a2, 2, 0, 0), ptr_op(dint, 4, 3), 4, 3, 2);
   CHECK_CUDA(BATCH3D(1, ops, 0, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   NEED(cudaMemcpy(back, dint, sizeof back, cudaMemcpyDeviceToHost));
   CHECK_ARRAY_I32("array round trip", back, host, 24);

   /* errors */
   unsigned char hb[64];
   ops[0] = op3(ptr_op(hb, 0, 0), ptr_op(dev, 0, 0), 0, 1, 1);
   CHECK_ERR(BATCH3D(1, ops, 0, s), cudaErrorInvalidValue);   /* zero width */
   ops[0] = op3(ptr_op(hb, 0, 0), ptr_op(dev, 0, 0), 4, 1, 0);
   CHECK_ERR(BATCH3D(1, ops, 0, s), cudaErrorInvalidValue);   /* zero depth */
   ops[0] = op3(ptr_op(hb, 3, 0), ptr_op(dev, 0, 0), 4, 2, 1);
   CHECK_ERR(BATCH3D(1, ops, 0, s), cudaErrorInvalidValue);   /* rowLength < width */
   ops[0] = op3(ptr_op(hb, 0, 0), ptr_op(dev, 0, 0), 4, 1, 1);
   CHECK_ERR(BATCH3D(1, ops, 1, s), cudaErrorInvalidValue);   /* flags */
   CHECK_ERR(BATCH3D(1, ops, 0, 0), cudaErrorInvalidValue);   /* legacy stream */
   ops[0].srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
   CHECK_ERR(BATCH3D(1, ops, 0, s), cudaErrorInvalidValue);
   cudaChannelFormatDesc fd2 = cudaCreateChannelDesc<short>();
   cudaArray_t a3;
   NEED(cudaMalloc3DArray(&a3, &fd2, make_cudaExtent(AX, AY, AZ)));
   ops[0] = op3(array_op(a1, 0, 0, 0), array_op(a3, 0, 0, 0), 2, 2, 1);
   CHECK_ERR(BATCH3D(1, ops, 0, s), cudaErrorInvalidValue);   /* element sizes differ */
   cudaGetLastError();
   CHECK_CUDA(cudaStreamSynchronize(s));
   cudaFreeArray(a1);
   cudaFreeArray(a2);
   cudaFreeArray(a3);
   cudaFree(dint);
   cudaFree(dev);
}

#if CUDART_VERSION >= 13000
static int last_prefetch(void *p, size_t n)
{
   int v = 12345;
   CHECK_CUDA(cudaMemRangeGetAttribute(&v, sizeof v, cudaMemRangeAttributeLastPrefetchLocation, p, n));
   return v;
}

static void managed_batches(cudaStream_t s)
{
   int cma = 0;
   NEED(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, 0));
   if (!CHECK(cma == 1))
      return;
   const size_t n = 1 << 16;
   unsigned char *m, *dev;
   NEED(cudaMallocManaged(&m, 4 * n));
   NEED(cudaMalloc(&dev, n));
   void *ptrs[4] = { m, m + n, m + 2 * n, m + 3 * n };
   size_t sizes[4] = { n, n, n, n };
   cudaMemLocation locs[2];
   memset(locs, 0, sizeof locs);
   locs[0].type = cudaMemLocationTypeDevice;
   locs[0].id = 0;
   locs[1].type = cudaMemLocationTypeHost;
   size_t idx[2] = { 0, 2 };
   CHECK_CUDA(cudaMemPrefetchBatchAsync(ptrs, sizes, 4, locs, idx, 2, 0, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(last_prefetch(m, n), 0);
   CHECK_INT(last_prefetch(m + n, n), 0);
   CHECK_INT(last_prefetch(m + 2 * n, n), cudaCpuDeviceId);
   CHECK_INT(last_prefetch(m + 3 * n, n), cudaCpuDeviceId);

   /* discards, then writes: the ranges hold what is written after them */
   CHECK_CUDA(cudaMemDiscardBatchAsync(ptrs, sizes, 2, 0, s));
   iota_kernel<<<(int)(2 * n + 255) / 256, 256, 0, s>>>(m, (int)(2 * n), 9);
   CHECK_CUDA(cudaMemDiscardAndPrefetchBatchAsync(ptrs + 2, sizes + 2, 2, locs, idx, 1, 0, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(last_prefetch(m + 2 * n, n), 0);
   for (size_t i = 2 * n; i < 4 * n; i++)
      m[i] = (unsigned char)(i * 3);
   int bad = 0;
   for (size_t i = 0; i < 4 * n; i++)
      bad += m[i] != (unsigned char)(i < 2 * n ? i * 7 + 9 : i * 3);
   CHECK_INT(bad, 0);

   /* errors: device memory, flags, the legacy stream, location runs */
   void *dp = dev;
   CHECK_ERR(cudaMemPrefetchBatchAsync(&dp, sizes, 1, locs, idx, 1, 0, s), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemDiscardBatchAsync(&dp, sizes, 1, 0, s), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemPrefetchBatchAsync(ptrs, sizes, 1, locs, idx, 1, 1, s), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemDiscardBatchAsync(ptrs, sizes, 1, 1, s), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemPrefetchBatchAsync(ptrs, sizes, 1, locs, idx, 1, 0, 0), cudaErrorInvalidValue);
   CHECK_ERR(cudaMemPrefetchBatchAsync(ptrs, sizes, 2, locs, idx + 1, 1, 0, s), cudaErrorInvalidValue);
   cudaGetLastError();
   CHECK_CUDA(cudaStreamSynchronize(s));
   cudaFree(m);
   cudaFree(dev);
}
#endif

int main()
{
   check_begin("batch_copies");
   REQUIRE_CUDA(cudaFree(0));
   cudaStream_t s;
   REQUIRE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   copies_1d(s);
   stream_order(s);
   during_call(s);
   streams_and_errors(s);
   copies_3d(s);
#if CUDART_VERSION >= 13000
   managed_batches(s);
#endif
   CHECK_CUDA(cudaStreamDestroy(s));
   return check_end();
}
