// Issue 13, pattern 2: an exit of the loop iteration nested in a switch. Each
// thread interprets a short program of opcodes; in runPrograms, a no-op
// (`case 0: continue;`) skips the rest of the step, so the legacy __ballot
// after the switch counts only the lanes that executed an instruction this
// step. An exit finder that treats the switch as nested and ignores its
// `continue` believes every lane reaches the ballot and writes a full mask.
// decodePairs is the other side: its switch only has `break`s, so every lane
// reaches the __shfl_xor after it, and the full mask is right there.
//
// What the legacy code computed: in runPrograms, each step's ballot is over
// the lanes whose opcode was not 0 (threads past n have only no-ops); in
// decodePairs, lane ^ 1 is always present (every warp has an even number of
// lanes in these shapes), so the exchange is defined.
//
// Shapes: any even block size; 48 and 100 give partial warps of 16 and 4
// lanes. Threads past n run no-ops in runPrograms and decode a 0 in
// decodePairs.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576 max-n=268435456
#include "../../harness.h"

constexpr int kSteps = 6;

__global__ void runPrograms(const int *ops, int *acc, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int a = gid;
  for (int step = 0; step < kSteps; ++step) {
    int op = gid < n ? ops[gid * kSteps + step] : 0;
    switch (op) {
    case 0: // no-op: nothing to publish this step
      continue;
    case 1:
      a += step;
      break;
    case 2:
      a ^= 5;
      break;
    default:
      a -= op;
      break;
    }
    unsigned odd = __ballot(a & 1);
    a += __popc(odd);
  }
  if (gid < n)
    acc[gid] = a;
}

__global__ void decodePairs(const int *codes, int *pairSums, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int c = gid < n ? codes[gid] : 0;
  int w;
  switch (c & 3) {
  case 0:
    w = c;
    break;
  case 1:
    w = -c;
    break;
  case 2:
    w = 2 * c;
    break;
  default:
    w = 7;
    break;
  }
  int partner = __shfl_xor(w, 1);
  if (gid < n)
    pairSums[gid] = 10 * w + partner;
}

static int decode(int c) {
  switch (c & 3) {
  case 0: return c;
  case 1: return -c;
  case 2: return 2 * c;
  default: return 7;
  }
}

struct Expected {
  std::vector<int> acc, pairSums;
};

static Expected reference(const std::vector<int> &ops, const std::vector<int> &codes,
                          const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < harness::warpsPerBlock(s.blockSize); ++w) {
      int first = b * s.blockSize + w * 32, lanes = harness::lanesInWarp(s.blockSize, w);
      std::vector<int> a(lanes);
      for (int lane = 0; lane < lanes; ++lane)
        a[lane] = first + lane;
      for (int step = 0; step < kSteps; ++step) {
        auto op = [&](int lane) {
          int gid = first + lane;
          return gid < s.n ? ops[gid * kSteps + step] : 0;
        };
        unsigned odd = 0;
        for (int lane = 0; lane < lanes; ++lane) {
          int o = op(lane);
          if (o == 0)
            continue;
          a[lane] = o == 1 ? a[lane] + step : o == 2 ? a[lane] ^ 5 : a[lane] - o;
          odd |= (unsigned)(a[lane] & 1) << lane;
        }
        for (int lane = 0; lane < lanes; ++lane)
          if (op(lane) != 0)
            a[lane] += __builtin_popcount(odd);
      }
      for (int lane = 0; lane < lanes; ++lane) {
        int gid = first + lane;
        if (gid >= s.n)
          continue;
        e.acc[gid] = a[lane];
        int partner = (gid ^ 1) < s.n ? codes[gid ^ 1] : 0;
        e.pairSums[gid] = 10 * decode(codes[gid]) + decode(partner);
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 2 == 0, "decodePairs reads lane ^ 1, which must be present");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  // Opcodes 0 to 4: about one step in five is a no-op.
  std::vector<int> ops = harness::randomInts(rng, kSteps * s.n, 0, 4);
  std::vector<int> codes = harness::randomInts(rng, s.n, -1000, 1000);
  Expected want = reference(ops, codes, s);
  harness::DeviceArray<int> dOps(ops), dCodes(codes), dAcc(s.n), dPairs(s.n);
  return harness::run(s,
                      {harness::expect("acc", dAcc, want.acc),
                       harness::expect("pairSums", dPairs, want.pairSums)},
                      [&] {
                        runPrograms<<<s.numBlocks, s.blockSize>>>(dOps.get(), dAcc.get(), s.n);
                        decodePairs<<<s.numBlocks, s.blockSize>>>(dCodes.get(), dPairs.get(),
                                                                  s.n);
                      });
}
