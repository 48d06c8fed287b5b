#include "tool/run/PreambleProcess.h"
#include "checks/FindingSink.h"
#include "tool/input/LaunchChevrons.h"
#include "tool/run/SharedPreambles.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"

using namespace clang;

namespace warpfix {

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
  explicit RecordingCallbacks(BuiltPreamble &Out) : Out(Out) {}

  void AfterExecute(CompilerInstance &CI) override {
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

  /// Function bodies of the system headers are kept: user code instantiates
  /// their templates, and a unit parsed alone has them too.
  bool shouldSkipFunctionBody(Decl *) override { return false; }

  std::string UserFile;

private:
  BuiltPreamble &Out;
};

/// Builds the preamble of the unit that CC1Args compile, read from
/// WorkingDirectory, and leaves its PCH at PCHPath.
BuiltPreamble build(llvm::ArrayRef<const char *> CC1Args,
                    llvm::StringRef WorkingDirectory, llvm::StringRef PCHPath) {
  BuiltPreamble Out;
  // The worker parsed these same arguments and said what was wrong with
  // them; only whether they parse matters here.
  IgnoringDiagConsumer Quiet;
  IntrusiveRefCntPtr<DiagnosticsEngine> ArgumentDiags =
      CompilerInstance::createDiagnostics(new DiagnosticOptions(), &Quiet,
                                          /*ShouldOwnClient=*/false);
  CompilerInvocation Invocation;
  if (!CompilerInvocation::CreateFromArgs(Invocation, CC1Args,
                                          *ArgumentDiags)) {
    Out.WhyNot = "its -cc1 arguments did not parse again";
    return Out;
  }
  // The worker's file system: the real one, launch chevrons joined, in the
  // unit's working directory.
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS =
      joiningLaunchChevrons(llvm::vfs::createPhysicalFileSystem());
  if (FS->setCurrentWorkingDirectory(WorkingDirectory)) {
    Out.WhyNot = "its working directory is gone";
    return Out;
  }
  const FrontendOptions &Frontend = Invocation.getFrontendOpts();
  if (Frontend.Inputs.size() != 1 || !Frontend.Inputs[0].isFile()) {
    Out.WhyNot = "its -cc1 arguments name no single file";
    return Out;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Main =
      FS->getBufferForFile(Frontend.Inputs[0].getFile());
  if (!Main) {
    Out.WhyNot = "its main file could not be read";
    return Out;
  }
  PreambleBounds Bounds(shareablePreambleLength((*Main)->getBuffer()),
                        /*PreambleEndsAtStartOfLine=*/true);
  Out.PreambleBytes = Bounds.Size;
  Out.PreambleHash =
      llvm::xxh3_64bits((*Main)->getBuffer().take_front(Bounds.Size));

  CountingConsumer Counter;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(
          new DiagnosticOptions(Invocation.getDiagnosticOpts()), &Counter,
          /*ShouldOwnClient=*/false);
  RecordingCallbacks Callbacks(Out);
  llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
      Invocation, Main->get(), Bounds, *Diags, FS,
      std::make_shared<PCHContainerOperations>(), /*StoreInMemory=*/false,
      llvm::sys::path::parent_path(PCHPath), Callbacks);
  if (!Built)
    Out.WhyNot = "clang could not build it: " + Built.getError().message();
  else if (Counter.Count)
    Out.WhyNot = "clang reported something while building it";
  else if (!Callbacks.UserFile.empty())
    Out.WhyNot = "it reads a user header, " + Callbacks.UserFile;
  if (!Out.WhyNot.empty())
    return Out;
  // The preamble names its PCH only through the invocation it sets up. The
  // file moves to where the worker looks for it; the preamble's own removal
  // of its old name then finds nothing.
  CompilerInvocation Probe(Invocation);
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> ProbeFS = FS;
  Built->AddImplicitPreamble(Probe, ProbeFS, Main->get());
  if (std::error_code EC = llvm::sys::fs::rename(
          Probe.getPreprocessorOpts().ImplicitPCHInclude, PCHPath))
    Out.WhyNot = "its PCH could not be moved: " + EC.message();
  return Out;
}

std::string hex(uint64_t V) { return llvm::utohexstr(V, /*LowerCase=*/true); }

llvm::json::Value toJson(const BuiltPreamble &P) {
  llvm::json::Array Files, ReadPaths, Fingerprints;
  for (const FileDigest &F : P.Files)
    Files.push_back(llvm::json::Object{{"path", F.Path}, {"hash", F.Hash}});
  for (const std::string &Path : P.ReadPaths)
    ReadPaths.push_back(Path);
  for (const auto &[Path, Hash] : P.Fingerprints)
    Fingerprints.push_back(
        llvm::json::Object{{"path", Path}, {"xxh3", hex(Hash)}});
  return llvm::json::Object{{"whyNot", P.WhyNot},
                            {"files", std::move(Files)},
                            {"readPaths", std::move(ReadPaths)},
                            {"fingerprints", std::move(Fingerprints)},
                            {"preambleBytes", int64_t(P.PreambleBytes)},
                            {"preambleHash", hex(P.PreambleHash)}};
}

bool fromJson(const llvm::json::Value &V, BuiltPreamble &P) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O)
    return false;
  std::optional<llvm::StringRef> WhyNot = O->getString("whyNot");
  const llvm::json::Array *Files = O->getArray("files");
  const llvm::json::Array *ReadPaths = O->getArray("readPaths");
  const llvm::json::Array *Fingerprints = O->getArray("fingerprints");
  std::optional<int64_t> Bytes = O->getInteger("preambleBytes");
  std::optional<llvm::StringRef> Hash = O->getString("preambleHash");
  if (!WhyNot || !Files || !ReadPaths || !Fingerprints || !Bytes || !Hash ||
      *Bytes < 0 || Hash->getAsInteger(16, P.PreambleHash))
    return false;
  P.WhyNot = WhyNot->str();
  P.PreambleBytes = size_t(*Bytes);
  for (const llvm::json::Value &F : *Files) {
    const llvm::json::Object *FO = F.getAsObject();
    std::optional<llvm::StringRef> Path = FO ? FO->getString("path") : std::nullopt;
    std::optional<llvm::StringRef> Sha = FO ? FO->getString("hash") : std::nullopt;
    if (!Path || !Sha)
      return false;
    P.Files.push_back({Path->str(), Sha->str()});
  }
  for (const llvm::json::Value &R : *ReadPaths) {
    std::optional<llvm::StringRef> Path = R.getAsString();
    if (!Path)
      return false;
    P.ReadPaths.push_back(Path->str());
  }
  for (const llvm::json::Value &F : *Fingerprints) {
    const llvm::json::Object *FO = F.getAsObject();
    std::optional<llvm::StringRef> Path = FO ? FO->getString("path") : std::nullopt;
    std::optional<llvm::StringRef> Xxh = FO ? FO->getString("xxh3") : std::nullopt;
    uint64_t Value = 0;
    if (!Path || !Xxh || Xxh->getAsInteger(16, Value))
      return false;
    P.Fingerprints.emplace_back(Path->str(), Value);
  }
  return true;
}

