/*
 * hipcc.c — the hipcc-compatible driver: HIP sources (.hip, and .cpp/.cu as
 * hipcc treats them) compiled like nvcc's .cu files, with
 * hip/hip_runtime.h forced in instead of cuda_runtime.h (it maps HIP onto
 * metalcuda's CUDA runtime and device headers, as HIP on NVIDIA does).
 *
 * hipcc's command line is clang's: the flags nvcc.c knows are taken as
 * they are, AMD offload architectures (--offload-arch=gfx...) and
 * --hip-link are dropped (there is no AMD code to make; PTX for sm_75 runs
 * here, and every link of ours adds the runtime), -fgpu-rdc is -rdc=true.
 */
#include "toolchain.h"

#include <stdlib.h>
#include <string.h>

int tc_nvcc_driver(int argc, char **argv, bool hip);

int tc_hipcc_main(int argc, char **argv)
{
   char **v = calloc((size_t)argc + 2, sizeof(char *));
   if (!v)
      return 1;
   int n = 0;
   for (int i = 0; i < argc; i++) {
      const char *a = argv[i];
      if (!strncmp(a, "--offload-arch=", 15) || !strncmp(a, "--amdgpu-target=", 16) ||
          !strcmp(a, "-munsafe-fp-atomics") || !strcmp(a, "--hip-link"))
         continue;
      /* relocatable device code: nvcc's spelling */
      if (!strcmp(a, "-fgpu-rdc"))
         v[n++] = "-rdc=true";
      else if (!strcmp(a, "-fno-gpu-rdc"))
         v[n++] = "-rdc=false";
      else
         v[n++] = argv[i];
   }
   int rc = tc_nvcc_driver(n, v, true);
   free(v);
   return rc;
}
