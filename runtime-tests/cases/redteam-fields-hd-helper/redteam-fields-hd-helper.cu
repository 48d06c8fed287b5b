// What warpfix does since: a race whose accesses lie in a __host__
// __device__ function is reported without a fix, since __syncwarp() there
// does not compile for the host.
//
// Red team, a struct helper that is also host code. `trade` stores the
// lane's (key, value) into its own slot and reads its pair partner's slot,
// through reference parameters: the race is inside the helper, between its
// stores and its read, with no barrier. warpfix follows the references into
// the helper, reports the race, and fixes it with a __syncwarp() inside
// `trade`, between the stores and the read. But `trade` is
// `__host__ __device__`, as struct utilities often are, and __syncwarp() is
// device code: nvcc rejects the rewrite ("calling a __device__ function
// ("__syncwarp(unsigned int)") from a __host__ __device__ function("trade")
// is not allowed"). The mask-parameter rewrite of warp-legacy-intrinsic
// refuses such helpers ("is also host code"); warp-missing-syncwarp does not
// ask. (Were the host code to call `trade`, warpfix would refuse: it is then
// called where the lanes that arrive are unknown. Here only the kernel does,
// as in a program whose host side never needs the helper.)
//
// What the legacy code computed: lockstep, every lane stores before any lane
// reads; each thread i < n keeps the value of the smaller key of its pair
// (its own on a tie), threads past n take part with key 0 and value 0.
// Blocks must be even-sized.
//
// Expected: the rewritten program does not build (prepare reports it); the
// original runs and matches its reference.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

struct Slot {
  int key;
  int value;
};

__host__ __device__ inline int trade(volatile Slot &mine, const volatile Slot &peer, int key,
                                     int value) {
  mine.key = key;
  mine.value = value;
  return peer.key < key ? peer.value : value;
}

__global__ void pairMin(const int *keys, const int *vals, int *out, int n) {
  __shared__ Slot slots[kMaxBlock];
  volatile Slot *vs = slots;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int kept = trade(vs[t], vs[t ^ 1], i < n ? keys[i] : 0, i < n ? vals[i] : 0);
  if (i < n)
    out[i] = kept;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  std::vector<int> keys = harness::randomInts(rng, s.n, -50, 50);
  std::vector<int> vals = harness::randomInts(rng, s.n, -1000000, 1000000);
  std::vector<int> want(s.n);
  for (int i = 0; i < s.n; ++i) {
    int j = i ^ 1; // blocks are even-sized and start at even indexes
    int peerKey = j < s.n ? keys[j] : 0, peerVal = j < s.n ? vals[j] : 0;
    want[i] = peerKey < keys[i] ? peerVal : vals[i];
  }
  harness::DeviceArray<int> dKeys(keys), dVals(vals), dOut(s.n);
  return harness::run(s, {harness::expect("pairMin", dOut, want)}, [&] {
    pairMin<<<s.numBlocks, s.blockSize>>>(dKeys.get(), dVals.get(), dOut.get(), s.n);
  });
}
