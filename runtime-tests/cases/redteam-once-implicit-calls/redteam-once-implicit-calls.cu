// What warpfix does since: no fix. A default argument, a temporary's
// destructor and a constexpr function whose body calls what is not pure
// count as side effects.
//
// Red team, computed-once ballots: side effects of a branch condition that no
// CallExpr in it shows. warpfix evaluates a condition a second time (a plain
// ballot before the branch, then the branch's own test) only when that
// "changes nothing"; it accepts calls of constexpr functions and looks for
// side effects among the condition's own nodes. Two calls are not there:
//
//  - defaultArg: `if (evenAfter(bit))`, evenAfter a __device__ constexpr
//    function whose second parameter defaults to tick(), which takes a ticket
//    from the thread's counter. The default argument runs at each call site,
//    so the ballot takes ticket 0 and the branch ticket 1: the lanes flip,
//    and the arm's __shfl_xor_sync runs in lanes its mask does not name.
//  - destructor: `if (Visit{bit, i}.value != 0)`, a temporary whose destructor
//    counts the visit. The branch decision does not change, but every lane
//    counts two visits where the legacy code counted one.
//
// Computed once into a variable (the shape warpfix uses for conditions that
// read memory), both would be right.
//
// What the legacy code computed: each thread sets its counter to 0 and loads
// its pair's bit b (pairBits[i / 2]) into a register. defaultArg: the
// condition takes ticket 0, so pairs with b = 0 take the branch and add the
// partner's value; every counter ends at 1. destructor: pairs with b = 1 take
// the branch and add twice the partner's value; every counter ends at 1.
// Threads past n take part with v = 0; out holds the n in-range values.
//
// Shapes: even block sizes (a lane's pair partner must exist).
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

__device__ int *g_counters;

__device__ int tick() {
  return atomicAdd(&g_counters[blockIdx.x * blockDim.x + threadIdx.x], 1);
}

__device__ constexpr bool evenAfter(int x, int extra = tick()) { return ((x + extra) & 1) == 0; }

struct Visit {
  int value;
  int slot;
  __device__ ~Visit() { atomicAdd(&g_counters[slot], 1); }
};

__global__ void defaultArg(const int *in, const int *pairBits, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int bit = pairBits[i / 2];
  g_counters[i] = 0;
  if (evenAfter(bit)) {
    v += __shfl_xor(v, 1);
  }
  if (i < n)
    out[i] = v;
}

__global__ void destructor(const int *in, const int *pairBits, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int bit = pairBits[i / 2];
  g_counters[i] = 0;
  if (Visit{bit, i}.value != 0) {
    v += 2 * __shfl_xor(v, 1);
  }
  if (i < n)
    out[i] = v;
}

struct Expected {
  std::vector<int> evens, odds, counters;
};

static Expected reference(const std::vector<int> &in, const std::vector<int> &pairBits,
                          const harness::Shape &s) {
  int threads = s.blockSize * s.numBlocks;
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n), std::vector<int>(threads, 1)};
  auto at = [&](int i) { return i < s.n ? in[i] : 0; };
  for (int i = 0; i < s.n; ++i) {
    int b = pairBits[i / 2];
    e.evens[i] = b == 0 ? at(i) + at(i ^ 1) : at(i);
    e.odds[i] = b == 1 ? at(i) + 2 * at(i ^ 1) : at(i);
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::Rng rng(s.seed);
  int threads = s.blockSize * s.numBlocks;
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> pairBits = harness::randomInts(rng, threads / 2, 0, 1);
  Expected want = reference(in, pairBits, s);
  harness::DeviceArray<int> dIn(in), dBits(pairBits), dEvens(s.n), dOdds(s.n),
      dArgCounters(threads), dDtorCounters(threads);
  int *argCounters = dArgCounters.get(), *dtorCounters = dDtorCounters.get();
  return harness::run(s,
                      {harness::expect("defaultArg", dEvens, want.evens),
                       harness::expect("defaultArg.counters", dArgCounters, want.counters),
                       harness::expect("destructor", dOdds, want.odds),
                       harness::expect("destructor.counters", dDtorCounters, want.counters)},
                      [&] {
                        CHECK_CUDA(cudaMemcpyToSymbol(g_counters, &argCounters, sizeof(int *)));
                        defaultArg<<<s.numBlocks, s.blockSize>>>(dIn.get(), dBits.get(),
                                                                 dEvens.get(), s.n);
                        CHECK_CUDA(cudaMemcpyToSymbol(g_counters, &dtorCounters, sizeof(int *)));
                        destructor<<<s.numBlocks, s.blockSize>>>(dIn.get(), dBits.get(),
                                                                 dOdds.get(), s.n);
                      });
}
