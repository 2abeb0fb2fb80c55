/*
 * link_jit.cu — the driver API's JIT linker, called through libcuda.so.1
 * (dlopen, so the program needs no -lcuda), on the primary context the
 * runtime made current: two PTX units, one calling a function the other
 * defines (.extern / .visible), added with cuLinkAddData and, the second,
 * with cuLinkAddFile from a file the program writes; cuLinkComplete's image
 * loaded with cuModuleLoadData and cuModuleLoadDataEx, its kernel run
 * (the result against the host's arithmetic); a single unit linked alone;
 * the log options filled in; a second cuLinkComplete, bad arguments (no
 * image pointer, no state) refused as an H100 refuses them, whose
 * cuLinkComplete takes no size pointer.
 */
#include "drv_check.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void *lib;
#define FN(name, sym) decltype(&name) p_##name = (decltype(&name))dlsym(lib, sym)

/* unit A: scale3(x) = 3x + 1 */
static const char unit_a[] = ".version 7.0\n"
                             ".target sm_50\n"
                             ".address_size 64\n"
                             ".visible .func (.param .b32 r) scale3(.param .b32 x)\n"
                             "{\n"
                             "  .reg .b32 %r<3>;\n"
                             "  ld.param.b32 %r1, [x];\n"
                             "  mad.lo.s32 %r2, %r1, 3, 1;\n"
                             "  st.param.b32 [r], %r2;\n"
                             "  ret;\n"
                             "}\n";

/* unit B: out[i] = scale3(i) + base, i < n */
static const char unit_b[] = ".version 7.0\n"
                             ".target sm_50\n"
                             ".address_size 64\n"
                             ".extern .func (.param .b32 r) scale3(.param .b32 x);\n"
                             ".visible .entry fill(.param .u64 out, .param .u32 n, .param .u32 base)\n"
                             "{\n"
                             "  .reg .pred %p;\n"
                             "  .reg .b32 %r<8>;\n"
                             "  .reg .b64 %rd<4>;\n"
                             "  mov.u32 %r1, %ctaid.x;\n"
                             "  mov.u32 %r2, %ntid.x;\n"
                             "  mov.u32 %r3, %tid.x;\n"
                             "  mad.lo.s32 %r4, %r1, %r2, %r3;\n"
                             "  ld.param.u32 %r5, [n];\n"
                             "  setp.ge.u32 %p, %r4, %r5;\n"
                             "  @%p bra done;\n"
                             "  {\n"
                             "    .param .b32 a;\n"
                             "    .param .b32 res;\n"
                             "    st.param.b32 [a], %r4;\n"
                             "    call.uni (res), scale3, (a);\n"
                             "    ld.param.b32 %r6, [res];\n"
                             "  }\n"
                             "  ld.param.u32 %r7, [base];\n"
                             "  add.s32 %r6, %r6, %r7;\n"
                             "  ld.param.u64 %rd1, [out];\n"
                             "  cvta.to.global.u64 %rd1, %rd1;\n"
                             "  mul.wide.u32 %rd2, %r4, 4;\n"
                             "  add.s64 %rd3, %rd1, %rd2;\n"
                             "  st.global.u32 [%rd3], %r6;\n"
                             "done:\n"
                             "  ret;\n"
                             "}\n";

/* a unit of its own: out[0] = 77 */
static const char unit_c[] = ".version 7.0\n"
                             ".target sm_50\n"
                             ".address_size 64\n"
                             ".visible .entry seven(.param .u64 out)\n"
                             "{\n"
                             "  .reg .b32 %r<2>;\n"
                             "  .reg .b64 %rd<2>;\n"
                             "  ld.param.u64 %rd1, [out];\n"
                             "  cvta.to.global.u64 %rd1, %rd1;\n"
                             "  mov.u32 %r1, 77;\n"
                             "  st.global.u32 [%rd1], %r1;\n"
                             "  ret;\n"
                             "}\n";

#define N 1000

