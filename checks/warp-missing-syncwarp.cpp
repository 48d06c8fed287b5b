#include "checks/warp-missing-syncwarp.h"
#include "checks/BarrierPlacement.h"
#include "checks/MaskFix.h"
#include "checks/RaceWording.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/LocalDefinitions.h"
#include "checks/analysis/Loops.h"
#include "checks/analysis/Membership.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/SkippedCode.h"
#include "checks/analysis/SyncPrimitives.h"
#include "checks/analysis/SystemHeaders.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include <set>

using namespace clang;

namespace warpfix {
namespace {

std::string textOf(SourceRange Range, ASTContext &Ctx) {
  CharSourceRange File = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Range), Ctx.getSourceManager(),
      Ctx.getLangOpts());
  if (File.isInvalid())
    return "";
  return Lexer::getSourceText(File, Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

bool isBarrierStatement(const Stmt *S) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->getIdentifier() &&
         (Callee->getName() == "__syncwarp" ||
          Callee->getName() == "__syncthreads");
}

/// `L op= R;` or `L = R;` on a shared element: the statements that the
/// register rewrite of listing 8 of "Using CUDA Warp-Level Primitives" applies to.
const BinaryOperator *update(const Stmt *S) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(S);
  if (!B || !B->isAssignmentOp())
    return nullptr;
  return B;
}

/// A local that only the lane's own statements change: the rewrite may keep
/// a value in it across a barrier.
const VarDecl *registerNamed(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType() ||
      Var->getType().isVolatileQualified())
    return nullptr;
  return Var;
}

/// The local that `V = R` assigns, in the SDK's `s[t] = v = v + s[t + k];`:
/// the register the statement already has.
const VarDecl *assignedRegister(const Expr *E) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!B || B->getOpcode() != BO_Assign)
    return nullptr;
  return registerNamed(B->getLHS());
}

bool mentions(const Stmt *S, const VarDecl *Var) {
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(S))
    if (Ref->getDecl() == Var)
      return true;
  if (S)
    for (const Stmt *Child : S->children())
      if (mentions(Child, Var))
        return true;
  return false;
}

/// The statement that stands for S where a rewrite can replace it: S itself
/// in a block, or the unbraced `if` (without else) around it, either one in
/// a block or as the whole body of a loop.
const Stmt *unitOf(ASTContext &Ctx, const Stmt *S) {
  auto Replaceable = [&](const Stmt *U) {
    const Stmt *Parent = parentStmt(Ctx, U);
    return Parent && (isa<CompoundStmt>(Parent) ||
                      (isLoop(Parent) && loopBody(Parent) == U));
  };
  if (Replaceable(S))
    return S;
  const auto *If = dyn_cast_or_null<IfStmt>(parentStmt(Ctx, S));
  if (If && If->getThen() == S && !If->getElse() && Replaceable(If))
    return If;
  return nullptr;
}

/// The rewrite evaluates the target more often and moves the operand before
/// the write: only safe when neither changes anything on its own.
bool changesNothing(const Expr *E) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool Changes = false;
    bool TraversePseudoObjectExpr(PseudoObjectExpr *) { return true; }
    bool VisitBinaryOperator(BinaryOperator *B) {
      Changes |= B->isAssignmentOp();
      return !Changes;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      Changes |= U->isIncrementDecrementOp();
      return !Changes;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      Changes |= !Callee || !isPureToolkitCall(
                                *Call, Callee->getASTContext().getSourceManager());
      return !Changes;
    }
  };
  Finder F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return !F.Changes;
}

/// The range of an expression statement including its semicolon.
CharSourceRange statementRange(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid())
    return Range;
  std::optional<Token> Semi =
      Lexer::findNextToken(Range.getEnd().getLocWithOffset(-1), SM,
                           Ctx.getLangOpts());
  if (!Semi || !Semi->is(tok::semi))
    return CharSourceRange();
  return CharSourceRange::getCharRange(Range.getBegin(), Semi->getEndLoc());
}

} // namespace

void WarpMissingSyncwarpCheck::onFunction(const FunctionDecl &Function,
                                          ASTContext &Ctx) {
  Kernels.onFunction(Function, Ctx);
}

void WarpMissingSyncwarpCheck::onDeclRef(const DeclRefExpr &Ref,
                                         ASTContext &) {
  Kernels.onDeclRef(Ref);
}

void WarpMissingSyncwarpCheck::onEndOfTranslationUnit() {
  Kernels.analyse([this](const FunctionDecl &Kernel, ASTContext &Ctx) {
    analyseKernel(Kernel, Ctx);
  });
}

