#include "tool/Prefilter.h"
#include "clang/Tooling/DependencyScanning/DependencyScanningTool.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace clang::tooling::dependencies;

namespace warpfix {

Prefilter::Prefilter(std::vector<std::string> Tokens,
                     std::vector<std::string> SystemRoots,
                     FileDigests &Digests)
    : Tokens(std::move(Tokens)), SystemRoots(std::move(SystemRoots)),
      Digests(Digests),
      // Directive scanning reads each header once, reduced to its
      // preprocessor lines, and shares it across TUs and threads.
      Service(std::make_unique<DependencyScanningService>(
          ScanningMode::DependencyDirectivesScan,
          ScanningOutputFormat::Full)) {}

Prefilter::~Prefilter() = default;

bool Prefilter::isSystem(llvm::StringRef Path) const {
  return llvm::any_of(SystemRoots, [&](const std::string &Root) {
    return Path.starts_with(Root) &&
           (Path.size() == Root.size() || Path[Root.size()] == '/');
  });
}

bool Prefilter::mentionsAToken(llvm::StringRef Path) {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Mentions.find(Path);
    if (It != Mentions.end())
      return It->second;
  }
  bool Found = true; // A file that cannot be read is left to the parse.
  if (auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false)) {
    llvm::StringRef Text = (*Buffer)->getBuffer();
    Found = llvm::any_of(Tokens, [&](const std::string &Token) {
      return Text.contains(Token);
    });
  }
  std::lock_guard<std::mutex> Lock(Mutex);
  return Mentions.try_emplace(Path, Found).first->second;
}

std::optional<std::vector<FileDigest>>
Prefilter::unneededParse(llvm::StringRef File,
                         const clang::tooling::CompileCommand &Command) {
  // Most TUs that need a parse say so in their own text: no scan for them.
  if (mentionsAToken(File))
    return std::nullopt;
  DependencyScanningTool Scanner(*Service);
  llvm::DenseSet<ModuleID> NoModules;
  auto Deps = Scanner.getTranslationUnitDependencies(
      Command.CommandLine, Command.Directory, NoModules,
      [](const ModuleID &, ModuleOutputKind) { return std::string(); });
  if (!Deps) {
    llvm::consumeError(Deps.takeError());
    return std::nullopt;
  }
  std::vector<FileDigest> Read;
  for (const std::string &Dependency : Deps->FileDeps) {
    // Not shortened: see dependencyPath in Analyzer.cpp.
    llvm::SmallString<256> Path(Dependency);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
    if (!isSystem(Path) && mentionsAToken(Path))
      return std::nullopt;
    std::string Hash = Digests.hashOf(Path);
    if (Hash.empty())
      return std::nullopt;
    Read.push_back({std::string(Path), std::move(Hash)});
  }
  llvm::sort(Read, [](const FileDigest &A, const FileDigest &B) {
    return A.Path < B.Path;
  });
  return Read;
}

} // namespace warpfix
