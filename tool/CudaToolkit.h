// Locating what the CUDA front end needs: the toolkit, clang's resource
// directory, and the compat headers that ship with warpfix.
#ifndef WARPFIX_TOOL_CUDATOOLKIT_H
#define WARPFIX_TOOL_CUDATOOLKIT_H

#include "llvm/Support/Error.h"
#include <string>

namespace warpfix {

struct CudaToolkit {
  std::string Root;
  /// Where warpfix's stand-ins for headers that newer toolkits dropped live.
  std::string CompatInclude;
  /// Clang's builtin headers, including the CUDA runtime wrapper.
  std::string ClangResourceDir;
};

/// Finds the toolkit from --cuda-path, else CUDA_PATH, else CUDA_HOME, else
/// /usr/local/cuda, else the directory above the nvcc on PATH. An explicitly
/// named toolkit that is not one is an error, not a reason to look elsewhere.
llvm::Expected<CudaToolkit> locateCudaToolkit(llvm::StringRef ExplicitPath,
                                              const char *Argv0);

} // namespace warpfix

#endif
