#include "tool/output/JsonReport.h"
#include "tool/BuildConfig.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace json = llvm::json;
using clang::tooling::Diagnostic;
using clang::tooling::DiagnosticMessage;

namespace warpfix {
namespace {

/// file, offset, line and column of one place; line and column are null when
/// the file can no longer be read.
void addPlace(json::Object &Into, llvm::StringRef File, unsigned Offset,
              SourcePositions &Positions) {
  if (File.empty()) {
    Into["file"] = nullptr;
    Into["offset"] = nullptr;
    Into["line"] = nullptr;
    Into["column"] = nullptr;
    return;
  }
  std::optional<SourcePosition> P = Positions.position(File, Offset);
  Into["file"] = File.str();
  Into["offset"] = Offset;
  Into["line"] = P ? json::Value(P->Line) : json::Value(nullptr);
  Into["column"] = P ? json::Value(P->Column) : json::Value(nullptr);
}

json::Value fixOf(const Diagnostic &D, SourcePositions &Positions) {
  if (D.Message.Fix.empty())
    return nullptr;
  json::Array FileEdits;
  for (const auto &[File, Replacements] : fixByFile(D)) {
    json::Array Edits;
    for (const clang::tooling::Replacement &R : *Replacements) {
      json::Object Edit;
      addPlace(Edit, File, R.getOffset(), Positions);
      Edit.erase("file");
      Edit["length"] = R.getLength();
      Edit["replacement"] = R.getReplacementText().str();
      Edits.push_back(std::move(Edit));
    }
    FileEdits.push_back(
        json::Object{{"file", File.str()}, {"edits", std::move(Edits)}});
  }
  return json::Object{{"files", std::move(FileEdits)}};
}

json::Object findingOf(const Diagnostic &D, bool Fixed,
                       SourcePositions &Positions) {
  json::Object Finding{{"check", D.DiagnosticName},
                       {"message", D.Message.Message},
                       {"fixable", !D.Message.Fix.empty()},
                       {"fixed", Fixed},
                       {"fix", fixOf(D, Positions)}};
  addPlace(Finding, D.Message.FilePath, D.Message.FileOffset, Positions);
  std::optional<std::string> Reason = noFixReason(D);
  Finding["noFixReason"] = Reason ? json::Value(*Reason) : json::Value(nullptr);
  json::Array Notes;
  for (const DiagnosticMessage &Note : D.Notes) {
    json::Object N{{"message", Note.Message}};
    addPlace(N, Note.FilePath, Note.FileOffset, Positions);
    Notes.push_back(std::move(N));
  }
  Finding["notes"] = std::move(Notes);
  return Finding;
}

} // namespace

void writeJsonReport(const RunReport &Run, SourcePositions &Positions,
                     llvm::raw_ostream &OS) {
  const FindingSet &Set = Run.Set;
  json::Array Findings;
  // Reserved: json::Value's move constructor is not noexcept, so a growing
  // array copied every finding's tree (most of a run's memory for 12000).
  Findings.reserve(Set.Findings.size());
  for (size_t I = 0; I < Set.Findings.size(); ++I)
    Findings.push_back(findingOf(Set.Findings[I], Run.Fixed[I], Positions));
  json::Array Checks;
  for (const CheckInfo *Info : Run.Checks)
    Checks.push_back(Info->Name);
  size_t FixedCount = Run.fixedCount();
  json::Array Crashes;
  for (const RunReport::Crash &C : Run.Crashes)
    Crashes.push_back(json::Object{
        {"file", C.File}, {"stage", C.Stage}, {"command", C.Command}});
  json::Array CompilerErrors;
  size_t CompilerErrorCount = 0;
  for (const RunReport::CompilerErrors &E : Run.UnitsWithErrors) {
    CompilerErrors.push_back(json::Object{
        {"file", E.File}, {"count", E.Count}, {"first", E.First}});
    CompilerErrorCount += E.Count;
  }
  json::Object Root{
      {"version", JsonReportVersion},
      {"tool", json::Object{{"name", "warpfix"},
                            {"version", WARPFIX_VERSION},
                            {"llvmVersion", WARPFIX_LLVM_VERSION}}},
      {"checks", std::move(Checks)},
      {"fixRequested", Run.FixRequested},
      {"findings", std::move(Findings)},
      {"failedFiles", json::Array(Run.FailedFiles)},
      {"errors", json::Array(Run.Errors)},
      {"crashes", std::move(Crashes)},
      {"compilerErrors", std::move(CompilerErrors)},
      {"headers", Run.Headers.toJson()},
      {"summary",
       json::Object{{"findings", Set.Findings.size()},
                    {"files", Set.fileCount()},
                    {"fixable", Set.fixableCount()},
                    {"uncalled", Set.uncalledCount()},
                    {"hiddenByHeaderFilter", Set.HiddenByHeaderFilter},
                    {"hiddenOutsidePaths", Set.HiddenOutsidePaths},
                    {"fixed", FixedCount},
                    {"fixedForReview", Run.fixedForReviewCount()},
                    {"remaining", Run.remainingCount()},
                    {"failedFiles", Run.FailedFiles.size()},
                    {"skippedTranslationUnits", Run.SkippedTUs},
                    {"cleanTranslationUnits", Run.Units.Clean},
                    {"translationUnitsWithErrors", Run.Units.WithErrors},
                    {"notAnalysedTranslationUnits", Run.Units.NotAnalysed},
                    {"crashedTranslationUnits", Run.Units.Crashed},
                    {"errors", Run.Errors.size()},
                    {"compilerErrors", CompilerErrorCount}}}};
  OS << llvm::formatv("{0:2}", json::Value(std::move(Root))) << "\n";
}

} // namespace warpfix
