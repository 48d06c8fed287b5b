#include "tool/output/FixWriter.h"
#include "support/FileIdentity.h"
#include "tool/input/LaunchChevrons.h"
#include "tool/input/Paths.h"
#include "tool/merge/EditSet.h"
#include "tool/output/AtomicFile.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include <map>
#include <optional>
#include <set>

using namespace clang;
namespace fs = llvm::sys::fs;

namespace warpfix {

llvm::StringMap<tooling::Replacements> collectFixes(const FindingSet &Set) {
  llvm::StringMap<EditSet> Edits;
  for (const tooling::Diagnostic &D : Set.Findings)
    for (const auto &Entry : D.Message.Fix)
      for (const tooling::Replacement &R : Entry.second)
        // mergeFindings already dropped every fix that overlaps another;
        // identical edits shared by several findings are made once.
        if (!Edits[Entry.getKey()].contains(R))
          llvm::cantFail(Edits[Entry.getKey()].add(R));
  llvm::StringMap<tooling::Replacements> Fixes;
  for (const auto &Entry : Edits)
    Fixes[Entry.getKey()] = Entry.second.toReplacements();
  return Fixes;
}

namespace {

/// The file's current content, checked against the hash taken when it was
/// parsed, so that an edit made meanwhile is never overwritten.
llvm::Expected<std::string> readUnchanged(llvm::StringRef Path,
                                          llvm::StringRef ExpectedHash) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                   Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  std::string Content = (*Buffer)->getBuffer().str();
  // The hash taken at the parse is of the text clang was shown, in which
  // spaced launch chevrons are joined (tool/input/LaunchChevrons.h).
  if (ExpectedHash.empty() || (ExpectedHash != contentHash(Content) &&
                               ExpectedHash != hashAsClangReadsIt(Content)))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'%s' changed on disk after it was analysed; not rewritten (run "
        "warpfix again)",
        Path.str().c_str());
  return Content;
}

} // namespace

void FixPlan::refuse(llvm::StringRef Path, std::string Why) {
  auto It = llvm::find_if(Files, [&](const PlannedFile &F) {
    return F.Path == Path;
  });
  if (It != Files.end())
    Files.erase(It);
  RefusedFiles.insert(Path);
  // One reason may cover several files.
  if (!llvm::is_contained(Errors, Why))
    Errors.push_back(std::move(Why));
}

FixPlan planFixes(const FindingSet &Set) {
  FixPlan Plan;
  llvm::StringMap<tooling::Replacements> Fixes = collectFixes(Set);
  std::vector<llvm::StringRef> Paths;
  for (const auto &Entry : Fixes)
    Paths.push_back(Entry.getKey());
  llvm::sort(Paths);
  for (llvm::StringRef Path : Paths) {
    auto Hash = Set.FileHashes.find(Path);
    llvm::Expected<std::string> Original = readUnchanged(
        Path, Hash == Set.FileHashes.end() ? "" : llvm::StringRef(Hash->second));
    llvm::Expected<std::string> Fixed =
        Original ? tooling::applyAllReplacements(*Original, Fixes[Path])
                 : Original.takeError();
    if (!Fixed) {
      Plan.Errors.push_back(llvm::toString(Fixed.takeError()));
      Plan.RefusedFiles.insert(Path);
      continue;
    }
    Plan.Files.push_back({Path.str(), std::move(*Original), std::move(*Fixed)});
  }
  // Two names for one file (a link, or a header included by two spellings):
  // written once if both agree, else not at all.
  std::map<fs::UniqueID, std::vector<size_t>> Names;
  for (size_t I = 0; I < Plan.Files.size(); ++I) {
    fs::UniqueID ID;
    if (!fs::getUniqueID(Plan.Files[I].Path, ID))
      Names[ID].push_back(I);
  }
  std::vector<std::pair<std::string, std::string>> Refusals;
  std::set<size_t> Duplicates;
  for (const auto &Entry : Names) {
    const std::vector<size_t> &Same = Entry.second;
    for (size_t I : llvm::drop_begin(Same)) {
      const PlannedFile &First = Plan.Files[Same.front()], &Other = Plan.Files[I];
      if (Other.Fixed == First.Fixed) {
        Duplicates.insert(I);
        continue;
      }
      std::string Why = "'" + First.Path + "' and '" + Other.Path +
                        "' are one file, which their fixes would change "
                        "differently; not rewritten";
      Refusals.push_back({First.Path, Why});
      Refusals.push_back({Other.Path, Why});
    }
  }
  for (auto It = Duplicates.rbegin(); It != Duplicates.rend(); ++It)
    Plan.Files.erase(Plan.Files.begin() + *It);
  for (auto &[Path, Why] : Refusals)
    Plan.refuse(Path, std::move(Why));
  return Plan;
}

