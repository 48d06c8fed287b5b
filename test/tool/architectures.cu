// A build compiles each file for every architecture it names, and an #if on
// __CUDA_ARCH__ makes those programs differ. A file whose #ifs tell two of
// them apart is parsed for one of each kind, and a fix is kept only where it
// suits each program: judged the same by every parse that compiles the code,
// and editing nothing that another parse compiles without needing it.
// RUN: %{copy-to-k}
//
// Nothing says which architectures: every one nvcc 13 compiles for counts,
// and 800 tells sm_75, sm_80 and the newer ones apart.
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=ALL --implicit-check-not=warning:
// One architecture: one parse, fixed for its program.
// RUN: %expect-exit 1 %warpfix --cuda-gpu-arch=sm_75 %t/k.cu 2>&1 | FileCheck %s --check-prefix=SM75 --implicit-check-not=warning:
// CMake's spelling, and the architectures newer than clang 19 knows, parsed
// with __CUDA_ARCH__ set to theirs.
// RUN: %expect-exit 1 %warpfix --cuda-gpu-arch='100;120' %t/k.cu 2>&1 | FileCheck %s --check-prefix=NEW --implicit-check-not=warning:
//
// RUN: %expect-exit 1 %warpfix --fix --cuda-gpu-arch=sm_75,sm_90 %t/k.cu
// RUN: FileCheck %s --check-prefix=FIXED --match-full-lines --input-file=%t/k.cu
// Idempotent: what is left is what was refused.
// RUN: %expect-exit 1 %warpfix --cuda-gpu-arch=sm_75,sm_90 %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN --implicit-check-not=warning:
// The fixed file, less the calls that stay, compiles for both.
// RUN: grep -v STAYS %t/k.cu > %t/compiles.cu
// RUN: %if nvcc %{ %nvcc-check -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 %t/compiles.cu %}

__global__ void early_return_on_new_gpus(int *p) {
  int v = p[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  if (threadIdx.x >= 16)
    return;
#endif
  v += __shfl_xor(v, 1); // STAYS
  // ALL: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // ALL: k.cu:[[@LINE-2]]:8: note: no automatic fix: the parses of this file for sm_75, sm_80, sm_86 need different fixes here
  // SM75: k.cu:[[@LINE-3]]:8: warning: '__shfl_xor' is a legacy
  // SM75: k.cu:[[@LINE-4]]:8: note: every lane of the warp reaches this call
  // NEW: k.cu:[[@LINE-5]]:8: warning: '__shfl_xor' is a legacy
  // NEW: k.cu:[[@LINE-6]]:8: note: only some lanes reach this call
  // AGAIN: k.cu:[[@LINE-7]]:8: warning: '__shfl_xor' is a legacy
  // AGAIN: k.cu:[[@LINE-8]]:8: note: no automatic fix: the parses of this file for sm_75, sm_90 need different fixes here
  p[threadIdx.x] = v;
}

// Each branch is fixed by the parse that compiles it; the edit lies in text
// that the other parse skips.
__global__ void one_branch_each(int *p) {
  int v = p[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  v += __shfl_down(v, 1);
  // ALL: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // ALL: k.cu:[[@LINE-2]]:8: note: every lane of the warp reaches this call
  // SM75: k.cu:[[@LINE-3]]:8: warning: '__shfl_down' is a legacy
  // SM75: note: not analysed: this parse's architecture skips this branch
  // NEW: k.cu:[[@LINE-5]]:8: warning: '__shfl_down' is a legacy
  // FIXED: {{^}}  v += __shfl_down_sync(0xffffffff, v, 1);
#else
  v += __shfl_up(v, 1);
  // ALL: k.cu:[[@LINE-1]]:8: warning: '__shfl_up' is a legacy
  // SM75: k.cu:[[@LINE-2]]:8: warning: '__shfl_up' is a legacy
  // NEW: k.cu:[[@LINE-3]]:8: warning: '__shfl_up' is a legacy
  // NEW: note: not analysed: this parse's architecture skips this branch
  // FIXED: {{^}}  v += __shfl_up_sync(0xffffffff, v, 1);
#endif
  p[threadIdx.x] = v;
}

// The ballot that the newer parse needs would stand before the if, in code
// that sm_75 compiles too, where this call does not exist: refused.
__global__ void ballot_in_shared_code(int *p) {
  int v = p[threadIdx.x];
  if (threadIdx.x < 16) {
#if __CUDA_ARCH__ >= 800
    v += __shfl_xor(v, 2); // STAYS
    // ALL: k.cu:[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
    // ALL: k.cu:[[@LINE-2]]:10: note: no automatic fix: the parse of '{{.*}}k.cu' for sm_75 compiles the code this fix edits, and needs no such fix there
    // SM75: k.cu:[[@LINE-3]]:10: warning: '__shfl_xor' is a legacy
    // NEW: k.cu:[[@LINE-4]]:10: warning: '__shfl_xor' is a legacy
    // NEW: k.cu:[[@LINE-5]]:10: note: only some lanes reach this call
    // AGAIN: k.cu:[[@LINE-6]]:10: warning: '__shfl_xor' is a legacy
    // AGAIN: k.cu:[[@LINE-7]]:10: note: no automatic fix: the parse of '{{.*}}k.cu' for sm_75 compiles
#endif
  }
  p[threadIdx.x] = v;
}
// ALL: 1 unit was parsed again for other architectures of the build (2 parses)
// ALL: 4 findings in 1 file (2 fixable)
// SM75: 4 findings in 1 file (2 fixable)
// NEW: 4 findings in 1 file (3 fixable)
// AGAIN: 2 findings in 1 file (0 fixable)
