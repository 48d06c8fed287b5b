// What warpfix does since: a call it does not follow (through a pointer, more
// than four calls deep) that gets shared memory, and the destructor of a
// local object whose constructor got shared memory, may touch any element
// of it: their races are reported, never fixed ("no automatic fix: this call
// gets shared memory 'sh', and warpfix does not follow it ..."). A function
// whose only statement returns a reference names the element it returns, so
// viaReference is fixed in full (a barrier before `int y`, too). 8 findings,
// 2 fixed, 6 remain; the remaining racecheck hazards are those reported.
//
// Red team, stores made by calls that warpfix's walk does not enter. Each
// kernel: a hidden store of v to s[t], `int y = get(s, t ^ 1);` (RAW with
// the hidden store), `s[t] = y + v;`, `int z = s[t ^ 2];`. The hidden store:
//  - viaDestructor: `{ Publish p(s, t, v); }`, the destructor stores
//    `*slot = value` at the end of the scope (destructors are not walked;
//    the constructor only takes &s[t]);
//  - viaReference: `slot(s, t) = v;`, a store through the reference that
//    `volatile int &slot(volatile int *s, int i) { return s[i]; }` returns
//    (a call's result is no name warpfix follows, and `return s[i];` binds a
//    reference, no access);
//  - viaDeepCalls: level0 -> level1 -> ... -> level4, which stores; calls
//    more than four deep are not entered;
//  - viaPointer: `Store store = storeVia; store(sh, threadIdx.x, v);`, an
//    indirect call (not entered).
// In each kernel warpfix reports the WAR/RAW of `s[t] = y + v;` and fixes
// it, "4 findings fixed, 0 remain":
//      int y = get(s, t ^ 1);
//   +  __syncwarp(0xffffffff);
//      s[t] = y + v;
//   +  __syncwarp(0xffffffff);
//      int z = s[t ^ 2];
// WRONG (a false claim, four times): no barrier orders the hidden store of
// s[t ^ 1] (by lane t ^ 1) before `get(s, t ^ 1)`; it belongs before
// `int y = ...`. warpfix says nothing about the calls it did not enter.
//
// What the legacy code computed: lockstep; out[i] = v[j ^ 1] + v[j],
// j = i ^ 2 (0 past n). Blocks are multiples of 4.
//
// Expected on the GPU: outputs match; racecheck reports RAW hazards between
// each hidden store and get() in the rewritten program, for which warpfix
// reports nothing left.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

__device__ int get(const volatile int *s, int i) { return s[i]; }

// (a) A store made by a destructor, at the end of the scope.
struct Publish {
  volatile int *slot;
  int value;
  __device__ Publish(volatile int *s, int i, int v) : slot(&s[i]), value(v) {}
  __device__ ~Publish() { *slot = value; }
};

// (b) A store through the reference a helper returns.
__device__ volatile int &slot(volatile int *s, int i) { return s[i]; }

// (c) A store five calls down.
__device__ void level4(volatile int *s, int i, int v) { s[i] = v; }
__device__ void level3(volatile int *s, int i, int v) { level4(s, i, v); }
__device__ void level2(volatile int *s, int i, int v) { level3(s, i, v); }
__device__ void level1(volatile int *s, int i, int v) { level2(s, i, v); }
__device__ void level0(volatile int *s, int i, int v) { level1(s, i, v); }

// (d) A store through a function pointer.
__device__ void storeVia(volatile int *s, int i, int v) { s[i] = v; }
typedef void (*Store)(volatile int *, int, int);

// Each kernel: the hidden store of v, the neighbour's v read, its own slot
// overwritten with the sum, the slot two lanes away read.

__global__ void viaDestructor(const int *in, int *out, int n) {
  __shared__ int sh[kMaxBlock];
  volatile int *s = sh;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  {
    Publish p(s, t, v);
  }
  int y = get(s, t ^ 1);
  s[t] = y + v;
  int z = s[t ^ 2];
  if (i < n)
    out[i] = z;
}

__global__ void viaReference(const int *in, int *out, int n) {
  __shared__ int sh[kMaxBlock];
  volatile int *s = sh;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  slot(s, t) = v;
  int y = get(s, t ^ 1);
  s[t] = y + v;
  int z = s[t ^ 2];
  if (i < n)
    out[i] = z;
}

__global__ void viaDeepCalls(const int *in, int *out, int n) {
  __shared__ int sh[kMaxBlock];
  volatile int *s = sh;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  level0(s, t, v);
  int y = get(s, t ^ 1);
  s[t] = y + v;
  int z = s[t ^ 2];
  if (i < n)
    out[i] = z;
}

__global__ void viaPointer(const int *in, int *out, int n) {
  __shared__ int sh[kMaxBlock];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  Store store = storeVia;
  store(sh, threadIdx.x, v);
  int y = get(sh, t ^ 1);
  sh[t] = y + v;
  int z = sh[t ^ 2];
  if (i < n)
    out[i] = z;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 4 == 0, "lanes ^ 1 and ^ 2 must exist");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000000, 1000000);
  auto value = [&](int j) { return j < s.n ? in[j] : 0; };
  std::vector<int> want(s.n);
  for (int i = 0; i < s.n; ++i) {
    int j = i ^ 2;
    want[i] = value(j ^ 1) + value(j);
  }
  harness::DeviceArray<int> dIn(in), dA(s.n), dB(s.n), dC(s.n), dD(s.n);
  return harness::run(s,
                      {harness::expect("viaDestructor", dA, want),
                       harness::expect("viaReference", dB, want),
                       harness::expect("viaDeepCalls", dC, want),
                       harness::expect("viaPointer", dD, want)},
                      [&] {
                        viaDestructor<<<s.numBlocks, s.blockSize>>>(dIn.get(), dA.get(), s.n);
                        viaReference<<<s.numBlocks, s.blockSize>>>(dIn.get(), dB.get(), s.n);
                        viaDeepCalls<<<s.numBlocks, s.blockSize>>>(dIn.get(), dC.get(), s.n);
                        viaPointer<<<s.numBlocks, s.blockSize>>>(dIn.get(), dD.get(), s.n);
                      });
}
