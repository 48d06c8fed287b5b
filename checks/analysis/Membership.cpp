#include "checks/analysis/Membership.h"
#include "checks/analysis/ArmBallot.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/LoopRewrite.h"
#include "checks/analysis/Loops.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/SyncPrimitives.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warpfix {

/// One step down from a function's body towards a statement in it.
struct PathStep {
  const Stmt *Parent;
  const Stmt *Child;
};
using Step = PathStep;

namespace {

/// A statement that every lane running it leaves by an exit.
bool alwaysExits(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt>(S))
    return true;
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    return !Block->body_empty() && alwaysExits(Block->body_back());
  return false;
}


/// The statements from the function body down to S, outermost first.
const FunctionDecl *pathTo(ASTContext &Ctx, const Stmt *S,
                           std::vector<Step> &Path, Membership &Failure) {
  const Stmt *Child = S;
  while (true) {
    DynTypedNodeList Parents = parentsOf(Ctx, *Child);
    if (Parents.empty()) {
      Failure = Membership::unknown("the enclosing function was not found",
                                    S->getBeginLoc());
      return nullptr;
    }
    if (const auto *F = Parents[0].get<FunctionDecl>()) {
      std::reverse(Path.begin(), Path.end());
      return F;
    }
    if (const auto *Lambda = Parents[0].get<LambdaExpr>()) {
      Failure = Membership::unknown("the code is inside a lambda, whose "
                                    "callers are not analysed",
                                    Lambda->getBeginLoc());
      return nullptr;
    }
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent) {
      // A local variable's initializer: continue from its declaration.
      const auto *Var = Parents[0].get<VarDecl>();
      DynTypedNodeList Up = Var ? parentsOf(Ctx, *Var) : DynTypedNodeList(
                                                             DynTypedNode());
      if (Var && !Up.empty() && (Parent = Up[0].get<DeclStmt>())) {
        Child = Parent;
        continue;
      }
      Failure = Membership::unknown("the code is not inside a function body",
                                    S->getBeginLoc());
      return nullptr;
    }
    Path.push_back({Parent, Child});
    Child = Parent;
  }
}

} // namespace

bool sameLanes(const Membership &A, const Membership &B) {
  if (A.Result != B.Result || A.Result == Membership::Unknown ||
      A.Conditions.size() != B.Conditions.size())
    return false;
  for (size_t I = 0; I < A.Conditions.size(); ++I) {
    const LaneCondition &X = A.Conditions[I], &Y = B.Conditions[I];
    if (X.Anchor != Y.Anchor || X.Conjuncts.size() != Y.Conjuncts.size())
      return false;
    for (size_t J = 0; J < X.Conjuncts.size(); ++J)
      if (X.Conjuncts[J].Condition != Y.Conjuncts[J].Condition ||
          X.Conjuncts[J].Negated != Y.Conjuncts[J].Negated)
        return false;
  }
  return true;
}

namespace {
/// A constexpr function whose visible body passes Check: a constexpr
/// function runs at run time too, where it may do what a constant
/// evaluation never reaches (call a non-constexpr function, read a global).
template <typename CheckBody>
bool constexprBodyPasses(const FunctionDecl *Callee, unsigned &Depth,
                         CheckBody Check) {
  const FunctionDecl *Definition = Callee ? Callee->getDefinition() : nullptr;
  if (!Definition || !Definition->isConstexpr() || !Definition->getBody() ||
      Depth >= 3)
    return false;
  ++Depth;
  bool Passes = Check(Definition->getBody());
  --Depth;
  return Passes;
}
} // namespace

static bool isHoistableStmt(const Stmt *Condition, ASTContext &Ctx,
                            unsigned Depth);

bool isHoistable(const Expr *Condition, ASTContext &Ctx) {
  return isHoistableStmt(Condition, Ctx, 0);
}

