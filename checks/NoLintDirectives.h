// Suppression comments, with clang-tidy's conventions: NOLINT and
// NOLINTNEXTLINE, with an optional check list, and NOLINTBEGIN ... NOLINTEND
// ranges. Only comments count: a NOLINT inside a string literal is text.
#ifndef WARPFIX_CHECKS_NOLINTDIRECTIVES_H
#define WARPFIX_CHECKS_NOLINTDIRECTIVES_H

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <memory>

namespace warpfix {

class FindingSink;

/// The pseudo-check under which unmatched NOLINTBEGIN/NOLINTEND comments are
/// reported. It is always on: --checks neither enables nor disables it, and
/// no NOLINT suppresses it.
inline constexpr llvm::StringLiteral NoLintCheckName = "warpfix-nolint";

/// The NOLINT comments of the files one translation unit reads. Each file is
/// scanned once, on first use.
class NoLintDirectives {
public:
  NoLintDirectives(const clang::SourceManager &SM,
                   const clang::LangOptions &LangOpts);
  ~NoLintDirectives();

  /// Whether a directive naming Check covers Loc: at its spelling location,
  /// or at any place up the chain of macro expansions that produced it, so
  /// that a NOLINT where a macro is used covers what its body expands to.
  bool isSuppressed(llvm::StringRef Check, clang::SourceLocation Loc);

  /// Reports every NOLINTBEGIN without a later NOLINTEND, and every NOLINTEND
  /// without an open NOLINTBEGIN of the same check list, in each non-system
  /// file of the translation unit, as findings of NoLintCheckName.
  void reportUnmatched(FindingSink &Sink);

  struct FileDirectives;

private:
  /// Null for locations with no file behind them.
  const FileDirectives *directivesOf(clang::FileID File);
  /// As directivesOf, without the memo of the last file asked about.
  const FileDirectives *scanned(clang::FileID File);

  const clang::SourceManager &SM;
  const clang::LangOptions &LangOpts;
  llvm::DenseMap<const clang::FileEntry *, std::unique_ptr<FileDirectives>>
      Cache;
  clang::FileID LastFile;
  const FileDirectives *LastDirectives = nullptr;
};

} // namespace warpfix

#endif
