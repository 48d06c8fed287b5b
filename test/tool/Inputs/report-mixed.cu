// For the report formats: a fixable finding whose fix inserts a ballot
// before the branch, and one without a fix whose notes give the reason.
__global__ void partial(int *p) {
  int v = p[threadIdx.x];
  if (threadIdx.x < 7)
    v += __shfl_down(v, 1);
  p[threadIdx.x] = v;
}

__global__ void loop(int *p) {
  for (int t = 16; threadIdx.x < t; t >>= 1)
    p[0] += __shfl(p[0], 0);
}
