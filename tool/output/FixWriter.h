// Turns the merged fixes into edits: in place (atomically), as a unified diff,
// or as YAML for clang-apply-replacements.
#ifndef WARPFIX_TOOL_OUTPUT_FIXWRITER_H
#define WARPFIX_TOOL_OUTPUT_FIXWRITER_H

#include "tool/merge/FindingSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

namespace warpfix {

/// The replacements of every fixable finding, grouped by file.
llvm::StringMap<clang::tooling::Replacements>
collectFixes(const FindingSet &Set);

/// A file's rewrite, computed and checked before anything is written.
struct PlannedFile {
  /// As the findings name it.
  std::string Path;
  /// The content that was analysed, and what the fixes make of it.
  std::string Original, Fixed;
};

struct FixPlan {
  /// By path.
  std::vector<PlannedFile> Files;
  /// Files left untouched, with the reason, and the findings they carried.
  std::vector<std::string> Errors;
  llvm::StringSet<> RefusedFiles;

  /// Takes Path out of the plan, for Why.
  void refuse(llvm::StringRef Path, std::string Why);
};

/// Applies every fix to its file's content in memory. A file whose content
/// no longer matches what was analysed is refused whole, and so is a file
/// that two names of the plan lead to, unless both get the same content (it
/// is then written once).
FixPlan planFixes(const FindingSet &Set);

struct ApplyOutcome {
  unsigned FilesWritten = 0;
  /// Files left untouched, with the reason, and the findings they carried.
  std::vector<std::string> Errors;
  llvm::StringSet<> RefusedFiles;
};

/// Writes each file of Plan atomically (see AtomicFile.h), after checking
/// again that it still holds what was analysed.
ApplyOutcome writeFixes(FixPlan Plan);

/// Writes a unified diff of the files of Plan, as writeFixes would write
/// them; touches nothing.
void writeUnifiedDiff(const FindingSet &Set, const FixPlan &Plan,
                      llvm::raw_ostream &OS);

/// What keeps the diff of Plan from applying where warpfix ran: it names
/// files relative to the working directory, which both `patch -p1` and
/// `git apply` take there (git, in a subdirectory of its work tree, reads a
/// diff without git's own headers relative to that subdirectory), and a file
/// outside it by its absolute path, which neither takes. Empty where nothing
/// does.
std::string diffApplyingAdvice(const FixPlan &Plan);

/// Writes the clang-apply-replacements YAML of every finding, with the edits
/// of the files of Plan, each once: applied, they give what writeFixes
/// writes. An edit that several findings make goes with the first; each
/// later one gets SharedEditsNote, placed at the first.
llvm::Error exportFixes(const FindingSet &Set, const FixPlan &Plan,
                        llvm::StringRef Path);
inline constexpr llvm::StringLiteral SharedEditsNote =
    "the edits this fix shares with the finding here are exported once, "
    "with the fix of that finding";

} // namespace warpfix

#endif
