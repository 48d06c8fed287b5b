"""Generates the benchmark's code base: a deterministic mix of CUDA
translation units that looks like a real project, with a compile_commands.json.

Kinds of translation unit (shares of the total, rounded):
  heavy   20%  modern code on CUB, Thrust or cooperative groups: no findings,
               but each costs seconds to parse
  legacy  35%  small pre-Volta kernels: legacy shuffles and votes, volatile
               warp reductions on shared memory, __activemask() masks
  host    25%  host-only C++ in .cu files, some calling the CUDA runtime
  modern  20%  plain device code with none of the tokens the checks look for

Headers in include/ are shared by many TUs: util.cuh (device helpers, clean,
included by most device TUs), legacy_warp.cuh (a legacy warp reduction,
included by some), host_util.h and config.h.

Everything depends only on the seed and the number of TUs, so two runs with the
same arguments write identical files.
"""

import json
import os
import random

KINDS = ("heavy", "legacy", "host", "modern")
PREFIX = {"heavy": "lib", "legacy": "leg", "host": "host", "modern": "dev"}
SHARES = {"heavy": 0.20, "legacy": 0.35, "host": 0.25, "modern": 0.20}

# --------------------------------------------------------------------------
# Shared headers.

CONFIG_H = """\
// Project-wide settings.
#pragma once
#ifndef BENCH_BLOCK
#define BENCH_BLOCK 256
#endif
#define FULL_MASK 0xffffffff
#define WARP_SIZE 32
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
"""

UTIL_CUH = """\
// Device helpers shared by most kernels. Nothing here is warp-synchronous.
#pragma once
#include "config.h"

namespace bench {

__device__ __forceinline__ unsigned global_index() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ unsigned grid_stride() {
  return gridDim.x * blockDim.x;
}

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x % WARP_SIZE; }

__device__ __forceinline__ unsigned warp_id() { return threadIdx.x / WARP_SIZE; }

template <typename T> __host__ __device__ T clamp(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T> __device__ T load_or(const T *p, unsigned i, unsigned n, T fallback) {
  return i < n ? __ldg(p + i) : fallback;
}

__device__ __forceinline__ float fast_sigmoid(float x) {
  return 1.0f / (1.0f + __expf(-x));
}

struct Range {
  unsigned begin, end;
  __host__ __device__ unsigned size() const { return end - begin; }
};

} // namespace bench
"""

LEGACY_WARP_CUH = """\
// Warp reductions written for Kepler, shared by several kernels.
#pragma once
#include "config.h"

template <typename T> __device__ T legacyWarpSum(T val) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  return val;
}

__device__ inline int legacyWarpMax(int val) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    int other = __shfl_xor(val, offset);
    val = val > other ? val : other;
  }
  return val;
}

__device__ inline unsigned legacyWarpCount(bool pred) {
  return __popc(__ballot(pred));
}
"""

HOST_UTIL_H = """\
// Host-side helpers.
#pragma once
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#define BENCH_CHECK(call)                                                      \\
  do {                                                                         \\
    cudaError_t err_ = (call);                                                 \\
    if (err_ != cudaSuccess) {                                                 \\
      std::fprintf(stderr, "%s:%d: %s\\n", __FILE__, __LINE__,                  \\
                   cudaGetErrorString(err_));                                  \\
      std::exit(1);                                                            \\
    }                                                                          \\
  } while (0)

inline std::size_t bench_round_up(std::size_t n, std::size_t m) {
  return (n + m - 1) / m * m;
}
"""

HEADERS = {
    "include/config.h": CONFIG_H,
    "include/util.cuh": UTIL_CUH,
    "include/legacy_warp.cuh": LEGACY_WARP_CUH,
    "include/host_util.h": HOST_UTIL_H,
}

# --------------------------------------------------------------------------
# Heavy: CUB, Thrust, cooperative groups.  Each is a function of (rng, name)
# returning the text of one TU.


