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
};

class Analyzer {
public:
  Analyzer(const clang::tooling::CompilationDatabase &Database,
           std::vector<const CheckInfo *> Checks, CheckOptions Options)
      : Database(Database), Checks(std::move(Checks)),
        Options(std::move(Options)) {}

  TranslationUnitResult analyze(llvm::StringRef File) const;

private:
  const clang::tooling::CompilationDatabase &Database;
  std::vector<const CheckInfo *> Checks;
  CheckOptions Options;
};

} // namespace warpfix

#endif