void WarpMissingSyncwarpCheck::analyseKernel(const FunctionDecl &Kernel,
                                             ASTContext &Ctx) {
  WarpAssumptions::Launches Launches =
      context().analyses(Ctx).Shapes.launchesOf(&Kernel);
  BlockModels Models(Ctx, LargestBlockEvaluations);
  std::vector<Race> Races = Models.racesIn(Kernel, Launches);
  bool LargestSkipped = Models.largestSkipped();
  RowsModelled = Models.rowsModelled();
  // A write whose threads of different warps meet too is
  // block-missing-syncthreads' where that check runs and finds it: its
  // __syncthreads() orders the warps and the lanes of each.
  llvm::DenseSet<const Stmt *> BlockRaces;
  if (context().runs("block-missing-syncthreads"))
    for (const Race &R : Models.racesAcrossWarps())
      BlockRaces.insert(R.Write->Statement);
  for (const std::vector<const Race *> &Statement :
       racesByWritingStatement(Races, [&](const Race &R) {
         return !(R.AcrossWarps && BlockRaces.contains(R.Write->Statement));
       }))
    reportStatement(Statement, Launches, LargestSkipped, Ctx);
}

/// Why the block sizes that warpfix cannot see may make threads of different
/// warps meet through the races' accesses, if they may.
std::optional<std::string> WarpMissingSyncwarpCheck::unseenShapeMatters(
    const std::vector<const Race *> &Races, bool LargestSkipped) const {
  if (RowsModelled)
    return std::string(
        "warpfix cannot see the block size of every launch of this kernel, "
        "which names threadIdx.y or z: whether threads of different warps "
        "meet here depends on the width of the block's rows");
  if (llvm::any_of(Races, [](const Race *R) { return R->ShapeDependent; }))
    return std::string(
        "which elements these accesses touch depends on the block's size "
        "(blockDim or gridDim), and warpfix cannot see the block size of "
        "every launch of this kernel: in blocks of another size threads of "
        "different warps may meet here");
  if (LargestSkipped)
    return std::string(
        "for the launches warpfix cannot see, only a block of two warps was "
        "modelled (a block of 1024 threads would cost too much): threads of "
        "later warps may meet here too");
  return std::nullopt;
}

