// Locating what the CUDA front end needs: the toolkit, clang's resource
// directory, and the compat headers that ship with warpfix.
#ifndef WARPFIX_TOOL_INPUT_CUDATOOLKIT_H
#define WARPFIX_TOOL_INPUT_CUDATOOLKIT_H

#include "llvm/Support/Error.h"
#include <string>

namespace warpfix {

struct CudaToolkit {
  std::string Root;
  /// Where warpfix's stand-ins for headers that newer toolkits dropped live.
  std::string CompatInclude;
  /// Clang's builtin headers, including the CUDA runtime wrapper.
  std::string ClangResourceDir;
  /// The toolkit's version, as nvcc 13 predefines it in __CUDACC_VER_MAJOR__,
  /// __CUDACC_VER_MINOR__ and __CUDACC_VER_BUILD__. Major is 0 when it
  /// could not be read (then no macro is defined).
  unsigned Major = 0, Minor = 0, Build = 0;
};

/// Finds the toolkit from --cuda-path, else CUDA_PATH, else CUDA_HOME, else
/// /usr/local/cuda, else the directory above the nvcc on PATH. An explicitly
/// named toolkit that is not one is an error, not a reason to look elsewhere.
llvm::Expected<CudaToolkit> locateCudaToolkit(llvm::StringRef ExplicitPath,
                                              const char *Argv0);

} // namespace warpfix

#endif
