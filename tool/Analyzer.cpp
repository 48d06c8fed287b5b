#include "tool/Analyzer.h"
#include "checks/NoLintDirectives.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace warpfix {
namespace {

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
    return Finder.newASTConsumer();
  }

  void EndSourceFileAction() override {
    if (!Sink)
      return;
    if (getCompilerInstance().getDiagnostics().hasErrorOccurred()) {
      const SourceManager &SM = getCompilerInstance().getSourceManager();
      for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
        llvm::SmallString<256> Path(It->first.getName());
        llvm::sys::fs::make_absolute(Path);
        llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
        Out.FilesRead.push_back(std::string(Path));
      }
      return;
    }
    NoLints->reportUnmatched(*Sink);
    Out.Findings = Sink->takeFindings();
    Out.Suppressed = Sink->takeSuppressedFindings();
    Out.FileHashes = Sink->fileHashes();
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
                     const CheckOptions &Options, TranslationUnitResult &Out)
      : Checks(Checks), Options(Options), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CheckAction>(Checks, Options, Out);
  }

private:
  const std::vector<const CheckInfo *> &Checks;
  const CheckOptions &Options;
  TranslationUnitResult &Out;
};

} // namespace

TranslationUnitResult Analyzer::analyze(llvm::StringRef File) const {
  TranslationUnitResult Result;
  Result.MainFile = File.str();
  tooling::ClangTool Tool(Database, {File.str()});
  CheckActionFactory Factory(Checks, Options, Result);
  Result.Parsed = Tool.run(&Factory) == 0;
  if (!Result.Parsed) {
    Result.Findings.clear();
    Result.Suppressed.clear();
    Result.FileHashes.clear();
  } else {
    Result.FilesRead.clear();
  }
  return Result;
}

} // namespace warpfix
