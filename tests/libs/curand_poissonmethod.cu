/*
 * curand_poissonmethod.cu — curandGeneratePoissonMethod (cuRAND's "internal
 * usage" form of curandGeneratePoisson) through the library a program
 * links: CURAND_DEVICE_API below lambda 64, from 64 to 4000 and above
 * 4000 (the device API's Knuth method, rejection method and rounded double
 * normal on the generator's subsequences) on XORWOW and MRG32k3a device
 * and host generators, seed 1234, lambda 0.5, 5, 30, 63.9, 64, 100, 1000,
 * 3999.5, 4000, 4000.5, 9000 and 400000, two calls in a row (5000 then
 * 7001 values, odd: the second continues each subsequence) and 81000
 * words after them (the subsequences moved by the uniforms each value
 * drew, and the double normal kept); the statuses of every method but
 * CURAND_3RD (CURAND_STATUS_INTERNAL_ERROR but CURAND_DEVICE_API), lambda
 * out of (0, 400000], a count of 0, no generator.  CURAND_3RD is left
 * out: NVIDIA's host generator answered CURAND_STATUS_PREEXISTING_FAILURE
 * on a machine without a GPU but segfaults on the H200's, whose device
 * generator generates with it.
 *
 * Expected values, bit-identical (hashes): the host generator's from
 * NVIDIA's host generator (curand_poissonmethod_expected.h, written by
 * native/curand_poissonmethod_record.c on CUDA 13.0's cuRAND 10.4.0), the
 * device generator's from NVIDIA's device generator on an H200
 * (curand_poissonmethod_device_expected.h, written by
 * native/curand_poissonmethod_device_record.cu).  The two differ from
 * lambda 64 to 4000, where NVIDIA's device code takes the GPU's
 * approximate reciprocal, square root, 2^x and log2 and its host code the
 * host's exact forms.  metalcuda implements CURAND_DEVICE_API for XORWOW
 * and MRG32k3a (src/libs/curand/README.md); the other generator types are
 * not checked here.
 */
#include <curand.h>
#include "../cuda/check.h"
#include "curand_check.h"
#include "curand_poissonmethod_expected.h"
#include "curand_poissonmethod_device_expected.h"

#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static void check_row(const pm_expect &e, bool host)
{
   curandGenerator_t g = NULL;
   curandStatus_t s = host ? curandCreateGeneratorHost(&g, (curandRngType_t)e.type)
                           : curandCreateGenerator(&g, (curandRngType_t)e.type);
   if (!CHECK_ST(s, CURAND_STATUS_SUCCESS))
      return;
   size_t n = PM_N1 + PM_N2 + PM_NW;
   std::vector<unsigned> out(n);
   unsigned *p = out.data();
   if (!host && !CHECK_CUDA(cudaMalloc(&p, n * 4)))
      return;
   bool ok = CHECK_ST(curandSetPseudoRandomGeneratorSeed(g, 1234), CURAND_STATUS_SUCCESS);
   ok &= CHECK_ST(curandGeneratePoissonMethod(g, p, PM_N1, e.lambda, CURAND_DEVICE_API), CURAND_STATUS_SUCCESS);
   ok &= CHECK_ST(curandGeneratePoissonMethod(g, p + PM_N1, PM_N2, e.lambda, CURAND_DEVICE_API), CURAND_STATUS_SUCCESS);
   ok &= CHECK_ST(curandGenerate(g, p + PM_N1 + PM_N2, PM_NW), CURAND_STATUS_SUCCESS);
   if (!host) {
      ok &= CHECK_CUDA(cudaMemcpy(out.data(), p, n * 4, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaFree(p));
   }
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   if (!ok)
      return;
   unsigned long long h1 = fnv(out.data(), 4 * PM_N1), h2 = fnv(out.data() + PM_N1, 4 * PM_N2),
                      hw = fnv(out.data() + PM_N1 + PM_N2, 4 * PM_NW);
   if (!CHECK(h1 == e.h1 && h2 == e.h2 && hw == e.hw))
      printf("  %s type %d lambda %g: hashes %016llx %016llx %016llx, want %016llx %016llx %016llx\n",
             host ? "host" : "device", e.type, e.lambda, h1, h2, hw, e.h1, e.h2, e.hw);
}

static void statuses(bool host)
{
   curandGenerator_t g = NULL;
   curandStatus_t s = host ? curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_XORWOW)
                           : curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW);
   if (!CHECK_ST(s, CURAND_STATUS_SUCCESS))
      return;
   unsigned *p = NULL;
   std::vector<unsigned> out(4);
   if (host)
      p = out.data();
   else if (!CHECK_CUDA(cudaMalloc(&p, 16)))
      return;
   /* Not CURAND_3RD: on an H200 machine NVIDIA's device generator
    * generates with it (a method metalcuda does not reproduce, and
    * refuses) and its host generator segfaults (on a machine without a
    * GPU it answered the recorded CURAND_STATUS_PREEXISTING_FAILURE) */
   for (size_t m = 0; m < sizeof PM_METHODS / sizeof *PM_METHODS; m++)
      if (PM_METHODS[m] != CURAND_3RD &&
          !CHECK_ST(curandGeneratePoissonMethod(g, p, 4, 5.0, (curandMethod_t)PM_METHODS[m]), PM_ST_METHOD[m]))
         printf("  method %d\n", PM_METHODS[m]);
   const int ms[] = { CURAND_3RD, CURAND_DEVICE_API, CURAND_ITR };
   for (int m = 1; m < 3; m++)   /* not CURAND_3RD (above) */
      for (int l = 0; l < 4; l++) {
         if (!CHECK_ST(curandGeneratePoissonMethod(g, p, 4, PM_LAMBDAS[l], (curandMethod_t)ms[m]), PM_ST_LAMBDA[m][l]))
            printf("  method %d lambda %g\n", ms[m], PM_LAMBDAS[l]);
      }
   CHECK_ST(curandGeneratePoissonMethod(g, p, 0, 5.0, CURAND_DEVICE_API), PM_ST_COUNT0);
   CHECK_ST(curandGeneratePoissonMethod(NULL, p, 4, 5.0, CURAND_DEVICE_API), PM_ST_NOGEN);
   if (!host)
      CHECK_CUDA(cudaFree(p));
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
}

int main(int argc, char **argv)
{
   check_begin("curand_poissonmethod");
   size_t rows = sizeof PM_EXPECT / sizeof *PM_EXPECT;
   if (!CHECK_INT((int)(sizeof PM_EXPECT_DEVICE / sizeof *PM_EXPECT_DEVICE), (int)rows))
      rows = 0;
   for (size_t r = 0; r < rows; r++) {
      const pm_expect &h = PM_EXPECT[r], &d = PM_EXPECT_DEVICE[r];
      if (!CHECK(h.type == d.type && h.lambda == d.lambda))
         continue;
      check_row(d, false);
      check_row(h, true);
   }
   statuses(false);
   statuses(true);
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
