#include "tool/run/SharedPreambles.h"
#include "support/FileIdentity.h"
#include "tool/run/ArchDependence.h"
#include "tool/run/HostBodies.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/xxhash.h"

using namespace clang;

namespace warpfix {

struct SharedPreambles::Preamble {
  /// Empty when this preamble must not be shared (WhyNot says why).
  std::optional<PrecompiledPreamble> Compiled;
  std::string WhyNot;
  /// Its PCH, as a unit's invocation names it.
  std::string PCHPath;
  /// The preamble of the implicit headers that this one's PCH is chained
  /// on, if any: its PCH must live as long as this one's.
  std::shared_ptr<const Preamble> Base;
  /// Every file it read, by the name clang opened it with (as the result
  /// cache names dependencies), with the SHA-256 of what it read; its base's
  /// files included.
  std::vector<FileDigest> Files;
  std::vector<std::string> ReadPaths;
  /// Its own files (not its base's, which attach() checks first) with a fast
  /// hash of their content, compared before each use.
  /// PrecompiledPreamble::CanReuse compares sizes and modification times
  /// only, which miss an edit of the same size within a second.
  std::vector<std::pair<std::string, uint64_t>> Fingerprints;
  /// The main files of the units that built it and its base, absolute.
  std::vector<std::string> BuiltFrom;
  /// Its macros, and its base's, whose values depend on the architecture.
  std::vector<std::string> ArchMacros;
};

const std::vector<std::string> &SharedPreambles::Use::archMacros() const {
  return Shared->ArchMacros;
}

const std::vector<FileDigest> &SharedPreambles::Use::files() const {
  return Shared->Files;
}

const std::vector<std::string> &SharedPreambles::Use::readPaths() const {
  return Shared->ReadPaths;
}

const std::vector<std::string> &SharedPreambles::Use::builtFrom() const {
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

/// Whether a file that clang opened as user code declares itself a system
/// header before it says anything: only comments and `#pragma once` come
/// before its `#pragma clang system_header` (warpfix's own compat header,
/// forced in with -include, is such a file). A NOLINT comment there would
/// be read as user code, so it disqualifies the file.
bool systemFromTheStart(llvm::StringRef Text) {
  size_t I = 0, N = Text.size();
  while (I < N) {
    char C = Text[I];
    if (llvm::isSpace(C)) {
      ++I;
      continue;
    }
    if (Text.substr(I).starts_with("//") || Text.substr(I).starts_with("/*")) {
      bool Line = Text[I + 1] == '/';
      size_t E = Line ? Text.find('\n', I) : Text.find("*/", I);
      if (E == llvm::StringRef::npos)
        return false;
      llvm::StringRef Comment = Text.slice(I, E);
      if (Comment.contains("NOLINT") ||
          (Line && Comment.rtrim("\r").ends_with("\\")))
        return false;
      I = Line ? E : E + 2;
      continue;
    }
    size_t E = Text.find('\n', I);
    if (E == llvm::StringRef::npos)
      E = N;
    llvm::SmallVector<llvm::StringRef, 4> Words;
    Text.slice(I, E).split(Words, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef &W : Words)
      W = W.trim();
    if (Words.size() == 2 && Words[0] == "#pragma" && Words[1] == "once") {
      I = E;
      continue;
    }
    return Words.size() == 3 && Words[0] == "#pragma" && Words[1] == "clang" &&
           Words[2] == "system_header";
  }
  return false;
}

/// Counts every diagnostic the preamble's build reports: a preamble that
/// says anything is not shared, so that each unit reports it itself.
class CountingConsumer : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level != DiagnosticsEngine::Ignored)
      ++Count;
  }
  unsigned Count = 0;
};

/// Records what the preamble read, and whether all of it is system code.
class RecordingCallbacks : public PreambleCallbacks {
public:
  RecordingCallbacks(SharedPreambles::Preamble &Out,
                     llvm::ArrayRef<std::string> ToolchainRoots,
                     llvm::ArrayRef<std::string> BaseArchMacros)
      : Out(Out), ToolchainRoots(ToolchainRoots),
        BaseArchMacros(BaseArchMacros) {}

  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    auto Recorder = std::make_unique<ArchDependenceRecorder>(
        Instance->getPreprocessor(), BaseArchMacros, /*UserCode=*/false);
    ArchRecorder = Recorder.get();
    return Recorder;
  }

  void AfterExecute(CompilerInstance &CI) override {
    if (ArchRecorder)
      Out.ArchMacros = ArchRecorder->archMacros();
    const SourceManager &SM = CI.getSourceManager();
    FileID Main = SM.getMainFileID();
    for (unsigned I = 0, E = SM.local_sloc_entry_size(); I < E; ++I) {
      const SrcMgr::SLocEntry &Entry = SM.getLocalSLocEntry(I);
      if (!Entry.isFile())
        continue;
      const SrcMgr::FileInfo &File = Entry.getFile();
      OptionalFileEntryRef Ref = File.getContentCache().OrigEntry;
      if (!Ref || SM.getFileEntryRefForID(Main) == Ref)
        continue;
      if (!SrcMgr::isSystem(File.getFileCharacteristic()) &&
          !systemFromTheStart(SM.getBufferData(SM.getFileID(
              SourceLocation::getFromRawEncoding(Entry.getOffset())))) &&
          UserFile.empty())
        UserFile = Ref->getName().str();
    }
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      if (SM.getFileEntryRefForID(Main) == It->first)
        continue;
      std::optional<llvm::MemoryBufferRef> Buffer =
          It->second->getBufferIfLoaded();
      if (!Buffer)
        continue;
      llvm::SmallString<256> Path(It->first.getName());
      SM.getFileManager().makeAbsolutePath(Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
      Out.Files.push_back(
          {std::string(Path), contentHash(Buffer->getBuffer())});
      Out.ReadPaths.push_back(absolutePath(SM, It->first.getName()));
      Out.Fingerprints.emplace_back(std::string(Path),
                                    llvm::xxh3_64bits(Buffer->getBuffer()));
    }
  }

  void BeforeExecute(CompilerInstance &CI) override {
    Skipper.emplace(ToolchainRoots, CI.getSourceManager());
    Instance = &CI;
  }

  /// The bodies a unit parsed alone skips (HostBodies.h), and no other:
  /// user code instantiates the headers' templates.
  bool shouldSkipFunctionBody(Decl *D) override {
    return Skipper && Skipper->skips(*D);
  }

  std::string UserFile;

