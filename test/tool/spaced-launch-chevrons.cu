// nvcc accepts a launch whose chevrons are split by spaces, as Visual
// Studio's formatter writes them; clang needs `<<<` and `>>>` whole and gave
// "expected expression", losing the launch (and the unit's analysis). warpfix
// shows clang such launches joined, at the same length, and leaves the file's
// own text alone: `operator<< <T>` and a template's `>> >` are no launches.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --strict-parse %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --diff %t/k.cu 2>/dev/null | FileCheck %s --check-prefix=DIFF --implicit-check-not='<<<' --implicit-check-not='>>>'
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// A warm cache agrees with the parse about the file's content, so a fix
// taken from the cache is written.
// RUN: cp %s %t/c.cu
// RUN: %expect-exit 1 %warpfix --cache-dir=%t/cache %t/c.cu
// RUN: %expect-exit 0 %warpfix --cache-dir=%t/cache --fix %t/c.cu 2>&1 | FileCheck %s --check-prefix=FROM-CACHE
// RUN: diff %t/once.cu %t/c.cu
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
// FROM-CACHE: fixed 2 findings in 1 file; 0 remain
#include <map>
#include <ostream>
#include <vector>
#define N 1024

template <class T> struct Wrapped { T v; };
template <class T> std::ostream &operator<<(std::ostream &o, const Wrapped<T> &w);
struct Printer {
  friend std::ostream &operator<< <int>(std::ostream &, const Wrapped<int> &);
};
std::map<int, std::vector<std::vector<int>> > table;

__global__ void launched_with_48(int *p) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 1;
  if (gid < N)
    v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void launched_with_64(int *p) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = 1;
  if (gid < N)
    v = __shfl_xor(v, 1);
  p[gid] = v;
}

void host(int *p) {
  launched_with_48 << < N / 48 + 1, 48 >> >(p);
  launched_with_64 << <dim3(N / 64), (128 >> 1) >> > (p);
}

// The launch with 48 threads is seen, and switches the whole-warp assumption
// off for its kernel, as `<<<` does (launch-contradicts-whole-warps.cu).
// CHECK-MESSAGES: k.cu:39:9: warning: '__shfl_xor' is a legacy warp intrinsic
// CHECK-MESSAGES: k.cu:39:9: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:52:3: note: the whole-warp assumption is off for kernel 'launched_with_48': it is launched here with blocks of 48 threads in x, not a multiple of 32
// CHECK-MESSAGES-NEXT: launched_with_48 << < N / 48 + 1, 48 >> >(p);
// CHECK-MESSAGES: k.cu:47:9: warning: '__shfl_xor' is a legacy warp intrinsic
// CHECK-MESSAGES: k.cu:47:9: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: translation units: 1 analysed clean

// DIFF: -    v = __shfl_xor(v, 1);
// DIFF: +    v = __shfl_xor_sync(warpfix_mask_38, v, 1);

// CHECK-FIXES: friend std::ostream &operator<< <int>(std::ostream &, const Wrapped<int> &);
// CHECK-FIXES: std::map<int, std::vector<std::vector<int>> > table;
// CHECK-FIXES: const unsigned warpfix_mask_38 = __ballot_sync(0xffffffff, gid < N);
// CHECK-FIXES: v = __shfl_xor_sync(warpfix_mask_38, v, 1);
// CHECK-FIXES: v = __shfl_xor_sync(0xffffffff, v, 1);
// CHECK-FIXES: launched_with_48 << < N / 48 + 1, 48 >> >(p);
// CHECK-FIXES: launched_with_64 << <dim3(N / 64), (128 >> 1) >> > (p);
