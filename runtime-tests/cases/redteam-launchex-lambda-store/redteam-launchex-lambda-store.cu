// What warpfix does since: a config that a lambda names is not evaluated
// (the lambda may store to it wherever it is called): headerSumLambda gets
// a ballot; the exact 48 of headerSumReuse48 still evaluates.
//
// Red team: a store to config.blockDim inside a lambda. warpfix records the
// lambda body's store (an implicit by-reference capture: the DeclRefExpr names
// the config itself, and RecursiveASTVisitor skips implicit captures, so no
// use of the config is left unexplained), but when it walks back from the
// launch it only asks whether an earlier statement *contains* a store. The
// call `narrow();` contains none; the store lives in the lambda's definition,
// two statements up. So `config.blockDim = dim3(64)` looks like the last
// store, while `narrow()` runs after it and sets 48.
//
// Attacked launch: headerSumLambda, through `config` after
//   auto narrow = [&] { config.blockDim = dim3(48); };
//   config.blockDim = dim3(64);
//   narrow();
//   cudaLaunchKernelEx(&config, headerSumLambda, ...);   // 48 threads
// Exact launches: the same config reused afterwards, with
// `config.blockDim = dim3(96);` directly before a second launch of
// headerSumLambda (96 threads: whole warps), and a second config for
// headerSumReuse48 whose last store is dim3(48), directly before its launch,
// where warpfix must keep the whole-warp assumption off.
//
// Each kernel: elements gid < 64 are header rows, summed per row of 16 with a
// width-16 __shfl_xor butterfly inside `if (gid < 64)`; other elements are
// copied. With blocks of 48, the warp of gid 48..79 has lanes 0-15 inside the
// branch and lanes 16-31 outside. What the legacy code computed: the
// butterfly runs over the active lanes, and every row of 16 lies in one
// 16-lane segment wholly inside the branch, so header elements get their
// row's sum (threads past n take part with 0), the rest their input. A full
// mask in the branch names lanes 16-31 of that warp, which never reach the
// shuffle: undefined (synccheck should report it, or the warp may hang).
//
// Shapes: blocks of 48 (the attacked launches; the exact launches use grids
// of their own where their block differs).
//
// @shapes 48x40:1900 48x100:4700 48x3:100 48x2:70
// @sanitize 48x4:190
// @time 48x4096:196608
#include "../../harness.h"

__global__ void headerSumLambda(const int *in, int *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  if (gid < 64) {
    for (int mask = 8; mask > 0; mask >>= 1)
      v += __shfl_xor(v, mask, 16);
  }
  if (gid < n)
    out[gid] = v;
}

__global__ void headerSumReuse48(const int *in, int *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  if (gid < 64) {
    for (int mask = 8; mask > 0; mask >>= 1)
      v += __shfl_xor(v, mask, 16);
  }
  if (gid < n)
    out[gid] = v;
}

static std::vector<int> reference(const std::vector<int> &in) {
  int n = (int)in.size();
  std::vector<int> out(n);
  for (int i = 0; i < n; ++i) {
    if (i < 64) {
      int sum = 0;
      for (int k = i / 16 * 16; k < i / 16 * 16 + 16 && k < n; ++k)
        sum += in[k];
      out[i] = sum;
    } else {
      out[i] = in[i];
    }
  }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 48, "the attacked launch uses blocks of 48 threads");
  harness::require((long long)s.numBlocks * 48 >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> want = reference(in);
  harness::DeviceArray<int> dIn(in), dLambda(s.n), dWide(s.n), dReuse(s.n);
  const int *pin = dIn.get();
  int n = s.n;
  return harness::run(s,
                      {harness::expect("lambda48", dLambda, want),
                       harness::expect("stored96", dWide, want),
                       harness::expect("reuse48", dReuse, want)},
                      [&] {
                        int *pLambda = dLambda.get(), *pWide = dWide.get(),
                            *pReuse = dReuse.get();
                        cudaLaunchConfig_t config = {};
                        config.gridDim = dim3(s.numBlocks);
                        auto narrow = [&] { config.blockDim = dim3(48); };
                        config.blockDim = dim3(64);
                        narrow();
                        CHECK_CUDA(cudaLaunchKernelEx(&config, headerSumLambda, pin, pLambda, n));

                        config.gridDim = dim3((n + 95) / 96);
                        config.blockDim = dim3(96);
                        CHECK_CUDA(cudaLaunchKernelEx(&config, headerSumLambda, pin, pWide, n));

                        cudaLaunchConfig_t again = {dim3(s.numBlocks), dim3(64)};
                        again.blockDim = dim3(48);
                        CHECK_CUDA(cudaLaunchKernelEx(&again, headerSumReuse48, pin, pReuse, n));
                      });
}