def heavy_cub_block_reduce(rng, n):
    t = rng.choice(["int", "float", "double"])
    threads = rng.choice([128, 256, 512])
    items = rng.choice([1, 2, 4])
    return f"""\
// Block-wide sums with CUB.
#include <cub/block/block_reduce.cuh>
#include "util.cuh"

template <int THREADS, int ITEMS>
__global__ void {n}_sum(const {t} *in, {t} *out, unsigned count) {{
  using BlockReduce = cub::BlockReduce<{t}, THREADS>;
  __shared__ typename BlockReduce::TempStorage temp;
  {t} items[ITEMS];
  for (int k = 0; k < ITEMS; ++k)
    items[k] = bench::load_or(in, blockIdx.x * THREADS * ITEMS + k * THREADS + threadIdx.x, count, {t}(0));
  {t} total = BlockReduce(temp).Sum(items);
  if (threadIdx.x == 0)
    out[blockIdx.x] = total;
}}

template __global__ void {n}_sum<{threads}, {items}>(const {t} *, {t} *, unsigned);

struct {n}_max_op {{
  __device__ {t} operator()({t} a, {t} b) const {{ return a > b ? a : b; }}
}};

__global__ void {n}_max(const {t} *in, {t} *out, unsigned count) {{
  using BlockReduce = cub::BlockReduce<{t}, {threads}, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
  __shared__ typename BlockReduce::TempStorage temp;
  {t} v = bench::load_or(in, bench::global_index(), count, {t}(0));
  {t} m = BlockReduce(temp).Reduce(v, {n}_max_op());
  if (threadIdx.x == 0)
    out[blockIdx.x] = m;
}}
"""


def heavy_cub_scan(rng, n):
    t = rng.choice(["int", "unsigned", "float"])
    threads = rng.choice([128, 256])
    items = rng.choice([2, 4, 8])
    return f"""\
// Tile-wide prefix sums with CUB's block load, scan and store.
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include "util.cuh"

constexpr int {n}_threads = {threads};
constexpr int {n}_items = {items};

__global__ void {n}_scan(const {t} *in, {t} *out) {{
  using Load = cub::BlockLoad<{t}, {n}_threads, {n}_items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<{t}, {n}_threads, {n}_items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<{t}, {n}_threads>;
  __shared__ union {{
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  }} temp;
  {t} items[{n}_items];
  int offset = blockIdx.x * {n}_threads * {n}_items;
  Load(temp.load).Load(in + offset, items);
  __syncthreads();
  Scan(temp.scan).ExclusiveSum(items, items);
  __syncthreads();
  Store(temp.store).Store(out + offset, items);
}}
"""


def heavy_cub_warp(rng, n):
    t = rng.choice(["int", "float"])
    return f"""\
// Per-warp reductions with cub::WarpReduce.
#include <cub/warp/warp_reduce.cuh>
#include "util.cuh"

__global__ void {n}_rows(const {t} *matrix, {t} *rows, int width) {{
  using WarpReduce = cub::WarpReduce<{t}>;
  __shared__ typename WarpReduce::TempStorage temp[BENCH_BLOCK / WARP_SIZE];
  int row = blockIdx.x * (blockDim.x / WARP_SIZE) + bench::warp_id();
  {t} acc = 0;
  for (int c = bench::lane_id(); c < width; c += WARP_SIZE)
    acc += matrix[row * width + c];
  {t} total = WarpReduce(temp[bench::warp_id()]).Sum(acc);
  if (bench::lane_id() == 0)
    rows[row] = total;
}}
"""


def heavy_cub_device(rng, n):
    t = rng.choice(["int", "float"])
    return f"""\
// Whole-array algorithms through the CUB umbrella header: host code that
// calls cub::DeviceReduce and cub::DeviceScan.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include "host_util.h"

void {n}_total(const {t} *d_in, {t} *d_out, int count, cudaStream_t stream) {{
  void *scratch = nullptr;
  size_t bytes = 0;
  BENCH_CHECK(cub::DeviceReduce::Sum(scratch, bytes, d_in, d_out, count, stream));
  BENCH_CHECK(cudaMallocAsync(&scratch, bytes, stream));
  BENCH_CHECK(cub::DeviceReduce::Sum(scratch, bytes, d_in, d_out, count, stream));
  BENCH_CHECK(cudaFreeAsync(scratch, stream));
}}

void {n}_prefix(const {t} *d_in, {t} *d_out, int count, cudaStream_t stream) {{
  void *scratch = nullptr;
  size_t bytes = 0;
  BENCH_CHECK(cub::DeviceScan::InclusiveSum(scratch, bytes, d_in, d_out, count, stream));
  BENCH_CHECK(cudaMallocAsync(&scratch, bytes, stream));
  BENCH_CHECK(cub::DeviceScan::InclusiveSum(scratch, bytes, d_in, d_out, count, stream));
  BENCH_CHECK(cudaFreeAsync(scratch, stream));
}}
"""


