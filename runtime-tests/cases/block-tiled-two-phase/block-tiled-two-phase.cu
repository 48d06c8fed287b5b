// A batched tiled product, two phases per tile: each block multiplies its
// own 16 x K slice of A by a K x 16 slice of B, loading one 16 x 16 tile of
// each into shared memory per step, then reading a row of one and a column
// of the other. The barrier after the reads is missing, so the next step's
// loads overwrite a column that slower warps still read: B's column was
// stored by the threads of other rows, other warps. warpfix's
// block-missing-syncthreads puts a __syncthreads() at the end of the loop
// body, which every thread reaches K / 16 times.
//
// Shapes: blocks of 16 x 16 threads (blockSize 256); n is K, a multiple of
// 16.
//
// @shapes 256x8:64 256x3:160 256x40:32
// @sanitize 256x2:48
// @time 256x512:256 grow=blocks
// @original racy
#include "../../harness.h"

#define TILE 16

__global__ void tiledProduct(const int *A, const int *B, int *C, int K) {
  __shared__ int As[TILE][TILE];
  __shared__ int Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  const int *a = A + (size_t)blockIdx.x * TILE * K;
  const int *b = B + (size_t)blockIdx.x * K * TILE;
  int sum = 0;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = a[ty * K + k0 + tx];
    Bs[ty][tx] = b[(k0 + ty) * TILE + tx];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
  }
  C[(size_t)blockIdx.x * TILE * TILE + ty * TILE + tx] = sum;
}

static std::vector<int> reference(const std::vector<int> &A, const std::vector<int> &B,
                                  int blocks, int K) {
  std::vector<int> C((size_t)blocks * TILE * TILE);
  for (int g = 0; g < blocks; ++g)
    for (int r = 0; r < TILE; ++r)
      for (int c = 0; c < TILE; ++c) {
        int sum = 0;
        for (int k = 0; k < K; ++k)
          sum += A[(size_t)g * TILE * K + r * K + k] * B[(size_t)g * K * TILE + k * TILE + c];
        C[(size_t)g * TILE * TILE + r * TILE + c] = sum;
      }
  return C;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == TILE * TILE, "blocks of 16 x 16 threads");
  harness::require(s.n > 0 && s.n % TILE == 0, "K is a multiple of 16");
  harness::Rng rng(s.seed);
  int count = s.numBlocks * TILE * s.n;
  std::vector<int> A = harness::randomInts(rng, count, -9, 9);
  std::vector<int> B = harness::randomInts(rng, count, -9, 9);
  std::vector<int> want = reference(A, B, s.numBlocks, s.n);
  harness::DeviceArray<int> dA(A), dB(B), dC(want.size());
  return harness::run(s, {harness::expect("C", dC, want)}, [&] {
    tiledProduct<<<s.numBlocks, dim3(TILE, TILE)>>>(dA.get(), dB.get(), dC.get(), s.n);
  });
}
