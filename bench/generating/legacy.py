"""Legacy translation units: small pre-Volta kernels (legacy shuffles and
votes, volatile warp reductions on shared memory, __activemask() masks and
the like), one to three of them per TU, assembled by legacy_tu; LEGACY is the
set they are drawn from.
"""

# Legacy kernels: each TU holds one to three of these.


def legacy_shfl_reduce(rng, n):
    t = rng.choice(["int", "float", "double", "unsigned"])
    return f"""
__inline__ __device__ {t} {n}_warp_sum({t} val) {{
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  return val;
}}

__global__ void {n}_block_sum(const {t} *in, {t} *out, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  {t} val = i < n ? in[i] : {t}(0);
  {t} first = __shfl(val, 0);
  val = {n}_warp_sum(val);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(out, val + {t}(0) * first);
}}
"""


def legacy_votes(rng, n):
    return f"""
__global__ void {n}_count(const float *x, unsigned *counts, int *flags) {{
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned positive = __ballot(v > 0.0f);
  int anyNegative = __any(v < 0.0f);
  int allFinite = __all(v == v);
  if (threadIdx.x % 32 == 0) {{
    counts[blockIdx.x * blockDim.x / 32 + threadIdx.x / 32] = __popc(positive);
    flags[blockIdx.x] = anyNegative | (allFinite << 1);
  }}
}}
"""


def legacy_rotate(rng, n):
    return f"""
__global__ void {n}_rotate(float *data) {{
  float value = data[blockIdx.x * blockDim.x + threadIdx.x];
  int lane = threadIdx.x & 31;
  float left = __shfl(value, (lane + 31) & 31);
  float right = __shfl(value, (lane + 1) & 31);
  float pair = __shfl_xor(value, 1);
  data[blockIdx.x * blockDim.x + threadIdx.x] = left + right + pair;
}}
"""


def legacy_volatile_reduce(rng, n):
    return f"""
template <unsigned int blockSize>
__device__ void {n}_warp_reduce(volatile int *sdata, unsigned int tid) {{
  if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
  if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
  if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
  if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
  if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
  if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}}

template <unsigned int blockSize>
__global__ void {n}_reduce(int *g_idata, int *g_odata, unsigned int n) {{
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + tid;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  sdata[tid] = 0;
  while (i < n) {{
    sdata[tid] += g_idata[i] + g_idata[i + blockSize];
    i += gridSize;
  }}
  __syncthreads();
  if (blockSize >= 256) {{ if (tid < 128) {{ sdata[tid] += sdata[tid + 128]; }} __syncthreads(); }}
  if (blockSize >= 128) {{ if (tid < 64) {{ sdata[tid] += sdata[tid + 64]; }} __syncthreads(); }}
  if (tid < 32) {n}_warp_reduce<blockSize>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}}
template __global__ void {n}_reduce<256>(int *, int *, unsigned int);
template __global__ void {n}_reduce<64>(int *, int *, unsigned int);
"""


def legacy_listing7(rng, n):
    return f"""
__global__ void {n}_tree(int *out) {{
  __shared__ int shmem[64];
  unsigned tid = threadIdx.x;
  shmem[tid] = out[tid];
  __syncthreads();
  if (tid < 32) {{
    shmem[tid] += shmem[tid+16];
    shmem[tid] += shmem[tid+8];
    shmem[tid] += shmem[tid+4];
    shmem[tid] += shmem[tid+2];
    shmem[tid] += shmem[tid+1];
  }}
  if (tid == 0)
    out[blockIdx.x] = shmem[0];
}}
"""


def legacy_activemask(rng, n):
    limit = rng.choice([10, 20, 24])
    return f"""
__global__ void {n}_partial(const int *input, int *out) {{
  int val = 0;
  if (threadIdx.x < {limit}) {{
    unsigned mask = __activemask();
    val = input[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
      val += __shfl_down_sync(mask, val, offset);
  }}
  out[threadIdx.x] = val;
}}

__global__ void {n}_converged(int *p) {{
  p[threadIdx.x] += __shfl_xor_sync(__activemask(), p[threadIdx.x], 1);
}}
"""