def heavy_thrust_functional(rng, n):
    return f"""\
// Device-side functors on thrust::complex and thrust's function objects.
#include <thrust/complex.h>
#include <thrust/functional.h>
#include "util.cuh"

struct {n}_magnitude {{
  __host__ __device__ float operator()(const thrust::complex<float> &z) const {{
    return thrust::abs(z);
  }}
}};

__global__ void {n}_spectrum(const thrust::complex<float> *in, float *out, unsigned count) {{
  thrust::plus<float> add;
  thrust::multiplies<float> mul;
  {n}_magnitude mag;
  for (unsigned i = bench::global_index(); i < count; i += bench::grid_stride()) {{
    thrust::complex<float> z = in[i] * thrust::exp(thrust::complex<float>(0.0f, 0.5f));
    out[i] = add(mul(mag(z), 0.5f), thrust::arg(z));
  }}
}}

__global__ void {n}_rotate(thrust::complex<double> *data, double angle, unsigned count) {{
  thrust::complex<double> w = thrust::polar(1.0, angle);
  unsigned i = bench::global_index();
  if (i < count)
    data[i] = thrust::conj(data[i] * w) + thrust::sqrt(data[i]);
}}
"""


def heavy_thrust_host(rng, n):
    t = rng.choice(["int", "float"])
    return f"""\
// Host code on thrust::device_vector: the algorithms are instantiated here.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

struct {n}_square {{
  __host__ __device__ {t} operator()({t} x) const {{ return x * x; }}
}};

{t} {n}_sum_of_squares(int count) {{
  thrust::device_vector<{t}> v(count);
  thrust::sequence(v.begin(), v.end());
  thrust::transform(v.begin(), v.end(), v.begin(), {n}_square());
  return thrust::reduce(v.begin(), v.end(), {t}(0), thrust::plus<{t}>());
}}
"""


def heavy_cg_reduce(rng, n):
    t = rng.choice(["int", "float", "unsigned"])
    size = rng.choice([8, 16, 32])
    return f"""\
// Tile reductions with cooperative groups.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "util.cuh"

namespace cg = cooperative_groups;

__global__ void {n}_tiles(const {t} *in, {t} *out, unsigned count) {{
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<{size}> tile = cg::tiled_partition<{size}>(block);
  {t} v = bench::load_or(in, bench::global_index(), count, {t}(0));
  {t} total = cg::reduce(tile, v, cg::plus<{t}>());
  {t} top = cg::reduce(tile, v, cg::greater<{t}>());
  if (tile.thread_rank() == 0)
    out[bench::global_index() / {size}] = total + top;
}}

__global__ void {n}_neighbours(const {t} *in, {t} *out, unsigned count) {{
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  {t} v = bench::load_or(in, bench::global_index(), count, {t}(0));
  {t} right = tile.shfl_down(v, 1);
  bool any_zero = tile.any(v == 0);
  if (bench::global_index() < count)
    out[bench::global_index()] = any_zero ? v : v - right;
}}
"""


def heavy_cg_block(rng, n):
    return f"""\
// A block-level reduction with cooperative groups and shared memory.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "util.cuh"

namespace cg = cooperative_groups;

__global__ void {n}_block_sum(const float *in, float *out, unsigned count) {{
  __shared__ float partial[BENCH_BLOCK / WARP_SIZE];
  cg::thread_block block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  float v = bench::load_or(in, bench::global_index(), count, 0.0f);
  float s = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0)
    partial[warp.meta_group_rank()] = s;
  block.sync();
  if (warp.meta_group_rank() == 0) {{
    float w = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
    w = cg::reduce(warp, w, cg::plus<float>());
    if (warp.thread_rank() == 0)
      out[blockIdx.x] = w;
  }}
}}
"""


