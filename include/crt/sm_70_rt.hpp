/*
 * crt/sm_70_rt.hpp — clang's __clang_cuda_intrinsics.h includes this name
 * to get the sm_70 warp-match functions from NVIDIA's headers.  Ours are in
 * mc_device_intrinsics.h (included by cuda_runtime.h after clang's
 * headers), so this file is empty; it exists so that the include finds
 * metalcuda's tree first and never an NVIDIA header elsewhere on the path.
 */
