#include "checks/block-divergent-syncthreads.h"
#include "checks/BarrierHoist.h"
#include "checks/ExitPastBarriers.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/InlinePtx.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/SystemHeaders.h"
#include "checks/analysis/ThreadIdentity.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace warpfix {
namespace {

/// The toolkit's barriers of the whole block. `__barrier_sync(id)` is
/// `bar.sync id`, which every thread of the block takes part in.
bool isBlockBarrierFunction(llvm::StringRef Name) {
  return Name == "__syncthreads" || Name == "__syncthreads_count" ||
         Name == "__syncthreads_and" || Name == "__syncthreads_or" ||
         Name == "__barrier_sync";
}

/// `block.sync()` or `cg::sync(block)` on a cooperative groups thread_block.
/// A tile's sync() orders a warp, and a grid's orders the grid, whose threads
/// a cooperative launch guarantees otherwise.
bool isThreadBlockSync(const CallExpr &Call, const FunctionDecl &Callee) {
  if (Callee.getName() != "sync")
    return false;
  // thread_block::sync() is static: `block.sync()` names it through a
  // member expression all the same.
  const Expr *Group = nullptr;
  if (const auto *Member =
          dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts()))
    Group = Member->getBase();
  else if (Call.getNumArgs() == 1 &&
           Callee.getQualifiedNameAsString().find("cooperative_groups") !=
               std::string::npos)
    Group = Call.getArg(0);
  if (!Group)
    return false;
  QualType Type = Group->IgnoreImpCasts()->getType().getNonReferenceType();
  if (Type->isPointerType())
    Type = Type->getPointeeType();
  const CXXRecordDecl *Record = Type->getAsCXXRecordDecl();
  return Record && Record->getIdentifier() &&
         Record->getName() == "thread_block" &&
         Record->getQualifiedNameAsString().find("cooperative_groups") !=
             std::string::npos;
}

/// Whether F's body holds something clang could not read: its conditions
/// may then be anything, and a finding would rest on the error.
bool holdsErrors(const FunctionDecl &F) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool Found = false;
    bool VisitExpr(Expr *E) {
      Found |= E->containsErrors();
      return !Found;
    }
    bool VisitDecl(Decl *D) {
      Found |= D->isInvalidDecl();
      return !Found;
    }
  };
  Finder Errors;
  Errors.TraverseStmt(F.getBody());
  return Errors.Found || F.isInvalidDecl();
}

/// `bar.sync a;`, `barrier.sync a;` and their `.cta` and `.aligned` forms,
/// without a thread count: every thread of the block takes part. With a
/// count, only that many do, which the code chose.
bool isWholeBlockBarrier(const ptx::Instruction &I) {
  llvm::StringRef Opcode = I.OpcodeText;
  bool Barrier = Opcode.consume_front("barrier") || Opcode.consume_front("bar");
  if (!Barrier)
    return false;
  Opcode.consume_front(".cta");
  return (Opcode == ".sync" || Opcode == ".sync.aligned") &&
         I.Operands.size() == 1;
}

/// The conditions that decide whether S, a condition or an exit, is
/// reached: S itself, or those of the statements around an exit, up to its
/// function.
std::vector<const Stmt *> conditionsOf(const Stmt *S, ASTContext &Ctx) {
  if (isa<Expr>(S))
    return {S};
  std::vector<const Stmt *> Conditions;
  for (const Stmt *Up = parentStmt(Ctx, S); Up; Up = parentStmt(Ctx, Up)) {
    if (const auto *If = dyn_cast<IfStmt>(Up))
      Conditions.push_back(If->getCond());
    else if (const auto *Switch = dyn_cast<SwitchStmt>(Up))
      Conditions.push_back(Switch->getCond());
    else if (const auto *While = dyn_cast<WhileStmt>(Up))
      Conditions.push_back(While->getCond());
    else if (const auto *Do = dyn_cast<DoStmt>(Up))
      Conditions.push_back(Do->getCond());
    else if (const auto *For = dyn_cast<ForStmt>(Up))
      Conditions.push_back(For->getCond());
  }
  return Conditions;
}

