// harness.h: the host side shared by every runtime-test case.
//
// A case is one .cu file: legacy kernels, a CPU reference, and a main() that
// hands its inputs, expected outputs and launch to harness::run. That keeps the
// part warpfix rewrites (the kernels) apart from plumbing that is the same
// everywhere, so that a case reads as the kernel it tests.
//
// Every program takes `<blockSize> <numBlocks> <n> <seed> <launches>` and prints
//   RESULT ok launches=<k>              every launch matched the reference, or
//   RESULT mismatch <where> ...         (exit 1), or
//   RESULT error <why>                  (exit 2: bad shape, CUDA error),
// then `TIME_MS <median>`: the median over the launches of the kernel time
// measured with CUDA events. run.py reads these lines.
//
// With a sixth argument, `serve`, the program is one side of run.py's timing
// phase instead (see serve() below): it launches the kernel whenever run.py
// asks on stdin, so that run.py can interleave launches of the original and
// the rewritten program sample by sample.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#define CHECK_CUDA(call) ::harness::checkCuda((call), #call, __FILE__, __LINE__)

namespace harness {

struct Shape {
  int blockSize;
  int numBlocks;
  int n;
  unsigned seed;
  int launches;
  bool serve; // timing mode: launch on request from stdin (serve())
};

inline void checkCuda(cudaError_t status, const char *call, const char *file, int line) {
  if (status == cudaSuccess)
    return;
  printf("RESULT error %s:%d: %s: %s\n", file, line, call, cudaGetErrorString(status));
  exit(2);
}

inline Shape parseShape(int argc, char **argv) {
  bool serve = argc == 7 && strcmp(argv[6], "serve") == 0;
  if (argc != 6 && !serve) {
    fprintf(stderr, "usage: %s <blockSize> <numBlocks> <n> <seed> <launches> [serve]\n", argv[0]);
    exit(2);
  }
  Shape s{atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), (unsigned)strtoul(argv[4], nullptr, 10),
          atoi(argv[5]), serve};
  if (s.blockSize < 1 || s.blockSize > 1024 || s.numBlocks < 1 || s.n < 0 || s.launches < 1) {
    printf("RESULT error invalid shape\n");
    exit(2);
  }
  printf("SHAPE blockSize=%d numBlocks=%d n=%d seed=%u launches=%d%s\n", s.blockSize, s.numBlocks,
         s.n, s.seed, s.launches, serve ? " serve" : "");
  fflush(stdout);
  return s;
}

// A shape the case's legacy kernel is not defined for (each case says why
// beside its call) is refused rather than run.
inline void require(bool ok, const char *why) {
  if (ok)
    return;
  printf("RESULT error unsupported shape: %s\n", why);
  exit(2);
}

inline int warpsPerBlock(int blockSize) { return (blockSize + 31) / 32; }

// Threads of warp `warp` that exist in a block of blockSize threads: a block
// whose size is not a multiple of 32 ends with a partial warp.
inline int lanesInWarp(int blockSize, int warp) { return std::min(32, blockSize - 32 * warp); }

// splitmix64: a fixed generator, so that a seed means the same input on every
// machine and every standard library.
class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() { return mix(state_ += kStep); }
  // Uniform in [lo, hi].
  long long range(long long lo, long long hi) { return inRange(next(), lo, hi); }

  // What next() returns k + 1 calls from now, without advancing: the state
  // only counts, so randomInts can fill a large input on several threads and
  // still give exactly the sequence of one.
  uint64_t peek(uint64_t k) const { return mix(state_ + (k + 1) * kStep); }
  void skip(uint64_t count) { state_ += count * kStep; }
  static long long inRange(uint64_t random, long long lo, long long hi) {
    return lo + (long long)(random % (uint64_t)(hi - lo + 1));
  }

private:
  static constexpr uint64_t kStep = 0x9E3779B97F4A7C15ull;
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

// `count` values of rng.range(lo, hi), in order. The timing phase grows inputs
// to around 10^9 elements, where one thread would take most of the run.
inline std::vector<int> randomInts(Rng &rng, int count, int lo, int hi) {
  std::vector<int> v(count);
  const size_t kPerThread = 1 << 22;
  size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                    (v.size() + kPerThread - 1) / kPerThread);
  auto fill = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k)
      v[k] = (int)Rng::inRange(rng.peek(k), lo, hi);
  };
  if (threads <= 1) {
    fill(0, v.size());
  } else {
    std::vector<std::thread> workers;
    size_t chunk = (v.size() + threads - 1) / threads;
    for (size_t begin = 0; begin < v.size(); begin += chunk)
      workers.emplace_back(fill, begin, std::min(v.size(), begin + chunk));
    for (std::thread &w : workers)
      w.join();
  }
  rng.skip(v.size());
  return v;
}

// Outputs are filled with this byte before every launch, so that an element a
// kernel should have written but did not can never pass for a right answer.
// A reference element that the kernel must leave alone is sentinel<T>().
constexpr unsigned char kSentinelByte = 0xA5;

template <class T> T sentinel() {
  T value;
  memset(&value, kSentinelByte, sizeof value);
  return value;
}

