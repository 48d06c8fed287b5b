// Near misses of the loop rewrite (lane-dependent-loops.cu). A lane whose
// condition has failed evaluates it again at every later iteration, so the
// condition must give false again and do nothing; the body must leave the
// loop only at its end; and the loop must be written where it can be edited.
// Each legacy call is reported, says why its loop is not rewritten, and
// --fix leaves the file as it was.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: diff %s %t/k.cu
// SUMMARY: 28 findings in 1 file (0 fixable)

// Another lane may write what the condition reads while a finished lane
// waits for the others.
__global__ void reads_memory(const int *limit, int *out) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < *limit; j += 32) {
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its condition reads memory that other lanes may write
  }
  out[threadIdx.x] = acc;
}

__global__ void side_effect(int *out, int n) {
  int acc = 0, j = threadIdx.x % 32;
  while (j++ < n) {
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its condition has side effects
  }
  out[threadIdx.x] = acc;
}

__global__ void condition_variable(const int *next, int *out) {
  int acc = 0, j = threadIdx.x;
  while (int k = next[j]) {
    acc += __shfl_up(k, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its condition declares a variable
    j = k;
  }
  out[threadIdx.x] = acc;
}

// A break under a warp-uniform condition would leave the rewritten body, not
// the loop; a return would leave the others waiting in a ballot.
__global__ void breaks(int *out, int n, int stop) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    if (stop)
      break;
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: a break in its body leaves the loop early
  }
  out[threadIdx.x] = acc;
}

__global__ void returns(int *out, int n) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: an early return in its body leaves the loop early
    if (acc > 100) {
      out[threadIdx.x] = acc;
      return;
    }
  }
  out[threadIdx.x] = acc;
}

// The increment moves to the end of the body, which a continue skips, and
// where the body's own declarations are in scope.
__global__ void continue_skips_increment(int *out, int n) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    if (acc & 1)
      continue;
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: a continue in its body would skip the increment
  }
  out[threadIdx.x] = acc;
}

__global__ void shadowed_increment(int *out, int n) {
  int acc = 0, step = 32;
  for (int j = threadIdx.x % 32; j < n; j += step) {
    int step = 2;
    acc += __shfl_up(j, step);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body declares 'step', which the increment, moved to the end of the body, would name instead
  }
  out[threadIdx.x] = acc;
}

// Shapes that are not rewritten: a do-while loop, a body without braces, a
// case label that jumps into the body.
__global__ void do_while(int *out, int n) {
  int acc = 0, k = threadIdx.x % 32;
  do {
    acc += __shfl_up(k, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: it is a do-while loop
    k += 32;
  } while (k < n);
  out[threadIdx.x] = acc;
}

__global__ void no_braces(int *out, int n) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < n; j += 32)
    acc += __shfl_up(j, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body has no braces; add them
  out[threadIdx.x] = acc;
}

__global__ void case_inside(const int *sel, int *out, int n) {
  int acc = 0, j = threadIdx.x % 32;
  switch (sel[0]) {
  case 0:
    for (; j < n; j += 32) {
    case 1:
      acc += __shfl_up(j, 1);
      // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__shfl_up' is a legacy
      // CHECK-MESSAGES: :[[@LINE-4]]:5: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: a case label of an enclosing switch is inside its body
    }
  }
  out[threadIdx.x] = acc;
}

// A loop whose header a macro writes cannot be rewritten as text.
#define FOR_LANES(j, n) for (int j = threadIdx.x % 32; j < n; j += 32)
__global__ void macro_header(int *out, int n) {
  int acc = 0;
  FOR_LANES(j, n) {
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its condition is written by a macro
  }
  out[threadIdx.x] = acc;
}

// The lanes that have finished wait in the loop's ballot: what synchronises
// in the body, they never reach, where in the original they had left the
// loop (and exited, or reached the barrier elsewhere).
__global__ void block_barrier(int *out, int n) {
  __shared__ int tile[128];
  int acc = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    tile[threadIdx.x] = j;
    __syncthreads();
    acc += __shfl_up(tile[(threadIdx.x + 1) % blockDim.x], 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body calls '__syncthreads', which waits for other threads; the lanes that have finished wait in the loop's ballot, and would never get to what synchronises there
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

__device__ int full_warp_sum(int v) { return v + __shfl_xor_sync(0xffffffff, v, 16); }
__global__ void sync_in_helper(int *out, int n) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    acc += __shfl_up(j, 1) + full_warp_sum(j);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body calls '__shfl_xor_sync', which waits for other threads
  }
  out[threadIdx.x] = acc;
}

__global__ void through_pointer(int *out, int n, int (*step)(int)) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    acc += __shfl_up(step(j), 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body calls a function through a pointer, a virtual function, or one whose body is not in sight
  }
  out[threadIdx.x] = acc;
}

