/* histo.h — a 256-bin byte histogram on the device; plain C++ callers */
#pragma once
#include <cstddef>
#include <vector>

/* counts of each byte value of data, computed by a CUDA kernel; false on a CUDA error */
bool device_histogram(const std::vector<unsigned char> &data, std::vector<unsigned> &counts);
