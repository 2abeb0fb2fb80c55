/*
 * cuabi_dump — prints the ABI facts of src/api/cuabi.h (or, built with
 * -DCUABI_NVIDIA -I<cuda>/include, of NVIDIA's headers), one per line; see
 * cuabi_dump.h.  tests/unit/test_cuabi.c builds and compares both.
 */
#include "cuabi_dump.h"

static void print_line(const char *line, void *data)
{
   (void)data;
   puts(line);
}

int main(void)
{
   cuabi_dump(print_line, NULL);
   return 0;
}
