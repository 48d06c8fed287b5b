#include "tool/run/Prefilter.h"
#include "tool/input/Paths.h"
#include "tool/input/RegularFile.h"
#include "clang/Tooling/DependencyScanning/DependencyScanningTool.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
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

namespace {

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Whether Text holds Word where an identifier starts; WholeWord also wants
/// the identifier to end with it.
bool containsIdentifier(llvm::StringRef Text, llvm::StringRef Word,
                        bool WholeWord) {
  for (size_t At = Text.find(Word); At != llvm::StringRef::npos;
       At = Text.find(Word, At + 1)) {
    bool Starts = At == 0 || !isIdentifierChar(Text[At - 1]);
    size_t End = At + Word.size();
    bool Ends = End == Text.size() || !isIdentifierChar(Text[End]);
    if (Starts && (Ends || !WholeWord))
      return true;
  }
  return false;
}

} // namespace

bool Prefilter::mentionsAToken(llvm::StringRef Text) const {
  return llvm::any_of(Tokens, [&](llvm::StringRef Token) {
    if (Token.consume_front("*"))
      return Text.contains(Token);
    if (Token.consume_back("*"))
      return containsIdentifier(Text, Token, /*WholeWord=*/false);
    return containsIdentifier(Text, Token, /*WholeWord=*/true);
  });
}

bool Prefilter::needsAParse(llvm::StringRef Path) {
  return NeedsAParse.get(Path, [&] {
    if (resolvesUnderAny(Path, SystemRoots))
      return false;
    auto Buffer = readRegularFile(Path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
    // A file that cannot be read is left to the parse.
    if (!Buffer) {
      llvm::consumeError(Buffer.takeError());
      return true;
    }
    return mentionsAToken((*Buffer)->getBuffer());
  });
}

std::optional<std::vector<FileDigest>>
Prefilter::unneededParse(llvm::StringRef File,
                         const clang::tooling::CompileCommand &Command) {
  // Most TUs that need a parse say so in their own text: no scan for them.
  if (needsAParse(File))
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
    // Not shortened: see dependencyPath in Analyser.cpp.
    llvm::SmallString<256> Path(Dependency);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
    if (needsAParse(Path))
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