template <class T> class DeviceArray {
public:
  explicit DeviceArray(size_t count) : count_(count) {
    CHECK_CUDA(cudaMalloc(&ptr_, std::max<size_t>(count, 1) * sizeof(T)));
  }
  explicit DeviceArray(const std::vector<T> &host) : DeviceArray(host.size()) {
    CHECK_CUDA(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  ~DeviceArray() { cudaFree(ptr_); }

  T *get() const { return ptr_; }
  size_t count() const { return count_; }

private:
  T *ptr_ = nullptr;
  size_t count_;
};

inline std::string show(int v) { return std::to_string(v); }
inline std::string show(unsigned v) { return std::to_string(v); }
inline std::string show(long long v) { return std::to_string(v); }
inline std::string show(unsigned long long v) { return std::to_string(v); }
inline std::string show(double v) {
  char text[64];
  snprintf(text, sizeof text, "%.17g(%a)", v, v);
  return text;
}
inline std::string show(float v) { return show((double)v); }

// One device output and the bytes the CPU reference says it must hold.
struct Output {
  std::string name;
  void *device;
  std::vector<unsigned char> want;
  size_t elementSize;
  // Prints element `index` of a host copy of this output.
  std::function<std::string(const unsigned char *bytes, size_t index)> element;
};

template <class T>
Output expect(const char *name, DeviceArray<T> &device, const std::vector<T> &want) {
  if (device.count() != want.size()) {
    printf("RESULT error output %s: %zu elements on the device, %zu in the reference\n", name,
           device.count(), want.size());
    exit(2);
  }
  Output out{name, device.get(), {}, sizeof(T), nullptr};
  out.want.resize(want.size() * sizeof(T));
  memcpy(out.want.data(), want.data(), out.want.size());
  out.element = [](const unsigned char *bytes, size_t index) {
    T value;
    memcpy(&value, bytes + index * sizeof(T), sizeof(T));
    return show(value);
  };
  return out;
}

// Prints the first differing element and how many differ; false on a mismatch.
inline bool matches(const Output &out, const std::vector<unsigned char> &got, int launch) {
  if (memcmp(got.data(), out.want.data(), got.size()) == 0)
    return true;
  size_t elements = got.size() / out.elementSize, differing = 0, first = 0;
  for (size_t i = elements; i-- > 0;) {
    if (memcmp(&got[i * out.elementSize], &out.want[i * out.elementSize], out.elementSize)) {
      ++differing;
      first = i;
    }
  }
  printf("RESULT mismatch output=%s launch=%d index=%zu got=%s want=%s differing=%zu/%zu\n",
         out.name.c_str(), launch, first, out.element(got.data(), first).c_str(),
         out.element(out.want.data(), first).c_str(), differing, elements);
  return false;
}

inline float median(std::vector<float> values) {
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

inline void resetOutputs(const std::vector<Output> &outputs) {
  for (const Output &out : outputs)
    CHECK_CUDA(cudaMemset(out.device, kSentinelByte, out.want.size()));
  CHECK_CUDA(cudaDeviceSynchronize());
}

// One launch between two events, the kernel alone: its time in ms.
inline float timedLaunch(cudaEvent_t start, cudaEvent_t stop,
                         const std::function<void()> &launch) {
  CHECK_CUDA(cudaEventRecord(start));
  launch();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(stop));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

// Timing mode. After one untimed launch (the first pays for loading the
// module) it prints `READY`; then each line `time` on stdin resets the outputs,
// launches the kernel once between two CUDA events and prints
// `SAMPLE <ms>`, until a line `end` or the end of stdin. The outputs of the
// last launch are compared with the reference as in run(): a timing of a
// kernel that computed something else would be no timing of it. Then the
// RESULT line and TIME_MS as in run(). Checking only at the end keeps the
// copies of outputs of ~10^9 elements out of the loop.
inline int serve(const std::vector<Output> &outputs, const std::function<void()> &launch) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  resetOutputs(outputs);
  launch();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  printf("READY\n");
  fflush(stdout);
  std::vector<float> times;
  char request[64];
  while (fgets(request, sizeof request, stdin) && strncmp(request, "end", 3) != 0) {
    if (strncmp(request, "time", 4) != 0) {
      printf("RESULT error unknown request: %s\n", request);
      exit(2);
    }
    resetOutputs(outputs);
    float ms = timedLaunch(start, stop, launch);
    times.push_back(ms);
    printf("SAMPLE %.6f\n", ms);
    fflush(stdout);
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  bool ok = true;
  for (const Output &out : outputs) {
    std::vector<unsigned char> got(out.want.size());
    CHECK_CUDA(cudaMemcpy(got.data(), out.device, got.size(), cudaMemcpyDeviceToHost));
    ok = ok && matches(out, got, (int)times.size());
  }
  if (!ok)
    return 1;
  printf("RESULT ok launches=%zu\n", times.size() + 1);
  if (!times.empty())
    printf("TIME_MS %.6f\n", median(times));
  return 0;
}

// Launches the kernel shape.launches times. Before each launch the outputs are
// reset to the sentinel; after it they are compared bit for bit with the
// reference, so that a race that shows only now and then gets as many chances
// as there are launches. Only the kernel itself lies between the two events.
inline int run(const Shape &shape, const std::vector<Output> &outputs,
               const std::function<void()> &launch) {
  if (shape.serve)
    return serve(outputs, launch);
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> times;
  bool ok = true;
  for (int k = 0; k < shape.launches && ok; ++k) {
    resetOutputs(outputs);
    times.push_back(timedLaunch(start, stop, launch));
    for (const Output &out : outputs) {
      std::vector<unsigned char> got(out.want.size());
      CHECK_CUDA(cudaMemcpy(got.data(), out.device, got.size(), cudaMemcpyDeviceToHost));
      ok = ok && matches(out, got, k);
    }
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  if (!ok)
    return 1;
  printf("RESULT ok launches=%d\n", shape.launches);
  printf("TIME_MS %.6f\n", median(times));
  return 0;
}

} // namespace harness
