/* main.cpp — plain C++: makes data, asks the CUDA library for its
 * histogram and checks it against one counted here. */
#include "histo.h"

#include <cstdio>

int main()
{
   std::vector<unsigned char> data(1 << 20);
   unsigned x = 12345;
   for (auto &b : data) {
      x = x * 1664525u + 1013904223u;
      b = (unsigned char)(x >> 24);
   }
   std::vector<unsigned> got, want(256, 0);
   for (unsigned char b : data)
      want[b]++;
   if (!device_histogram(data, got)) {
      std::printf("FAIL: a CUDA call failed\n");
      return 1;
   }
   for (int i = 0; i < 256; i++)
      if (got[i] != want[i]) {
         std::printf("FAIL: bin %d: got %u, expected %u\n", i, got[i], want[i]);
         return 1;
      }
   std::printf("PASS: 256 bins of %zu bytes match the host's count\n", data.size());
   return 0;
}
