// A library's header, found in a system directory.
__device__ int sysVote(int p) { return __all(p); }
