#include "tool/run/SharedPreambles.h"
#include "tool/run/PreambleProcess.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"

using namespace clang;

namespace warpfix {

struct SharedPreambles::Preamble {
  /// What its build process reported; WhyNot empty when it may be shared.
  BuiltPreamble Built;
  /// Where the PCH is, while this preamble lives; empty when there is none.
  std::string PCHPath;
  /// The main file of the unit that built it, absolute.
  std::string BuiltFrom;

  Preamble() = default;
  Preamble(const Preamble &) = delete;
  Preamble &operator=(const Preamble &) = delete;
  ~Preamble() {
    if (PCHPath.empty())
      return;
    llvm::sys::fs::remove(PCHPath);
    llvm::sys::DontRemoveFileOnSignal(PCHPath);
  }
};

const std::vector<FileDigest> &SharedPreambles::Use::files() const {
  return Shared->Built.Files;
}

const std::vector<std::string> &SharedPreambles::Use::readPaths() const {
  return Shared->Built.ReadPaths;
}

llvm::StringRef SharedPreambles::Use::builtFrom() const {
  return Shared->BuiltFrom;
}

size_t shareablePreambleLength(llvm::StringRef Text) {
  size_t I = 0, Bound = 0, N = Text.size();
  auto EndOfLine = [&](size_t From) {
    size_t E = Text.find('\n', From);
    return E == llvm::StringRef::npos ? N : E;
  };
  // A line comment continued by a backslash, or anything else clang would
  // read differently from this scan, ends the shareable part.
  auto PlainLineComment = [&](size_t From, size_t To) {
    return !Text.substr(From, To - From).rtrim("\r").ends_with("\\");
  };
  while (I < N) {
    char C = Text[I];
    if (C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == '\f' ||
        C == '\v') {
      ++I;
      continue;
    }
    if (Text.substr(I).starts_with("//")) {
      size_t E = EndOfLine(I);
      if (!PlainLineComment(I, E))
        return Bound;
      I = E;
      continue;
    }
    if (Text.substr(I).starts_with("/*")) {
      size_t E = Text.find("*/", I + 2);
      if (E == llvm::StringRef::npos)
        return Bound;
      I = E + 2;
      continue;
    }
    if (C != '#')
      return Bound;
    // '#' [ \t]* include [ \t]* <name> [ \t]* (// comment)? \n
    size_t E = EndOfLine(I);
    if (E == N)
      return Bound;
    llvm::StringRef Line = Text.substr(I + 1, E - I - 1).rtrim("\r");
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("include"))
      return Bound;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("<"))
      return Bound;
    size_t Close = Line.find('>');
    if (Close == llvm::StringRef::npos || Close == 0)
      return Bound;
    Line = Line.drop_front(Close + 1).ltrim(" \t");
    if (!Line.empty() &&
        !(Line.starts_with("//") && !Line.ends_with("\\")))
      return Bound;
    I = E + 1;
    Bound = I;
  }
  return Bound;
}

namespace {

std::string keyOf(const CompilerInvocation &Invocation,
                  llvm::StringRef WorkingDirectory,
                  llvm::StringRef PreambleText) {
  // What names the main file is left out; each unit keeps its own.
  CompilerInvocation Shared(Invocation);
  Shared.getFrontendOpts().Inputs.clear();
  Shared.getCodeGenOpts().MainFileName.clear();
  Shared.getCodeGenOpts().DebugCompilationDir.clear();
  Shared.getCodeGenOpts().CoverageCompilationDir.clear();
  Shared.getLangOpts().CUID.clear();
  llvm::SHA256 Hash;
  auto Add = [&](llvm::StringRef S) {
    Hash.update(S);
    Hash.update(llvm::StringRef("\0", 1));
  };
  Add(getClangFullVersion());
  Add(WorkingDirectory);
  for (const std::string &Arg : Shared.getCC1CommandLine())
    Add(Arg);
  Add(PreambleText);
  std::array<uint8_t, 32> Digest = Hash.final();
  return llvm::toHex(Digest);
}

/// Whether every file the preamble read still holds what it read.
bool unchanged(const SharedPreambles::Preamble &P, llvm::vfs::FileSystem &FS) {
  for (const auto &[Path, Fingerprint] : P.Built.Fingerprints) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Now =
        FS.getBufferForFile(Path, -1, /*RequiresNullTerminator=*/false);
    if (!Now || llvm::xxh3_64bits((*Now)->getBuffer()) != Fingerprint)
      return false;
  }
  return true;
}

