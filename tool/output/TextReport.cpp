#include "tool/output/TextReport.h"
#include "tool/output/SourcePositions.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/WithColor.h"
#include <cstdint>
#include <cstring>
#include <optional>

using namespace clang;

namespace warpfix {
namespace {

/// An edit shown under the finding's line.
struct LineEdit {
  SourceLocation Begin;
  unsigned Offset, Length;
  llvm::StringRef Text;
};

bool isPrintableAscii(llvm::StringRef Text) {
  // Eight bytes at a time: every message, note and source line is tested.
  constexpr uint64_t Ones = 0x0101010101010101, Highs = 0x8080808080808080;
  const char *P = Text.begin(), *End = Text.end();
  for (; End - P >= 8; P += 8) {
    uint64_t Word;
    std::memcpy(&Word, P, sizeof Word);
    uint64_t BelowSpace = (Word - 0x20 * Ones) & ~Word & Highs;
    uint64_t AboveTilde = ((Word + Ones) | Word) & Highs;
    if (BelowSpace | AboveTilde)
      return false;
  }
  for (; P != End; ++P)
    if (static_cast<unsigned char>(*P - 0x20) > 0x7e - 0x20)
      return false;
  return true;
}

/// Writes the line of fix-it text that clang prints under a caret line: each
/// edit's text at its column, pushed one past the end of the one before where
/// they would touch (TextDiagnostic's buildFixItInsertionLine). Only for a
/// line of printable ASCII, where a column is a byte.
void writeFixItLine(llvm::raw_ostream &Out, llvm::ArrayRef<LineEdit> Edits,
                    unsigned LineStart) {
  // Also the length written so far: each text starts at or after it.
  unsigned PreviousEnd = 0;
  for (const LineEdit &E : Edits) {
    unsigned Column = E.Offset - LineStart;
    if (Column < PreviousEnd)
      Column = PreviousEnd + 1;
    Out.indent(Column - PreviousEnd) << E.Text;
    PreviousEnd = Column + E.Text.size();
  }
}

/// The caret line clang just wrote at the end of Text: its gutter (`    | `,
/// or nothing without line numbers) when the last line is one.
std::optional<llvm::StringRef> caretGutter(llvm::StringRef Text) {
  if (!Text.consume_back("\n"))
    return std::nullopt;
  llvm::StringRef Last = Text.substr(Text.rfind('\n') + 1);
  llvm::StringRef Gutter;
  if (size_t Bar = Last.find("| "); Bar != llvm::StringRef::npos) {
    Gutter = Last.take_front(Bar + 2);
    if (!Gutter.drop_back(2).trim(' ').empty())
      return std::nullopt;
  }
  llvm::StringRef Marks = Last.drop_front(Gutter.size());
  if (Marks.find_first_not_of(" ^~") != llvm::StringRef::npos ||
      !Marks.contains('^'))
    return std::nullopt;
  return Gutter;
}

/// Re-opens the files that findings point at: the ASTs they came from are gone.
class Printer {
public:
  Printer(llvm::raw_ostream &OS, bool Colors)
      : OS(OS), Colors(Colors), Pending(PendingText),
        Options(new DiagnosticOptions()),
        Client(Colors ? OS : Pending, &*Options),
        Diags(new DiagnosticIDs(), &*Options, &Client, /*ShouldOwnClient=*/false),
        Positions(&Diags), Sources(Positions.sources()) {
    Options->ShowColors = Colors;
    Client.BeginSourceFile(LangOptions(), nullptr);
  }
  ~Printer() { Client.EndSourceFile(); }