void WarpMissingSyncwarpCheck::reportStatement(
    const std::vector<const Race *> &Races,
    const WarpAssumptions::Launches &Launches, bool LargestSkipped,
    ASTContext &Ctx) {
  // The clearest witness: a race inside the statement itself, if any.
  const Race &First = **llvm::find_if(Races, [&](const Race *R) {
    return R->Other->Statement == R->Write->Statement ||
           R == Races.back();
  });
  const SourceManager &SM = Ctx.getSourceManager();
  // A call that is not followed touches no element that can be named.
  const SharedAccess &Named =
      First.Write->AnyElement ? *First.Other : *First.Write;
  auto ElementAt = [&](int64_t Offset) {
    if (Named.AnyElement)
      return "memory of '" + Named.Array->getNameAsString() + "'";
    return elementName(*Named.Array, Offset, *Named.Access, Ctx);
  };
  std::string Element = ElementAt(First.Element);
  bool Volatile = First.Write->Access->getType().isVolatileQualified();
  std::string Message =
      "lanes of one warp race on shared memory: lane " +
      std::to_string(First.WriterThread % 32) +
      (First.WriterThread >= 32
           ? " of warp " + std::to_string(First.WriterThread / 32)
           : std::string()) +
      " writes " + Element +
      " and lane " + std::to_string(First.OtherThread % 32) +
      (First.Other->IsWrite ? " writes" : " reads") +
      " it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)";
  if (Volatile)
    Message += "; volatile does not order accesses between lanes";
  FindingBuilder Finding =
      report(SM.getExpansionLoc(First.Write->Access->getBeginLoc()), Message);
  for (const Race *R : Races)
    if (R->Other->Statement != R->Write->Statement)
      Finding.note(SM.getExpansionLoc(R->Other->Access->getBeginLoc()),
                   R->Other->IsWrite ? "the other lane writes it here"
                                     : "the other lane reads it here");
  if (LargestSkipped)
    Finding.note(SM.getExpansionLoc(First.Write->Access->getBeginLoc()),
                 "with no launch in sight this kernel was modelled in a block "
                 "of two warps only (a block of 1024 threads would cost too "
                 "much): races that only later warps make are not reported");

  Membership Lanes =
      context().analyses(Ctx).Members.at(First.Write->Statement);
  if (Lanes.Result == Membership::Unknown) {
    withoutFixFor(Finding, Lanes);
    if (Lanes.KnownDivergent &&
        Lanes.Reason.find("at different iterations") != std::string::npos)
      Finding.note(Lanes.ReasonLoc,
                   "a __syncwarp() in this loop would be reached by a "
                   "different set of lanes on each iteration; make every "
                   "lane run every iteration (a warp-uniform bound, with the "
                   "access guarded inside) and then synchronise");
    return;
  }
  for (const Race *R : Races)
    for (const SharedAccess *A : {R->Write, R->Other})
      if (A->AnyElement) {
        std::string What =
            isa<CXXConstructExpr>(A->Access)
                ? "this object gets shared memory '" +
                      A->Array->getNameAsString() +
                      "', and its destructor, which warpfix does not "
                      "follow, may touch it"
            : isa<CallExpr>(A->Access)
                ? "this call gets shared memory '" +
                      A->Array->getNameAsString() +
                      "', and warpfix does not follow it (through a "
                      "pointer, too many calls deep, or with no body in "
                      "sight)"
                : "this access goes through a pointer parameter that its "
                  "function moves, which warpfix does not follow";
        Finding.withoutFix(SM.getExpansionLoc(A->Access->getBeginLoc()),
                           "no automatic fix: " + What +
                               ": which elements it touches, and in which "
                               "threads, is unknown");
        return;
      }
  if (auto Across = llvm::find_if(
          Races, [](const Race *R) { return R->AcrossWarps; });
      Across != Races.end()) {
    // A __syncwarp() would leave the block-level race and claim a fix.
    const Race &R = **Across;
    auto Thread = [](int64_t Tid) {
      return "thread " + std::to_string(Tid) + " (warp " +
             std::to_string(Tid / 32) + ", lane " + std::to_string(Tid % 32) +
             ")";
    };
    Finding.withoutFix(
        SM.getExpansionLoc(First.Write->Access->getBeginLoc()),
        "no automatic fix: threads of different warps meet through these "
        "accesses too (" +
            Thread(R.AcrossWriter) + " writes " + ElementAt(R.AcrossElement) +
            " and " + Thread(R.AcrossOther) +
            (R.Other->IsWrite ? " writes" : " reads") + " it" +
            blockOfWitness(R, Launches) +
            "), and a __syncwarp() orders only the lanes of one warp");
    Finding.note(SM.getExpansionLoc(First.Write->Access->getBeginLoc()),
                 "a __syncthreads() between the accesses orders every warp, "
                 "where every thread of the block reaches it");
    return;
  }
  // Models of launches not in sight show some block sizes, not all: a
  // __syncwarp() is written only where no other size can make threads of
  // different warps meet through these accesses.
  if (std::optional<std::string> Why = unseenShapeMatters(Races, LargestSkipped)) {
    Finding.withoutFix(SM.getExpansionLoc(First.Write->Access->getBeginLoc()),
                       "no automatic fix: " + *Why);
    Finding.note(SM.getExpansionLoc(First.Write->Access->getBeginLoc()),
                 "a __syncthreads() between the accesses orders every warp, "
                 "where every thread of the block reaches it; a launch of "
                 "this kernel in sight with a block size warpfix can evaluate "
                 "lets it decide");
    return;
  }
  // __syncwarp() is a device function: a __host__ __device__ function that
  // calls it does not compile for the host.
  for (const Race *R : Races)
    for (const SharedAccess *A : {R->Write, R->Other})
      if (const FunctionDecl *F = enclosingFunction(Ctx, A->Statement);
          F && F->hasAttr<CUDAHostAttr>()) {
        Finding.withoutFix(SM.getExpansionLoc(A->Access->getBeginLoc()),
                           "no automatic fix: the access is in '" +
                               F->getNameAsString() +
                               "', a __host__ __device__ function, where a "
                               "__syncwarp() does not compile for the host");
        return;
      }
  if (!Launches.OtherUnits.empty() && !Launches.OthersPossible)
    Finding.note(Launches.OtherUnitsLoc, Launches.OtherUnits);
  if (!fixScanStep(First, Races, Finding, Ctx) &&
      !fixChain(First, Races, Finding, Ctx))
    fixWithBarriers(Races, Finding, Ctx);
}

