/*
 * cuda.h — the CUDA Driver API: the ABI types of crt/cuabi.h (which also
 * defines CUDA_VERSION) and the functions libcuda implements
 * (crt/mc_driver_api.h, generated).  Link with -lcuda.
 */
#ifndef MC_CUDA_H
#define MC_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "vector_types.h"
#include "crt/cuabi.h"
#include "crt/mc_driver_api.h"
#include "crt/mc_driver_stubs.h"

#endif
