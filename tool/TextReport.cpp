#include "tool/TextReport.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

using namespace clang;

namespace warpfix {
namespace {

/// Re-opens the files that findings point at: the ASTs they came from are gone.
class Printer {
public:
  Printer(llvm::raw_ostream &OS, bool Colors)
      : Files(FileSystemOptions()), Options(new DiagnosticOptions()),
        Client(OS, &*Options),
        Diags(new DiagnosticIDs(), &*Options, &Client, /*ShouldOwnClient=*/false),
        Sources(Diags, Files) {
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
    if (Path.empty())
      return {};
    llvm::Expected<FileEntryRef> File = Files.getFileRef(Path);
    if (!File) {
      llvm::consumeError(File.takeError());
      return {};
    }
    FileID ID = Sources.getOrCreateFileID(*File, SrcMgr::C_User);
    std::optional<llvm::MemoryBufferRef> Buffer = Sources.getBufferOrNone(ID);
    if (!Buffer || Offset > Buffer->getBufferSize())
      return {};
    return Sources.getLocForStartOfFile(ID).getLocWithOffset(Offset);
  }

  FileManager Files;
  IntrusiveRefCntPtr<DiagnosticOptions> Options;
  TextDiagnosticPrinter Client;
  DiagnosticsEngine Diags;
  SourceManager Sources;
};

} // namespace

void printTextReport(const std::vector<tooling::Diagnostic> &Findings,
                     llvm::raw_ostream &OS, bool Colors) {
  Printer P(OS, Colors);
  for (const tooling::Diagnostic &D : Findings)
    P.print(D);
}

} // namespace warpfix
