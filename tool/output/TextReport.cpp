#include "tool/output/TextReport.h"
#include "tool/output/SourcePositions.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

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

} // namespace warpfix
