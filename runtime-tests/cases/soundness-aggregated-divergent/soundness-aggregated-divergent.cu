// Soundness: the warp-aggregated atomic with its mask taken by the caller.
// claimInBranch takes m = __activemask() in a lane-dependent branch and
// hands it to a helper, which elects the lowest lane of m as leader,
// reserves __popc(m) slots with one atomicAdd, and broadcasts the base with
// __shfl_sync(m, base, leader). In reserveSlots every lane that m names
// reaches that shuffle: it is correct for any split of the warp.
//
// reserveSlotsOrSkip is the variant that is not: lanes with nothing to
// claim return before the shuffle, which still names them in m. That is
// undefined behaviour in the original itself (a _sync shuffle whose mask
// names lanes that never execute it; the leader may even be one of the lanes
// that left), so no legacy program defines what it computed, and nothing
// here runs it: claimSkipping, which calls it, is in the file for warpfix
// to analyse, and main never launches it. prepare records warpfix's finding
// on it in expect.json; the GPU runs only claimInBranch.
//
// What warpfix does: on reserveSlotsOrSkip's shuffle it reports
// warp-activemask-mask with no fix ("the mask is used under other branches
// than the ones where it is taken"): it follows the helper's mask parameter
// into the caller's __activemask() and sees the early return in between.
// That is right: no mask makes the early return defined, and __activemask()
// is what the code meant. It edits nothing. On reserveSlots' shuffle it
// reports nothing: the helper's copy of m is used only for the idiom, by
// every lane that enters it, and claimInBranch calls it with the lanes that
// took m. (Until warpfix followed the idiom through a parameter, that
// shuffle got the same finding too, a false positive.) Since no finding has
// a fix, the rewritten program is the original, and it computes the right
// thing.
//
// Outputs that do not depend on the order of the atomics: every slot in
// [0, count) is claimed exactly once, and the counter ends at count.
//
// Shapes: any; partial warps and n smaller than the grid are fine.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__device__ unsigned laneId() { return threadIdx.x & 31; }

// Every lane named in m calls this and reaches the shuffle.
__device__ int reserveSlots(int *counter, unsigned m) {
  int leader = __ffs(m) - 1;
  int base = 0;
  if (laneId() == leader)
    base = atomicAdd(counter, __popc(m));
  base = __shfl_sync(m, base, leader);
  return base + __popc(m & ((1u << laneId()) - 1));
}

// Lanes with nothing to claim leave early, although m names them.
__device__ int reserveSlotsOrSkip(int *counter, unsigned m, int wanted) {
  if (wanted == 0)
    return -1;
  int leader = __ffs(m) - 1;
  int base = 0;
  if (laneId() == leader)
    base = atomicAdd(counter, __popc(m));
  base = __shfl_sync(m, base, leader);
  return base + __popc(m & ((1u << laneId()) - 1));
}

__global__ void claimInBranch(const int *in, int n, int *counter, int *claimed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    unsigned m = __activemask();
    claimed[reserveSlots(counter, m)] = 1;
  }
}

// Not launched: its behaviour is undefined (see above).
__global__ void claimSkipping(const int *in, int n, int *counter, int *claimed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned m = __activemask();
    int slot = reserveSlotsOrSkip(counter, m, in[i] > 0);
    if (slot >= 0)
      claimed[slot] = 1;
  }
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
  harness::DeviceArray<int> dIn(in), dCounter(1), dClaimed(s.n), dTotal(1);
  return harness::run(s,
                      {harness::expect("claimed", dClaimed, claimedReference(selected, s.n)),
                       harness::expect("total", dTotal, std::vector<int>{selected})},
                      [&] {
                        CHECK_CUDA(cudaMemset(dCounter.get(), 0, sizeof(int)));
                        claimInBranch<<<s.numBlocks, s.blockSize>>>(dIn.get(), s.n,
                                                                    dCounter.get(),
                                                                    dClaimed.get());
                        CHECK_CUDA(cudaMemcpy(dTotal.get(), dCounter.get(), sizeof(int),
                                              cudaMemcpyDeviceToDevice));
                      });
}
