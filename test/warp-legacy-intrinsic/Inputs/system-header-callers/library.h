// A library's header, on an -isystem path: its code is not analysed.
#pragma once

// Runs the caller's functor in only some lanes.
template <class F> __device__ void apply_to_first_five(F f, int x) {
  if (threadIdx.x % 32 < 5)
    f(x);
}

// Declares a function that the user's code defines, and calls it.
__device__ int user_hook(int v);
inline __device__ int call_hook_in_some_lanes(int v) {
  return threadIdx.x % 2 ? user_hook(v) : v;
}