ApplyOutcome writeFixes(FixPlan Plan) {
  ApplyOutcome Outcome;
  Outcome.Errors = std::move(Plan.Errors);
  Outcome.RefusedFiles = std::move(Plan.RefusedFiles);
  for (const PlannedFile &File : Plan.Files) {
    // Checked again: verifying the plan may have taken a while.
    llvm::Expected<std::string> Current =
        readUnchanged(File.Path, contentHash(File.Original));
    llvm::Error Failure = Current ? replaceFileContent(File.Path, File.Fixed)
                                  : Current.takeError();
    if (Failure) {
      Outcome.Errors.push_back(llvm::toString(std::move(Failure)));
      Outcome.RefusedFiles.insert(File.Path);
    } else {
      ++Outcome.FilesWritten;
    }
  }
  return Outcome;
}

namespace {

struct LineTable {
  explicit LineTable(llvm::StringRef Text) : Text(Text) {
    Starts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Starts.push_back(I + 1);
    if (Starts.back() == Text.size() && Starts.size() > 1)
      Starts.pop_back();
  }
  unsigned lineOf(unsigned Offset) const {
    return std::upper_bound(Starts.begin(), Starts.end(), Offset) -
           Starts.begin() - 1;
  }
  /// The line of R's last byte; an insertion's own line.
  unsigned lastLineOf(const tooling::Replacement &R) const {
    return lineOf(R.getOffset() + R.getLength() - (R.getLength() ? 1 : 0));
  }
  unsigned count() const { return Starts.size(); }
  unsigned begin(unsigned Line) const { return Starts[Line]; }
  unsigned end(unsigned Line) const {
    return Line + 1 < Starts.size() ? Starts[Line + 1] : Text.size();
  }
  /// The line's text without its newline.
  llvm::StringRef line(unsigned Line) const {
    llvm::StringRef L = Text.slice(begin(Line), end(Line));
    L.consume_back("\n");
    return L;
  }
  /// Whether Line is the last and has no newline.
  bool unterminated(unsigned Line) const {
    return Line + 1 == count() && !Text.ends_with("\n");
  }
  llvm::StringRef Text;
  std::vector<unsigned> Starts;
};

std::vector<llvm::StringRef> splitLines(llvm::StringRef Block) {
  std::vector<llvm::StringRef> Out;
  while (!Block.empty()) {
    auto [Line, Rest] = Block.split('\n');
    Out.push_back(Line);
    Block = Rest;
  }
  return Out;
}

/// Writes one hunk's body straight from the edits, counting its lines for the
/// header. Lines no edit touches are context. Each block of lines that edits
/// touch turns into its old lines, removed, and its new ones, added, less the
/// lines that start or end both alike (a declaration inserted before a
/// statement leaves the statement as context); between two context lines all
/// removals come first. For the edits warpfix makes, that is what a longest
/// common subsequence prints, at a cost linear in the hunk.
class HunkWriter {
public:
  HunkWriter(const LineTable &Lines, unsigned First)
      : Lines(Lines), Next(First) {}