// What the moved increment would find at the end of the body: a type or an
// enumerator declared there, or a destructor that would now run after it.
enum { STEP = 32 };
__global__ void enumerator_in_body(int *out, int n) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < n; j += STEP) {
    enum { STEP = 4 };
    acc += __shfl_up(j, 1) + STEP;
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body declares something other than a plain variable at its top
  }
  out[threadIdx.x] = acc;
}

struct Bump {
  int &target;
  __device__ ~Bump() { target += 1; }
};
__global__ void destructor_in_body(int *out, int n) {
  int acc = 0, step = 32;
  for (int j = threadIdx.x % 32; j < n; j += step) {
    Bump bump{step};
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body declares 'bump', whose destructor runs there
  }
  out[threadIdx.x] = acc;
}

// A field that is a reference reads whatever it was bound to: here another
// lane's shared slot, which lane 0 raises.
struct Limit { int &value; };
__global__ void reference_field(int *out) {
  __shared__ int limits[32];
  int lane = threadIdx.x & 31, acc = 0;
  limits[lane] = lane;
  __syncwarp();
  const Limit limit{limits[0]};
  for (int j = lane; j < limit.value + 4; j += 1) {
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its condition reads memory that other lanes may write
  }
  out[threadIdx.x] = acc;
}

// Templates. An instantiation that discards an `if constexpr` branch does
// not see the continue that another instantiation has; and in a template
// that nothing instantiates, `t[p]` may be a call of the type's operator[].
template <bool Skip>
__global__ void constexpr_branch(const int *v, int *out, int n) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    if constexpr (Skip) {
      if (v[j] % 7 == 0)
        continue;
    }
    acc += __popc(__ballot(v[j] & 1));
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '__ballot' is a legacy
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body has an if constexpr
  }
  out[threadIdx.x] = acc;
}
template __global__ void constexpr_branch<false>(const int *, int *, int);

template <class Table>
__global__ void subscript_may_be_a_call(int *o, Table t) {
  int v = o[threadIdx.x];
  for (int p = threadIdx.x % 4; p < 4; p++) {
    v += __shfl_down(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body has an operation on a value of a type that depends on a template parameter
    v += t[p];
  }
  o[threadIdx.x] = v;
}

// Synchronisation that no call in the body names: a constructor's member
// initializer, a default argument, a virtual call, a toolkit function that
// warpfix does not know, and a lane that spins on a flag another lane sets.
__device__ int synced(int x) { __syncthreads(); return x; }
struct Loaded {
  int value;
  __device__ explicit Loaded(int x) : value(synced(x)) {}
};
__device__ int plus(int x, int y = synced(0)) { return x + y; }
struct Stage { __device__ virtual int load(int x) { return x; } };
__global__ void hidden_synchronisation(int *out, int n, Stage *stage,
                                       volatile int *flag) {
  int acc = 0;
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    acc += __shfl_up(Loaded(j).value, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body calls '__syncthreads', which waits for other threads
  }
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    acc += __shfl_up(plus(j), 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body calls '__syncthreads', which waits for other threads
  }
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    acc += __shfl_up(stage->load(j), 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body calls a function through a pointer, a virtual function, or one whose body is not in sight
  }
  for (int j = threadIdx.x % 32; j < n; j += 32) {
    while (*flag == 0) {
    }
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body has a loop whose condition has side effects, volatile reads or calls
  }
  out[threadIdx.x] = acc;
}

// What the text moved into the body would mean there: an #if in the header,
// a macro redefined in the body or naming a local of the body, __LINE__, a
// temporary whose destructor runs at the end of the body, a mutable field.
#define STRIDE stride
#define STEP 32
struct Bound { mutable int m; };
__device__ const Bound bound = {64};
__global__ void moved_text(int *out, int n) {
  int acc = 0, stride = 32;
  for (int j = threadIdx.x % 32; j < n;
#if __CUDA_ARCH__ >= 800
       j += 64
#else
       j += 32
#endif
  ) {
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: a preprocessor directive stands in its header or around its opening brace
  }
  for (int j = threadIdx.x % 32; j < n; j += STEP) {
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its body defines or undefines a macro
#undef STEP
#define STEP 1
  }
  for (int j = threadIdx.x % 32; j < n; j += STRIDE) {
    int stride = 5;
    acc += __shfl_up(j, stride);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its increment uses a macro that stands for more than a number
  }
  for (int j = threadIdx.x % 32; j < n && (__LINE__ & 1); j += 32) {
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its condition uses __LINE__
  }
  for (int j = threadIdx.x % 32; j < bound.m; j += 32) {
    acc += __shfl_up(j, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_up' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations, and the loop cannot be rewritten to keep them together: its condition reads memory that other lanes may write
  }
  out[threadIdx.x] = acc + stride;
}
