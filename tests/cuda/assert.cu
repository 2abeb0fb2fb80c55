/*
 * assert.cu — device-side failures: __trap() fails the launch with
 * cudaErrorLaunchFailure, sticky (the process is done with CUDA: CUDA's
 * documentation says it must be relaunched, and an H200 refuses even
 * cudaMalloc after cudaDeviceReset with cudaErrorDevicesUnavailable, so
 * the trap runs in a child process before the parent touches CUDA); assert() that
 * fails (in a __noinline__ function, in one thread of the grid) makes the
 * synchronisation return cudaErrorAssert, sticky too, and prints CUDA's
 * message: "file:line: function: block: [x,y,z], thread: [x,y,z]
 * Assertion `expr` failed."  The message is captured by pointing stdout and
 * stderr at two files around the synchronisation, and read back.  After the
 * assert, the context stays broken: cudaMalloc, cudaMemcpy, cudaMemset, a
 * launch and synchronisation all fail with cudaErrorAssert, each recording
 * it as the last error, while cudaGetLastError clears the record like any
 * other error (on an H200 a second cudaGetLastError is cudaSuccess); the
 * message is on stderr.  cudaDeviceReset then succeeds and keeps the last
 * error, but the device stays refused (cudaMalloc:
 * cudaErrorDevicesUnavailable on an H200; a TODO_METALCUDA gap).
 */
#undef NDEBUG
#include "check.h"

#include <assert.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

__device__ __noinline__ void check_value(int v) { assert(v != 13); } static const int assert_line = __LINE__;

__global__ void k_assert(int *out)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   check_value(t);
   out[t] = t;
}

__global__ void k_trap(int *out)
{
   if (threadIdx.x == 2)
      __trap();
   out[threadIdx.x] = 1;
}

__global__ void k_ok(int *out) { out[threadIdx.x] = 5 + (int)threadIdx.x; }

/* Runs cudaDeviceSynchronize with stdout and stderr going to two files;
 * returns its result, the text of stdout in out and of stderr in err. */
static cudaError_t captured(char *out, char *err, size_t len)
{
   char po[] = "/tmp/mc_assert_XXXXXX", pe[] = "/tmp/mc_assert_XXXXXX";
   int fo = mkstemp(po), fe = mkstemp(pe);
   if (fo < 0 || fe < 0)
      return cudaErrorUnknown;
   fflush(stdout);
   fflush(stderr);
   int save_out = dup(1), save_err = dup(2);
   dup2(fo, 1);
   dup2(fe, 2);
   cudaError_t e = cudaDeviceSynchronize();
   fflush(stdout);
   fflush(stderr);
   dup2(save_out, 1);
   dup2(save_err, 2);
   close(save_out);
   close(save_err);
   ssize_t n = pread(fo, out, len - 1, 0);
   out[n > 0 ? n : 0] = 0;
   n = pread(fe, err, len - 1, 0);
   err[n > 0 ? n : 0] = 0;
   close(fo);
   close(fe);
   unlink(po);
   unlink(pe);
   return e;
}

/* The trap, in a child process: its exit status is its verdict. */
static int trap_in_child(void)
{
   int *d;
   if (!CHECK_CUDA(cudaMalloc(&d, 32 * sizeof(int))))
      return 1;
   k_trap<<<1, 4>>>(d);
   CHECK_ERR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
   CHECK_ERR(cudaGetLastError(), cudaErrorLaunchFailure);
   CHECK_ERR(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
   int h0;
   CHECK_ERR(cudaMemcpy(&h0, d, sizeof(int), cudaMemcpyDeviceToHost), cudaErrorLaunchFailure);
   return check_failed_ ? 1 : 0;
}

int main()
{
   check_begin("assert");
   fflush(stdout);
   pid_t pid = fork();
   if (pid == 0) {
      int rc = trap_in_child();
      fflush(stdout);
      _exit(rc);
   }
   int status = -1;
   CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
   CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

   int *d;
   int h[32];
   REQUIRE_CUDA(cudaMalloc(&d, sizeof(h)));
   k_ok<<<1, 32>>>(d);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   CHECK_INT(h[31], 36);

   /* assert() fails in thread 13 of block (0,0,0) only */
   static char out_text[8192], err_text[8192];
   k_assert<<<2, 16>>>(d);
   CHECK_ERR(captured(out_text, err_text, sizeof(out_text)), cudaErrorAssert);
   CHECK_ERR(cudaDeviceSynchronize(), cudaErrorAssert);
   char want[512];
   snprintf(want, sizeof(want), "%s:%d: ", __FILE__, assert_line);
   const char *text = strstr(err_text, want) ? err_text : out_text;
   /* on stderr (an H200 prints it there), with the function as
    * __PRETTY_FUNCTION__ writes it */
   CHECK(strstr(err_text, want) && !strstr(out_text, want));
   bool ok = CHECK(strstr(text, want));
   ok &= CHECK(strstr(text, ": void check_value(int): block: [0,0,0], thread: [13,0,0] Assertion `v != 13` failed."));
   ok &= CHECK(!strstr(text, "thread: [12,0,0]") && !strstr(text, "block: [1,0,0]"));
   if (!ok)
      printf("  captured stdout:\n%s\n  captured stderr (looked for \"%s\"):\n%s\n", out_text, want, err_text);

   /* sticky: every later call that touches the device fails with it, and
    * records it; cudaGetLastError clears the thread's record like any
    * other error (observed on an H200) */
   CHECK_ERR(cudaGetLastError(), cudaErrorAssert);
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   CHECK_ERR(cudaPeekAtLastError(), cudaSuccess);
   int *d2 = NULL;
   CHECK_ERR(cudaMalloc(&d2, 64), cudaErrorAssert);
   CHECK_ERR(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost), cudaErrorAssert);
   CHECK_ERR(cudaMemset(d, 0, sizeof(h)), cudaErrorAssert);
   k_ok<<<1, 32>>>(d);
   CHECK_ERR(cudaGetLastError(), cudaErrorAssert);
   CHECK_ERR(cudaDeviceSynchronize(), cudaErrorAssert);
   CHECK_ERR(cudaGetLastError(), cudaErrorAssert);

   /* After cudaDeviceReset: CUDA's documentation says the process must be
    * relaunched.  On an H200 (driver 580) the reset itself succeeds, and the
    * next cudaMalloc fails with cudaErrorDevicesUnavailable, as after a
    * trap; the last error right after the reset is shown, not asserted. */
   CHECK_ERR(cudaMalloc(&d2, 64), cudaErrorAssert);
   CHECK_CUDA(cudaDeviceReset());
   CHECK_ERR(cudaGetLastError(), cudaErrorAssert);   /* the reset keeps the thread's last error */
   CHECK_ERR(cudaGetLastError(), cudaSuccess);
   cudaError_t m = cudaMalloc(&d2, 64);
   TODO_METALCUDA(m == cudaErrorDevicesUnavailable,
                  "after a sticky error and cudaDeviceReset, NVIDIA's runtime refuses the device for the rest of "
                  "the process (cudaErrorDevicesUnavailable); metalcuda creates a fresh context");
   if (m == cudaSuccess)
      cudaFree(d2);
   return check_end();
}
