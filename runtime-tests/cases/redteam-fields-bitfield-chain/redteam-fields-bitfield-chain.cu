// What warpfix does since: the register rewrite of a chain is refused for
// a bit-field ("a register that carries its value from step to step would
// keep the bits that the field drops at each store"), and the race in each
// step is reported; only the barrier between the lane's first store and the
// chain is written. Outputs are bit-equal (H200), and racecheck's hazards
// in the rewritten program are those reported ones.
//
// Red team, the listing-8 register rewrite of a chain of updates to a
// bit-field. warpfix rewrites `if (lane < 16) { c[t].q /= c[t + 16].q;
// c[t].q /= c[t + 8].q; }` as `auto warpfix_acc = c[t].q;`, then per step
// `acc /= ...; __syncwarp(m); c[t].q = acc; __syncwarp(m);`. For a bit-field
// `auto` gives the declared type (int), not the field's 5 bits: the register
// keeps what the field cannot hold, where the legacy code stored the value
// into the field after every step and read it back from there.
//
//  - sumChain, the control: a 4-bit unsigned field summed with `+=` (16, then
//    8 apart). Truncating after every step or only at the store gives the
//    same bits: addition is exact modulo 16. warpfix's rewrite is right.
//  - divChain: a signed 5-bit field (-16..15) divided by its neighbours with
//    `/=`. -16 / -1 = 16 does not fit: the legacy store wraps it to -16
//    (nvcc, like the host compiler, keeps the low 5 bits), and the next step
//    divides -16. The rewrite's register keeps 16 and divides that: a lane
//    that had -16 and a partner of -1 ends with 16 / d instead of -16 / d.
//    Division, unlike addition, does not commute with the wrap.
//
// Inputs are chosen so that every step divides by a nonzero field: lanes
// 16..31 hold +-1, lanes 0..15 nonzero values, lanes 0..7 often -16. The
// 16 slots past the block hold 1 for a partial warp's reads (and 0 for the
// sums), threads past n take part with those values too.
//
// What the legacy code computed (lockstep, volatile): see reference() below:
// each step, the lanes under the guard read their neighbour's field, divide
// (add), and store the result into their own field, wrapped to its width.
//
// Expected on the GPU: sumChain matches; divChain's rewritten program
// differs from the reference (16 / d for -16 / d) in about a quarter of
// lanes 0..7 of every warp, deterministically; the original matches.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;
constexpr int kSlots = kMaxBlock + 16;

struct Nibbles {
  unsigned lo : 4;
  unsigned hi : 4;
};

struct Quotient {
  int q : 5;
  int spare : 3;
};

__global__ void sumChain(const int *in, int *out, int n) {
  __shared__ Nibbles cells[kSlots];
  for (int z = threadIdx.x; z < kSlots; z += blockDim.x) {
    cells[z].lo = 0;
    cells[z].hi = 0;
  }
  __syncthreads();
  volatile Nibbles *c = cells;
  int t = threadIdx.x;
  int lane = t % 32;
  int i = blockIdx.x * blockDim.x + t;
  c[t].lo = i < n ? in[i] & 15 : 0;
  if (lane < 16) {
    c[t].lo += c[t + 16].lo;
    c[t].lo += c[t + 8].lo;
  }
  if (i < n)
    out[i] = c[t].lo;
}

__global__ void divChain(const int *in, int *out, int n) {
  __shared__ Quotient cells[kSlots];
  for (int z = threadIdx.x; z < kSlots; z += blockDim.x) {
    cells[z].q = 1;
    cells[z].spare = 0;
  }
  __syncthreads();
  volatile Quotient *c = cells;
  int t = threadIdx.x;
  int lane = t % 32;
  int i = blockIdx.x * blockDim.x + t;
  c[t].q = i < n ? in[i] : 1;
  if (lane < 16) {
    c[t].q /= c[t + 16].q;
    c[t].q /= c[t + 8].q;
  }
  if (i < n)
    out[i] = c[t].q;
}

static int wrap(int v, int bits) { // a signed field of `bits` bits
  int half = 1 << (bits - 1);
  return ((v + half) & ((1 << bits) - 1)) - half;
}

struct Expected {
  std::vector<int> sums, quotients;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  std::vector<int> lo(s.blockSize + 16), q(s.blockSize + 16);
  for (int b = 0; b < s.numBlocks; ++b) {
    for (int t = 0; t < s.blockSize + 16; ++t) {
      int i = b * s.blockSize + t;
      bool mine = t < s.blockSize && i < s.n; // else padding, or a thread past n
      lo[t] = mine ? in[i] & 15 : 0;
      q[t] = mine ? in[i] : 1;
    }
    for (int k : {16, 8})
      // Lockstep: every lane of the step reads, then every lane stores. A
      // lane reads only higher slots, so going up reads each before its
      // lane stores it.
      for (int t = 0; t < s.blockSize; ++t)
        if (t % 32 < 16) {
          lo[t] = (lo[t] + lo[t + k]) & 15;
          q[t] = wrap(q[t] / q[t + k], 5);
        }
    for (int t = 0; t < s.blockSize; ++t) {
      int i = b * s.blockSize + t;
      if (i < s.n) {
        e.sums[i] = lo[t];
        e.quotients[i] = q[t];
      }
    }
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, 0, 63);
  for (int i = 0; i < s.n; ++i) {
    int lane = i % s.blockSize % 32, r = in[i];
    int nonzero = r % 31 - 16 == 0 ? 15 : r % 31 - 16; // -16..15, never 0
    if (lane < 8)
      in[i] = r < 32 ? -16 : nonzero;
    else if (lane < 16)
      in[i] = nonzero;
    else
      in[i] = r & 1 ? -1 : 1;
  }
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dSums(s.n), dQuotients(s.n);
  return harness::run(s,
                      {harness::expect("sumChain", dSums, want.sums),
                       harness::expect("divChain", dQuotients, want.quotients)},
                      [&] {
                        sumChain<<<s.numBlocks, s.blockSize>>>(dIn.get(), dSums.get(), s.n);
                        divChain<<<s.numBlocks, s.blockSize>>>(dIn.get(), dQuotients.get(),
                                                               s.n);
                      });
}
