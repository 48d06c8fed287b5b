#include "tool/output/TextReport.h"
#include "tool/output/SourcePositions.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/WithColor.h"

using namespace clang;

namespace warpfix {
namespace {

/// Re-opens the files that findings point at: the ASTs they came from are gone.
class Printer {
public:
  Printer(llvm::raw_ostream &OS, bool Colors)
      : Options(new DiagnosticOptions()), Client(OS, &*Options),
        Diags(new DiagnosticIDs(), &*Options, &Client, /*ShouldOwnClient=*/false),
        Positions(&Diags), Sources(Positions.sources()) {
    Options->ShowColors = Colors;
    Client.BeginSourceFile(LangOptions(), nullptr);
  }
  ~Printer() { Client.EndSourceFile(); }

  void print(const tooling::Diagnostic &D) {
    SourceLocation Loc = locate(D.Message.FilePath, D.Message.FileOffset);
    {
      DiagnosticBuilder Builder =
          Diags.Report(Loc, Diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                                  "%0 [%1]"));
      Builder << D.Message.Message << D.DiagnosticName;
      // Only the edits on the finding's own line are shown under it; a
      // ballot inserted before an enclosing branch is seen with --diff.
      for (const auto &Entry : D.Message.Fix)
        for (const tooling::Replacement &R : Entry.second) {
          SourceLocation Begin = locate(R.getFilePath(), R.getOffset());
          if (Begin.isInvalid() || Loc.isInvalid() ||
              Sources.getFileID(Begin) != Sources.getFileID(Loc) ||
              Sources.getSpellingLineNumber(Begin) !=
                  Sources.getSpellingLineNumber(Loc))
            continue;
          Builder << FixItHint::CreateReplacement(
              CharSourceRange::getCharRange(
                  Begin, Begin.getLocWithOffset(R.getLength())),
              R.getReplacementText());
        }
    }
    for (const tooling::DiagnosticMessage &Note : D.Notes)
      Diags.Report(locate(Note.FilePath, Note.FileOffset),
                   Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0"))
          << Note.Message;
  }

private:
  SourceLocation locate(llvm::StringRef Path, unsigned Offset) {
    return Positions.locate(Path, Offset);
  }

  IntrusiveRefCntPtr<DiagnosticOptions> Options;
  TextDiagnosticPrinter Client;
  DiagnosticsEngine Diags;
  SourcePositions Positions;
  SourceManager &Sources;
};

} // namespace

void printTextReport(const std::vector<tooling::Diagnostic> &Findings,
                     llvm::raw_ostream &OS, bool Colors) {
  Printer P(OS, Colors);
  for (const tooling::Diagnostic &D : Findings)
    P.print(D);
}

void printCrashes(llvm::ArrayRef<RunReport::Crash> Crashes,
                  llvm::raw_ostream &OS) {
  for (const RunReport::Crash &C : Crashes)
    llvm::WithColor::error(OS, "warpfix")
        << "warpfix crashed in the " << C.Stage << " stage of '" << C.File
        << "'; its legacy names were reported without analysis, and every "
           "other translation unit was analysed as usual. This is a bug in "
           "warpfix: please report it with the output of\n  "
        << C.Command << "\n";
}

bool printUnparsedFiles(const FindingSet &Set,
                        const llvm::StringSet<> &CrashedFiles,
                        bool StrictParse, llvm::raw_ostream &OS) {
  bool Printed = false;
  for (const std::string &Failed : Set.FailedFiles) {
    if (CrashedFiles.contains(Failed))
      continue;
    llvm::WithColor::error(OS, "warpfix")
        << "could not parse '" << Failed
        << (StrictParse ? "'; nothing in it was analysed or changed"
                        : "'; clang built no syntax tree for it, so only its "
                          "legacy names were reported, and nothing in it "
                          "was changed")
        << ". If it needs include "
           "paths or macros, pass them after '--', or point -p at a build "
           "directory with compile_commands.json\n";
    Printed = true;
  }
  return Printed;
}

void printRunSummary(const FindingSet &Set, const UnitOutcomes &Units,
                     llvm::raw_ostream &OS) {
  const RunReport::UnitCounts &Counts = Units.Counts;
  if (Set.FailedFiles.size() + Counts.Clean + Counts.WithErrors > 0)
    OS << "translation units: " << Counts.Clean << " analysed clean"
       << (Counts.WithErrors + Counts.NotAnalysed + Counts.Crashed
               ? ", " + std::to_string(Counts.WithErrors) +
                     " analysed with errors, " +
                     std::to_string(Counts.NotAnalysed) + " not analysed, " +
                     std::to_string(Counts.Crashed) + " crashed"
               : std::string())
       << (Units.Skipped ? ", " + std::to_string(Units.Skipped) +
                               " skipped (nothing to check)"
                         : std::string())
       << "\n";
  size_t Fixable = Set.fixableCount();
  OS << Set.Findings.size() << " finding"
     << (Set.Findings.size() == 1 ? "" : "s") << " in " << Set.fileCount()
     << " file" << (Set.fileCount() == 1 ? "" : "s") << " (" << Fixable
     << " fixable)\n";
}

void printFixSummary(const RunReport &Run, size_t FilesWritten,
                     llvm::raw_ostream &OS) {
  size_t Applied = Run.fixedCount(),
         Remaining = Run.Set.Findings.size() - Applied;
  OS << "fixed " << Applied << " finding" << (Applied == 1 ? "" : "s")
     << " in " << FilesWritten << " file" << (FilesWritten == 1 ? "" : "s")
     << "; " << Remaining << " remain\n";
}

} // namespace warpfix