namespace {

/// One update of the chain, and the guard it runs under, if any.
struct ChainStep {
  const Stmt *Unit;
  const BinaryOperator *Update;
  const Expr *Guard;
};

/// What every update of a chain computes its new value into: a fresh
/// register (`acc op= r`, `acc = r`), or the local that the statements
/// already assign (`v = v + r`).
struct ChainKind {
  BinaryOperatorKind Opcode;
  const VarDecl *Register;
};

std::optional<ChainKind> kindOf(const BinaryOperator *B) {
  if (!changesNothing(B->getLHS()))
    return std::nullopt;
  if (changesNothing(B->getRHS()))
    return ChainKind{B->getOpcode(), nullptr};
  const VarDecl *Register =
      B->getOpcode() == BO_Assign ? assignedRegister(B->getRHS()) : nullptr;
  if (!Register || mentions(B->getLHS(), Register) ||
      !changesNothing(
          cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts())->getRHS()))
    return std::nullopt;
  return ChainKind{BO_Assign, Register};
}

/// An element whose address reads only registers (`s[0]` with `s` a local
/// pointer, `buf[tid]` with `buf` an array): evaluated after a barrier
/// instead of before it, it is still the same element.
bool addressFromRegisters(const Expr *Element, ASTContext &Ctx) {
  const auto *Subscript =
      dyn_cast<ArraySubscriptExpr>(Element->IgnoreParens());
  if (!Subscript)
    return false;
  const Expr *Base = Subscript->getBase()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  bool ArrayBase = Ref && Ref->getType()->isArrayType() &&
                   !Ref->getType().isVolatileQualified();
  return (ArrayBase || readsOnlyThreadPrivate(Subscript->getBase(), Ctx)) &&
         readsOnlyThreadPrivate(Subscript->getIdx(), Ctx);
}

/// One step of a warp scan through a register, `if (G) { t op= R; L = t; }`:
/// the lane reads a neighbour's element into t, then stores t in its own.
struct ScanStep {
  const IfStmt *If;
  const BinaryOperator *Read, *Write;
  const VarDecl *Register;
};

std::optional<ScanStep> scanStepOf(const Stmt *S) {
  const auto *If = dyn_cast_or_null<IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      If->isConsteval() || If->isConstexpr())
    return std::nullopt;
  const auto *Body = dyn_cast<CompoundStmt>(If->getThen());
  if (!Body || Body->size() != 2)
    return std::nullopt;
  const auto *Read = dyn_cast<BinaryOperator>(Body->body_front());
  const auto *Write = dyn_cast<BinaryOperator>(Body->body_back());
  if (!Read || !Write || !Read->isAssignmentOp() ||
      Write->getOpcode() != BO_Assign)
    return std::nullopt;
  const VarDecl *Register = registerNamed(Read->getLHS());
  if (!Register || registerNamed(Write->getRHS()) != Register ||
      !isa<DeclRefExpr>(Read->getLHS()->IgnoreParens()))
    return std::nullopt;
  return ScanStep{If, Read, Write, Register};
}

/// The scan step whose branch holds S, if S is in one.
std::optional<ScanStep> enclosingScanStep(ASTContext &Ctx, const Stmt *S) {
  for (const Stmt *P = S; P; P = parentStmt(Ctx, P))
    if (std::optional<ScanStep> Step = scanStepOf(P))
      return Step;
  return std::nullopt;
}

/// Whether the barrier statement S already orders every lane of M, so that
/// the rewrite need not add one of its own right before it.
bool barrierOrdersAll(const Stmt *S, const Membership &M, ASTContext &Ctx) {
  if (!isBarrierStatement(S) || M.Result != Membership::AllLanes)
    return false;
  const auto *Call = cast<CallExpr>(S);
  if (Call->getDirectCallee()->getName() == "__syncthreads")
    return true;
  if (Call->getNumArgs() == 0 || Call->getArg(0)->isDefaultArgument())
    return true;
  std::optional<llvm::APSInt> Mask =
      Call->getArg(0)->getIntegerConstantExpr(Ctx);
  return Mask && Mask->getZExtValue() == 0xffffffffu;
}

/// Whether the lanes of M are the same set each time the barrier's place
/// runs: every condition that decides them reads only registers, so that no
/// other lane's store changes it between the ballot and the branch, and no
/// loop around Place assigns what it reads, so that it names the same lanes
/// in every iteration. Otherwise a lane that took the branch in one
/// iteration and a lane that skipped it in another meet at an element, and
/// no barrier of either iteration's lanes orders them.
bool stableLanes(const Membership &M, const Stmt *Place, ASTContext &Ctx) {
  if (M.Result == Membership::AllLanes)
    return true;
  const FunctionDecl *F = enclosingFunction(Ctx, Place);
  if (!F || !F->getBody())
    return false;
  std::optional<LocalDefinitions> Defs;
  for (const LaneCondition &C : M.Conditions)
    for (const LaneCondition::Conjunct &J : C.Conjuncts) {
      if (!readsOnlyThreadPrivate(J.Condition, Ctx))
        return false;
      for (const Stmt *Loop = parentStmt(Ctx, Place); Loop;
           Loop = parentStmt(Ctx, Loop)) {
        if (!isLoop(Loop))
          continue;
        if (!Defs)
          Defs = *localDefinitionsOf(Ctx, F->getBody());
        for (const Definition &D : Defs->Definitions)
          if (mentions(J.Condition, D.Var) && isWithin(Ctx, D.Site, Loop))
            return false;
        for (const VarDecl *Var : Defs->Escaped)
          if (mentions(J.Condition, Var))
            return false;
      }
    }
  return true;
}

} // namespace

