#include "tool/run/ParseErrors.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace warpfix {

bool TolerantActionFactory::runInvocation(
    std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    DiagnosticConsumer *DiagConsumer) {
  prepare(*Invocation, *Files, PCHContainerOps);
  CompilerInstance Compiler(std::move(PCHContainerOps));
  Compiler.setInvocation(std::move(Invocation));
  Compiler.setFileManager(Files);
  Compiler.setVerboseOutputStream(Verbose);
  Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
  if (!Compiler.hasDiagnostics())
    return false;
  Compiler.getDiagnostics().setFatalsAsError(true);
  Compiler.createSourceManager(*Files);
  std::unique_ptr<FrontendAction> Action = create();
  bool Success = Compiler.ExecuteAction(*Action);
  Files->clearStatCache();
  return Success;
}

void ErrorRecorder::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                     const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  Next.HandleDiagnostic(Level, Info);
  if (Level < DiagnosticsEngine::Error)
    return;
  llvm::SmallString<256> Message;
  Info.FormatDiagnostic(Message);
  ParseError E;
  E.Text = std::string(Message);
  E.MissingFile = Info.getID() == diag::err_pp_file_not_found;
  if (Info.hasSourceManager() && Info.getLocation().isValid()) {
    E.Loc = Info.getLocation();
    PresumedLoc At = Info.getSourceManager().getPresumedLoc(E.Loc);
    if (At.isValid())
      E.Text = llvm::formatv("{0}:{1}:{2}: {3}", At.getFilename(),
                             At.getLine(), At.getColumn(), Message);
  }
  Errors.push_back(std::move(E));
}

namespace {

/// Every function with a body, template instantiations included, whose body
/// the checks may have analysed.
class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }
  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->doesThisDeclarationHaveABody())
      Found.push_back(F);
    return true;
  }
  std::vector<const FunctionDecl *> Found;
};

/// The functions a body refers to: all of them, or only those named inside
/// an expression that holds an error (a call clang could not resolve, a
/// launch whose arguments are wrong), and whether it holds a RecoveryExpr.
class Callees : public RecursiveASTVisitor<Callees> {
public:
  explicit Callees(bool OnlyInErrors) : OnlyInErrors(OnlyInErrors) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseStmt(Stmt *S) {
    const auto *E = dyn_cast_or_null<Expr>(S);
    bool Erroneous = E && E->containsErrors();
    InError += Erroneous;
    bool Go = RecursiveASTVisitor::TraverseStmt(S);
    InError -= Erroneous;
    return Go;
  }
  bool VisitRecoveryExpr(RecoveryExpr *) {
    HasRecovery = true;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    add(dyn_cast<FunctionDecl>(E->getDecl()));
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    add(dyn_cast<FunctionDecl>(E->getMemberDecl()));
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    add(E->getConstructor());
    return true;
  }

  std::vector<const FunctionDecl *> Found;
  bool HasRecovery = false;

private:
  void add(const FunctionDecl *F) {
    if (F && (!OnlyInErrors || InError))
      Found.push_back(F);
  }
  bool OnlyInErrors;
  unsigned InError = 0;
};

bool isDeviceSide(const FunctionDecl &F) {
  return F.hasAttr<CUDADeviceAttr>() || F.hasAttr<CUDAGlobalAttr>();
}

std::string nameOf(const FunctionDecl &F) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  F.printQualifiedName(OS);
  return Name;
}

} // namespace