/// The constant value of E, if it has one.
std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult Result;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

/// Whether Condition is that of a thread-strided loop whose trip count the
/// launch decides: `for (i = threadIdx.x; i < B; i += S)` with constants B
/// and S, B a multiple of S. Every thread runs B / S iterations where the
/// block has at most S threads (the usual launch, S being the block size),
/// and the threads past S fewer: which of the two the code meets is the
/// launch's to say, so the threads are not shown to part.
bool tripCountDecidedByLaunch(const Stmt *Condition, ASTContext &Ctx) {
  const auto *Loop = dyn_cast_or_null<ForStmt>(parentStmt(Ctx, Condition));
  const auto *Test = dyn_cast<BinaryOperator>(Condition);
  if (!Loop || Loop->getCond() != Condition || !Test ||
      Test->getOpcode() != BO_LT)
    return false;
  const auto *Counter =
      dyn_cast<DeclRefExpr>(Test->getLHS()->IgnoreParenImpCasts());
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  const auto *Step = dyn_cast_or_null<CompoundAssignOperator>(Loop->getInc());
  if (!Counter || !Init || !Init->isSingleDecl() || !Step ||
      Step->getOpcode() != BO_AddAssign ||
      Init->getSingleDecl() != Counter->getDecl())
    return false;
  const auto *Var = dyn_cast<VarDecl>(Counter->getDecl());
  const auto *Start =
      Var && Var->getInit()
          ? dyn_cast<PseudoObjectExpr>(Var->getInit()->IgnoreParenImpCasts())
          : nullptr;
  const auto *Property =
      Start ? dyn_cast<MSPropertyRefExpr>(Start->getSyntacticForm()) : nullptr;
  const auto *StepTarget =
      dyn_cast<DeclRefExpr>(Step->getLHS()->IgnoreParenImpCasts());
  std::optional<int64_t> Bound = constantOf(Test->getRHS(), Ctx);
  std::optional<int64_t> Stride = constantOf(Step->getRHS(), Ctx);
  const auto *Object =
      Property ? dyn_cast<OpaqueValueExpr>(Property->getBaseExpr()) : nullptr;
  const auto *Builtin =
      Object ? dyn_cast<DeclRefExpr>(
                   Object->getSourceExpr()->IgnoreParenImpCasts())
             : nullptr;
  return Builtin && Builtin->getDecl()->getName() == "threadIdx" &&
         Property->getPropertyDecl()->getName() == "x" && StepTarget &&
         StepTarget->getDecl() == Counter->getDecl() && Bound && Stride &&
         *Stride > 0 && *Bound % *Stride == 0;
}

} // namespace

void BlockDivergentSyncthreadsCheck::onCall(const CallExpr &Call,
                                            ASTContext &Ctx) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return;
  if (isBlockBarrierFunction(Callee->getName()))
    judge(Call, (Callee->getName() + "()").str(), Ctx);
  else if (isThreadBlockSync(Call, *Callee))
    judge(Call, "thread_block::sync()", Ctx);
}

void BlockDivergentSyncthreadsCheck::onAsm(const AsmStmt &Statement,
                                           ASTContext &Ctx) {
  const auto *Asm = dyn_cast<GCCAsmStmt>(&Statement);
  if (!Asm || isExpansionInSystemHeader(Statement, Ctx.getSourceManager()))
    return;
  const FunctionDecl *F = enclosingFunction(Ctx, Asm);
  if (!F || !isDeviceFunction(*F))
    return;
  std::optional<InlinePtx> Ptx = readInlinePtx(*Asm, Ctx);
  if (!Ptx)
    return;
  for (const ptx::Instruction &I : Ptx->Template.Instructions)
    if (isWholeBlockBarrier(I)) {
      judge(*Asm, I.OpcodeText, Ctx);
      return;
    }
}

