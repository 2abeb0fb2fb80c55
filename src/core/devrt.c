/*
 * devrt.c — dynamic parallelism: kernels that launch kernels (CUDA 12's
 * device runtime, "CDP2"; docs/dynamic-parallelism.md).
 *
 * nvcc compiles a device-side launch into calls of functions that NVIDIA's
 * cudadevrt implements over driver system calls: __cudaCDP2GetParameterBufferV2
 * (a buffer for the child's parameters), __cudaCDP2LaunchDeviceV2 (launch
 * it), __cudaCDP2StreamCreateWithFlags and __cudaCDP2StreamDestroy; device-side
 * cudaMalloc and cudaFree are __cudaCDP2Malloc and __cudaCDP2Free, here
 * the device heap's malloc and free (CUDA's also take cudaLimitMallocHeapSize's heap);
 * device-side cudaMemcpyAsync and cudaMemsetAsync are records of the
 * queue, run in order with the launches; CUDA 12's explicit launch API
 * (__cudaCDP2GetParameterBuffer, then __cudaCDP2LaunchDevice with the
 * kernel's address and configuration) fills the same records; events are
 * handles whose record and wait have nothing to do (every record runs in
 * the order it was made); cudaGetDevice is 0;
 * cudaGetLastError/PeekAtLastError/GetErrorString answer for
 * what can fail here (a full queue: every thread is told once it is full).  A
 * module that calls them gets this file's PTX unit linked in (as -rdc
 * units are linked, src/compiler/ptx/link.c): the parameter buffer is a
 * record claimed with one atomic add in a queue in device memory whose
 * address the module's global __mc_dp_queue holds, and a launch marks its
 * record launched with its stream.  The child kernel is named by its
 * address (`mov r, kernel`: the compiler's function token,
 * compiler_kernel_by_token).
 *
 * Metal cannot launch from a kernel, so the runtime does it: a launch of a
 * kernel of such a module waits for its grid, reads the queue and launches
 * every launched record on the same stream, then returns — each child the
 * same way, to CUDA's nesting depth of 24.  The children therefore run
 * after their parent and before anything the host queues after the
 * parent's launch, as CUDA orders them ("a child grid completes before its
 * parent is considered complete"); a parent cannot wait for its children
 * (cudaDeviceSynchronize in device code was removed in CUDA 12, and is
 * refused).  Order: the records in the order their buffers were claimed,
 * those launched into cudaStreamTailLaunch after all the others; launches
 * into cudaStreamFireAndForget and device-created streams are ordered like
 * the NULL stream's, one schedule CUDA allows.  The cost: such launches are
 * synchronous for the host.  One queue per module, and one such launch at
 * a time per context (the context's devrt lock).
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

LOG_CHANNEL(devrt);

/* Queue layout (CUDA address q): u32 bytes claimed, u32 capacity in bytes,
 * u32 overflowed, then from q + DEVRT_HEADER records of DEVRT_RECORD
 * bytes: u32 state (1: launched, 2: a copy, 3: a fill), u64 stream at 48; a launch:
 * u64 token at 8, grid (u32 x3) at 16, block at 28, shared bytes at 40,
 * parameters from 64 (CUDA's limit for a launch's parameters: 4 KB); a
 * copy (device-side cudaMemcpyAsync): u64 destination, source and count at
 * 8, 16 and 24; a fill (cudaMemsetAsync): the destination at 8, the byte
 * value (u32) at 16, the count at 24. */
enum {
   DEVRT_HEADER = 64,
   DEVRT_PARAMS = 64,
   DEVRT_RECORD = 64 + 4096,
   DEVRT_MAX_DEPTH = 24,      /* CUDA's nesting limit */
};
#define DEVRT_TAIL 3u         /* cudaStreamTailLaunch */

