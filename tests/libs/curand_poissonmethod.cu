/*
 * curand_poissonmethod.cu — curandGeneratePoissonMethod (cuRAND's "internal
 * usage" form of curandGeneratePoisson) through the library a program
 * links: CURAND_DEVICE_API on device and host generators of every type
 * that generates with it, the rows of curand_poissonmethod_rows.h (two
 * calls in a row, odd counts, the second continuing the first, and the
 * words after them): XORWOW and MRG32k3a (the device API's Knuth method
 * below lambda 64, rejection method to 4000 and rounded double normal
 * above, on the generator's subsequences; seed 1234, lambda 0.5 to
 * 400000, 5000 then 7001 values and 81000 words: a whole round of
 * MRG32k3a's subsequences and back), Philox4_32_10 (the same methods on
 * states set up at each call, at offset 0 and 262151), MTGP32 and the
 * four Sobol types (a value a word: inversion below lambda 1000, the
 * rounded inverse normal from there; Sobol in 3 dimensions from point
 * 999); the statuses of every method but CURAND_3RD
 * (CURAND_STATUS_INTERNAL_ERROR but CURAND_DEVICE_API), lambda out of
 * (0, 400000], a count of 0, no generator, MT19937 (which NVIDIA's
 * library refuses), a Sobol count not a multiple of the dimensions.
 * CURAND_3RD is left out: NVIDIA's host generator answered
 * CURAND_STATUS_PREEXISTING_FAILURE on a machine without a GPU but
 * segfaults on the H200's, whose device generator generates with it.
 *
 * Expected values, bit-identical (hashes): the host generator's from
 * NVIDIA's host generator (curand_poissonmethod_expected.h, written by
 * native/curand_poissonmethod_record.c on CUDA 13.0's cuRAND 10.4.0), the
 * device generator's from NVIDIA's device generator on an H100/H200
 * (curand_poissonmethod_device_expected.h, written by
 * native/curand_poissonmethod_device_record.cu).  The two differ from
 * lambda 64 to 4000, where NVIDIA's device code takes the GPU's
 * approximate reciprocal, square root, 2^x and log2 and its host code the
 * host's exact forms.
 */
#include <curand.h>
#include "../cuda/check.h"
#include "curand_check.h"
#include "curand_poissonmethod_rows.h"
#include "curand_poissonmethod_expected.h"
#include "curand_poissonmethod_device_expected.h"

#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static void check_row(const pm_row &r, const pm_expect &e, bool host)
{
   curandGenerator_t g = NULL;
   curandStatus_t s = host ? curandCreateGeneratorHost(&g, (curandRngType_t)r.type)
                           : curandCreateGenerator(&g, (curandRngType_t)r.type);
   if (!CHECK_ST(s, CURAND_STATUS_SUCCESS))
      return;
   size_t n = r.n1 + r.n2 + r.nw;
   std::vector<unsigned> out(n);
   unsigned *p = out.data();
   if (!host && !CHECK_CUDA(cudaMalloc(&p, n * 4)))
      return;
   bool ok = CHECK_ST(pm_row_run(g, &r, p), CURAND_STATUS_SUCCESS);
   if (!host) {
      ok &= CHECK_CUDA(cudaMemcpy(out.data(), p, n * 4, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaFree(p));
   }
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   if (!ok) {
      printf("  %s type %d lambda %g\n", host ? "host" : "device", r.type, r.lambda);
      return;
   }
   unsigned long long h1 = fnv(out.data(), 4 * r.n1), h2 = fnv(out.data() + r.n1, 4 * r.n2),
                      hw = fnv(out.data() + r.n1 + r.n2, 4 * r.nw);
   if (!CHECK(h1 == e.h1 && h2 == e.h2 && hw == e.hw))
      printf("  %s type %d lambda %g: hashes %016llx %016llx %016llx, want %016llx %016llx %016llx\n",
             host ? "host" : "device", r.type, r.lambda, h1, h2, hw, e.h1, e.h2, e.hw);
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
   CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   /* MT19937 (no state of the device API): 4 values, none, lambda 0 */
   s = host ? curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MT19937)
            : curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MT19937);
   if (CHECK_ST(s, CURAND_STATUS_SUCCESS)) {
      const int *want = host ? PM_ST_MT19937 : PM_ST_MT19937_DEVICE;
      int st[3];
      pm_mt19937_statuses(g, p, st);
      for (int i = 0; i < 3; i++)
         CHECK_ST(st[i], want[i]);
      CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   }
   /* Sobol32 in 3 dimensions, 4 values */
   s = host ? curandCreateGeneratorHost(&g, CURAND_RNG_QUASI_SOBOL32) : curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32);
   if (CHECK_ST(s, CURAND_STATUS_SUCCESS)) {
      CHECK_ST(curandSetQuasiRandomGeneratorDimensions(g, 3), CURAND_STATUS_SUCCESS);
      CHECK_ST(curandGeneratePoissonMethod(g, p, 4, 5.0, CURAND_DEVICE_API), PM_ST_SOBOL_LENGTH);
      CHECK_ST(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
   }
   if (!host)
      CHECK_CUDA(cudaFree(p));
}

int main(int argc, char **argv)
{
   check_begin("curand_poissonmethod");
   size_t rows = sizeof PM_ROWS / sizeof *PM_ROWS;
   if (!CHECK_INT((int)(sizeof PM_EXPECT / sizeof *PM_EXPECT), (int)rows) ||
       !CHECK_INT((int)(sizeof PM_EXPECT_DEVICE / sizeof *PM_EXPECT_DEVICE), (int)rows))
      rows = 0;
   for (size_t r = 0; r < rows; r++) {
      const pm_row &w = PM_ROWS[r];
      const pm_expect &h = PM_EXPECT[r], &d = PM_EXPECT_DEVICE[r];
      if (!CHECK(h.type == w.type && h.lambda == w.lambda && d.type == w.type && d.lambda == w.lambda))
         continue;
      check_row(w, d, false);
      check_row(w, h, true);
   }
   statuses(false);
   statuses(true);
   CHECK_CUDA(cudaDeviceSynchronize());
   return check_end();
}
