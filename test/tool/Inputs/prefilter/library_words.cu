// Words that merely contain a token: std::allocator's __allocate, cooperative
// groups' tile.shfl_down. Nothing for any check, so no parse.
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

__device__ int neighbour(cg::thread_block_tile<32> tile, int v) {
  return tile.shfl_down(v, 1);
}

int hostSize() { return int(std::vector<int>(3).size()); }
