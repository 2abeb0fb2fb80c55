/*
 * cuda_pipeline.h — the pipeline primitives (cuda_pipeline_primitives.h).
 * NVIDIA's header adds the experimental nvcuda::experimental::pipeline
 * class over them, which is not here: cuda::pipeline (CCCL's
 * <cuda/pipeline>) is its documented successor.
 */
#ifndef MC_CUDA_PIPELINE_H
#define MC_CUDA_PIPELINE_H
#include "cuda_pipeline_primitives.h"
#endif
