// Issue 15, item 6: the warp-aggregated atomic, which is correct code. Each
// group of lanes that happens to be converged at __activemask() elects the
// lowest as leader, which reserves room for the whole group with one
// atomicAdd of __popc(m); the leader's base is broadcast over m, and each lane
// takes the slot base + (lanes of m below it). Any split of the warp into
// groups gives every selected thread its own slot, so warpfix must find
// nothing here and leave the file as it is: the rewritten program is the
// original. Also the idiom in a device function called from divergent and
// converged code. (The cooperative-groups twin, coalesced_threads(), is in
// the lit test only: <cooperative_groups.h> does not compile after
// legacy_emulation.cuh, whose __any macro meets libcu++'s struct __any.)
//
// Outputs that do not depend on the order of the atomics: every slot in
// [0, count) is claimed exactly once (a slot claimed twice leaves another one
// unclaimed, with the sentinel), and the counter ends at count.
//
// Shapes: any; partial warps and n smaller than the grid are fine.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__device__ unsigned laneId() { return threadIdx.x & 31; }

__device__ int reserveSlot(int *counter) {
  unsigned m = __activemask();
  int leader = __ffs(m) - 1;
  int base = 0;
  if (laneId() == leader)
    base = atomicAdd(counter, __popc(m));
  base = __shfl_sync(m, base, leader);
  return base + __popc(m & ((1u << laneId()) - 1));
}

// The idiom written out, in a lane-dependent branch.
__global__ void claim_inline(const int *in, int n, int *counter, int *claimed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    unsigned m = __activemask();
    int leader = __ffs(m) - 1;
    int base = 0;
    if (laneId() == leader)
      base = atomicAdd(counter, __popc(m));
    base = __shfl_sync(m, base, leader);
    claimed[base + __popc(m & ((1u << laneId()) - 1))] = 1;
  }
}

// The device function, from a branch, and from converged code.
__global__ void claim_helper(const int *in, int n, int *counter, int *claimed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0)
    claimed[reserveSlot(counter)] = 1;
}

__global__ void claim_all(int n, int *counter, int *claimed) {
  int slot = reserveSlot(counter);
  if (slot < n)
    claimed[slot] = 1;
}

static std::vector<int> claimedReference(int count, int n) {
  std::vector<int> claimed(n, harness::sentinel<int>());
  for (int k = 0; k < count; ++k)
    claimed[k] = 1;
  return claimed;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -5, 5);
  int selected = 0;
  for (int x : in)
    selected += x > 0;
  int threads = s.blockSize * s.numBlocks;
  std::vector<int> counts = {selected, selected, threads};
  harness::DeviceArray<int> dIn(in), dCounters(3);
  harness::DeviceArray<int> dInline(s.n), dHelper(s.n), dAll(s.n);
  harness::DeviceArray<int> dTotals(3);
  return harness::run(
      s,
      {harness::expect("claimed_inline", dInline, claimedReference(selected, s.n)),
       harness::expect("claimed_helper", dHelper, claimedReference(selected, s.n)),
       harness::expect("claimed_all", dAll, claimedReference(std::min(threads, s.n), s.n)),
       harness::expect("totals", dTotals, counts)},
      [&] {
        int *c = dCounters.get();
        CHECK_CUDA(cudaMemset(c, 0, 3 * sizeof(int)));
        claim_inline<<<s.numBlocks, s.blockSize>>>(dIn.get(), s.n, c + 0, dInline.get());
        claim_helper<<<s.numBlocks, s.blockSize>>>(dIn.get(), s.n, c + 1, dHelper.get());
        claim_all<<<s.numBlocks, s.blockSize>>>(s.n, c + 2, dAll.get());
        CHECK_CUDA(cudaMemcpy(dTotals.get(), c, 3 * sizeof(int), cudaMemcpyDeviceToDevice));
      });
}
