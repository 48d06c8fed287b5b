// Decides, before the full parse, that a translation unit cannot produce a
// finding: neither its file nor any non-system file it includes contains a
// token that an enabled check looks for. Conservative by construction: a
// token in a comment, a dead #if branch or an unrelated word still means a
// parse; a scan that fails means a parse.
#ifndef WARPFIX_TOOL_RUN_PREFILTER_H
#define WARPFIX_TOOL_RUN_PREFILTER_H

#include "tool/run/ResultCache.h"
#include "tool/run/UnitResult.h"
#include "clang/Tooling/DependencyScanning/DependencyScanningService.h"
#include <memory>

namespace warpfix {

class Prefilter {
public:
  /// Tokens: "name" matches that identifier exactly, "name*" any identifier
  /// that starts with it, "*text" the text anywhere (see CheckInfo).
  /// SystemRoots: directories whose headers never hold a finding that is
  /// shown (the toolkit, clang's own headers); they are not searched.
  Prefilter(std::vector<std::string> Tokens,
            std::vector<std::string> SystemRoots, FileDigests &Digests);
  ~Prefilter();

  /// Every file the TU reads, when none of them needs a parse; nothing when
  /// the TU must be parsed.
  std::optional<std::vector<FileDigest>>
  unneededParse(llvm::StringRef File,
                const clang::tooling::CompileCommand &Command);

private:
  bool mentionsAToken(llvm::StringRef Text) const;
  /// Whether the file at Path, unless it is a system header, mentions a token.
  bool needsAParse(llvm::StringRef Path);

  std::vector<std::string> Tokens;
  std::vector<std::string> SystemRoots;
  FileDigests &Digests;
  std::unique_ptr<clang::tooling::dependencies::DependencyScanningService>
      Service;
  PathMemo<bool> NeedsAParse;
};

} // namespace warpfix

#endif