HEAVY = [heavy_cub_block_reduce, heavy_thrust_functional, heavy_cg_reduce,
         heavy_cub_scan, heavy_cg_block, heavy_cub_warp, heavy_thrust_host,
         heavy_cub_block_reduce, heavy_cg_reduce, heavy_cub_device]

# --------------------------------------------------------------------------
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

# --------------------------------------------------------------------------
# Host-only TUs.


def host_runtime(rng, n):
    t = rng.choice(["float", "int", "double"])
    return f"""\
// Host-side buffer management through the CUDA runtime.
#include <cuda_runtime.h>
#include <vector>
#include "host_util.h"

struct {n}_buffer {{
  {t} *device = nullptr;
  std::size_t count = 0;
}};

{n}_buffer {n}_upload(const std::vector<{t}> &host) {{
  {n}_buffer b;
  b.count = host.size();
  BENCH_CHECK(cudaMalloc(&b.device, bench_round_up(b.count, 32) * sizeof({t})));
  BENCH_CHECK(cudaMemcpy(b.device, host.data(), b.count * sizeof({t}), cudaMemcpyHostToDevice));
  return b;
}}

std::vector<{t}> {n}_download(const {n}_buffer &b) {{
  std::vector<{t}> host(b.count);
  BENCH_CHECK(cudaMemcpy(host.data(), b.device, b.count * sizeof({t}), cudaMemcpyDeviceToHost));
  return host;
}}

void {n}_release({n}_buffer &b) {{
  BENCH_CHECK(cudaFree(b.device));
  b.device = nullptr;
  b.count = 0;
}}
"""


def host_launch(rng, n):
    return f"""\
// Launches kernels defined in other translation units.
#include <cuda_runtime.h>
#include "host_util.h"
#include "config.h"

__global__ void {n}_kernel(float *data, int count);

float {n}_run(float *d_data, int count) {{
  cudaEvent_t start, stop;
  BENCH_CHECK(cudaEventCreate(&start));
  BENCH_CHECK(cudaEventCreate(&stop));
  BENCH_CHECK(cudaEventRecord(start));
  {n}_kernel<<<CEIL_DIV(count, BENCH_BLOCK), BENCH_BLOCK>>>(d_data, count);
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaEventRecord(stop));
  BENCH_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  BENCH_CHECK(cudaEventElapsedTime(&ms, start, stop));
  BENCH_CHECK(cudaEventDestroy(start));
  BENCH_CHECK(cudaEventDestroy(stop));
  return ms;
}}
"""


def host_config(rng, n):
    return f"""\
// Command-line and configuration parsing: plain C++.
#include <map>
#include <string>
#include <vector>

struct {n}_options {{
  std::map<std::string, std::string> values;
  std::vector<std::string> inputs;
}};

{n}_options {n}_parse(int argc, char **argv) {{
  {n}_options o;
  for (int i = 1; i < argc; ++i) {{
    std::string arg = argv[i];
    auto eq = arg.find('=');
    if (arg.rfind("--", 0) == 0 && eq != std::string::npos)
      o.values[arg.substr(2, eq - 2)] = arg.substr(eq + 1);
    else
      o.inputs.push_back(arg);
  }}
  return o;
}}

int {n}_get_int(const {n}_options &o, const std::string &key, int fallback) {{
  auto it = o.values.find(key);
  return it == o.values.end() ? fallback : std::stoi(it->second);
}}
"""


def host_math(rng, n):
    return f"""\
// CPU reference implementations used to check the kernels' results.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

double {n}_reference_sum(const std::vector<float> &v) {{
  return std::accumulate(v.begin(), v.end(), 0.0);
}}

std::vector<float> {n}_reference_scan(const std::vector<float> &v) {{
  std::vector<float> out(v.size());
  std::partial_sum(v.begin(), v.end(), out.begin());
  return out;
}}

bool {n}_close(const std::vector<float> &a, const std::vector<float> &b, float tol) {{
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a[i] - b[i]) > tol * std::max(1.0f, std::fabs(b[i])))
      return false;
  return true;
}}
"""


