// Whether a translation unit's own code differs between GPU architectures,
// read from its text: the `#if`s that compare __CUDA_ARCH__ with numbers,
// and any other use of the architecture's macros. It decides which of the
// architectures a file is built for need a parse of their own.
#ifndef WARPFIX_TOOL_RUN_ARCHCONDITIONS_H
#define WARPFIX_TOOL_RUN_ARCHCONDITIONS_H

#include "tool/run/Analyzer.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace warpfix {

struct ArchConditions {
  /// The numbers that `#if`/`#elif` lines compare __CUDA_ARCH__ with.
  std::vector<unsigned> Numbers;
  /// The text uses the architecture otherwise (in code, in a macro's
  /// definition, through the toolkit's target macros): any two
  /// architectures may differ.
  bool Opaque = false;

  void add(const ArchConditions &Other);
};

/// What File's text says. Comments and `#ifdef __CUDA_ARCH__` (host or
/// device, the same for every device parse) say nothing.
ArchConditions archConditionsIn(llvm::StringRef Text);

/// One architecture of each group of Archs that Conditions cannot tell apart,
/// in Archs' order: the first stands for the others. Two architectures are
/// told apart by a number between their __CUDA_ARCH__ values, both ends
/// included.
std::vector<std::string> distinctArchitectures(llvm::ArrayRef<std::string> Archs,
                                               const ArchConditions &Conditions);

/// The architectures besides Archs' first that a unit must be parsed for,
/// where its user files (those that Result read outside ToolchainRoots) tell
/// them apart. Texts caches what each file says.
std::vector<std::string>
furtherArchitectures(const TranslationUnitResult &Result,
                     llvm::ArrayRef<std::string> Archs,
                     llvm::ArrayRef<std::string> ToolchainRoots,
                     llvm::StringMap<ArchConditions> &Texts);

} // namespace warpfix

#endif
