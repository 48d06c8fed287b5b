// A cudaLaunchConfig_t's blockDim is evaluated only where nothing else may
// change it before the launch: not through a reference (even to const, which
// const_cast may write through), not from a lambda that names the config,
// and not past a label that lets control in after the store.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}


__global__ void throughConstructor(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < 64) v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void throughConstReference(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < 64) v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void throughLambda(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < 64) v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void pastCaseLabel(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < 64) v = __shfl_xor(v, 1);
  p[gid] = v;
}

__global__ void certain(int *p) {
  int gid = threadIdx.x;
  int v = p[gid];
  if (gid < 64) v = __shfl_xor(v, 1);
  p[gid] = v;
}

struct Narrow {
  __host__ Narrow(dim3 &block) { block.x = 48; }
};

void trim(const dim3 &block) { const_cast<dim3 &>(block).x = 48; }

void host(int *p, int entry) {
  cudaLaunchConfig_t a = {};
  a.blockDim = dim3(64);
  Narrow narrow(a.blockDim);
  cudaLaunchKernelEx(&a, throughConstructor, p);

  cudaLaunchConfig_t b = {};
  b.blockDim = dim3(64);
  trim(b.blockDim);
  cudaLaunchKernelEx(&b, throughConstReference, p);

  cudaLaunchConfig_t c = {};
  auto shrink = [&] { c.blockDim = dim3(48); };
  c.blockDim = dim3(64);
  shrink();
  cudaLaunchKernelEx(&c, throughLambda, p);

  cudaLaunchConfig_t d = {};
  d.blockDim = dim3(48);
  switch (entry) {
  default:
    d.blockDim = dim3(64);
    if (entry == 1) {
    case 1:
      d.gridDim = dim3(2);
    }
    cudaLaunchKernelEx(&d, pastCaseLabel, p);
  }

  cudaLaunchConfig_t e = {dim3(1), dim3(48)};
  e.blockDim = dim3(64);
  cudaLaunchKernelEx(&e, certain, p);
}

// CHECK: k.cu:{{[0-9]+}}:21: warning: '__shfl_xor' is a legacy
// CHECK: note: the lanes that reach this call are those for which the branch conditions hold, all of a warp's lanes or none in blocks made of whole warps, which is not known here
// CHECK: note: the whole-warp assumption is off for kernel 'throughConstructor': it is launched here with a block size that warpfix cannot evaluate
// CHECK: k.cu:{{[0-9]+}}:21: warning: '__shfl_xor' is a legacy
// CHECK: note: the whole-warp assumption is off for kernel 'throughConstReference': it is launched here with a block size that warpfix cannot evaluate
// CHECK: k.cu:{{[0-9]+}}:21: warning: '__shfl_xor' is a legacy
// CHECK: note: the whole-warp assumption is off for kernel 'throughLambda': it is launched here with a block size that warpfix cannot evaluate
// CHECK: k.cu:{{[0-9]+}}:21: warning: '__shfl_xor' is a legacy
// CHECK: note: the whole-warp assumption is off for kernel 'pastCaseLabel': it is launched here with a block size that warpfix cannot evaluate
// CHECK: k.cu:{{[0-9]+}}:21: warning: '__shfl_xor' is a legacy
// CHECK: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES:  if (gid < 64) v = __shfl_xor_sync(warpfix_mask_{{[0-9]+}}, v, 1);
// CHECK-FIXES:  if (gid < 64) v = __shfl_xor_sync(warpfix_mask_{{[0-9]+}}, v, 1);
// CHECK-FIXES:  if (gid < 64) v = __shfl_xor_sync(warpfix_mask_{{[0-9]+}}, v, 1);
// CHECK-FIXES:  if (gid < 64) v = __shfl_xor_sync(warpfix_mask_{{[0-9]+}}, v, 1);
// CHECK-FIXES:  if (gid < 64) v = __shfl_xor_sync(0xffffffff, v, 1);
