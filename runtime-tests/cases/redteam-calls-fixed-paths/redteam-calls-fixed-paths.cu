// Red team, races through calls (the positive path): in every race one access
// at least is made in a function the kernel calls, and warpfix fixes them
// all with __syncwarp(0xffffffff) between the kernel's own statements:
//  - xorGroups: XOR butterfly over groups of 16 lanes. `q[t] = v;` (a trivial
//    copy of a uint4), then `v ^= q[t ^ k];` whose reads are made inside the
//    free `__forceinline__ operator^=(uint4 &, const uint4 &)`, through its
//    reference parameter. Fix: one barrier before `v ^= ...` and one at the
//    end of the loop body (the next iteration's store).
//  - boardPairs: `board.set(t, x)` (member function storing through this),
//    then `board.at(t ^ 1)` (member function) and `Pair p(board.v[t ^ 2],
//    board.v[t ^ 3])` whose constructor reads in its initializers through
//    const int & parameters. Fix: one barrier before `int left = ...`.
//  - branchHelpers: `store(s, t, v); int r = load(s, t ^ 4);` and
//    `storeOdd(odd, t, 3 * v)`, whose store is under `if (i & 1)` inside the
//    helper, read by even lanes in the false arm of a `?:`. Fix: a barrier
//    before `int r` and one before `int partner`.
// warpfix --diff (all four findings fixable, 0 remain):
//      q[t] = v;
//   +  __syncwarp(0xffffffff);
//      v ^= q[t ^ k];
//   +  __syncwarp(0xffffffff);
//    }
//    board.set(t, i < n ? in[i] : 0);
//   +__syncwarp(0xffffffff);
//    int left = board.at(t ^ 1);
//    store(s, t, v);
//   +__syncwarp(0xffffffff);
//    int r = load(s, t ^ 4);
//    storeOdd(odd, t, 3 * v);
//   +__syncwarp(0xffffffff);
//    int partner = (t & 1) ? v : load(odd, t | 1);
// I believe each fix is right: every lane reaches each kernel statement
// (no lane-dependent branch or exit in the kernels), the barrier stands
// between the calling statements of each racing pair, and for the loop the
// end-of-body barrier orders iteration k's read before iteration k+1's store.
//
// What the legacy code computed: lockstep; see the CPU reference. Blocks
// must be multiples of 16 (whole XOR groups; lanes ^ 1..^ 4 exist).
//
// Expected on the GPU: outputs match, and racecheck finds no hazard in the
// rewritten program (the original has some).
//
// @shapes 128x40:5000 48x100:4700 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

// How the harness prints a uint4 output element (found by ADL).
inline std::string show(uint4 v) {
  char text[64];
  snprintf(text, sizeof text, "(%u,%u,%u,%u)", v.x, v.y, v.z, v.w);
  return text;
}

constexpr int kMaxBlock = 1024;

// ---- helpers the kernels call; every shared access is made in one of them.
__device__ __forceinline__ uint4 &operator^=(uint4 &left, const uint4 &right) {
  left.x ^= right.x;
  left.y ^= right.y;
  left.z ^= right.z;
  left.w ^= right.w;
  return left;
}

__device__ void store(volatile int *s, int i, int v) { s[i] = v; }
__device__ int load(const volatile int *s, int i) { return s[i]; }
// Only odd lanes store: a lane-dependent branch inside the helper.
__device__ void storeOdd(volatile int *s, int i, int v) {
  if (i & 1)
    s[i] = v;
}

struct Board {
  int v[kMaxBlock];
  __device__ void set(int i, int x) { v[i] = x; }
  __device__ int at(int i) const { return v[i]; }
};

struct Pair {
  int a, b;
  __device__ Pair(const int &x, const int &y) : a(x), b(y) {}
};

// (a) XOR butterfly over groups of 16 lanes, the group's XOR in every lane:
// q[t] is stored by a trivial copy, and read by operator^= through its
// reference parameter, in a loop whose next iteration stores again.
__global__ void xorGroups(const uint4 *in, uint4 *out, int n) {
  __shared__ uint4 q[kMaxBlock];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  uint4 v = i < n ? in[i] : make_uint4(0, 0, 0, 0);
  for (int k = 1; k < 16; k <<= 1) {
    q[t] = v;
    v ^= q[t ^ k];
  }
  if (i < n)
    out[i] = v;
}

// (b) a member function stores, another member function and a constructor's
// initializers (through reference parameters) read the neighbours.
__global__ void boardPairs(const int *in, int *out, int n) {
  __shared__ Board board;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  board.set(t, i < n ? in[i] : 0);
  int left = board.at(t ^ 1);
  Pair p(board.v[t ^ 2], board.v[t ^ 3]);
  if (i < n)
    out[i] = left + 10 * p.a + 100 * p.b;
}

// (c) plain store and load helpers, then (d) a helper whose store is under
// a branch of its own (odd lanes only), read by the even lanes.
__global__ void branchHelpers(const int *in, int *out, int n) {
  __shared__ int s[kMaxBlock];
  __shared__ int odd[kMaxBlock];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  store(s, t, v);
  int r = load(s, t ^ 4);
  storeOdd(odd, t, 3 * v);
  int partner = (t & 1) ? v : load(odd, t | 1);
  if (i < n)
    out[i] = r * 7 + partner;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 16 == 0, "groups of 16 lanes must be whole");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  std::vector<int> raw = harness::randomInts(rng, 4 * s.n, -1000000, 1000000);
  std::vector<uint4> quads(s.n);
  for (int i = 0; i < s.n; ++i)
    quads[i] = make_uint4(raw[4 * i], raw[4 * i + 1], raw[4 * i + 2], raw[4 * i + 3]);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  auto value = [&](int j) { return j < s.n ? in[j] : 0; };

  std::vector<uint4> wantXor(s.n);
  for (int i = 0; i < s.n; ++i) {
    int group = i & ~15;
    uint4 acc = make_uint4(0, 0, 0, 0);
    for (int j = group; j < group + 16; ++j)
      if (j < s.n) {
        acc.x ^= quads[j].x;
        acc.y ^= quads[j].y;
        acc.z ^= quads[j].z;
        acc.w ^= quads[j].w;
      }
    wantXor[i] = acc;
  }
  std::vector<int> wantBoard(s.n), wantBranch(s.n);
  for (int i = 0; i < s.n; ++i) {
    wantBoard[i] = value(i ^ 1) + 10 * value(i ^ 2) + 100 * value(i ^ 3);
    int r = value(i ^ 4);
    int partner = (i & 1) ? value(i) : 3 * value(i | 1);
    wantBranch[i] = r * 7 + partner;
  }
  harness::DeviceArray<uint4> dQuads(quads), dXor(s.n);
  harness::DeviceArray<int> dIn(in), dBoard(s.n), dBranch(s.n);
  return harness::run(s,
                      {harness::expect("xorGroups", dXor, wantXor),
                       harness::expect("boardPairs", dBoard, wantBoard),
                       harness::expect("branchHelpers", dBranch, wantBranch)},
                      [&] {
                        xorGroups<<<s.numBlocks, s.blockSize>>>(dQuads.get(), dXor.get(), s.n);
                        boardPairs<<<s.numBlocks, s.blockSize>>>(dIn.get(), dBoard.get(), s.n);
                        branchHelpers<<<s.numBlocks, s.blockSize>>>(dIn.get(), dBranch.get(),
                                                                    s.n);
                      });
}
