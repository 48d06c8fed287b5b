#include "tool/run/Analyser.h"
#include "checks/CheckWalk.h"
#include "checks/NoLintDirectives.h"
#include "checks/analysis/FullMaskMacros.h"
#include "checks/analysis/LocalDefinitions.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/SkippedCode.h"
#include "support/FileIdentity.h"
#include "tool/input/AsmRegisters.h"
#include "tool/input/HeadersByName.h"
#include "tool/input/LaunchChevrons.h"
#include "tool/input/Paths.h"
#include "tool/run/ArchDependence.h"
#include "tool/run/FullMaskSpelling.h"
#include "tool/run/HostBodies.h"
#include "tool/run/ParallelRunner.h"
#include "tool/run/ParseErrors.h"
#include "tool/run/SharedPreambles.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <functional>

using namespace clang;

namespace warpfix {
namespace {

/// The stage the analysis of this thread's TU is in, for the report of a
/// crash.
thread_local const char *Stage = "parse";

/// The name a file was opened by, made absolute. Unlike a finding's path it
/// keeps its "..": the toolchain reaches libstdc++ through paths such as
/// gcc/x86_64-linux-gnu/12/../../../../include, where a symbolic link makes
/// the textual shortening name a file that does not exist.
std::string dependencyPath(const SourceManager &SM, llvm::StringRef Name) {
  llvm::SmallString<256> Path(Name);
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
  return std::string(Path);
}

/// Restricts the checks to code outside system headers before they run. The
/// toolkit's headers (CUB, Thrust, cooperative groups) dwarf the user's code;
/// matching in them, and building the parent map over them, made a run cost
/// a third more time and memory than the parse, for findings that would be
/// dropped anyway. Analyses that climb from a node into system code see no
/// parents there, and their answers are then the conservative ones.
class UserCodeConsumer : public ASTConsumer {
public:
  UserCodeConsumer(CheckContext &Context,
                   llvm::ArrayRef<std::unique_ptr<Check>> Checks,
                   const SourceManager &SM, FindingSink &Sink,
                   const ErrorRecorder &Errors,
                   const UndefinedMacroTests &MacroTests,
                   const ParseSettings &Parse, bool &Analysed,
                   std::function<void(ASTContext &)> BeforeChecks)
      : Context(Context), Checks(Checks), SM(SM), Sink(Sink), Errors(Errors),
        MacroTests(MacroTests), Parse(Parse), Analysed(Analysed),
        BeforeChecks(std::move(BeforeChecks)),
        Skipper(Parse.ToolchainRoots, SM) {}

  bool shouldSkipFunctionBody(Decl *D) override { return Skipper.skips(*D); }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Stage = "analysis";
    if (!Parse.TestingCrashFile.empty())
      if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
        if (Main->getName().ends_with(Parse.TestingCrashFile))
          __builtin_trap();
    if (Parse.ParseOnly) {
      Analysed = true;
      return;
    }
    BeforeChecks(Ctx);
    // With a shared preamble, its declarations are loaded here, in the
    // order a parse alone would have declared them.
    std::vector<Decl *> UserDecls;
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!SM.isInSystemHeader(D->getLocation()))
        UserDecls.push_back(D);
    Ctx.setTraversalScope(UserDecls);
    // The checks' climbs from a node to its parents answered by a lean index
    // instead of clang's parent map (checks/analysis/Parents.h), built by the
    // walk that finds the checks' nodes.
    ParentIndex Parents(Ctx);
    LocalDefinitionsMemo Definitions(Ctx);
    {
      ParentIndex::Use InUse(Parents);
      LocalDefinitionsMemo::Use DefinitionsInUse(Definitions);
      CheckWalk::run(Parents, Context, Checks);
    }
    // The AST clang recovered from errors is analysed like any other; only
    // the fixes that an error may have misled are withheld.
    if (!Errors.Errors.empty() && !Parse.Strict) {
      Stage = "review of the fixes";
      // Built for the first fix to judge: a unit whose headers are missing
      // may have tens of thousands of errors and nothing to fix.
      std::optional<ErrorTaint> Taint;
      Sink.review(
          [&](llvm::ArrayRef<SourceLocation> Places) {
            if (!Taint)
              Taint.emplace(Ctx, Errors.Errors, MacroTests);
            return Taint->reasonFor(Places);
          },
          (ErrorsNotePrefix + ErrorTaint::summary(Errors.Errors)).str());
    }
    Stage = "review of the fixes";
    withholdEditsOfEscapedAsm();
    Analysed = true;
  }

