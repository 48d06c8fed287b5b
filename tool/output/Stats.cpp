#include "tool/output/Stats.h"
#include "llvm/Support/Format.h"

namespace warpfix {
namespace {

constexpr llvm::StringLiteral NoReason = "(no reason given)";

/// The reasons of one check, most frequent first, ties by text.
std::vector<std::pair<std::string, size_t>> byCount(const CheckStats &S) {
  std::vector<std::pair<std::string, size_t>> Sorted(S.Reasons.begin(),
                                                     S.Reasons.end());
  llvm::stable_sort(Sorted, [](const auto &A, const auto &B) {
    return A.second > B.second;
  });
  return Sorted;
}

/// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string csvField(llvm::StringRef Text) {
  if (Text.find_first_of(",\"\r\n") == llvm::StringRef::npos)
    return Text.str();
  std::string Quoted = "\"";
  for (char C : Text) {
    if (C == '"')
      Quoted += '"';
    Quoted += C;
  }
  return Quoted + "\"";
}

} // namespace

RunStats computeStats(const RunReport &Run) {
  RunStats Stats;
  llvm::StringMap<size_t> Index;
  for (const CheckInfo *Info : Run.Checks) {
    Index[Info->Name] = Stats.Checks.size();
    Stats.Checks.push_back({Info->Name.str()});
  }
  CheckStats Total{"total"};
  const std::vector<clang::tooling::Diagnostic> &Findings = Run.Set.Findings;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const clang::tooling::Diagnostic &D = Findings[I];
    auto It = Index.find(D.DiagnosticName);
    if (It == Index.end()) {
      It = Index.try_emplace(D.DiagnosticName, Stats.Checks.size()).first;
      Stats.Checks.push_back({D.DiagnosticName});
    }
    for (CheckStats *S : {&Stats.Checks[It->second], &Total}) {
      ++S->Findings;
      S->Fixed += Run.Fixed[I];
      if (!D.Message.Fix.empty()) {
        ++S->Fixable;
        continue;
      }
      ++S->Unfixable;
      std::optional<std::string> Reason = noFixReason(D);
      ++S->Reasons[Reason ? reasonGroup(*Reason) : NoReason.str()];
    }
  }
  Stats.Checks.push_back(std::move(Total));
  Stats.FailedFiles = Run.FailedFiles.size();
  Stats.SkippedTUs = Run.SkippedTUs;
  Stats.Units = Run.Units;
  return Stats;
}

void printStatsText(const RunStats &Stats, llvm::raw_ostream &OS) {
  size_t Width = 5;
  for (const CheckStats &S : Stats.Checks)
    Width = std::max(Width, S.Check.size());
  OS << llvm::left_justify("check", Width) << "  findings     fixed   fixable "
     << "unfixable\n";
  for (const CheckStats &S : Stats.Checks) {
    OS << llvm::left_justify(S.Check, Width) << llvm::format("  %8zu", S.Findings)
       << llvm::format("  %8zu", S.Fixed) << llvm::format("  %8zu", S.Fixable)
       << llvm::format("  %8zu", S.Unfixable) << "\n";
    if (S.Check == "total")
      continue; // the reasons were listed under each check
    for (const auto &[Reason, Count] : byCount(S))
      OS << "    " << Count << " with no fix: " << Reason << "\n";
  }
  OS << "files that failed to parse: " << Stats.FailedFiles << "\n";
  OS << "translation units skipped by the prefilter: " << Stats.SkippedTUs
     << "\n";
  OS << "translation units analysed clean: " << Stats.Units.Clean << "\n";
  OS << "translation units analysed with errors: " << Stats.Units.WithErrors
     << "\n";
  OS << "translation units not analysed: " << Stats.Units.NotAnalysed << "\n";
  OS << "translation units crashed: " << Stats.Units.Crashed << "\n";
}

void printStatsCsv(const RunStats &Stats, llvm::raw_ostream &OS) {
  OS << "check,counter,reason,count\n";
  for (const CheckStats &S : Stats.Checks) {
    std::string Check = csvField(S.Check);
    OS << Check << ",findings,," << S.Findings << "\n";
    OS << Check << ",fixed,," << S.Fixed << "\n";
    OS << Check << ",fixable,," << S.Fixable << "\n";
    OS << Check << ",unfixable,," << S.Unfixable << "\n";
    for (const auto &[Reason, Count] : byCount(S))
      OS << Check << ",unfixable," << csvField(Reason) << "," << Count << "\n";
  }
  OS << "total,failed-files,," << Stats.FailedFiles << "\n";
  OS << "total,skipped-translation-units,," << Stats.SkippedTUs << "\n";
  OS << "total,clean-translation-units,," << Stats.Units.Clean << "\n";
  OS << "total,translation-units-with-errors,," << Stats.Units.WithErrors
     << "\n";
  OS << "total,not-analysed-translation-units,," << Stats.Units.NotAnalysed
     << "\n";
  OS << "total,crashed-translation-units,," << Stats.Units.Crashed << "\n";
}

} // namespace warpfix
