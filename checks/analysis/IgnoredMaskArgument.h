// Wrapper macros written before CUDA 9 often take a member mask and drop it:
// `#define SHFL_XOR(v, m, mask) __shfl_xor(v, m)`. Their callers wrote any
// mask, since it did not matter, so the argument proves nothing about which
// lanes reach the call (issue 13, pattern 3).
#ifndef WARPFIX_CHECKS_ANALYSIS_IGNOREDMASKARGUMENT_H
#define WARPFIX_CHECKS_ANALYSIS_IGNOREDMASKARGUMENT_H

#include "checks/analysis/FullMaskMacros.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include <optional>
#include <string>

namespace warpfix {

/// A parameter whose name says it is a mask, of the function-like macro whose
/// body spells a legacy call, that the body never uses.
struct IgnoredMaskParameter {
  std::string Macro;
  std::string Name;
  unsigned Index = 0;
};

/// The ignored mask parameter of the macro whose body holds NameSpelling, if
/// NameSpelling is in the body of a function-like macro that has one.
std::optional<IgnoredMaskParameter>
ignoredMaskParameter(clang::SourceLocation NameSpelling,
                     const clang::SourceManager &SM);

/// The text that the invocation which expanded the body token at Expanded
/// passes for Param; nothing when that invocation cannot be read back.
std::optional<std::string>
maskArgumentText(clang::SourceLocation Expanded,
                 const IgnoredMaskParameter &Param,
                 const clang::SourceManager &SM,
                 const clang::LangOptions &LangOpts);

/// Whether an argument's text is a literal full mask or a macro that spells
/// one.
bool isFullMaskArgument(llvm::StringRef Text, clang::SourceLocation Use,
                        const FullMaskMacros &FullMasks,
                        const clang::SourceManager &SM);

} // namespace warpfix

#endif
