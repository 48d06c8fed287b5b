#include "unittests/analysis/ParsedUnit.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <cstdlib>
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;

namespace warpfix::test {

namespace {

bool isToolkit(llvm::StringRef Root) {
  return !Root.empty() && llvm::sys::fs::exists(Root + "/include/cuda.h");
}

/// The arguments a run gives clang for a unit of no compilation database
/// (tool/input/CompileCommands.cpp), less those that only make a run
/// tolerant of errors: a unit test's code must parse cleanly.
std::vector<std::string> parseArguments(llvm::StringRef Toolkit) {
  std::string Compat = WARPFIX_COMPAT_SOURCE_DIR;
  std::vector<std::string> Args = {"--cuda-device-only",
                                   "--cuda-gpu-arch=sm_75",
                                   "--cuda-path=" + Toolkit.str(),
                                   "-resource-dir=" WARPFIX_CLANG_RESOURCE_DIR,
                                   "-isystem",
                                   Compat,
                                   "-include",
                                   Compat + "/warpfix_legacy_intrinsics.h",
                                   "-isystem",
                                   Toolkit.str() + "/include/cccl",
                                   "-Wno-unknown-cuda-version",
                                   "-std=c++17"};
  return Args;
}

/// Where Node's expansion begins, as an offset in the main file; nodes of
/// other files sort after it, and are not wanted.
std::optional<unsigned> mainFileOffset(const SourceManager &SM,
                                       SourceLocation Loc) {
  SourceLocation At = SM.getExpansionLoc(Loc);
  if (!At.isValid() || !SM.isInMainFile(At))
    return std::nullopt;
  return SM.getFileOffset(At);
}

template <typename Node>
std::vector<const Node *> inSourceOrder(const SourceManager &SM,
                                        std::vector<const Node *> Nodes) {
  std::vector<std::pair<unsigned, const Node *>> Placed;
  for (const Node *N : Nodes)
    if (auto Offset = mainFileOffset(SM, N->getBeginLoc()))
      Placed.push_back({*Offset, N});
  std::stable_sort(
      Placed.begin(), Placed.end(),
      [](const auto &A, const auto &B) { return A.first < B.first; });
  std::vector<const Node *> Sorted;
  for (const auto &[Offset, N] : Placed)
    Sorted.push_back(N);
  return Sorted;
}

class StatementCollector : public MatchFinder::MatchCallback {
public:
  explicit StatementCollector(llvm::function_ref<bool(const Stmt &)> Wanted)
      : Wanted(Wanted) {}
  void run(const MatchFinder::MatchResult &Result) override {
    const auto *S = Result.Nodes.getNodeAs<Stmt>("s");
    if (S && Wanted(*S))
      Found.push_back(S);
  }
  llvm::function_ref<bool(const Stmt &)> Wanted;
  std::vector<const Stmt *> Found;
};

constexpr llvm::StringLiteral UnitName = "unit.cu";

/// Attaches the preprocessor's hooks that a run attaches (tool/run/
/// Analyser.cpp) before the file is read; the tree is ASTUnit's to keep.
class HookedParse : public ASTFrontendAction {
public:
  HookedParse(FullMaskMacros &FullMasks, SkippedCode &Skipped)
      : FullMasks(FullMasks), Skipped(Skipped) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    FullMasks.attach(CI.getPreprocessor());
    Skipped.attach(CI.getPreprocessor());
    return std::make_unique<ASTConsumer>();
  }

private:
  FullMaskMacros &FullMasks;
  SkippedCode &Skipped;
};

/// Builds an ASTUnit of the invocation the driver made, through HookedParse.
class BuildHookedUnit : public tooling::ToolAction {
public:
  BuildHookedUnit(llvm::StringRef Code, FullMaskMacros &FullMasks,
                  SkippedCode &Skipped, std::unique_ptr<ASTUnit> &Out)
      : Code(Code), FullMasks(FullMasks), Skipped(Skipped), Out(Out) {}
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *, std::shared_ptr<PCHContainerOperations> Ops,
                     DiagnosticConsumer *Diagnostics) override {
    Invocation->getPreprocessorOpts().addRemappedFile(
        UnitName,
        llvm::MemoryBuffer::getMemBufferCopy(Code, UnitName).release());
    HookedParse Action(FullMasks, Skipped);
    Out.reset(ASTUnit::LoadFromCompilerInvocationAction(
        Invocation, std::move(Ops),
        CompilerInstance::createDiagnostics(&Invocation->getDiagnosticOpts(),
                                            Diagnostics,
                                            /*ShouldOwnClient=*/false),
        &Action));
    return Out != nullptr;
  }

private:
  llvm::StringRef Code;
  FullMaskMacros &FullMasks;
  SkippedCode &Skipped;
  std::unique_ptr<ASTUnit> &Out;
};

/// A lookup that finds nothing is a mistake in the test, not a fact about
/// the analysis: it stops the test binary with the reason.
[[noreturn]] void missing(const std::string &What) {
  llvm::report_fatal_error(llvm::Twine("unit test lookup: ") + What, false);
}

} // namespace

std::string cudaToolkitRoot() {
  for (const char *Variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *Value = std::getenv(Variable); Value && isToolkit(Value))
      return Value;
  if (isToolkit("/usr/local/cuda"))
    return "/usr/local/cuda";
  if (auto Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(*Nvcc, Real)) {
      llvm::StringRef Root =
          llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real));
      if (isToolkit(Root))
        return Root.str();
    }
  }
  return "";
}

