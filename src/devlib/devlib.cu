/*
 * devlib.cu — the whole device library as one translation unit, which the
 * Makefile compiles to lib/metalcuda/devlib.bc (LLVM bitcode for NVPTX).
 */
#include "math_explog.cu"
#include "math_trig.cu"
#include "math_hyper.cu"
#include "math_float.cu"
#include "exact.cu"
#include "intrin.cu"
#include "math_special.cu"