private:
  SharedPreambles::Preamble &Out;
  llvm::ArrayRef<std::string> ToolchainRoots;
  llvm::ArrayRef<std::string> BaseArchMacros;
  CompilerInstance *Instance = nullptr;
  ArchDependenceRecorder *ArchRecorder = nullptr;
  std::optional<HostBodySkipper> Skipper;
};

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
  for (const auto &[Path, Fingerprint] : P.Fingerprints) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Now =
        FS.getBufferForFile(Path, -1, /*RequiresNullTerminator=*/false);
    if (!Now || llvm::xxh3_64bits((*Now)->getBuffer()) != Fingerprint)
      return false;
  }
  return true;
}

/// Path of the PCH that P's units read.
std::string pchPathOf(const PrecompiledPreamble &P,
                      const CompilerInvocation &Invocation,
                      IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS) {
  CompilerInvocation Probe(Invocation);
  llvm::MemoryBuffer *None = nullptr;
  P.AddImplicitPreamble(Probe, VFS, None);
  return Probe.getPreprocessorOpts().ImplicitPCHInclude;
}

/// Appends the items of From whose key To lacks.
template <typename T, typename KeyOf>
void appendMissing(std::vector<T> &To, const std::vector<T> &From, KeyOf Key) {
  for (const T &Item : From)
    if (llvm::none_of(To, [&](const T &Own) { return Key(Own) == Key(Item); }))
      To.push_back(Item);
}

/// Builds the preamble of Main's leading Bounds. With a Base (the implicit
/// headers' preamble of the same invocation), the build reads Base's PCH as
/// a unit without leading includes does, and writes only what the leading
/// includes add: a chained PCH. The build then holds only what those
/// includes use of the implicit headers' AST, and the writer's tables and
/// bytes cover the includes alone.
std::shared_ptr<SharedPreambles::Preamble>
build(const CompilerInvocation &Invocation, const llvm::MemoryBuffer &Main,
      PreambleBounds Bounds, FileManager &Files,
      std::shared_ptr<PCHContainerOperations> PCHContainerOps,
      std::shared_ptr<const SharedPreambles::Preamble> Base,
      llvm::ArrayRef<std::string> ToolchainRoots, llvm::StringRef Folder) {
  auto Out = std::make_shared<SharedPreambles::Preamble>();
  CompilerInvocation Chained(Invocation);
  if (Base) {
    // As AddImplicitPreamble sets up a unit of no leading includes.
    PreprocessorOptions &Preprocessor = Chained.getPreprocessorOpts();
    Preprocessor.ImplicitPCHInclude = Base->PCHPath;
    Preprocessor.DisablePCHOrModuleValidation =
        DisableValidationForModuleKind::PCH;
    Preprocessor.UsePredefines = false;
  }
  CountingConsumer Counter;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(
          new DiagnosticOptions(Invocation.getDiagnosticOpts()), &Counter,
          /*ShouldOwnClient=*/false);
  RecordingCallbacks Callbacks(
      *Out, ToolchainRoots,
      Base ? llvm::ArrayRef<std::string>(Base->ArchMacros)
           : llvm::ArrayRef<std::string>());
  llvm::ErrorOr<PrecompiledPreamble> Built = std::make_error_code(
      std::errc::operation_canceled);
  // A crash in the build costs the sharing, not the run: the unit then
  // parses alone, inside its own crash recovery.
  llvm::CrashRecoveryContext Recovery;
  bool Survived = Recovery.RunSafely([&] {
    Built = PrecompiledPreamble::Build(
        Chained, &Main, Bounds, *Diags, Files.getVirtualFileSystemPtr(),
        std::move(PCHContainerOps), /*StoreInMemory=*/false, Folder,
        Callbacks);
  });
  if (!Survived)
    Out->WhyNot = "the build crashed";
  else if (!Built)
    Out->WhyNot = "clang could not build it: " + Built.getError().message();
  else if (Counter.Count)
    Out->WhyNot = "clang reported something while building it";
  else if (!Callbacks.UserFile.empty())
    Out->WhyNot = "it reads a user header, " + Callbacks.UserFile;
  if (!Out->WhyNot.empty())
    return Out;
  Out->Compiled = std::move(*Built);
  Out->PCHPath = pchPathOf(*Out->Compiled, Invocation,
                           Files.getVirtualFileSystemPtr());
  if (Base) {
    // The base's files are this preamble's too: its units read them, and
    // the result cache must see them change.
    appendMissing(Out->Files, Base->Files,
                  [](const FileDigest &F) { return F.Path; });
    appendMissing(Out->ReadPaths, Base->ReadPaths,
                  [](const std::string &Path) { return Path; });
    Out->BuiltFrom = Base->BuiltFrom;
    Out->Base = std::move(Base);
  }
  return Out;
}

} // namespace

