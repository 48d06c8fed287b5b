// Runs the enabled checks over one translation unit at a time and keeps only
// plain-value findings, so that no AST outlives its parse.
#ifndef WARPFIX_TOOL_RUN_ANALYSER_H
#define WARPFIX_TOOL_RUN_ANALYSER_H

#include "checks/CheckRegistry.h"
#include "tool/run/UnitResult.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <string>
#include <vector>

namespace warpfix {

class Analyser {
public:
  Analyser(const clang::tooling::CompilationDatabase &Database,
           std::vector<const CheckInfo *> Checks, CheckOptions Options,
           bool ColoredMessages, ParseSettings Parse = {})
      : Database(Database), Checks(std::move(Checks)),
        Options(std::move(Options)), ColoredMessages(ColoredMessages),
        Parse(std::move(Parse)) {}

  /// Safe to call from several threads at once: each call has its own file
  /// system view, working directory and diagnostics.
  TranslationUnitResult analyse(llvm::StringRef File) const;

  const clang::tooling::CompilationDatabase &database() const {
    return Database;
  }

private:
  /// One parse and analysis, with the headers found by name (name, folder)
  /// searched after the command's own include paths (searchedLast).
  TranslationUnitResult
  analyseWith(llvm::StringRef File,
              llvm::ArrayRef<std::pair<std::string, std::string>> Found) const;

  const clang::tooling::CompilationDatabase &Database;
  std::vector<const CheckInfo *> Checks;
  CheckOptions Options;
  bool ColoredMessages;
  ParseSettings Parse;
};

/// The findings that a lexical reading of File gives where no AST could be
/// analysed: legacy names and legacy PTX, each with the note
/// "not analysed: <Why>" and no fix.
void scanLexically(llvm::StringRef File,
                   const std::vector<const CheckInfo *> &Checks,
                   const CheckOptions &Options, llvm::StringRef Why,
                   TranslationUnitResult &Out);

} // namespace warpfix

#endif