  /// A fix may not edit an asm template that clang was shown with its
  /// special registers escaped: its text there is not the text on disk.
  void withholdEditsOfEscapedAsm() {
    llvm::StringMap<ChangedLiterals> Escaped;
    Sink.reviewEdits([&](llvm::StringRef File, unsigned Offset,
                         unsigned Length) -> std::optional<std::string> {
      auto [Known, New] = Escaped.try_emplace(File);
      if (New)
        if (auto Disk = llvm::MemoryBuffer::getFile(File))
          escapeAsmSpecialRegisters((*Disk)->getBuffer(), &Known->second);
      for (auto [Begin, End] : Known->second)
        if (Length ? Offset < End && Offset + Length > Begin
                   : Offset > Begin && Offset < End)
          return std::string(
              "the fix would edit an asm template in which warpfix showed "
              "clang each single-'%' special register (nvcc's dialect) with "
              "'%%', so what clang read there is not the text on disk; "
              "write them as '%%laneid' and run warpfix again");
      return std::nullopt;
    });
  }

private:
  CheckContext &Context;
  llvm::ArrayRef<std::unique_ptr<Check>> Checks;
  const SourceManager &SM;
  FindingSink &Sink;
  const ErrorRecorder &Errors;
  const UndefinedMacroTests &MacroTests;
  const ParseSettings &Parse;
  bool &Analysed;
  std::function<void(ASTContext &)> BeforeChecks;
  HostBodySkipper Skipper;
};

/// One unit's parse: what the checks are given, and what the parse tells
/// the analyser beyond the result. The factory owns it; each action it
/// creates works on it.
struct UnitParse {
  const std::vector<const CheckInfo *> &Checks;
  const CheckOptions &Options;
  TranslationUnitResult &Out;
  const ErrorRecorder &Errors;
  const ParseSettings &Parse;
  /// The files the parse entered through an #include of its own.
  std::vector<std::string> Included = {};
  /// Whether the checks ran on an AST.
  bool Analysed = false;
  /// The shared preamble the unit parsed with, if any.
  std::optional<SharedPreambles::Use> Preamble = {};
};