static bool isHoistableStmt(const Stmt *Condition, ASTContext &Ctx,
                            unsigned Depth) {
  class Checker : public RecursiveASTVisitor<Checker> {
  public:
    Checker(ASTContext &Ctx, unsigned Depth) : Ctx(Ctx), Depth(Depth) {}
    bool Safe = true;
    // A default argument runs at each call, and is not in the call's
    // children.
    bool TraverseCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
      return TraverseStmt(E->getExpr());
    }
    bool TraverseCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
      return TraverseStmt(E->getExpr());
    }
    // A constructor, and the destructor of a temporary, are calls.
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      return keep(E->getConstructor()->isTrivial());
    }
    bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *) {
      return keep(false);
    }
    bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
      // threadIdx.x and friends read special registers: no side effects.
      if (isa<MSPropertyRefExpr>(E->getSyntacticForm()->IgnoreParens()))
        return true;
      Safe = false;
      return false;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      return keep(!B->isAssignmentOp());
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      // `*flag` through a pointer to volatile reads volatile memory.
      bool VolatileRead = U->getOpcode() == UO_Deref &&
                          U->getType().isVolatileQualified();
      return keep(!U->isIncrementDecrementOp() && !VolatileRead);
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!isa<CXXMemberCallExpr>(Call) &&
          constexprBodyPasses(Callee, Depth, [&](const Stmt *Body) {
            return isHoistableStmt(Body, Ctx, Depth);
          }))
        return true;
      return keep(isPureToolkitCall(*Call, Ctx.getSourceManager()));
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      return keep(!Ref->getType().isVolatileQualified());
    }
    bool VisitMemberExpr(MemberExpr *M) {
      return keep(!M->getType().isVolatileQualified());
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *A) {
      return keep(!A->getType().isVolatileQualified());
    }
    // In a template as written, what an expression whose type depends on a
    // template parameter does (an overloaded operator, a conversion) is known
    // only per instantiation. The operand of sizeof is not evaluated.
    bool VisitExpr(Expr *E) { return keep(!E->isTypeDependent()); }
    bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
      return true;
    }
    bool VisitStmtExpr(StmtExpr *) { return keep(false); }
    bool VisitLambdaExpr(LambdaExpr *) { return keep(false); }
    bool VisitCXXNewExpr(CXXNewExpr *) { return keep(false); }
    bool VisitCXXDeleteExpr(CXXDeleteExpr *) { return keep(false); }
    bool VisitCXXThrowExpr(CXXThrowExpr *) { return keep(false); }
    // In a constexpr function's body: its own locals are registers, but it
    // must not store anywhere else (caught above) nor have static locals.
    bool VisitVarDecl(VarDecl *Var) {
      return keep(Var->hasLocalStorage() &&
                  !Var->getType().isVolatileQualified());
    }

  private:
    bool keep(bool Ok) {
      Safe = Safe && Ok;
      return Safe;
    }
    ASTContext &Ctx;
    unsigned Depth;
  };
  Checker C(Ctx, Depth);
  C.TraverseStmt(const_cast<Stmt *>(Condition));
  return C.Safe;
}

namespace {

/// A variable whose storage only its own thread can reach: a local that is
/// not a reference (__shared__ locals are static) and not volatile.
bool isThreadPrivate(const VarDecl *Var) {
  return Var && Var->hasLocalStorage() && !Var->getType()->isReferenceType() &&
         !Var->getType().isVolatileQualified();
}

/// An lvalue inside a thread-private variable: the variable, a field of it
/// reached with '.', or an element of an array it holds.
bool isInThreadPrivateObject(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  // A reference member names whatever it was bound to.
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return !Member->isArrow() &&
           !Member->getMemberDecl()->getType()->isReferenceType() &&
           isInThreadPrivateObject(Member->getBase());
  if (const auto *Element = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = Element->getBase()->IgnoreParenImpCasts();
    return Base->getType()->isArrayType() && isInThreadPrivateObject(Base);
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return isThreadPrivate(dyn_cast<VarDecl>(Ref->getDecl()));
  return false;
}

/// An element of a __constant__ or const array outside any function: memory
/// that no device code writes.
bool isInUnwrittenArray(const ArraySubscriptExpr *Element) {
  const Expr *Base = Element->getBase()->IgnoreParenImpCasts();
  while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base))
    Base = Inner->getBase()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->getType()->isArrayType() && !Var->hasLocalStorage() &&
         !Var->getType().isVolatileQualified() &&
         (Var->hasAttr<CUDAConstantAttr>() ||
          Var->getType().isConstQualified());
}

} // namespace

static bool readsOnlyThreadPrivateStmt(const Stmt *Condition,
                                       ASTContext &Ctx, unsigned Depth);

bool readsOnlyThreadPrivate(const Expr *Condition, ASTContext &Ctx) {
  return readsOnlyThreadPrivateStmt(Condition, Ctx, 0) &&
         isHoistable(Condition, Ctx);
}

bool readsOnlyThreadPrivateValues(const Expr *E, ASTContext &Ctx) {
  return readsOnlyThreadPrivateStmt(E, Ctx, 0);
}

