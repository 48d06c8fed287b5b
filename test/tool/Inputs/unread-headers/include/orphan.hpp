// No unit includes it.
template <typename T> __device__ T any_lane(T p) {
  unsigned m;
  asm("vote.ballot.b32 %0, %1;" : "=r"(m) : "r"(int(p)));
  return __any(p) && m;  // NOLINT(warp-legacy-intrinsic)
}
inline void host_only() { cudaThreadSynchronize(); }
// A declaration of the name is not a call: a project's own overload.
__device__ unsigned __ballot(int predicate, unsigned lanes);