static const char devrt_ptx[] =
   ".version 6.0\n"
   ".target sm_50\n"
   ".address_size 64\n"
   "\n"
   "// metalcuda's device runtime (src/core/devrt.c)\n"
   ".visible .global .align 8 .u64 __mc_dp_queue;\n"
   "\n"
   "// a record of the queue, claimed (state 0), or 0 when there is no queue or\n"
   "// it is full (then marked overflowed, which every thread is told)\n"
   ".func (.param .b64 __mc_r) __mc_dp_claim()\n"
   "{\n"
   "\t.reg .pred %p<3>;\n"
   "\t.reg .b32 %r<4>;\n"
   "\t.reg .b64 %rd<4>;\n"
   "\tld.global.u64 %rd1, [__mc_dp_queue];\n"
   "\tsetp.eq.u64 %p1, %rd1, 0;\n"
   "\t@%p1 bra $L__none;\n"
   "\tld.global.u32 %r1, [%rd1+4];\n"
   "\tatom.global.add.u32 %r2, [%rd1], 4160;\n"
   "\tadd.u32 %r3, %r2, 4160;\n"
   "\tsetp.gt.u32 %p2, %r3, %r1;\n"
   "\t@%p2 bra $L__full;\n"
   "\tcvt.u64.u32 %rd2, %r2;\n"
   "\tadd.u64 %rd3, %rd1, %rd2;\n"
   "\tadd.u64 %rd3, %rd3, 64;\n"
   "\tst.global.u32 [%rd3], 0;\n"
   "\tst.param.b64 [__mc_r], %rd3;\n"
   "\tret;\n"
   "$L__full:\n"
   "\tst.global.u32 [%rd1+8], 1;\n"
   "$L__none:\n"
   "\tst.param.b64 [__mc_r], 0;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b64 __mc_r) __cudaCDP2GetParameterBufferV2(\n"
   "\t.param .b64 __mc_func,\n"
   "\t.param .align 4 .b8 __mc_grid[12],\n"
   "\t.param .align 4 .b8 __mc_block[12],\n"
   "\t.param .b32 __mc_smem\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<12>;\n"
   "\t.reg .b64 %rd<6>;\n"
   "\t{\n"
   "\t.param .b64 r0;\n"
   "\tcall.uni (r0), __mc_dp_claim, ();\n"
   "\tld.param.b64 %rd3, [r0];\n"
   "\t}\n"
   "\tsetp.eq.u64 %p1, %rd3, 0;\n"
   "\t@%p1 bra $L__none;\n"
   "\tld.param.u64 %rd4, [__mc_func];\n"
   "\tst.global.u64 [%rd3+8], %rd4;\n"
   "\tld.param.u32 %r4, [__mc_grid];\n"
   "\tld.param.u32 %r5, [__mc_grid+4];\n"
   "\tld.param.u32 %r6, [__mc_grid+8];\n"
   "\tst.global.u32 [%rd3+16], %r4;\n"
   "\tst.global.u32 [%rd3+20], %r5;\n"
   "\tst.global.u32 [%rd3+24], %r6;\n"
   "\tld.param.u32 %r7, [__mc_block];\n"
   "\tld.param.u32 %r8, [__mc_block+4];\n"
   "\tld.param.u32 %r9, [__mc_block+8];\n"
   "\tst.global.u32 [%rd3+28], %r7;\n"
   "\tst.global.u32 [%rd3+32], %r8;\n"
   "\tst.global.u32 [%rd3+36], %r9;\n"
   "\tld.param.u32 %r10, [__mc_smem];\n"
   "\tst.global.u32 [%rd3+40], %r10;\n"
   "\tadd.u64 %rd5, %rd3, 64;\n"
   "\tst.param.b64 [__mc_r], %rd5;\n"
   "\tret;\n"
   "$L__none:\n"
   "\tst.param.b64 [__mc_r], 0;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2LaunchDeviceV2(\n"
   "\t.param .b64 __mc_buf,\n"
   "\t.param .b64 __mc_stream\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b64 %rd<4>;\n"
   "\tld.param.u64 %rd1, [__mc_buf];\n"
   "\tsetp.eq.u64 %p1, %rd1, 0;\n"
   "\t@%p1 bra $L__bad;\n"
   "\tsub.u64 %rd2, %rd1, 64;\n"
   "\tld.param.u64 %rd3, [__mc_stream];\n"
   "\tst.global.u64 [%rd2+48], %rd3;\n"
   "\tst.global.u32 [%rd2], 1;\n"
   "\tst.param.b32 [__mc_r], 0;\n"
   "\tret;\n"
   "$L__bad:\n"
   "\tst.param.b32 [__mc_r], 1;\n"
   "\tret;\n"
   "}\n"
   "\n"
   "// device-side cudaMemcpyAsync: a record run in order with the launches\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2MemcpyAsync(\n"
   "\t.param .b64 __mc_dst,\n"
   "\t.param .b64 __mc_src,\n"
   "\t.param .b64 __mc_count,\n"
   "\t.param .b32 __mc_kind,\n"
   "\t.param .b64 __mc_stream\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b64 %rd<8>;\n"
   "\t{\n"
   "\t.param .b64 r0;\n"
   "\tcall.uni (r0), __mc_dp_claim, ();\n"
   "\tld.param.b64 %rd3, [r0];\n"
   "\t}\n"
   "\tsetp.eq.u64 %p1, %rd3, 0;\n"
   "\t@%p1 bra $L__full;\n"
   "\tld.param.u64 %rd4, [__mc_dst];\n"
   "\tst.global.u64 [%rd3+8], %rd4;\n"
   "\tld.param.u64 %rd5, [__mc_src];\n"
   "\tst.global.u64 [%rd3+16], %rd5;\n"
   "\tld.param.u64 %rd6, [__mc_count];\n"
   "\tst.global.u64 [%rd3+24], %rd6;\n"
   "\tld.param.u64 %rd7, [__mc_stream];\n"
   "\tst.global.u64 [%rd3+48], %rd7;\n"
   "\tst.global.u32 [%rd3], 2;\n"
   "\tst.param.b32 [__mc_r], 0;\n"
   "\tret;\n"
   "$L__full:\n"
   "\tst.param.b32 [__mc_r], 69;\t// cudaErrorLaunchPendingCountExceeded\n"
   "\tret;\n"
   "}\n"
   "\n"
   "// device-side cudaGetLastError/cudaPeekAtLastError: device-side calls fail\n"
   "// only when the queue is full (then every thread of the grid is told)\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2GetLastError()\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<3>;\n"
   "\t.reg .b64 %rd<2>;\n"
   "\tmov.u32 %r2, 0;\n"
   "\tld.global.u64 %rd1, [__mc_dp_queue];\n"
   "\tsetp.eq.u64 %p1, %rd1, 0;\n"
   "\t@%p1 bra $L__done;\n"
   "\tld.global.u32 %r1, [%rd1+8];\n"
   "\tsetp.ne.u32 %p1, %r1, 0;\n"
   "\tselp.b32 %r2, 69, 0, %p1;\n"
   "$L__done:\n"
   "\tst.param.b32 [__mc_r], %r2;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2PeekAtLastError()\n"
   "{\n"
   "\t.reg .b32 %r<2>;\n"
   "\t{\n"
   "\t.param .b32 r0;\n"
   "\tcall.uni (r0), __cudaCDP2GetLastError, ();\n"
   "\tld.param.b32 %r1, [r0];\n"
   "\t}\n"
   "\tst.param.b32 [__mc_r], %r1;\n"
   "\tret;\n"
   "}\n"
   "\n"
   "// the texts of the codes device-side calls give (the runtime's error.c)\n"
   ".global .align 1 .b8 __mc_dp_s0[9] = {110, 111, 32, 101, 114, 114, 111, 114, 0};\n"
   ".global .align 1 .b8 __mc_dp_s1[17] = {105, 110, 118, 97, 108, 105, 100, 32, 97, 114, 103, 117, 109, 101, 110, 116, 0};\n"
   ".global .align 1 .b8 __mc_dp_s2[14] = {111, 117, 116, 32, 111, 102, 32, 109, 101, 109, 111, 114, 121, 0};\n"
   ".global .align 1 .b8 __mc_dp_s69[80] = {108, 97, 117, 110, 99, 104, 32, 102, 97, 105, 108, 101, 100, 32, 98, 101, 99, 97, 117, 115, 101, 32, 108, 97, 117, 110, 99, 104, 32, 119, 111, 117, 108, 100, 32, 101, 120, 99, 101, 101, 100, 32, 99, 117, 100, 97, 76, 105, 109, 105, 116, 68, 101, 118, 82, 117, 110, 116, 105, 109, 101, 80, 101, 110, 100, 105, 110, 103, 76, 97, 117, 110, 99, 104, 67, 111, 117, 110, 116, 0};\n"
   ".global .align 1 .b8 __mc_dp_sx[24] = {117, 110, 114, 101, 99, 111, 103, 110, 105, 122, 101, 100, 32, 101, 114, 114, 111, 114, 32, 99, 111, 100, 101, 0};\n"
   ".visible .func (.param .b64 __mc_r) __cudaCDP2GetErrorString(\n"
   "\t.param .b32 __mc_e\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<2>;\n"
   "\t.reg .b64 %rd<2>;\n"
   "\tld.param.u32 %r1, [__mc_e];\n"
   "\tmov.u64 %rd1, __mc_dp_sx;\n"
   "\tsetp.eq.u32 %p1, %r1, 0;\n"
   "\t@%p1 mov.u64 %rd1, __mc_dp_s0;\n"
   "\tsetp.eq.u32 %p1, %r1, 1;\n"
   "\t@%p1 mov.u64 %rd1, __mc_dp_s1;\n"
   "\tsetp.eq.u32 %p1, %r1, 2;\n"
   "\t@%p1 mov.u64 %rd1, __mc_dp_s2;\n"
   "\tsetp.eq.u32 %p1, %r1, 69;\n"
   "\t@%p1 mov.u64 %rd1, __mc_dp_s69;\n"
   "\tcvta.global.u64 %rd1, %rd1;\n"
   "\tst.param.b64 [__mc_r], %rd1;\n"
   "\tret;\n"
   "}\n"
   "\n"
   "// device-side cudaMalloc/cudaFree: the device heap, as CUDA's are\n"
   ".extern .func (.param .b64 __mc_mr) malloc(.param .b64 __mc_ms);\n"
   ".extern .func free(.param .b64 __mc_fp);\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2Malloc(\n"
   "\t.param .b64 __mc_p,\n"
   "\t.param .b64 __mc_size\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<2>;\n"
   "\t.reg .b64 %rd<4>;\n"
   "\tld.param.u64 %rd1, [__mc_p];\n"
   "\tld.param.u64 %rd2, [__mc_size];\n"
   "\t{\n"
   "\t.param .b64 a0;\n"
   "\tst.param.b64 [a0], %rd2;\n"
   "\t.param .b64 r0;\n"
   "\tcall.uni (r0), malloc, (a0);\n"
   "\tld.param.b64 %rd3, [r0];\n"
   "\t}\n"
   "\tst.u64 [%rd1], %rd3;\n"
   "\tsetp.eq.u64 %p1, %rd3, 0;\n"
   "\tselp.b32 %r1, 2, 0, %p1;\n"
   "\tst.param.b32 [__mc_r], %r1;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2Free(\n"
   "\t.param .b64 __mc_p\n"
   ")\n"
   "{\n"
   "\t.reg .b64 %rd<2>;\n"
   "\tld.param.u64 %rd1, [__mc_p];\n"
   "\t{\n"
   "\t.param .b64 a0;\n"
   "\tst.param.b64 [a0], %rd1;\n"
   "\tcall.uni free, (a0);\n"
   "\t}\n"
   "\tst.param.b32 [__mc_r], 0;\n"
   "\tret;\n"
   "}\n"
   "\n"
   "// a device-created stream: its launches are ordered like the NULL stream's\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2StreamCreateWithFlags(\n"
   "\t.param .b64 __mc_ps,\n"
   "\t.param .b32 __mc_flags\n"
   ")\n"
   "{\n"
   "\t.reg .b64 %rd<3>;\n"
   "\tld.param.u64 %rd1, [__mc_ps];\n"
   "\tmov.u64 %rd2, 16;\n"
   "\tst.u64 [%rd1], %rd2;\n"
   "\tst.param.b32 [__mc_r], 0;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2StreamDestroy(\n"
   "\t.param .b64 __mc_s\n"
   ")\n"
   "{\n"
   "\tst.param.b32 [__mc_r], 0;\n"
   "\tret;\n"
   "}\n"
   "\n"
   "// CUDA 12's explicit launch API (cudaGetParameterBuffer, then\n"
   "// cudaLaunchDevice with the kernel's address and configuration): the same\n"
   "// records as the <<<>>> form's; a buffer larger than CUDA's 4 KB of\n"
   "// parameters, or more aligned than a record's 64 bytes, is NULL\n"
   ".visible .func (.param .b64 __mc_r) __cudaCDP2GetParameterBuffer(\n"
   "\t.param .b64 __mc_align,\n"
   "\t.param .b64 __mc_size\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<4>;\n"
   "\t.reg .b64 %rd<7>;\n"
   "\tld.param.u64 %rd4, [__mc_size];\n"
   "\tsetp.gt.u64 %p2, %rd4, 4096;\n"
   "\t@%p2 bra $L__none;\n"
   "\tld.param.u64 %rd6, [__mc_align];\n"
   "\tsetp.gt.u64 %p3, %rd6, 64;\n"
   "\t@%p3 bra $L__none;\n"
   "\t{\n"
   "\t.param .b64 r0;\n"
   "\tcall.uni (r0), __mc_dp_claim, ();\n"
   "\tld.param.b64 %rd3, [r0];\n"
   "\t}\n"
   "\tsetp.eq.u64 %p1, %rd3, 0;\n"
   "\t@%p1 bra $L__none;\n"
   "\tadd.u64 %rd5, %rd3, 64;\n"
   "\tst.param.b64 [__mc_r], %rd5;\n"
   "\tret;\n"
   "$L__none:\n"
   "\tst.param.b64 [__mc_r], 0;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2LaunchDevice(\n"
   "\t.param .b64 __mc_func,\n"
   "\t.param .b64 __mc_buf,\n"
   "\t.param .align 4 .b8 __mc_grid[12],\n"
   "\t.param .align 4 .b8 __mc_block[12],\n"
   "\t.param .b32 __mc_smem,\n"
   "\t.param .b64 __mc_stream\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<8>;\n"
   "\t.reg .b64 %rd<5>;\n"
   "\tld.param.u64 %rd1, [__mc_buf];\n"
   "\tsetp.eq.u64 %p1, %rd1, 0;\n"
   "\t@%p1 bra $L__bad;\n"
   "\tsub.u64 %rd2, %rd1, 64;\n"
   "\tld.param.u64 %rd3, [__mc_func];\n"
   "\tst.global.u64 [%rd2+8], %rd3;\n"
   "\tld.param.u32 %r1, [__mc_grid];\n"
   "\tld.param.u32 %r2, [__mc_grid+4];\n"
   "\tld.param.u32 %r3, [__mc_grid+8];\n"
   "\tst.global.u32 [%rd2+16], %r1;\n"
   "\tst.global.u32 [%rd2+20], %r2;\n"
   "\tst.global.u32 [%rd2+24], %r3;\n"
   "\tld.param.u32 %r4, [__mc_block];\n"
   "\tld.param.u32 %r5, [__mc_block+4];\n"
   "\tld.param.u32 %r6, [__mc_block+8];\n"
   "\tst.global.u32 [%rd2+28], %r4;\n"
   "\tst.global.u32 [%rd2+32], %r5;\n"
   "\tst.global.u32 [%rd2+36], %r6;\n"
   "\tld.param.u32 %r7, [__mc_smem];\n"
   "\tst.global.u32 [%rd2+40], %r7;\n"
   "\tld.param.u64 %rd4, [__mc_stream];\n"
   "\tst.global.u64 [%rd2+48], %rd4;\n"
   "\tst.global.u32 [%rd2], 1;\n"
   "\tst.param.b32 [__mc_r], 0;\n"
   "\tret;\n"
   "$L__bad:\n"
   "\tst.param.b32 [__mc_r], 1;\n"
   "\tret;\n"
   "}\n"
   "\n"
   "// device-side cudaMemsetAsync: a record (state 3) run in order with the\n"
   "// launches: destination at 8, the byte value at 16, the count at 24\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2MemsetAsync(\n"
   "\t.param .b64 __mc_dst,\n"
   "\t.param .b32 __mc_value,\n"
   "\t.param .b64 __mc_count,\n"
   "\t.param .b64 __mc_stream\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<2>;\n"
   "\t.reg .b64 %rd<8>;\n"
   "\t{\n"
   "\t.param .b64 r0;\n"
   "\tcall.uni (r0), __mc_dp_claim, ();\n"
   "\tld.param.b64 %rd3, [r0];\n"
   "\t}\n"
   "\tsetp.eq.u64 %p1, %rd3, 0;\n"
   "\t@%p1 bra $L__full;\n"
   "\tld.param.u64 %rd4, [__mc_dst];\n"
   "\tst.global.u64 [%rd3+8], %rd4;\n"
   "\tld.param.u32 %r1, [__mc_value];\n"
   "\tst.global.u32 [%rd3+16], %r1;\n"
   "\tld.param.u64 %rd6, [__mc_count];\n"
   "\tst.global.u64 [%rd3+24], %rd6;\n"
   "\tld.param.u64 %rd7, [__mc_stream];\n"
   "\tst.global.u64 [%rd3+48], %rd7;\n"
   "\tst.global.u32 [%rd3], 3;\n"
   "\tst.param.b32 [__mc_r], 0;\n"
   "\tret;\n"
   "$L__full:\n"
   "\tst.param.b32 [__mc_r], 69;\t// cudaErrorLaunchPendingCountExceeded\n"
   "\tret;\n"
   "}\n"
   "\n"
   "// device-side events: every record of a grid runs after it, one after\n"
   "// the other in the order they were made, so a recorded event is complete\n"
   "// before anything made after it starts and cudaStreamWaitEvent has nothing\n"
   "// to wait for; an event is a handle that is not NULL\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2EventCreateWithFlags(\n"
   "\t.param .b64 __mc_event,\n"
   "\t.param .b32 __mc_flags\n"
   ")\n"
   "{\n"
   "\t.reg .b64 %rd<3>;\n"
   "\tld.param.u64 %rd1, [__mc_event];\n"
   "\tmov.u64 %rd2, __mc_dp_queue;\n"
   "\tst.u64 [%rd1], %rd2;\n"
   "\tst.param.b32 [__mc_r], 0;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2EventRecord(\n"
   "\t.param .b64 __mc_event,\n"
   "\t.param .b64 __mc_stream\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<2>;\n"
   "\t.reg .b64 %rd<2>;\n"
   "\tld.param.u64 %rd1, [__mc_event];\n"
   "\tsetp.eq.u64 %p1, %rd1, 0;\n"
   "\tselp.b32 %r1, 400, 0, %p1;\n"
   "\tst.param.b32 [__mc_r], %r1;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2EventRecordWithFlags(\n"
   "\t.param .b64 __mc_event,\n"
   "\t.param .b64 __mc_stream,\n"
   "\t.param .b32 __mc_flags\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<2>;\n"
   "\t.reg .b64 %rd<2>;\n"
   "\tld.param.u64 %rd1, [__mc_event];\n"
   "\tsetp.eq.u64 %p1, %rd1, 0;\n"
   "\tselp.b32 %r1, 400, 0, %p1;\n"
   "\tst.param.b32 [__mc_r], %r1;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2StreamWaitEvent(\n"
   "\t.param .b64 __mc_stream,\n"
   "\t.param .b64 __mc_event,\n"
   "\t.param .b32 __mc_flags\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<2>;\n"
   "\t.reg .b64 %rd<2>;\n"
   "\tld.param.u64 %rd1, [__mc_event];\n"
   "\tsetp.eq.u64 %p1, %rd1, 0;\n"
   "\tselp.b32 %r1, 400, 0, %p1;\n"
   "\tst.param.b32 [__mc_r], %r1;\n"
   "\tret;\n"
   "}\n"
   "\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2EventDestroy(\n"
   "\t.param .b64 __mc_event\n"
   ")\n"
   "{\n"
   "\t.reg .pred %p<2>;\n"
   "\t.reg .b32 %r<2>;\n"
   "\t.reg .b64 %rd<2>;\n"
   "\tld.param.u64 %rd1, [__mc_event];\n"
   "\tsetp.eq.u64 %p1, %rd1, 0;\n"
   "\tselp.b32 %r1, 400, 0, %p1;\n"
   "\tst.param.b32 [__mc_r], %r1;\n"
   "\tret;\n"
   "}\n"
   "\n"
   "// the one device\n"
   ".visible .func (.param .b32 __mc_r) __cudaCDP2GetDevice(\n"
   "\t.param .b64 __mc_device\n"
   ")\n"
   "{\n"
   "\t.reg .b64 %rd<2>;\n"
   "\tld.param.u64 %rd1, [__mc_device];\n"
   "\tst.u32 [%rd1], 0;\n"
   "\tst.param.b32 [__mc_r], 0;\n"
   "\tret;\n"
   "}\n";


