// A user header reached by #include <...> through -I: a preamble that reads
// it is not shared.
#pragma once
#define USER_FULL 0xffffffff
__device__ inline int user_legacy(int v) { return __shfl_down(v, 1); }
