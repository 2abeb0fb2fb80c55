/*
 * stream_memops.cu — the Driver API's stream memory operations
 * (cuStreamWaitValue32/64, cuStreamWriteValue32/64, cuStreamBatchMemOp),
 * called through libcuda.so.1 (dlopen, as drvmem.cu does) on streams of
 * the runtime's primary context:
 *
 *  - a wait holds back only its stream's later work until the value
 *    meets the condition (GEQ, cyclic for 32 bits; EQ; AND; NOR; 32- and
 *    64-bit), the value written later by a host function queued on another
 *    stream after the wait (so the thread that queued the wait was not
 *    blocked, and the other stream was not held up): a host function
 *    after the wait sees the satisfying value; a condition that holds at
 *    once does not wait;
 *  - a wait on device memory that a kernel of another stream writes;
 *  - writes are stream-ordered: a kernel after cuStreamWriteValue32/64
 *    reads the values, a write after a kernel overwrites the kernel's
 *    store, a batch of two writes and a barrier then a kernel, and a write
 *    to mapped host memory the host reads after synchronising;
 *  - a graph's batch memory-operation node (cuGraphAddBatchMemOpNode): its
 *    parameters read back, changed in the graph before instantiation and
 *    in the executable graph (cuGraphExecBatchMemOpNodeSetParams), a
 *    kernel after it reads what each launch wrote; a write captured from a
 *    stream (cudaStreamBeginCapture) runs when the graph is launched;
 *  - CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS and
 *    CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR are 1;
 *  - errors: a misaligned address, an unknown wait condition, a batch of
 *    256 operations: CUDA_ERROR_INVALID_VALUE.
 */
#include "check.h"

#include <cuda.h>
#include <dlfcn.h>
#include <unistd.h>

static void *lib;
#define FN(name, sym) decltype(&name) p_##name = (decltype(&name))dlsym(lib, sym)

static void check_cu(CUresult got, CUresult want, const char *what, int line)
{
   check_int((long long)got, (long long)want, what, __FILE__, line);
}
#define CHECK_CU(call, want) check_cu((call), (want), #call, __LINE__)

static decltype(&cuStreamWaitValue32_v2) wait32;
static decltype(&cuStreamWaitValue64_v2) wait64;

/* A host function that stores a value after a pause (stream b). */
struct late_store {
   void *addr;
   unsigned long long value;
   int bytes;
};

static void CUDART_CB store_late(void *p)
{
   late_store *s = (late_store *)p;
   usleep(30000);
   if (s->bytes == 4)
      __atomic_store_n((unsigned *)s->addr, (unsigned)s->value, __ATOMIC_RELEASE);
   else
      __atomic_store_n((unsigned long long *)s->addr, s->value, __ATOMIC_RELEASE);
}

/* A host function that notes the value it sees (stream a, after the wait). */
struct observe {
   const void *addr;
   int bytes;
   unsigned long long seen;
};

static void CUDART_CB note_value(void *p)
{
   observe *o = (observe *)p;
   o->seen = o->bytes == 4 ? __atomic_load_n((const unsigned *)o->addr, __ATOMIC_ACQUIRE)
                           : __atomic_load_n((const unsigned long long *)o->addr, __ATOMIC_ACQUIRE);
}

struct wait_case {
   int bytes;
   unsigned flags;
   unsigned long long wait_for, before, after;   /* before: does not meet it; after: does */
};

static const wait_case cases[] = {
   { 4, CU_STREAM_WAIT_VALUE_GEQ, 10, 5, 12 },
   { 4, CU_STREAM_WAIT_VALUE_GEQ, 0x10, 0xfffffff0u, 0x10 },   /* cyclic: 0xfffffff0 is "before" 0x10 */
   { 4, CU_STREAM_WAIT_VALUE_EQ, 7, 6, 7 },
   { 4, CU_STREAM_WAIT_VALUE_AND, 0x4, 0x3, 0x7 },
   { 4, CU_STREAM_WAIT_VALUE_NOR, 0xffff0000u, 0x0000ffffu, 0x0000fff0u },
   { 8, CU_STREAM_WAIT_VALUE_GEQ, 0x100000000ull, 0xffffffffull, 0x100000001ull },
   { 8, CU_STREAM_WAIT_VALUE_EQ, 0x123456789abcdef0ull, 0x0000000089abcdefull, 0x123456789abcdef0ull },
   { 8, CU_STREAM_WAIT_VALUE_AND, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x8000000000000001ull },
   { 8, CU_STREAM_WAIT_VALUE_NOR, 0xffffffff00000000ull, 0x00000000ffffffffull, 0x00000000fffffff0ull },
};

