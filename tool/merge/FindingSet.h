// Merges the findings of many translation units: code that several TUs see (a
// header, a macro, a template) is reported and fixed once, and only when every
// TU agrees on the fix (merging across TUs).
#ifndef WARPFIX_TOOL_MERGE_FINDINGSET_H
#define WARPFIX_TOOL_MERGE_FINDINGSET_H

#include "tool/run/UnitResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace warpfix {

/// Whether a file's findings are shown, and if not, whose choice that was: a
/// header outside the paths given is hidden by default, not because the user
/// said so, and its findings still count as remaining.
enum class Visibility { Shown, OutsidePaths, FilteredOut };

struct FindingSet {
  /// Sorted by file, offset, check and message: the same input always gives
  /// the same output, whatever order the TUs were analysed in.
  std::vector<clang::tooling::Diagnostic> Findings;
  /// Content hash of each file as parsed; empty when two TUs saw different
  /// contents, which makes the file unsafe to rewrite.
  llvm::StringMap<std::string> FileHashes;
  std::vector<std::string> FailedFiles;
  /// Distinct findings in headers that the header filter does not show.
  size_t HiddenByHeaderFilter = 0;
  /// Of those, the ones in headers outside the paths given that no
  /// --header-filter or HeaderFilterRegex chose to hide.
  size_t HiddenOutsidePaths = 0;

  size_t fixableCount() const;
  /// The findings on which every analysed unit abstained: code that nothing
  /// in the run calls or instantiates, so who reaches it is unknown.
  size_t uncalledCount() const;
  size_t fileCount() const;
};

/// Whether Set already holds exactly R (an edit shared by several findings).
bool containsReplacement(const clang::tooling::Replacements &Set,
                         const clang::tooling::Replacement &R);

/// VisibilityOf decides, by absolute path, whose findings are shown.
/// WholeProject says that the run analysed every unit of the project (its
/// folders, or a whole build): only then may a fix give a helper in a header
/// a new parameter, which a unit left out would no longer compile against.
FindingSet
mergeFindings(std::vector<TranslationUnitResult> Results,
              llvm::function_ref<Visibility(llvm::StringRef)> VisibilityOf,
              bool WholeProject);

} // namespace warpfix

#endif
