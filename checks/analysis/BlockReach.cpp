#include "checks/analysis/BlockReach.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/LocalDefinitions.h"
#include "checks/analysis/Loops.h"
#include "checks/analysis/Membership.h"
#include "checks/analysis/Parents.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Regex.h"

using namespace clang;

namespace warpfix {
namespace {

/// Inline PTX that leaves the function or jumps: `exit`, `ret`, a branch or
/// a call.
bool asmTransfersControl(const AsmStmt &Asm, ASTContext &Ctx) {
  static const llvm::Regex Transfer("(^|[^A-Za-z0-9_.])(exit|ret|bra|brx|call)"
                                    "([^A-Za-z0-9_]|$)");
  return Transfer.match(Asm.generateAsmString(Ctx));
}

/// Whether E reads memory that other threads may write as this one reads:
/// a volatile object, or through an atomic function.
bool readsSharedState(const Stmt *E) {
  if (!E)
    return false;
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool Found = false;
    bool VisitExpr(Expr *E) {
      Found |= E->isGLValue() && E->getType().isVolatileQualified();
      return !Found;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      Found |= Callee && llvm::StringRef(Callee->getQualifiedNameAsString())
                             .contains_insensitive("atomic");
      return !Found;
    }
    bool VisitAsmStmt(AsmStmt *) { return !(Found = true); }
  };
  Finder F;
  F.TraverseStmt(const_cast<Stmt *>(E));
  return F.Found;
}

/// The code a kernel runs, its callees', constructors' and destructors'
/// bodies followed, searched for what ends threads out of the walk's sight
/// and for spin-waits.
class RunCode : public RecursiveASTVisitor<RunCode> {
public:
  explicit RunCode(ASTContext &Ctx) : Ctx(Ctx) {}
  std::optional<UnmodelledReach> Found;
  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  void function(const FunctionDecl *F) {
    const FunctionDecl *Definition = nullptr;
    if (!F || Found || !F->hasBody(Definition) ||
        Ctx.getSourceManager().isInSystemHeader(Definition->getLocation()) ||
        !Visited.insert(Definition).second)
      return;
    if (++Depth > 8) {
      stop("calls nest too deep to follow", Definition->getLocation());
    } else {
      TraverseStmt(Definition->getBody());
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          TraverseStmt(Init->getInit());
    }
    --Depth;
  }
  void destructorOf(QualType Type) {
    if (const CXXRecordDecl *Record =
            Type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl())
      if (Record->hasDefinition() && !Record->hasTrivialDestructor())
        function(Record->getDestructor());
  }

  bool VisitAsmStmt(AsmStmt *Asm) {
    if (asmTransfersControl(*Asm, Ctx))
      stop("inline PTX may end or redirect some threads", Asm->getAsmLoc());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (!Callee && !isa<CXXPseudoDestructorExpr>(Call->getCallee()))
      stop("a call through a pointer may end some threads",
           Call->getBeginLoc());
    else if (Method && Method->isVirtual() && !Method->hasAttr<FinalAttr>() &&
             !Method->getParent()->hasAttr<FinalAttr>())
      stop("a virtual call may end some threads", Call->getBeginLoc());
    else
      function(Callee);
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    function(Construct->getConstructor());
    destructorOf(Construct->getType());
    return !Found;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *Delete) {
    destructorOf(Delete->getDestroyedType());
    return !Found;
  }
  bool VisitVarDecl(VarDecl *Var) {
    destructorOf(Var->getType());
    return !Found;
  }
  bool VisitStmt(Stmt *S) {
    if (!isLoop(S))
      return true;
    const Expr *Condition = loopCondition(S);
    bool Forever = !Condition;
    if (Condition) {
      Expr::EvalResult Value;
      Forever = !Condition->isValueDependent() &&
                Condition->EvaluateAsInt(Value, Ctx) &&
                Value.Val.getInt().getBoolValue();
    }
    if (readsSharedState(Condition) ||
        (Forever && readsSharedState(loopBody(S))))
      stop("a loop may wait on memory that other threads write, which a "
           "barrier they have not reached would deadlock",
           S->getBeginLoc());
    return !Found;
  }

private:
  void stop(std::string Why, SourceLocation Where) {
    if (!Found)
      Found = UnmodelledReach{std::move(Why), Where};
  }
  ASTContext &Ctx;
  llvm::DenseSet<const FunctionDecl *> Visited;
  unsigned Depth = 0;
};

/// Whether Condition's value comes from registers only: what it reads
/// directly, and what the locals it reads were given, followed through
/// their definitions in the kernel.
class PrivateValues {
public:
  PrivateValues(ASTContext &Ctx, const FunctionDecl &Kernel)
      : Ctx(Ctx), Locals(*localDefinitionsOf(Ctx, Kernel.getBody())) {
    for (const Definition &D : Locals.Definitions)
      DefinitionsOf[D.Var].push_back(D.Value);
  }

