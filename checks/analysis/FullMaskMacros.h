// Remembers the macros that spell the full warp mask, so that a fix can write
// the mask the way the file already does (docs/checks/warp-legacy-intrinsic.md, the mask rules).
#ifndef WARPFIX_CHECKS_ANALYSIS_FULLMASKMACROS_H
#define WARPFIX_CHECKS_ANALYSIS_FULLMASKMACROS_H

#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include <string>
#include <vector>

namespace warpfix {

/// True for the literal spellings of a 32-bit all-ones mask.
bool isFullMaskSpelling(llvm::StringRef Text);

class FullMaskMacros {
public:
  /// Hooks the preprocessor; must be called before the main file is read.
  void attach(clang::Preprocessor &PP);

  /// The full-mask macro defined earlier in the same file as Loc and still
  /// defined there, or "0xffffffff". Only same-file macros count: a header fixed
  /// once for many TUs must get the same text from each of them.
  std::string spellingAt(clang::SourceLocation Loc,
                         const clang::SourceManager &SM,
                         llvm::StringRef Fallback) const;

  /// Whether Name is a macro recorded as spelling the full mask, defined
  /// before Use and not undefined between (in any file, unlike spellingAt:
  /// this only reads a mask, it writes none).
  bool namesFullMask(llvm::StringRef Name, clang::SourceLocation Use,
                     const clang::SourceManager &SM) const;

  /// Where the TU was parsed with a precompiled preamble, whose macros the
  /// hooks never saw (the predefined ones and those of -D and -include among
  /// them): records them as the hooks would have, from each macro's history.
  /// Call once, after the parse; a no-op without a preamble.
  void addPrecompiled(clang::Preprocessor &PP);

private:
  friend class FullMaskMacroRecorder;
  struct Definition {
    std::string Name;
    clang::SourceLocation DefinedAt;
    clang::SourceLocation UndefinedAt;
  };
  std::vector<Definition> Definitions;
};

} // namespace warpfix

#endif
