#include "tool/CudaToolkit.h"
#include "tool/BuildConfig.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <cstdlib>

namespace warpfix {
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static bool isToolkit(llvm::StringRef Root) {
  llvm::SmallString<256> Header(Root);
  path::append(Header, "include", "cuda.h");
  return fs::exists(Header);
}

static llvm::Error notAToolkit(llvm::StringRef Root, llvm::StringRef Source) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "%s names '%s', which is not a CUDA toolkit (no include/cuda.h); pass "
      "--cuda-path=<toolkit root> or set CUDA_PATH",
      Source.str().c_str(), Root.str().c_str());
}

static llvm::Expected<std::string> findRoot(llvm::StringRef ExplicitPath) {
  if (!ExplicitPath.empty()) {
    if (!isToolkit(ExplicitPath))
      return notAToolkit(ExplicitPath, "--cuda-path");
    return ExplicitPath.str();
  }
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"}) {
    const char *Value = std::getenv(Var);
    if (Value && *Value) {
      if (!isToolkit(Value))
        return notAToolkit(Value, Var);
      return std::string(Value);
    }
  }
  if (isToolkit("/usr/local/cuda"))
    return std::string("/usr/local/cuda");
  if (llvm::ErrorOr<std::string> Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Root(*Nvcc);
    fs::real_path(*Nvcc, Root);
    path::remove_filename(Root); // bin/
    path::remove_filename(Root); // toolkit root
    if (isToolkit(Root))
      return std::string(Root);
  }
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "no CUDA toolkit found (looked at CUDA_PATH, CUDA_HOME, /usr/local/cuda "
      "and the nvcc on PATH); pass --cuda-path=<toolkit root> or set "
      "CUDA_PATH");
}

/// Resources that ship with warpfix lie relative to the running binary
/// (<prefix>/bin/warpfix), so that a build tree and each installed copy,
/// wherever it was moved, use their own.
static std::string besideBinary(const char *Argv0, llvm::StringRef Relative) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&locateCudaToolkit));
  llvm::SmallString<256> Dir(path::parent_path(path::parent_path(Exe)));
  path::append(Dir, Relative);
  return std::string(Dir);
}

llvm::Expected<CudaToolkit> locateCudaToolkit(llvm::StringRef ExplicitPath,
                                              const char *Argv0) {
  llvm::Expected<std::string> Root = findRoot(ExplicitPath);
  if (!Root)
    return Root.takeError();
  CudaToolkit Toolkit;
  Toolkit.Root = *Root;
  // No fallback to the source tree: an installed copy must not depend on it.
  Toolkit.CompatInclude = besideBinary(Argv0, WARPFIX_COMPAT_RELATIVE_DIR);
  if (!fs::is_directory(Toolkit.CompatInclude))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "warpfix's own headers are missing: '%s' is not a directory; install "
        "warpfix with 'cmake --install', which puts them there",
        Toolkit.CompatInclude.c_str());
  // Clang's builtin headers: a clang 19 installed beside warpfix, else the
  // LLVM that warpfix was built against.
  std::string Resource =
      besideBinary(Argv0, WARPFIX_CLANG_RESOURCE_RELATIVE_DIR);
  Toolkit.ClangResourceDir = fs::is_directory(Resource + "/include")
                                 ? Resource
                                 : std::string(WARPFIX_CLANG_RESOURCE_DIR);
  return Toolkit;
}

} // namespace warpfix