/// Owns everything the checks of one TU share, for as long as the AST lives.
class CheckAction : public ASTFrontendAction {
public:
  explicit CheckAction(UnitParse &Unit) : Unit(Unit) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    Sink = std::make_unique<FindingSink>(CI.getSourceManager(), Cwd);
    NoLints = std::make_unique<NoLintDirectives>(CI.getSourceManager(),
                                                 CI.getLangOpts());
    Sink->suppressWith(*NoLints);
    FullMasks.attach(CI.getPreprocessor());
    Skipped.attach(CI.getPreprocessor());
    MacroTests.attach(CI.getPreprocessor());
    // Owned by the preprocessor, which outlives EndSourceFileAction.
    auto Recorder = std::make_unique<ArchDependenceRecorder>(
        CI.getPreprocessor(),
        Unit.Preamble ? Unit.Preamble->archMacros()
                      : std::vector<std::string>(),
        /*UserCode=*/true);
    ArchRecorder = Recorder.get();
    CI.getPreprocessor().addPPCallbacks(std::move(Recorder));
    Context =
        std::make_unique<CheckContext>(Unit.Options, *Sink, FullMasks, Skipped);
    for (const CheckInfo *Info : Unit.Checks)
      Context->Running.push_back(Info->Name.str());
    for (const CheckInfo *Info : Unit.Checks)
      Instances.push_back(Info->Create(Info->Name, *Context));
    // A shared preamble's macros never passed the preprocessor's hooks.
    auto BeforeChecks = [this, &CI](ASTContext &Ctx) {
      FullMasks.addPrecompiled(CI.getPreprocessor());
      Skipped.addHeadersOnlySkippedCodeIncludes(CI.getPreprocessor());
      // Where clang's recovery may have dropped statements, the legacy
      // names that the AST lacks are read from the text.
      if (!Unit.Parse.Strict)
        for (auto &[Range, Error] :
             rangesRecoveryMayHaveDropped(Ctx, Unit.Errors.Errors))
          Skipped.addDropped(
              Range, "clang reported an error before it, and its "
                     "recovery dropped the code that holds this call from "
                     "the syntax tree; fix the error to have it analysed (" +
                         Error + ")");
    };
    return std::make_unique<UserCodeConsumer>(
        *Context, Instances, CI.getSourceManager(), *Sink, Unit.Errors,
        MacroTests, Unit.Parse, Unit.Analysed, BeforeChecks);
  }

  void EndSourceFileAction() override {
    // A worker's last unit, with no parse after it: the process ends soon,
    // and freeing the tree cost 1% of a run on one file of 4,000 kernels.
    // (ClangTool would parse each compile command of a file in turn; the
    // database warpfix analyses with gives one per file.) EndSourceFile
    // reads the option after this. Not in a sanitizer build: the graveyard
    // that keeps a left tree reachable for LeakSanitizer has 16 slots, a
    // tree takes 3 (Sema, ASTContext, consumer) and the merged findings 1,
    // so the trees of a sixth worker would show as leaks.
#if !LLVM_ADDRESS_SANITIZER_BUILD && !__has_feature(leak_sanitizer)
    if (Unit.Parse.NoParseAfterAnalysis && allUnitsStarted())
      getCompilerInstance().getFrontendOpts().DisableFree = true;
#endif
    if (!Sink)
      return;
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    // Kept in any case: analyse() needs them if the TU is dropped.
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      Unit.Out.FilesRead.push_back(absolutePath(SM, It->first.getName()));
    // The files that this parse itself entered through an #include (a
    // preamble's entries are loaded, not local): a file that built the
    // shared preamble and that the unit includes too is one it read.
    for (unsigned I = 0, E = SM.local_sloc_entry_size(); I != E; ++I) {
      const SrcMgr::SLocEntry &Entry = SM.getLocalSLocEntry(I);
      if (!Entry.isFile() || Entry.getFile().getIncludeLoc().isInvalid())
        continue;
      if (OptionalFileEntryRef File =
              Entry.getFile().getContentCache().OrigEntry)
        Unit.Included.push_back(dependencyPath(SM, File->getName()));
    }
    if (!Unit.Analysed)
      return;
    if (ArchRecorder) {
      Unit.Out.ArchDependence = ArchRecorder->userConditions();
      Unit.Out.ArchRecorded = true;
    }
    NoLints->reportUnmatched(*Sink);
    Unit.Out.Findings = Sink->takeFindings();
    Unit.Out.Suppressed = Sink->takeSuppressedFindings();
    Stage = "review of the fixes";
    Preprocessor &PP = getCompilerInstance().getPreprocessor();
    reviewFullMaskSpellings(Unit.Out.Findings, PP, Unit.Options);
    reviewFullMaskSpellings(Unit.Out.Suppressed, PP, Unit.Options);
    Unit.Out.FileHashes = Sink->fileHashes();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      if (std::optional<llvm::MemoryBufferRef> Buffer =
              It->second->getBufferIfLoaded())
        Unit.Out.Dependencies.push_back(
            {dependencyPath(SM, It->first.getName()),
             contentHash(Buffer->getBuffer())});
    llvm::sort(Unit.Out.Dependencies,
               [](const FileDigest &A, const FileDigest &B) {
                 return A.Path < B.Path;
               });
    recordSkippedText(SM);
  }

