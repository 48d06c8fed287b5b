"""The scaling input (issue 18): one .cu file of many small kernels, each with
three legacy calls, whose size is the only parameter; run.py times warpfix
on it at several sizes.
"""
import os

from .files import write_text

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
    write_text(path, scaling_file(count))
    return path
