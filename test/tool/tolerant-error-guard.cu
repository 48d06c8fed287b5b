// A missing header may define a macro that an #if after it tests, but where
// every such definition that would change the branch compiled also reaches
// an #error of the project, the build that gets past that #error compiles
// the branch clang saw: the code that uses what it declares keeps its fixes.
// A guard that does not cover every such definition, a test of a value that
// the header would give, an #undef of the tested name, and an #include in a
// branch that another build may compile leave the doubt.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
#ifndef TOLERANT_ERROR_GUARD
#define TOLERANT_ERROR_GUARD
#include "precision_config_not_here.h"
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: error: 'precision_config_not_here.h' file not found

//#define use_DPFP
#define use_SPFP
//#define use_HPFP

// One and only one precision mode, over three lines.
#if !(defined(use_DPFP) && !defined(use_HPFP) && !defined(use_SPFP)) && \
    !(defined(use_HPFP) && !defined(use_DPFP) && !defined(use_SPFP)) && \
    !(defined(use_SPFP) && !defined(use_DPFP) && !defined(use_HPFP))
/* the build stops here */
#error "define one and only one precision mode"
#endif

#if defined(use_DPFP)
typedef double real_t;
#elif defined(use_SPFP)
typedef float real_t;
#else
typedef float real_t;
#endif

__global__ void guarded(real_t *p) {
  real_t v = p[threadIdx.x];
  v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: every lane of the warp reaches this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:8: note: analysed despite errors
  // CHECK-FIXES: v += __shfl_xor_sync(0xffffffff, v, 1);
  p[threadIdx.x] = v;
}

// #ifdef guards, and a guard that compares a macro of known value.
#define CACHE_LINE 128
#ifdef USE_TEXTURES
#error "texture references are gone"
#endif
#if defined(WIDE_LOADS) && CACHE_LINE < 256
# error "wide loads need 256-byte lines"
#endif
#ifdef USE_TEXTURES
typedef float4 load_t;
#elif defined(WIDE_LOADS)
typedef double2 load_t;
#else
typedef float2 load_t;
#endif

__global__ void ifdef_guarded(load_t *p, int *q) {
  load_t v = p[threadIdx.x];
  q[threadIdx.x] = __ballot(v.x > 0);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:20: warning: '__ballot' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:20: note: every lane of the warp reaches this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:20: note: analysed despite errors
  // CHECK-FIXES: q[threadIdx.x] = __ballot_sync(0xffffffff, v.x > 0);
}

// The guard stops the build only where both are defined: a header that
// defines WIDE_INDEX alone changes the typedef.
#if defined(WIDE_INDEX) && defined(NARROW_INDEX)
#error "pick one index width"
#endif
#ifdef WIDE_INDEX
typedef long long index_t;
#else
typedef int index_t;
#endif

__global__ void half_guarded(index_t *p) {
  index_t v = p[threadIdx.x];
  v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: this translation unit has 1 error, one of them in 'half_guarded', which holds this code: it uses 'index_t', whose declaration depends on a macro: the #if at k.cu:[[@LINE-10]] tests 'WIDE_INDEX', which is not defined there; a header that is missing may define it: {{.*}}k.cu:13:10: 'precision_config_not_here.h' file not found
  // CHECK-FIXES: v += __shfl_down(v, 1);
  p[threadIdx.x] = v;
}

// A guard on the value: the header may define LANES as anything.
#if defined(LANES) && LANES != 32
#error "LANES must be 32"
#endif
#if defined(LANES)
typedef unsigned lanes_t;
#else
typedef int lanes_t;
#endif

__global__ void value_guarded(lanes_t *p) {
  lanes_t v = p[threadIdx.x];
  v += __shfl_up(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: {{.*}}it uses 'lanes_t', whose declaration depends on a macro: the #if at k.cu:[[@LINE-10]] tests 'LANES'
  // CHECK-FIXES: v += __shfl_up(v, 1);
  p[threadIdx.x] = v;
}

// Guarded, but the project #undefs the tested name after the header.
#if defined(USE_HALF) && defined(use_SPFP)
#error "half and single precision together"
#endif
#undef USE_HALF
#ifdef USE_HALF
typedef short store_t;
#else
typedef int store_t;
#endif

__global__ void undefined_after(store_t *p) {
  store_t v = p[threadIdx.x];
  v += __shfl_xor(v, 2);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: {{.*}}it uses 'store_t', whose declaration depends on a macro: the #if at k.cu:[[@LINE-10]] tests 'USE_HALF'
  // CHECK-FIXES: v += __shfl_xor(v, 2);
  p[threadIdx.x] = v;
}

// A branch that another build may compile #undefs a name the guard reads:
// where the header defines LOOSE_SIZES and LONG_SIZES, the guard lets the
// build through with long sizes.
#define SIZE_CHECKED
#ifdef LOOSE_SIZES
#undef SIZE_CHECKED
#endif
#if defined(LONG_SIZES) && defined(SIZE_CHECKED)
#error "long sizes are not checked"
#endif
#ifdef LONG_SIZES
typedef long size_type;
#else
typedef int size_type;
#endif

__global__ void define_in_other_branch(size_type *p) {
  size_type v = p[threadIdx.x];
  v += __shfl_up(v, 2);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: {{.*}}it uses 'size_type', whose declaration depends on a macro: the #if at k.cu:[[@LINE-10]] tests 'LONG_SIZES'
  // CHECK-FIXES: v += __shfl_up(v, 2);
  p[threadIdx.x] = v;
}

// A branch that another build may compile includes a file, which may define
// anything: the guard below it proves nothing.
#ifdef WITH_EXTRAS
#include "extras.h"
#elif defined(WITH_OTHER_EXTRAS)
#endif
#if defined(use_DPFP) && defined(use_SPFP)
#error "two precisions"
#endif
#ifdef use_DPFP
typedef double acc_t;
#else
typedef float acc_t;
#endif

__global__ void after_optional_include(acc_t *p) {
  acc_t v = p[threadIdx.x];
  v += __shfl_down(v, 2);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: {{.*}}it uses 'acc_t', whose declaration depends on a macro: the #if at k.cu:[[@LINE-10]] tests 'use_DPFP'
  // CHECK-FIXES: v += __shfl_down(v, 2);
  p[threadIdx.x] = v;
}
#endif