  void print(const tooling::Diagnostic &D) {
    SourceLocation Loc = locate(D.Message.FilePath, D.Message.FileOffset);
    // Only the edits on the finding's own line are shown under it; a
    // ballot inserted before an enclosing branch is seen with --diff.
    std::vector<LineEdit> Edits;
    unsigned LocLine = Loc.isValid() ? Sources.getSpellingLineNumber(Loc) : 0;
    for (const auto &Entry : D.Message.Fix)
      for (const tooling::Replacement &R : Entry.second) {
        SourceLocation Begin = locate(R.getFilePath(), R.getOffset());
        if (Begin.isInvalid() || Loc.isInvalid() ||
            Sources.getFileID(Begin) != Sources.getFileID(Loc) ||
            Sources.getSpellingLineNumber(Begin) != LocLine)
          continue;
        Edits.push_back({Begin, Sources.getFileOffset(Begin), R.getLength(),
                         R.getReplacementText()});
      }
    std::optional<SourceLine> Line = ownFixItLine(Loc, Edits);
    if (Line && printOwn(D, Loc, Edits, *Line))
      return;
    syncClangsLastDiagnostic();
    {
      DiagnosticBuilder Builder =
          Diags.Report(Loc, Diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                                  "%0 [%1]"));
      Builder << D.Message.Message << D.DiagnosticName;
      for (const LineEdit &E : Edits) {
        CharSourceRange Range = CharSourceRange::getCharRange(
            E.Begin, E.Begin.getLocWithOffset(E.Length));
        // clang underlines an edit's range either way; the hint itself makes
        // it merge the edits, which builds a keyword table per finding (half
        // of the report's time on a file of 12,000 findings).
        if (Line)
          Builder << Range;
        else
          Builder << FixItHint::CreateReplacement(Range, E.Text);
      }
    }
    if (Line) {
      if (std::optional<llvm::StringRef> Gutter = caretGutter(PendingText)) {
        // A copy: the gutter lies in PendingText, which the write may grow.
        writeFixItLine(Pending << Gutter->str(), Edits, Line->Start);
        Pending << '\n';
      }
    }
    for (const tooling::DiagnosticMessage &Note : D.Notes)
      Diags.Report(locate(Note.FilePath, Note.FileOffset),
                   Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0"))
          << Note.Message;
    OS << PendingText;
    PendingText.clear();
  }

private:
  /// The diagnostic clang's renderer saw last, or that this printer wrote in
  /// its place: a note at the same place as the diagnostic before it shows
  /// no source line.
  struct Emitted {
    SourceLocation Loc;
    DiagnosticsEngine::Level Level = DiagnosticsEngine::Ignored;
  };

  /// The line around Loc, where this printer can show it as clang would: a
  /// line of printable ASCII, and short enough that clang shows it at all.
  struct SourceLine {
    unsigned Start;
    llvm::StringRef Text;
  };
  std::optional<SourceLine> simpleLine(SourceLocation Loc) {
    if (!Loc.isFileID())
      return std::nullopt;
    bool Invalid = false;
    FileID File = Sources.getFileID(Loc);
    llvm::StringRef Buffer = Sources.getBufferData(File, &Invalid);
    unsigned Offset = Sources.getFileOffset(Loc);
    unsigned Column = Sources.getColumnNumber(File, Offset, &Invalid);
    if (Invalid)
      return std::nullopt;
    unsigned Start = Offset - (Column - 1);
    llvm::StringRef Line = Buffer.substr(Start);
    Line = Line.take_until([](char C) { return C == '\n' || C == '\r'; });
    // TextDiagnostic's MaxLineLengthToPrint.
    constexpr unsigned Longest = 4096;
    if (Line.size() > Longest || Column > Longest || !isPrintableAscii(Line))
      return std::nullopt;
    return SourceLine{Start, Line};
  }

  /// Writes D as TextDiagnostic would, when every line it shows is simple
  /// (simpleLine) and the edits' ranges need none of clang's trimming of
  /// blanks; otherwise writes nothing and says so. clang's renderer costs
  /// several microseconds a line, a third of a report of many findings.
  bool printOwn(const tooling::Diagnostic &D, SourceLocation Loc,
                llvm::ArrayRef<LineEdit> Edits, const SourceLine &Line) {
    if (!isPrintableAscii(D.Message.Message) ||
        !isPrintableAscii(D.DiagnosticName))
      return false;
    // The caret line: the edits' ranges underlined, then the caret.
    llvm::SmallString<128> Marks;
    for (const LineEdit &E : Edits) {
      unsigned Begin = E.Offset - Line.Start, End = Begin + E.Length;
      // highlightRange moves a range's ends off blanks; not reproduced.
      if ((Begin < Line.Text.size() && Line.Text[Begin] == ' ') ||
          (End > 0 && Line.Text[End - 1] == ' '))
        return false;
      if (Marks.size() < End)
        Marks.resize(End, ' ');
      std::fill(Marks.begin() + Begin, Marks.begin() + End, '~');
    }
    unsigned Caret = Sources.getFileOffset(Loc) - Line.Start;
    Marks.resize(std::max<size_t>(Caret + 1, Marks.size()), ' ');
    Marks[Caret] = '^';
    struct NoteLine {
      SourceLocation Loc;
      std::optional<SourceLine> Line;
    };
    llvm::SmallVector<NoteLine, 4> Notes;
    SourceLocation Previous = Loc;
    for (const tooling::DiagnosticMessage &Note : D.Notes) {
      SourceLocation At = locate(Note.FilePath, Note.FileOffset);
      if (At.isInvalid() || !isPrintableAscii(Note.Message))
        return false;
      Notes.push_back({At, std::nullopt});
      // A note where the diagnostic before it was shows no source line.
      if (At != Previous && !(Notes.back().Line = simpleLine(At)))
        return false;
      Previous = At;
    }

    unsigned Number =
        writeHeader(Loc, "warning", D.Message.Message, D.DiagnosticName);
    unsigned Width = writeSourceLine(Number, Line.Text);
    OS.indent(Width + 2) << "| " << Marks << '\n';
    writeFixItLine(OS.indent(Width + 2) << "| ", Edits, Line.Start);
    OS << '\n';
    for (size_t I = 0; I < Notes.size(); ++I) {
      unsigned NoteNumber =
          writeHeader(Notes[I].Loc, "note", D.Notes[I].Message);
      if (!Notes[I].Line)
        continue;
      unsigned NoteWidth = writeSourceLine(NoteNumber, Notes[I].Line->Text);
      unsigned NoteCaret =
          Sources.getFileOffset(Notes[I].Loc) - Notes[I].Line->Start;
      OS.indent(NoteWidth + 2) << "| ";
      OS.indent(NoteCaret) << "^\n";
    }
    Last = {Previous, Notes.empty() ? DiagnosticsEngine::Warning
                                    : DiagnosticsEngine::Note};
    ClangSawLast = false;
    return true;
  }

