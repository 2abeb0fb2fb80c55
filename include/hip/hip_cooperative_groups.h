/* hip/hip_cooperative_groups.h — HIP's cooperative groups are CUDA's
 * (cooperative_groups.h: thread blocks, tiles, coalesced groups, reduce and
 * scan; no grid-wide sync) */
#ifndef MC_HIP_COOPERATIVE_GROUPS_H
#define MC_HIP_COOPERATIVE_GROUPS_H
#include "hip_runtime.h"
#include "../cooperative_groups.h"
#endif