ParsedUnit::ParsedUnit(llvm::StringRef Code, bool AssumeWholeWarps)
    : AssumeWholeWarps(AssumeWholeWarps) {
  std::string Toolkit = cudaToolkitRoot();
  if (Toolkit.empty()) {
    Errors = "no CUDA toolkit: set CUDA_PATH to one";
    return;
  }
  TextDiagnosticBuffer Diagnostics;
  // The file lives in memory: for the driver, in the file system it sees,
  // and for the parse, as a remapped buffer (ASTUnit makes its own).
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> InMemory(
      new llvm::vfs::InMemoryFileSystem);
  Overlay->pushOverlay(InMemory);
  InMemory->addFile(UnitName, 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
  llvm::IntrusiveRefCntPtr<FileManager> Files(
      new FileManager(FileSystemOptions(), Overlay));
  std::vector<std::string> CommandLine = {"warpfix-unittest", "-fsyntax-only"};
  for (std::string &Arg : parseArguments(Toolkit))
    CommandLine.push_back(std::move(Arg));
  CommandLine.push_back(UnitName.str());
  BuildHookedUnit Build(Code, FullMasks, Skipped, AST);
  tooling::ToolInvocation Invocation(
      std::move(CommandLine), &Build, Files.get(),
      std::make_shared<PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Diagnostics);
  Invocation.run();
  for (auto It = Diagnostics.err_begin(); It != Diagnostics.err_end(); ++It) {
    std::string Where;
    if (AST)
      Where = It->first.printToString(AST->getSourceManager()) + ": ";
    Errors += Where + It->second + "\n";
  }
  if (!AST) {
    Errors += "clang built no syntax tree\n";
    return;
  }
  Skipped.addHeadersOnlySkippedCodeIncludes(AST->getPreprocessor());
  // A run analyses the user's declarations only (tool/run/Analyser.cpp).
  ASTContext &Ctx = AST->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> UserDecls;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(D->getLocation()))
      UserDecls.push_back(D);
  Ctx.setTraversalScope(UserDecls);
}

ParsedUnit::~ParsedUnit() = default;

ASTContext &ParsedUnit::context() { return AST->getASTContext(); }

Analyses &ParsedUnit::analyses() {
  if (!Shared) {
    ASTContext &Ctx = context();
    Parents = std::make_unique<ParentIndex>(Ctx);
    InUse = std::make_unique<ParentIndex::Use>(*Parents);
    CallSiteGatherer Sites(Ctx);
    Parents->buildShowing(Sites);
    Shared = std::make_unique<Analyses>(Ctx, AssumeWholeWarps, Sites.finish());
  }
  return *Shared;
}

const FunctionDecl &ParsedUnit::function(llvm::StringRef Name) {
  // The parent index must be the one in use before any climb.
  analyses();
  auto Found =
      match(functionDecl(hasName(Name), isDefinition()).bind("f"), context());
  std::vector<const FunctionDecl *> Definitions;
  for (const auto &Bound : Found)
    Definitions.push_back(Bound.getNodeAs<FunctionDecl>("f"));
  Definitions = inSourceOrder(context().getSourceManager(), Definitions);
  if (Definitions.empty())
    missing("no definition of '" + Name.str() + "' in the unit");
  return *Definitions.front();
}

std::vector<const CallExpr *> ParsedUnit::calls(llvm::StringRef Callee) {
  analyses();
  auto Found = match(callExpr(callee(functionDecl(hasName(Callee)))).bind("c"),
                     context());
  std::vector<const CallExpr *> Calls;
  for (const auto &Bound : Found)
    Calls.push_back(Bound.getNodeAs<CallExpr>("c"));
  return inSourceOrder(context().getSourceManager(), Calls);
}

size_t ParsedUnit::callsOf(llvm::StringRef Callee) {
  return calls(Callee).size();
}

const CallExpr &ParsedUnit::call(llvm::StringRef Callee, unsigned Nth) {
  std::vector<const CallExpr *> All = calls(Callee);
  std::vector<const Stmt *> AsStatements(All.begin(), All.end());
  return *cast<CallExpr>(
      atIndex(AsStatements, Nth, ("call of '" + Callee + "'").str()));
}

const VarDecl &ParsedUnit::variable(llvm::StringRef Name) {
  analyses();
  auto Found = match(varDecl(hasName(Name)).bind("v"), context());
  std::vector<const VarDecl *> Variables;
  for (const auto &Bound : Found)
    Variables.push_back(Bound.getNodeAs<VarDecl>("v"));
  Variables = inSourceOrder(context().getSourceManager(), Variables);
  if (Variables.empty())
    missing("no variable '" + Name.str() + "' in the unit");
  return *Variables.front();
}

const Expr &ParsedUnit::initializer(llvm::StringRef Variable) {
  const VarDecl &Var = variable(Variable);
  if (!Var.getInit())
    missing("'" + Variable.str() + "' has no initializer");
  return *Var.getInit()->IgnoreImplicit();
}

std::vector<const Stmt *>
ParsedUnit::statementsOfKind(llvm::function_ref<bool(const Stmt &)> Wanted) {
  analyses();
  StatementCollector Collector(Wanted);
  MatchFinder Finder;
  Finder.addMatcher(stmt().bind("s"), &Collector);
  Finder.matchAST(context());
  return inSourceOrder(context().getSourceManager(), Collector.Found);
}

const Stmt *ParsedUnit::atIndex(const std::vector<const Stmt *> &All,
                                unsigned Nth, llvm::StringRef What) {
  if (Nth >= All.size())
    missing("the unit has " + std::to_string(All.size()) + " " + What.str() +
            ", not " + std::to_string(Nth + 1));
  return All[Nth];
}

} // namespace warpfix::test
