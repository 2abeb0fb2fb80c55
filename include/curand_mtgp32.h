/*
 * curand_mtgp32.h — metalcuda's cuRAND MTGP32 types, for programs built by
 * metalcuda's own nvcc: the parameter set (mtgp32_params_fast_t), the
 * device-side parameter tables (mtgp32_kernel_params_t) and the state
 * (curandStateMtgp32_t), in NVIDIA's layouts, written from the cuRAND
 * documentation of the MTGP32 device API and Saito and Matsumoto's MTGP
 * (ACM TOMS 39, 2013; Mersenne exponent 11213, a state of 351 words kept
 * in a ring of 1024).  The 200 parameter sets themselves,
 * curand_mtgp32dc_p_11213.h, are generated when metalcuda is built, from
 * an installed CUDA toolkit's copy (tools/gen_mtgp_table.py): nothing of
 * them is in metalcuda's sources.
 */
#ifndef MC_CURAND_MTGP32_H
#define MC_CURAND_MTGP32_H
#define CURAND_MTGP32_H

#define MTGPDC_MEXP 11213
#define MTGPDC_N 351
#define MTGPDC_FLOOR_2P 256
#define MTGPDC_CEIL_2P 512
#define MTGPDC_PARAM_TABLE mtgp32dc_params_fast_11213
#define MTGP32_STATE_SIZE 1024
#define MTGP32_STATE_MASK 1023
#define CURAND_NUM_MTGP32_PARAMS 200
#define MEXP 11213
#define THREAD_NUM MTGPDC_FLOOR_2P
#define LARGE_SIZE (THREAD_NUM * 3)
#define TBL_SIZE 16

/* one parameter set: the recursion's shifts and pick-up position, its
 * matrix, the tempering matrix and that matrix for floats in [1, 2) */
struct mtgp32_params_fast {
   int mexp;
   int pos;
   int sh1;
   int sh2;
   unsigned int tbl[16];
   unsigned int tmp_tbl[16];
   unsigned int flt_tmp_tbl[16];
   unsigned int mask;
   unsigned char poly_sha1[21];
};
typedef struct mtgp32_params_fast mtgp32_params_fast_t;

/* the parameter sets as the device reads them (curandMakeMTGP32Constants) */
struct mtgp32_kernel_params {
   unsigned int pos_tbl[CURAND_NUM_MTGP32_PARAMS];
   unsigned int param_tbl[CURAND_NUM_MTGP32_PARAMS][TBL_SIZE];
   unsigned int temper_tbl[CURAND_NUM_MTGP32_PARAMS][TBL_SIZE];
   unsigned int single_temper_tbl[CURAND_NUM_MTGP32_PARAMS][TBL_SIZE];
   unsigned int sh1_tbl[CURAND_NUM_MTGP32_PARAMS];
   unsigned int sh2_tbl[CURAND_NUM_MTGP32_PARAMS];
   unsigned int mask[1];
};
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;

/* a block's state: the ring, where the block stands in it, its parameter
 * set and the tables */
struct curandStateMtgp32 {
   unsigned int s[MTGP32_STATE_SIZE];
   int offset;
   int pIdx;
   mtgp32_kernel_params_t *k;
};
typedef struct curandStateMtgp32 curandStateMtgp32_t;

#endif
