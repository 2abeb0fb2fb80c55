/*
 * lt_values.h — the cublasLt tests' element types as doubles and back:
 * val() reads a float, double, __half or __nv_bfloat16 exactly; from<T>()
 * rounds a double to T (to nearest even).  Include after cuda_fp16.h and
 * cuda_bf16.h.
 */
#ifndef TESTS_LIBS_LT_VALUES_H
#define TESTS_LIBS_LT_VALUES_H

static double val(float v) { return v; }
static double val(double v) { return v; }
static double val(__half v) { return (double)__half2float(v); }
static double val(__nv_bfloat16 v) { return (double)__bfloat162float(v); }
template <class T> static T from(double v);
template <> float from<float>(double v) { return (float)v; }
template <> double from<double>(double v) { return v; }
template <> __half from<__half>(double v) { return __double2half(v); }
template <> __nv_bfloat16 from<__nv_bfloat16>(double v) { return __double2bfloat16(v); }

#endif
