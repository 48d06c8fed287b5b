// A header that only a skipped branch of an #if on the architecture includes
// is read by no parse for this architecture. Its legacy calls are reported as
// not analysed, like those of the branch itself (arch-conditional.cu), and so
// are those of the headers it includes that nothing else reads. A header that
// the parse reads anyway is analysed where it is read; a library's header in
// a system directory is not reported, nor is one that does not exist.
// arch-conditional-includes-refused.cu has a helper that such a header calls.
// RUN: %{copy-to-k} && cp -r %S/Inputs/arch-conditional-includes %t/inc
// RUN: %expect-exit 1 %warpfix --no-cache --header-filter='.*' %t/k.cu -- -isystem %t/inc/sys 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
//
// For an architecture that takes the other branch, that header is analysed.
// RUN: %expect-exit 1 %warpfix --no-cache --header-filter='.*' --cuda-gpu-arch=sm_60 %t/k.cu -- -isystem %t/inc/sys 2>&1 | FileCheck %s --check-prefix=SM60 --implicit-check-not="not analysed"
//
// RUN: %expect-exit 1 %warpfix --no-cache --header-filter='.*' --fix %t/k.cu -- -isystem %t/inc/sys 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: diff %s %t/k.cu
// RUN: FileCheck %s --check-prefix=FIXED-HEADER --match-full-lines --input-file=%t/inc/shared_vote.cuh
// RUN: diff %S/Inputs/arch-conditional-includes/old_vote.cuh %t/inc/old_vote.cuh
// RUN: diff %S/Inputs/arch-conditional-includes/old_scan.cuh %t/inc/old_scan.cuh
// RUN: cp %t/inc/shared_vote.cuh %t/once.cuh
// RUN: %expect-exit 1 %warpfix --no-cache --header-filter='.*' --fix %t/k.cu -- -isystem %t/inc/sys 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: diff %t/once.cuh %t/inc/shared_vote.cuh
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 -isystem %t/inc/sys %t/k.cu %}

// CHECK-MESSAGES: old_scan.cuh:4:8: warning: 'shfl.up.b32' is legacy PTX
// CHECK-MESSAGES: old_scan.cuh:1:1: note: not analysed: this header is included only at {{.*}}old_vote.cuh:2, which this parse did not read: this parse's architecture skips this branch of an #if on the architecture ('!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700'); run warpfix again with --cuda-gpu-arch set to an architecture that compiles it
// CHECK-MESSAGES: old_scan.cuh:5:15: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: old_scan.cuh:1:1: note: not analysed: this header is included only at {{.*}}old_vote.cuh:2,
// CHECK-MESSAGES: old_vote.cuh:5:37: warning: '__any' is a legacy
// CHECK-MESSAGES: old_vote.cuh:1:1: note: not analysed: this header is included only at {{.*}}k.cu:[[@LINE+13]], which this parse did not read: this parse's architecture skips this branch of an #if on the architecture ('!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700')
// CHECK-MESSAGES: shared_vote.cuh:3:43: warning: '__ballot' is a legacy
// CHECK-MESSAGES: shared_vote.cuh:3:43: note: every lane of the warp reaches this call
// CHECK-MESSAGES: 4 findings in 3 files (1 fixable)
// SM60: old_vote.cuh:5:37: warning: '__any' is a legacy
// SM60: old_vote.cuh:5:37: note: every lane of the warp reaches this call
// SUMMARY: 4 findings in 3 files (1 fixable)
// SECOND: 3 findings in 2 files (0 fixable)
// FIXED-HEADER: __device__ int sharedVote(int p) { return __ballot_sync(0xffffffff, p); }

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
#include "inc/new_vote.cuh"
#else
#include "inc/old_vote.cuh"
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
#include "inc/no_such_header.cuh"
#endif

__global__ void kernel(int *out) { out[threadIdx.x] = vote(out[threadIdx.x]); }