static bool readsOnlyThreadPrivateStmt(const Stmt *Condition,
                                       ASTContext &Ctx, unsigned Depth) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    Finder(ASTContext &Ctx, unsigned Depth) : Ctx(Ctx), Depth(Depth) {}
    bool Memory = false;
    bool TraverseCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
      return TraverseStmt(E->getExpr());
    }
    bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
      Memory |= !isa<MSPropertyRefExpr>(E->getSyntacticForm()->IgnoreParens());
      return !Memory;
    }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      // A const or __constant__ variable (warpSize among them) is memory
      // that no device code writes: it reads the same every time.
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        Memory |= (!Var->hasLocalStorage() &&
                   !Var->getType().isConstQualified() &&
                   !Var->hasAttr<CUDAConstantAttr>()) ||
                  Var->getType()->isReferenceType() ||
                  Var->getType().isVolatileQualified();
      // A structured binding names a part of an object that may be a
      // reference to anything.
      Memory |= isa<BindingDecl>(Ref->getDecl());
      return !Memory;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *Element) {
      Memory |= !isInThreadPrivateObject(Element) &&
                !isInUnwrittenArray(Element);
      return !Memory;
    }
    bool VisitMemberExpr(MemberExpr *Member) {
      // A mutable field may be written through a const object.
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      Memory |= Member->isArrow() ||
                Member->getMemberDecl()->getType()->isReferenceType() ||
                (Field && Field->isMutable() &&
                 !isInThreadPrivateObject(Member));
      return !Memory;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      Memory |= U->getOpcode() == UO_Deref;
      return !Memory;
    }
    bool VisitCallExpr(CallExpr *Call) {
      // A constexpr function runs at run time too, and may read what a
      // pointer or reference argument points to, or a global.
      for (const Expr *Argument : Call->arguments())
        Memory |= Argument->getType()->isPointerType() ||
                  Argument->getType()->isArrayType() ||
                  Argument->getType()->isRecordType() || Argument->isGLValue();
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Memory && Callee && Callee->isConstexpr())
        Memory |= !constexprBodyPasses(Callee, Depth, [&](const Stmt *Body) {
          return readsOnlyThreadPrivateStmt(Body, Ctx, Depth);
        });
      return !Memory;
    }

  private:
    ASTContext &Ctx;
    unsigned Depth;
  };
  Finder F(Ctx, Depth);
  F.TraverseStmt(const_cast<Stmt *>(Condition));
  return !F.Memory;
}


bool MembershipAnalysis::uniformIn(LaneValue V, const FunctionDecl *F,
                                   Membership &M) {
  // The launch facts only make values the same across a warp, never across
  // a block.
  if (Scope == MembershipScope::Block)
    return V.What == LaneValue::Uniform;
  if (!V.isWarpUniform())
    return false;
  unsigned AssumedOnly = 0;
  if (Shapes.holds(V.Relies, F, AssumedOnly)) {
    DefaultAssumptions Taken{AssumedOnly, "", {}};
    if (AssumedOnly & OtherUnitsLaunchAlike) {
      BlockShape Shape = Shapes.in(F);
      Taken.OtherUnits = Shape.ElsewhereWhy;
      Taken.OtherUnitsLoc = Shape.ElsewhereWhere;
    }
    M.Assumed.add(Taken);
    return true;
  }
  if (!M.AssumptionOff.empty())
    return false;
  BlockShape Shape = Shapes.in(F);
  // A launch that contradicts whole warps says why; otherwise a row index
  // failed for want of proof, whatever else the launches contradict.
  if ((V.Relies & WholeWarpRows) &&
      Shape.WholeWarps == BlockShape::Assumed) {
    M.AssumptionOff =
        "threadIdx.y and threadIdx.z are the same across a warp only where "
        "blockDim.x is a multiple of 32, which no launch in this translation "
        "unit proves for the code in '" +
        F->getNameAsString() +
        "' (a kernel whose address is taken may be launched in any shape)";
    M.AssumptionOffLoc = F->getLocation();
  } else if (!Shape.Why.empty() && !((V.Relies & WholeWarpRows) &&
                                      Shape.WholeWarps == BlockShape::InUnit)) {
    M.AssumptionOff = Shape.Why;
    M.AssumptionOffLoc = Shape.Where;
  } else if (!Shape.ElsewhereWhy.empty()) {
    M.AssumptionOff = Shape.ElsewhereWhy;
    M.AssumptionOffLoc = Shape.ElsewhereWhere;
  }
  return false;
}

/// M made unknown for Reason, keeping what it learnt about the launch, and
/// the conditions it had taken that part the lanes too.
static bool fail(Membership &M, Membership Failure) {
  if (Failure.KnownDivergent && M.LaneDependentCondition)
    for (const LaneCondition &Taken : M.Conditions)
      for (const LaneCondition::Conjunct &C : Taken.Conjuncts)
        Failure.Deciders.push_back(C.Condition);
  Failure.AssumptionOff = std::move(M.AssumptionOff);
  Failure.AssumptionOffLoc = M.AssumptionOffLoc;
  M = std::move(Failure);
  return false;
}

