// The thread-named runtime calls that CUDA 13 removed, around a kernel: the
// heap limit set with cudaThreadSetLimit and read back with
// cudaThreadGetLimit decides whether each thread's malloc may succeed, the
// cache preference goes through cudaThreadSet/GetCacheConfig, and every
// launch ends with cudaThreadSynchronize. warpfix renames each call to the
// name CUDA 4 gave it (::cudaDeviceSetLimit, ...), which the runtime's
// reference calls identical in function; the outputs show the limit that
// the device really has, so a rename that set or read another limit would
// change them.
//
// Shapes: any block size; threads past n write nothing.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

// 64 MiB of device heap: more than the 8 MiB default, so that the limit
// read back differs from the default if the set were lost.
static const size_t kHeapBytes = size_t(64) << 20;

__global__ void scratchSums(int *out, int n, size_t heapLimit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // Each thread's scratch: 4 ints, from the heap the host sized.
  int *scratch = heapLimit >= kHeapBytes ? (int *)malloc(4 * sizeof(int)) : nullptr;
  int v = -1;
  if (scratch) {
    for (int k = 0; k < 4; ++k)
      scratch[k] = i + k;
    v = scratch[0] + scratch[1] + scratch[2] + scratch[3];
    free(scratch);
  }
  out[i] = v;
}

static std::vector<int> reference(const harness::Shape &s, size_t heapLimit) {
  std::vector<int> out(s.n);
  for (int i = 0; i < s.n; ++i)
    out[i] = heapLimit >= kHeapBytes ? 4 * i + 6 : -1;
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  if (cudaThreadSetLimit(cudaLimitMallocHeapSize, kHeapBytes) != cudaSuccess)
    return 1;
  size_t heap = 0;
  if (cudaThreadGetLimit(&heap, cudaLimitMallocHeapSize) != cudaSuccess)
    return 1;
  printf("HEAP_LIMIT %zu\n", heap);
  cudaFuncCache preferred = cudaFuncCachePreferNone;
  if (cudaThreadSetCacheConfig(cudaFuncCachePreferL1) != cudaSuccess ||
      cudaThreadGetCacheConfig(&preferred) != cudaSuccess)
    return 1;
  printf("CACHE_CONFIG %d\n", (int)preferred);
  int status;
  {
    harness::DeviceArray<int> dOut(s.n);
    status = harness::run(s, {harness::expect("out", dOut, reference(s, heap))}, [&] {
      scratchSums<<<s.numBlocks, s.blockSize>>>(dOut.get(), s.n, heap);
      cudaThreadSynchronize();
    });
  }
  // After the device memory is freed: a reset frees what is left.
  cudaThreadExit();
  return status;
}
