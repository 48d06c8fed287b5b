#include "checks/analysis/Exits.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

using namespace clang;

namespace warpfix {
namespace {

/// The statements (return, goto, break, continue, PTX exit) by which lanes
/// leave a statement early. A break is captured by the innermost loop or
/// switch around it, a continue only by the innermost loop: a continue inside
/// a switch inside S's loop body still leaves the iteration, and a break in a
/// loop nested in a switch stays in that loop.
class ExitFinder : public RecursiveASTVisitor<ExitFinder> {
public:
  ExitFinder(ASTContext &Ctx, bool CountContinue,
             ExitingFunctions *Exiting = nullptr)
      : Ctx(Ctx), CountContinue(CountContinue), Exiting(Exiting) {}
  std::vector<const Stmt *> Exits;
  bool HasGoto = false;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *S) { return add(S); }
  bool VisitGotoStmt(GotoStmt *S) {
    HasGoto = true;
    return add(S);
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) {
    HasGoto = true;
    return add(S);
  }
  bool VisitBreakStmt(BreakStmt *S) {
    return Loops == 0 && Switches == 0 ? add(S) : true;
  }
  bool VisitContinueStmt(ContinueStmt *S) {
    return Loops == 0 && CountContinue ? add(S) : true;
  }
  bool VisitAsmStmt(AsmStmt *S) {
    if (S->generateAsmString(Ctx).find("exit") != std::string::npos)
      return add(S);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (Exiting && Exiting->mayExit(*Call))
      return add(Call);
    return true;
  }
#define CAPTURES(Type, Counter)                                                \
  bool Traverse##Type(Type *S) {                                               \
    ++Counter;                                                                 \
    bool Result = RecursiveASTVisitor::Traverse##Type(S);                      \
    --Counter;                                                                 \
    return Result;                                                             \
  }
  CAPTURES(ForStmt, Loops)
  CAPTURES(WhileStmt, Loops)
  CAPTURES(DoStmt, Loops)
  CAPTURES(CXXForRangeStmt, Loops)
  CAPTURES(SwitchStmt, Switches)
#undef CAPTURES

private:
  bool add(const Stmt *S) {
    Exits.push_back(S);
    return true;
  }
  ASTContext &Ctx;
  bool CountContinue;
  ExitingFunctions *Exiting;
  unsigned Loops = 0;
  unsigned Switches = 0;
};

/// Whether S holds a statement that Wanted picks, found by a walk of its
/// children, which is much cheaper than the visitor's. A lambda's body is a
/// function of its own, as for ExitFinder. Where the visitor reaches code
/// that the children do not show, and that code can run, the walk gives no
/// answer: a declaration other than a variable (a local class's methods have
/// bodies), a block, an OpenMP or captured region (whose body is a
/// declaration's), and a variably modified type, whose sizes the visitor
/// walks in its type locations. An opaque value is followed to the
/// expression it stands for (a structured binding's array copy, a
/// property's base and index), as the visitor follows it. What the visitor
/// sees beyond that (an expression in a type that is not variably modified,
/// a template argument, an attribute's argument) never runs.
template <typename Predicate>
std::optional<bool> amongChildren(const Stmt *S, Predicate Wanted) {
  llvm::SmallVector<const Stmt *, 32> Pending = {S};
  // An expression that several opaque values stand for is walked once.
  llvm::SmallPtrSet<const Expr *, 8> Sources;
  while (!Pending.empty()) {
    const Stmt *Current = Pending.pop_back_val();
    if (!Current || isa<LambdaExpr>(Current))
      continue;
    if (Wanted(Current))
      return true;
    if (isa<BlockExpr, CapturedStmt, OMPExecutableDirective>(Current))
      return std::nullopt;
    if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(Current)) {
      const Expr *Source = Opaque->getSourceExpr();
      if (Source && Sources.insert(Source).second)
        Pending.push_back(Source);
      continue;
    }
    if (const auto *Decls = dyn_cast<DeclStmt>(Current))
      for (const Decl *D : Decls->decls()) {
        const auto *Var = dyn_cast<VarDecl>(D);
        if (!Var || Var->getType()->isVariablyModifiedType())
          return std::nullopt;
      }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Current);
        Cast && Cast->getTypeAsWritten()->isVariablyModifiedType())
      return std::nullopt;
    if (const auto *Trait = dyn_cast<UnaryExprOrTypeTraitExpr>(Current);
        Trait && Trait->isArgumentType() &&
        Trait->getArgumentType()->isVariablyModifiedType())
      return std::nullopt;
    for (const Stmt *Child : Current->children())
      Pending.push_back(Child);
  }
  return false;
}

