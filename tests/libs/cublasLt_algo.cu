/*
 * cublasLt_algo.cu — cuBLASLt's algorithm calls, as an autotuning program
 * uses them: cublasLtMatmulAlgoGetIds for f32, cublasLtMatmulAlgoInit of
 * each id, its capabilities (the size query, the values' sizes, the tile
 * list, which may be empty, strided batches), its configuration read back (the id, split-K
 * 1) and set (a value of the wrong size refused), cublasLtMatmulAlgoCheck
 * on a problem (workspace no larger than the bound given), then
 * cublasLtMatmul with every algorithm the check accepts: D must be the
 * product.  Bad arguments: a NULL algo, a requested count of 0.
 *
 * Only what holds for any implementation is asserted: NVIDIA's library has
 * many algorithms, metalcuda's one (id 0).  Expected values: small
 * integers, so the product is exact whatever the algorithm's order of
 * accumulation, and D must equal the host's bit for bit.
 */
#include <cublasLt.h>
#include "../cuda/check.h"
#include "transfer.h"

#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

enum { M = 24, N = 20, K = 36, MAX_IDS = 64 };

int main(void)
{
   check_begin("cublasLt_algo");
   cublasLtHandle_t lt;
   CHECK_ST(cublasLtCreate(&lt), CUBLAS_STATUS_SUCCESS);
   int ids[MAX_IDS], nids = -1;
   CHECK_ST(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                     CUDA_R_32F, MAX_IDS, ids, &nids),
            CUBLAS_STATUS_SUCCESS);
   printf("  %d algorithm ids for f32\n", nids);
   CHECK(nids >= 1 && nids <= MAX_IDS);
   int none = -1, spare[1];
   CHECK_ST(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                     CUDA_R_32F, 0, spare, &none),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                   ids[0], NULL),
            CUBLAS_STATUS_INVALID_VALUE);

   std::vector<float> A(M * K), B(K * N), D(M * N), W(M * N);
   for (int i = 0; i < M * K; i++)
      A[i] = (float)((i * 7 + 3) % 9) - 4;
   for (int i = 0; i < K * N; i++)
      B[i] = (float)((i * 5 + 1) % 7) - 3;
   for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
         double s = 0;
         for (int k = 0; k < K; k++)
            s += (double)A[k * M + i] * B[j * K + k];
         W[j * M + i] = (float)s;
      }
   float *dA = dev(A), *dB = dev(B), *dD = dev(D);
   cublasLtMatmulDesc_t desc;
   CHECK_ST(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   cublasLtMatrixLayout_t la, lb, ld;
   CHECK_ST(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, M, K, M), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, K, N, K), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, M, N, M), CUBLAS_STATUS_SUCCESS);
   const size_t workspace_bound = 1 << 22;
   void *workspace;
   CHECK_CUDA(cudaMalloc(&workspace, workspace_bound));
   float one = 1, zero = 0;
   int accepted = 0, ran = 0;
   for (int t = 0; t < nids && t < MAX_IDS; t++) {
      cublasLtMatmulAlgo_t algo;
      CHECK_ST(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                      CUDA_R_32F, ids[t], &algo),
               CUBLAS_STATUS_SUCCESS);
      int32_t id = -1, splitk = -1, strided = -1;
      size_t w = 0;
      CHECK_ST(cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof(id), &w),
               CUBLAS_STATUS_SUCCESS);
      CHECK_INT(id, ids[t]);
      CHECK_INT(w, sizeof(id));
      CHECK_ST(cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof(splitk),
                                                    &w),
               CUBLAS_STATUS_SUCCESS);
      CHECK_INT(splitk, 1);
      int64_t wrong = 1;
      CHECK_ST(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &wrong, sizeof(wrong)),
               CUBLAS_STATUS_INVALID_VALUE);
      CHECK_ST(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof(splitk)),
               CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT, &strided,
                                                 sizeof(strided), &w),
               CUBLAS_STATUS_SUCCESS);
      CHECK_INT(w, sizeof(int32_t));
      w = 0;
      CHECK_ST(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_TILE_IDS, NULL, 0, &w),
               CUBLAS_STATUS_SUCCESS);
      CHECK(w % sizeof(uint32_t) == 0);   /* 0: an algorithm without a tile list (8 of 14 on an H200) */
      if (w) {
         std::vector<uint32_t> tiles(w / sizeof(uint32_t));
         size_t w2 = 0;
         CHECK_ST(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_TILE_IDS, tiles.data(), w, &w2),
                  CUBLAS_STATUS_SUCCESS);
         CHECK_INT(w2, w);
         /* configured with its first tile, as tuning loops do */
         CHECK_ST(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tiles[0],
                                                       sizeof(tiles[0])),
                  CUBLAS_STATUS_SUCCESS);
      }
      cublasLtMatmulHeuristicResult_t res;
      cublasStatus_t st = cublasLtMatmulAlgoCheck(lt, desc, la, lb, ld, ld, &algo, &res);
      if (st != CUBLAS_STATUS_SUCCESS || res.workspaceSize > workspace_bound)
         continue;   /* this algorithm does not take this problem */
      accepted++;
      CHECK_CUDA(cudaMemset(dD, 0xff, M * N * sizeof(float)));
      CHECK_ST(cublasLtMatmul(lt, desc, &one, dA, la, dB, lb, &zero, dD, ld, dD, ld, &res.algo, workspace,
                              workspace_bound, 0),
               CUBLAS_STATUS_SUCCESS);
      CHECK_CUDA(cudaDeviceSynchronize());
      std::vector<float> got = host(dD, M * N);
      int bad = 0;
      for (int i = 0; i < M * N; i++)
         bad += got[i] != W[i];
      CHECK_INT(bad, 0);
      ran++;
   }
   printf("  %d of %d algorithms accepted the %dx%dx%d problem and computed it\n", ran, nids, M, N, K);
   CHECK(accepted >= 1);
   cublasLtMatrixLayoutDestroy(la);
   cublasLtMatrixLayoutDestroy(lb);
   cublasLtMatrixLayoutDestroy(ld);
   cublasLtMatmulDescDestroy(desc);
   cudaFree(workspace);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dD);
   CHECK_ST(cublasLtDestroy(lt), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