  bool of(const Expr *Condition) {
    if (!readsOnlyThreadPrivateValues(Condition, Ctx))
      return false;
    class Names : public RecursiveASTVisitor<Names> {
    public:
      std::vector<const VarDecl *> Vars;
      bool VisitDeclRefExpr(DeclRefExpr *Ref) {
        if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
          if (Var->hasLocalStorage())
            Vars.push_back(Var);
        return true;
      }
    };
    Names Read;
    Read.TraverseStmt(const_cast<Expr *>(Condition));
    for (const VarDecl *Var : Read.Vars) {
      if (!Followed.insert(Var).second)
        continue;
      if (Locals.Escaped.contains(Var))
        return false;
      if (Var->getInit() && !isa<ParmVarDecl>(Var) && !ofValue(Var->getInit()))
        return false;
      for (const Expr *Value : DefinitionsOf.lookup(Var))
        if (Value && !ofValue(Value))
          return false;
    }
    return true;
  }

private:
  /// A value given to a local: an initialiser or an assignment's right
  /// side, whose class type may hold anything.
  bool ofValue(const Expr *Value) {
    const Expr *Plain = Value->IgnoreParenImpCasts();
    if (isa<CXXConstructExpr>(Plain) || isa<InitListExpr>(Plain))
      return false;
    return of(Value);
  }

  ASTContext &Ctx;
  LocalDefinitions Locals;
  llvm::DenseMap<const VarDecl *, std::vector<const Expr *>> DefinitionsOf;
  llvm::DenseSet<const VarDecl *> Followed;
};

/// The guards of an exit, up to (not including) Limit: the conditions that
/// decide whether a thread takes it.
void guardsOf(const Stmt *Exit, const Stmt *Limit, ASTContext &Ctx,
              std::vector<const Expr *> &Guards) {
  for (const Stmt *Up = parentStmt(Ctx, Exit); Up && Up != Limit;
       Up = parentStmt(Ctx, Up)) {
    if (const auto *If = dyn_cast<IfStmt>(Up))
      Guards.push_back(If->getCond());
    else if (const auto *Switch = dyn_cast<SwitchStmt>(Up))
      Guards.push_back(Switch->getCond());
    else if (isLoop(Up) && loopCondition(Up))
      Guards.push_back(loopCondition(Up));
  }
}

} // namespace

std::optional<UnmodelledReach>
unmodelledReach(ASTContext &Ctx, const FunctionDecl &Kernel, const Stmt *At) {
  RunCode Code(Ctx);
  Code.function(&Kernel);
  if (Code.Found)
    return Code.Found;
  // The conditions on the way to At: of the statements around it, of the
  // exits that statements before it hold, and of every exit of a loop
  // around it, which decides how often the loop runs.
  std::vector<const Expr *> Conditions;
  const Stmt *Child = At;
  for (const Stmt *Up = parentStmt(Ctx, At); Up;
       Child = Up, Up = parentStmt(Ctx, Up)) {
    if (const auto *If = dyn_cast<IfStmt>(Up)) {
      Conditions.push_back(If->getCond());
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(Up)) {
      Conditions.push_back(Switch->getCond());
    } else if (isLoop(Up)) {
      if (loopCondition(Up))
        Conditions.push_back(loopCondition(Up));
      for (const Stmt *Exit : exitsOf(Ctx, loopBody(Up)))
        guardsOf(Exit, Up, Ctx, Conditions);
    } else if (const auto *Block = dyn_cast<CompoundStmt>(Up)) {
      for (const Stmt *Earlier : Block->body()) {
        if (Earlier == Child)
          break;
        for (const Stmt *Exit : exitsOf(Ctx, Earlier))
          guardsOf(Exit, Block, Ctx, Conditions);
      }
    }
    if (Up == Kernel.getBody())
      break;
  }
  PrivateValues Private(Ctx, Kernel);
  for (const Expr *Condition : Conditions)
    if (Condition && !Private.of(Condition))
      return UnmodelledReach{
          "whether, or how often, threads get there rests on a condition "
          "that reads memory (directly or through the locals it reads), "
          "which other threads may write as each thread reads it",
          Condition->getBeginLoc()};
  return std::nullopt;
}

} // namespace warpfix
