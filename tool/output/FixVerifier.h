// The invariant of --fix: fixed code compiles. Before anything is written,
// each translation unit that reads a file the fixes change is parsed again,
// with the fixed contents in place of those files (in memory, nothing on
// disk), by the same device-side command as the analysis; a TU in which clang
// now reports an error it did not report before vetoes its files.
#ifndef WARPFIX_TOOL_OUTPUT_FIXVERIFIER_H
#define WARPFIX_TOOL_OUTPUT_FIXVERIFIER_H

#include "tool/output/FixWriter.h"
#include "tool/run/UnitResult.h"
#include "clang/Tooling/CompilationDatabase.h"

namespace warpfix {

struct VerifiableUnit {
  std::string MainFile;
  /// The commands the analysis parsed it with.
  const clang::tooling::CompilationDatabase *Commands = nullptr;
  /// Every file it read, as it named them.
  std::vector<std::string> FilesRead;
  /// Parsed without an error. False for a TU the prefilter skipped, whose
  /// errors are unknown: its original is then parsed too, for comparison.
  bool ParsedCleanly = false;
  /// The directories whose headers' host bodies the analysis skipped, and
  /// the check's parse skips too (tool/run/HostBodies.h).
  llvm::ArrayRef<std::string> ToolchainRoots;
  /// The headers found by name (name, folder) that the analysis searched
  /// last.
  std::vector<std::pair<std::string, std::string>> FoundByName;
};

struct BrokenUnit {
  std::string MainFile;
  /// The files of the plan it reads, by their names in the plan.
  std::vector<std::string> ChangedFiles;
  /// clang's first new error: "file:line:col: message".
  std::string FirstNewError;
};

/// The units of Units that the plan's fixed contents break, in Units' order.
/// Jobs units are parsed at once.
std::vector<BrokenUnit> findBrokenUnits(llvm::ArrayRef<VerifiableUnit> Units,
                                        const FixPlan &Plan, unsigned Jobs);

/// What the verifier needs of each TU that parsed, or was skipped; CommandsOf
/// gives the commands Results[I] was parsed with, ToolchainRoots the
/// directories its parse skipped host bodies in (it must outlive the units).
std::vector<VerifiableUnit>
verifiableUnits(llvm::ArrayRef<TranslationUnitResult> Results,
                llvm::function_ref<const clang::tooling::CompilationDatabase &(
                    size_t)>
                    CommandsOf,
                llvm::ArrayRef<std::string> ToolchainRoots);

/// Takes out of Plan the files of every TU that its fixes would break: fixed
/// code must compile, and if it does not, warpfix is wrong somewhere.
void refuseFixesThatBreak(FixPlan &Plan, llvm::ArrayRef<VerifiableUnit> Units,
                          unsigned Jobs);

} // namespace warpfix

#endif