  /// Old lines [First, Last], which the edits turn into NewText.
  void block(unsigned First, unsigned Last, llvm::StringRef NewText) {
    contextUpTo(First);
    std::vector<llvm::StringRef> New = splitLines(NewText);
    size_t OldSize = Last - First + 1, Head = 0, Tail = 0;
    while (Head < OldSize && Head < New.size() &&
           Lines.line(First + Head) == New[Head])
      ++Head;
    while (Tail < OldSize - Head && Tail < New.size() - Head &&
           Lines.line(Last - Tail) == New[New.size() - 1 - Tail])
      ++Tail;
    contextUpTo(First + Head);
    for (size_t I = Head; I + Tail < OldSize; ++I)
      line(Removed, '-', Lines.line(First + I), Lines.unterminated(First + I));
    // Fixes never touch the final newline: the new side lacks one where the
    // old side does.
    for (size_t I = Head; I + Tail < New.size(); ++I)
      line(Added, '+', New[I], Lines.unterminated(Last) && I + 1 == New.size());
    OldCount += OldSize - Head - Tail;
    NewCount += New.size() - Head - Tail;
    Next = Last - Tail + 1;
    contextUpTo(Last + 1);
  }

  /// Context lines from the last one written up to (without) End.
  void contextUpTo(unsigned End) {
    if (Next >= End)
      return;
    flush();
    for (; Next < End; ++Next) {
      line(Body, ' ', Lines.line(Next), Lines.unterminated(Next));
      ++OldCount;
      ++NewCount;
    }
  }

  /// The body, once every line has been given.
  const std::string &body() {
    flush();
    return Body;
  }

  unsigned OldCount = 0, NewCount = 0;

private:
  static void line(std::string &To, char Kind, llvm::StringRef Text,
                   bool Unterminated) {
    To += Kind;
    To += Text;
    To += '\n';
    if (Unterminated)
      To += "\\ No newline at end of file\n";
  }

  void flush() {
    Body += Removed;
    Body += Added;
    Removed.clear();
    Added.clear();
  }

