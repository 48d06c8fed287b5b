// Remembers the code that this parse could not analyse: branches that
// `#if __CUDA_ARCH__ ...` hid, the user's headers that only such branches
// include, or a whole file of which clang built no AST (or on which warpfix
// crashed). The checks that can read their names
// lexically report them with a note, rather than pass over them in silence.
#ifndef WARPFIX_CHECKS_ANALYSIS_SKIPPEDCODE_H
#define WARPFIX_CHECKS_ANALYSIS_SKIPPEDCODE_H

#include "clang/Lex/Preprocessor.h"
#include <string>
#include <vector>

namespace warpfix {

/// How the reason of a region that an `#if` on the architecture hid begins:
/// the parse for another architecture may analyse it.
constexpr llvm::StringLiteral ArchitectureSkipsReason =
    "this parse's architecture skips this branch";

class SkippedCode {
public:
  struct Region {
    clang::SourceRange Range;
    /// Why it was not analysed: the text after "not analysed: " in a note.
    std::string Reason;
    /// A branch of `#ifdef __CUDA_ARCH__` (or `#ifndef`) that only the
    /// host's compilation takes.
    bool HostOnly = false;
  };

  /// Hooks the preprocessor; must be called before the main file is read.
  void attach(clang::Preprocessor &PP);

  /// Regions of user files skipped because of a condition on __CUDA_ARCH__
  /// (HIP and other platform branches are not this tool's business), and
  /// those added with addUnanalysed().
  const std::vector<Region> &regions() const { return Regions; }

  /// Every range the preprocessor skipped, for any condition (`#if 0` as
  /// well as the architecture's), in any file, system headers included.
  const std::vector<clang::SourceRange> &skippedRanges() const {
    return SkippedRanges;
  }
  /// Whether Loc lies in one of skippedRanges().
  bool skippedByPreprocessor(clang::SourceLocation Loc,
                             const clang::SourceManager &SM) const;

  /// The region of regions() that holds Loc, if any.
  const Region *regionHolding(clang::SourceLocation Loc,
                              const clang::SourceManager &SM) const;

  /// Whether Loc lies in one of regions(): code that was reported as not
  /// analysed where it stands, not where clang's recovery dropped it.
  bool hides(clang::SourceLocation Loc, const clang::SourceManager &SM) const;

  /// The tokens of a region as the raw lexer reads them, without
  /// preprocessing: nothing compiled the region, so nothing else can be
  /// read from it. Empty when its file cannot be read.
  static std::vector<clang::Token> rawTokens(const Region &R,
                                             const clang::SourceManager &SM);

  /// Adds, as regions of their own, the user's headers that only skipped
  /// code includes, and those that they include in turn: this parse never
  /// read them. Called once the parse is over, since it opens those files.
  void addHeadersOnlySkippedCodeIncludes(clang::Preprocessor &PP);

  /// Code that is not analysed for another reason.
  void addUnanalysed(clang::SourceRange Range, std::string Reason) {
    Regions.push_back({Range, std::move(Reason)});
  }

  /// Code of a file that clang parsed with errors, from an error to the end
  /// of the declaration that holds it: clang's recovery may have dropped
  /// statements there, so the AST may lack names that the text has.
  const std::vector<Region> &dropped() const { return Dropped; }
  void addDropped(clang::SourceRange Range, std::string Reason) {
    Dropped.push_back({Range, std::move(Reason)});
  }

private:
  friend class SkippedCodeRecorder;
  std::vector<Region> Regions;
  std::vector<Region> Dropped;
  std::vector<clang::SourceRange> SkippedRanges;
};

/// Whether a line between Begin and End (file locations) after the first
/// starts with a preprocessor directive; with DefinitionsOnly, a #define or
/// #undef. A range that spans files, or runs backwards, counts as having one:
/// an edit that moves code across a directive may change what it means.
bool directiveLineBetween(clang::SourceLocation Begin,
                          clang::SourceLocation End,
                          const clang::SourceManager &SM,
                          bool DefinitionsOnly = false);

} // namespace warpfix

#endif
