// What warpfix does since: the cast of dynamic shared memory (pointer casts
// keep the address) and the conditional expression's arms (each read under
// its condition) are modelled, and their races fixed. Member functions and
// operators are entered with `this` bound to their object and a member
// operator's parameters to the arguments after it, and a user-written
// constructor's initializers and body are read. Since the accesses that a
// call makes are ordered between the kernel's statements: in opTree the
// stores of each slot get a barrier before the tree (the tree's own race,
// under a lane-dependent branch, is reported without a fix), and in copyPeer
// the stores get one before the copy.
//
// Red team, fields of shared structs reached through code that warpfix does
// not follow the way it runs: a member operator, a user-written copy
// constructor, a struct array laid over dynamic shared memory with a cast,
// and a conditional expression whose arms are both lvalues. Each race below
// is real under independent thread scheduling and warpfix does not report
// it; in copyPeer and pickPeer it fixes a neighbouring race and says
// "0 remain" while this one stays.
//
//  - opTree: the warp-synchronous tree `if (lane < 16) vp[t] += vp[t + 16];
//    ...` over (sum, count) pairs, with `operator+=` a member of the struct.
//    For a member operator, clang's call lists the object as argument 0 and
//    the right operand as argument 1, while the operator's parameter `o` is
//    parameter 0: warpfix binds `o` to argument 0, the lane's own slot, so
//    `o.sum` reads "vp[t]", and the stores, through `this`, are not followed
//    at all. No finding. (A free function `accumulate(vp[t], vp[t + 16])` is
//    reported, without a fix, since the racing accesses are in another
//    function.)
//  - copyPeer: `Pair peer = vc[t ^ 1];` copies the partner's slot through a
//    user-written copy constructor (`Pair(const volatile Pair &)`, which
//    volatile needs), whose member initializers warpfix does not follow; a
//    trivial copy would be a read of the whole slot. The stores of a and b
//    race with that copy; warpfix sees only the later direct read of
//    `vc[t ^ 1].b` and fixes that race with a __syncwarp() before it, after
//    the copy.
//  - dynamicSlots: `extern __shared__ unsigned char smem[]` cast to `Slot *`
//    with reinterpret_cast, the usual way to lay structs over dynamic shared
//    memory: the cast is not followed, and the store of `slots[t].value`
//    and the partner's read of it are not seen.
//  - pickPeer: `int got = (i & 2) ? vs[t ^ 1].value : vs[t].value;` Both
//    arms are lvalues of one type, so the conditional is an lvalue and the
//    load (lvalue-to-rvalue conversion) applies to the whole `?:`, which
//    warpfix does not take for an element: neither arm's read is recorded.
//    (`c ? vs[t ^ 1].value : 0` is seen.) The later read of the partner's
//    key is seen, and fixed with a __syncwarp() before it, after the `?:`.
//
// What the legacy code computed (lockstep, volatile, no barriers): opTree,
// lane 0 of each warp ends with the sum and count of the warp's in-range
// values (16 zeroed slots past the block serve a partial warp's reads);
// copyPeer and dynamicSlots, each thread i < n gets its partner's (i ^ 1)
// values, 0 for a partner past n; pickPeer, its partner's value where bit 1
// of i is set, else its own, plus its partner's key. Blocks must be
// even-sized.
//
// Expected on the GPU: outputs match; racecheck reports hazards in all four
// kernels of the rewritten program, where warpfix reports none left.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

struct Partial {
  int sum;
  int count;
  __device__ void operator+=(const volatile Partial &o) volatile {
    sum += o.sum;
    count += o.count;
  }
};

__global__ void opTree(const int *in, int *sums, int *counts, int n) {
  __shared__ Partial part[kMaxBlock + 16];
  for (int z = threadIdx.x; z < kMaxBlock + 16; z += blockDim.x) {
    part[z].sum = 0;
    part[z].count = 0;
  }
  __syncthreads();
  volatile Partial *vp = part;
  int t = threadIdx.x;
  int lane = t % 32;
  int i = blockIdx.x * blockDim.x + t;
  vp[t].sum = i < n ? in[i] : 0;
  vp[t].count = i < n ? 1 : 0;
  if (lane < 16) vp[t] += vp[t + 16];
  if (lane < 8) vp[t] += vp[t + 8];
  if (lane < 4) vp[t] += vp[t + 4];
  if (lane < 2) vp[t] += vp[t + 2];
  if (lane < 1) vp[t] += vp[t + 1];
  if (lane == 0) {
    int w = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
    sums[w] = vp[t].sum;
    counts[w] = vp[t].count;
  }
}

