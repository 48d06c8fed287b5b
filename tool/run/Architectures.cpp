#include "tool/run/Architectures.h"
#include "tool/run/ArchConditions.h"

namespace warpfix {

const clang::tooling::CompilationDatabase &
AnalysedUnits::commandsOf(size_t I, const ProfileSet &Profiles,
                          size_t FileCount) const {
  if (I < FileCount)
    return Profiles.of(I).database();
  const auto &[File, Arch] = Extra[I - FileCount];
  return Profiles.of(File).database(Arch);
}

namespace {

/// Drops the fix of each finding of R, with the note Why.
void withoutFixes(TranslationUnitResult &R, const std::string &Why) {
  for (clang::tooling::Diagnostic &D : R.Findings) {
    if (D.Message.Fix.empty())
      continue;
    D.Message.Fix.clear();
    clang::tooling::DiagnosticMessage Note(Why);
    Note.FilePath = D.Message.FilePath;
    Note.FileOffset = D.Message.FileOffset;
    D.Notes.push_back(std::move(Note));
  }
}

bool isTargetSpecific(llvm::StringRef Arch) {
  return Arch.ends_with("a") || Arch.ends_with("f");
}

} // namespace

void parseFurtherArchitectures(AnalysedUnits &Units,
                               llvm::ArrayRef<std::string> Files,
                               const ProfileSet &Profiles,
                               llvm::ArrayRef<std::string> ToolchainRoots,
                               AnalyseFiles Analyse) {
  llvm::StringMap<ArchConditions> Texts;
  std::vector<std::vector<std::string>> Archs(Files.size()), Done(Files.size());
  std::vector<ArchConditions> Found(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    const TranslationUnitResult &R = Units.Results[I];
    if (!R.Parsed || R.Crashed)
      continue;
    Archs[I] = Profiles.of(I).database().architecturesOf(Files[I]);
    Done[I] = {Archs[I].front()};
    Found[I] = archConditionsOf(R, ToolchainRoots, Texts);
  }
  while (true) {
    std::vector<std::pair<size_t, std::string>> Round;
    std::vector<std::string> RoundFiles;
    for (size_t I = 0; I < Files.size(); ++I)
      for (std::string &Arch : distinctArchitectures(Archs[I], Found[I]))
        if (!llvm::is_contained(Done[I], Arch)) {
          Done[I].push_back(Arch);
          Units.Results[I].Arch = Archs[I].front();
          RoundFiles.push_back(Files[I]);
          Round.push_back({I, std::move(Arch)});
        }
    if (Round.empty())
      break;
    std::vector<TranslationUnitResult> Parses =
        Analyse(RoundFiles, [&](size_t J) {
          const auto &[File, Arch] = Round[J];
          return Profiles.of(File).run(Files[File], Arch);
        });
    for (size_t J = 0; J < Parses.size(); ++J) {
      if (Parses[J].Parsed && !Parses[J].Crashed)
        Found[Round[J].first].add(
            archConditionsOf(Parses[J], ToolchainRoots, Texts));
      Units.Extra.push_back(std::move(Round[J]));
      Units.Results.push_back(std::move(Parses[J]));
    }
  }
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Found[I].NvccOnlyMacro.empty() ||
        llvm::none_of(Archs[I], isTargetSpecific))
      continue;
    std::string Why =
        "no automatic fix: the unit tests '" + Found[I].NvccOnlyMacro +
        "', which nvcc defines for the architecture-specific targets of the "
        "build (sm_90a, sm_100f) and clang 19 does not: what those builds "
        "compile is unknown";
    withoutFixes(Units.Results[I], Why);
    for (size_t J = 0; J < Units.Extra.size(); ++J)
      if (Units.Extra[J].first == I)
        withoutFixes(Units.Results[Files.size() + J], Why);
  }
}

} // namespace warpfix
