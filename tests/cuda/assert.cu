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
 * stderr at a file around the synchronisation, and read back.
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

/* Runs sync() with stdout and stderr going to a file; returns its result
 * and the text in buf. */
static cudaError_t captured(char *buf, size_t len)
{
   char path[] = "/tmp/mc_assert_XXXXXX";
   int fd = mkstemp(path);
   if (fd < 0)
      return cudaErrorUnknown;
   fflush(stdout);
   fflush(stderr);
   int out = dup(1), err = dup(2);
   dup2(fd, 1);
   dup2(fd, 2);
   cudaError_t e = cudaDeviceSynchronize();
   fflush(stdout);
   fflush(stderr);
   dup2(out, 1);
   dup2(err, 2);
   close(out);
   close(err);
   ssize_t n = pread(fd, buf, len - 1, 0);
   buf[n > 0 ? n : 0] = 0;
   close(fd);
   unlink(path);
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
   static char text[8192];
   k_assert<<<2, 16>>>(d);
   CHECK_ERR(captured(text, sizeof(text)), cudaErrorAssert);
   CHECK_ERR(cudaDeviceSynchronize(), cudaErrorAssert);
   CHECK_ERR(cudaGetLastError(), cudaErrorAssert);
   char want[512];
   snprintf(want, sizeof(want), "%s:%d: ", __FILE__, assert_line);
   bool ok = CHECK(strstr(text, want));
   ok &= CHECK(strstr(text, "check_value"));
   ok &= CHECK(strstr(text, ": block: [0,0,0], thread: [13,0,0] Assertion `v != 13` failed."));
   ok &= CHECK(!strstr(text, "thread: [12,0,0]") && !strstr(text, "block: [1,0,0]"));
   if (!ok)
      printf("  captured output (looked for \"%s\"):\n%s\n", want, text);
   return check_end();
}
