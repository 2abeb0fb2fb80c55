/*
 * ocl_kernels.c — the kernels of kernels.cu in OpenCL C, run on PoCL (the
 * Portable Computing Language's CPU device), for bench/kernels.sh.  The
 * same algorithms, launch shapes (global and work-group sizes), sizes and
 * inputs (kernels.h); timing as in kernels.cu: one warm-up run (PoCL
 * compiles the work-group function then), then the median of REPS runs of
 * enqueue + clFinish, host wall clock; the last run's output is checked.
 *
 *   ocl_kernels KERNEL [REPS]      KERNEL: saxpy stencil sgemm reduce shfl hist saxpy64
 *
 * Prints "INFO <PoCL version and device>" and "TIME KERNEL <median s>";
 * "SKIP <why>" and exits 3 when there is no PoCL platform or device (no
 * number is made up); why the result is wrong and exits 1.  Built with `cc -std=c11 -O2 ... -lOpenCL`; kernels.sh
 * reports a SKIP when the OpenCL headers or library are missing.
 *
 * Warp-shuffle reduction: PoCL's CPU device offers no sub-group shuffles
 * (no cl_khr_subgroup_shuffle_relative), so its "shfl" kernel runs the
 * same tree, in the same order, with the warp stage through local memory
 * and a barrier per level — the closest OpenCL C 1.2 has.  kernels.sh says
 * so in that row.
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include "kernels.h"

#include <CL/cl.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static const char *source =
   "#define TILE " STR(KB_TILE) "\n"
   "#define GROUP " STR(KB_GROUP_SIZE) "\n"
   "__kernel void saxpy(int n, float a, __global const float *x, __global float *y)\n"
   "{\n"
   "   int i = get_global_id(0);\n"
   "   if (i < n)\n"
   "      y[i] = a * x[i] + y[i];\n"
   "}\n"
   "__kernel void saxpy64(ulong n, float a, __global const float *x, __global float *y)\n"
   "{\n"
   "   size_t i = get_global_id(0);\n"
   "   if (i < n)\n"
   "      y[i] = a * x[i] + y[i];\n"
   "}\n"
   "__kernel void stencil5(int n, float c0, float c1, __global const float *in, __global float *out)\n"
   "{\n"
   "   int j = get_global_id(0), i = get_global_id(1);\n"
   "   if (i < 1 || j < 1 || i >= n - 1 || j >= n - 1)\n"
   "      return;\n"
   "   int p = i * n + j;\n"
   "   out[p] = c0 * in[p] + c1 * (in[p - n] + in[p + n] + in[p - 1] + in[p + 1]);\n"
   "}\n"
   "__kernel void sgemm_tiled(int n, __global const float *A, __global const float *B, __global float *C)\n"
   "{\n"
   "   __local float As[TILE][TILE], Bs[TILE][TILE];\n"
   "   int tx = get_local_id(0), ty = get_local_id(1);\n"
   "   int row = get_group_id(1) * TILE + ty, col = get_group_id(0) * TILE + tx;\n"
   "   float acc = 0.0f;\n"
   "   for (int t = 0; t < n; t += TILE) {\n"
   "      As[ty][tx] = A[row * n + t + tx];\n"
   "      Bs[ty][tx] = B[(t + ty) * n + col];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "      for (int k = 0; k < TILE; k++)\n"
   "         acc += As[ty][k] * Bs[k][tx];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   }\n"
   "   C[row * n + col] = acc;\n"
   "}\n"
   "__kernel void reduce_block(__global const uint *in, __global uint *out, int n)\n"
   "{\n"
   "   __local uint s[GROUP];\n"
   "   uint t = get_local_id(0), sum = 0;\n"
   "   for (int i = get_global_id(0); i < n; i += get_global_size(0))\n"
   "      sum += in[i];\n"
   "   s[t] = sum;\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   for (uint d = get_local_size(0) / 2; d > 0; d >>= 1) {\n"
   "      if (t < d)\n"
   "         s[t] += s[t + d];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   }\n"
   "   if (t == 0)\n"
   "      out[get_group_id(0)] = s[0];\n"
   "}\n"
   /* the CUDA kernel's tree: lane l adds lane l + o for o = 16, 8, .., 1
    * within each 32-lane warp, then warp 0 does the same over the warps'
    * sums; here each level goes through local memory and a barrier */
   "__kernel void reduce_shfl(__global const float *in, __global float *out, int n)\n"
   "{\n"
   "   __local float s[GROUP];\n"
   "   uint t = get_local_id(0), lane = t & 31, nw = get_local_size(0) / 32;\n"
   "   float sum = 0.0f;\n"
   "   for (int i = get_global_id(0); i < n; i += get_global_size(0))\n"
   "      sum += in[i];\n"
   "   s[t] = sum;\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   for (uint o = 16; o > 0; o >>= 1) {\n"
   "      if (lane < o)\n"
   "         s[t] += s[t + o];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   }\n"
   "   if (t < 32)\n"
   "      sum = t < nw ? s[t * 32] : 0.0f;\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   if (t < 32)\n"
   "      s[t] = sum;\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   for (uint o = 16; o > 0; o >>= 1) {\n"
   "      if (t < o)\n"
   "         s[t] += s[t + o];\n"
   "      barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   }\n"
   "   if (t == 0)\n"
   "      out[get_group_id(0)] = s[0];\n"
   "}\n"
   "__kernel void hist256(__global const uint *in, __global uint *hist, int nwords)\n"
   "{\n"
   "   __local uint h[256];\n"
   "   for (uint b = get_local_id(0); b < 256; b += get_local_size(0))\n"
   "      h[b] = 0;\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   for (int i = get_global_id(0); i < nwords; i += get_global_size(0)) {\n"
   "      uint v = in[i];\n"
   "      atomic_inc(&h[v & 0xff]);\n"
   "      atomic_inc(&h[(v >> 8) & 0xff]);\n"
   "      atomic_inc(&h[(v >> 16) & 0xff]);\n"
   "      atomic_inc(&h[v >> 24]);\n"
   "   }\n"
   "   barrier(CLK_LOCAL_MEM_FENCE);\n"
   "   for (uint b = get_local_id(0); b < 256; b += get_local_size(0))\n"
   "      atomic_add(&hist[b], h[b]);\n"
   "}\n";

