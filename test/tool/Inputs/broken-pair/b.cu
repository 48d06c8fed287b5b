__global__ void b(int *p) {
  __shared__ int s;
  p[0] = undeclared + s;
}
