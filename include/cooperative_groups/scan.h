/* cooperative_groups/scan.h: part of ../cooperative_groups.h (one header holds the whole in-block API) */
#include "../cooperative_groups.h"
