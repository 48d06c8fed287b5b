// A missing #include is an ordinary error: the rest of the TU is parsed and
// analysed. A function that uses what the header would have declared holds
// an error of its own and is not fixed; a function that does not is fixed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 2 %warpfix --no-cache --strict-parse %t/k.cu 2>&1 | FileCheck %s --check-prefix=STRICT
#include "generated_config.h"
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: error: 'generated_config.h' file not found

__global__ void uses_config(int *o) {
  int v = o[threadIdx.x] * CONFIG_SCALE;
  v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: this translation unit has 2 errors, one of them in 'uses_config', which holds this code: {{.*}}k.cu:[[@LINE-3]]:28: use of undeclared identifier 'CONFIG_SCALE'
  // CHECK-FIXES: v += __shfl_down(v, 1);
  o[threadIdx.x] = v;
}

__global__ void plain(int *o) {
  int v = o[threadIdx.x];
  v += __shfl_up(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: analysed despite errors: this translation unit has 2 errors; the first: {{.*}}k.cu:8:10: 'generated_config.h' file not found
  // CHECK-FIXES: v += __shfl_up_sync(0xffffffff, v, 1);
  o[threadIdx.x] = v;
}
// CHECK-MESSAGES: translation units: 0 analysed clean, 1 analysed with errors, 0 not analysed, 0 crashed
// CHECK-MESSAGES: fixed 1 finding in 1 file; 1 remain

// --strict-parse drops the TU, as warpfix did before.
// STRICT: could not parse '{{.*}}k.cu'; nothing in it was analysed or changed
// STRICT: translation units: 0 analysed clean, 0 analysed with errors, 1 not analysed, 0 crashed
// STRICT: 0 findings in 0 files (0 fixable)
