#include "tool/run/Pipeline.h"
#include "llvm/Support/FileSystem.h"

namespace warpfix {

TranslationUnitResult TranslationUnitPipeline::run(llvm::StringRef File) const {
  clang::tooling::CompileCommand Command =
      Analysis.database().getCompileCommands(File).front();
  std::optional<std::string> Key;
  if (Cache && (Key = Cache->keyFor(File, Command)))
    if (std::optional<TranslationUnitResult> Cached = Cache->lookup(*Key)) {
      Cached->MainFile = File.str();
      return std::move(*Cached);
    }
  TranslationUnitResult Result;
  std::optional<std::vector<FileDigest>> Unneeded;
  if (Filter && (Unneeded = Filter->unneededParse(File, Command))) {
    Result.MainFile = File.str();
    Result.Parsed = true;
    Result.SkippedByPrefilter = true;
    Result.Dependencies = std::move(*Unneeded);
  } else {
    Result = Analysis.analyse(File);
  }
  if (Key)
    Cache->store(*Key, Result);
  return Result;
}

std::vector<std::string> systemHeaderRoots(const CudaToolkit &Toolkit) {
  std::vector<std::string> Roots = {Toolkit.Root, Toolkit.ClangResourceDir,
                                    Toolkit.CompatInclude, "/usr/include",
                                    "/usr/lib/gcc"};
  // /usr/local/cuda is usually a link; the scanner may report either name.
  for (size_t I = 0, E = Roots.size(); I < E; ++I) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(Roots[I], Real) && Real != Roots[I])
      Roots.push_back(std::string(Real));
  }
  return Roots;
}

} // namespace warpfix