struct Pair {
  int a;
  int b;
  Pair() = default;
  __device__ Pair(const volatile Pair &o) : a(o.a), b(o.b) {}
};

__global__ void copyPeer(const int *as, const int *bs, int *outA, int *outB, int *outDirect,
                         int n) {
  __shared__ Pair c[kMaxBlock];
  volatile Pair *vc = c;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  vc[t].a = i < n ? as[i] : 0;
  vc[t].b = i < n ? bs[i] : 0;
  Pair peer = vc[t ^ 1];
  int peerB = vc[t ^ 1].b;
  if (i < n) {
    outA[i] = peer.a;
    outB[i] = peer.b;
    outDirect[i] = peerB;
  }
}

struct Slot {
  int flag;
  int value;
};

__global__ void dynamicSlots(const int *as, int *out, int n) {
  extern __shared__ unsigned char smem[];
  volatile Slot *slots = reinterpret_cast<volatile Slot *>(smem);
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  slots[t].value = i < n ? as[i] : 0;
  int peer = slots[t ^ 1].value;
  if (i < n)
    out[i] = peer;
}

__global__ void pickPeer(const int *as, const int *bs, int *out, int n) {
  __shared__ Slot slots[kMaxBlock];
  volatile Slot *vs = slots;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  vs[t].flag = i < n ? bs[i] : 0;
  vs[t].value = i < n ? as[i] : 0;
  int got = (i & 2) ? vs[t ^ 1].value : vs[t].value;
  int peerFlag = vs[t ^ 1].flag;
  if (i < n)
    out[i] = got + peerFlag;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  std::vector<int> as = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> bs = harness::randomInts(rng, s.n, -1000, 1000);
  int warps = harness::warpsPerBlock(s.blockSize);
  std::vector<int> sums(s.numBlocks * warps), counts(s.numBlocks * warps);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int sum = 0, count = 0;
      for (int l = 0; l < harness::lanesInWarp(s.blockSize, w); ++l) {
        int i = b * s.blockSize + w * 32 + l;
        sum += i < s.n ? as[i] : 0;
        count += i < s.n ? 1 : 0;
      }
      sums[b * warps + w] = sum;
      counts[b * warps + w] = count;
    }
  std::vector<int> peerA(s.n), peerB(s.n), picked(s.n);
  for (int i = 0; i < s.n; ++i) {
    int j = i ^ 1; // blocks are even-sized and start at even indexes
    peerA[i] = j < s.n ? as[j] : 0;
    peerB[i] = j < s.n ? bs[j] : 0;
    picked[i] = ((i & 2) ? peerA[i] : as[i]) + peerB[i];
  }
  harness::DeviceArray<int> dAs(as), dBs(bs), dSums(sums.size()), dCounts(counts.size()),
      dOutA(s.n), dOutB(s.n), dOutDirect(s.n), dDynamic(s.n), dPicked(s.n);
  return harness::run(s,
                      {harness::expect("opTree.sum", dSums, sums),
                       harness::expect("opTree.count", dCounts, counts),
                       harness::expect("copyPeer.a", dOutA, peerA),
                       harness::expect("copyPeer.b", dOutB, peerB),
                       harness::expect("copyPeer.direct", dOutDirect, peerB),
                       harness::expect("dynamicSlots", dDynamic, peerA),
                       harness::expect("pickPeer", dPicked, picked)},
                      [&] {
                        opTree<<<s.numBlocks, s.blockSize>>>(dAs.get(), dSums.get(),
                                                             dCounts.get(), s.n);
                        copyPeer<<<s.numBlocks, s.blockSize>>>(dAs.get(), dBs.get(), dOutA.get(),
                                                               dOutB.get(), dOutDirect.get(), s.n);
                        dynamicSlots<<<s.numBlocks, s.blockSize, s.blockSize * sizeof(Slot)>>>(
                            dAs.get(), dDynamic.get(), s.n);
                        pickPeer<<<s.numBlocks, s.blockSize>>>(dAs.get(), dBs.get(),
                                                               dPicked.get(), s.n);
                      });
}