  /// `file:line:column: level: message [check]`, TextDiagnostic's first
  /// line (a note names no check); returns the line number, which the source
  /// line under it shows.
  unsigned writeHeader(SourceLocation Loc, llvm::StringRef Level,
                       llvm::StringRef Message,
                       std::optional<llvm::StringRef> Check = std::nullopt) {
    PresumedLoc Where = Sources.getPresumedLoc(Loc);
    OS << Where.getFilename() << ':' << Where.getLine() << ':'
       << Where.getColumn() << ": " << Level << ": " << Message;
    if (Check)
      OS << " [" << *Check << ']';
    OS << '\n';
    return Where.getLine();
  }

  /// The source line under its line number; returns the number's width,
  /// which the caret and fix-it lines are indented by.
  unsigned writeSourceLine(unsigned Number, llvm::StringRef Text) {
    // TextDiagnostic makes room for the numbers of the snippet's lines,
    // up to its limit of lines past the first.
    unsigned Width = std::max<unsigned>(
        4, digits(Number + DiagnosticOptions::DefaultSnippetLineLimit));
    OS.indent(Width - digits(Number) + 1) << Number << " | " << Text << '\n';
    return Width;
  }

  static unsigned digits(unsigned N) {
    unsigned Digits = 1;
    for (; N >= 10; N /= 10)
      ++Digits;
    return Digits;
  }

  /// Before clang renders again, it is shown the last diagnostic written
  /// here (into text that is dropped), so that it decides as it would have
  /// whether a note at that place shows its source line.
  void syncClangsLastDiagnostic() {
    if (ClangSawLast || Last.Loc.isInvalid())
      return;
    Diags.Report(Last.Loc, Diags.getCustomDiagID(Last.Level, "%0")) << "";
    PendingText.clear();
    ClangSawLast = true;
  }

  Emitted Last;
  bool ClangSawLast = true;

  SourceLocation locate(llvm::StringRef Path, unsigned Offset) {
    return Positions.locate(Path, Offset);
  }

  /// The finding's line, when its fix-it line can be written
  /// here as clang would write it: no colors, a line of printable ASCII in a
  /// user file, and edits of printable text that neither overlap nor touch
  /// (clang would merge those). Otherwise clang renders the hints.
  std::optional<SourceLine> ownFixItLine(SourceLocation Loc,
                                         std::vector<LineEdit> &Edits) {
    if (Colors || Edits.empty() || !Loc.isFileID() ||
        Sources.isInSystemHeader(Loc))
      return std::nullopt;
    // Stable: clang joins insertions at one offset in the order given.
    llvm::stable_sort(Edits, [](const LineEdit &A, const LineEdit &B) {
      return A.Offset < B.Offset;
    });
    // A line clang would not show gets no fix-it line either way.
    std::optional<SourceLine> Line = simpleLine(Loc);
    if (!Line)
      return std::nullopt;
    for (size_t I = 0; I < Edits.size(); ++I) {
      const LineEdit &E = Edits[I];
      if (E.Text.empty() || !isPrintableAscii(E.Text) ||
          E.Offset < Line->Start ||
          E.Offset + E.Length > Line->Start + Line->Text.size() ||
          (I > 0 && Edits[I - 1].Offset + Edits[I - 1].Length >= E.Offset))
        return std::nullopt;
    }
    return Line;
  }