bool WarpMissingSyncwarpCheck::fixScanStep(
    const Race &First, const std::vector<const Race *> &Races,
    FindingBuilder &Finding, ASTContext &Ctx) {
  std::optional<ScanStep> Step =
      scanStepOf(parentStmt(Ctx, parentStmt(Ctx, First.Write->Statement)));
  if (!Step || Step->Write != First.Write->Statement ||
      Step->Write->getLHS()->IgnoreParens() != First.Write->Access)
    return false;
  // Another lane writing the element: a barrier between the read and the
  // write of each lane does not order two writes.
  for (const Race *R : Races)
    if (R->Other->IsWrite)
      return false;
  const Expr *Guard = Step->If->getCond();
  const Expr *Target = Step->Write->getLHS();
  // The barrier stands outside the branch, which is then entered twice: the
  // condition must give the same answer both times, and the element written
  // must be the same one.
  if (!readsOnlyThreadPrivate(Guard, Ctx)) {
    Finding.withoutFix(Guard->getBeginLoc(),
                       "no automatic fix: the __syncwarp() must stand "
                       "outside this condition, which is then evaluated "
                       "a second time, and it reads memory or has side "
                       "effects");
    return true;
  }
  if (mentions(Guard, Step->Register)) {
    Finding.withoutFix(Guard->getBeginLoc(),
                       ("no automatic fix: the __syncwarp() must stand "
                        "outside this condition, which is then evaluated "
                        "a second time, after the branch has changed '" +
                        Step->Register->getName() + "'")
                           .str());
    return true;
  }
  if (!changesNothing(Step->Read->getRHS()) || !changesNothing(Target) ||
      mentions(Target, Step->Register) || !addressFromRegisters(Target, Ctx))
    return false;

  Membership Lanes = context().analyses(Ctx).Members.at(Step->If);
  if (Lanes.Result == Membership::Unknown) {
    withoutFixFor(Finding, Lanes);
    return true;
  }
  if (!racersReach({}, Lanes, Step->If, [](const Stmt *) { return true; },
                   Finding, Ctx))
    return true;
  // Every racing access is made by a lane that reaches this branch, in the
  // same instance: a read before it is ordered by the first barrier, one
  // after it by the second. Where all lanes reach the branch that holds for
  // any access; else only for accesses reached by the same lanes.
  for (const Race *R : Races) {
    if (Lanes.Result == Membership::AllLanes)
      break;
    std::optional<ScanStep> Other = enclosingScanStep(Ctx, R->Other->Statement);
    const Stmt *Place = Other ? Other->If : R->Other->Statement;
    if (!sameLanes(context().analyses(Ctx).Members.at(Place), Lanes)) {
      Finding.withoutFix(R->Other->Access->getBeginLoc(),
                         "no automatic fix: this access may be made by lanes "
                         "that do not reach the racing write, which a "
                         "__syncwarp() of the lanes that do would not order");
      return true;
    }
  }

  std::optional<std::string> Mask = emitMask(
      Lanes, Step->If->getBeginLoc(), Finding, maskStyle(), Ctx);
  if (!Mask)
    return true; // emitMask said why
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Step->If->getSourceRange()), SM,
      Ctx.getLangOpts());
  std::string Condition = textOf(Guard->getSourceRange(), Ctx);
  std::string Read = textOf(Step->Read->getSourceRange(), Ctx);
  std::string Write = textOf(Step->Write->getSourceRange(), Ctx);
  if (Range.isInvalid() || Condition.empty() || Read.empty() ||
      Write.empty()) {
    Finding.withoutFix(Step->If->getBeginLoc(),
                       "no automatic fix: the statement is written by a "
                       "macro");
    return true;
  }
  // The branch is written anew from its condition and its two statements:
  // anything else in its text would be lost.
  llvm::StringRef Whole = Lexer::getSourceText(Range, SM, Ctx.getLangOpts());
  if (Whole.contains("//") || Whole.contains("/*") || Whole.contains('#')) {
    Finding.withoutFix(Step->If->getBeginLoc(),
                       "no automatic fix: the branch holds comments or "
                       "preprocessor lines, which the rewrite would drop");
    return true;
  }
  std::string Barrier = "__syncwarp(" + *Mask + ");";
  std::string If = "if (" + Condition + ") ";
  std::vector<std::string> Parts = {If + Read + ";", Barrier,
                                    If + Write + ";"};
  const auto *Block = dyn_cast_or_null<CompoundStmt>(parentStmt(Ctx, Step->If));
  const Stmt *Next = nullptr;
  if (Block) {
    const auto *It = llvm::find(Block->body(), Step->If);
    if (std::next(It) != Block->body_end())
      Next = *std::next(It);
  }
  // The closing barrier goes before the next statement as an insertion of
  // its own: a barrier that another finding needs at that point is the same
  // edit, and the two merge into one.
  bool BarrierAfter = false;
  if (!Next)
    Parts.push_back(Barrier);
  else if (!barrierOrdersAll(Next, Lanes, Ctx))
    BarrierAfter = true;
  std::optional<LineLayout> Layout = lineLayoutOf(Step->If, Ctx);
  bool OneLine = !Block || !Layout;
  std::string Text = llvm::join(
      Parts, OneLine ? std::string(" ") : Layout->LineEnd + Layout->Indent);
  if (!Block)
    Text = "{ " + Text + " }";
  if (BarrierAfter && !insertStatementBefore(Next, Barrier, Finding, Ctx)) {
    Finding.withoutFix(Next->getBeginLoc(),
                       "no automatic fix: the statement is written by a "
                       "macro");
    return true;
  }
  Finding.replace(Range, Text);
  Finding.note(Step->If->getBeginLoc(),
               "each lane reads into its register under the condition, all "
               "lanes synchronise outside it, then each writes its own "
               "element under the condition again (Using CUDA Warp-Level Primitives, listing 8)");
  explainMask(Finding, Lanes, Step->If->getBeginLoc(), "this statement");
  return true;
}

