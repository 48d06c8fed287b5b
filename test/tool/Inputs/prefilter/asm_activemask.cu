// Inline PTX whose member mask is activemask.b32: "activemask" is a token of
// warp-activemask-mask.
__global__ void k(int *out) {
  int r;
  asm("{ .reg .b32 %%m; activemask.b32 %%m; bar.warp.sync %%m; mov.b32 %0, %%m; }" : "=r"(r));
  out[threadIdx.x] = r;
}
