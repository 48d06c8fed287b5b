// The legacy name is pasted together by a macro: "__shfl" starts an
// identifier here, which is enough to parse.
#define WARP_OP(op) __shfl_##op

__global__ void k(int *out) {
  int v = threadIdx.x;
  v += WARP_OP(down)(v, 1);
  out[threadIdx.x] = v;
}