/* Each case: the wait on stream a, then a host function there, then the
 * late store on stream b, all queued from this thread. */
static void waits_on_host_writes(cudaStream_t a, cudaStream_t b, unsigned long long *slots, CUdeviceptr dslots)
{
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const wait_case &c = cases[i];
      void *addr = c.bytes == 4 ? (void *)&slots[0] : (void *)&slots[1];
      CUdeviceptr daddr = c.bytes == 4 ? dslots : dslots + 8;
      if (c.bytes == 4)
         __atomic_store_n((unsigned *)addr, (unsigned)c.before, __ATOMIC_RELEASE);
      else
         __atomic_store_n((unsigned long long *)addr, c.before, __ATOMIC_RELEASE);
      observe o = { addr, c.bytes, ~0ull };
      late_store s = { addr, c.after, c.bytes };
      if (c.bytes == 4)
         CHECK_CU(wait32((CUstream)a, daddr, (cuuint32_t)c.wait_for, c.flags), CUDA_SUCCESS);
      else
         CHECK_CU(wait64((CUstream)a, daddr, c.wait_for, c.flags), CUDA_SUCCESS);
      CHECK_CUDA(cudaLaunchHostFunc(a, note_value, &o));
      CHECK_CUDA(cudaLaunchHostFunc(b, store_late, &s));
      CHECK_CUDA(cudaStreamSynchronize(a));
      CHECK_CUDA(cudaStreamSynchronize(b));
      if (!CHECK_INT(o.seen, c.after))
         printf("  case %u (%d bytes, condition %u)\n", i, c.bytes, c.flags);
   }
   /* already met: passes without anything else happening */
   __atomic_store_n(&slots[1], 9ull, __ATOMIC_RELEASE);
   observe o = { &slots[1], 8, ~0ull };
   CHECK_CU(wait64((CUstream)a, dslots + 8, 5, CU_STREAM_WAIT_VALUE_GEQ), CUDA_SUCCESS);
   CHECK_CUDA(cudaLaunchHostFunc(a, note_value, &o));
   CHECK_CUDA(cudaStreamSynchronize(a));
   CHECK_INT(o.seen, 9);
}

__global__ void set_after_spin(volatile unsigned *flag, unsigned v)
{
   /* some work first, so that the wait is reached before the store */
   long long t0 = clock64();
   while (clock64() - t0 < 1000000)
      ;
   *flag = v;
   __threadfence_system();
}

__global__ void copy_words(const unsigned *src, unsigned *dst, int n)
{
   for (int i = 0; i < n; i++)
      dst[i] = src[i];
}

__global__ void copy_u64(const unsigned long long *src, unsigned long long *dst) { *dst = *src; }

__global__ void store_word(unsigned *p, unsigned v) { *p = v; }

static void wait_on_kernel_write(cudaStream_t a, cudaStream_t b, unsigned *dflag, unsigned *dout)
{
   CHECK_CUDA(cudaMemset(dflag, 0, 4));
   CHECK_CUDA(cudaMemset(dout, 0, 4));
   CHECK_CU(wait32((CUstream)a, (CUdeviceptr)dflag, 5, CU_STREAM_WAIT_VALUE_EQ), CUDA_SUCCESS);
   copy_words<<<1, 1, 0, a>>>(dflag, dout, 1);
   set_after_spin<<<1, 1, 0, b>>>(dflag, 5);
   CHECK_CUDA(cudaStreamSynchronize(a));
   CHECK_CUDA(cudaStreamSynchronize(b));
   unsigned got = 0;
   CHECK_CUDA(cudaMemcpy(&got, dout, 4, cudaMemcpyDeviceToHost));
   CHECK_INT(got, 5);
}