bool WarpMissingSyncwarpCheck::racersReach(
    const std::vector<const Race *> &Races, const Membership &Lanes,
    const Stmt *Place, llvm::function_ref<bool(const Stmt *)> InRewrite,
    FindingBuilder &Finding, ASTContext &Ctx) {
  if (Lanes.Result == Membership::AllLanes)
    return true;
  if (!stableLanes(Lanes, Place, Ctx)) {
    Finding.withoutFix(Place->getBeginLoc(),
                       "no automatic fix: the lanes that reach the barrier "
                       "the fix needs are decided by a condition that reads "
                       "memory, or that a loop around it changes, so they "
                       "may differ between the ballot and the branch, or "
                       "from one iteration to the next; a barrier of one "
                       "time's lanes does not order a lane that took the "
                       "branch at another");
    return false;
  }
  for (const Race *R : Races)
    for (const SharedAccess *A : {R->Write, R->Other}) {
      // Where the barrier is in another function than the access, the
      // access is made during the kernel's statement that calls it.
      const Stmt *Made =
          enclosingFunction(Ctx, A->Statement) == enclosingFunction(Ctx, Place)
              ? A->Statement
              : A->KernelStatement;
      if (InRewrite(A->Statement) ||
          sameLanes(context().analyses(Ctx).Members.at(Made), Lanes))
        continue;
      Finding.withoutFix(A->Access->getBeginLoc(),
                         "no automatic fix: this access may be made by lanes "
                         "that do not reach the barrier the fix needs, which "
                         "a __syncwarp() of the lanes that do would not "
                         "order; the barriers must stand where the writing "
                         "and the other lanes both reach them");
      return false;
    }
  return true;
}

