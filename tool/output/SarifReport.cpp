#include "tool/output/SarifReport.h"
#include "tool/BuildConfig.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace json = llvm::json;
using clang::tooling::Diagnostic;
using clang::tooling::DiagnosticMessage;

namespace warpfix {
namespace {

// The project's home and where each check's page lives, relative to it.
// Placeholder host until the repository is published.
constexpr llvm::StringLiteral InformationUri =
    "https://github.com/warpfix/warpfix";
constexpr llvm::StringLiteral CheckDocsUri =
    "https://github.com/warpfix/warpfix/blob/main/docs/checks/";

json::Object artifactLocation(llvm::StringRef File) {
  return json::Object{{"uri", fileUri(File)}};
}

/// A physical location; the region is left out when the file cannot be read.
json::Object physicalLocation(llvm::StringRef File, unsigned Offset,
                              SourcePositions &Positions) {
  json::Object Location{{"artifactLocation", artifactLocation(File)}};
  if (std::optional<SourcePosition> P = Positions.position(File, Offset))
    Location["region"] = json::Object{{"startLine", P->Line},
                                      {"startColumn", P->CodePointColumn},
                                      {"charOffset", P->CodePointOffset},
                                      {"byteOffset", Offset}};
  return Location;
}

json::Object rule(const CheckInfo &Info) {
  std::string Doc = (CheckDocsUri + Info.Name + ".md").str();
  return json::Object{
      {"id", Info.Name},
      {"shortDescription", json::Object{{"text", Info.Summary}}},
      {"fullDescription", json::Object{{"text", Info.Summary}}},
      {"help", json::Object{{"text", (Info.Summary + ". See " + Doc).str()}}},
      {"helpUri", Doc},
      {"defaultConfiguration", json::Object{{"level", "warning"}}}};
}

json::Value fixesOf(const Diagnostic &D, SourcePositions &Positions) {
  json::Array Changes;
  for (const auto &[File, Edits] : fixByFile(D)) {
    json::Array Replacements;
    for (const clang::tooling::Replacement &R : *Edits) {
      std::optional<SourcePosition> P = Positions.position(File, R.getOffset());
      std::optional<unsigned> Length =
          Positions.codePointLength(File, R.getOffset(), R.getLength());
      if (!P || !Length)
        return nullptr; // the file is gone: no fix can be described
      Replacements.push_back(json::Object{
          {"deletedRegion", json::Object{{"charOffset", P->CodePointOffset},
                                         {"charLength", *Length}}},
          {"insertedContent",
           json::Object{{"text", R.getReplacementText().str()}}}});
    }
    Changes.push_back(json::Object{{"artifactLocation", artifactLocation(File)},
                                   {"replacements", std::move(Replacements)}});
  }
  return json::Array{json::Object{{"artifactChanges", std::move(Changes)}}};
}

json::Object result(const Diagnostic &D, std::optional<size_t> RuleIndex,
                    const RunReport &Run, bool Fixed,
                    SourcePositions &Positions) {
  json::Object Result{{"ruleId", D.DiagnosticName},
                      {"level", "warning"},
                      {"message", json::Object{{"text", D.Message.Message}}}};
  if (RuleIndex)
    Result["ruleIndex"] = *RuleIndex;
  if (!D.Message.FilePath.empty())
    Result["locations"] = json::Array{json::Object{
        {"physicalLocation",
         physicalLocation(D.Message.FilePath, D.Message.FileOffset,
                          Positions)}}};
  json::Array Related;
  for (const DiagnosticMessage &Note : D.Notes) {
    json::Object Location{{"id", Related.size()},
                          {"message", json::Object{{"text", Note.Message}}}};
    if (!Note.FilePath.empty())
      Location["physicalLocation"] =
          physicalLocation(Note.FilePath, Note.FileOffset, Positions);
    Related.push_back(std::move(Location));
  }
  if (!Related.empty())
    Result["relatedLocations"] = std::move(Related);
  if (!D.Message.Fix.empty()) {
    json::Value Fixes = fixesOf(D, Positions);
    if (Fixes.kind() != json::Value::Null)
      Result["fixes"] = std::move(Fixes);
  }
  if (Run.FixRequested)
    Result["properties"] = json::Object{{"fixed", Fixed}};
  return Result;
}

json::Object notification(llvm::StringRef Text, llvm::StringRef File = {}) {
  json::Object N{{"level", "error"},
                 {"message", json::Object{{"text", Text.str()}}}};
  if (!File.empty())
    N["locations"] = json::Array{json::Object{
        {"physicalLocation",
         json::Object{{"artifactLocation", artifactLocation(File)}}}}};
  return N;
}

} // namespace

std::string fileUri(llvm::StringRef AbsolutePath) {
  std::string Uri = "file://";
  for (unsigned char C : AbsolutePath) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/')
      Uri += C;
    else
      Uri += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Uri;
}

void writeSarifReport(const RunReport &Run, SourcePositions &Positions,
                      llvm::raw_ostream &OS) {
  json::Array Rules;
  llvm::StringMap<size_t> RuleIndex;
  for (const CheckInfo *Info : Run.Checks) {
    RuleIndex[Info->Name] = Rules.size();
    Rules.push_back(rule(*Info));
  }
  json::Array Results;
  const std::vector<Diagnostic> &Findings = Run.Set.Findings;
  // Reserved: json::Value is copied, not moved, when an array grows.
  Results.reserve(Findings.size());
  for (size_t I = 0; I < Findings.size(); ++I) {
    auto It = RuleIndex.find(Findings[I].DiagnosticName);
    Results.push_back(result(Findings[I],
                             It == RuleIndex.end()
                                 ? std::nullopt
                                 : std::optional<size_t>(It->second),
                             Run, Run.Fixed[I], Positions));
  }
  json::Array Notifications;
  for (const std::string &File : Run.FailedFiles)
    Notifications.push_back(notification(
        "could not parse '" + File + "'; nothing in it was analysed or changed",
        File));
  for (const RunReport::Crash &C : Run.Crashes)
    Notifications.push_back(notification(
        "warpfix crashed in the " + C.Stage + " stage of '" + C.File +
            "'; reproduce with: " + C.Command,
        C.File));
  for (const std::string &Error : Run.Errors)
    Notifications.push_back(notification(Error));
  json::Object Invocation{{"executionSuccessful", Notifications.empty()}};
  Invocation["properties"] = json::Object{
      {"cleanTranslationUnits", Run.Units.Clean},
      {"translationUnitsWithErrors", Run.Units.WithErrors},
      {"notAnalysedTranslationUnits", Run.Units.NotAnalysed},
      {"crashedTranslationUnits", Run.Units.Crashed},
      {"skippedTranslationUnits", Run.SkippedTUs},
      {"headers", Run.Headers.toJson()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);

  json::Object Driver{{"name", "warpfix"},
                      {"version", WARPFIX_VERSION},
                      {"informationUri", InformationUri},
                      {"rules", std::move(Rules)}};
  json::Object Root{
      {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
                  "schemas/sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       json::Array{json::Object{
           {"tool", json::Object{{"driver", std::move(Driver)}}},
           {"columnKind", "unicodeCodePoints"},
           {"invocations", json::Array{std::move(Invocation)}},
           {"results", std::move(Results)}}}}};
  OS << llvm::formatv("{0:2}", json::Value(std::move(Root))) << "\n";
}

} // namespace warpfix
