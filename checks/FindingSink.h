// Collects the findings of one translation unit as tooling::Diagnostic, the
// currency of clang-apply-replacements, so that nothing of the AST outlives the
// parse and findings from many TUs can be merged by plain value comparison.
#ifndef WARPFIX_CHECKS_FINDINGSINK_H
#define WARPFIX_CHECKS_FINDINGSINK_H

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include <deque>
#include <optional>
#include <vector>

namespace warpfix {

class FindingSink;
class NoLintDirectives;

/// How the reason of a vetoOnly() finding starts; the merge gives it to the
/// copy it vetoes, at the same place.
inline constexpr llvm::StringLiteral VetoReasonPrefix =
    "no automatic fix: in another translation unit that reads this code, ";
/// How the reason of a vetoOnly() finding starts that vetoes every finding
/// of its check and message in the run, wherever it stands (a definition
/// that the linker gives every unit's calls).
inline constexpr llvm::StringLiteral VetoEverywherePrefix =
    "no automatic fix: another translation unit of this run ";

/// How the note begins that marks a fix giving a helper in a header of the
/// project a new parameter (analysis/MaskParameter.h): other units may include
/// the header, so the merge keeps the fix only in a run over the whole
/// project, joined with the other units' plans where they agree.
inline constexpr llvm::StringLiteral SharedParameterPrefix =
    "the new parameter goes into a header that other translation units may "
    "include: ";

/// How the note begins of a unit that does not call a helper of a header,
/// and abstains, but vetoes a new parameter that another unit plans for it:
/// the parameter could take over calls of the helper's name here.
inline constexpr llvm::StringLiteral ParameterVetoPrefix =
    "no new mask parameter, which another unit may plan for this helper: ";

/// Builds one finding. A finding carries at most one fix; a builder whose fix
/// could not be expressed exactly (a location inside a macro's scratch space,
/// say) drops the whole fix rather than applying part of it.
class FindingBuilder {
public:
  FindingBuilder(FindingSink &Sink, size_t Index) : Sink(Sink), Index(Index) {}

  FindingBuilder &note(clang::SourceLocation Loc, llvm::StringRef Message);
  FindingBuilder &replace(clang::CharSourceRange Range, llvm::StringRef Text);
  FindingBuilder &insertBefore(clang::SourceLocation Loc, llvm::StringRef Text);
  /// Drops any fix gathered so far and records why the finding is not fixed.
  FindingBuilder &withoutFix(clang::SourceLocation Loc, llvm::StringRef Why);
  /// As withoutFix, for a translation unit that cannot judge the fix because
  /// it does not run the code (no call of the function in it): when the
  /// copies of the finding are merged, such a copy abstains, and the units
  /// that do run the code decide (abstains()).
  FindingBuilder &abstain(clang::SourceLocation Loc, llvm::StringRef Why);
  /// Never shown: the finding stands only for this unit's answer where
  /// another unit reports the same finding and would fix it otherwise (code
  /// both read), and is merged as a copy that a NOLINT comment suppresses.
  /// Its reason for no fix starts with VetoReasonPrefix, or with
  /// VetoEverywherePrefix for a veto of every copy in the run.
  FindingBuilder &vetoOnly();

private:
  clang::tooling::Diagnostic &diag();
  FindingSink &Sink;
  size_t Index;
};

class FindingSink {
public:
  FindingSink(const clang::SourceManager &SM, llvm::StringRef BuildDirectory)
      : SM(SM), BuildDirectory(BuildDirectory) {}

  /// Reports at the place where the offending code is spelled: for code in a
  /// macro body that is the definition, so one edit fixes every expansion.
  FindingBuilder report(llvm::StringRef Check, clang::SourceLocation Loc,
                        llvm::StringRef Message);

  /// From now on, findings that a NOLINT comment covers are built as usual
  /// but left out of takeFindings(), fix and all.
  void suppressWith(NoLintDirectives &Directives) { NoLint = &Directives; }

  std::vector<clang::tooling::Diagnostic> takeFindings();
  /// The findings a NOLINT covered, taken by the last takeFindings(). They are
  /// never shown; a copy of an unsuppressed finding (another expansion of one
  /// macro body) keeps its fix only if it agrees with theirs.
  std::vector<clang::tooling::Diagnostic> takeSuppressedFindings() {
    return std::move(SuppressedFindings);
  }
  /// Content hash of every file that a finding points at or a fix edits, as it
  /// was when parsed; the fix writer refuses files that changed since.
  const llvm::StringMap<std::string> &fileHashes() const { return FileHashes; }

  const clang::SourceManager &sourceManager() const { return SM; }

  /// Drops, with the note "no automatic fix: <reason>", the fix of each
  /// finding one of whose edits (file, offset, length) Withhold names a
  /// reason for.
  void reviewEdits(llvm::function_ref<std::optional<std::string>(
                       llvm::StringRef File, unsigned Offset, unsigned Length)>
                       Withhold);

  /// Reviews the findings gathered so far, before takeFindings(): each one
  /// that has a fix keeps it unless Withhold, given the places of the
  /// finding and of its edits, names a reason; then the fix is dropped with
  /// the note "no automatic fix: <reason>". An abstention becomes a refusal:
  /// an error may have dropped a call. Every finding gets the note
  /// NoteForAll, if not empty. For a translation unit with errors.
  void review(llvm::function_ref<std::optional<std::string>(
                  llvm::ArrayRef<clang::SourceLocation>)>
                  Withhold,
              llvm::StringRef NoteForAll);

private:
  friend class FindingBuilder;
  /// Resolves Loc to a file position, recording the file's hash. Returns false
  /// for locations with no file behind them (scratch space, built-ins).
  bool place(clang::SourceLocation Loc, std::string &Path, unsigned &Offset);
  /// As above, without copying the path: the one returned is valid until the
  /// next call.
  const std::string *place(clang::SourceLocation Loc, unsigned &Offset);
  void recordHash(clang::FileID File, llvm::StringRef Path);

  const clang::SourceManager &SM;
  std::string BuildDirectory;
  /// A deque: tooling::Diagnostic's move constructor is not noexcept (its
  /// StringMap's is not), so a growing vector would copy every finding.
  std::deque<clang::tooling::Diagnostic> Findings;
  std::vector<bool> FixAbandoned;
  /// Per finding: where it is reported, then where each edit begins (most
  /// findings have one to three edits).
  std::vector<llvm::SmallVector<clang::SourceLocation, 4>> Places;
  std::vector<bool> Suppressed;
  std::vector<clang::tooling::Diagnostic> SuppressedFindings;
  NoLintDirectives *NoLint = nullptr;
  llvm::StringMap<std::string> FileHashes;
  /// Each file's absolute path, made once: every finding, note and edit is
  /// placed, and making a path absolute allocates and scans it.
  llvm::DenseMap<clang::FileID, std::string> Paths;
};

/// How the note of an abstaining copy begins.
constexpr llvm::StringLiteral AbstentionPrefix =
    "no automatic fix (this translation unit abstains): ";

/// Whether D is the copy of a finding from a translation unit that abstains
/// from judging its fix (FindingBuilder::abstain). The mark is a note, so
/// that it survives the YAML of the result cache and of --export-fixes.
bool abstains(const clang::tooling::Diagnostic &D);

} // namespace warpfix

#endif
