/*
 * driver_types.h — the runtime's types, enums and constants.  They come from
 * crt/cuabi.h, the one declaration of the CUDA ABI that metalcuda's
 * libraries are compiled from (src/api/cuabi.h), so a program and the
 * library cannot disagree on a value or a layout.
 */
#ifndef MC_DRIVER_TYPES_H
#define MC_DRIVER_TYPES_H
#define __DRIVER_TYPES_H__ /* NVIDIA's include guard, which libraries test */

#include "vector_types.h"
#include "crt/cuabi.h"

#ifndef CUDART_CB
#define CUDART_CB
#endif

#endif
