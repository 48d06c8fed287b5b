// What warpfix does since: the binding and the constexpr read are computed
// once (a structured binding counts as memory; a constexpr function's body
// is read). The shared-memory analysis now models fields of structs, and
// names bound to them: the race between the condition's read of the
// partner's slot (through `slots[t ^ 1].flag` or the binding) and the
// partner's store is reported in bindingPeer and fieldPeer, without a fix,
// since no single place separates the accesses. Outputs match; racecheck
// still sees that race in both programs, now a reported one.
//
// Red team, computed-once ballots: conditions that read memory other lanes
// write, hidden from warpfix's "reads only thread-private data" test, so it
// keeps the plain form (the ballot evaluates the condition, then the branch
// evaluates it again) where its own rule asks for the computed-once form.
//
//  - bindingPeer: `auto &[flag, value] = slots[t ^ 1];` names the fields of
//    the partner's shared slot. `flag` is a BindingDecl, not a VarDecl, so
//    the test does not see the reference behind it. Inside the branch the
//    partner clears the flag this lane reads (the brief's own example, with
//    the read spelt through a binding; spelt `slots[t ^ 1].flag`, the same
//    condition is computed once). warpfix reports no race between the read
//    and the partner's store either, so any racecheck hazard in the
//    rewritten program is one warpfix did not report.
//  - constexprPeer: `if (peerSet(i ^ 1))`, a __device__ constexpr function
//    (taken as pure) that reads a global array through a __device__ pointer;
//    the partner clears that flag inside the branch. Its argument is a
//    register, so the call "reads nothing".
//  - fieldPeer, the control: bindingPeer's condition spelt
//    `slots[t ^ 1].flag != 0` is computed once, which is right. But
//    warp-missing-syncwarp reports no race between that read and the
//    partner's `slots[t].flag = 0` (it does for a plain `int flags[]`, with
//    "no single place separates the racing accesses"), although the rewrite
//    leaves only the __ballot_sync between them, and a __syncwarp() right
//    after the ballot would now separate them. A racecheck hazard on its
//    lines is that miss, not the plain ballot.
//
// What the legacy code computed: lockstep, every lane reads its partner's
// flag before any lane clears one; pairs whose bit b (pairBits[i / 2]) is 1
// take the branch together and add the partner's value (bindingPeer checks
// it against the binding's `value`; a mismatch adds -1000000). Threads past
// n take part with v = 0; out holds the n in-range values, flags each
// thread's flag afterwards (0 everywhere: cleared where b = 1, else 0).
//
// Shapes: even block sizes (a lane's pair partner must exist), at most 1024.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

struct Slot {
  int flag;
  int value;
};

__global__ void bindingPeer(const int *in, const int *pairBits, int *out, int *flags, int n) {
  __shared__ Slot slots[kMaxBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  slots[threadIdx.x] = Slot{pairBits[i / 2], v};
  __syncwarp();
  auto &[flag, value] = slots[threadIdx.x ^ 1];
  if (flag != 0) {
    slots[threadIdx.x].flag = 0;
    int got = __shfl_xor(v, 1);
    v += got == value ? got : -1000000;
  }
  __syncwarp();
  flags[i] = slots[threadIdx.x].flag;
  if (i < n)
    out[i] = v;
}

__global__ void fieldPeer(const int *in, const int *pairBits, int *out, int *flags, int n) {
  __shared__ Slot slots[kMaxBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  slots[threadIdx.x] = Slot{pairBits[i / 2], v};
  __syncwarp();
  if (slots[threadIdx.x ^ 1].flag != 0) {
    slots[threadIdx.x].flag = 0;
    v += __shfl_xor(v, 1);
  }
  __syncwarp();
  flags[i] = slots[threadIdx.x].flag;
  if (i < n)
    out[i] = v;
}

__device__ int *g_peer;

__device__ constexpr bool peerSet(int i) { return i < 0 ? false : g_peer[i] != 0; }

__global__ void constexprPeer(const int *in, const int *pairBits, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  g_peer[i] = pairBits[i / 2];
  __syncwarp();
  if (peerSet(i ^ 1)) {
    g_peer[i] = 0;
    v += __shfl_xor(v, 1);
  }
  if (i < n)
    out[i] = v;
}

struct Expected {
  std::vector<int> out, flags;
};

static Expected reference(const std::vector<int> &in, const std::vector<int> &pairBits,
                          const harness::Shape &s) {
  int threads = s.blockSize * s.numBlocks;
  Expected e{std::vector<int>(s.n), std::vector<int>(threads, 0)};
  auto at = [&](int i) { return i < s.n ? in[i] : 0; };
  for (int i = 0; i < threads; ++i) {
    int b = pairBits[i / 2];
    e.flags[i] = 0; // b == 1: cleared by the branch; b == 0: was 0
    if (i < s.n)
      e.out[i] = b ? at(i) + at(i ^ 1) : at(i);
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  int threads = s.blockSize * s.numBlocks;
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> pairBits = harness::randomInts(rng, threads / 2, 0, 1);
  Expected want = reference(in, pairBits, s);
  harness::DeviceArray<int> dIn(in), dBits(pairBits), dOut(s.n), dFlags(threads),
      dPeerOut(s.n), dPeer(threads), dFieldOut(s.n), dFieldFlags(threads);
  int *peer = dPeer.get();
  return harness::run(s,
                      {harness::expect("bindingPeer", dOut, want.out),
                       harness::expect("bindingPeer.flags", dFlags, want.flags),
                       harness::expect("constexprPeer", dPeerOut, want.out),
                       harness::expect("constexprPeer.flags", dPeer, want.flags),
                       harness::expect("fieldPeer", dFieldOut, want.out),
                       harness::expect("fieldPeer.flags", dFieldFlags, want.flags)},
                      [&] {
                        bindingPeer<<<s.numBlocks, s.blockSize>>>(dIn.get(), dBits.get(),
                                                                  dOut.get(), dFlags.get(), s.n);
                        fieldPeer<<<s.numBlocks, s.blockSize>>>(dIn.get(), dBits.get(),
                                                                dFieldOut.get(), dFieldFlags.get(),
                                                                s.n);
                        CHECK_CUDA(cudaMemcpyToSymbol(g_peer, &peer, sizeof(int *)));
                        constexprPeer<<<s.numBlocks, s.blockSize>>>(dIn.get(), dBits.get(),
                                                                    dPeerOut.get(), s.n);
                      });
}