bool core_devrt_needed(const char *const *texts, const size_t *lens, uint32_t n)
{
   for (uint32_t u = 0; u < n; u++)
      if (texts[u] && memmem(texts[u], lens[u], "__cudaCDP2", 10))
         return true;
   return false;
}

void core_devrt_rename_nvidia(char *text, size_t len)
{
   if (!memmem(text, len, "_cuda_device_runtime_cu_", 24))
      return;
   for (char *p = text; (p = memmem(p, len - (size_t)(p - text), "__cudaCDP2", 10)) != NULL; p += 10)
      memcpy(p, "__nvdrCDP2", 10);
}

const char *core_devrt_ptx(size_t *len)
{
   *len = sizeof(devrt_ptx) - 1;
   return devrt_ptx;
}

/* The host's view of device memory at CUDA address p. */
static void *host_ptr(core_device *d, uint64_t p)
{
   size_t off;
   mtl_buffer *b = core_arena_chunk(d, p, &off);
   return b ? (uint8_t *)mtl_buffer_contents(b) + off : NULL;
}

/* The module's queue: made on its first launch, its address stored in the
 * module's __mc_dp_queue. */
static int queue_of(core_module *m, uint64_t *q)
{
   uint32_t records = m->ctx->devrt_pending;
   if (m->devrt_queue && m->devrt_records == records) {
      *q = m->devrt_queue;
      return CORE_SUCCESS;
   }
   if (m->devrt_queue) {   /* the limit changed since: no launch of ours uses it now */
      core_mem_free_internal(m->ctx->dev, m->devrt_queue);
      m->devrt_queue = 0;
   }
   uint64_t var;
   size_t size;
   int r = core_module_get_global(m, "__mc_dp_queue", &var, &size);
   if (r != CORE_SUCCESS || size != 8)
      return CORE_ERROR_INVALID_VALUE;
   r = core_mem_alloc_internal(m->ctx->dev, DEVRT_HEADER + (size_t)records * DEVRT_RECORD, &m->devrt_queue);
   if (r != CORE_SUCCESS)
      return r;
   m->devrt_records = records;
   uint64_t *v = host_ptr(m->ctx->dev, var);
   uint32_t *h = host_ptr(m->ctx->dev, m->devrt_queue);
   if (!v || !h)
      return CORE_ERROR_INVALID_VALUE;
   memset(h, 0, DEVRT_HEADER);
   h[1] = records * DEVRT_RECORD;
   *v = m->devrt_queue;
   *q = m->devrt_queue;
   return CORE_SUCCESS;
}

