// Races whose accesses are made in functions the kernel calls: the barrier
// goes between the kernel's statements that make the calls, never into the
// functions, which other calls share.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: fixed 0 findings in 0 files; 1 remain

struct Quad { unsigned a, b, c, d; };
__device__ __forceinline__ Quad &operator^=(Quad &left, const Quad &right) {
  left.a ^= right.a; left.b ^= right.b; left.c ^= right.c; left.d ^= right.d;
  return left;
}

// A read through a reference parameter, of a cast element of a pointer into a
// cast byte array: ten steps from the name to the array.
__global__ void deepNames(const unsigned *in, unsigned *out, int n) {
  extern __shared__ unsigned char bytes[];
  unsigned (*rows)[32][8] = (unsigned (*)[32][8])bytes;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned *mine = rows[warp][lane];
  unsigned (*column)[8] = (unsigned (*)[8])&rows[warp][lane / 2][4 * (lane % 2)];
  Quad acc = {0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    // CHECK-MESSAGES: :[[@LINE+2]]:7: warning: lanes of one warp race on shared memory: lane 2 writes bytes[32] and lane 1 reads it
    for (int k = 0; k < 32; k += 16)
      *((uint4 *)column[k]) = *((const uint4 *)&in[(i * 32 + k + lane) * 4]);
    for (int k = 0; k < 2; k++) acc ^= *((Quad *)&mine[4 * k]);
  }
  out[threadIdx.x] = acc.a + acc.b + acc.c + acc.d;
}

__device__ void put(int *s, int t) {
  if (t & 1)
  // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: lanes of one warp race on shared memory: lane 1 writes s[1] and lane 0 reads it
    s[t] = t;
}
__device__ int neighbour(const int *s, int t) { return s[t ^ 1]; }

// The store is made in one helper and the read in another: the barrier goes
// between the two calls, in the kernel.
__global__ void helpers(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: the same rewrite orders this race too: lane 0 writes s[0] and lane 1 reads it
  s[t] = 0;
  put(s, t);
  int v = neighbour(s, t);
  out[t] = v;
}

// Across iterations too: the next iteration's store meets this one's read.
__global__ void helpersInLoop(int *out, int n) {
  __shared__ int s[64];
  int t = threadIdx.x, v = 0;
  for (int i = 0; i < n; i++) {
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 1 reads it
    s[t] = i + t;
    v += neighbour(s, t);
  }
  out[t] = v;
}

__device__ int combine(const int &a, const int &b) { return a + b; }

// Both accesses within one statement, the read through the call: the barrier
// would have to go into combine().
__global__ void oneStatement(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncwarp();
  // CHECK-MESSAGES: :[[@LINE+3]]:5: warning: lanes of one warp race on shared memory: lane 8 writes s[8] and lane 0 reads it
  // CHECK-MESSAGES: :[[@LINE+2]]:5: note: no automatic fix: the racing accesses are made within one statement of the kernel, through a function it calls; a __syncwarp() between them would have to go into that function
  if (t < 16)
    s[t] = combine(s[t], s[t + 8]);
  out[t] = s[t];
}

void launch(const unsigned *in, unsigned *out, int *o, int n) {
  deepNames<<<1, 64, 64 * 8 * 4>>>(in, out, n);
  helpers<<<1, 64>>>(o);
  helpersInLoop<<<1, 64>>>(o, n);
  oneStatement<<<1, 64>>>(o);
}

// CHECK-FIXES:{{^}}    for (int k = 0; k < 32; k += 16)
// CHECK-FIXES-NEXT:{{^}}      *((uint4 *)column[k]) = *((const uint4 *)&in[(i * 32 + k + lane) * 4]);
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    for (int k = 0; k < 2; k++) acc ^= *((Quad *)&mine[4 * k]);
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  }
// CHECK-FIXES:{{^}}  s[t] = 0;
// CHECK-FIXES-NEXT:{{^}}  put(s, t);
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  int v = neighbour(s, t);
// CHECK-FIXES:{{^}}    s[t] = i + t;
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    v += neighbour(s, t);
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  }
// CHECK-FIXES:{{^}}  if (t < 16)
// CHECK-FIXES-NEXT:{{^}}    s[t] = combine(s[t], s[t + 8]);
