/*
 * rocprim/rocprim.hpp — rocPRIM has no back end but AMD's: it is written
 * against AMD GPUs' wavefronts and instructions, and HIP on NVIDIA GPUs
 * (which metalcuda is) offers hipCUB over CUB instead.  Saying so here
 * beats a cascade of errors from a missing header.
 */
#error "rocPRIM runs only on AMD GPUs (no CUDA back end): use hipCUB (#include <hipcub/hipcub.hpp>), which metalcuda provides over CUB"
