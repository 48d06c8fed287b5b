// What warpfix does since: a loop's init, condition (before each iteration
// and at the exit) and increment are walked for accesses, and an increment
// it cannot follow leaves the counter unknown for one more pass. countUp
// gets a barrier before the while loop; rounds is reported without a fix
// (no single place separates the increment's store from the body's read).
// 2 findings, 1 fixed, 1 remain.
//
// Red team, helpers called from a loop's header: warpfix's walk of a loop
// visits its body only, never its condition or its increment (nor a for's
// init), so the shared accesses of `while (below(s, t ^ 2, k))` and of the
// increment `++k, publish(s, t, acc)` are not in its model.
//  - countUp: put(s, t, v); a = get(s, t ^ 1); put(s, t, a + v); then
//    `while (below(s, t ^ 2, k)) ++k;` reads s[t ^ 2], which lane t ^ 2 has
//    just stored (RAW).
//  - rounds: four rounds of `acc += get(s, t ^ 1)` in the body, with
//    `publish(s, t, acc)` in the for's increment: iteration k's publish
//    races with iteration k + 1's get (RAW), and iteration k's get with the
//    neighbour's publish right after it (WAR). The comma increment also
//    stops the unrolling after one iteration.
// warpfix fixes the races it sees and says 2 findings fixed, 0 remain:
//      put(s, t, v);
//   +  __syncwarp(0xffffffff);
//      int a = get(s, t ^ 1);
//   +  __syncwarp(0xffffffff);
//      put(s, t, a + v);
//      int k = 0;
//      while (below(s, t ^ 2, k))
//    ...
//      publish(s, t, acc);
//   +  __syncwarp(0xffffffff);
//      for (int k = 0; k < 4; ++k, publish(s, t, acc))
//        acc += get(s, t ^ 1);
// WRONG (a false claim): countUp has no barrier between `put(s, t, a + v)`
// and the loop condition's read of s[t ^ 2]; rounds has none between the
// increment's store of s[t] and the next iteration's read of s[t ^ 1] (nor
// between that read and the neighbour's next store).
//
// What the legacy code computed: lockstep; countUp gives
// c[j ^ 1] + c[j], j = i ^ 2 (inputs 0..40); rounds gives four rounds of
// acc[i] += acc[i ^ 1] over the whole block (0 past n). Blocks are
// multiples of 4.
//
// Expected on the GPU: outputs match; racecheck reports hazards between
// put/publish (`s[i] = v`) and below/get in the rewritten program, for
// which warpfix reports nothing left.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

__device__ void put(volatile int *s, int i, int v) { s[i] = v; }
__device__ int get(const volatile int *s, int i) { return s[i]; }
__device__ void publish(volatile int *s, int i, int v) { s[i] = v; }
__device__ bool below(const volatile int *s, int i, int k) { return k < s[i]; }

// Counts up to a neighbour's sum in a while loop whose condition reads it.
__global__ void countUp(const int *in, int *out, int n) {
  __shared__ int s[kMaxBlock];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  put(s, t, v);
  int a = get(s, t ^ 1);
  put(s, t, a + v);
  int k = 0;
  while (below(s, t ^ 2, k))
    ++k;
  if (i < n)
    out[i] = k;
}

// Four rounds of acc += neighbour's acc; the increment publishes acc.
__global__ void rounds(const int *in, int *out, int n) {
  __shared__ int s[kMaxBlock];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int acc = i < n ? in[i] : 0;
  publish(s, t, acc);
  for (int k = 0; k < 4; ++k, publish(s, t, acc))
    acc += get(s, t ^ 1);
  if (i < n)
    out[i] = acc;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 4 == 0, "lanes ^ 1 and ^ 2 must exist");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  std::vector<int> counts = harness::randomInts(rng, s.n, 0, 40);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> wantCount(s.n), wantRounds(s.n);
  auto count = [&](int j) { return j < s.n ? counts[j] : 0; };
  for (int i = 0; i < s.n; ++i) {
    int j = i ^ 2;
    wantCount[i] = count(j ^ 1) + count(j);
  }
  // Lockstep: every lane adds its neighbour's acc, then every lane publishes.
  int total = s.blockSize * s.numBlocks;
  std::vector<int> acc(total);
  for (int i = 0; i < total; ++i)
    acc[i] = i < s.n ? in[i] : 0;
  for (int k = 0; k < 4; ++k) {
    std::vector<int> next(total);
    for (int i = 0; i < total; ++i)
      next[i] = acc[i] + acc[i ^ 1];
    acc = next;
  }
  for (int i = 0; i < s.n; ++i)
    wantRounds[i] = acc[i];
  harness::DeviceArray<int> dCounts(counts), dIn(in), dCount(s.n), dRounds(s.n);
  return harness::run(s,
                      {harness::expect("countUp", dCount, wantCount),
                       harness::expect("rounds", dRounds, wantRounds)},
                      [&] {
                        countUp<<<s.numBlocks, s.blockSize>>>(dCounts.get(), dCount.get(), s.n);
                        rounds<<<s.numBlocks, s.blockSize>>>(dIn.get(), dRounds.get(), s.n);
                      });
}