void BlockDivergentSyncthreadsCheck::judge(const Stmt &Barrier,
                                           llvm::StringRef Spelling,
                                           ASTContext &Ctx) {
  const FunctionDecl *F = enclosingFunction(Ctx, &Barrier);
  // A template is judged in its instantiations, where its conditions have
  // types; one that nothing instantiates is not judged at all.
  if (!F || F->isDependentContext())
    return;
  auto [Errors, New] = FunctionsWithErrors.try_emplace(F, false);
  if (New)
    Errors->second = holdsErrors(*F);
  if (Errors->second)
    return;
  Analyses &Shared = context().analyses(Ctx);
  Membership Threads = Shared.BlockMembers.at(&Barrier);
  if (!Threads.isPartial())
    return;
  // What parts the threads, first the place that the analysis stopped at.
  std::vector<const Stmt *> Deciders = Threads.Deciders;
  for (const LaneCondition &Taken : Threads.Conditions)
    for (const LaneCondition::Conjunct &C : Taken.Conjuncts)
      Deciders.push_back(C.Condition);
  ThreadIdentity Identity(Ctx, Shared.Calls);
  const Stmt *Decider = nullptr;
  const Stmt *Condition = nullptr;
  for (const Stmt *Candidate : Deciders) {
    for (const Stmt *Tested : conditionsOf(Candidate, Ctx))
      if (Identity.of(Tested) && !tripCountDecidedByLaunch(Tested, Ctx)) {
        Condition = Tested;
        break;
      }
    if (Condition) {
      Decider = Candidate;
      break;
    }
  }
  // Nothing shows that the threads' own indices part them: only what the
  // analysis cannot follow does.
  if (!Condition)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(Barrier.getBeginLoc());
  SourceLocation WhyAt = Condition->getBeginLoc();
  std::string Why = "threads part before it under a condition that depends "
                    "on the thread";
  if (Threads.Result == Membership::Conditional) {
    // The condition of a branch around the barrier, or of an exit before
    // it (`if (i >= n) return;`).
    const LaneCondition *Taken = nullptr;
    for (const LaneCondition &C : Threads.Conditions)
      for (const LaneCondition::Conjunct &Conjunct : C.Conjuncts)
        if (Conjunct.Condition == Decider)
          Taken = &C;
    if (Taken)
      Why = isWithin(Ctx, &Barrier, Taken->Anchor)
                ? "it is inside a branch whose condition depends on the "
                  "thread"
                : "threads leave before it under a condition that depends "
                  "on the thread";
  } else if (!Threads.Deciders.empty() && Decider == Threads.Deciders.front()) {
    Why = Threads.Reason;
  }
  FindingBuilder Finding =
      report(At, ("not every thread of the block reaches this '" + Spelling +
                  "': " + Why +
                  "; a barrier that some threads never arrive at may hang, "
                  "or let the others go on before the shared data is ready "
                  "(CUDA C++ Programming Guide, __syncthreads())")
                     .str());
  Finding.note(SM.getExpansionLoc(WhyAt), "the threads part here");
  BarrierMove Move = moveExitPastBarriers(*F, Barrier, Shared, Finding, Ctx);
  if (Move.Result == BarrierMove::OtherShape)
    Move = hoistBarrierOutOfArms(*F, Barrier, Shared, Finding, Ctx);
  if (Move.Result == BarrierMove::Refused)
    Finding.withoutFix(Move.Where.isValid() ? Move.Where : At, Move.Why);
  else if (Move.Result == BarrierMove::OtherShape)
    Finding.withoutFix(At, "no automatic fix: move the barrier where every "
                           "thread of the block reaches it (out of the "
                           "branch or loop, or before the early exit), and "
                           "keep the work it orders under the condition");
}

} // namespace warpfix