bool WarpMissingSyncwarpCheck::fixChain(const Race &First,
                                        const std::vector<const Race *> &Races,
                                        FindingBuilder &Finding,
                                        ASTContext &Ctx) {
  const Stmt *Statement = First.Write->Statement;
  const BinaryOperator *Update = update(Statement);
  const Stmt *Unit = unitOf(Ctx, Statement);
  if (!Update || !Unit ||
      Update->getLHS()->IgnoreParens() != First.Write->Access)
    return false;
  std::optional<ChainKind> Kind = kindOf(Update);
  if (!Kind)
    return false;
  // Another lane writing the same element: the element is not the lane's own
  // accumulator, and a register cannot stand for it.
  for (const Race *R : Races)
    if (R->Other->IsWrite)
      return false;
  std::string Target = textOf(Update->getLHS()->getSourceRange(), Ctx);
  if (Target.empty())
    return false;
  auto StepOf = [&](const Stmt *U) -> std::optional<ChainStep> {
    const Stmt *Inner = U;
    const Expr *Guard = nullptr;
    if (const auto *If = dyn_cast<IfStmt>(U)) {
      if (If->getElse() || If->getInit() || If->getConditionVariable() ||
          If->isConsteval())
        return std::nullopt;
      Inner = If->getThen();
      Guard = If->getCond();
    }
    const BinaryOperator *B = update(Inner);
    if (!B || textOf(B->getLHS()->getSourceRange(), Ctx) != Target)
      return std::nullopt;
    std::optional<ChainKind> K = kindOf(B);
    if (!K || K->Opcode != Kind->Opcode || K->Register != Kind->Register)
      return std::nullopt;
    return ChainStep{U, B, Guard};
  };
  // The chain: neighbouring accumulations into the same element, with the
  // barriers already between them. A loop body without braces is a chain of
  // its own.
  const Stmt *Parent = parentStmt(Ctx, Unit);
  const auto *Block = dyn_cast<CompoundStmt>(Parent);
  std::vector<const Stmt *> Body;
  if (Block)
    Body.assign(Block->body_begin(), Block->body_end());
  else
    Body.push_back(Unit);
  size_t At = std::find(Body.begin(), Body.end(), Unit) - Body.begin();
  size_t Begin = At, End = At + 1;
  while (Begin > 0 &&
         (StepOf(Body[Begin - 1]) || isBarrierStatement(Body[Begin - 1])))
    --Begin;
  while (End < Body.size() &&
         (StepOf(Body[End]) || isBarrierStatement(Body[End])))
    ++End;
  while (isBarrierStatement(Body[Begin]))
    ++Begin;
  while (isBarrierStatement(Body[End - 1]))
    --End;

  // A barrier under a guard is reached only by the lanes the guard lets
  // through, and lanes that skip it go on to meet another one (issue 13,
  // pattern 5): every barrier of the rewrite stands outside the guards, and
  // the guard is evaluated again around the write.
  std::vector<ChainStep> Steps;
  for (size_t I = Begin; I < End; ++I)
    if (std::optional<ChainStep> Step = StepOf(Body[I])) {
      if (Step->Guard && (!readsOnlyThreadPrivate(Step->Guard, Ctx) ||
                          (Kind->Register &&
                           mentions(Step->Guard, Kind->Register)))) {
        Finding.withoutFix(Step->Guard->getBeginLoc(),
                           "no automatic fix: the __syncwarp() must stand "
                           "outside this condition, which is then evaluated "
                           "a second time, and it reads memory or has side "
                           "effects");
        return true;
      }
      Steps.push_back(*Step);
    }

  // A lone store whose racing read is elsewhere needs only a barrier
  // between the two, not a register.
  bool ReadInside = llvm::any_of(Races, [&](const Race *R) {
    return R->Other->Statement == Statement;
  });
  if (Kind->Opcode == BO_Assign && Steps.size() == 1 && !ReadInside)
    return false;
  // A register holds the chain's value at full width between the steps; the
  // bit-field cut it to its width at each store.
  if (Update->getLHS()->refersToBitField()) {
    Finding.withoutFix(Update->getBeginLoc(),
                       "no automatic fix: the element is a bit-field, and a "
                       "register that carries its value from step to step "
                       "would keep the bits that the field drops at each "
                       "store (Using CUDA Warp-Level Primitives, listing 8)");
    return true;
  }

  Membership Lanes = context().analyses(Ctx).Members.at(Body[Begin]);
  if (Lanes.Result == Membership::Unknown)
    return false;
  // The chain's own accesses are reached by its lanes; any other racing
  // access must be made by the same lanes, or the barriers do not order it.
  auto InChain = [&](const Stmt *S) {
    for (size_t I = Begin; I < End; ++I)
      if (isWithin(Ctx, S, Body[I]))
        return true;
    return false;
  };
  if (!racersReach(Races, Lanes, Body[Begin], InChain, Finding, Ctx))
    return true;
  std::optional<std::string> Mask = emitMask(
      Lanes, Body[Begin]->getBeginLoc(), Finding, maskStyle(), Ctx);
  if (!Mask)
    return true; // emitMask said why
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Acc =
      "warpfix_acc_" +
      std::to_string(SM.getExpansionLineNumber(Body[Begin]->getBeginLoc()));
  while (Ctx.Idents.find(Acc) != Ctx.Idents.end())
    Acc += "_";
  std::string Register = Kind->Register ? Kind->Register->getName().str() : Acc;
  std::string Declaration =
      Kind->Register ? "" : "auto " + Acc + " = " + Target + ";";
  if (Block && !Declaration.empty() &&
      !insertStatementBefore(Body[Begin], Declaration, Finding, Ctx)) {
    Finding.withoutFix(Body[Begin]->getBeginLoc(),
                       "no automatic fix: the statement is written by a macro");
    return true;
  }
  std::string Barrier = "__syncwarp(" + *Mask + ");";
  std::string Op = BinaryOperator::getOpcodeStr(Kind->Opcode).str();
  for (const ChainStep &Step : Steps) {
    // With the statement's own register, `v = v + r` is kept as written.
    const Expr *Value = Step.Update->getRHS();
    std::string Source = textOf(Value->getSourceRange(), Ctx);
    std::string Compute = Register + " " + Op + " " + Source + ";";
    if (Kind->Register)
      Compute = Source + ";";
    std::string Guard =
        Step.Guard ? textOf(Step.Guard->getSourceRange(), Ctx) : "";
    CharSourceRange Range = statementRange(Step.Unit, Ctx);
    if (Source.empty() || Range.isInvalid() || (Step.Guard && Guard.empty())) {
      Finding.withoutFix(Step.Update->getBeginLoc(),
                         "no automatic fix: the statement is written by a "
                         "macro");
      return true;
    }
    // A guard that is a constant (a template parameter's test) lets all
    // lanes through or none, so the barriers may stay inside it.
    bool ConstantGuard =
        Step.Guard && Step.Guard->isIntegerConstantExpr(Ctx);
    std::string If =
        Step.Guard && !ConstantGuard ? "if (" + Guard + ") " : "";
    size_t I = std::find(Body.begin(), Body.end(), Step.Unit) - Body.begin();
    bool BarrierFollows = I + 1 < Body.size() && isBarrierStatement(Body[I + 1]);
    std::vector<std::string> Parts;
    if (!Block && !Declaration.empty())
      Parts.push_back(Declaration);
    Parts.push_back(If + Compute);
    Parts.push_back(Barrier);
    Parts.push_back(If + Target + " = " + Register + ";");
    if (!BarrierFollows)
      Parts.push_back(Barrier);
    std::optional<LineLayout> Layout = lineLayoutOf(Step.Unit, Ctx);
    bool OneLine = ConstantGuard || !Block || !Layout;
    std::string Text = llvm::join(
        Parts, OneLine ? std::string(" ") : Layout->LineEnd + Layout->Indent);
    if (ConstantGuard || !Block)
      Text = "{ " + Text + " }";
    // Under a constant guard only the guarded statement is replaced.
    CharSourceRange Replaced =
        ConstantGuard ? statementRange(Step.Update, Ctx) : Range;
    Finding.replace(Replaced, Text);
  }
  Finding.note(Body[Begin]->getBeginLoc(),
               "each lane now reads into a register, all lanes synchronise, "
               "then each writes its own element (Using CUDA Warp-Level Primitives, listing 8)");
  explainMask(Finding, Lanes, Body[Begin]->getBeginLoc(), "this statement");
  return true;
}

