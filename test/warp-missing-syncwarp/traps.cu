// Nothing here may be reported.
// RUN: %expect-exit 0 %warpfix --checks=-*,warp-missing-syncwarp %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// CHECK: 0 findings in 0 files (0 fixable)

// Using CUDA Warp-Level Primitives, listing 8 (with the lane's own element to start from).
__global__ void listing8(int *out) {
  __shared__ int shmem[64];
  unsigned tid = threadIdx.x;
  shmem[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {
    int v = shmem[tid];
    v += shmem[tid+16]; __syncwarp();
    shmem[tid] = v;     __syncwarp();
    v += shmem[tid+8];  __syncwarp();
    shmem[tid] = v;     __syncwarp();
    v += shmem[tid+4];  __syncwarp();
    shmem[tid] = v;     __syncwarp();
  }
  out[tid] = shmem[tid];
}

// Each lane only ever touches its own slot.
__global__ void own_slot(int *p) {
  __shared__ int s[64];
  s[threadIdx.x] = p[threadIdx.x];
  s[threadIdx.x] *= 2;
  p[threadIdx.x] = s[threadIdx.x];
}

// One writer, the readers behind a barrier; a broadcast after a barrier.
__global__ void single_writer(int *p) {
  __shared__ int flag;
  if (threadIdx.x % 32 == 0)
    flag = p[blockIdx.x];
  __syncwarp();
  p[threadIdx.x] = flag;
}

// Accesses separated by __syncthreads(), and accesses to different arrays.
__global__ void separated(float *p) {
  __shared__ float a[64], b[64];
  a[threadIdx.x] = p[threadIdx.x];
  b[threadIdx.x] = p[threadIdx.x] * 2;
  __syncthreads();
  p[threadIdx.x] = a[(threadIdx.x + 1) % 64] + b[threadIdx.x];
}

// Using CUDA Warp-Level Primitives, listing 6: the transpose with its __syncwarp().
__global__ void transpose(float *p) {
  __shared__ float smem[4][8];
  float val = p[threadIdx.x];
  int x1 = threadIdx.x % 8;
  int y1 = threadIdx.x / 8;
  int x2 = threadIdx.x / 4;
  int y2 = threadIdx.x % 4;
  if (threadIdx.x < 32) {
    smem[y1][x1] = val;
    __syncwarp();
    val = smem[y2][x2];
  }
  p[threadIdx.x] = val;
}

// Elements 32 apart only meet across warps: a block-level matter.
__global__ void across_warps(int *p) {
  __shared__ int s[128];
  s[threadIdx.x] = p[threadIdx.x];
  p[threadIdx.x] = s[(threadIdx.x + 32) % 128];
}

// A block-stride zero fill, and a single writer chosen by a condition on
// blockDim.
__global__ void fill_and_publish(int *p) {
  __shared__ int tile[4][48];
  __shared__ int totals[8];
  for (int k = threadIdx.x; k < 4 * 48; k += blockDim.x)
    tile[k / 48][k % 48] = 0;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 31 || threadIdx.x == blockDim.x - 1)
    totals[warp] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = tile[0][threadIdx.x % 48] + totals[0];
}

// Every thread stores one constant to a shared flag or element before the
// barrier (nvbio's aligner setup): in whatever order the lanes store it, the
// flag holds that constant, so there is nothing to order.
__global__ void same_constant_everywhere(const unsigned *in, unsigned *out) {
  __shared__ unsigned best;
  __shared__ float bounds[2];
  best = 0;
  bounds[1] = 1.5f;
  __syncthreads();
  atomicMax(&best, in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = best + (unsigned)bounds[1];
}
