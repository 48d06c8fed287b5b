// The further parses of a run's units, one for each group of the build's
// architectures that a unit's code tells apart (ArchConditions.h,
// ArchDependence.h), made after every unit's first parse.
#ifndef WARPFIX_TOOL_RUN_ARCHITECTURES_H
#define WARPFIX_TOOL_RUN_ARCHITECTURES_H

#include "tool/run/ParallelRunner.h"
#include "tool/run/Profile.h"
#include "tool/run/UnitResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace warpfix {

/// The units of a run: Results[I] is Files[I] parsed for its first
/// architecture, and Results[Files.size() + J] the further parse Extra[J].
struct AnalysedUnits {
  std::vector<TranslationUnitResult> Results;
  /// The file (an index into Files) and the architecture of each further
  /// parse.
  std::vector<std::pair<size_t, std::string>> Extra;

  /// The commands Results[I] was parsed with.
  const clang::tooling::CompilationDatabase &
  commandsOf(size_t I, const ProfileSet &Profiles, size_t FileCount) const;
};

/// Analyses the files Names, Run(J) analysing Names[J], as the run does.
using AnalyseFiles = llvm::function_ref<std::vector<TranslationUnitResult>(
    llvm::ArrayRef<std::string> Names, const AnalyseOne &Run)>;

/// Adds to Units the further parses of Files that their first parses ask
/// for, in rounds, since a further parse may read code the first did not (a
/// header that only some architectures include) and ask for more. Where a
/// unit names a macro that nvcc defines for the build's sm_XXa/f targets and
/// clang does not, every parse of it keeps no fix.
void parseFurtherArchitectures(AnalysedUnits &Units,
                               llvm::ArrayRef<std::string> Files,
                               const ProfileSet &Profiles,
                               llvm::ArrayRef<std::string> ToolchainRoots,
                               AnalyseFiles Analyse);

} // namespace warpfix

#endif
