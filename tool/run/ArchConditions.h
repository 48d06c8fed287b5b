// Whether a translation unit's own code differs between GPU architectures,
// read from its text: the `#if`s that compare __CUDA_ARCH__ with numbers,
// and any other use of the architecture's macros. It decides which of the
// architectures a file is built for need a parse of their own.
#ifndef WARPFIX_TOOL_RUN_ARCHCONDITIONS_H
#define WARPFIX_TOOL_RUN_ARCHCONDITIONS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
}

namespace warpfix {

struct TranslationUnitResult;

struct ArchConditions {
  /// The numbers that `#if`/`#elif` lines compare __CUDA_ARCH__ with.
  std::vector<unsigned> Numbers;
  /// The text uses the architecture otherwise (in code, in a macro's
  /// definition, through the toolkit's target macros): any two
  /// architectures may differ.
  bool Opaque = false;
  /// The code names a macro that nvcc defines for the architecture-specific
  /// targets (sm_90a, sm_100f) and clang 19 does not: __CUDA_ARCH_SPECIFIC__,
  /// __CUDA_ARCH_FAMILY_SPECIFIC__, __CUDA_ARCH_FEAT_*. No parse can show
  /// what such a build compiles.
  std::string NvccOnlyMacro;

  void add(const ArchConditions &Other);
};

/// The value of a name in a condition, where it is known to be the same
/// number for every architecture; none otherwise.
using NameValue =
    llvm::function_ref<std::optional<unsigned>(llvm::StringRef Name)>;

/// Text with its line splices (a backslash that ends a line) removed, as
/// the preprocessor reads a directive continued over several lines.
std::string withoutLineSplices(llvm::StringRef Text);

/// A stretch of one file's text, placed in its buffer: a range the
/// preprocessor skipped, a conditional block.
struct FileStretch {
  clang::FileID File;
  /// The whole buffer, which ends in the null a raw lexer wants.
  llvm::StringRef Buffer;
  unsigned Begin = 0, End = 0;
  llvm::StringRef text() const { return Buffer.slice(Begin, End); }
};

/// Where Range lies in its file's buffer; none where the buffer cannot be
/// read, or the range does not begin and end in it, in that order.
std::optional<FileStretch> fileStretch(const clang::SourceManager &SM,
                                       clang::SourceRange Range);

/// The numbers of a condition (the text after `#if`) that compares
/// __CUDA_ARCH__ with numbers and nothing else (`defined(X)` aside), joined
/// by !, && and ||: literals, and the names whose ValueOf is known
/// (`>= SM_HOPPER`, where it is `#define SM_HOPPER 900`). None where it is
/// anything more: arithmetic, a name of no known value, a character
/// literal, a digit separator. Names, if given, gets every name the
/// condition uses, and "defined X" for each test.
std::optional<std::vector<unsigned>>
literalComparison(llvm::StringRef Text, NameValue ValueOf = nullptr,
                  std::vector<std::string> *Names = nullptr);

/// What File's text says. Comments and `#ifdef __CUDA_ARCH__` (host or
/// device, the same for every device parse) say nothing.
ArchConditions archConditionsIn(llvm::StringRef Text);

/// One architecture of each group of Archs that Conditions cannot tell apart,
/// in Archs' order: the first stands for the others. Two architectures are
/// told apart by a number between their __CUDA_ARCH__ values, both ends
/// included.
std::vector<std::string>
distinctArchitectures(llvm::ArrayRef<std::string> Archs,
                      const ArchConditions &Conditions);

/// How a parse's user code depends on the architecture: as its
/// preprocessor recorded it (ArchDependence.h), else, for a unit the
/// prefilter skipped, read from the text of the user files it reads (those
/// outside ToolchainRoots). Texts caches what each file says.
ArchConditions archConditionsOf(const TranslationUnitResult &Result,
                                llvm::ArrayRef<std::string> ToolchainRoots,
                                llvm::StringMap<ArchConditions> &Texts);

} // namespace warpfix

#endif