private:
  /// What this parse left out of each user file it read: the parse for
  /// another architecture may fix only code that this one did not compile.
  void recordSkippedText(const SourceManager &SM) {
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      if (It->second->getBufferIfLoaded() &&
          !resolvesUnderAny(It->first.getName(), Unit.Parse.ToolchainRoots))
        Unit.Out.SkippedText[absolutePath(SM, It->first.getName())];
    for (SourceRange Range : Skipped.skippedRanges()) {
      auto [File, Begin] = SM.getDecomposedLoc(Range.getBegin());
      auto [EndFile, End] = SM.getDecomposedLoc(Range.getEnd());
      OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
      if (!Entry || EndFile != File || End < Begin)
        continue;
      auto Text = Unit.Out.SkippedText.find(absolutePath(SM, Entry->getName()));
      if (Text != Unit.Out.SkippedText.end())
        Text->second.push_back({Begin, End});
    }
  }

  UnitParse &Unit;
  std::unique_ptr<FindingSink> Sink;
  std::unique_ptr<NoLintDirectives> NoLints;
  FullMaskMacros FullMasks;
  SkippedCode Skipped;
  UndefinedMacroTests MacroTests;
  std::unique_ptr<CheckContext> Context;
  std::vector<std::unique_ptr<Check>> Instances;
  ArchDependenceRecorder *ArchRecorder = nullptr;
};

/// clang's "N errors generated" goes with the errors, not straight to
/// stderr.
class CheckActionFactory : public TolerantActionFactory {
public:
  CheckActionFactory(UnitParse Unit, llvm::raw_ostream &Messages)
      : TolerantActionFactory(Messages), Unit(std::move(Unit)) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CheckAction>(Unit);
  }
  UnitParse Unit;

protected:
  void prepare(CompilerInvocation &Invocation, FileManager &Files,
               std::shared_ptr<PCHContainerOperations> PCHContainerOps)
      override {
    // Before the preamble is built from the invocation: its build skips the
    // same bodies as the unit's parse.
    askWhichBodiesToSkip(Invocation);
    if (Unit.Parse.Preambles)
      Unit.Preamble = Unit.Parse.Preambles->attach(Invocation, Files,
                                                   std::move(PCHContainerOps));
  }
};

} // namespace

/// How many times a unit is parsed again with the folders of headers found
/// by name: a found header may include another that is missing.
static constexpr unsigned MostRoundsOfHeadersByName = 4;

TranslationUnitResult Analyser::analyse(llvm::StringRef File) const {
  std::vector<std::pair<std::string, std::string>> Found;
  // Headers whose only candidate does not compile here (curl's Windows
  // build, say): an error there may withhold more than the missing header.
  std::vector<std::pair<std::string, std::string>> Rejected;
  for (unsigned Round = 0;; ++Round) {
    TranslationUnitResult Result = analyseWith(File, Found);
    auto Erroneous = [&](const std::string &Folder) {
      return llvm::any_of(Result.FilesWithErrors, [&](llvm::StringRef Path) {
        return isUnder(absolutePath(Path), Folder);
      });
    };
    if (llvm::any_of(Found, [&](const auto &F) { return Erroneous(F.second); })) {
      for (const auto &F : Found)
        if (Erroneous(F.second)) {
          Rejected.push_back(F);
          Parse.Headers->reject(F.first);
        }
      llvm::erase_if(Found, [&](const auto &F) {
        return llvm::is_contained(Rejected, F);
      });
      continue;
    }
    bool Added = false;
    if (Parse.Headers && !Result.Crashed &&
        Round < MostRoundsOfHeadersByName)
      for (const std::string &Name : Result.MissingHeaders)
        if (std::optional<std::string> Folder =
                Parse.Headers->folderFor(Name)) {
          auto Candidate = std::make_pair(Name, *Folder);
          if (llvm::is_contained(Found, Candidate) ||
              llvm::is_contained(Rejected, Candidate))
            continue;
          Found.push_back(std::move(Candidate));
          Added = true;
        }
    if (!Added) {
      Result.FoundByName = std::move(Found);
      Result.RejectedByName = std::move(Rejected);
      return Result;
    }
  }
}