bool WarpMissingSyncwarpCheck::fixWithBarriers(
    const std::vector<const Race *> &Races, FindingBuilder &Finding,
    ASTContext &Ctx) {
  std::optional<std::vector<BarrierPlace>> Places = barrierPlaces(
      Races,
      {"__syncwarp()", "lane", "Using CUDA Warp-Level Primitives, listing 8"},
      Finding, Ctx);
  if (!Places)
    return false;
  for (const BarrierPlace &Place : *Places) {
    Membership Lanes = context().analyses(Ctx).Members.at(Place.At);
    if (Lanes.Result == Membership::Unknown) {
      withoutFixFor(Finding, Lanes);
      return false;
    }
    if (!racersReach(
            Races, Lanes, Place.At, [](const Stmt *) { return false; }, Finding,
            Ctx))
      return false;
    std::optional<std::string> Mask =
        emitMask(Lanes, Place.At->getBeginLoc(), Finding, maskStyle(), Ctx);
    if (!Mask ||
        !insertBarrier(Place, "__syncwarp(" + *Mask + ");", Finding, Ctx))
      return false;
  }
  if (!Places->empty())
    Finding.note(Places->front().At->getBeginLoc(),
                 "a __syncwarp() between the accesses orders them");
  return !Places->empty();
}

} // namespace warpfix
