// Runs the enabled checks over one translation unit at a time and keeps only
// plain-value findings, so that no AST outlives its parse.
#ifndef WARPFIX_TOOL_ANALYZER_H
#define WARPFIX_TOOL_ANALYZER_H

#include "checks/CheckRegistry.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/StringMap.h"
#include <string>
#include <vector>

namespace warpfix {

/// A file a TU read, with the hash of the content it saw.
struct FileDigest {
  std::string Path;
  std::string Hash;
};

struct TranslationUnitResult {
  std::string MainFile;
  /// False when clang reported errors; such a TU contributes no findings and
  /// none of its files is ever rewritten.
  bool Parsed = false;
  std::vector<clang::tooling::Diagnostic> Findings;
  /// Findings a NOLINT comment covers: never shown, but they veto a fix that
  /// an unsuppressed copy would make to code they share (a macro body).
  std::vector<clang::tooling::Diagnostic> Suppressed;
  llvm::StringMap<std::string> FileHashes;
  /// For a TU that did not parse: the files it read, which another TU's fix
  /// must then leave alone, since this TU's view of them is unknown.
  std::vector<std::string> FilesRead;
  /// For a TU that parsed: every file it read, for the result cache.
  std::vector<FileDigest> Dependencies;
  /// clang's own messages (errors of a failed parse), held back so that TUs
  /// analysed in parallel print them whole and in order.
  std::string CompilerMessages;
  /// The prefilter found nothing any enabled check looks at; not parsed.
  bool SkippedByPrefilter = false;
  bool FromCache = false;
};

class Analyzer {
public:
  Analyzer(const clang::tooling::CompilationDatabase &Database,
           std::vector<const CheckInfo *> Checks, CheckOptions Options,
           bool ColoredMessages)
      : Database(Database), Checks(std::move(Checks)),
        Options(std::move(Options)), ColoredMessages(ColoredMessages) {}

  /// Safe to call from several threads at once: each call has its own file
  /// system view, working directory and diagnostics.
  TranslationUnitResult analyze(llvm::StringRef File) const;

  const clang::tooling::CompilationDatabase &database() const {
    return Database;
  }

private:
  const clang::tooling::CompilationDatabase &Database;
  std::vector<const CheckInfo *> Checks;
  CheckOptions Options;
  bool ColoredMessages;
};

} // namespace warpfix

#endif