/// Why lanes may part where V, which uniformIn() did not prove, decides who
/// goes on. Where V is lane-dependent, some lanes provably do not get past
/// it; where V is warp-uniform in blocks of whole warps and only the block
/// shape is unproven (a kernel whose address is taken), nothing is known:
/// in a 1-D block every lane may well go on.
Membership MembershipAnalysis::notUniform(bool SplitsWarps,
                                          llvm::StringRef Subject,
                                          llvm::StringRef Consequence,
                                          llvm::StringRef MaybeConsequence,
                                          SourceLocation Where,
                                          const Expr *Condition) const {
  if (SplitsWarps) {
    Membership Divergent = Membership::divergent(
        (Subject + " is " + dependent() + Consequence).str(), Where);
    Divergent.Deciders.push_back(Condition);
    return Divergent;
  }
  return Membership::unknown((Subject + " is warp-uniform only " +
                              InWholeWarpBlocksNotKnown + MaybeConsequence)
                                 .str(),
                             Where);
}

/// M made unknown because a fix that would restructure the code around a
/// divergent Subject is not the same program: why, after what notUniform()
/// says of the Subject.
static bool failRewrite(Membership &M, Membership Failure,
                        const std::string &Why) {
  Failure.Reason += ", and " + Why;
  return fail(M, std::move(Failure));
}

bool MembershipAnalysis::splitsWarps(LaneValue V, const FunctionDecl *F) {
  if (Scope == MembershipScope::Block)
    return V.What != LaneValue::Uniform;
  // Rows of whole warps are never assumed (blocks of 16 x 16 threads are
  // common), and --assume-whole-warps=false says that blocks may not be.
  return !V.isWarpUniform() || Shapes.in(F).ShownOtherwise ||
         (V.Relies & WholeWarpRows) || !Shapes.assumesByDefault();
}

bool MembershipAnalysis::addCondition(Membership &M, const IfStmt *If,
                                      bool Negated, const Stmt *Anchor,
                                      const FunctionDecl *F) {
  LaneValue Condition = Lanes.of(If->getCond());
  if (uniformIn(Condition, F, M))
    return true;
  // Provably partial only where the condition is lane-dependent, not where
  // just the block shape is unproven.
  bool Splits = splitsWarps(Condition, F);
  auto Reject = [&](std::string Why, SourceLocation Where) {
    return fail(M, Splits ? Membership::divergent(std::move(Why), Where)
                          : Membership::unknown(std::move(Why), Where));
  };
  // A barrier takes no ballot: all that matters is whether the branch
  // splits the block. What clang could not read, or a template's condition
  // as written, is unknown, not thread-dependent.
  if (Scope == MembershipScope::Block) {
    if (If->getCond()->containsErrors() || If->getCond()->isTypeDependent())
      return fail(M, Membership::unknown(
                         "the branch condition has an error or depends on a "
                         "template parameter, so which threads take it is "
                         "not known",
                         If->getCond()->getBeginLoc()));
    M.LaneDependentCondition = true;
    M.Conditions.push_back({{{If->getCond(), Negated}}, Anchor, nullptr});
    return true;
  }
  if (If->getInit() || If->getConditionVariable() || If->isConsteval())
    return Reject("the branch declares a variable in its condition, so the "
                  "condition cannot be evaluated before it",
                  If->getBeginLoc());
  // Clang marks what it could not read (an undeclared name) as dependent
  // too; that is an error, not a template.
  if (If->getCond()->containsErrors())
    return Reject("the branch condition has an error, so which lanes take "
                  "the branch is not known",
                  If->getCond()->getBeginLoc());
  if (If->getCond()->isTypeDependent())
    return Reject("the branch condition's type depends on a template "
                  "parameter, so what it calls (an overloaded operator, a "
                  "conversion) is known only per instantiation, and it cannot "
                  "be evaluated again in a ballot",
                  If->getCond()->getBeginLoc());
  if (!isHoistable(If->getCond(), Ctx))
    return Reject("the branch condition has side effects, volatile reads or "
                  "calls, so it cannot be evaluated again in a ballot",
                  If->getCond()->getBeginLoc());
  M.LaneDependentCondition |= Splits;
  std::vector<LaneCondition::Conjunct> Conjuncts = {{If->getCond(), Negated}};
  // An arm deep in an else-if chain is reached where every earlier test
  // failed: its ballot would repeat them all, and the chain's ballots (and
  // this climb, for each call in it) grow with the square of its length.
  auto TooLong = [&](size_t Count) { return Count > MaxBallotConjuncts; };
  auto RejectTooLong = [&] {
    return Reject("the lanes that get here are those for which more than " +
                      std::to_string(MaxBallotConjuncts) +
                      " conditions in a row hold (an arm of a long else-if "
                      "chain repeats every earlier test), more than a ballot "
                      "written out should hold; compute the arm once into a "
                      "variable, or use a switch, and take the ballot of that",
                  Anchor->getBeginLoc());
  };
  // A ballot needs a block to be inserted into: climb through unbraced
  // if/else nesting, taking the outer conditions along.
  const Stmt *Site = Anchor;
  while (true) {
    if (TooLong(Conjuncts.size()))
      return RejectTooLong();
    DynTypedNodeList Parents = parentsOf(Ctx, *Site);
    const Stmt *Parent = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (Parent && isa<CompoundStmt>(Parent)) {
      DynTypedNodeList Up = parentsOf(Ctx, *Parent);
      if (!Up.empty() && Up[0].get<SwitchStmt>())
        return Reject("the branch stands directly in a switch's body, where "
                      "the mask's declaration would be jumped over by a "
                      "later case label, which does not compile; put the "
                      "case's statements in braces",
                      If->getBeginLoc());
      break;
    }
    const auto *Outer = dyn_cast_or_null<IfStmt>(Parent);
    if (!Outer)
      return Reject("the branch is the unbraced body of a loop, switch or "
                    "label; add braces so that a mask can be computed "
                    "before it",
                    If->getBeginLoc());
    bool InElse = Outer->getElse() == Site;
    // The walk down the path took the outer if of an else-if chain just
    // before this one: its test, and those above it, are the last
    // condition's already.
    if (!M.Conditions.empty() &&
        llvm::any_of(M.Conditions.back().Conjuncts,
                     [&](const LaneCondition::Conjunct &C) {
                       return C.Condition == Outer->getCond() &&
                              C.Negated == InElse;
                     })) {
      if (TooLong(M.Conditions.back().Conjuncts.size() + Conjuncts.size()))
        return RejectTooLong();
      for (const auto &C : Conjuncts)
        M.Conditions.back().Conjuncts.push_back(C);
      return true;
    }
    if (!M.Conditions.empty() && M.Conditions.back().Anchor == Outer) {
      if (TooLong(M.Conditions.back().Conjuncts.size() + Conjuncts.size()))
        return RejectTooLong();
      for (const auto &C : Conjuncts)
        M.Conditions.back().Conjuncts.push_back(C);
      return true;
    }
    if (Outer->getInit() || Outer->getConditionVariable() ||
        !isHoistable(Outer->getCond(), Ctx))
      return Reject("an enclosing branch condition cannot be evaluated again "
                    "in a ballot",
                    Outer->getBeginLoc());
    Conjuncts.insert(Conjuncts.begin(), {Outer->getCond(), InElse});
    Site = Outer;
  }
  M.Conditions.push_back({std::move(Conjuncts), Site});
  return true;
}

