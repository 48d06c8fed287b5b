// What warpfix does since: a config whose blockDim is bound to a reference
// (a constructor's `dim3 &`, a `const dim3 &` that const_cast may write
// through) is not evaluated: both attacked kernels get a ballot, with "a
// block size that warpfix cannot evaluate"; the exact 48 still evaluates.
//
// Red team: cudaLaunchKernelEx whose config.blockDim is changed by a use that
// warpfix reads as a read. warpfix takes config.blockDim from the last store
// certain to precede the launch, provided every other use of the config is a
// store to a field, a read of one (an lvalue-to-rvalue or no-op cast, or a
// CXXConstructExpr above the member), or `&config` given to the launch.
//
// Attacks:
//  - headerSumCtor: `config.blockDim = dim3(64); FitTo48 fit(config.blockDim);`
//    FitTo48's constructor takes `dim3 &` and sets .x = 48. The member
//    expression sits directly under a CXXConstructExpr, which warpfix takes
//    for a copy; the store of 64 then looks last. The launch has 48 threads.
//  - headerSumConstRef: `config.blockDim = dim3(64); trimTo48(config.blockDim);`
//    trimTo48 takes `const dim3 &` (a no-op cast above the member, read as a
//    load) and const_casts it to set .x = 48 (legal: the object is not const).
//    The launch has 48 threads.
// Exact launches (what warpfix must get right):
//  - headerSumCtor is also launched with `cudaLaunchConfig_t wide =
//    {dim3(g), dim3(64)}` (an initializer, 64 threads).
//  - headerSumExact48 is launched with `config.blockDim = dim3(48);`, the
//    last store: warpfix must see a 48-thread block and keep the whole-warp
//    assumption off (a ballot of `gid < 64`, not the full mask).
//
// Each kernel: elements gid < 64 are header rows, summed per row of 16 with a
// width-16 __shfl_xor butterfly inside `if (gid < 64)`; other elements are
// copied. With blocks of 48, the warp of gid 48..79 has lanes 0-15 inside the
// branch and lanes 16-31 outside. What the legacy code computed: the
// butterfly runs over the active lanes, and every row of 16 lies in one
// 16-lane segment that is wholly inside the branch, so header elements get
// their row's sum (threads past n take part with 0), the rest their input.
// A full mask in the branch names lanes 16-31 of that warp, which never reach
// the shuffle: undefined (synccheck should report it, or the warp may hang).
//
// Shapes: blocks of 48 (the attacked launches; the 64-thread launch uses a
// grid of its own).
//
// @shapes 48x40:1900 48x100:4700 48x3:100 48x2:70
// @sanitize 48x4:190
// @time 48x4096:196608
#include "../../harness.h"


__global__ void headerSumCtor(const int *in, int *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  if (gid < 64) {
    for (int mask = 8; mask > 0; mask >>= 1)
      v += __shfl_xor(v, mask, 16);
  }
  if (gid < n)
    out[gid] = v;
}

__global__ void headerSumConstRef(const int *in, int *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  if (gid < 64) {
    for (int mask = 8; mask > 0; mask >>= 1)
      v += __shfl_xor(v, mask, 16);
  }
  if (gid < n)
    out[gid] = v;
}

__global__ void headerSumExact48(const int *in, int *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  if (gid < 64) {
    for (int mask = 8; mask > 0; mask >>= 1)
      v += __shfl_xor(v, mask, 16);
  }
  if (gid < n)
    out[gid] = v;
}

// Fits a block to 48 threads, in place.
struct FitTo48 {
  explicit FitTo48(dim3 &block) { block.x = 48; }
};

// Takes the block as const, and changes it anyway (the object is not const).
static void trimTo48(const dim3 &block) { const_cast<dim3 &>(block).x = 48; }

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
  harness::require(s.blockSize == 48, "the attacked launches use blocks of 48 threads");
  harness::require((long long)s.numBlocks * 48 >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> want = reference(in);
  harness::DeviceArray<int> dIn(in), dCtor(s.n), dConstRef(s.n), dWide(s.n), dExact(s.n);
  const int *pin = dIn.get();
  int n = s.n;
  return harness::run(
      s,
      {harness::expect("ctor48", dCtor, want), harness::expect("constRef48", dConstRef, want),
       harness::expect("init64", dWide, want), harness::expect("exact48", dExact, want)},
      [&] {
        int *pCtor = dCtor.get(), *pConstRef = dConstRef.get(), *pWide = dWide.get(),
            *pExact = dExact.get();

        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(s.numBlocks);
        config.blockDim = dim3(64);
        FitTo48 fit(config.blockDim);
        CHECK_CUDA(cudaLaunchKernelEx(&config, headerSumCtor, pin, pCtor, n));

        cudaLaunchConfig_t trimmed = {};
        trimmed.gridDim = dim3(s.numBlocks);
        trimmed.blockDim = dim3(64);
        trimTo48(trimmed.blockDim);
        CHECK_CUDA(cudaLaunchKernelEx(&trimmed, headerSumConstRef, pin, pConstRef, n));

        cudaLaunchConfig_t wide = {dim3((n + 63) / 64), dim3(64)};
        CHECK_CUDA(cudaLaunchKernelEx(&wide, headerSumCtor, pin, pWide, n));

        cudaLaunchConfig_t exact = {};
        exact.gridDim = dim3(s.numBlocks);
        exact.blockDim = dim3(48);
        CHECK_CUDA(cudaLaunchKernelEx(&exact, headerSumExact48, pin, pExact, n));
      });
}