void SharedPreambles::report(llvm::StringRef MainFile, llvm::StringRef Which,
                             llvm::StringRef What) {
  if (!Report)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  *Report << "warpfix: preamble of " << MainFile;
  if (!Which.empty())
    *Report << ", " << Which;
  *Report << ": " << What << "\n";
  Report->flush();
}

std::shared_ptr<const SharedPreambles::Preamble> SharedPreambles::obtain(
    const CompilerInvocation &Invocation, FileManager &Files,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    const llvm::MemoryBuffer &Main, PreambleBounds Bounds,
    llvm::StringRef WorkingDirectory, std::shared_ptr<const Preamble> Base,
    llvm::StringRef Which) {
  llvm::StringRef MainFile = Invocation.getFrontendOpts().Inputs[0].getFile();
  llvm::vfs::FileSystem &FS = Files.getVirtualFileSystem();
  // A chained preamble belongs to one build of its base: when the base is
  // built again, so is it.
  std::string Key = keyOf(Invocation, WorkingDirectory,
                          Main.getBuffer().take_front(Bounds.Size));
  if (Base)
    Key += "+" + Base->PCHPath;
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
    if (Build) {
      std::shared_ptr<Preamble> Built =
          build(Invocation, Main, Bounds, Files, PCHContainerOps, Base,
                ToolchainRoots, Folder.path());
      llvm::SmallString<256> From(MainFile);
      FS.makeAbsolute(From);
      llvm::sys::path::remove_dots(From, /*remove_dot_dot=*/false);
      Built->BuiltFrom.insert(Built->BuiltFrom.begin(), std::string(From));
      Mine.set_value(std::move(Built));
    }
    std::shared_ptr<const Preamble> Found = Current->Ready.get();
    if (!Found->Compiled) {
      report(MainFile, Which, "not shared: " + Found->WhyNot);
      return nullptr;
    }
    if (Found->Compiled->CanReuse(Invocation, Main.getMemBufferRef(), Bounds,
                                  FS) &&
        unchanged(*Found, FS)) {
      report(MainFile, Which, Build ? "built" : "reused");
      return Found;
    }
    if (Build) {
      report(MainFile, Which,
             "not shared: a file it read changed while it was built");
      return nullptr;
    }
    // A file it read has changed since: the first unit to see that builds
    // it again, and units that come meanwhile wait for that build.
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Preambles.find(Key);
    if (It != Preambles.end() && It->second == Current)
      Preambles.erase(It);
  }
}

std::optional<SharedPreambles::Use>
SharedPreambles::attach(CompilerInvocation &Invocation, FileManager &Files,
                        std::shared_ptr<PCHContainerOperations> PCHContainerOps) {
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

  // Leading includes get a preamble chained on that of the implicit headers,
  // which every unit of these flags shares (build() says why).
  std::shared_ptr<const Preamble> Base;
  if (Bounds.Size) {
    Base = obtain(Invocation, Files, PCHContainerOps, **Main,
                  PreambleBounds(0, /*PreambleEndsAtStartOfLine=*/true), *Cwd,
                  nullptr, "implicit headers");
    if (!Base)
      return std::nullopt;
  }
  std::shared_ptr<const Preamble> Found = obtain(
      Invocation, Files, PCHContainerOps, **Main, Bounds, *Cwd, Base, "");
  if (!Found && Base) {
    // Leading includes that cannot be shared (one is a user header, say)
    // still leave the implicit headers: the unit reads their preamble, as a
    // unit without leading includes does, and parses its includes itself.
    report(Frontend.Inputs[0].getFile(), "", "implicit headers only");
    Found = std::move(Base);
  }
  if (!Found)
    return std::nullopt;

  Use Out{Found, std::move(*Main)};
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS = Files.getVirtualFileSystemPtr();
  Found->Compiled->AddImplicitPreamble(Invocation, VFS, Out.MainFile.get());
  // The buffer stays this unit's (the parse must not free it).
  Invocation.getPreprocessorOpts().RetainRemappedFileBuffers = true;
  return Out;
}

} // namespace warpfix
