#include "tool/FixWriter.h"
#include "checks/FindingSink.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"

using namespace clang;
namespace fs = llvm::sys::fs;

namespace warpfix {

llvm::StringMap<tooling::Replacements> collectFixes(const FindingSet &Set) {
  llvm::StringMap<tooling::Replacements> Fixes;
  for (const tooling::Diagnostic &D : Set.Findings)
    for (const auto &Entry : D.Message.Fix)
      for (const tooling::Replacement &R : Entry.second)
        // mergeFindings already dropped every fix that overlaps another;
        // identical edits shared by several findings are made once.
        if (!containsReplacement(Fixes[Entry.getKey()], R))
          llvm::cantFail(Fixes[Entry.getKey()].add(R));
  return Fixes;
}

namespace {

/// The file's current content, checked against the hash taken when it was
/// parsed, so that an edit made meanwhile is never overwritten.
llvm::Expected<std::string> readUnchanged(const FindingSet &Set,
                                          llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                   Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  std::string Content = (*Buffer)->getBuffer().str();
  auto Hash = Set.FileHashes.find(Path);
  if (Hash == Set.FileHashes.end() || Hash->second.empty() ||
      Hash->second != contentHash(Content))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "'%s' changed on disk after it was analysed; not rewritten (run "
        "warpfix again)",
        Path.str().c_str());
  return Content;
}

llvm::Error writeAtomically(llvm::StringRef Path, llvm::StringRef Content) {
  fs::file_status Status;
  if (std::error_code EC = fs::status(Path, Status))
    return llvm::createStringError(EC, "cannot stat '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  // The mode bits are checked as well as access(): root may write anywhere,
  // but a file nobody may write is one its owner meant to keep as it is.
  if (fs::access(Path, fs::AccessMode::Write) ||
      (Status.permissions() & fs::all_write) == 0)
    return llvm::createStringError(
        std::make_error_code(std::errc::permission_denied),
        "'%s' is not writable; not rewritten", Path.str().c_str());
  llvm::SmallString<256> Temp;
  int FD = -1;
  llvm::SmallString<256> Model(Path);
  Model += ".warpfix-%%%%%%";
  if (std::error_code EC = fs::createUniqueFile(Model, FD, Temp))
    return llvm::createStringError(EC,
                                   "cannot create a temporary file next to "
                                   "'%s': %s; not rewritten",
                                   Path.str().c_str(), EC.message().c_str());
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Content;
    Out.close();
    if (Out.has_error()) {
      std::error_code EC = Out.error();
      Out.clear_error();
      fs::remove(Temp);
      return llvm::createStringError(EC, "cannot write '%s': %s",
                                     Temp.c_str(), EC.message().c_str());
    }
  }
  if (std::error_code EC = fs::setPermissions(Temp, Status.permissions())) {
    fs::remove(Temp);
    return llvm::createStringError(EC, "cannot set the mode of '%s': %s",
                                   Temp.c_str(), EC.message().c_str());
  }
  if (std::error_code EC = fs::rename(Temp, Path)) {
    fs::remove(Temp);
    return llvm::createStringError(EC, "cannot replace '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

} // namespace

ApplyOutcome applyFixesInPlace(const FindingSet &Set,
                               llvm::function_ref<void()> BeforeWrite) {
  ApplyOutcome Outcome;
  llvm::StringMap<tooling::Replacements> Fixes = collectFixes(Set);
  if (!Fixes.empty() && BeforeWrite)
    BeforeWrite();
  for (const auto &Entry : Fixes) {
    llvm::StringRef Path = Entry.getKey();
    llvm::Error Failure = [&]() -> llvm::Error {
      llvm::Expected<std::string> Original = readUnchanged(Set, Path);
      if (!Original)
        return Original.takeError();
      llvm::Expected<std::string> Fixed =
          tooling::applyAllReplacements(*Original, Entry.second);
      if (!Fixed)
        return Fixed.takeError();
      return writeAtomically(Path, *Fixed);
    }();
    if (Failure) {
      Outcome.Errors.push_back(llvm::toString(std::move(Failure)));
      Outcome.RefusedFiles.insert(Path);
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
  unsigned count() const { return Starts.size(); }
  unsigned begin(unsigned Line) const { return Starts[Line]; }
  unsigned end(unsigned Line) const {
    return Line + 1 < Starts.size() ? Starts[Line + 1] : Text.size();
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

/// Emits one hunk body, matching unchanged lines with a longest common
/// subsequence so that they print as context rather than as -/+ pairs.
void emitHunkBody(llvm::StringRef Old, llvm::StringRef New,
                  llvm::raw_ostream &OS) {
  std::vector<llvm::StringRef> A = splitLines(Old), B = splitLines(New);
  std::vector<std::vector<unsigned>> Common(
      A.size() + 1, std::vector<unsigned>(B.size() + 1, 0));
  for (size_t I = A.size(); I-- > 0;)
    for (size_t J = B.size(); J-- > 0;)
      Common[I][J] = A[I] == B[J] ? Common[I + 1][J + 1] + 1
                                  : std::max(Common[I + 1][J], Common[I][J + 1]);
  size_t I = 0, J = 0;
  while (I < A.size() || J < B.size()) {
    if (I < A.size() && J < B.size() && A[I] == B[J]) {
      OS << ' ' << A[I++] << '\n';
      ++J;
    } else if (I < A.size() &&
               (J == B.size() || Common[I + 1][J] >= Common[I][J + 1])) {
      OS << '-' << A[I++] << '\n';
    } else {
      OS << '+' << B[J++] << '\n';
    }
  }
  // Fixes never touch the final newline, so old and new agree on it.
  if (!Old.empty() && !Old.ends_with("\n"))
    OS << "\\ No newline at end of file\n";
}

/// A diff built from the replacements themselves: each hunk is the lines the
/// edits touch, widened by three lines of context and merged when they meet.
void diffOneFile(llvm::StringRef Path, llvm::StringRef Original,
                 const tooling::Replacements &Edits, llvm::raw_ostream &OS) {
  const unsigned Context = 3;
  LineTable Lines(Original);
  std::vector<std::pair<unsigned, unsigned>> Hunks; // [first, last] lines
  for (const tooling::Replacement &R : Edits) {
    unsigned First = Lines.lineOf(R.getOffset());
    unsigned Last = Lines.lineOf(R.getOffset() + R.getLength() -
                                 (R.getLength() ? 1 : 0));
    First = First > Context ? First - Context : 0;
    Last = std::min(Last + Context, Lines.count() - 1);
    if (!Hunks.empty() && First <= Hunks.back().second + 1)
      Hunks.back().second = std::max(Hunks.back().second, Last);
    else
      Hunks.push_back({First, Last});
  }
  // git's a/ b/ convention, relative to the working directory where possible,
  // so that both `git apply` and `patch -p1` take the diff as it is.
  llvm::SmallString<256> Cwd;
  fs::current_path(Cwd);
  llvm::StringRef Shown = Path;
  if (Shown.consume_front(Cwd) && Shown.consume_front("/"))
    OS << "--- a/" << Shown << "\n+++ b/" << Shown << "\n";
  else
    OS << "--- " << Path << "\n+++ " << Path << "\n";
  int Shift = 0;
  for (auto [First, Last] : Hunks) {
    unsigned Begin = Lines.begin(First), End = Lines.end(Last);
    tooling::Replacements Local;
    for (const tooling::Replacement &R : Edits)
      if (R.getOffset() >= Begin && R.getOffset() + R.getLength() <= End)
        llvm::cantFail(Local.add(tooling::Replacement(
            Path, R.getOffset() - Begin, R.getLength(),
            R.getReplacementText())));
    llvm::StringRef Old = Original.slice(Begin, End);
    std::string New = llvm::cantFail(tooling::applyAllReplacements(Old, Local));
    unsigned OldCount = Last - First + 1;
    unsigned NewCount = llvm::StringRef(New).count('\n') +
                        (New.empty() || New.back() == '\n' ? 0 : 1);
    OS << "@@ -" << First + 1 << "," << OldCount << " +"
       << First + 1 + Shift << "," << NewCount << " @@\n";
    Shift += int(NewCount) - int(OldCount);
    emitHunkBody(Old, New, OS);
  }
}

} // namespace

void writeUnifiedDiff(const FindingSet &Set, llvm::raw_ostream &OS) {
  llvm::StringMap<tooling::Replacements> Fixes = collectFixes(Set);
  // By path: a StringMap's order is its hash's, not the same from run to run.
  std::vector<llvm::StringRef> Files;
  for (const auto &Entry : Fixes)
    Files.push_back(Entry.getKey());
  llvm::sort(Files);
  for (llvm::StringRef File : Files) {
    auto Buffer = llvm::MemoryBuffer::getFile(File, false, false);
    if (!Buffer)
      continue;
    diffOneFile(File, (*Buffer)->getBuffer(), Fixes[File], OS);
  }
}

llvm::Error exportFixes(const FindingSet &Set, llvm::StringRef Path) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, fs::OF_TextWithCRLF);
  if (EC)
    return llvm::createStringError(EC, "cannot write '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = "";
  TUD.Diagnostics = Set.Findings;
  llvm::yaml::Output YAML(OS);
  YAML << TUD;
  return llvm::Error::success();
}

} // namespace warpfix