typedef struct devrt_launch {
   uint32_t kind;               /* 1: a launch, 2: a copy (dst, src, count), 3: a fill (dst, byte in src, count) */
   uint64_t dst, src, count;
   uint64_t token, stream;
   uint32_t grid[3], block[3], shared;
   uint8_t params[4096];
} devrt_launch;

/* The launched records of the queue, taken out of it (the queue is empty
 * again for the children): tail launches last. */
static devrt_launch *take_launches(core_module *m, uint64_t q, uint32_t *count, bool *overflowed)
{
   uint32_t *h = host_ptr(m->ctx->dev, q);
   uint32_t used = h[0] < h[1] ? h[0] : h[1], n = used / DEVRT_RECORD, k = 0;
   *overflowed = h[2] != 0;
   devrt_launch *v = n ? mc_malloc(n * sizeof(*v)) : NULL;
   for (int tail = 0; tail < 2 && (v || !n); tail++)
      for (uint32_t i = 0; i < n; i++) {
         const uint8_t *rec = (const uint8_t *)h + DEVRT_HEADER + (size_t)i * DEVRT_RECORD;
         uint32_t state;
         uint64_t stream;
         memcpy(&state, rec, 4);
         memcpy(&stream, rec + 48, 8);
         if ((state < 1 || state > 3) || (stream == DEVRT_TAIL) != (tail == 1))
            continue;
         devrt_launch *l = &v[k++];
         l->kind = state;
         l->stream = stream;
         if (state == 2 || state == 3) {   /* a copy, or a fill (its value where a copy's source is) */
            memcpy(&l->dst, rec + 8, 8);
            memcpy(&l->src, rec + 16, 8);
            memcpy(&l->count, rec + 24, 8);
            continue;
         }
         memcpy(&l->token, rec + 8, 8);
         memcpy(l->grid, rec + 16, 12);
         memcpy(l->block, rec + 28, 12);
         memcpy(&l->shared, rec + 40, 4);
         l->stream = stream;
         memcpy(l->params, rec + DEVRT_PARAMS, sizeof(l->params));
      }
   h[0] = h[2] = 0;
   *count = k;
   return v;
}