/// Whether a label is declared in DC or in a context nested in it. Every goto
/// names a label, and clang declares each label in the function, lambda or
/// local class method whose body holds it, so a function with no label
/// anywhere among its declarations has no goto.
bool declaresLabel(const DeclContext &DC) {
  for (const Decl *D : DC.decls()) {
    if (isa<LabelDecl>(D))
      return true;
    if (const auto *Inner = dyn_cast<DeclContext>(D); Inner && declaresLabel(*Inner))
      return true;
  }
  return false;
}

} // namespace

bool ExitingFunctions::mayExit(const CallExpr &Call) {
  return mayExit(Call.getDirectCallee(), 0);
}

namespace {
/// The walk of a body that the children do not show whole (a local class,
/// a typedef): every statement the visitor reaches, lambdas' bodies too.
class AnyStatement : public RecursiveASTVisitor<AnyStatement> {
public:
  explicit AnyStatement(llvm::function_ref<bool(const Stmt *)> Wanted)
      : Wanted(Wanted) {}
  bool Found = false;
  bool VisitStmt(Stmt *S) {
    Found = Found || Wanted(S);
    return !Found;
  }

private:
  llvm::function_ref<bool(const Stmt *)> Wanted;
};
} // namespace

bool ExitingFunctions::mayExit(const FunctionDecl *F, unsigned Depth) {
  const FunctionDecl *Definition = nullptr;
  // The toolkit's functions do not exit (__trap ends the whole grid).
  if (!F || Depth > 8 || !F->hasBody(Definition) ||
      Ctx.getSourceManager().isInSystemHeader(Definition->getLocation()))
    return false;
  auto [It, New] = Known.try_emplace(Definition, false);
  if (!New)
    return It->second; // known, or being asked (a recursion adds nothing)
  auto Exiting = [&](const Stmt *Child) {
    if (const auto *Asm = dyn_cast<AsmStmt>(Child))
      return Asm->generateAsmString(Ctx).find("exit") != std::string::npos;
    const auto *Call = dyn_cast<CallExpr>(Child);
    return Call && mayExit(Call->getDirectCallee(), Depth + 1);
  };
  std::optional<bool> Exits = amongChildren(Definition->getBody(), Exiting);
  if (!Exits) {
    AnyStatement Walk(Exiting);
    Walk.TraverseStmt(Definition->getBody());
    Exits = Walk.Found;
  }
  Known[Definition] = *Exits;
  return *Exits;
}

std::vector<const Stmt *> exitsOf(ASTContext &Ctx, const Stmt *S,
                                  bool CountContinue,
                                  ExitingFunctions *Exiting) {
  // Most statements hold no jump and no asm at all, which their children
  // show; the visitor, which tells which jumps leave S, walks the rest.
  std::optional<bool> MayExit = amongChildren(S, [&](const Stmt *Child) {
    if (const auto *Call = dyn_cast<CallExpr>(Child))
      return Exiting && Exiting->mayExit(*Call);
    return isa<ReturnStmt, GotoStmt, IndirectGotoStmt, BreakStmt, ContinueStmt,
               AsmStmt>(Child);
  });
  if (MayExit && !*MayExit)
    return {};
  ExitFinder Finder(Ctx, CountContinue, Exiting);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return Finder.Exits;
}

bool containsGoto(ASTContext &Ctx, const Stmt *S) {
  if (std::optional<bool> Found = amongChildren(S, [](const Stmt *Child) {
        return isa<GotoStmt, IndirectGotoStmt>(Child);
      }))
    return *Found;
  ExitFinder Finder(Ctx, true);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return Finder.HasGoto;
}

bool bodyContainsGoto(ASTContext &Ctx, const FunctionDecl &Definition) {
  const Stmt *Body = Definition.getBody();
  // Blocks and OpenMP regions declare their labels in contexts that are not
  // among the function's declarations: there only the walk answers.
  const LangOptions &Lang = Ctx.getLangOpts();
  if (Body && !Lang.Blocks && !Lang.OpenMP && !declaresLabel(Definition))
    return false;
  return containsGoto(Ctx, Body);
}

const char *describeExit(const Stmt *Exit) {
  if (isa<ReturnStmt>(Exit))
    return "an early return";
  if (isa<BreakStmt>(Exit))
    return "a break";
  if (isa<ContinueStmt>(Exit))
    return "a continue";
  if (isa<AsmStmt>(Exit))
    return "inline PTX that may exit";
  if (isa<CallExpr>(Exit))
    return "a call that may exit the thread (inline PTX exit)";
  return "a goto";
}

} // namespace warpfix
