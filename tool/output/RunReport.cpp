#include "tool/output/RunReport.h"
#include "checks/Check.h"
#include "checks/FindingSink.h"
#include "support/FileIdentity.h"
#include "tool/input/Paths.h"
#include "llvm/ADT/StringExtras.h"

namespace warpfix {

RunReport::RunReport(const FindingSet &Set,
                     std::vector<const CheckInfo *> Checks)
    : Set(Set), Checks(std::move(Checks)), Fixed(Set.Findings.size(), false) {
  for (const std::string &File : Set.FailedFiles)
    FailedFiles.push_back(absolutePath(File));
  llvm::sort(FailedFiles);
}

size_t RunReport::fixedCount() const { return llvm::count(Fixed, true); }

size_t RunReport::fixedForReviewCount() const {
  size_t Count = 0;
  for (size_t I = 0; I < Fixed.size(); ++I)
    if (Fixed[I] &&
        llvm::any_of(Set.Findings[I].Message.Fix, [](const auto &FileEdits) {
          return llvm::any_of(FileEdits.second, [](const auto &Edit) {
            return Edit.getReplacementText().contains(ReviewMaskMarker);
          });
        }))
      ++Count;
  return Count;
}

size_t RunReport::remainingCount() const {
  return Set.Findings.size() - fixedCount() + fixedForReviewCount();
}

void RunReport::setUnits(const UnitOutcomes &Outcomes) {
  SkippedTUs = Outcomes.Skipped;
  Units = Outcomes.Counts;
  Crashes = Outcomes.Crashes;
  UnitsWithErrors = Outcomes.UnitsWithErrors;
  Headers = Outcomes.Headers;
  llvm::erase_if(FailedFiles, [&](const std::string &F) {
    return llvm::any_of(Crashes, [&](const auto &C) { return C.File == F; });
  });
}

std::vector<std::pair<std::string, HeaderOutcomes::Missing>>
HeaderOutcomes::missingByUnits() const {
  std::vector<std::pair<std::string, Missing>> Sorted(MissingHeaders.begin(),
                                                      MissingHeaders.end());
  llvm::stable_sort(Sorted, [](const auto &A, const auto &B) {
    return A.second.Units > B.second.Units;
  });
  return Sorted;
}

llvm::json::Object HeaderOutcomes::toJson() const {
  llvm::json::Array Missing, Found, Rejected;
  for (const auto &[Name, Tally] : missingByUnits())
    Missing.push_back(llvm::json::Object{{"name", Name},
                                         {"units", Tally.Units},
                                         {"withheldFindings", Tally.Withheld}});
  for (const auto &[Header, Units] : FoundByName)
    Found.push_back(llvm::json::Object{
        {"name", Header.first}, {"folder", Header.second}, {"units", Units}});
  for (const auto &[Header, Units] : RejectedByName)
    Rejected.push_back(llvm::json::Object{
        {"name", Header.first}, {"folder", Header.second}, {"units", Units}});
  return llvm::json::Object{{"missing", std::move(Missing)},
                            {"foundByName", std::move(Found)},
                            {"rejectedByName", std::move(Rejected)}};
}

UnitOutcomes countUnits(llvm::ArrayRef<TranslationUnitResult> Results,
                        llvm::function_ref<std::string(llvm::StringRef MainFile,
                                                       llvm::StringRef Arch)>
                            ReproducingCommand) {
  UnitOutcomes Outcomes;
  RunReport::UnitCounts &Counts = Outcomes.Counts;
  llvm::StringSet<> Several;
  for (const TranslationUnitResult &R : Results) {
    if (R.Crashed)
      Outcomes.CrashedFiles.insert(R.MainFile);
    if (R.ExtraArchitecture) {
      // Part of its unit: a crash or errors there are the unit's.
      ++Outcomes.ExtraArchitectureParses;
      Several.insert(R.MainFile);
      if (R.Crashed)
        Outcomes.Crashes.push_back({absolutePath(R.MainFile), R.CrashStage,
                                    ReproducingCommand(R.MainFile, R.Arch)});
      else if (R.ErrorCount && R.Parsed)
        Outcomes.UnitsWithErrors.push_back(
            {absolutePath(R.MainFile), R.ErrorCount,
             "for " + R.Arch + ": " + R.FirstError});
      continue;
    }
    if (R.SkippedByPrefilter) {
      ++Outcomes.Skipped;
      continue;
    }
    for (const auto &Found : R.FoundByName)
      ++Outcomes.Headers.FoundByName[Found];
    for (const auto &Rejected : R.RejectedByName)
      ++Outcomes.Headers.RejectedByName[Rejected];
    if (!R.MissingHeaders.empty()) {
      size_t Withheld = llvm::count_if(R.Findings, [](const auto &D) {
        std::optional<std::string> Why = noFixReason(D);
        return D.Message.Fix.empty() && Why &&
               llvm::StringRef(*Why).contains("error");
      });
      for (const std::string &Name : R.MissingHeaders) {
        HeaderOutcomes::Missing &Tally = Outcomes.Headers.MissingHeaders[Name];
        ++Tally.Units;
        Tally.Withheld += Withheld;
      }
    }
    if (R.ErrorCount && R.Parsed)
      Outcomes.UnitsWithErrors.push_back(
          {absolutePath(R.MainFile), R.ErrorCount, R.FirstError});
    if (R.Crashed) {
      ++Counts.Crashed;
      Outcomes.Crashes.push_back({absolutePath(R.MainFile), R.CrashStage,
                                  ReproducingCommand(R.MainFile, "")});
    } else if (!R.Parsed) {
      ++Counts.NotAnalysed;
    } else if (R.ErrorCount) {
      ++Counts.WithErrors;
    } else {
      ++Counts.Clean;
    }
  }
  Outcomes.UnitsParsedForSeveral = Several.size();
  llvm::stable_sort(Outcomes.UnitsWithErrors, [](const auto &A, const auto &B) {
    return A.File < B.File;
  });
  return Outcomes;
}

std::vector<bool> fixedFindings(const FindingSet &Set,
                                const ApplyOutcome &Outcome) {
  std::vector<bool> Fixed;
  for (const clang::tooling::Diagnostic &D : Set.Findings)
    Fixed.push_back(!D.Message.Fix.empty() &&
                    llvm::none_of(D.Message.Fix, [&](const auto &Entry) {
                      return Outcome.RefusedFiles.contains(Entry.getKey());
                    }));
  return Fixed;
}

std::vector<std::pair<llvm::StringRef, const clang::tooling::Replacements *>>
fixByFile(const clang::tooling::Diagnostic &D) {
  std::vector<std::pair<llvm::StringRef, const clang::tooling::Replacements *>>
      Files;
  for (const auto &Entry : D.Message.Fix)
    Files.push_back({Entry.getKey(), &Entry.second});
  llvm::sort(Files, llvm::less_first());
  return Files;
}

std::optional<std::string> noFixReason(const clang::tooling::Diagnostic &D) {
  // An abstention's own cause says more than the merge's "every unit
  // abstains".
  for (llvm::StringRef Prefix :
       {llvm::StringRef(AbstentionPrefix), llvm::StringRef("no automatic fix: "),
        llvm::StringRef("not analysed: ")})
    for (const clang::tooling::DiagnosticMessage &Note : D.Notes)
      if (llvm::StringRef(Note.Message).starts_with(Prefix))
        return Note.Message.substr(Prefix.size());
  return std::nullopt;
}

std::string reasonGroup(llvm::StringRef Reason) {
  std::string Group;
  bool Quoted = false;
  for (size_t I = 0; I < Reason.size(); ++I) {
    char C = Reason[I];
    // An apostrophe inside a word ("intrinsic's") neither opens nor closes.
    bool WordBefore = I > 0 && llvm::isAlnum(Reason[I - 1]);
    bool WordAfter = I + 1 < Reason.size() && llvm::isAlnum(Reason[I + 1]);
    if (C == '\'' && !Quoted && !WordBefore) {
      Quoted = true;
      Group += "'...'";
      continue;
    }
    if (C == '\'' && Quoted && !WordAfter) {
      Quoted = false;
      continue;
    }
    if (Quoted)
      continue;
    if (C == ',' || C == ';' || C == ':' ||
        (C == ' ' && Reason.substr(I).starts_with(" (")))
      break;
    Group += C;
  }
  return llvm::StringRef(Group).rtrim().str();
}

} // namespace warpfix
