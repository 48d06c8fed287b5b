#include "tool/output/SarifReport.h"
#include "tool/BuildConfig.h"
#include "tool/input/Paths.h"
#include "tool/output/CheckDocs.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/xxhash.h"
#include <map>

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

/// Every byte but unreserved characters and '/' percent-encoded (RFC 3986).
std::string percentEncoded(llvm::StringRef Path) {
  std::string Encoded;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/')
      Encoded += C;
    else
      Encoded += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Encoded;
}

/// Code scanning resolves a URI relative to %SRCROOT% against the checkout,
/// wherever it lies; this run's %SRCROOT% is the current directory, as for
/// the names --diff writes.
constexpr llvm::StringLiteral SourceRoot = "%SRCROOT%";

/// The current directory with a trailing '/', or empty when unknown.
std::string sourceRootDirectory() {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return "";
  if (!Cwd.ends_with("/"))
    Cwd += "/";
  return std::string(Cwd);
}

json::Object artifactLocation(llvm::StringRef File) {
  if (std::optional<llvm::StringRef> Relative = belowCurrentDirectory(File))
    return json::Object{{"uri", percentEncoded(*Relative)},
                        {"uriBaseId", SourceRoot}};
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

/// A summary's first clause ("legacy warp intrinsics (...) that CUDA 13 no
/// longer compiles"), which code scanning shows as the rule's title.
llvm::StringRef firstClause(llvm::StringRef Summary) {
  return Summary.split("; ").first;
}

json::Object rule(const CheckInfo &Info) {
  std::string Doc = (CheckDocsUri + Info.Name + ".md").str();
  json::Object Help{{"text", (Info.Summary + ". See " + Doc).str()}};
  // The check's whole page, as --explain prints it.
  if (std::optional<llvm::StringRef> Page = checkDocumentation(Info.Name))
    Help["markdown"] = Page->str();
  return json::Object{
      {"id", Info.Name},
      {"shortDescription", json::Object{{"text", firstClause(Info.Summary)}}},
      {"fullDescription", json::Object{{"text", Info.Summary}}},
      {"help", std::move(Help)},
      {"helpUri", Doc},
      {"defaultConfiguration", json::Object{{"level", "warning"}}}};
}

/// The findings about suppression comments themselves: a NOLINTBEGIN without
/// its NOLINTEND, or the reverse. Always on, so not in the registry.
json::Object noLintRule() {
  llvm::StringLiteral Summary =
      "a NOLINTBEGIN comment without its NOLINTEND, or a NOLINTEND without "
      "its NOLINTBEGIN; the suppression does not cover what was meant";
  return json::Object{
      {"id", "warpfix-nolint"},
      {"shortDescription", json::Object{{"text", firstClause(Summary)}}},
      {"fullDescription", json::Object{{"text", Summary}}},
      {"help", json::Object{{"text", Summary}}},
      {"defaultConfiguration", json::Object{{"level", "warning"}}}};
}

/// The text of the line that holds Offset, without its blanks: what a
/// finding's fingerprint keeps of where it is, so that the fingerprint
/// survives lines added above it and a change of indentation.
std::string lineText(llvm::StringRef File, unsigned Offset,
                     SourcePositions &Positions) {
  clang::SourceLocation Loc = Positions.locate(File, Offset);
  if (Loc.isInvalid())
    return "";
  const clang::SourceManager &SM = Positions.sources();
  bool Invalid = false;
  llvm::StringRef Text = SM.getBufferData(SM.getFileID(Loc), &Invalid);
  if (Invalid || Offset > Text.size())
    return "";
  size_t Begin = Text.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  Begin = Begin == llvm::StringRef::npos || Offset == 0 ? 0 : Begin + 1;
  llvm::StringRef Line = Text.slice(Begin, Text.find('\n', Offset));
  std::string Kept;
  for (char C : Line)
    if (!llvm::isSpace(C))
      Kept += C;
  return Kept;
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
                    const RunReport &Run, bool Fixed, std::string Fingerprint,
                    SourcePositions &Positions) {
  json::Object Result{{"ruleId", D.DiagnosticName},
                      {"level", "warning"},
                      {"message", json::Object{{"text", D.Message.Message}}},
                      {"partialFingerprints",
                       json::Object{{"warpfixFinding/v1", Fingerprint}}}};
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

json::Object notification(llvm::StringRef Text, llvm::StringRef File = {},
                          llvm::StringRef Level = "error") {
  json::Object N{{"level", Level},
                 {"message", json::Object{{"text", Text.str()}}}};
  if (!File.empty())
    N["locations"] = json::Array{json::Object{
        {"physicalLocation",
         json::Object{{"artifactLocation", artifactLocation(File)}}}}};
  return N;
}

} // namespace

std::string fileUri(llvm::StringRef AbsolutePath) {
  return "file://" + percentEncoded(AbsolutePath);
}

void writeSarifReport(const RunReport &Run, SourcePositions &Positions,
                      llvm::raw_ostream &OS) {
  json::Array Rules;
  llvm::StringMap<size_t> RuleIndex;
  for (const CheckInfo *Info : Run.Checks) {
    RuleIndex[Info->Name] = Rules.size();
    Rules.push_back(rule(*Info));
  }
  RuleIndex["warpfix-nolint"] = Rules.size();
  Rules.push_back(noLintRule());
  json::Array Results;
  const std::vector<Diagnostic> &Findings = Run.Set.Findings;
  // Reserved: json::Value is copied, not moved, when an array grows.
  Results.reserve(Findings.size());
  // A finding's fingerprint: its check, file (relative to %SRCROOT%), message
  // and line text, and how many findings before it had all four the same;
  // not its line number, so that code scanning keeps tracking it when lines
  // move.
  std::map<std::string, unsigned> Seen;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Diagnostic &D = Findings[I];
    auto It = RuleIndex.find(D.DiagnosticName);
    llvm::StringRef File = D.Message.FilePath;
    std::string Line = lineText(File, D.Message.FileOffset, Positions);
    std::string Key;
    for (llvm::StringRef Part :
         {llvm::StringRef(D.DiagnosticName),
          belowCurrentDirectory(File).value_or(File),
          llvm::StringRef(D.Message.Message), llvm::StringRef(Line)}) {
      Key += Part;
      Key += '\0';
    }
    Key += std::to_string(Seen[Key]++);
    std::string Fingerprint =
        llvm::utohexstr(llvm::xxh3_64bits(Key), /*LowerCase=*/true,
                        /*Width=*/16);
    Results.push_back(result(D,
                             It == RuleIndex.end()
                                 ? std::nullopt
                                 : std::optional<size_t>(It->second),
                             Run, Run.Fixed[I], std::move(Fingerprint),
                             Positions));
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
  // Errors in the user's code, not in warpfix's run: the unit was analysed
  // all the same, and its findings say where the errors withheld a fix.
  bool Successful = Notifications.empty();
  for (const RunReport::CompilerErrors &E : Run.UnitsWithErrors)
    Notifications.push_back(notification(
        "clang reported " + std::to_string(E.Count) + " error" +
            (E.Count == 1 ? "" : "s") + " in the translation unit of '" +
            E.File + "', analysed despite " + (E.Count == 1 ? "it" : "them") +
            "; the first: " + E.First,
        E.File, "warning"));
  json::Object Invocation{{"executionSuccessful", Successful}};
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
  json::Object SarifRun{{"tool", json::Object{{"driver", std::move(Driver)}}}};
  if (std::string Root = sourceRootDirectory(); !Root.empty())
    SarifRun["originalUriBaseIds"] =
        json::Object{{SourceRoot, json::Object{{"uri", fileUri(Root)}}}};
  SarifRun["columnKind"] = "unicodeCodePoints";
  SarifRun["invocations"] = json::Array{std::move(Invocation)};
  SarifRun["results"] = std::move(Results);
  json::Object Root{
      {"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
                  "schemas/sarif-schema-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{std::move(SarifRun)}}};
  OS << llvm::formatv("{0:2}", json::Value(std::move(Root))) << "\n";
}

} // namespace warpfix