  llvm::raw_ostream &OS;
  bool Colors;
  llvm::SmallString<4096> PendingText;
  llvm::raw_svector_ostream Pending;
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

/// The headers found by name, and those still missing, the ones that broke
/// the most units first: which -I or configured build directory (-p)
/// unlocks the most.
static void printHeaderSummary(const HeaderOutcomes &Headers,
                               llvm::raw_ostream &OS) {
  auto Plural = [](size_t N, llvm::StringRef What) {
    return std::to_string(N) + " " + What.str() + (N == 1 ? "" : "s");
  };
  for (const auto &[Found, Count] : Headers.FoundByName)
    OS << "found by name: '" << Found.first << "' in " << Found.second
       << " (the only file of that name under the given folders), for "
       << Plural(Count, "unit") << "\n";
  for (const auto &Rejected : Headers.RejectedByName)
    OS << "found by name but not used: '" << Rejected.first.first << "' in "
       << Rejected.first.second
       << " had errors in the parse of a unit that needed it, so no unit "
          "uses it\n";
  std::vector<std::pair<std::string, HeaderOutcomes::Missing>> Missing =
      Headers.missingByUnits();
  constexpr size_t MostListed = 10;
  for (size_t I = 0; I < Missing.size() && I < MostListed; ++I)
    OS << "header not found: '" << Missing[I].first << "', in "
       << Plural(Missing[I].second.Units, "unit") << " ("
       << Plural(Missing[I].second.Withheld, "finding")
       << " there left without a fix by errors)\n";
  if (Missing.size() > MostListed)
    OS << "headers not found: " << Missing.size() - MostListed
       << " more\n";
  if (!Missing.empty())
    OS << "pass the folders of missing headers with -I after '--', or "
          "point -p at a configured build directory\n";
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
  if (Units.ExtraArchitectureParses)
    OS << Units.UnitsParsedForSeveral << " unit"
       << (Units.UnitsParsedForSeveral == 1 ? " was" : "s were")
       << " parsed again for other architectures of the build ("
       << Units.ExtraArchitectureParses
       << " parses): their #if branches differ, and a fix must suit each\n";
  if (Counts.WithErrors)
    OS << "clang reported errors in " << Counts.WithErrors << " unit"
       << (Counts.WithErrors == 1 ? "" : "s")
       << ": code its recovery dropped may hide findings, so the exit code "
          "is at least 1\n";
  printHeaderSummary(Units.Headers, OS);
  size_t Fixable = Set.fixableCount();
  OS << Set.Findings.size() << " finding"
     << (Set.Findings.size() == 1 ? "" : "s") << " in " << Set.fileCount()
     << " file" << (Set.fileCount() == 1 ? "" : "s") << " (" << Fixable
     << " fixable)\n";
  if (size_t Hidden = Set.HiddenByHeaderFilter) {
    size_t Outside = Set.HiddenOutsidePaths;
    OS << Hidden << " more finding" << (Hidden == 1 ? "" : "s");
    if (Outside == Hidden)
      OS << " in headers outside the paths given, which "
         << (Hidden == 1 ? "counts" : "count")
         << " towards the exit code as remaining";
    else if (Outside)
      OS << " in headers that the header filter leaves out; " << Outside
         << " of them, outside the paths given where no filter is in force, "
         << (Outside == 1 ? "counts" : "count")
         << " towards the exit code as remaining";
    else
      OS << " in headers that the header filter leaves out";
    OS << "; --header-filter='.*' shows " << (Hidden == 1 ? "it" : "them")
       << "\n";
  }
  if (size_t Uncalled = Set.uncalledCount())
    OS << Uncalled << " of them " << (Uncalled == 1 ? "is" : "are")
       << " in code that nothing in this run calls or instantiates, so who "
          "reaches "
       << (Uncalled == 1 ? "it" : "them")
       << " is unknown and no fix is made: add the units that call that "
          "code to the run (or point -p at a build directory and pass all "
          "its units)\n";
}

void printFixSummary(const RunReport &Run, size_t FilesWritten,
                     llvm::raw_ostream &OS) {
  size_t Applied = Run.fixedCount(), ForReview = Run.fixedForReviewCount();
  OS << "fixed " << Applied << " finding" << (Applied == 1 ? "" : "s")
     << " in " << FilesWritten << " file" << (FilesWritten == 1 ? "" : "s")
     << "; " << Run.remainingCount() << " remain";
  if (ForReview)
    OS << ", " << ForReview << " of them fixed with __activemask() marked for "
       << "review (--mask-fallback=activemask): warp-activemask-mask reports "
       << (ForReview == 1 ? "it" : "each") << " until the lanes are chosen";
  if (size_t Outside = Run.Set.HiddenOutsidePaths)
    OS << "; " << Outside << " more in headers outside the paths given, not "
       << "shown and not fixed";
  OS << "\n";
}

} // namespace warpfix
