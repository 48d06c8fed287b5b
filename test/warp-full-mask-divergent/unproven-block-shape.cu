// A condition that is warp-uniform in blocks made of whole warps, in a
// kernel whose address is taken (whatever launches it through the address
// may choose any block), is not proven uniform, so a legacy call under it
// gets no fix. It is not lane-dependent either: in a 1-D block every lane of
// a warp takes the same way, so a full mask there is no finding, and the
// refusal says that lanes "may" part. A loop that is lane-dependent still
// makes its full mask a finding.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %s %t/k.cu
int residency(void (*kernel)(const int *, int *, int));

__global__ void grid_stride_by_warp(const int *in, int *out, int n) {
  const int warp_id = (256 * blockIdx.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  for (int w = warp_id; w < n; w += 8 * gridDim.x) {
    int v = in[w * 32 + lane];
    v += __shfl_down_sync(0xffffffff, v, 16);
    v += __shfl_down(v, 8);
    // CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: k.cu:[[@LINE-5]]:3: note: no automatic fix: the loop's condition is warp-uniform only in blocks made of whole warps, which is not known here, so lanes may leave it at different iterations
    // CHECK-MESSAGES: k.cu:[[@LINE+16]]:13: note: the whole-warp assumption is off for kernel 'grid_stride_by_warp': its address is taken here
    if (lane == 0)
      out[w] = v;
  }
}

__global__ void strided_by_lane(const int *in, int *out, int n) {
  int v = 0;
  for (int j = threadIdx.x; j < n; j += 32)
    v += __shfl_down_sync(0xffffffff, in[j], 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:27: warning: the full mask names every lane of the warp, but only some lanes reach
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
  out[threadIdx.x] = v;
}

void host(const int *in, int *out, int n) {
  residency(grid_stride_by_warp);
  grid_stride_by_warp<<<4, 256>>>(in, out, n);
  strided_by_lane<<<1, 32>>>(in, out, n);
}
