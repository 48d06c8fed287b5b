// --mask-fallback=activemask: where the lanes are unknown, the mask operand
// is __activemask(), which is what the legacy instruction did, marked for
// review; warp-activemask-mask reports it on the next run until a person has
// chosen a mask, so the run that wrote it says that it remains, and exits 1.
// (A guarded instruction stays unfixed: no-fix.cu.)
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --fix --mask-fallback=activemask %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: fixed 1 finding in 1 file; 1 remain, 1 of them fixed with __activemask() marked for review (--mask-fallback=activemask): warp-activemask-mask reports it until the lanes are chosen

__global__ void divergent_loop(int *s) {
  int idx = threadIdx.x;
  int v = s[idx];
  for (int t = 16; idx < t; t >>= 1)
    asm("shfl.down.b32 %0, %0, %1, 0x1f;" : "+r"(v) : "r"(t));
  s[idx] = v;
}
// CHECK-FIXES: asm("shfl.sync.down.b32 %0, %0, %1, 0x1f, %2;" : "+r"(v) : "r"(t), "r"(__activemask() /* warpfix: legacy semantics, review this mask */));
// SECOND: :[[@LINE-4]]:{{[0-9]+}}: warning: __activemask() is the member mask of 'shfl.sync.down.b32'{{.*}}[warp-activemask-mask]
// SECOND: note: no automatic fix: the loop's condition is lane-dependent

// SECOND: 1 finding in 1 file (0 fixable)
