// Soundness: a kernel whose launches by name all keep its branch warp-
// uniform, but which is also launched through a table of kernel pointers with
// a block size that splits a warp across the branch. rowPass treats the
// first 64 elements as header rows, summed per row of 16 with a width-16
// __shfl_xor butterfly, and the rest as data rows, scanned per row of 16 with
// a width-16 __shfl_up loop: legacy shuffles in both arms of `if (gid < 64)`.
// main launches it by name with blocks of 64 and 96, where each warp lies on
// one side of 64, and through kPasses[0] with blocks of 48, where the warp of
// gid 48 to 79 has lanes 0-15 in the header arm and lanes 16-31 in the data
// arm. A full mask in either arm (what a whole-warp reading of the named
// launches would write) names the other arm's lanes.
//
// warpfix notes that rowPass's address is taken in kPasses, so a launch
// through it may use any block size, and turns the whole-warp assumption off
// for it: it hoists `__ballot_sync(0xffffffff, gid < 64)` and
// `__ballot_sync(0xffffffff, !(gid < 64))` before the branch and gives each
// arm's shuffle its own ballot as mask. That is right for all three
// launches: with 64 and 96 the ballots are full or empty per warp, with 48
// the split warp's halves each name exactly their own lanes.
//
// What the legacy code computed: every row of 16 lies in one 16-lane segment
// of a warp, all on one side of 64 (the block sizes and 64 are multiples of
// 16), so each arm's shuffles ran over whole segments and stayed in them:
// header elements get their row's sum, data elements their row's inclusive
// prefix sum. Threads past n take part with 0 and write nothing.
//
// Shapes: blocks of 48 (the table launch; the named launches use 64 and 96
// with grids of their own), any n the 48-thread grid covers.
//
// @shapes 48x40:1900 48x100:4700 48x3:100 48x77:3650
// @sanitize 48x4:190
// @time 48x4096:196608
#include "../../harness.h"

__global__ void rowPass(const int *in, int *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane16 = threadIdx.x & 15;
  int v = gid < n ? in[gid] : 0;
  if (gid < 64) { // header rows
    for (int mask = 8; mask > 0; mask >>= 1)
      v += __shfl_xor(v, mask, 16);
  } else { // data rows
    for (int delta = 1; delta < 16; delta *= 2) {
      int up = __shfl_up(v, delta, 16);
      if (lane16 >= delta)
        v += up;
    }
  }
  if (gid < n)
    out[gid] = v;
}

typedef void (*RowKernel)(const int *, int *, int);
static const RowKernel kPasses[] = {rowPass};

static std::vector<int> reference(const std::vector<int> &in) {
  int n = (int)in.size();
  std::vector<int> out(n);
  for (int row = 0; row * 16 < n; ++row) {
    int sum = 0;
    for (int k = 0; k < 16 && row * 16 + k < n; ++k)
      sum += in[row * 16 + k];
    int running = 0;
    for (int k = 0; k < 16 && row * 16 + k < n; ++k) {
      int i = row * 16 + k;
      running += in[i];
      out[i] = i < 64 ? sum : running;
    }
  }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 48, "the table launch uses blocks of 48 threads");
  harness::require((long long)s.numBlocks * 48 >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> want = reference(in);
  harness::DeviceArray<int> dIn(in), dOut64(s.n), dOut96(s.n), dOut48(s.n);
  return harness::run(s,
                      {harness::expect("byName64", dOut64, want),
                       harness::expect("byName96", dOut96, want),
                       harness::expect("byPointer48", dOut48, want)},
                      [&] {
                        rowPass<<<(s.n + 63) / 64, 64>>>(dIn.get(), dOut64.get(), s.n);
                        rowPass<<<(s.n + 95) / 96, 96>>>(dIn.get(), dOut96.get(), s.n);
                        kPasses[0]<<<s.numBlocks, 48>>>(dIn.get(), dOut48.get(), s.n);
                      });
}