/// Builds the preamble of Invocation's main file in a child process, into a
/// temporary file that the preamble owns.
std::shared_ptr<SharedPreambles::Preamble>
build(const CompilerInvocation &Invocation, llvm::StringRef WorkingDirectory,
      llvm::StringRef Builder) {
  auto Out = std::make_shared<SharedPreambles::Preamble>();
  const FrontendOptions &Frontend = Invocation.getFrontendOpts();
  llvm::SmallString<256> From(Frontend.Inputs[0].getFile());
  llvm::sys::fs::make_absolute(WorkingDirectory, From);
  llvm::sys::path::remove_dots(From, /*remove_dot_dot=*/false);
  Out->BuiltFrom = std::string(From);
  llvm::SmallString<128> Temp, PCHPath;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Temp);
  llvm::sys::path::append(Temp, "warpfix-preamble-%%%%%%%%%%%%.pch");
  llvm::sys::fs::createUniquePath(Temp, PCHPath, /*MakeAbsolute=*/false);
  // Removed with the preamble, or by the signal that ends the run early.
  Out->PCHPath = std::string(PCHPath);
  llvm::sys::RemoveFileOnSignal(PCHPath);
  Out->Built =
      buildPreambleInChildProcess(Invocation, WorkingDirectory, PCHPath, Builder);
  if (Out->Built.WhyNot.empty() && !llvm::sys::fs::exists(PCHPath))
    Out->Built.WhyNot = "its build process left no PCH";
  return Out;
}

} // namespace

void SharedPreambles::report(llvm::StringRef MainFile,
                             llvm::StringRef What) {
  if (!Report)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  *Report << "warpfix: preamble of " << MainFile << ": " << What << "\n";
  Report->flush();
}

std::optional<SharedPreambles::Use>
SharedPreambles::attach(CompilerInvocation &Invocation, FileManager &Files) {
  const FrontendOptions &Frontend = Invocation.getFrontendOpts();
  if (Frontend.Inputs.size() != 1 || !Frontend.Inputs[0].isFile() ||
      !Invocation.getPreprocessorOpts().ImplicitPCHInclude.empty() ||
      !Invocation.getPreprocessorOpts().RemappedFiles.empty() ||
      !Invocation.getPreprocessorOpts().RemappedFileBuffers.empty())
    return std::nullopt;
  llvm::vfs::FileSystem &FS = Files.getVirtualFileSystem();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Main =
      FS.getBufferForFile(Frontend.Inputs[0].getFile());
  if (!Main)
    return std::nullopt;
  PreambleBounds Bounds(shareablePreambleLength((*Main)->getBuffer()),
                        /*PreambleEndsAtStartOfLine=*/true);
  llvm::ErrorOr<std::string> Cwd = FS.getCurrentWorkingDirectory();
  if (!Cwd)
    return std::nullopt;
  llvm::StringRef PreambleText = (*Main)->getBuffer().take_front(Bounds.Size);
  std::string Key = keyOf(Invocation, *Cwd, PreambleText);

  std::shared_ptr<const Preamble> Found;
  for (;;) {
    std::promise<std::shared_ptr<const Preamble>> Mine;
    std::shared_ptr<Slot> Current;
    bool Build = false;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      std::shared_ptr<Slot> &InMap = Preambles[Key];
      if (!InMap) {
        InMap = std::make_shared<Slot>(Slot{Mine.get_future().share()});
        Build = true;
      }
      Current = InMap;
    }
    if (Build)
      Mine.set_value(build(Invocation, *Cwd, Builder));
    Found = Current->Ready.get();
    if (!Found->Built.WhyNot.empty()) {
      report(Frontend.Inputs[0].getFile(), "not shared: " + Found->Built.WhyNot);
      return std::nullopt;
    }
    // In place of PrecompiledPreamble::CanReuse, which lives in the child.
    // The key holds the preamble's text as this unit read it; the build
    // read it again, in another process. Content hashes stand in for its
    // sizes and times. Its check that a header missing at the build is
    // still missing has nothing to check: a missing #include is an error,
    // and a preamble whose build reported anything is not shared. A PCH
    // that has gone (a cleaner of the temporary directory) is built again,
    // like one whose headers changed.
    if (Found->Built.PreambleBytes == Bounds.Size &&
        Found->Built.PreambleHash == llvm::xxh3_64bits(PreambleText) &&
        unchanged(*Found, FS) && llvm::sys::fs::exists(Found->PCHPath)) {
      report(Frontend.Inputs[0].getFile(), Build ? "built" : "reused");
      break;
    }
    if (Build) {
      report(Frontend.Inputs[0].getFile(),
             "not shared: a file it read changed while it was built");
      return std::nullopt;
    }
    // A file it read has changed since: the first unit to see that builds
    // it again, and units that come meanwhile wait for that build.
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Preambles.find(Key);
    if (It != Preambles.end() && It->second == Current)
      Preambles.erase(It);
  }

  Use Out{Found, std::move(*Main)};
  // What PrecompiledPreamble::AddImplicitPreamble sets up for a PCH on disk.
  PreprocessorOptions &Preprocessor = Invocation.getPreprocessorOpts();
  Preprocessor.addRemappedFile(Frontend.Inputs[0].getFile(), Out.MainFile.get());
  // The buffer stays this unit's (the parse must not free it).
  Preprocessor.RetainRemappedFileBuffers = true;
  Preprocessor.PrecompiledPreambleBytes = {Bounds.Size,
                                           Bounds.PreambleEndsAtStartOfLine};
  Preprocessor.DisablePCHOrModuleValidation =
      DisableValidationForModuleKind::PCH;
  // The preamble's predefines replace the unit's.
  Preprocessor.UsePredefines = false;
  Preprocessor.ImplicitPCHInclude = Found->PCHPath;
  return Out;
}

} // namespace warpfix