ErrorTaint::ErrorTaint(ASTContext &Ctx, const std::vector<ParseError> &Errors)
    : SM(Ctx.getSourceManager()), Errors(Errors) {
  FunctionCollector Collector;
  Collector.TraverseAST(Ctx);
  for (const FunctionDecl *F : Collector.Found) {
    CharSourceRange Range = SM.getExpansionRange(F->getSourceRange());
    if (Range.getBegin().isValid() && Range.getEnd().isValid())
      Functions.push_back({F, Range.getBegin(), Range.getEnd()});
  }
  std::vector<const FunctionDecl *> Work;
  // Where the errors are.
  for (const ParseError &E : Errors) {
    SourceLocation At =
        E.Loc.isValid() ? SM.getExpansionLoc(E.Loc) : SourceLocation();
    bool InFunction = false;
    for (const Function &F : Functions)
      if (At.isValid() && !SM.isBeforeInTranslationUnit(At, F.Begin) &&
          !SM.isBeforeInTranslationUnit(F.End, At)) {
        InFunction = true;
        taint(F.Decl, {nameOf(*F.Decl), E.Text, "which holds this code"},
              Work);
      }
    if (!InFunction && !E.MissingFile && !Everywhere)
      Everywhere = E.Text;
  }
  // What clang's recovery left in the AST, where an error lay elsewhere (an
  // instantiation whose error is reported at the template); and who calls
  // whom.
  for (const Function &F : Functions) {
    Callees Body(/*OnlyInErrors=*/false);
    Body.TraverseDecl(const_cast<FunctionDecl *>(F.Decl));
    for (const FunctionDecl *G : Body.Found)
      Callers[G->getCanonicalDecl()].push_back(F.Decl);
    if (F.Decl->isInvalidDecl() || Body.HasRecovery)
      taint(F.Decl,
            {nameOf(*F.Decl),
             F.Decl->isInvalidDecl()
                 ? "its declaration is invalid"
                 : "clang could not make sense of an expression in it",
             "which holds this code"},
            Work);
  }
  // Down the calls: a device function's call sites decide who reaches its
  // code. A host function's correct calls and launches mislead nothing; only
  // those inside an erroneous expression are suspect. Up the calls: the
  // analyses of a device function follow its calls into their callees.
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    bool Device = isDeviceSide(*F);
    Callees Body(/*OnlyInErrors=*/!Device);
    Body.TraverseDecl(const_cast<FunctionDecl *>(F));
    Taint Why = Tainted.find(F->getCanonicalDecl())->second;
    Taint Down = Why, Up = Why;
    Down.Relation = "which decides who reaches this code";
    Down.Upward = false;
    Up.Relation = "which this code calls";
    for (const FunctionDecl *G : Body.Found) {
      taint(G, Down, Work);
      if (const FunctionDecl *Pattern = G->getTemplateInstantiationPattern())
        taint(Pattern, Down, Work);
    }
    if (!Device || !Why.Upward)
      continue;
    auto Calling = Callers.find(F->getCanonicalDecl());
    if (Calling != Callers.end())
      for (const FunctionDecl *C : Calling->second)
        taint(C, Up, Work);
  }
}

void ErrorTaint::taint(const FunctionDecl *F, Taint Why,
                       std::vector<const FunctionDecl *> &Work) {
  // Toolkit code holds no finding, and what it calls back is analysed as
  // reached by unknown lanes anyway.
  if (SM.isInSystemHeader(F->getLocation()))
    return;
  auto [It, New] = Tainted.try_emplace(F->getCanonicalDecl(), Why);
  if (!New) {
    // Reached down first, then up: its callers must hear of it too.
    if (!Why.Upward || It->second.Upward)
      return;
    It->second = std::move(Why);
  }
  // The body is the definition's; a call may name another declaration.
  if (const FunctionDecl *Definition = F->getDefinition())
    Work.push_back(Definition);
}

std::string ErrorTaint::count() const {
  return "this translation unit has " + std::to_string(Errors.size()) +
         " error" + (Errors.size() == 1 ? "" : "s");
}

std::string ErrorTaint::summary() const {
  return count() + "; the first: " +
         (Errors.empty() ? std::string("(none)") : Errors.front().Text);
}

std::optional<std::string>
ErrorTaint::reasonFor(llvm::ArrayRef<SourceLocation> Places) const {
  if (Everywhere)
    return count() + ", one of them outside every function, which may change "
                     "what any code means: " +
           *Everywhere;
  for (SourceLocation Place : Places) {
    if (Place.isInvalid())
      continue;
    SourceLocation At = SM.getExpansionLoc(Place);
    for (const Function &F : Functions) {
      if (SM.isBeforeInTranslationUnit(At, F.Begin) ||
          SM.isBeforeInTranslationUnit(F.End, At))
        continue;
      auto It = Tainted.find(F.Decl->getCanonicalDecl());
      if (It == Tainted.end())
        continue;
      bool Own = It->second.Root == nameOf(*F.Decl);
      return count() + ", one of them in '" + It->second.Root + "', " +
             (Own ? "which holds this code" : It->second.Relation) + ": " +
             It->second.Error;
    }
  }
  return std::nullopt;
}

} // namespace warpfix