static cl_context ctx;
static cl_command_queue queue;
static cl_program program;
static int reps;
static double *times;

static void fail(const char *what, cl_int err)
{
   fprintf(stderr, "ocl_kernels: %s failed: OpenCL error %d\n", what, (int)err);
   exit(1);
}

#define CL_CHECK(call)                                                                                       \
   do {                                                                                                      \
      cl_int e_ = (call);                                                                                    \
      if (e_ != CL_SUCCESS)                                                                                  \
         fail(#call, e_);                                                                                    \
   } while (0)

static void skip(const char *why)
{
   printf("SKIP %s\n", why);
   exit(3);
}

/* The PoCL platform's first device; a SKIP when there is none. */
static void setup(void)
{
   cl_platform_id plats[16];
   cl_uint np = 0;
   if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0)
      skip("no OpenCL platform (is pocl-opencl-icd installed?)");
   cl_platform_id plat = NULL;
   char name[256], seen[1024] = "";
   for (cl_uint i = 0; i < np && i < 16; i++) {
      if (clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof(name), name, NULL) != CL_SUCCESS)
         continue;
      if (strstr(name, "Portable Computing Language") || strstr(name, "PoCL") || strstr(name, "pocl")) {
         plat = plats[i];
         break;
      }
      size_t l = strlen(seen);
      snprintf(seen + l, sizeof(seen) - l, "%s'%s'", l ? ", " : "", name);
   }
   if (!plat) {
      char why[1200];
      snprintf(why, sizeof(why), "no PoCL platform among the OpenCL platforms (%s)", seen);
      skip(why);
   }
   cl_device_id dev;
   cl_uint nd = 0;
   if (clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, &nd) != CL_SUCCESS || nd == 0)
      skip("the PoCL platform has no device");
   char ver[256] = "?", dname[256] = "?";
   cl_uint cus = 0;
   clGetPlatformInfo(plat, CL_PLATFORM_VERSION, sizeof(ver), ver, NULL);
   ver[strcspn(ver, ",")] = 0;   /* "OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, ...": the first part */
   clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
   clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cus), &cus, NULL);
   printf("INFO %s; device %s, %u compute units\n", ver, dname, (unsigned)cus);
   cl_int err;
   ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   if (!ctx)
      fail("clCreateContext", err);
   queue = clCreateCommandQueue(ctx, dev, 0, &err);
   if (!queue)
      fail("clCreateCommandQueue", err);
   program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
   if (!program)
      fail("clCreateProgramWithSource", err);
   err = clBuildProgram(program, 1, &dev, "-cl-std=CL1.2", NULL, NULL);
   if (err != CL_SUCCESS) {
      char log[16384] = "";
      clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
      fprintf(stderr, "ocl_kernels: the OpenCL C did not build (error %d):\n%s\n", (int)err, log);
      exit(1);
   }
}

