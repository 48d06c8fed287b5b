// Turns the merged fixes into edits: in place (atomically), as a unified diff,
// or as YAML for clang-apply-replacements.
#ifndef WARPFIX_TOOL_FIXWRITER_H
#define WARPFIX_TOOL_FIXWRITER_H

#include "tool/FindingSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

namespace warpfix {

/// The replacements of every fixable finding, grouped by file.
llvm::StringMap<clang::tooling::Replacements>
collectFixes(const FindingSet &Set);

struct ApplyOutcome {
  unsigned FilesWritten = 0;
  /// Files left untouched, with the reason, and the findings they carried.
  std::vector<std::string> Errors;
  llvm::StringSet<> RefusedFiles;
};

/// Rewrites each file through a temporary file and a rename, keeping its mode.
/// A file whose content no longer matches what was analysed is refused whole.
/// BeforeWrite runs once before the first file is touched (a test hook).
ApplyOutcome applyFixesInPlace(const FindingSet &Set,
                               llvm::function_ref<void()> BeforeWrite = {});

/// Writes a unified diff of every fix; touches nothing.
void writeUnifiedDiff(const FindingSet &Set, llvm::raw_ostream &OS);

/// Writes the clang-apply-replacements YAML for every finding.
llvm::Error exportFixes(const FindingSet &Set, llvm::StringRef Path);

} // namespace warpfix

#endif
