/*
 * cufftXt.h — metalcuda's cuFFT extensions: the cufftXt functions
 * libcufft implements, for one GPU and the single and double types
 * (cudaDataType from library_types.h), and the legacy callbacks' types
 * and calls, which answer CUFFT_NOT_IMPLEMENTED as NVIDIA's shared
 * library does (src/libs/cufft/callback.c), and the LTO callbacks
 * (cufftXtSetJITCallback: the callback as LTO-IR, linked with NVIDIA's
 * libnvvm and libnvJitLink where they are, src/libs/cufft/jit.c).  The
 * multi-GPU descriptors are stubs in the library returning
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

/* Legacy callbacks: device functions of these types, whose addresses a
 * program fetches with cudaMemcpyFromSymbol */
typedef enum cufftXtCallbackType_t {
   CUFFT_CB_LD_COMPLEX = 0x0,
   CUFFT_CB_LD_COMPLEX_DOUBLE = 0x1,
   CUFFT_CB_LD_REAL = 0x2,
   CUFFT_CB_LD_REAL_DOUBLE = 0x3,
   CUFFT_CB_ST_COMPLEX = 0x4,
   CUFFT_CB_ST_COMPLEX_DOUBLE = 0x5,
   CUFFT_CB_ST_REAL = 0x6,
   CUFFT_CB_ST_REAL_DOUBLE = 0x7,
   CUFFT_CB_UNDEFINED = 0x8
} cufftXtCallbackType;
typedef cufftComplex (*cufftCallbackLoadC)(void *dataIn, size_t offset, void *callerInfo, void *sharedPointer);
typedef cufftDoubleComplex (*cufftCallbackLoadZ)(void *dataIn, size_t offset, void *callerInfo, void *sharedPointer);
typedef cufftReal (*cufftCallbackLoadR)(void *dataIn, size_t offset, void *callerInfo, void *sharedPointer);
typedef cufftDoubleReal (*cufftCallbackLoadD)(void *dataIn, size_t offset, void *callerInfo, void *sharedPointer);
typedef void (*cufftCallbackStoreC)(void *dataOut, size_t offset, cufftComplex element, void *callerInfo,
                                    void *sharedPointer);
typedef void (*cufftCallbackStoreZ)(void *dataOut, size_t offset, cufftDoubleComplex element, void *callerInfo,
                                    void *sharedPointer);
typedef void (*cufftCallbackStoreR)(void *dataOut, size_t offset, cufftReal element, void *callerInfo,
                                    void *sharedPointer);
typedef void (*cufftCallbackStoreD)(void *dataOut, size_t offset, cufftDoubleReal element, void *callerInfo,
                                    void *sharedPointer);
cufftResult cufftXtSetCallback(cufftHandle plan, void **callback_routine, cufftXtCallbackType cbType,
                               void **caller_info);
cufftResult cufftXtClearCallback(cufftHandle plan, cufftXtCallbackType cbType);
cufftResult cufftXtSetCallbackSharedSize(cufftHandle plan, cufftXtCallbackType cbType, size_t sharedSize);

/* LTO callbacks: device functions of these types compiled to LTO-IR
 * (nvcc -dc -dlto, or NVRTC -dlto), given in a fatbin with their name;
 * the offset is in elements of the data's type */
typedef cufftComplex (*cufftJITCallbackLoadC)(void *dataIn, unsigned long long offset, void *callerInfo,
                                              void *sharedPointer);
typedef cufftDoubleComplex (*cufftJITCallbackLoadZ)(void *dataIn, unsigned long long offset, void *callerInfo,
                                                    void *sharedPointer);
typedef cufftReal (*cufftJITCallbackLoadR)(void *dataIn, unsigned long long offset, void *callerInfo,
                                           void *sharedPointer);
typedef cufftDoubleReal (*cufftJITCallbackLoadD)(void *dataIn, unsigned long long offset, void *callerInfo,
                                                 void *sharedPointer);
typedef void (*cufftJITCallbackStoreC)(void *dataOut, unsigned long long offset, cufftComplex element,
                                       void *callerInfo, void *sharedPointer);
typedef void (*cufftJITCallbackStoreZ)(void *dataOut, unsigned long long offset, cufftDoubleComplex element,
                                       void *callerInfo, void *sharedPointer);
typedef void (*cufftJITCallbackStoreR)(void *dataOut, unsigned long long offset, cufftReal element,
                                       void *callerInfo, void *sharedPointer);
typedef void (*cufftJITCallbackStoreD)(void *dataOut, unsigned long long offset, cufftDoubleReal element,
                                       void *callerInfo, void *sharedPointer);
cufftResult cufftXtSetJITCallback(cufftHandle plan, const char *lto_callback_symbol_name,
                                  const void *lto_callback_fatbin, size_t lto_callback_fatbin_size,
                                  cufftXtCallbackType type, void **caller_info);

#ifdef __cplusplus
}
#endif

#endif
