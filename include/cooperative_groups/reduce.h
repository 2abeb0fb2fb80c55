/* cooperative_groups/reduce.h: part of ../cooperative_groups.h (one header holds the whole in-block API) */
#include "../cooperative_groups.h"
