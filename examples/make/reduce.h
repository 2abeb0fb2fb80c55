/* reduce.h — the sum and the maximum of a vector of ints, on the device */
#pragma once
#include <vector>

struct reduction { long long sum; int max; };
/* false on a CUDA error */
bool device_reduce(const std::vector<int> &v, reduction &out);
