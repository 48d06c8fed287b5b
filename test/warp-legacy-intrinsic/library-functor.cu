// CUB's WarpReduce runs the user's reduction operator in its own loop, where
// only some lanes may call it. Before warpfix followed the toolkit's template
// instantiations, the operator looked called by the kernel alone, in every
// lane, and got the full mask.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=0xffffffff
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %s %t/k.cu
#include <cub/warp/warp_reduce.cuh>

struct MaxOfNeighbour {
  __device__ int operator()(int a, int b) const {
    return __shfl_xor(a, 1) > b ? a : b;
  }
};

__global__ void k(int *p) {
  typedef cub::WarpReduce<int> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  int v = Reduce(temp).Reduce(p[threadIdx.x], MaxOfNeighbour());
  p[threadIdx.x] = MaxOfNeighbour()(v, 1);
}

// CHECK: :13:12: warning: '__shfl_xor' is a legacy warp intrinsic
// CHECK: cub/{{.*}}: note: no automatic fix: 'operator()' is called from a system header here, whose code warpfix does not analyse, so the lanes that reach it are unknown
// CHECK: :13:12: note: candidate rewrite: __shfl_xor_sync(<mask>, ...)
