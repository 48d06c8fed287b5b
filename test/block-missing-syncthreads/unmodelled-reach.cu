// Places that the membership analysis shows every thread of the block
// reaching, where a __syncthreads() would still hang or be written wrong:
// a spin-wait on a flag raised after the reads; a trip count or loop
// condition read from memory that other threads write meanwhile; PTX exit
// in a destructor, behind a call through a pointer, or PTX ret; a loop
// body whose closing brace shares its line with a branch's; a case label;
// an arm of conditional compilation. Each is reported without a fix, and
// --fix leaves the file as it was.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-missing-syncthreads %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: cp %t/k.cu %t/before.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-missing-syncthreads --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIX
// FIX: fixed 0 findings in 0 files; 9 remain
// RUN: cmp %t/k.cu %t/before.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}

// A spin-wait: warp 1 waits for a flag that thread 0 raises after the
// reads; a barrier before the reads would deadlock.
__global__ void spin(const int *in, int *out, volatile int *flag) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+6]]:11: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE+5]]:3: note: no automatic fix: a __syncthreads() here would order the accesses, and the analysis shows every thread of the block reaching it, but a loop may wait on memory that other threads write, which a barrier they have not reached would deadlock
  // CHECK-MESSAGES: :[[@LINE+2]]:5: note: what the analysis does not model
  if (t / 32 == 1)
    while (*flag == 0) {
    }
  int r = s[(t + 32) % 64];
  if (t == 0)
    *flag = 1;
  out[t] = r;
}

// The trip count is read from memory that thread 0 writes with no barrier:
// threads may read different counts.
__global__ void countFromMemory(const int *in, int *out, int *counts) {
  __shared__ int s[128];
  int t = threadIdx.x;
  if (t == 0)
    counts[blockIdx.x] = 3;
  int n = counts[blockIdx.x];
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    s[t] = in[i * 128 + t];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 64 (warp 2, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE+3]]:12: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: no automatic fix: a __syncthreads() here would order the accesses, and the analysis shows every thread of the block reaching it, but whether, or how often, threads get there rests on a condition that reads memory (directly or through the locals it reads), which other threads may write as each thread reads it
    // CHECK-MESSAGES: :[[@LINE-5]]:19: note: what the analysis does not model
    acc += s[(t + 64) % 128];
  }
  out[t] = acc;
}

// A work queue: the loop runs while a shared head, advanced atomically,
// is below the total.
__global__ void queue(const int *in, int *out, int total) {
  __shared__ int head;
  __shared__ int buf[128];
  int t = threadIdx.x;
  if (t == 0)
    head = 0;
  __syncthreads();
  int acc = 0;
  while (head < total) {
    int item = atomicAdd(&head, 1);
    buf[t] = item < total ? in[item] : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes buf[0] and thread 64 (warp 2, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE+3]]:12: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: no automatic fix: a __syncthreads() here would order the accesses, and the analysis shows every thread of the block reaching it, but whether, or how often, threads get there rests on a condition that reads memory (directly or through the locals it reads), which other threads may write as each thread reads it
    // CHECK-MESSAGES: :[[@LINE-6]]:10: note: what the analysis does not model
    acc += buf[(t + 64) % 128];
  }
  out[t] = acc;
}

// A destructor that ends the upper threads with PTX exit.
struct EndsUpperHalf {
  __device__ ~EndsUpperHalf() {
    if (threadIdx.x >= 64)
      asm volatile("exit;");
  }
};
__global__ void exitInDestructor(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  {
    EndsUpperHalf scope;
    s[t] = in[t];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE+4]]:12: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE+3]]:3: note: no automatic fix: a __syncthreads() here would order the accesses, and the analysis shows every thread of the block reaching it, but inline PTX may end or redirect some threads
    // CHECK-MESSAGES: :[[@LINE-12]]:7: note: what the analysis does not model
  }
  out[t] = s[(t + 32) % 64];
}

// A call through a pointer, which may end threads.
__device__ void endUpperHalf() {
  if (threadIdx.x >= 64)
    asm volatile("exit;");
}
__global__ void exitThroughPointer(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  void (*hook)() = endUpperHalf;
  s[t] = in[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+4]]:12: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE+3]]:3: note: no automatic fix: a __syncthreads() here would order the accesses, and the analysis shows every thread of the block reaching it, but a call through a pointer may end some threads
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: what the analysis does not model
  hook();
  out[t] = s[(t + 32) % 64];
}

// Inline PTX that returns from the kernel for some threads.
__global__ void asmReturn(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 32 (warp 1, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+5]]:12: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE+4]]:3: note: no automatic fix: a __syncthreads() here would order the accesses, and the analysis shows every thread of the block reaching it, but inline PTX may end or redirect some threads
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: what the analysis does not model
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ge.u32 p, %0, 64;\n\t@p ret;\n\t}"
               ::"r"(t));
  out[t] = s[(t + 32) % 64];
}

// The loop body's closing brace shares its line with the branch's: a
// barrier before that line would be inside the branch.
__global__ void braceShared(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int acc = 0;
  for (int i = 0; i < 4; ++i) {
    s[t] = in[i * 128 + t] + acc;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 64 (warp 2, lane 0) writes s[64] and thread 0 (warp 0, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE+4]]:14: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: no automatic fix: the loop body is written on one line or by a macro, or its closing brace shares its line with other code
    __syncthreads();
    if (t < 64) {
      acc += s[t + 64];
    } }
  out[t] = acc;
}

// The place is a case label, which the switch jumps to past anything
// written before it.
__global__ void caseLabel(const int *in, int *out, int mode) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int r = 0;
  switch (mode) {
  case 0:
    s[t] = in[t];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 64 (warp 2, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
    // CHECK-MESSAGES: :[[@LINE+4]]:9: note: the other thread reads it here
    // CHECK-MESSAGES: :[[@LINE+2]]:3: note: no automatic fix: the place between the accesses is a label, which a jump to it would pass the barrier by
    [[fallthrough]];
  case 1:
    r = s[(t + 64) % 128];
    break;
  }
  out[t] = r;
}

// The read stands in one arm of conditional compilation.
__global__ void directive(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: threads of different warps race on shared memory: thread 0 (warp 0, lane 0) writes s[0] and thread 64 (warp 2, lane 0) reads it with no __syncthreads() between them [block-missing-syncthreads]
  // CHECK-MESSAGES: :[[@LINE+5]]:12: note: the other thread reads it here
  // CHECK-MESSAGES: :[[@LINE+4]]:3: note: no automatic fix: conditional compilation (#if, #else) stands where the barrier would go, so it would order the accesses in one configuration only
#if defined(SCALE_READ)
  out[t] = 2 * s[(t + 64) % 128];
#else
  out[t] = s[(t + 64) % 128];
#endif
}

int main() {
  int *p = nullptr;
  volatile int *f = nullptr;
  spin<<<1, 64>>>(p, p, f);
  countFromMemory<<<2, 128>>>(p, p, p);
  queue<<<1, 128>>>(p, p, 512);
  exitInDestructor<<<1, 128>>>(p, p);
  exitThroughPointer<<<1, 128>>>(p, p);
  asmReturn<<<1, 128>>>(p, p);
  braceShared<<<1, 128>>>(p, p);
  caseLabel<<<1, 128>>>(p, p, 0);
  directive<<<1, 128>>>(p, p);
}

