#include "tool/Analyzer.h"
#include "checks/NoLintDirectives.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace warpfix {
namespace {

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
  UserCodeConsumer(std::unique_ptr<ASTConsumer> Checks,
                   const SourceManager &SM)
      : Checks(std::move(Checks)), SM(SM) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    std::vector<Decl *> UserDecls;
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!SM.isInSystemHeader(D->getLocation()))
        UserDecls.push_back(D);
    Ctx.setTraversalScope(UserDecls);
    Checks->HandleTranslationUnit(Ctx);
  }

private:
  std::unique_ptr<ASTConsumer> Checks;
  const SourceManager &SM;
};

/// Owns everything the checks of one TU share, for as long as the AST lives.
class CheckAction : public ASTFrontendAction {
public:
  CheckAction(const std::vector<const CheckInfo *> &Checks,
              const CheckOptions &Options, TranslationUnitResult &Out)
      : Checks(Checks), Options(Options), Out(Out) {}

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
    Context =
        std::make_unique<CheckContext>(Options, *Sink, FullMasks, Skipped);
    for (const CheckInfo *Info : Checks) {
      Instances.push_back(Info->Create(*Context));
      Instances.back()->registerMatchers(Finder);
    }
    return std::make_unique<UserCodeConsumer>(Finder.newASTConsumer(),
                                              CI.getSourceManager());
  }

  void EndSourceFileAction() override {
    if (!Sink)
      return;
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    if (getCompilerInstance().getDiagnostics().hasErrorOccurred()) {
      for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
        Out.FilesRead.push_back(absolutePath(SM, It->first.getName()));
      return;
    }
    NoLints->reportUnmatched(*Sink);
    Out.Findings = Sink->takeFindings();
    Out.Suppressed = Sink->takeSuppressedFindings();
    Out.FileHashes = Sink->fileHashes();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      if (std::optional<llvm::MemoryBufferRef> Buffer =
              It->second->getBufferIfLoaded())
        Out.Dependencies.push_back({dependencyPath(SM, It->first.getName()),
                                    contentHash(Buffer->getBuffer())});
    llvm::sort(Out.Dependencies, [](const FileDigest &A, const FileDigest &B) {
      return A.Path < B.Path;
    });
  }

private:
  const std::vector<const CheckInfo *> &Checks;
  const CheckOptions &Options;
  TranslationUnitResult &Out;
  std::unique_ptr<FindingSink> Sink;
  std::unique_ptr<NoLintDirectives> NoLints;
  FullMaskMacros FullMasks;
  SkippedCode Skipped;
  std::unique_ptr<CheckContext> Context;
  std::vector<std::unique_ptr<Check>> Instances;
  ast_matchers::MatchFinder Finder;
};

class CheckActionFactory : public tooling::FrontendActionFactory {
public:
  CheckActionFactory(const std::vector<const CheckInfo *> &Checks,
                     const CheckOptions &Options, TranslationUnitResult &Out,
                     llvm::raw_ostream &Messages)
      : Checks(Checks), Options(Options), Out(Out), Messages(Messages) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CheckAction>(Checks, Options, Out);
  }

  /// As the base class does it, except that clang's "N errors generated"
  /// goes with the errors, not straight to stderr.
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    CompilerInstance Compiler(std::move(PCHContainerOps));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    Compiler.setVerboseOutputStream(Messages);
    std::unique_ptr<FrontendAction> Action = create();
    Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.createSourceManager(*Files);
    bool Success = Compiler.ExecuteAction(*Action);
    Files->clearStatCache();
    return Success;
  }

private:
  const std::vector<const CheckInfo *> &Checks;
  const CheckOptions &Options;
  TranslationUnitResult &Out;
  llvm::raw_ostream &Messages;
};

} // namespace

TranslationUnitResult Analyzer::analyze(llvm::StringRef File) const {
  TranslationUnitResult Result;
  Result.MainFile = File.str();
  // The real file system object is shared and tied to the process's working
  // directory, which ClangTool would change under the other threads' feet.
  tooling::ClangTool Tool(Database, {File.str()},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  Tool.setPrintErrorMessage(false);
  llvm::raw_string_ostream Messages(Result.CompilerMessages);
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> MessageOptions =
      new DiagnosticOptions();
  MessageOptions->ShowColors = ColoredMessages;
  TextDiagnosticPrinter Printer(Messages, MessageOptions.get());
  Tool.setDiagnosticConsumer(&Printer);
  CheckActionFactory Factory(Checks, Options, Result, Messages);
  Result.Parsed = Tool.run(&Factory) == 0;
  Messages.flush();
  if (!Result.Parsed) {
    Result.Findings.clear();
    Result.Suppressed.clear();
    Result.FileHashes.clear();
    Result.Dependencies.clear();
  } else {
    Result.FilesRead.clear();
  }
  return Result;
}

} // namespace warpfix
