// What warpfix does since: a case label or a label anywhere in a statement
// between a store and the launch lets control in after the store, so the
// store is not certain: headerSumSwitch gets a ballot (this also holds for
// a dim3 built field by field); headerSumPlain48 still evaluates.
//
// Red team: a case label nested inside an `if` (Duff's device style) that
// jumps past the store warpfix takes for the last one. warpfix's walk back
// from the launch gives up at a case label only where the label is a whole
// statement of the block it walks (or an ancestor of the launch); a label
// buried inside an earlier `if` is not seen, and the store above that `if`
// is taken as certain to precede the launch. But `switch (entry)` with
// entry == 1 enters at `case 1:` inside the `if`, skipping
// `config.blockDim = dim3(64)`: the launch then uses the 48 stored before the
// switch.
//
//   config.blockDim = dim3(48);
//   switch (entry) {
//   default:
//     config.gridDim = dim3((n + 63) / 64);
//     config.blockDim = dim3(64);
//     if (entry == 1) {
//     case 1:
//       config.gridDim = dim3(numBlocks);
//     }
//     cudaLaunchKernelEx(&config, headerSumSwitch, ...);
//   }
//
// main runs it with entry 0 (the default path: 64 threads, which warpfix
// evaluates exactly; whole warps) and entry 1 (48 threads: the attack).
// Exact launch: headerSumPlain48, whose config's last store, straight before
// the launch, is dim3(48): warpfix must keep the whole-warp assumption off.
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

__global__ void headerSumSwitch(const int *in, int *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = gid < n ? in[gid] : 0;
  if (gid < 64) {
    for (int mask = 8; mask > 0; mask >>= 1)
      v += __shfl_xor(v, mask, 16);
  }
  if (gid < n)
    out[gid] = v;
}

__global__ void headerSumPlain48(const int *in, int *out, int n) {
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

static void launchSwitch(int entry, int numBlocks, const int *in, int *out, int n) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(numBlocks);
  config.blockDim = dim3(48);
  switch (entry) {
  default:
    config.gridDim = dim3((n + 63) / 64);
    config.blockDim = dim3(64);
    if (entry == 1) {
    case 1:
      config.gridDim = dim3(numBlocks);
    }
    CHECK_CUDA(cudaLaunchKernelEx(&config, headerSumSwitch, in, out, n));
  }
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 48, "the attacked launch uses blocks of 48 threads");
  harness::require((long long)s.numBlocks * 48 >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> want = reference(in);
  harness::DeviceArray<int> dIn(in), dDefault(s.n), dEntered(s.n), dPlain(s.n);
  const int *pin = dIn.get();
  int n = s.n;
  // Not a constant the host compiler could fold: the entry comes from the
  // shape, and is 1 for every shape this case runs.
  volatile int entered = s.blockSize == 48 ? 1 : 0;
  return harness::run(s,
                      {harness::expect("default64", dDefault, want),
                       harness::expect("entered48", dEntered, want),
                       harness::expect("plain48", dPlain, want)},
                      [&] {
                        launchSwitch(0, s.numBlocks, pin, dDefault.get(), n);
                        launchSwitch(entered, s.numBlocks, pin, dEntered.get(), n);
                        cudaLaunchConfig_t plain = {};
                        plain.gridDim = dim3(s.numBlocks);
                        plain.blockDim = dim3(48);
                        CHECK_CUDA(cudaLaunchKernelEx(&plain, headerSumPlain48, pin, dPlain.get(), n));
                      });
}
