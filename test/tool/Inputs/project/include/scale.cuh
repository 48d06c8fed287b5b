inline __host__ __device__ int scale(int x) { return 2 * x; }