BuiltPreamble failure(std::string WhyNot) {
  BuiltPreamble Out;
  Out.WhyNot = std::move(WhyNot);
  return Out;
}

} // namespace

int buildPreambleMain(llvm::ArrayRef<const char *> Args) {
  // ANSWER PCH WORKING-DIRECTORY -- CC1-ARGUMENTS...
  if (Args.size() < 4 || llvm::StringRef(Args[3]) != "--")
    return 2;
  BuiltPreamble Out = build(Args.drop_front(4), Args[2], Args[1]);
  std::error_code EC;
  llvm::raw_fd_ostream Answer(Args[0], EC);
  if (EC)
    return 1;
  Answer << toJson(Out);
  Answer.close();
  return Answer.has_error() ? 1 : 0;
}

BuiltPreamble buildPreambleInChildProcess(
    const CompilerInvocation &Invocation, llvm::StringRef WorkingDirectory,
    llvm::StringRef PCHPath, llvm::StringRef Builder) {
  std::string Self =
      Builder.empty()
          ? llvm::sys::fs::getMainExecutable(
                nullptr, reinterpret_cast<void *>(&buildPreambleInChildProcess))
          : Builder.str();
  if (Self.empty())
    return failure("warpfix could not find its own executable to build it");
  llvm::SmallString<128> AnswerPath;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
          "warpfix-preamble", "json", AnswerPath))
    return failure("no temporary file for its build: " + EC.message());
  llvm::FileRemover RemoveAnswer(AnswerPath);

  std::vector<std::string> CC1 = Invocation.getCC1CommandLine();
  std::vector<llvm::StringRef> Argv = {Self, BuildPreambleCommand, AnswerPath,
                                       PCHPath, WorkingDirectory, "--"};
  Argv.insert(Argv.end(), CC1.begin(), CC1.end());
  // What the child would say is said again by the unit's own parse.
  std::optional<llvm::StringRef> Quiet[] = {llvm::StringRef(""),
                                            llvm::StringRef(""),
                                            llvm::StringRef("")};
  std::string Error;
  bool ExecutionFailed = false;
  int Exit = llvm::sys::ExecuteAndWait(Self, Argv, /*Env=*/std::nullopt, Quiet,
                                       /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                       &Error, &ExecutionFailed);
  if (ExecutionFailed)
    return failure("its build process did not start: " + Error);
  if (Exit < 0)
    return failure("the build crashed");
  if (Exit != 0)
    return failure("its build process failed (exit " + std::to_string(Exit) +
                   ")");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(AnswerPath);
  llvm::Expected<llvm::json::Value> Json =
      Text ? llvm::json::parse((*Text)->getBuffer())
           : llvm::Expected<llvm::json::Value>(
                 llvm::errorCodeToError(Text.getError()));
  BuiltPreamble Out;
  if (!Json) {
    llvm::consumeError(Json.takeError());
    return failure("its build process gave no answer");
  }
  if (!fromJson(*Json, Out))
    return failure("its build process gave an answer it could not read");
  return Out;
}

} // namespace warpfix