static cl_kernel kernel(const char *name)
{
   cl_int err;
   cl_kernel k = clCreateKernel(program, name, &err);
   if (!k)
      fail(name, err);
   return k;
}

static cl_mem buffer(size_t bytes, const void *init)
{
   cl_int err;
   cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
   if (!m)
      fail("clCreateBuffer", err);
   if (init)
      CL_CHECK(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, init, 0, NULL, NULL));
   return m;
}

static void fill(cl_mem m, size_t bytes, uint8_t byte)
{
   CL_CHECK(clEnqueueFillBuffer(queue, m, &byte, 1, 0, bytes, 0, NULL, NULL));
}

static void read_back(cl_mem m, void *dst, size_t bytes)
{
   CL_CHECK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL));
}

static void arg(cl_kernel k, cl_uint i, size_t size, const void *v)
{
   CL_CHECK(clSetKernelArg(k, i, size, v));
}

static void enqueue(cl_kernel k, cl_uint dims, const size_t *global, const size_t *local)
{
   CL_CHECK(clEnqueueNDRangeKernel(queue, k, dims, NULL, global, local, 0, NULL, NULL));
}

/* reset (enqueued, untimed, finished), then launch + clFinish timed */
#define TIMED(reset, launch)                                                                                 \
   do {                                                                                                      \
      reset;                                                                                                 \
      launch; /* warm-up */                                                                                 \
      CL_CHECK(clFinish(queue));                                                                             \
      for (int r_ = 0; r_ < reps; r_++) {                                                                    \
         reset;                                                                                              \
         CL_CHECK(clFinish(queue));                                                                          \
         double t0_ = now_s();                                                                               \
         launch;                                                                                             \
         CL_CHECK(clFinish(queue));                                                                          \
         times[r_] = now_s() - t0_;                                                                          \
      }                                                                                                      \
   } while (0)

static int run_saxpy_as(int wide)
{
   const int n = KB_SAXPY_N;
   const cl_ulong n64 = (cl_ulong)n;
   const float a = KB_SAXPY_A;
   size_t bytes = n * sizeof(float), global = n, local = KB_SAXPY_BLOCK;
   float *x = kb_xmalloc(bytes), *y0 = kb_xmalloc(bytes), *y = kb_xmalloc(bytes);
   kb_fill_sym(x, n, 1);
   kb_fill_sym(y0, n, 2);
   cl_mem dx = buffer(bytes, x), dy0 = buffer(bytes, y0), dy = buffer(bytes, NULL);
   cl_kernel k = kernel(wide ? "saxpy64" : "saxpy");
   if (wide)
      arg(k, 0, sizeof(cl_ulong), &n64);
   else
      arg(k, 0, sizeof(int), &n);
   arg(k, 1, sizeof(float), &a), arg(k, 2, sizeof(cl_mem), &dx);
   arg(k, 3, sizeof(cl_mem), &dy);
   TIMED(CL_CHECK(clEnqueueCopyBuffer(queue, dy0, dy, 0, 0, bytes, 0, NULL, NULL)), enqueue(k, 1, &global, &local));
   read_back(dy, y, bytes);
   int bad = kb_check_saxpy(n, a, x, y0, y, "PoCL");
   clReleaseKernel(k), clReleaseMemObject(dx), clReleaseMemObject(dy0), clReleaseMemObject(dy);
   free(x), free(y0), free(y);
   return bad;
}