int main()
{
   check_begin("link_jit");
   lib = dlopen("libcuda.so.1", RTLD_NOW);
   if (!CHECK(lib != NULL))
      return check_end();
   REQUIRE_CUDA(cudaFree(0));   /* the primary context, current */
   FN(cuLinkCreate, "cuLinkCreate_v2");
   FN(cuLinkAddData, "cuLinkAddData_v2");
   FN(cuLinkAddFile, "cuLinkAddFile_v2");
   FN(cuLinkComplete, "cuLinkComplete");
   FN(cuLinkDestroy, "cuLinkDestroy");
   FN(cuModuleLoadData, "cuModuleLoadData");
   FN(cuModuleLoadDataEx, "cuModuleLoadDataEx");
   FN(cuModuleGetFunction, "cuModuleGetFunction");
   FN(cuModuleUnload, "cuModuleUnload");
   FN(cuLaunchKernel, "cuLaunchKernel");
   if (!CHECK(p_cuLinkCreate && p_cuLinkAddData && p_cuLinkAddFile && p_cuLinkComplete && p_cuLinkDestroy &&
              p_cuModuleLoadData && p_cuModuleLoadDataEx && p_cuModuleGetFunction && p_cuModuleUnload &&
              p_cuLaunchKernel))
      return check_end();

   /* the second unit from a file */
   char path[] = "/tmp/link_jit_XXXXXX";
   int fd = mkstemp(path);
   if (!CHECK(fd >= 0))
      return check_end();
   CHECK_INT(write(fd, unit_b, strlen(unit_b)), (long long)strlen(unit_b));
   close(fd);

   char info[1024], errlog[1024];
   info[0] = errlog[0] = 'x';
   CUjit_option opt[4] = { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                           CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
   void *val[4] = { info, (void *)(uintptr_t)sizeof(info), errlog, (void *)(uintptr_t)sizeof(errlog) };
   CUlinkState st = NULL;
   CHECK_CU(p_cuLinkCreate(4, opt, val, &st), CUDA_SUCCESS);
   CHECK_CU(p_cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)unit_a, sizeof(unit_a), "a.ptx", 0, NULL, NULL),
            CUDA_SUCCESS);
   CHECK_CU(p_cuLinkAddFile(st, CU_JIT_INPUT_PTX, path, 0, NULL, NULL), CUDA_SUCCESS);
   void *cubin = NULL;
   size_t size = 0;
   CHECK_CU(p_cuLinkComplete(st, NULL, &size), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuLinkComplete(st, &cubin, &size), CUDA_SUCCESS);
   CHECK(cubin != NULL && size > 0);
   void *again = NULL;
   CHECK_CU(p_cuLinkComplete(st, &again, &size), CUDA_ERROR_INVALID_HANDLE);   /* once only */
   CHECK(errlog[0] == 0);   /* nothing went wrong */
   unlink(path);

   CUmodule m = NULL, m2 = NULL;
   CUfunction f = NULL;
   CHECK_CU(p_cuModuleLoadData(&m, cubin), CUDA_SUCCESS);
   CHECK_CU(p_cuModuleLoadDataEx(&m2, cubin, 0, NULL, NULL), CUDA_SUCCESS);
   CHECK_CU(p_cuLinkDestroy(st), CUDA_SUCCESS);   /* the modules keep what they loaded */
   CHECK_CU(p_cuModuleGetFunction(&f, m, "fill"), CUDA_SUCCESS);
   unsigned *d = NULL;
   REQUIRE_CUDA(cudaMalloc(&d, N * 4));
   unsigned n = N, base = 1000;
   void *args[] = { &d, &n, &base };
   CHECK_CU(p_cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
   CHECK_CUDA(cudaDeviceSynchronize());
   static unsigned got[N], want[N];
   CHECK_CUDA(cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost));
   for (unsigned i = 0; i < N; i++)
      want[i] = 3 * i + 1 + base;
   CHECK_ARRAY_U32("fill through the linked scale3", got, want, N);
   CHECK_CU(p_cuModuleGetFunction(&f, m2, "fill"), CUDA_SUCCESS);
   base = 5;
   CHECK_CU(p_cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
   CHECK_CUDA(cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost));
   for (unsigned i = 0; i < N; i++)
      want[i] = 3 * i + 1 + base;
   CHECK_ARRAY_U32("the same image loaded again", got, want, N);
   CHECK_CU(p_cuModuleUnload(m), CUDA_SUCCESS);
   CHECK_CU(p_cuModuleUnload(m2), CUDA_SUCCESS);

   /* one unit alone */
   CHECK_CU(p_cuLinkCreate(0, NULL, NULL, &st), CUDA_SUCCESS);
   CHECK_CU(p_cuLinkAddData(st, CU_JIT_INPUT_PTX, (void *)unit_c, sizeof(unit_c), NULL, 0, NULL, NULL), CUDA_SUCCESS);
   CHECK_CU(p_cuLinkComplete(st, &cubin, NULL), CUDA_SUCCESS);   /* the size is optional */
   CHECK_CU(p_cuModuleLoadData(&m, cubin), CUDA_SUCCESS);
   CHECK_CU(p_cuLinkDestroy(st), CUDA_SUCCESS);
   CHECK_CU(p_cuModuleGetFunction(&f, m, "seven"), CUDA_SUCCESS);
   void *args7[] = { &d };
   CHECK_CU(p_cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args7, NULL), CUDA_SUCCESS);
   CHECK_CUDA(cudaMemcpy(got, d, 4, cudaMemcpyDeviceToHost));
   CHECK_INT(got[0], 77);
   CHECK_CU(p_cuModuleUnload(m), CUDA_SUCCESS);

   /* bad arguments */
   CHECK_CU(p_cuLinkCreate(0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuLinkCreate(0, NULL, NULL, &st), CUDA_SUCCESS);
   CHECK_CU(p_cuLinkAddData(st, CU_JIT_INPUT_PTX, NULL, 10, NULL, 0, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
   CHECK_CU(p_cuLinkAddFile(st, CU_JIT_INPUT_PTX, "/nonexistent/x.ptx", 0, NULL, NULL), CUDA_ERROR_FILE_NOT_FOUND);
   CHECK_CU(p_cuLinkDestroy(st), CUDA_SUCCESS);
   CHECK_CUDA(cudaFree(d));
   return check_end();
}