  const LineTable &Lines;
  unsigned Next;
  std::string Body, Removed, Added;
};

/// A name on a ---/+++ line, written as git writes it, which both git apply
/// and GNU patch read back: C-quoted when it holds a quote, a backslash, a
/// control character or a byte outside ASCII (git's core.quotePath); else
/// followed by a tab when it holds a space, which patch would otherwise
/// take for the end of the name.
std::string diffHeaderName(llvm::StringRef Name) {
  bool NeedsQuotes = llvm::any_of(Name, [](unsigned char C) {
    return C == '"' || C == '\\' || C < 0x20 || C >= 0x7f;
  });
  if (!NeedsQuotes)
    return Name.contains(' ') ? (Name + "\t").str() : Name.str();
  std::string Quoted = "\"";
  for (unsigned char C : Name) {
    switch (C) {
    case '"': Quoted += "\\\""; break;
    case '\\': Quoted += "\\\\"; break;
    case '\a': Quoted += "\\a"; break;
    case '\b': Quoted += "\\b"; break;
    case '\t': Quoted += "\\t"; break;
    case '\n': Quoted += "\\n"; break;
    case '\v': Quoted += "\\v"; break;
    case '\f': Quoted += "\\f"; break;
    case '\r': Quoted += "\\r"; break;
    default:
      if (C < 0x20 || C >= 0x7f) {
        llvm::raw_string_ostream(Quoted) << '\\' << llvm::format("%03o", C);
      } else {
        Quoted += char(C);
      }
    }
  }
  return Quoted + "\"";
}

/// A diff built from the replacements themselves (sorted, not overlapping):
/// each hunk is the lines the edits touch, widened by three lines of context
/// and merged with the next when they meet.
void diffOneFile(llvm::StringRef Path, llvm::StringRef Original,
                 const tooling::Replacements &Edits, llvm::raw_ostream &OS) {
  const unsigned Context = 3;
  LineTable Lines(Original);
  struct Hunk {
    unsigned First, Last; // lines, context included
    tooling::Replacements::const_iterator Begin, End; // its edits
  };
  std::vector<Hunk> Hunks;
  for (auto It = Edits.begin(); It != Edits.end(); ++It) {
    unsigned First = Lines.lineOf(It->getOffset());
    unsigned Last = Lines.lastLineOf(*It);
    First = First > Context ? First - Context : 0;
    Last = std::min(Last + Context, Lines.count() - 1);
    if (!Hunks.empty() && First <= Hunks.back().Last + 1) {
      Hunks.back().Last = std::max(Hunks.back().Last, Last);
      Hunks.back().End = std::next(It);
    } else {
      Hunks.push_back({First, Last, It, std::next(It)});
    }
  }
  // git's a/ b/ convention, relative to the working directory where possible,
  // so that both `git apply` and `patch -p1` take the diff as it is.
  if (std::optional<llvm::StringRef> Shown = belowCurrentDirectory(Path))
    OS << "--- " << diffHeaderName("a/" + Shown->str()) << "\n+++ "
       << diffHeaderName("b/" + Shown->str()) << "\n";
  else
    OS << "--- " << diffHeaderName(Path) << "\n+++ " << diffHeaderName(Path)
       << "\n";
  int Shift = 0;
  for (const Hunk &H : Hunks) {
    HunkWriter Writer(Lines, H.First);
    for (auto It = H.Begin; It != H.End;) {
      // A block: the edits that share lines.
      unsigned First = Lines.lineOf(It->getOffset());
      unsigned Last = Lines.lastLineOf(*It);
      std::string New;
      unsigned Copied = Lines.begin(First);
      for (; It != H.End && Lines.lineOf(It->getOffset()) <= Last; ++It) {
        Last = std::max(Last, Lines.lastLineOf(*It));
        New += Original.slice(Copied, It->getOffset());
        New += It->getReplacementText();
        Copied = It->getOffset() + It->getLength();
      }
      New += Original.slice(Copied, Lines.end(Last));
      Writer.block(First, Last, New);
    }
    Writer.contextUpTo(H.Last + 1);
    OS << "@@ -" << H.First + 1 << "," << Writer.OldCount << " +"
       << H.First + 1 + Shift << "," << Writer.NewCount << " @@\n"
       << Writer.body();
    Shift += int(Writer.NewCount) - int(Writer.OldCount);
  }
}

} // namespace

std::string diffApplyingAdvice(const FixPlan &Plan) {
  size_t Outside = llvm::count_if(Plan.Files, [](const PlannedFile &File) {
    return !belowCurrentDirectory(File.Path);
  });
  if (!Outside)
    return "";
  return std::to_string(Outside) + " of the files the diff changes " +
           (Outside == 1 ? "lies" : "lie") +
           " outside the working directory and " +
           (Outside == 1 ? "is named by its absolute path"
                         : "are named by their absolute paths") +
           ", which neither `git apply` nor `patch -p1` takes; run warpfix "
           "from a folder that holds every file it fixes";
}

void writeUnifiedDiff(const FindingSet &Set, const FixPlan &Plan,
                      llvm::raw_ostream &OS) {
  llvm::StringMap<tooling::Replacements> Fixes = collectFixes(Set);
  for (const PlannedFile &File : Plan.Files)
    diffOneFile(File.Path, File.Original, Fixes[File.Path], OS);
}

