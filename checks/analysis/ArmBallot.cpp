#include "checks/analysis/ArmBallot.h"
#include "checks/analysis/Membership.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/SkippedCode.h"
#include "checks/analysis/SyncPrimitives.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace warpfix {

namespace {

/// The statement of a block that E is part of, or null.
const Stmt *statementInBlock(ASTContext &Ctx, const Stmt *E) {
  const Stmt *Child = E;
  while (true) {
    DynTypedNodeList Parents = parentsOf(Ctx, *Child);
    if (Parents.empty())
      return nullptr;
    if (Parents[0].get<CompoundStmt>())
      return Child;
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent) {
      // A local's initializer: on to its declaration.
      const auto *Var = Parents[0].get<VarDecl>();
      DynTypedNodeList Up =
          Var ? parentsOf(Ctx, *Var) : DynTypedNodeList(DynTypedNode());
      Parent = Up.empty() ? nullptr : Up[0].get<DeclStmt>();
      if (!Parent)
        return nullptr;
    }
    Child = Parent;
  }
}

/// A call of one of the toolkit's warp intrinsics, legacy or _sync: it
/// changes nothing of the thread's own that a condition could read.
bool isWarpIntrinsicCall(const Stmt *S, const SourceManager &SM) {
  const auto *Call = dyn_cast<CallExpr>(S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier() ||
      !Callee->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
      !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return false;
  static const llvm::StringSet<> Names = {
#define LEGACY_INTRINSIC(Legacy, Sync, Kind) #Legacy, #Sync,
#include "checks/analysis/LegacyIntrinsics.def"
  };
  return Names.contains(Callee->getName());
}

bool containsWarpIntrinsic(const Stmt *S, const SourceManager &SM) {
  if (!S)
    return false;
  if (isWarpIntrinsicCall(S, SM))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return containsWarpIntrinsic(Child, SM);
  });
}

/// Whether evaluating E changes nothing but through the warp intrinsics it
/// calls: what a condition inside E reads is then what it was before E.
bool changesNothingButIntrinsics(const Stmt *E, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!E)
    return true;
  if (isWarpIntrinsicCall(E, SM))
    return llvm::all_of(E->children(), [&](const Stmt *Child) {
      return changesNothingButIntrinsics(Child, Ctx);
    });
  const auto *Expression = dyn_cast<Expr>(E);
  if (!Expression)
    return false;
  if (!containsWarpIntrinsic(E, SM))
    return isHoistable(Expression, Ctx);
  // An intrinsic further down: this level itself must do nothing.
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && !isPureToolkitCall(*Call, SM))
    return false;
  if (isa<CXXConstructExpr, StmtExpr, LambdaExpr>(E))
    return false;
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_Deref))
    return false;
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    return false;
  return llvm::all_of(E->children(), [&](const Stmt *Child) {
    return changesNothingButIntrinsics(Child, Ctx);
  });
}

/// The expression that Statement evaluates before it stores anything: the
/// value of an expression statement (the right side of a top-level store to
/// a local), of a single declaration, of a return. Null for other statements.
const Expr *evaluatedPart(const Stmt *Statement) {
  const Expr *Value = nullptr;
  if (const auto *Return = dyn_cast<ReturnStmt>(Statement))
    Value = Return->getRetValue();
  else if (const auto *Declaration = dyn_cast<DeclStmt>(Statement)) {
    const auto *Var = Declaration->isSingleDecl()
                          ? dyn_cast<VarDecl>(Declaration->getSingleDecl())
                          : nullptr;
    Value = Var ? Var->getInit() : nullptr;
  } else {
    Value = dyn_cast<Expr>(Statement);
  }
  if (!Value)
    return nullptr;
  if (const auto *Store = dyn_cast<BinaryOperator>(Value->IgnoreParens());
      Store && Store->isAssignmentOp()) {
    const auto *Target =
        dyn_cast<DeclRefExpr>(Store->getLHS()->IgnoreParenImpCasts());
    const auto *Var = Target ? dyn_cast<VarDecl>(Target->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType())
      return nullptr;
    Value = Store->getRHS();
  }
  return Value;
}

} // namespace

namespace {

bool refersTo(const Stmt *S, const Decl *D) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == D)
    return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *Child) { return refersTo(Child, D); });
}

} // namespace

std::optional<std::string>
armBallotRefusal(const AbstractConditionalOperator *Cond, ASTContext &Ctx,
                 const Stmt *&Statement) {
  const Expr *Condition = Cond->getCond();
  if (isa<BinaryConditionalOperator>(Cond))
    return std::string("it is a `?:` without a middle operand");
  if (Condition->containsErrors() || Condition->isTypeDependent())
    return std::string("its condition has an error or a type that depends "
                       "on a template parameter");
  if (!readsOnlyThreadPrivate(Condition, Ctx))
    return std::string("its condition has side effects or calls, or reads "
                       "memory that other lanes may write");
  Statement = statementInBlock(Ctx, Cond);
  const Expr *Evaluated = Statement ? evaluatedPart(Statement) : nullptr;
  if (!Evaluated)
    return std::string("it is not part of an expression statement, a "
                       "declaration or a return in a block");
  // A later case label would jump over the ballot's declaration.
  DynTypedNodeList Block = parentsOf(Ctx, *Statement);
  DynTypedNodeList AboveBlock =
      Block.empty() ? DynTypedNodeList(DynTypedNode())
                    : parentsOf(Ctx, Block[0]);
  if (!AboveBlock.empty() && AboveBlock[0].get<SwitchStmt>())
    return std::string("the statement stands directly in a switch's body, "
                       "where a later case label would jump over the "
                       "ballot's declaration; put the case's statements in "
                       "braces");
  // Before a declaration, its own name still means what it meant outside.
  if (const auto *Declaration = dyn_cast<DeclStmt>(Statement))
    if (refersTo(Condition, Declaration->getSingleDecl()))
      return std::string("its condition names the variable that the "
                         "statement declares, which the ballot before the "
                         "statement could not name");
  // The ballot's copy of the condition would be read under other macro
  // definitions, or another configuration's #if branch.
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Statement->getBeginLoc(),
                                     Condition->getEndLoc()),
      SM, Ctx.getLangOpts());
  if (Range.isInvalid() ||
      directiveLineBetween(Range.getBegin(), Range.getEnd(), SM))
    return std::string("a preprocessor directive stands between the "
                       "statement's start and the condition's end, or the "
                       "statement is written by a macro");
  // Nothing the statement does before the condition is evaluated may change
  // what the condition reads.
  if (!changesNothingButIntrinsics(Evaluated, Ctx))
    return std::string("the statement does more than call warp intrinsics "
                       "before it stores its value, which might change the "
                       "condition");
  return std::nullopt;
}

} // namespace warpfix
