// Constructs that clang 19 rejects by default and nvcc accepts parse without
// an error: `X::template f(args)` with no template argument list (CUB 1.x),
// `register` in C++17, and narrowing in braces.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --strict-parse %t/k.cu 2>&1 | FileCheck %s --implicit-check-not=error:

struct Load {
  template <typename T> static __device__ T get(const T *p) { return *p; }
};
template <typename L> __device__ int first(const int *p) {
  return L::template get(p);
}

__global__ void k(int *o, double d) {
  register int v = first<Load>(o);
  int w[1] = {d};
  v += __shfl_down(v + w[0], 1);
  // CHECK: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  o[threadIdx.x] = v;
}
