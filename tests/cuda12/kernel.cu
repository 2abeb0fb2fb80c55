// The kernel runtime_smoke.c launches (built into a fatbin by nvcc -fatbin; run.sh).
extern "C" __global__ void add_one(int *p, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      p[i] += i + 1;
}
