/*
 * shared_refused.cu — __shared__ variables of class type that nvcc accepts
 * (running no constructor or destructor) but metalcuda's driver does not
 * rewrite into raw shared storage (src/toolchain/source_fix.c): one
 * declared by a macro, two in one declaration, one at namespace scope.
 * The build must fail with clang's error for each and one line of the
 * driver's for each saying why; `fine` alone would have been rewritten
 * (tests/toolchain/run.sh, driver.shared_refused).
 */
struct P {
   float x = 1.0f;
   __device__ ~P() {}
};

#define SHARED_P(name) __shared__ P name

namespace ns {
__shared__ P at_namespace;
}

__global__ void k(float *out)
{
   SHARED_P(from_macro);
   __shared__ P first, second;
   __shared__ P fine;
   out[threadIdx.x] = from_macro.x + first.x + second.x + fine.x + ns::at_namespace.x;
}
