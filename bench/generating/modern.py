"""Modern translation units: plain device code with none of the tokens the
checks look for; MODERN is the order the code base cycles through them in.
"""

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
