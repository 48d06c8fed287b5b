#define FULL_MASK 0xffffffff

// Both calls share the ballot hoisted before the branch; the suppressed one
// keeps its legacy call and the other is still fixed.
__global__ void shared_ballot(int *p, int n) {
  int lane = threadIdx.x % 32;
  if (lane < n) {
    int v = p[lane];
    v += __shfl_xor(v, 1); // NOLINT(warp-legacy-intrinsic)
    v += __shfl_xor(v, 2);
    p[lane] = v;
  }
}

// NOLINTBEGIN(warp-activemask-mask)
__global__ void keep_activemask(int *p) {
  p[threadIdx.x] = __shfl_sync(__activemask(), p[threadIdx.x], 0);
}
// NOLINTEND(warp-activemask-mask)

__global__ void fix_activemask(int *p) {
  p[threadIdx.x] = __shfl_sync(__activemask(), p[threadIdx.x], 0);
}

__global__ void reduce(volatile int *out) {
  __shared__ volatile int s[64];
  unsigned tid = threadIdx.x;
  s[tid] = tid;
  __syncthreads();
  if (tid < 32) {
    s[tid] += s[tid + 16]; // NOLINT
    s[tid] += s[tid + 8];  // NOLINT
  }
  out[tid] = s[tid] + __any(tid == 3); // NOLINTNEXTLINE
}