/// A condition of its own, whose ballot stands before Anchor (and, for a
/// rewritten Loop, in each of its iterations).
static void addSingleCondition(Membership &M, bool Splits,
                               const Expr *Condition, bool Negated,
                               const Stmt *Anchor,
                               const Stmt *Loop = nullptr) {
  M.LaneDependentCondition |= Splits;
  LaneCondition Single;
  Single.Conjuncts = {{Condition, Negated}};
  Single.Anchor = Anchor;
  Single.Loop = Loop;
  M.Conditions.push_back(std::move(Single));
}

bool MembershipAnalysis::addLoopCondition(Membership &M, const Stmt *Loop,
                                          const FunctionDecl *F) {
  const Expr *Condition = loopCondition(Loop);
  bool Splits = splitsWarps(Lanes.of(Condition), F);
  if (std::optional<std::string> Refusal =
          loopRewriteRefusal(Loop, Ctx, Lanes.exitingFunctions()))
    return failRewrite(
        M,
        notUniform(Splits, "the loop's condition",
                   ", so lanes leave it at different iterations",
                   ", so lanes may leave it at different iterations",
                   Ctx.getSourceManager().getExpansionLoc(Loop->getBeginLoc()),
                   Condition),
        "the loop cannot be rewritten to keep them together: " + *Refusal);
  addSingleCondition(M, Splits, Condition, /*Negated=*/false, Loop, Loop);
  return true;
}

bool MembershipAnalysis::addArmCondition(
    Membership &M, const AbstractConditionalOperator *Cond, bool InFalseArm,
    const FunctionDecl *F) {
  const Expr *Condition = Cond->getCond();
  bool Splits = splitsWarps(Lanes.of(Condition), F);
  const Stmt *Statement = nullptr;
  std::optional<std::string> Refusal = armBallotRefusal(Cond, Ctx, Statement);
  // The ballots of nested `?:`s would all stand before the statement, where
  // the inner one would be taken by lanes that its mask leaves out.
  if (!Refusal && llvm::any_of(M.Conditions, [&](const LaneCondition &C) {
        return C.Anchor == Statement;
      }))
    Refusal = "it is inside an arm of another lane-dependent conditional "
              "expression of the same statement, whose lanes its ballot, "
              "taken before the statement, would not all be";
  if (Refusal)
    return failRewrite(
        M,
        notUniform(Splits, "the conditional expression's condition", "", "",
                   Ctx.getSourceManager().getExpansionLoc(Cond->getBeginLoc()),
                   Condition),
        "its ballot cannot be taken before the statement: " + *Refusal);
  addSingleCondition(M, Splits, Condition, InFalseArm, Statement);
  return true;
}

