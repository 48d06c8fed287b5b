// Red team, computed-once ballots: conditions of many kinds read from global
// memory, each computed once into `const bool NAME_taken = <condition>;`.
// The text of the condition is copied into an initialisation, where a bare
// `if (x)` converts x to bool contextually; these must all mean the same:
// a pointer (null or not), a float (0.0f, -0.0f, NaN, 0.5f), an enum
// compared with an enumerator, a char, a bool, a macro that expands to the
// whole condition, a top-level comma (which needs parentheses in the
// initialiser), a `?:` over two arrays, and, in a kernel template
// instantiated for int, float and double, a comparison with T(0) with an
// else arm. A condition through a pointer to volatile is refused (a volatile
// read "cannot be evaluated again"): that call stays legacy, and the
// rewritten program is built with the emulation header for it.
//
// What the legacy code computed: every condition belongs to a pair of
// threads (index i / 2), so both lanes of a pair take the same arm and
// __shfl_xor(v, 1) reads a lane of the same arm; each taken branch adds the
// partner's value masked to 8 bits (v += partner & 255, both lanes at once).
// The template's else arm subtracts the number of odd values among the
// warp's lanes in the else arm. Threads past n take part with v = 0; outputs
// hold the n in-range values.
//
// Shapes: even block sizes (a lane's pair partner must exist).
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

enum Mode : unsigned char { Off, Low, High };

#define PAIR_BIT(array, index) ((array)[(index) / 2] & 1)

__global__ void kinds(const int *in, const int *const *rows, const float *weights,
                      const Mode *modes, const char *tags, const bool *marks, const int *keys,
                      const int *alt, int sel, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  if (rows[i / 2]) {
    v += __shfl_xor(v, 1) & 255;
  }
  if (weights[i / 2]) {
    v += __shfl_xor(v, 1) & 255;
  }
  if (modes[i / 2] == High) {
    v += __shfl_xor(v, 1) & 255;
  }
  if (tags[i / 2]) {
    v += __shfl_xor(v, 1) & 255;
  }
  if (marks[i / 2]) {
    v += __shfl_xor(v, 1) & 255;
  }
  if (PAIR_BIT(keys, i)) {
    v += __shfl_xor(v, 1) & 255;
  }
  if ((void)v, keys[i / 2] > 500) {
    v += __shfl_xor(v, 1) & 255;
  }
  if (sel ? alt[i / 2] : keys[i / 2] & 2) {
    v += __shfl_xor(v, 1) & 255;
  }
  if (i < n)
    out[i] = v;
}

__global__ void volatileFlag(const int *in, volatile int *flags, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  if (flags[i / 2] != 0) {
    v += __shfl_xor(v, 1) & 255;
  }
  if (i < n)
    out[i] = v;
}

template <class T>
__global__ void byType(const T *in, const T *weights, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T v = i < n ? in[i] : T(0);
  if (weights[i / 2] > T(0)) {
    v += __shfl_xor(v, 1);
  } else {
    v -= T(__popc(__ballot((int)v & 1)));
  }
  if (i < n)
    out[i] = v;
}

struct Inputs {
  std::vector<int> in, keys, alt, flags;
  std::vector<int> rowSet;
  std::vector<float> weights;
  std::vector<Mode> modes;
  std::vector<char> tags;
  std::vector<char> marks; // bool on the device
  std::vector<int> typed;  // weights of byType, small integers
};

struct Expected {
  std::vector<int> kinds, vol, typedInt;
  std::vector<float> typedFloat;
  std::vector<double> typedDouble;
};

