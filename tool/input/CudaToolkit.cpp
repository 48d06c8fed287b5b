#include "tool/input/CudaToolkit.h"
#include "tool/BuildConfig.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
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

/// "13.0.88" into Toolkit's version; false when it is not that shape.
static bool takeVersion(llvm::StringRef Text, CudaToolkit &Toolkit) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::Regex("^([0-9]+)\\.([0-9]+)\\.([0-9]+)").match(Text, &Parts);
  return Parts.size() == 4 && !Parts[1].getAsInteger(10, Toolkit.Major) &&
         !Parts[2].getAsInteger(10, Toolkit.Minor) &&
         !Parts[3].getAsInteger(10, Toolkit.Build);
}

/// The version nvcc reports, which is the compiler's (cuda_nvcc), not the
/// runtime's: version.json of a runfile install, else the name of the
/// nvcc package's dist-info folder of a pip-style install, else CUDA_VERSION
/// of cuda.h, which has no build number (0 then).
static void readVersion(CudaToolkit &Toolkit) {
  if (auto Text = llvm::MemoryBuffer::getFile(Toolkit.Root + "/version.json")) {
    if (llvm::Expected<llvm::json::Value> Json =
            llvm::json::parse((*Text)->getBuffer())) {
      if (const llvm::json::Object *O = Json->getAsObject())
        if (const llvm::json::Object *Nvcc = O->getObject("cuda_nvcc"))
          if (std::optional<llvm::StringRef> V = Nvcc->getString("version"))
            if (takeVersion(*V, Toolkit))
              return;
    } else {
      llvm::consumeError(Json.takeError());
    }
  }
  std::error_code EC;
  for (fs::directory_iterator It(Toolkit.Root + "/dist-info", EC), End;
       !EC && It != End; It.increment(EC)) {
    llvm::StringRef Name = path::filename(It->path());
    if (Name.consume_front("nvidia_cuda_nvcc-") && takeVersion(Name, Toolkit))
      return;
  }
  if (auto Text = llvm::MemoryBuffer::getFile(Toolkit.Root + "/include/cuda.h")) {
    llvm::SmallVector<llvm::StringRef, 2> Parts;
    unsigned Version = 0;
    if (llvm::Regex("#define[ \t]+CUDA_VERSION[ \t]+([0-9]+)")
            .match((*Text)->getBuffer(), &Parts) &&
        !Parts[1].getAsInteger(10, Version)) {
      Toolkit.Major = Version / 1000;
      Toolkit.Minor = Version % 1000 / 10;
    }
  }
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
  readVersion(Toolkit);
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
