// Its leading #include <...> reads a user header: parsed alone.
#include <sysdefs.h>
#include <userdefs.h>

__global__ void user(int *out) {
  int v = user_legacy(out[threadIdx.x]);
  v += __shfl_xor_sync(USER_FULL, v, 1);
  out[threadIdx.x] = v;
}