namespace {

/// The edit of Merged (sorted, not overlapping) that R went into when the
/// fixes were merged: R itself, an insertion at R's offset that holds R
/// among others, or an edit whose range holds R's. Nothing if none does,
/// which collectFixes never leaves.
std::optional<size_t> holderOf(llvm::ArrayRef<tooling::Replacement> Merged,
                const tooling::Replacement &R) {
  unsigned Begin = R.getOffset(), End = Begin + R.getLength();
  auto It = llvm::upper_bound(Merged, Begin,
                              [](unsigned Offset, const tooling::Replacement &M) {
                                return Offset < M.getOffset();
                              });
  // The edits that start at or before R do not overlap, so their ends
  // shrink as the scan goes back.
  while (It != Merged.begin()) {
    --It;
    unsigned MBegin = It->getOffset(), MEnd = MBegin + It->getLength();
    if (MEnd < Begin)
      break;
    bool Holds = R.getLength() == 0
                     ? (It->getLength() == 0 && MBegin == Begin) ||
                           (MBegin < Begin && Begin < MEnd)
                     : It->getLength() != 0 && MBegin <= Begin && End <= MEnd;
    if (Holds)
      return It - Merged.begin();
  }
  return std::nullopt;
}

} // namespace

llvm::Error exportFixes(const FindingSet &Set, const FixPlan &Plan,
                        llvm::StringRef Path) {
  // clang-apply-replacements merges identical edits only across translation
  // units, and refuses two insertions at one offset: each finding carrying
  // its own copy of a shared edit (a hoisted ballot) would insert it twice.
  // So the YAML holds the edits --fix writes, each once, given to the first
  // finding that makes it; a later one says where its shared edits went.
  llvm::StringMap<tooling::Replacements> Fixes = collectFixes(Set);
  struct MergedFile {
    std::vector<tooling::Replacement> Edits;
    /// The finding each edit went to.
    std::vector<std::optional<size_t>> Owner;
  };
  llvm::StringMap<MergedFile> Written;
  for (const PlannedFile &File : Plan.Files) {
    MergedFile &Merged = Written[File.Path];
    Merged.Edits.assign(Fixes[File.Path].begin(), Fixes[File.Path].end());
    Merged.Owner.resize(Merged.Edits.size());
  }
  tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = "";
  TUD.Diagnostics = Set.Findings;
  for (size_t Index = 0; Index < TUD.Diagnostics.size(); ++Index) {
    tooling::Diagnostic &D = TUD.Diagnostics[Index];
    llvm::StringMap<tooling::Replacements> Own;
    std::optional<size_t> SharesWith;
    for (const auto &Entry : D.Message.Fix) {
      auto File = Written.find(Entry.getKey());
      if (File == Written.end())
        continue;
      MergedFile &Merged = File->second;
      for (const tooling::Replacement &R : Entry.second) {
        std::optional<size_t> I = holderOf(Merged.Edits, R);
        if (!I)
          return llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              "internal error: an edit of '%s' at offset %u is in no merged "
              "fix; nothing exported",
              Entry.getKey().str().c_str(), R.getOffset());
        if (Merged.Owner[*I]) {
          if (*Merged.Owner[*I] != Index && !SharesWith)
            SharesWith = Merged.Owner[*I];
          continue;
        }
        Merged.Owner[*I] = Index;
        // A subset of edits that do not overlap, so nothing merges.
        llvm::cantFail(Own[Entry.getKey()].add(Merged.Edits[*I]));
      }
    }
    D.Message.Fix = std::move(Own);
    if (SharesWith) {
      const tooling::DiagnosticMessage &Owner =
          TUD.Diagnostics[*SharesWith].Message;
      tooling::DiagnosticMessage Note;
      Note.Message = SharedEditsNote.str();
      Note.FilePath = Owner.FilePath;
      Note.FileOffset = Owner.FileOffset;
      D.Notes.push_back(std::move(Note));
    }
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, fs::OF_TextWithCRLF);
  if (EC)
    return llvm::createStringError(EC, "cannot write '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  llvm::yaml::Output YAML(OS);
  YAML << TUD;
  return llvm::Error::success();
}

} // namespace warpfix
