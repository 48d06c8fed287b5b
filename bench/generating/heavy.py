"""Heavy translation units: modern code on CUB, Thrust or cooperative groups,
with no findings, but each costs seconds to parse; HEAVY is the order the
code base cycles through them in.
"""

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
