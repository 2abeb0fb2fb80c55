/*
 * cufftXt.h — metalcuda's cuFFT extensions: the cufftXt functions
 * libcufft implements, for one GPU and the single and double types
 * (cudaDataType from library_types.h).  The multi-GPU descriptors,
 * callbacks and half precision are stubs in the library returning
 * CUFFT_NOT_SUPPORTED and not declared here.
 */
#ifndef MC_CUFFTXT_H
#define MC_CUFFTXT_H

#include "cufft.h"

#ifdef __cplusplus
extern "C" {
#endif

cufftResult cufftXtMakePlanMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                long long int istride, long long int idist, cudaDataType inputtype,
                                long long int *onembed, long long int ostride, long long int odist,
                                cudaDataType outputtype, long long int batch, size_t *workSize,
                                cudaDataType executiontype);
cufftResult cufftXtGetSizeMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                               long long int istride, long long int idist, cudaDataType inputtype,
                               long long int *onembed, long long int ostride, long long int odist,
                               cudaDataType outputtype, long long int batch, size_t *workSize,
                               cudaDataType executiontype);
cufftResult cufftXtExec(cufftHandle plan, void *input, void *output, int direction);

#ifdef __cplusplus
}
#endif

#endif
