// What warpfix does since: a read in a branch's condition and a store in
// its branch, in the order of the text, are not separated by a barrier at
// the end of the loop body: tokenRounds's race is reported without a fix.
// In tokenShuffle the legacy shuffle's fix computes the condition once
// (`const bool taken = ...`), and a second pass then puts a __syncwarp()
// between that read and the branch, and one at the end of the body for the
// next round: both races fixed, outputs bit-equal.
//
// Red team, a field read in a branch condition inside a loop, written by the
// partner lane inside the branch. Each round, a lane tests its partner's
// `tok[t ^ 1].flag` in the `if` condition and, in the branch, changes its
// own `tok[t].flag`, which the partner tests in the same round. Lockstep,
// every lane tests before any lane writes; without a barrier, a lane may
// clear its flag before its partner has tested it.
//
// warpfix reports the race between the branch's store and the condition's
// read. Both accesses sit under the same statement of the loop body (the
// condition belongs to the `if`, the store to its branch), which warpfix's
// placement takes for "the later access comes first in the text: the next
// iteration", so it inserts one __syncwarp() at the end of the loop body.
// That orders round r's store before round r + 1's test, not before the
// partner's test in the same round; warpfix says "0 remain". (The same
// happens with a plain `int flags[]`; outside a loop warpfix refuses with
// "no single place separates the racing accesses".)
//
//  - tokenRounds: a lane whose partner still holds a token (flag > r) takes
//    (r + 1) times the partner's value and drops its own token (flag = 0).
//  - tokenShuffle: both lanes of a pair test the pair's total (`tok[t].flag
//    + tok[t ^ 1].flag > r`), so they enter together, and swap values with a
//    legacy `__shfl_xor(v, 1)`; each then halves its own flag. warpfix also
//    rewrites the shuffle (the condition reads memory: computed once into a
//    local, a ballot of it as the mask); a lane whose partner halved its flag
//    first would test a smaller total and may leave its partner alone in the
//    branch.
//
// Both also store the tokens right before the loop with no barrier (found
// and fixed with a __syncwarp() before the loop, rightly). Instead of
// `volatile` (with which warpfix refuses: the condition would have volatile
// reads), the legacy code makes its stores visible to the warp with
// `__threadfence_block()` after the stores and at the end of each round, as
// some warp-synchronous code did: the fence keeps the compiler from caching
// a flag across rounds, and orders nothing between lanes, so warpfix rightly
// does not count it as a barrier.
//
// What the legacy code computed (lockstep, per round: every lane tests, then
// the lanes in the branch update): see reference() below. Flags are 0..7,
// 3 rounds; threads past n take part with flag 0 and value 0. Blocks must be
// even-sized so that every lane's partner exists.
//
// Seen already without a GPU: warpfix, run again on its own rewrite, reports
// the tokenRounds race again (and the tokenShuffle one, whose read the
// computed-once ballot moved into a statement of its own; a second pass
// fixes that one rightly). Each further --fix pass adds one more
// __syncwarp() at the end of tokenRounds's loop body and says "0 remain":
// it never converges. `run.py prepare` flags this case ("a fix introduced
// findings") and builds the first pass's rewrite.
//
// Expected on the GPU: outputs match (a converged warp tests before it
// stores); racecheck reports hazards between the condition's read and the
// branch's store in the rewritten program (the same kind of read-then-store
// hazard that it found in redteam-once-hidden-reads).
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;
constexpr int kRounds = 3;

struct Token {
  int flag;
  int value;
};

__global__ void tokenRounds(const int *flags, const int *in, int *out, int n) {
  __shared__ Token tok[kMaxBlock];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tok[t].flag = i < n ? flags[i] : 0;
  tok[t].value = i < n ? in[i] : 0;
  __threadfence_block();
  int got = 0;
  for (int r = 0; r < kRounds; ++r) {
    if (tok[t ^ 1].flag > r) {
      got += (r + 1) * tok[t ^ 1].value;
      tok[t].flag = 0;
    }
    __threadfence_block();
  }
  if (i < n)
    out[i] = got;
}

__global__ void tokenShuffle(const int *flags, const int *in, int *out, int n) {
  __shared__ Token tok[kMaxBlock];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  tok[t].flag = i < n ? flags[i] : 0;
  __threadfence_block();
  for (int r = 0; r < kRounds; ++r) {
    if (tok[t].flag + tok[t ^ 1].flag > r) {
      v += __shfl_xor(v, 1);
      tok[t].flag = tok[t].flag / 2;
    }
    __threadfence_block();
  }
  if (i < n)
    out[i] = v;
}

struct Expected {
  std::vector<int> rounds, shuffle;
};

static Expected reference(const std::vector<int> &flags, const std::vector<int> &in,
                          const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  int threads = s.blockSize * s.numBlocks;
  auto at = [&](const std::vector<int> &v, int i) { return i < s.n ? v[i] : 0; };
  for (int a = 0; a < threads; a += 2) { // pairs: blocks are even-sized
    int b = a + 1;
    // tokenRounds
    int fa = at(flags, a), fb = at(flags, b), ga = 0, gb = 0;
    for (int r = 0; r < kRounds; ++r) {
      bool ea = fb > r, eb = fa > r; // every lane tests first
      if (ea) {
        ga += (r + 1) * at(in, b);
        fa = 0;
      }
      if (eb) {
        gb += (r + 1) * at(in, a);
        fb = 0;
      }
    }
    // tokenShuffle
    int ha = at(flags, a), hb = at(flags, b), va = at(in, a), vb = at(in, b);
    for (int r = 0; r < kRounds; ++r) {
      if (ha + hb > r) { // the same total for both lanes: they enter together
        int sum = va + vb;
        va = sum;
        vb = sum;
        ha /= 2;
        hb /= 2;
      }
    }
    if (a < s.n) {
      e.rounds[a] = ga;
      e.shuffle[a] = va;
    }
    if (b < s.n) {
      e.rounds[b] = gb;
      e.shuffle[b] = vb;
    }
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::require(s.blockSize <= kMaxBlock, "one token per thread");
  harness::Rng rng(s.seed);
  std::vector<int> flags = harness::randomInts(rng, s.n, 0, 7);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  Expected want = reference(flags, in, s);
  harness::DeviceArray<int> dFlags(flags), dIn(in), dRounds(s.n), dShuffle(s.n);
  return harness::run(s,
                      {harness::expect("tokenRounds", dRounds, want.rounds),
                       harness::expect("tokenShuffle", dShuffle, want.shuffle)},
                      [&] {
                        tokenRounds<<<s.numBlocks, s.blockSize>>>(dFlags.get(), dIn.get(),
                                                                  dRounds.get(), s.n);
                        tokenShuffle<<<s.numBlocks, s.blockSize>>>(dFlags.get(), dIn.get(),
                                                                   dShuffle.get(), s.n);
                      });
}