TranslationUnitResult Analyser::analyseWith(
    llvm::StringRef File,
    llvm::ArrayRef<std::pair<std::string, std::string>> Found) const {
  TranslationUnitResult Result;
  Result.MainFile = File.str();
  // Its legacy names, read lexically unless --strict-parse drops the unit.
  auto WithoutSyntaxTree = [&] {
    Result.NoAst = true;
    if (!Parse.Strict)
      scanLexically(File, Checks, Options,
                    "clang built no syntax tree for this translation unit (" +
                        (Result.FirstError.empty() ? std::string("no error")
                                                   : Result.FirstError) +
                        ")",
                    Result);
    return std::move(Result);
  };
  // ClangTool ends the process (report_fatal_error) when it cannot enter a
  // command's directory: a build tree since removed, a typo in a database.
  for (const tooling::CompileCommand &Command :
       Database.getCompileCommands(File))
    if (!llvm::sys::fs::is_directory(Command.Directory)) {
      Result.ErrorCount = 1;
      Result.FirstError = "the directory of its compile command, '" +
                          Command.Directory + "', does not exist";
      Result.FilesRead.push_back(File.str());
      return WithoutSyntaxTree();
    }
  // The real file system object is shared and tied to the process's working
  // directory, which ClangTool would change under the other threads' feet.
  tooling::ClangTool Tool(
      Database, {File.str()}, std::make_shared<PCHContainerOperations>(),
      showingNvccDialect(llvm::vfs::createPhysicalFileSystem()));
  Tool.setPrintErrorMessage(false);
  if (!Found.empty())
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        searchedLast(Found), tooling::ArgumentInsertPosition::BEGIN));
  llvm::raw_string_ostream Messages(Result.CompilerMessages);
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> MessageOptions =
      new DiagnosticOptions();
  MessageOptions->ShowColors = ColoredMessages;
  TextDiagnosticPrinter Printer(Messages, MessageOptions.get());
  ErrorRecorder Errors(Printer);
  Tool.setDiagnosticConsumer(&Errors);
  CheckActionFactory Factory({Checks, Options, Result, Errors, Parse},
                             Messages);
  // A crash (a bug in warpfix or in clang) takes this TU, not the run. In
  // the thread that runs it, so that the thread pool and clang's per-thread
  // stack handling stay as they are; see docs/usage.md, "Crashes".
  if (!Parse.TestingBeforeUnit.empty()) {
    llvm::StringRef Argv[] = {"/bin/sh", "-c", Parse.TestingBeforeUnit,
                              "warpfix", File};
    llvm::sys::ExecuteAndWait("/bin/sh", Argv);
  }
  Stage = "parse";
  llvm::CrashRecoveryContext Recovery;
  Recovery.DumpStackAndCleanupOnFailure = true;
  bool Survived = Recovery.RunSafely([&] { Tool.run(&Factory); });
  Messages.flush();
  if (Factory.Unit.Preamble) {
    // The preamble holds the leading lines of the main file it was built
    // from, under that file's name, and the parse lists them among the files
    // it read. Kept, they made this unit's cache entry depend on another
    // unit's main file, with a hash of those lines alone, which never
    // matches: the unit missed the cache on every run.
    llvm::SmallString<256> Own(File);
    llvm::sys::fs::make_absolute(Own);
    llvm::sys::path::remove_dots(Own, /*remove_dot_dot=*/false);
    for (llvm::StringRef Donor : Factory.Unit.Preamble->builtFrom()) {
      // A donor that the unit includes is read all the same (a header
      // analysed as a unit of its own, a .cu file that another includes).
      if (Donor == Own || llvm::is_contained(Factory.Unit.Included, Donor))
        continue;
      auto IsDonor = [&](llvm::StringRef Path) {
        llvm::SmallString<256> Normal(Path);
        llvm::sys::path::remove_dots(Normal, /*remove_dot_dot=*/false);
        return Normal == Donor;
      };
      llvm::erase_if(Result.Dependencies,
                     [&](const FileDigest &D) { return IsDonor(D.Path); });
      llvm::erase_if(Result.FilesRead, IsDonor);
      std::vector<std::string> Donors;
      for (const auto &Read : Result.SkippedText)
        if (IsDonor(Read.getKey()))
          Donors.push_back(Read.getKey().str());
      for (const std::string &Path : Donors)
        Result.SkippedText.erase(Path);
    }
    // The parse did not load the preamble's headers; the unit read them all
    // the same, and the cache must see them change.
    for (const FileDigest &F : Factory.Unit.Preamble->files())
      if (!llvm::any_of(Result.Dependencies, [&](const FileDigest &D) {
            return D.Path == F.Path;
          }))
        Result.Dependencies.push_back(F);
    llvm::sort(Result.Dependencies, [](const FileDigest &A,
                                       const FileDigest &B) {
      return A.Path < B.Path;
    });
    for (const std::string &Path : Factory.Unit.Preamble->readPaths())
      if (!llvm::is_contained(Result.FilesRead, Path))
        Result.FilesRead.push_back(Path);
  }
  Result.ErrorCount = Errors.Errors.size();
  if (!Errors.Errors.empty())
    Result.FirstError = Errors.Errors.front().Text;
  for (const ParseError &E : Errors.Errors) {
    if (!E.MissingName.empty() &&
        !llvm::is_contained(Result.MissingHeaders, E.MissingName))
      Result.MissingHeaders.push_back(E.MissingName);
    if (!E.File.empty() && !llvm::is_contained(Result.FilesWithErrors, E.File))
      Result.FilesWithErrors.push_back(E.File);
  }
  auto Drop = [&] {
    Result.Parsed = false;
    Result.Findings.clear();
    Result.Suppressed.clear();
    Result.FileHashes.clear();
    Result.Dependencies.clear();
    if (!llvm::is_contained(Result.FilesRead, File))
      Result.FilesRead.push_back(File.str());
  };
  if (!Survived) {
    Result.Crashed = true;
    Result.CrashStage = Stage;
    Drop();
    std::string Why = "warpfix crashed in the " + std::string(Stage) +
                      " stage of this translation unit";
    llvm::CrashRecoveryContext Again;
    if (!Again.RunSafely(
            [&] { scanLexically(File, Checks, Options, Why, Result); }))
      Result.Findings.clear();
    return Result;
  }
  if (!Factory.Unit.Analysed) {
    Drop();
    return WithoutSyntaxTree();
  }
  if (Result.ErrorCount && Parse.Strict) {
    Drop();
    return Result;
  }
  Result.Parsed = true;
  Result.FilesRead.clear();
  return Result;
}