static int run_saxpy(void) { return run_saxpy_as(0); }
static int run_saxpy64(void) { return run_saxpy_as(1); }

static int run_stencil(void)
{
   const int n = KB_STENCIL_N;
   const float c0 = KB_STENCIL_C0, c1 = KB_STENCIL_C1;
   size_t nn = (size_t)n * n, bytes = nn * sizeof(float);
   size_t global[2] = {n, n}, local[2] = {KB_STENCIL_BX, KB_STENCIL_BY};
   float *in = kb_xmalloc(bytes), *out = kb_xmalloc(bytes);
   kb_fill_sym(in, nn, 3);
   cl_mem din = buffer(bytes, in), dout = buffer(bytes, NULL);
   fill(dout, bytes, 0);
   cl_kernel k = kernel("stencil5");
   arg(k, 0, sizeof(int), &n), arg(k, 1, sizeof(float), &c0), arg(k, 2, sizeof(float), &c1);
   arg(k, 3, sizeof(cl_mem), &din), arg(k, 4, sizeof(cl_mem), &dout);
   TIMED((void)0, enqueue(k, 2, global, local));
   read_back(dout, out, bytes);
   int bad = kb_check_stencil(n, c0, c1, in, out, "PoCL");
   clReleaseKernel(k), clReleaseMemObject(din), clReleaseMemObject(dout);
   free(in), free(out);
   return bad;
}

static int run_sgemm(void)
{
   const int n = KB_SGEMM_N;
   size_t nn = (size_t)n * n, bytes = nn * sizeof(float);
   size_t global[2] = {n, n}, local[2] = {KB_TILE, KB_TILE};
   float *A = kb_xmalloc(bytes), *B = kb_xmalloc(bytes), *C = kb_xmalloc(bytes);
   kb_fill_sym(A, nn, 4);
   kb_fill_sym(B, nn, 5);
   cl_mem dA = buffer(bytes, A), dB = buffer(bytes, B), dC = buffer(bytes, NULL);
   cl_kernel k = kernel("sgemm_tiled");
   arg(k, 0, sizeof(int), &n), arg(k, 1, sizeof(cl_mem), &dA), arg(k, 2, sizeof(cl_mem), &dB);
   arg(k, 3, sizeof(cl_mem), &dC);
   TIMED((void)0, enqueue(k, 2, global, local));
   read_back(dC, C, bytes);
   int bad = kb_check_sgemm(n, A, B, C, "PoCL");
   clReleaseKernel(k), clReleaseMemObject(dA), clReleaseMemObject(dB), clReleaseMemObject(dC);
   free(A), free(B), free(C);
   return bad;
}

/* Two passes, as in kernels.cu: KB_GROUPS groups over the input, then one
 * group over their partial sums.  The kernels of both are the same. */
static void two_pass(cl_kernel k1, cl_kernel k2, cl_mem in, cl_mem part, cl_mem sum, int n)
{
   const int groups = KB_GROUPS;
   size_t g1 = (size_t)KB_GROUPS * KB_GROUP_SIZE, g2 = KB_GROUP_SIZE, local = KB_GROUP_SIZE;
   arg(k1, 0, sizeof(cl_mem), &in), arg(k1, 1, sizeof(cl_mem), &part), arg(k1, 2, sizeof(int), &n);
   arg(k2, 0, sizeof(cl_mem), &part), arg(k2, 1, sizeof(cl_mem), &sum), arg(k2, 2, sizeof(int), &groups);
   enqueue(k1, 1, &g1, &local);
   enqueue(k2, 1, &g2, &local);
}

