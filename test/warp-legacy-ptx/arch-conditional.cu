// Legacy PTX under an #if on the architecture, as old code kept it next to
// the .sync form: the branch this parse takes is analysed; one it skips is
// read as text, its literals as PTX, and each legacy instruction reported as
// not analysed. HIP branches and other platform conditions are left alone.
// RUN: %expect-exit 1 %warpfix %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --cuda-gpu-arch=sm_60 %s 2>&1 | FileCheck %s --check-prefix=SM60 --implicit-check-not=warning:
// RUN: %{copy-to-k}
// RUN: %expect-exit 0 %warpfix --fix --cuda-gpu-arch=sm_60 %t/k.cu
// RUN: FileCheck %s --check-prefix=FIXED60 --match-full-lines --input-file=%t/k.cu

__global__ void reduce(int *p) {
  int v = p[threadIdx.x];
#if __CUDA_ARCH__ >= 700
  asm("shfl.sync.bfly.b32 %0, %0, 16, 0x1f, 0xffffffff;" : "+r"(v));
#else
  asm("shfl.bfly.b32 %0, %0, 16, 0x1f;" : "+r"(v));
  // CHECK: :[[@LINE-1]]:8: warning: 'shfl.bfly.b32' is legacy PTX
  // CHECK: :[[@LINE-3]]:1: note: not analysed: this parse's architecture skips this branch of an #if on the architecture ('__CUDA_ARCH__ >= 700'); run warpfix again with --cuda-gpu-arch set to an architecture that compiles it
  // SM60: :[[@LINE-3]]:8: warning: 'shfl.bfly.b32' is legacy PTX
  // SM60: :[[@LINE-4]]:8: note: every lane of the warp reaches this statement
  // FIXED60:{{^}}#else
  // FIXED60-NEXT:{{^}}  asm("shfl.sync.bfly.b32 %0, %0, 16, 0x1f, 0xffffffff;" : "+r"(v));
#endif
#if __CUDA_ARCH__ < 700
  // Escapes and a literal split in the middle of an instruction.
  asm("{ .reg .pred q;\n\t"
      "setp.ne.s32 q, %0, 0;\n\t"
      "vote.ballot.b32 %0, q; /* vote.any.pred in a comment */ vote."
      "any.pred q, q; }" : "+r"(v));
  // CHECK: :[[@LINE-2]]:8: warning: 'vote.ballot.b32' is legacy PTX
  // CHECK: :[[@LINE-7]]:1: note: not analysed: this parse's architecture skips this branch of an #if on the architecture ('__CUDA_ARCH__ < 700')
  // CHECK: :[[@LINE-4]]:64: warning: 'vote.any.pred' is legacy PTX
  // SM60: :[[@LINE-5]]:8: warning: 'vote.ballot.b32' is legacy PTX
  // SM60: :[[@LINE-6]]:8: note: every lane of the warp reaches this statement
  // SM60: :[[@LINE-7]]:64: warning: 'vote.any.pred' is legacy PTX
  // FIXED60:{{^}}      "vote.sync.ballot.b32 %0, q, 0xffffffff; /* vote.any.pred in a comment */ vote.sync."
  // FIXED60-NEXT:{{^}}      "any.pred q, q, 0xffffffff; }" : "+r"(v));
#endif
#ifdef __HIP_PLATFORM_AMD__
  asm("shfl.up.b32 %0, %0, 1, 0;" : "+r"(v));
#endif
  p[threadIdx.x] = v;
}
// CHECK: 3 findings in 1 file (0 fixable)
// SM60: 3 findings in 1 file (3 fixable)