bool MembershipAnalysis::applyEarlyExits(Membership &M, const Stmt *Earlier,
                                         const Stmt *Block,
                                         const FunctionDecl *F) {
  const std::vector<const Stmt *> &Exits = Lanes.exits(Earlier);
  bool AllUniform = true;
  // Whether some exit is provably taken by some lanes only; otherwise only
  // an unproven block shape keeps the guards from being uniform.
  bool SomeLaneDependent = false;
  const Stmt *Divergent = nullptr;
  for (const Stmt *Exit : Exits) {
    LaneValue Guard = Lanes.controlDependenceWithin(Exit, Block);
    bool Unusual = isa<GotoStmt, IndirectGotoStmt, AsmStmt, CallExpr>(Exit);
    if (!uniformIn(Guard, F, M) || Unusual) {
      AllUniform = false;
      SomeLaneDependent |= Unusual || splitsWarps(Guard, F);
      Divergent = Divergent ? Divergent : Exit;
    }
  }
  if (AllUniform)
    return true;
  // The one shape with a known remainder: `if (c) return;` lets exactly the
  // lanes where !c go on.
  if (const auto *If = dyn_cast<IfStmt>(Earlier)) {
    bool ThenExits = alwaysExits(If->getThen());
    bool ElseExits = alwaysExits(If->getElse());
    if (ThenExits && !ElseExits &&
        (!If->getElse() || Lanes.exits(If->getElse()).empty()))
      return addCondition(M, If, /*Negated=*/true, If, F);
    if (ElseExits && !ThenExits && Lanes.exits(If->getThen()).empty())
      return addCondition(M, If, /*Negated=*/false, If, F);
  }
  std::string Why =
      std::string(describeExit(Divergent)) +
      (SomeLaneDependent ? " under a " + dependent().str() + " condition"
                         : " under a condition that is warp-uniform only " +
                               InWholeWarpBlocksNotKnown.str() + ",") +
      " may remove " + threads().str() + " before this point";
  Membership Failure =
      SomeLaneDependent
          ? Membership::divergent(std::move(Why), Divergent->getBeginLoc())
          : Membership::unknown(std::move(Why), Divergent->getBeginLoc());
  if (SomeLaneDependent)
    Failure.Deciders.push_back(Divergent);
  return fail(M, std::move(Failure));
}

Membership MembershipAnalysis::at(const Stmt *S, FixShapes Allowed) {
  return walk(S, /*FromAnyEntry=*/false, Allowed);
}

Membership MembershipAnalysis::withinFunction(const Stmt *S) {
  return walk(S, /*FromAnyEntry=*/true);
}

Membership MembershipAnalysis::walk(const Stmt *S, bool FromAnyEntry,
                                    FixShapes Allowed) {
  std::vector<Step> Path;
  // One allocation for the usual depth, rather than a growth per level.
  Path.reserve(16);
  Membership M;
  const FunctionDecl *F = pathTo(Ctx, S, Path, M);
  if (!F)
    return M;
  if (Lanes.hasGoto(F))
    return Membership::unknown("a goto in the function may repeat or skip "
                               "code for some lanes",
                               F->getLocation());
  Membership Entry;
  Entry.Result = Membership::AllLanes;
  if (!FromAnyEntry)
    Entry = atEntry(F);
  if (Entry.Result != Membership::AllLanes)
    return Entry;
  M = fromEntry(F, Path, Allowed);
  if (M.Result != Membership::Unknown)
    M.takeAssumptions(Entry);
  if (M.Result == Membership::AllLanes && !FromAnyEntry) {
    BlockShape Shape = Shapes.in(F);
    if (Shape.FullWarps == BlockShape::Contradicted) {
      M.PartialWarps = Shape.PartialWhy;
      M.PartialWarpsLoc = Shape.PartialWhere;
    }
  }
  return M;
}