static int run_reduce(void)
{
   const int n = KB_REDUCE_N;
   uint32_t *in = kb_xmalloc(n * sizeof(uint32_t)), got;
   kb_fill_small(in, n, 6);
   cl_mem din = buffer(n * sizeof(uint32_t), in), dpart = buffer(KB_GROUPS * sizeof(uint32_t), NULL);
   cl_mem dsum = buffer(sizeof(uint32_t), NULL);
   cl_kernel k1 = kernel("reduce_block"), k2 = kernel("reduce_block");
   TIMED(fill(dsum, sizeof(uint32_t), 0xff), two_pass(k1, k2, din, dpart, dsum, n));
   read_back(dsum, &got, sizeof(got));
   int bad = kb_check_reduce(n, in, got, "PoCL");
   clReleaseKernel(k1), clReleaseKernel(k2);
   clReleaseMemObject(din), clReleaseMemObject(dpart), clReleaseMemObject(dsum);
   free(in);
   return bad;
}

static int run_shfl(void)
{
   const int n = KB_SHFL_N;
   float *in = kb_xmalloc(n * sizeof(float)), got;
   kb_fill_unit(in, n, 7);
   cl_mem din = buffer(n * sizeof(float), in), dpart = buffer(KB_GROUPS * sizeof(float), NULL);
   cl_mem dsum = buffer(sizeof(float), NULL);
   cl_kernel k1 = kernel("reduce_shfl"), k2 = kernel("reduce_shfl");
   TIMED(fill(dsum, sizeof(float), 0xff), two_pass(k1, k2, din, dpart, dsum, n));
   read_back(dsum, &got, sizeof(got));
   int bad = kb_check_sum(n, in, got, kb_gpu_sum_depth(n), "PoCL");
   clReleaseKernel(k1), clReleaseKernel(k2);
   clReleaseMemObject(din), clReleaseMemObject(dpart), clReleaseMemObject(dsum);
   free(in);
   return bad;
}

static int run_hist(void)
{
   const int nbytes = KB_HIST_BYTES, nwords = nbytes / 4;
   size_t global = (size_t)KB_GROUPS * KB_GROUP_SIZE, local = KB_GROUP_SIZE;
   uint8_t *in = kb_xmalloc(nbytes);
   uint32_t hist[256];
   kb_fill_bytes(in, nbytes, 8);
   cl_mem din = buffer(nbytes, in), dhist = buffer(sizeof(hist), NULL);
   cl_kernel k = kernel("hist256");
   arg(k, 0, sizeof(cl_mem), &din), arg(k, 1, sizeof(cl_mem), &dhist), arg(k, 2, sizeof(int), &nwords);
   TIMED(fill(dhist, sizeof(hist), 0), enqueue(k, 1, &global, &local));
   read_back(dhist, hist, sizeof(hist));
   int bad = kb_check_hist(nbytes, in, hist, "PoCL");
   clReleaseKernel(k), clReleaseMemObject(din), clReleaseMemObject(dhist);
   free(in);
   return bad;
}

int main(int argc, char **argv)
{
   int k = kb_parse_args(argc, argv, &reps);
   int (*const run[KB_NKERNELS])(void) = {run_saxpy, run_stencil, run_sgemm, run_reduce, run_shfl, run_hist,
                                              run_saxpy64};
   times = kb_xmalloc(reps * sizeof(double));
   setup();
   if (run[k]())
      return 1;
   printf("TIME %s %.9f\n", kb_names[k], median(times, reps));
   free(times);
   clReleaseProgram(program);
   clReleaseCommandQueue(queue);
   clReleaseContext(ctx);
   return 0;
}