static _Thread_local int devrt_depth;

/* Launches what the grid just completed launched, each with its own
 * children, on s. */
static int launch_children(core_module *m, uint64_t q, core_stream *s)
{
   uint32_t n;
   bool overflowed;
   devrt_launch *v = take_launches(m, q, &n, &overflowed);
   if (overflowed)
      LOG_WARN("a grid made more than %u device-side launches at once (cudaLimitDevRuntimePendingLaunchCount): "
               "the launches past them failed in the kernel", m->devrt_records);
   if (n && !v)
      return CORE_ERROR_OUT_OF_MEMORY;
   int r = CORE_SUCCESS;
   for (uint32_t i = 0; i < n && r == CORE_SUCCESS; i++) {
      if (v[i].kind == 2) {   /* device-side cudaMemcpyAsync */
         r = core_memcpy_on(m->ctx, s, v[i].dst, v[i].src, (size_t)v[i].count);
         continue;
      }
      if (v[i].kind == 3) {   /* device-side cudaMemsetAsync */
         r = core_fill2d(m->ctx, s, v[i].dst, (size_t)v[i].count, (uint32_t)v[i].src & 0xffu, 1, (size_t)v[i].count, 1);
         continue;
      }
      int idx = compiler_kernel_by_token(m->cm, v[i].token);
      if (idx < 0) {
         LOG_ERR("a device-side launch names %#llx, which is no kernel of its module",
                 (unsigned long long)v[i].token);
         r = CORE_ERROR_INVALID_VALUE;
         break;
      }
      core_kernel *child = &m->kernels[idx];
      if ((r = core_kernel_prepare(child)) != CORE_SUCCESS)
         break;
      core_launch_config cfg = { .shared_bytes = v[i].shared, .stream = s, .arg_blob = v[i].params,
                                 .arg_blob_size = child->info.param_bytes };
      memcpy(cfg.grid, v[i].grid, sizeof(cfg.grid));
      memcpy(cfg.block, v[i].block, sizeof(cfg.block));
      r = core_launch(child, &cfg);
      if (r != CORE_SUCCESS)
         LOG_ERR("device-side launch of %s: error %d", child->name, r);
   }
   free(v);
   return r;
}

int core_devrt_launch(core_kernel *k, const core_launch_config *cfg, int (*launch)(core_kernel *, const core_launch_config *))
{
   core_module *m = k->module;
   core_ctx *c = m->ctx;
   if (devrt_depth >= DEVRT_MAX_DEPTH) {
      LOG_ERR("kernel %s: device-side launches nested deeper than %d", k->name, DEVRT_MAX_DEPTH);
      return CORE_ERROR_LAUNCH_FAILED;
   }
   bool outer = devrt_depth == 0;
   if (outer)
      pthread_mutex_lock(&c->devrt_lock);
   uint64_t q = 0;
   core_stream *s = cfg->stream ? cfg->stream : c->null_stream;
   int r = queue_of(m, &q);
   if (r == CORE_SUCCESS)
      r = launch(k, cfg);
   /* the grid's launches are known once it has completed */
   if (r == CORE_SUCCESS)
      r = core_stream_synchronize(s);
   if (r == CORE_SUCCESS) {
      devrt_depth++;
      r = launch_children(m, q, s);
      devrt_depth--;
   }
   if (outer)
      pthread_mutex_unlock(&c->devrt_lock);
   return r;
}