def host_device_query(rng, n):
    return f"""\
// Picks a device and reports what it can do.
#include <cuda_runtime.h>
#include <cstdio>
#include "host_util.h"

int {n}_pick_device() {{
  int count = 0;
  BENCH_CHECK(cudaGetDeviceCount(&count));
  int best = 0, best_sms = -1;
  for (int d = 0; d < count; ++d) {{
    cudaDeviceProp prop;
    BENCH_CHECK(cudaGetDeviceProperties(&prop, d));
    std::printf("%d: %s sm_%d%d, %d SMs\\n", d, prop.name, prop.major, prop.minor,
                prop.multiProcessorCount);
    if (prop.multiProcessorCount > best_sms) {{
      best = d;
      best_sms = prop.multiProcessorCount;
    }}
  }}
  BENCH_CHECK(cudaSetDevice(best));
  return best;
}}
"""


HOST = [host_runtime, host_config, host_launch, host_math, host_device_query]

# --------------------------------------------------------------------------
# Plain modern device code: none of the tokens the checks look for.


def modern_elementwise(rng, n):
    t = rng.choice(["float", "double"])
    return f"""\
// Element-wise kernels with grid-stride loops.
#include "util.cuh"

__global__ void {n}_saxpy({t} a, const {t} *x, {t} *y, unsigned count) {{
  for (unsigned i = bench::global_index(); i < count; i += bench::grid_stride())
    y[i] = a * x[i] + y[i];
}}

__global__ void {n}_relu({t} *x, unsigned count) {{
  unsigned i = bench::global_index();
  if (i < count)
    x[i] = bench::clamp(x[i], {t}(0), {t}(1e30));
}}

template <typename T> __global__ void {n}_fill(T *x, T value, unsigned count) {{
  for (unsigned i = bench::global_index(); i < count; i += bench::grid_stride())
    x[i] = value;
}}
template __global__ void {n}_fill<{t}>({t} *, {t}, unsigned);
template __global__ void {n}_fill<int>(int *, int, unsigned);
"""


def modern_histogram(rng, n):
    bins = rng.choice([16, 64, 256])
    return f"""\
// A global-memory histogram with atomics.
#include "util.cuh"

__global__ void {n}_histogram(const unsigned char *data, unsigned *bins, unsigned count) {{
  for (unsigned i = bench::global_index(); i < count; i += bench::grid_stride())
    atomicAdd(&bins[data[i] % {bins}], 1u);
}}

__global__ void {n}_normalise(const unsigned *bins, float *out, unsigned total) {{
  unsigned b = bench::global_index();
  if (b < {bins})
    out[b] = total ? float(bins[b]) / float(total) : 0.0f;
}}
"""


def modern_activation(rng, n):
    return f"""\
// Activations in half and single precision.
#include <cuda_fp16.h>
#include "util.cuh"

__global__ void {n}_sigmoid(const __half *in, __half *out, unsigned count) {{
  unsigned i = bench::global_index();
  if (i < count)
    out[i] = __float2half(bench::fast_sigmoid(__half2float(in[i])));
}}

__global__ void {n}_gelu(const float *in, float *out, unsigned count) {{
  for (unsigned i = bench::global_index(); i < count; i += bench::grid_stride()) {{
    float x = in[i];
    out[i] = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
  }}
}}
"""


def modern_stencil(rng, n):
    radius = rng.choice([1, 2, 3])
    return f"""\
// A 1-D stencil read through the read-only cache.
#include "util.cuh"

__global__ void {n}_stencil(const float *__restrict__ in, float *__restrict__ out, unsigned count) {{
  unsigned i = bench::global_index();
  if (i < {radius} || i + {radius} >= count)
    return;
  float acc = 0.0f;
#pragma unroll
  for (int k = -{radius}; k <= {radius}; ++k)
    acc += __ldg(in + i + k) * (1.0f / (2 * {radius} + 1));
  out[i] = acc;
}}

__global__ void {n}_transpose(const float *in, float *out, int rows, int cols) {{
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows && c < cols)
    out[c * rows + r] = in[r * cols + c];
}}
"""


MODERN = [modern_elementwise, modern_histogram, modern_activation,
          modern_stencil]

# --------------------------------------------------------------------------


def _legacy_tu(rng, n):
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