Membership MembershipAnalysis::fromEntry(const FunctionDecl *F,
                                         const std::vector<Step> &Path,
                                         FixShapes Allowed) {
  Membership M;
  auto Uniform = [&](const Expr *E) { return uniformIn(Lanes.of(E), F, M); };
  for (const Step &Step : Path) {
    const Stmt *Parent = Step.Parent, *Child = Step.Child;
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
      for (const Stmt *Earlier : Block->body()) {
        if (Earlier == Child)
          break;
        if (!applyEarlyExits(M, Earlier, Block, F))
          return M;
      }
    } else if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (Child == If->getThen() || Child == If->getElse())
        if (!addCondition(M, If, Child == If->getElse(), If, F))
          return M;
    } else if (isLoop(Parent)) {
      if (const auto *For = dyn_cast<ForStmt>(Parent);
          For && Child == For->getInit())
        continue;
      if (loopCondition(Parent) && !Uniform(loopCondition(Parent))) {
        // The rewrite also refuses every exit from the body, so the exits
        // below need no second look.
        if (Allowed == FixShapes::WithLoopsAndArms &&
            Child == loopBody(Parent)) {
          if (!addLoopCondition(M, Parent, F))
            return M;
          continue;
        }
        fail(M, notUniform(
                    splitsWarps(Lanes.of(loopCondition(Parent)), F),
                    "the loop's condition",
                    (", so " + threads() + " leave it at different iterations")
                        .str(),
                    ", so lanes may leave it at different iterations",
                    Parent->getBeginLoc(), loopCondition(Parent)));
        return M;
      }
      // The body is searched, not the loop: a break in it leaves this loop.
      for (const Stmt *Exit :
           exitsOf(Ctx, loopBody(Parent), /*CountContinue=*/false,
                   &Lanes.exitingFunctions())) {
        LaneValue Guard = Lanes.controlDependenceWithin(Exit, Parent);
        if (!uniformIn(Guard, F, M)) {
          std::string Exits = describeExit(Exit);
          Membership Failure =
              !splitsWarps(Guard, F)
                  ? Membership::unknown(
                        Exits +
                            " under a condition that is warp-uniform "
                            "only " +
                            InWholeWarpBlocksNotKnown.str() +
                            ", may make lanes leave the loop at "
                            "different iterations",
                        Exit->getBeginLoc())
                  : Membership::divergent(
                        Exits + " under a " + dependent().str() +
                            " condition makes " + threads().str() +
                            " leave the loop at different iterations",
                        Exit->getBeginLoc());
          if (Failure.KnownDivergent)
            Failure.Deciders.push_back(Exit);
          fail(M, std::move(Failure));
          return M;
        }
      }
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(Parent)) {
      if (Child != Switch->getCond() && Child != Switch->getInit() &&
          !Uniform(Switch->getCond())) {
        fail(M, notUniform(splitsWarps(Lanes.of(Switch->getCond()), F),
                           "the switch's condition", "", "",
                           Switch->getBeginLoc(), Switch->getCond()));
        return M;
      }
    } else if (isa<SwitchCase>(Parent)) {
      // A case label nested inside another statement (Duff's device) jumps
      // into the middle of it.
      const Stmt *Up = nullptr;
      DynTypedNodeList Parents = parentsOf(Ctx, *Parent);
      if (!Parents.empty())
        Up = Parents[0].get<Stmt>();
      DynTypedNodeList Above = Up ? parentsOf(Ctx, *Up) : DynTypedNodeList(
                                                              DynTypedNode());
      bool AtTopOfSwitch = Up && (isa<SwitchStmt>(Up) ||
                                  (isa<CompoundStmt>(Up) && !Above.empty() &&
                                   Above[0].get<SwitchStmt>()));
      if (!AtTopOfSwitch && !isa<SwitchCase>(Up))
        return Membership::unknown("a case label inside a nested statement "
                                   "lets lanes jump into the middle of it",
                                   Parent->getBeginLoc());
    } else if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(Parent)) {
      if (Child != Cond->getCond() && !Uniform(Cond->getCond())) {
        if (Allowed == FixShapes::WithLoopsAndArms) {
          if (!addArmCondition(M, Cond, Child != Cond->getTrueExpr(), F))
            return M;
          continue;
        }
        fail(M, notUniform(splitsWarps(Lanes.of(Cond->getCond()), F),
                           "the conditional expression's condition", "", "",
                           Cond->getBeginLoc(), Cond->getCond()));
        return M;
      }
    } else if (const auto *Bin = dyn_cast<BinaryOperator>(Parent)) {
      if (Bin->isLogicalOp() && Child == Bin->getRHS() &&
          !Uniform(Bin->getLHS())) {
        fail(M, notUniform(splitsWarps(Lanes.of(Bin->getLHS()), F),
                           "the short-circuit operator's left operand", "", "",
                           Bin->getOperatorLoc(), Bin->getLHS()));
        return M;
      }
    }
  }
  M.Result = M.Conditions.empty() ? Membership::AllLanes
                                  : Membership::Conditional;
  return M;
}

