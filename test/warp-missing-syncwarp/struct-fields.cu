// Fields of __shared__ structs are elements too: a field is the bytes at its
// offset in the struct, a whole-struct copy all of them, and a bit-field the
// whole struct (it shares its bytes with its neighbours).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: fixed 0 findings in 0 files; 2 remain

struct Slot {
  int flag;
  int value;
};

__global__ void fieldPeer(const int *in, int *out) {
  __shared__ Slot slots[64];
  unsigned t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes slots[0].flag and lane 1 reads it
  slots[t].flag = in[t];
  out[t] = slots[t ^ 1].flag;
}

__global__ void wholeStore(const int *in, int *out) {
  __shared__ Slot slots[64];
  unsigned t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes slots[0] and lane 1 reads it
  slots[t] = Slot{in[t], in[t] * 2};
  out[t] = slots[t ^ 1].value;
}

__global__ void wholeCopy(const int *in, int *out) {
  __shared__ Slot slots[64];
  unsigned t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes slots[0].value and lane 1 reads it
  slots[t].value = in[t];
  Slot peer = slots[t ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:15: note: the other lane reads it here
  out[t] = peer.value + peer.flag;
}

struct Packed {
  unsigned low : 4;
  unsigned high : 4;
};

__global__ void bitFields(int *out) {
  __shared__ Packed packed[64];
  unsigned t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes packed[0].high and lane 1 reads it
  packed[t].high = t;
  out[t] = packed[t ^ 1].low;
}

__global__ void throughPointer(int *out) {
  __shared__ Slot slots[64];
  Slot *mine = &slots[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes slots[0].value and lane 3 reads it
  mine->value = threadIdx.x;
  out[threadIdx.x] = slots[threadIdx.x ^ 3].value;
}

__global__ void unionMember(const float *in, float *out) {
  __shared__ union {
    int count[64];
    float sum[64];
  } smem;
  unsigned t = threadIdx.x;
  smem.sum[t] = in[t];
  __syncthreads();
  if (t < 32)
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: lanes of one warp race on shared memory: lane 16 writes smem.sum[16] and lane 0 reads it
    smem.sum[t] += smem.sum[t + 16];
  out[t] = smem.sum[t];
}

// Not races: another field of the partner's element, a pointer kept in
// shared memory (it points somewhere unknown), and accesses a barrier orders.
__global__ void otherField(const int *in, int *out) {
  __shared__ Slot slots[64];
  unsigned t = threadIdx.x;
  slots[t].value = in[t];
  out[t] = slots[t ^ 1].flag;
}

struct Rows {
  float *row;
  int count;
};

__global__ void pointerInShared(float *rows, float *out) {
  __shared__ Rows shared;
  if (threadIdx.x == 0)
    shared.row = rows;
  __syncthreads();
  shared.row[threadIdx.x] = 1.0f;
  out[threadIdx.x] = shared.row[threadIdx.x ^ 1];
}

__global__ void ordered(const int *in, int *out) {
  __shared__ Slot slots[64];
  unsigned t = threadIdx.x;
  slots[t] = Slot{in[t], 0};
  __syncwarp();
  out[t] = slots[t ^ 1].flag;
}
// Names for an element: a structured binding, a local reference, and a
// reference parameter. The last race spans two functions: reported, not fixed.
__global__ void bindingPeer(const int *in, int *out) {
  __shared__ Slot slots[64];
  unsigned t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes slots[0].flag and lane 1 reads it
  slots[t].flag = in[t];
  auto &[flag, value] = slots[t ^ 1];
  out[t] = flag + value;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: note: the other lane reads it here
}

__global__ void localReference(const int *in, int *out) {
  __shared__ int buf[64];
  int &mine = buf[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes buf[0] and lane 2 reads it
  mine = in[threadIdx.x];
  out[threadIdx.x] = buf[threadIdx.x ^ 2];
}

// The store is in the helper, the read in the kernel: the barrier goes
// between the kernel's two statements.
// CHECK-MESSAGES: :[[@LINE+1]]:43: warning: lanes of one warp race on shared memory: lane 0 writes buf[0] and lane 2 reads it
__device__ void store(int &into, int v) { into = v; }

__global__ void referenceParameter(const int *in, int *out) {
  __shared__ int buf[64];
  // CHECK-MESSAGES: :[[@LINE+2]]:3: note: a __syncwarp() between the accesses orders them
  store(buf[threadIdx.x], in[threadIdx.x]);
  out[threadIdx.x] = buf[threadIdx.x ^ 2];
}

// A copy names no shared memory: its fields are the thread's own.
__global__ void bindingCopy(const int *in, int *out) {
  __shared__ Slot slots[64];
  unsigned t = threadIdx.x;
  slots[t].flag = in[t];
  __syncwarp();
  auto [flag, value] = slots[t ^ 1];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes slots[0].flag and lane 1 reads it
  slots[t].flag = flag;
  // CHECK-MESSAGES: :[[@LINE-3]]:24: note: the other lane reads it here
  out[t] = flag + value;
}

// Every extern __shared__ array names the same dynamic shared memory,
// whatever its name, element type or qualifiers.
__global__ void dynamicAlias(const int *in, int *out) {
  extern __shared__ int words[];
  extern __shared__ const int view[];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes words[0] and lane 1 reads it
  words[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = view[threadIdx.x ^ 1];
}

__global__ void dynamicPun(const float *in, int *out) {
  extern __shared__ float values[];
  extern __shared__ int bits[];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes values[0] and lane 4 reads it
  values[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = bits[threadIdx.x ^ 4];
}

// A base class's field lies at the base's offset; a cast between pointer
// types keeps the address; a conditional expression reads the arm its lane
// takes.
struct Key {
  int key;
};
struct Payload {
  int val;
};
struct Item : Key, Payload {};

__global__ void baseField(const int *in, int *out) {
  __shared__ union {
    Item items[64];
    int2 words[64];
  } st;
  unsigned t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes st.items[0] and lane 1 reads it
  st.items[t].val = in[t];
  out[t] = st.words[t ^ 1].y;
}

__global__ void castDynamic(const int *in, int *out) {
  extern __shared__ char raw[];
  int *words = reinterpret_cast<int *>(raw);
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes raw[0] and lane 1 reads it
  words[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = ((int *)raw)[threadIdx.x ^ 1];
}

__global__ void eitherArm(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 2 writes s[2] and lane 3 reads it
  s[t] = in[t];
  out[t] = (t & 2) ? s[t ^ 1] : s[t];
}

// Not a race: the rows live wherever the pointers loaded from shared memory
// point.
__global__ void loadedPointer(float *rows, float *out) {
  __shared__ float *row[4];
  if (threadIdx.x < 4)
    row[threadIdx.x] = rows + 64 * threadIdx.x;
  __syncthreads();
  row[0][threadIdx.x] = 1.0f;
  out[threadIdx.x] = row[0][threadIdx.x ^ 1];
}

// Member functions are entered with `this` bound to their object, a member
// operator's parameters to the arguments after the object, and a
// user-written constructor's initializers are read. These races are
// reported without a fix: the accesses are in another function.
struct Pair {
  int sum;
  int count;
  __device__ void operator+=(const Pair &o) {
    // CHECK-MESSAGES: :[[@LINE+2]]:5: warning: lanes of one warp race on shared memory: lane 8 writes part[8].sum and lane 0 reads it
    // CHECK-MESSAGES: :{{[0-9]+}}:5: note: no automatic fix: 'operator+=' is called here by only some lanes of the warp
    sum += o.sum;
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: lanes of one warp race on shared memory: lane 8 writes part[8].count and lane 0 reads it
    count += o.count;
  }
};

__global__ void memberOperator(const int *in, int *out) {
  __shared__ Pair part[64];
  unsigned t = threadIdx.x;
  part[t].sum = in[t];
  part[t].count = 1;
  __syncwarp();
  if (t < 16) {
    part[t] += part[t + 16];
    part[t] += part[t + 8];
  }
  out[t] = part[t].sum;
}

struct Copied {
  int a;
  __device__ Copied(const Copied &o) : a(o.a) {}
  Copied() = default;
};

__global__ void userCopy(const int *in, int *out) {
  __shared__ Copied c[64];
  unsigned t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: lanes of one warp race on shared memory: lane 0 writes c[0].a and lane 1 reads it
  // CHECK-MESSAGES: :{{[0-9]+}}:42: note: the other lane reads it here
  c[t].a = in[t];
  Copied peer(c[t ^ 1]);
  out[t] = peer.a;
}

// CHECK-FIXES:{{^}}  slots[t].flag = in[t];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[t] = slots[t ^ 1].flag;
// CHECK-FIXES:{{^}}  slots[t] = Slot{in[t], in[t] * 2};
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[t] = slots[t ^ 1].value;
// CHECK-FIXES:{{^}}  slots[t].value = in[t];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  Slot peer = slots[t ^ 1];
// CHECK-FIXES:{{^}}  packed[t].high = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[t] = packed[t ^ 1].low;
// CHECK-FIXES:{{^}}  mine->value = threadIdx.x;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES:{{^}}  auto warpfix_acc_{{[0-9]+}} = smem.sum[t];
// CHECK-FIXES-NEXT:{{^}}  if (t < 32) warpfix_acc_{{[0-9]+}} += smem.sum[t + 16];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (t < 32) smem.sum[t] = warpfix_acc_{{[0-9]+}};
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES:{{^}}  slots[t].value = in[t];
// CHECK-FIXES-NEXT:{{^}}  out[t] = slots[t ^ 1].flag;
// CHECK-FIXES:{{^}}  shared.row[threadIdx.x] = 1.0f;
// CHECK-FIXES-NEXT:{{^}}  out[threadIdx.x] = shared.row[threadIdx.x ^ 1];
// CHECK-FIXES:{{^}}  auto &[flag, value] = slots[t ^ 1];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[t] = flag + value;
// CHECK-FIXES:{{^}}  mine = in[threadIdx.x];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES:{{^}}  store(buf[threadIdx.x], in[threadIdx.x]);
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  out[threadIdx.x] = buf[threadIdx.x ^ 2];
// CHECK-FIXES:{{^}}  auto [flag, value] = slots[t ^ 1];
// CHECK-FIXES-NEXT:{{^}}  // CHECK-MESSAGES: :{{.*}}
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  slots[t].flag = flag;
// CHECK-FIXES:{{^}}  words[threadIdx.x] = in[threadIdx.x];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES:{{^}}  values[threadIdx.x] = in[threadIdx.x];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES:{{^}}  st.items[t].val = in[t];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES:{{^}}  words[threadIdx.x] = in[threadIdx.x];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES:{{^}}  s[t] = in[t];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES:{{^}}  row[0][threadIdx.x] = 1.0f;
// CHECK-FIXES-NEXT:{{^}}  out[threadIdx.x] = row[0][threadIdx.x ^ 1];
