/* bins.cu — a device function histo.cu's kernel calls across translation
 * units: the library is built with separable compilation (relocatable
 * device code, CUDA_SEPARABLE_COMPILATION), so CMake device-links it into
 * the program. */
__device__ void bin_add(unsigned *bins, unsigned char value)
{
   atomicAdd(&bins[value], 1u);
}