Membership MembershipAnalysis::atEntry(const FunctionDecl *F) {
  if (F->hasAttr<CUDAGlobalAttr>()) {
    Membership M;
    M.Result = Membership::AllLanes;
    return M;
  }
  auto Known = Entries.find(F);
  if (Known != Entries.end())
    return Known->second;
  std::string Name = "'" + F->getNameAsString() + "'";
  if (!F->hasAttr<CUDADeviceAttr>())
    return Membership::unknown(Name + " is not device code",
                               F->getLocation());
  if (Calls.escapes(F))
    return Membership::unknown("the address of " + Name +
                                   " is taken, so not all of its callers "
                                   "can be seen",
                               F->getLocation());
  if (std::optional<std::string> Implicit = CallSites::implicitCallers(F))
    return Membership::unknown("the lanes that reach " + Name +
                                   " are unknown: " + *Implicit,
                               F->getLocation());
  if (std::optional<SourceLocation> Unseen = Calls.calledFromUnanalysedCode(F))
    return Membership::unknown(Name +
                                   " is called from a system header here, "
                                   "whose code warpfix does not analyse, so "
                                   "the lanes that reach it are unknown",
                               *Unseen);
  const auto &Sites = Calls.of(F);
  if (Sites.empty()) {
    Membership NotCalled = Membership::unknown(
        Name + (F->isDependentContext()
                    ? " is template code that nothing calls or instantiates in "
                      "this translation unit, so who reaches it is unknown"
                    : " is not called in this translation unit, so who "
                      "reaches it is unknown"),
        F->getLocation());
    NotCalled.NoCallerSeen = true;
    return NotCalled;
  }
  if (std::optional<SourceLocation> Broken = Calls.calledInError(F))
    return Membership::unknown("clang could not resolve this call, which "
                               "may be one of " + Name + " once mended, "
                               "from lanes that the error hides",
                               *Broken);
  if (std::optional<SourceLocation> Unresolved = Calls.reachedUnresolved(F))
    return Membership::unknown(
        "a name in a template, which only an instantiation resolves, may "
        "call " + Name + " here, and its lanes are unknown",
        *Unresolved);
  if (InProgress.contains(F))
    return Membership::unknown(Name + " is recursive", F->getLocation());
  // Each call followed up the chain takes stack; thousands overflow it. Real
  // chains are a few calls long.
  constexpr size_t MaxCallDepth = 1000;
  if (InProgress.size() >= MaxCallDepth)
    return Membership::unknown(Name + " is reached through a chain of more "
                                      "than " +
                                   std::to_string(MaxCallDepth) +
                                   " device calls, more than warpfix follows",
                               F->getLocation());
  InProgress.insert(F);
  Membership Result;
  Result.Result = Membership::AllLanes;
  // A call site in code that nothing here calls says nothing of who comes;
  // the others still can: one reached by some lanes only decides.
  std::optional<Membership> Unseen;
  for (const Expr *Call : Sites) {
    Membership AtCall = at(Call);
    if (AtCall.Result == Membership::Unknown && AtCall.NoCallerSeen) {
      if (!Unseen)
        Unseen = std::move(AtCall);
      continue;
    }
    if (AtCall.Result != Membership::AllLanes) {
      std::string Why =
          AtCall.Result == Membership::Conditional
              ? std::string(Scope == MembershipScope::Block
                                ? "a thread-dependent condition decides "
                                  "which threads make the call"
                                : "the call is under a lane-dependent branch")
              : AtCall.Reason;
      constexpr unsigned ChainToldInFull = 4;
      std::string ChainEnd = AtCall.CallChain ? AtCall.ChainEnd : Why;
      if (AtCall.CallChain >= ChainToldInFull)
        Why = "through " + std::to_string(AtCall.CallChain + 1) +
              " calls up the chain: " + ChainEnd;
      Result = Membership::unknown(
          Name +
              (AtCall.isPartial()
                   ? (" is called here by only some " + threads() + " of the " +
                      (Scope == MembershipScope::Block ? "block (" : "warp ("))
                         .str()
                   : " is called here, where the lanes that arrive are "
                     "unknown (") +
              Why + ")",
          Call->getBeginLoc());
      Result.CallChain = AtCall.CallChain + 1;
      Result.ChainEnd = std::move(ChainEnd);
      Result.KnownDivergent = AtCall.isPartial();
      if (AtCall.Result == Membership::Conditional) {
        for (const LaneCondition &Taken : AtCall.Conditions)
          for (const LaneCondition::Conjunct &C : Taken.Conjuncts)
            Result.Deciders.push_back(C.Condition);
      } else {
        Result.Deciders = AtCall.Deciders;
      }
      Result.AssumptionOff = AtCall.AssumptionOff;
      Result.AssumptionOffLoc = AtCall.AssumptionOffLoc;
      break;
    }
    Result.takeAssumptions(AtCall);
  }
  if (Unseen && Result.Result == Membership::AllLanes)
    Result = std::move(*Unseen);
  InProgress.erase(F);
  Entries[F] = Result;
  return Result;
}

} // namespace warpfix