static Expected reference(const Inputs &x, int sel, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n), std::vector<int>(s.n),
             std::vector<float>(s.n), std::vector<double>(s.n)};
  int threads = s.blockSize * s.numBlocks;
  auto at = [&](int i) { return i < s.n ? x.in[i] : 0; };
  for (int p = 0; p < threads / 2; ++p) {
    int a = at(2 * p), b = at(2 * p + 1);
    auto step = [&](bool taken) {
      if (taken) {
        int na = a + (b & 255), nb = b + (a & 255);
        a = na;
        b = nb;
      }
    };
    float w = x.weights[p];
    step(x.rowSet[p] != 0);
    step(w != 0.0f || w != w);
    step(x.modes[p] == High);
    step(x.tags[p] != 0);
    step(x.marks[p] != 0);
    step(x.keys[p] & 1);
    step(x.keys[p] > 500);
    step(sel ? x.alt[p] != 0 : (x.keys[p] & 2) != 0);
    if (2 * p < s.n)
      e.kinds[2 * p] = a;
    if (2 * p + 1 < s.n)
      e.kinds[2 * p + 1] = b;
    a = at(2 * p);
    b = at(2 * p + 1);
    step(x.flags[p] != 0);
    if (2 * p < s.n)
      e.vol[2 * p] = a;
    if (2 * p + 1 < s.n)
      e.vol[2 * p + 1] = b;
  }
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int bl = 0; bl < s.numBlocks; ++bl)
    for (int w = 0; w < warps; ++w) {
      int lanes = harness::lanesInWarp(s.blockSize, w);
      int base = bl * s.blockSize + w * 32;
      int odd = 0;
      for (int l = 0; l < lanes; ++l)
        if (!(x.typed[(base + l) / 2] > 0) && (at(base + l) & 1))
          ++odd;
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        int r = x.typed[i / 2] > 0 ? at(i) + at(i ^ 1) : at(i) - odd;
        e.typedInt[i] = r;
        e.typedFloat[i] = (float)r;
        e.typedDouble[i] = (double)r;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::Rng rng(s.seed);
  int threads = s.blockSize * s.numBlocks, pairs = threads / 2;
  int sel = (int)(s.seed & 1);
  Inputs x;
  x.in = harness::randomInts(rng, s.n, -1000, 1000);
  x.keys = harness::randomInts(rng, pairs, 0, 1000);
  x.alt = harness::randomInts(rng, pairs, 0, 1);
  x.flags = harness::randomInts(rng, pairs, 0, 1);
  x.rowSet = harness::randomInts(rng, pairs, 0, 1);
  x.typed = harness::randomInts(rng, pairs, -3, 3);
  std::vector<int> kindPick = harness::randomInts(rng, pairs, 0, 5);
  const float specials[6] = {0.0f, -0.0f, __builtin_nanf(""), 0.5f, -2.0f, 1e-40f};
  std::vector<int> pick = harness::randomInts(rng, pairs, 0, 5);
  for (int p = 0; p < pairs; ++p) {
    x.weights.push_back(specials[pick[p]]);
    x.modes.push_back((Mode)(kindPick[p] % 3));
    x.tags.push_back(kindPick[p] < 2 ? 0 : (char)(97 + kindPick[p]));
    x.marks.push_back((char)(kindPick[p] & 1));
  }
  Expected want = reference(x, sel, s);

  harness::DeviceArray<int> dIn(x.in), dKeys(x.keys), dAlt(x.alt), dFlags(x.flags), dTarget(1),
      dKinds(s.n), dVol(s.n), dTypedIntIn(x.in), dTypedInt(s.n), dTypedIntW(x.typed);
  std::vector<const int *> rows(pairs);
  for (int p = 0; p < pairs; ++p)
    rows[p] = x.rowSet[p] ? dTarget.get() : nullptr;
  harness::DeviceArray<const int *> dRows(rows);
  harness::DeviceArray<float> dWeights(x.weights), dTypedFloat(s.n),
      dTypedFloatIn(std::vector<float>(x.in.begin(), x.in.end())),
      dTypedFloatW(std::vector<float>(x.typed.begin(), x.typed.end()));
  harness::DeviceArray<double> dTypedDouble(s.n),
      dTypedDoubleIn(std::vector<double>(x.in.begin(), x.in.end())),
      dTypedDoubleW(std::vector<double>(x.typed.begin(), x.typed.end()));
  harness::DeviceArray<Mode> dModes(x.modes);
  harness::DeviceArray<char> dTags(x.tags), dMarks(x.marks);
  return harness::run(
      s,
      {harness::expect("kinds", dKinds, want.kinds), harness::expect("volatileFlag", dVol, want.vol),
       harness::expect("byTypeInt", dTypedInt, want.typedInt),
       harness::expect("byTypeFloat", dTypedFloat, want.typedFloat),
       harness::expect("byTypeDouble", dTypedDouble, want.typedDouble)},
      [&] {
        kinds<<<s.numBlocks, s.blockSize>>>(dIn.get(), dRows.get(), dWeights.get(), dModes.get(),
                                            dTags.get(), (const bool *)dMarks.get(), dKeys.get(),
                                            dAlt.get(), sel, dKinds.get(), s.n);
        volatileFlag<<<s.numBlocks, s.blockSize>>>(dIn.get(), dFlags.get(), dVol.get(), s.n);
        byType<int><<<s.numBlocks, s.blockSize>>>(dTypedIntIn.get(), dTypedIntW.get(),
                                                  dTypedInt.get(), s.n);
        byType<float><<<s.numBlocks, s.blockSize>>>(dTypedFloatIn.get(), dTypedFloatW.get(),
                                                    dTypedFloat.get(), s.n);
        byType<double><<<s.numBlocks, s.blockSize>>>(dTypedDoubleIn.get(), dTypedDoubleW.get(),
                                                     dTypedDouble.get(), s.n);
      });
}
