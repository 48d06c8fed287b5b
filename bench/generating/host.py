"""Host translation units: host-only C++ in .cu files, some calling the CUDA
runtime; HOST is the order the code base cycles through them in.
"""


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