static void writes(cudaStream_t s, unsigned *d, unsigned long long *slots, CUdeviceptr dslots)
{
   FN(cuStreamWriteValue32_v2, "cuStreamWriteValue32_v2");
   FN(cuStreamWriteValue64_v2, "cuStreamWriteValue64_v2");
   FN(cuStreamBatchMemOp_v2, "cuStreamBatchMemOp_v2");
   if (!CHECK(p_cuStreamWriteValue32_v2 && p_cuStreamWriteValue64_v2 && p_cuStreamBatchMemOp_v2))
      return;
   CUstream cs = (CUstream)s;
   CUdeviceptr dd = (CUdeviceptr)d;
   /* d: [0] written, [2..3] a 64-bit value, [4] kernel then write, [5..6] batch, [8..] copies */
   CHECK_CUDA(cudaMemsetAsync(d, 0, 64 * 4, s));
   CHECK_CU(p_cuStreamWriteValue32_v2(cs, dd, 0xc0ffee01u, 0), CUDA_SUCCESS);
   CHECK_CU(p_cuStreamWriteValue64_v2(cs, dd + 8, 0x123456789abcdef0ull, 0), CUDA_SUCCESS);
   copy_words<<<1, 1, 0, s>>>(d, d + 8, 1);
   copy_u64<<<1, 1, 0, s>>>((const unsigned long long *)(d + 2), (unsigned long long *)(d + 10));
   store_word<<<1, 1, 0, s>>>(d + 4, 1);
   CHECK_CU(p_cuStreamWriteValue32_v2(cs, dd + 16, 2, 0), CUDA_SUCCESS);
   CUstreamBatchMemOpParams ops[3];
   memset(ops, 0, sizeof(ops));
   ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
   ops[0].writeValue.address = dd + 20;
   ops[0].writeValue.value = 0xa5a5a5a5u;
   ops[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
   ops[1].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
   ops[2].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
   ops[2].writeValue.address = dd + 24;
   ops[2].writeValue.value64 = 0xfedcba9876543210ull;
   CHECK_CU(p_cuStreamBatchMemOp_v2(cs, 3, ops, 0), CUDA_SUCCESS);
   copy_words<<<1, 1, 0, s>>>(d + 5, d + 12, 3);
   /* mapped host memory, read by the host */
   __atomic_store_n(&slots[2], 0ull, __ATOMIC_RELEASE);
   CHECK_CU(p_cuStreamWriteValue64_v2(cs, dslots + 16, 0x0badc0de0badf00dull, 0), CUDA_SUCCESS);
   CHECK_CUDA(cudaStreamSynchronize(s));
   unsigned h[16];
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   CHECK_INT(h[0], 0xc0ffee01u);
   CHECK_INT(h[2], 0x9abcdef0u);
   CHECK_INT(h[3], 0x12345678u);
   CHECK_INT(h[4], 2);             /* the write after the kernel's store */
   CHECK_INT(h[5], 0xa5a5a5a5u);
   CHECK_INT(h[6], 0x76543210u);
   CHECK_INT(h[7], 0xfedcba98u);
   CHECK_INT(h[8], 0xc0ffee01u);   /* read by a kernel after the write */
   CHECK_INT(h[10], 0x9abcdef0u);
   CHECK_INT(h[11], 0x12345678u);
   CHECK_INT(h[12], 0xa5a5a5a5u);  /* the batch, read by a kernel */
   CHECK_INT(h[13], 0x76543210u);
   CHECK_INT(h[14], 0xfedcba98u);
   CHECK_INT(__atomic_load_n(&slots[2], __ATOMIC_ACQUIRE), 0x0badc0de0badf00dull);
   /* errors */
   CHECK_CU(p_cuStreamWriteValue32_v2(cs, dd + 2, 1, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuStreamWriteValue64_v2(cs, dd + 4, 1, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(wait32(cs, dd + 1, 1, CU_STREAM_WAIT_VALUE_GEQ), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(wait32(cs, dd, 1, 7), CUDA_ERROR_INVALID_VALUE);
   CUstreamBatchMemOpParams many[256];
   memset(many, 0, sizeof(many));
   for (int i = 0; i < 256; i++) {
      many[i].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
      many[i].writeValue.address = dd;
   }
   CHECK_CU(p_cuStreamBatchMemOp_v2(cs, 256, many, 0), CUDA_ERROR_INVALID_VALUE);
   CHECK_CUDA(cudaStreamSynchronize(s));
}

static unsigned read_word(const unsigned *d)
{
   unsigned v = 0;
   CHECK_CUDA(cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost));
   return v;
}

static void graph_nodes(cudaStream_t s, unsigned *d)
{
   FN(cuGraphAddBatchMemOpNode, "cuGraphAddBatchMemOpNode");
   FN(cuGraphBatchMemOpNodeGetParams, "cuGraphBatchMemOpNodeGetParams");
   FN(cuGraphBatchMemOpNodeSetParams, "cuGraphBatchMemOpNodeSetParams");
   FN(cuGraphExecBatchMemOpNodeSetParams, "cuGraphExecBatchMemOpNodeSetParams");
   FN(cuStreamWriteValue32_v2, "cuStreamWriteValue32_v2");
   FN(cuCtxGetCurrent, "cuCtxGetCurrent");
   if (!CHECK(p_cuGraphAddBatchMemOpNode && p_cuGraphBatchMemOpNodeGetParams && p_cuGraphBatchMemOpNodeSetParams &&
              p_cuGraphExecBatchMemOpNodeSetParams && p_cuStreamWriteValue32_v2 && p_cuCtxGetCurrent))
      return;
   CUcontext ctx = NULL;
   CHECK_CU(p_cuCtxGetCurrent(&ctx), CUDA_SUCCESS);
   CUdeviceptr dd = (CUdeviceptr)d;
   CHECK_CUDA(cudaMemset(d, 0, 16 * 4));
   CUstreamBatchMemOpParams ops[2];
   memset(ops, 0, sizeof(ops));
   ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
   ops[0].writeValue.address = dd;
   ops[0].writeValue.value = 0x1111;
   ops[1].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
   ops[1].writeValue.address = dd + 8;
   ops[1].writeValue.value64 = 0x0000000500000006ull;
   CUDA_BATCH_MEM_OP_NODE_PARAMS np = { ctx, 2, ops, 0 };
   cudaGraph_t g;
   CHECK_CUDA(cudaGraphCreate(&g, 0));
   CUgraphNode mem = NULL;
   CHECK_CU(p_cuGraphAddBatchMemOpNode(&mem, (CUgraph)g, NULL, 0, &np), CUDA_SUCCESS);
   ops[0].writeValue.value = 0xdead;   /* the node keeps its own copy */
   CUDA_BATCH_MEM_OP_NODE_PARAMS got;
   memset(&got, 0, sizeof(got));
   CHECK_CU(p_cuGraphBatchMemOpNodeGetParams(mem, &got), CUDA_SUCCESS);
   CHECK_INT(got.count, 2);
   if (CHECK(got.paramArray != NULL)) {
      CHECK_INT(got.paramArray[0].writeValue.operation, CU_STREAM_MEM_OP_WRITE_VALUE_32);
      CHECK_INT(got.paramArray[0].writeValue.value, 0x1111);
      CHECK_INT(got.paramArray[1].writeValue.value64, 0x0000000500000006ull);
   }
   ops[0].writeValue.value = 0x2222;
   CHECK_CU(p_cuGraphBatchMemOpNodeSetParams(mem, &np), CUDA_SUCCESS);
   /* a kernel after the node reads both values */
   unsigned *src = d, *dst = d + 4;
   int n = 4;
   void *args[] = { &src, &dst, &n };
   cudaKernelNodeParams kp = {};
   kp.func = (void *)copy_words;
   kp.gridDim = dim3(1);
   kp.blockDim = dim3(1);
   kp.kernelParams = args;
   cudaGraphNode_t k, dep = (cudaGraphNode_t)mem;
   CHECK_CUDA(cudaGraphAddKernelNode(&k, g, &dep, 1, &kp));
   cudaGraphExec_t x;
   CHECK_CUDA(cudaGraphInstantiate(&x, g, 0));
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(read_word(d + 4), 0x2222);
   CHECK_INT(read_word(d + 6), 6);
   CHECK_INT(read_word(d + 7), 5);
   ops[0].writeValue.value = 0x3333;
   CHECK_CU(p_cuGraphExecBatchMemOpNodeSetParams((CUgraphExec)x, mem, &np), CUDA_SUCCESS);
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(read_word(d + 4), 0x3333);
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(g));

   /* a captured write */
   cudaGraph_t cg;
   CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
   CHECK_CU(p_cuStreamWriteValue32_v2((CUstream)s, dd + 40, 77, 0), CUDA_SUCCESS);
   copy_words<<<1, 1, 0, s>>>(d + 10, d + 11, 1);
   CHECK_CUDA(cudaStreamEndCapture(s, &cg));
   size_t nn = 0;
   CHECK_CUDA(cudaGraphGetNodes(cg, NULL, &nn));
   CHECK_INT(nn, 2);
   CHECK_CUDA(cudaGraphInstantiate(&x, cg, 0));
   CHECK_INT(read_word(d + 10), 0);   /* nothing ran during the capture */
   CHECK_CUDA(cudaGraphLaunch(x, s));
   CHECK_CUDA(cudaStreamSynchronize(s));
   CHECK_INT(read_word(d + 11), 77);
   CHECK_CUDA(cudaGraphExecDestroy(x));
   CHECK_CUDA(cudaGraphDestroy(cg));
}

int main()
{
   check_begin("stream_memops");
   lib = dlopen("libcuda.so.1", RTLD_NOW);
   if (!CHECK(lib != NULL))
      return check_end();
   REQUIRE_CUDA(cudaFree(0));   /* the primary context, current */
   FN(cuStreamWaitValue32_v2, "cuStreamWaitValue32_v2");
   FN(cuStreamWaitValue64_v2, "cuStreamWaitValue64_v2");
   FN(cuDeviceGetAttribute, "cuDeviceGetAttribute");
   if (!CHECK(p_cuStreamWaitValue32_v2 && p_cuStreamWaitValue64_v2 && p_cuDeviceGetAttribute))
      return check_end();
   wait32 = p_cuStreamWaitValue32_v2;
   wait64 = p_cuStreamWaitValue64_v2;
   int v = -1;
   CHECK_CU(p_cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, 0), CUDA_SUCCESS);
   CHECK_INT(v, 1);
   v = -1;
   CHECK_CU(p_cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, 0), CUDA_SUCCESS);
   CHECK_INT(v, 1);

   unsigned long long *slots;
   REQUIRE_CUDA(cudaHostAlloc(&slots, 4 * sizeof(*slots), cudaHostAllocMapped));
   void *dslots_p;
   REQUIRE_CUDA(cudaHostGetDevicePointer(&dslots_p, slots, 0));
   CUdeviceptr dslots = (CUdeviceptr)dslots_p;
   unsigned *d;
   REQUIRE_CUDA(cudaMalloc(&d, 64 * 4));
   cudaStream_t a, b;
   REQUIRE_CUDA(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
   REQUIRE_CUDA(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));

   waits_on_host_writes(a, b, slots, dslots);
   wait_on_kernel_write(a, b, d, d + 32);
   writes(a, d, slots, dslots);
   graph_nodes(a, d + 40);

   CHECK_CUDA(cudaStreamDestroy(a));
   CHECK_CUDA(cudaStreamDestroy(b));
   CHECK_CUDA(cudaFree(d));
   CHECK_CUDA(cudaFreeHost(slots));
   return check_end();
}
