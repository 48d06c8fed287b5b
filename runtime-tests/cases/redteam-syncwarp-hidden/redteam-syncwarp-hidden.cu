// What warpfix does since the fix of these blind spots: no fix for the races
// in the virtual override (its callers are not all seen); the races in the
// destructor are still not reported, since the shared-memory walk does not
// enter destructors that run implicitly, so racecheck may flag them in the
// rewritten program: a known miss.
//
// Red team: warp-synchronous shared-memory steps (a race warpfix fixes with
// __syncwarp) in a destructor and a virtual override, whose callers warpfix
// does not all see. HalfSum::~HalfSum() sums each 16-lane half of a warp in
// shared memory, `if (l < 8) s[t] += s[t + 8]; ...` with no barrier, as
// legacy code did in lockstep; HalfMax::fold() does the same with max. Their
// only calls warpfix can name are in `converged` (every lane), so the
// barriers it inserts name the whole warp. In `hidden`, the halves go
// different ways: the low half (lane < 16) holds a HalfSum whose destructor
// runs implicitly at the end of its scope, the high half reaches HalfMax::fold
// through a virtual call. A full-mask __syncwarp in one arm names the other
// arm's lanes; they never execute that barrier.
//
// What the legacy code computed: every lane of a half writes its half's sum
// (HalfSum) or max (HalfMax) of the in-range values (0 for lanes past n and
// for lanes a partial warp lacks; 16 padding slots past the block are 0).
// converged: sum + 1000000 * max, per in-range lane; hidden: the low half
// gets its sum, the high half its max.
//
// @shapes 128x40:5000 64x100:6400 96x37:3500 1024x3:3000
// @sanitize 64x2:120
// @time 256x4096:1048576
#include "../../harness.h"

#include <new>

constexpr int kMaxBlock = 1024;

struct HalfSum {
  volatile int *s;
  int *dst;
  int v;
  __device__ ~HalfSum() {
    unsigned t = threadIdx.x;
    unsigned l = t & 15;
    s[t] = v;
    if (l < 8) s[t] += s[t + 8];
    if (l < 4) s[t] += s[t + 4];
    if (l < 2) s[t] += s[t + 2];
    if (l < 1) s[t] += s[t + 1];
    *dst = s[t & ~15u];
  }
};

struct Folding {
  __device__ virtual int fold(volatile int *s, int v) { return -1; }
};

struct HalfMax : Folding {
  __device__ int fold(volatile int *s, int v) override {
    unsigned t = threadIdx.x;
    unsigned l = t & 15;
    s[t] = v;
    if (l < 8) s[t] = max(s[t], s[t + 8]);
    if (l < 4) s[t] = max(s[t], s[t + 4]);
    if (l < 2) s[t] = max(s[t], s[t + 2]);
    if (l < 1) s[t] = max(s[t], s[t + 1]);
    return s[t & ~15u];
  }
};

__global__ void converged(const int *in, int *out, int n) {
  __shared__ int a[kMaxBlock + 16], b[kMaxBlock + 16];
  for (int k = threadIdx.x; k < kMaxBlock + 16; k += blockDim.x)
    a[k] = b[k] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 0;
  int sum = 0;
  alignas(HalfSum) unsigned char storage[sizeof(HalfSum)];
  HalfSum *h = new (storage) HalfSum{a, &sum, x};
  h->~HalfSum();
  HalfMax hm;
  int mx = hm.fold(b, x);
  if (i < n)
    out[i] = sum + 1000000 * mx;
}

__global__ void hidden(const int *in, int *out, int n) {
  __shared__ int a[kMaxBlock + 16];
  for (int k = threadIdx.x; k < kMaxBlock + 16; k += blockDim.x)
    a[k] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 0;
  int r = 0;
  if ((threadIdx.x & 31) < 16) {
    HalfSum h{a, &r, x};
    x += 1;
  } else {
    HalfMax hm;
    Folding *f = &hm;
    r = f->fold(a, x);
  }
  if (i < n)
    out[i] = r;
}

struct Expected {
  std::vector<int> converged, hidden;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int h = 0; h * 16 < s.blockSize; ++h) {
      int base = b * s.blockSize + h * 16;
      int sum = 0, mx = 0;
      for (int l = 0; l < 16 && h * 16 + l < s.blockSize; ++l) {
        int i = base + l;
        int x = i < s.n ? in[i] : 0;
        sum += x;
        mx = std::max(mx, x);
      }
      for (int l = 0; l < 16 && h * 16 + l < s.blockSize; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        e.converged[i] = sum + 1000000 * mx;
        e.hidden[i] = (h % 2 == 0) ? sum : mx;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 16 == 0, "the sums are over 16-lane halves");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, 0, 1000);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dConv(s.n), dHidden(s.n);
  return harness::run(s,
                      {harness::expect("converged", dConv, want.converged),
                       harness::expect("hidden", dHidden, want.hidden)},
                      [&] {
                        converged<<<s.numBlocks, s.blockSize>>>(dIn.get(), dConv.get(), s.n);
                        hidden<<<s.numBlocks, s.blockSize>>>(dIn.get(), dHidden.get(), s.n);
                      });
}
