__global__ void evenLanes(int *out) {
  int v = out[threadIdx.x];
  if (threadIdx.x % 2 == 0) {
    v += __shfl_down(v, 2);
    v += __shfl_sync(__activemask(), v, 0);
  }
  out[threadIdx.x] = v;
}
