/* main.cpp — plain C++: makes the data, checks the device's sum and maximum
 * against its own. */
#include "reduce.h"

#include <algorithm>
#include <cstdio>

int main()
{
   std::vector<int> v(1000003);
   unsigned x = 7;
   for (auto &e : v) {
      x = x * 1103515245u + 12345u;
      e = (int)(x >> 8) % 2000001 - 1000000;
   }
   reduction got{};
   if (!device_reduce(v, got)) {
      std::printf("FAIL: a CUDA call failed\n");
      return 1;
   }
   long long sum = 0;
   for (int e : v)
      sum += e;
   int mx = *std::max_element(v.begin(), v.end());
   if (got.sum != sum || got.max != mx) {
      std::printf("FAIL: sum %lld max %d, expected %lld and %d\n", got.sum, got.max, sum, mx);
      return 1;
   }
   std::printf("PASS: sum %lld and maximum %d of %zu ints match the host's\n", sum, mx, v.size());
   return 0;
}
