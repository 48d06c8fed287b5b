// What warpfix does since: a base class's field lies at the base's offset
// in the derived object (the implicit derived-to-base step adds it), so
// `items[t].val` is byte 4 and meets `words[t ^ 1].y`. Both races are
// reported and fixed; racecheck finds none in the rewritten program (H200).
//
// Red team, fields of shared structs: a field inherited from a base class
// that is not the first one. `struct Item : Key, Payload {}` puts `key` at
// byte 0 and `val` at byte 4 of each Item. warpfix's field model takes a
// field's offset within the class that declares it (Payload::val is at 0 in
// Payload) and drops the implicit derived-to-base step, so it places
// `items[t].val` at byte 0 of the Item, on top of `key`.
//
// The storage is a union, as legacy code reuses shared memory between
// phases: the same bytes are read back as int2 (key, val) pairs, through a
// volatile pointer, as warp-synchronous code did.
//
//  - peerValue: each lane stores its value through `vs->items[t].val` and
//    reads its pair partner's through `vs->words[t ^ 1].y`, with no barrier
//    between: a race on bytes 4..7 of the partner's Item. warpfix places the store at
//    bytes 0..3 and the read at 4..7: no overlap, no finding.
//  - peerPair: the same, with the key stored first and read last. warpfix
//    reports the key store and the val store (it thinks both meet the `.x`
//    read; the val one is a false match) and fixes both with one
//    __syncwarp() before the `.x` read, which comes after the `.y` read: the
//    real race of the val store with the `.y` read stays, while warpfix
//    says "fixed 2 findings; 0 remain". (Its message names the element
//    "st.items[0]", not "...val": Item's own fields do not include the
//    bases', so the name stops at the Item.)
//
// What the legacy code computed: lockstep, every lane stores before any lane
// reads; each thread i < n gets its partner's (i ^ 1) key and value, 0 for a
// partner past n. Blocks must be even-sized so that every lane's partner
// exists.
//
// Expected on the GPU: outputs match (a converged warp keeps the stores
// before the loads); compute-sanitizer racecheck reports the val/.y hazard
// in the rewritten program, which warpfix reports nothing left for.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

struct Key {
  int key;
};
struct Payload {
  int val;
};
// key at byte 0, val at byte 4: Payload is the second base.
struct Item : Key, Payload {};

union Storage {
  Item items[kMaxBlock];
  int2 words[kMaxBlock]; // the same bytes, as (key, val)
};

__global__ void peerValue(const int *vals, int *outVal, int n) {
  __shared__ Storage st;
  volatile Storage *vs = &st;
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  vs->items[t].val = i < n ? vals[i] : 0;
  int peerVal = vs->words[t ^ 1].y;
  if (i < n)
    outVal[i] = peerVal;
}

__global__ void peerPair(const int *keys, const int *vals, int *outKey, int *outVal, int n) {
  __shared__ Storage st;
  volatile Storage *vs = &st;
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  vs->items[t].key = i < n ? keys[i] : 0;
  vs->items[t].val = i < n ? vals[i] : 0;
  int peerVal = vs->words[t ^ 1].y;
  int peerKey = vs->words[t ^ 1].x;
  if (i < n) {
    outKey[i] = peerKey;
    outVal[i] = peerVal;
  }
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::require(s.blockSize <= kMaxBlock, "one Item per thread");
  harness::Rng rng(s.seed);
  std::vector<int> keys = harness::randomInts(rng, s.n, -1000000, 1000000);
  std::vector<int> vals = harness::randomInts(rng, s.n, -1000000, 1000000);
  std::vector<int> wantKey(s.n), wantVal(s.n);
  for (int i = 0; i < s.n; ++i) {
    int j = i ^ 1; // the partner: blocks are even-sized and start at even indexes
    wantKey[i] = j < s.n ? keys[j] : 0;
    wantVal[i] = j < s.n ? vals[j] : 0;
  }
  harness::DeviceArray<int> dKeys(keys), dVals(vals), dValOnly(s.n), dPairKey(s.n),
      dPairVal(s.n);
  return harness::run(s,
                      {harness::expect("peerValue", dValOnly, wantVal),
                       harness::expect("peerPair.key", dPairKey, wantKey),
                       harness::expect("peerPair.val", dPairVal, wantVal)},
                      [&] {
                        peerValue<<<s.numBlocks, s.blockSize>>>(dVals.get(), dValOnly.get(),
                                                                s.n);
                        peerPair<<<s.numBlocks, s.blockSize>>>(dKeys.get(), dVals.get(),
                                                               dPairKey.get(), dPairVal.get(),
                                                               s.n);
                      });
}