void scanLexically(llvm::StringRef File,
                   const std::vector<const CheckInfo *> &Checks,
                   const CheckOptions &Options, llvm::StringRef Why,
                   TranslationUnitResult &Out) {
  llvm::IntrusiveRefCntPtr<FileManager> Files(
      new FileManager(FileSystemOptions(),
                      showingNvccDialect(llvm::vfs::createPhysicalFileSystem())));
  IgnoringDiagConsumer Ignore;
  DiagnosticsEngine Diags(new DiagnosticIDs(), new DiagnosticOptions(), &Ignore,
                          /*ShouldOwnClient=*/false);
  SourceManager SM(Diags, *Files);
  llvm::Expected<FileEntryRef> Entry = Files->getFileRef(File);
  if (!Entry) {
    llvm::consumeError(Entry.takeError());
    return;
  }
  FileID Main = SM.createFileID(*Entry, SourceLocation(), SrcMgr::C_User);
  SM.setMainFileID(Main);
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  FindingSink Sink(SM, Cwd);
  LangOptions LangOpts;
  LangOpts.CPlusPlus = true;
  NoLintDirectives NoLints(SM, LangOpts);
  Sink.suppressWith(NoLints);
  FullMaskMacros FullMasks;
  SkippedCode Whole;
  Whole.addUnanalysed(
      SourceRange(SM.getLocForStartOfFile(Main), SM.getLocForEndOfFile(Main)),
      Why.str());
  CheckContext Context(Options, Sink, FullMasks, Whole);
  for (const CheckInfo *Info : Checks)
    Context.Running.push_back(Info->Name.str());
  for (const CheckInfo *Info : Checks)
    Info->Create(Info->Name, Context)->onEndOfTranslationUnit();
  Out.Findings = Sink.takeFindings();
  Out.Suppressed = Sink.takeSuppressedFindings();
  Out.FileHashes = Sink.fileHashes();
}

} // namespace warpfix
