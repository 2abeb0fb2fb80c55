#ifndef _MC_SYS_TYPES_H
#define _MC_SYS_TYPES_H
#include "../_mc_types.h"
#endif