def _plan(count):
    """The kind of each TU: stratified, so any prefix has the same mix."""
    plan = []
    have = {k: 0 for k in KINDS}
    for i in range(count):
        # The kind furthest behind its share after i+1 TUs.
        kind = max(KINDS, key=lambda k: SHARES[k] * (i + 1) - have[k])
        have[kind] += 1
        plan.append(kind)
    return plan


def generate(root, count=120, seed=8):
    """Writes the code base under root; returns a list of (path, kind)."""
    rng = random.Random(seed)
    os.makedirs(os.path.join(root, "include"), exist_ok=True)
    for rel, text in HEADERS.items():
        _write(os.path.join(root, rel), text)
    tus = []
    index = {k: 0 for k in KINDS}
    for i, kind in enumerate(_plan(count)):
        k = index[kind]
        index[kind] += 1
        name = PREFIX[kind] + f"{i:03d}"
        if kind == "heavy":
            text = HEAVY[k % len(HEAVY)](rng, name)
        elif kind == "legacy":
            text = _legacy_tu(rng, name)
        elif kind == "host":
            text = HOST[k % len(HOST)](rng, name)
        else:
            text = MODERN[k % len(MODERN)](rng, name)
        sub = {"heavy": "src/libs", "legacy": "src/legacy",
               "host": "src/host", "modern": "src/kernels"}[kind]
        path = os.path.join(root, sub, f"{name}.cu")
        _write(path, text)
        tus.append((path, kind))
    return tus


# --------------------------------------------------------------------------
# Scaling: one file of many small kernels, each with three legacy calls, to
# see how warpfix's cost grows with the size of one translation unit (issue
# 18). The shapes cycle so that every analysis has work: converged calls
# (full mask), calls under a lane-dependent branch (a ballot hoisted before
# it, shared by the three calls), a device function whose call sites decide
# its mask, and votes. The edits lie at most seven lines apart, so that
# --diff makes one hunk of the whole file: the case that used to need a
# table quadratic in the hunk's lines.

SCALING_HEADER = """\
// Generated: {count} small pre-Volta kernels, three legacy calls in each.
#define FULL_MASK 0xffffffff
"""


def _scaling_kernel(k):
    n = f"k{k:05d}"
    shape = k % 4
    if shape == 0:
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
    if shape == 1:
        return f"""
__global__ void {n}_partial(const int *in, int *out, int n) {{
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x % 32 < n) {{
    v += __shfl_down(v, 4);
    v += __shfl_down(v, 2);
    v += __shfl_down(v, 1);
  }}
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}}
"""
    if shape == 2:
        return f"""
__device__ int {n}_sum(int v) {{
  v += __shfl_xor(v, 16);
  v += __shfl_xor(v, 8);
  return v + __shfl_xor(v, 4);
}}

__global__ void {n}_reduce(int *p) {{ p[threadIdx.x] = {n}_sum(p[threadIdx.x]); }}
"""
    return f"""
__global__ void {n}_votes(const float *x, unsigned *counts, int *flags) {{
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned positive = __ballot(v > 0.0f);
  int anyNegative = __any(v < 0.0f);
  int allFinite = __all(v == v);
  if (threadIdx.x % 32 == 0) counts[blockIdx.x] = __popc(positive) + anyNegative + allFinite;
}}
"""


def scaling_file(count):
    """The text of one .cu file of count kernels."""
    return (SCALING_HEADER.format(count=count)
            + "".join(_scaling_kernel(k) for k in range(count)))


def write_scaling(root, count):
    """Writes root/scale<count>.cu; returns its path."""
    path = os.path.join(root, f"scale{count}.cu")
    _write(path, scaling_file(count))
    return path


def compile_commands(root, tus):
    """Clang-style entries: the same flags for every TU, as a build would."""
    entries = []
    for path, _ in tus:
        rel = os.path.relpath(path, root)
        entries.append({
            "directory": root,
            "file": path,
            "arguments": ["clang++", "-x", "cuda", "--cuda-gpu-arch=sm_70",
                          "-std=c++17", "-O2", "-DNDEBUG",
                          "-DBENCH_BLOCK=256", "-I" + os.path.join(root, "include"),
                          "-c", path, "-o",
                          os.path.join(root, "obj", rel + ".o")],
        })
    return entries


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
