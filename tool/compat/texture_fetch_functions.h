// Clang 19's CUDA runtime wrapper includes this header, which CUDA 12 removed
// along with the texture reference API. Nothing of it is needed to analyse
// warp code, so an empty stand-in lets the wrapper parse against CUDA 13.
