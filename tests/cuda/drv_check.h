/*
 * drv_check.h — CHECK_CU(call, want): check.h's check of a driver API
 * result, for the programs that call libcuda themselves.
 */
#ifndef TESTS_CUDA_DRV_CHECK_H
#define TESTS_CUDA_DRV_CHECK_H

#include "check.h"

#include <cuda.h>

static inline void check_cu(CUresult got, CUresult want, const char *what, int line)
{
   check_int((long long)got, (long long)want, what, __FILE__, line);
}
#define CHECK_CU(call, want) check_cu((call), (want), #call, __LINE__)

#endif