def legacy_compact(rng, n):
    return f"""
__global__ void {n}_compact(const int *in, int *out, int *count) {{
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v == 0)
    return;
  unsigned keep = __ballot(1);
  int lane = threadIdx.x % 32;
  int rank = __popc(keep & ((1u << lane) - 1));
  int base = 0;
  if (rank == 0)
    base = atomicAdd(count, __popc(keep));
  base = __shfl(base, __ffs(keep) - 1);
  out[base + rank] = v;
}}
"""


def legacy_scan(rng, n):
    t = rng.choice(["int", "float"])
    return f"""
__global__ void {n}_warp_scan({t} *data) {{
  int lane = threadIdx.x & 31;
  {t} v = data[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {{
    {t} up = __shfl_up  (v, d);
    if (lane >= d)
      v += up;
  }}
  data[blockIdx.x * blockDim.x + threadIdx.x] = v;
}}
"""


def legacy_macros(rng, n):
    return f"""
#define {n.upper()}_SHFL_DOWN(v, o) __shfl_down((v), (o))

__global__ void {n}_macro_sum(float *p) {{
  float v = p[threadIdx.x];
  v += {n.upper()}_SHFL_DOWN(v, 16);
  v += {n.upper()}_SHFL_DOWN(v, 8);
  v += {n.upper()}_SHFL_DOWN(v, 4);
  p[threadIdx.x] = v;
}}
"""


def legacy_subwarp(rng, n):
    width = rng.choice([4, 8, 16])
    return f"""
__global__ void {n}_segments(float *p) {{
  float v = p[blockIdx.x * blockDim.x + threadIdx.x];
  for (int m = {width} / 2; m > 0; m /= 2)
    v += __shfl_xor(v, m, {width});
  p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}}
"""


def legacy_header_user(rng, n):
    return f"""
__global__ void {n}_stats(const float *x, float *sum, int *top, unsigned *big) {{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  float s = legacyWarpSum(v);
  int m = legacyWarpMax(static_cast<int>(v));
  unsigned c = legacyWarpCount(v > 1.0f);
  if ((threadIdx.x & 31) == 0) {{
    atomicAdd(sum, s);
    atomicMax(top, m);
    atomicAdd(big, c);
  }}
}}
"""


def legacy_arch(rng, n):
    return f"""
__global__ void {n}_broadcast(int *p) {{
  int v = p[threadIdx.x];
#if __CUDA_ARCH__ >= 300
  v = __shfl(v, 0);
#else
  v = p[threadIdx.x & ~31];
#endif
  p[threadIdx.x] = v;
}}
"""


def legacy_ptx_trap(rng, n):
    return f"""
// Already Volta-safe PTX: shfl.sync with an explicit mask.
__device__ __forceinline__ int {n}_ptx_shfl_down(int v, int delta) {{
  int r;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(delta));
  return r;
}}

__global__ void {n}_ptx(int *p) {{
  int v = p[threadIdx.x];
  v += {n}_ptx_shfl_down(v, 1);
  p[threadIdx.x] = v;
}}
"""


LEGACY = [legacy_shfl_reduce, legacy_votes, legacy_volatile_reduce,
          legacy_activemask, legacy_rotate, legacy_listing7, legacy_compact,
          legacy_scan, legacy_macros, legacy_subwarp, legacy_header_user,
          legacy_arch, legacy_ptx_trap]


def legacy_tu(rng, n):
    parts = []
    includes = []
    if rng.random() < 0.5:
        includes.append('#include "util.cuh"')
    else:
        includes.append('#include "config.h"')
    count = rng.choice([1, 2, 2, 3])
    chosen = rng.sample(LEGACY, count)
    if legacy_header_user in chosen:
        includes.append('#include "legacy_warp.cuh"')
    for k, make in enumerate(chosen):
        parts.append(make(rng, f"{n}_{k}"))
    return ("// Legacy warp-synchronous kernels written for Kepler and Pascal.\n"
            + "\n".join(includes) + "\n" + "".join(parts))
