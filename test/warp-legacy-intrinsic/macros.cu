// Legacy calls in macros: a definition is fixed once when every expansion
// needs the same mask; otherwise each expansion is named and nothing is
// changed. A wrapper passes an ignored mask on only where it is proven right.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: 2 findings in 1 file (0 fixable)

#define FULL_MASK 0xffffffff
#define WARP_REDUCE_STEP(v, o) ((v) + __shfl_down((v), (o)))
#define WARP_BROADCAST(v) __shfl((v), 0)
#define WARP_SHFL_XOR(var, lane, mask) \
  __shfl_xor(var, lane)
#define SHFL_UP_NAME __shfl_up

__global__ void agree(int *p) {
  int v = p[threadIdx.x];
  v = WARP_REDUCE_STEP(v, 16);
  v = WARP_REDUCE_STEP(v, 8);
  p[threadIdx.x] = v;
}
// CHECK-MESSAGES: :12:39: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: :20:7: note: in this expansion of a macro
// CHECK-MESSAGES: :21:7: note: in this expansion of a macro
// CHECK-FIXES: #define WARP_REDUCE_STEP(v, o) ((v) + __shfl_down_sync(FULL_MASK, (v), (o)))

__global__ void disagree(int *p) {
  int v = WARP_BROADCAST(p[threadIdx.x]);
  if (threadIdx.x & 1)
    v += WARP_BROADCAST(v);
  p[threadIdx.x] = v;
}
// CHECK-MESSAGES: :13:27: warning: '__shfl' is a legacy
// CHECK-MESSAGES: :13:27: note: no automatic fix: this code is shared by several macro expansions, template instantiations or translation units, and they need different fixes
// CHECK-MESSAGES: :30:11: note: in this expansion of a macro
// CHECK-MESSAGES: :32:10: note: in this expansion of a macro
// CHECK-FIXES: #define WARP_BROADCAST(v) __shfl((v), 0)

__global__ void caller_mask(int *p) {
  unsigned lanes = __ballot_sync(FULL_MASK, threadIdx.x < 16);
  if (threadIdx.x < 16)
    p[threadIdx.x] = WARP_SHFL_XOR(p[threadIdx.x], 1, lanes);
}
// CHECK-MESSAGES: :15:3: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :15:3: note: the macro's mask parameter 'mask' is not passed on: the legacy intrinsic ignored it, and warpfix cannot prove that 'lanes' names the lanes that reach this call
// CHECK-FIXES: __shfl_xor_sync(warpfix_mask_43, var, lane)

__global__ void name_only(int *p) {
  p[threadIdx.x] = SHFL_UP_NAME(p[threadIdx.x], 1);
}
// CHECK-MESSAGES: :16:22: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: :16:22: note: no automatic fix: the intrinsic's name and its argument list are written in different places
// CHECK-MESSAGES: :16:22: note: candidate rewrite: __shfl_up_sync(FULL_MASK, ...)
// CHECK-FIXES: #define SHFL_UP_NAME __shfl_up
// CHECK-FIXES: const unsigned warpfix_mask_43 = __ballot_sync(FULL_MASK, threadIdx.x < 16);

#define SHFL_XOR_WRAP(var, lane, mask) __shfl_xor(var, lane)
#define SHFL_DOWN_WRAP(var, d, mask) __shfl_down(var, d)

__global__ void converged_full_mask(int *p) {
  int v = p[threadIdx.x];
  v += SHFL_XOR_WRAP(v, 1, FULL_MASK);
  v += SHFL_XOR_WRAP(v, 2, 0xffffffffu);
  p[threadIdx.x] = v;
}
// CHECK-MESSAGES: :59:40: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :59:40: note: the macro takes the member mask from its caller in 'mask', which is now passed on: the caller passes 'FULL_MASK', and every lane of the warp reaches this call
// CHECK-MESSAGES: :59:40: note: the macro takes the member mask from its caller in 'mask', which is now passed on: the caller passes '0xffffffffu', and every lane of the warp reaches this call
// CHECK-FIXES: #define SHFL_XOR_WRAP(var, lane, mask) __shfl_xor_sync(mask, var, lane)

__global__ void divergent_full_mask(int *p) {
  int v = p[threadIdx.x];
  if (v > 3)
    v = SHFL_DOWN_WRAP(v, 1, FULL_MASK);
  p[threadIdx.x] = v;
}
// CHECK-MESSAGES: :60:38: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: :60:38: note: the caller passes 'FULL_MASK' for 'mask', which names every lane, but only some lanes reach this call; the legacy intrinsic ignored it, so it is not passed on
// CHECK-FIXES: #define SHFL_DOWN_WRAP(var, d, mask) __shfl_down_sync(warpfix_mask_{{[0-9]+}}, var, d)
// CHECK-FIXES: const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(FULL_MASK, v > 3);
