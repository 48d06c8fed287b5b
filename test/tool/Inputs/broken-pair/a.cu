__global__ void a(int *p) {
  int v = __shfl_down(p[0], 1)
  p[0] = v;
}
