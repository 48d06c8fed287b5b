// The toolkit's cooperative groups and a legacy shuffle; a NOLINTBEGIN in
// the lines its preamble covers, never closed: NOLINTBEGIN(warp-legacy-intrinsic)
#include <cooperative_groups.h>
#include <sysdefs.h>

namespace cg = cooperative_groups;

__global__ void groups(int *out) {
  cg::thread_block block = cg::this_thread_block();
  int v = out[block.thread_rank()];
  v += __shfl_up(v, 1);
  out[block.thread_rank()] = v;
}
