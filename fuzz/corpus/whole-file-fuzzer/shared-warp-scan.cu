__global__ void scan(int *data) {
  __shared__ int s[64];
  int lane = threadIdx.x & 31;
  s[threadIdx.x] = data[threadIdx.x];
  if (lane >= 1) s[threadIdx.x] += s[threadIdx.x - 1];
  if (lane >= 2) s[threadIdx.x] += s[threadIdx.x - 2];
  if (lane >= 4) s[threadIdx.x] += s[threadIdx.x - 4];
  data[threadIdx.x] = s[threadIdx.x];
}
int main() { scan<<<1, 64>>>(nullptr); }
