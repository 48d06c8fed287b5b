#include "checks/warp-activemask-mask.h"
#include "checks/MaskFix.h"
#include "checks/analysis/AggregatedAtomic.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/InlinePtx.h"
#include "checks/analysis/LocalSlots.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/SyncPrimitives.h"
#include "checks/analysis/SystemHeaders.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace warpfix {

namespace {

/// E, less parentheses and implicit casts, where it is a call of a function
/// named __activemask.
const CallExpr *activeMaskCall(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->getIdentifier() &&
                 Callee->getName() == "__activemask"
             ? Call
             : nullptr;
}

} // namespace

// A template that is instantiated is judged in its instantiations, each with
// its own copy of the statement; the template as written would judge it
// without the values of its parameters and veto the fix they agree on.
bool WarpActivemaskMaskCheck::judgedInInstantiations(const Stmt &S,
                                                     ASTContext &Ctx) {
  return context().analyses(Ctx).Calls.judgedInInstantiations(
      enclosingFunction(Ctx, &S));
}

void WarpActivemaskMaskCheck::onCall(const CallExpr &Call, ASTContext &Ctx) {
  if (isSyncPrimitiveCall(Call, Ctx.getSourceManager()) &&
      !judgedInInstantiations(Call, Ctx))
    checkMask(Call, Ctx);
}

void WarpActivemaskMaskCheck::onAsm(const AsmStmt &Asm, ASTContext &Ctx) {
  // MS-style __asm blocks are x86; only GCC-style statements hold PTX.
  if (const auto *Gcc = dyn_cast<GCCAsmStmt>(&Asm))
    if (!isExpansionInSystemHeader(Asm, Ctx.getSourceManager()))
      checkPtx(*Gcc, Ctx);
}

void WarpActivemaskMaskCheck::onBinaryOperator(const BinaryOperator &Compare,
                                               ASTContext &Ctx) {
  // Using CUDA Warp-Level Primitives, listing 14: `assert(__activemask() == FULL_MASK)`.
  if (!Compare.isEqualityOp())
    return;
  const CallExpr *Active = activeMaskCall(Compare.getLHS());
  if (!Active)
    Active = activeMaskCall(Compare.getRHS());
  if (Active &&
      !isExpansionInSystemHeader(Compare, Ctx.getSourceManager()) &&
      !judgedInInstantiations(Compare, Ctx))
    checkComparison(Compare, *Active, Ctx);
}

void WarpActivemaskMaskCheck::checkPtx(const GCCAsmStmt &Asm,
                                       ASTContext &Ctx) {
  const FunctionDecl *F = enclosingFunction(Ctx, &Asm);
  std::optional<InlinePtx> Ptx;
  if (!F || !isDeviceFunction(*F) || F->isDependentContext() ||
      !(Ptx = readInlinePtx(Asm, Ctx)) || !Ptx->AgreesWithClang)
    return;
  const ptx::Template &T = Ptx->Template;
  for (size_t I = 0; I < T.Instructions.size(); ++I) {
    const ptx::Instruction &Instr = T.Instructions[I];
    std::optional<size_t> Index = ptx::memberMaskOperand(Instr);
    // match.sync is the opportunistic pattern, as for __match_*_sync.
    if (!Index || llvm::StringRef(Instr.OpcodeText).starts_with("match."))
      continue;
    const ptx::Operand &Mask = Instr.Operands[*Index];
    if (Mask.Reference) {
      unsigned Number = Ptx->OperandNumbers[*Mask.Reference];
      if (Number >= Asm.getNumOutputs() &&
          Number < Asm.getNumOutputs() + Asm.getNumInputs())
        checkMaskValue(Asm.getInputExpr(Number - Asm.getNumOutputs()), Asm,
                       Instr.OpcodeText, Ctx);
      continue;
    }
    std::optional<size_t> Writer = ptx::activeMaskWriter(T, I, Mask.Text);
    if (!Writer)
      continue;
    // The mask never leaves the PTX: the lanes that should take part have
    // to come in from the C++ code, which is the change a person makes.
    SourceLocation Taken =
        Ptx->locationOf(T.Instructions[*Writer].Opcode.Begin, Ctx);
    report(Ptx->locationOf(Mask.Where.Begin, Ctx),
           "activemask.b32 is the member mask of '" + Instr.OpcodeText +
               "': it says which lanes happen to be converged here, not "
               "which lanes should take part (Using CUDA Warp-Level Primitives, listing 5)")
        .note(Taken, "the mask is taken here")
        .withoutFix(Taken, "no automatic fix: the mask is computed inside "
                           "the PTX; pass the lanes that should take part in "
                           "as an input operand instead");
  }
}

void WarpActivemaskMaskCheck::checkComparison(const BinaryOperator &Compare,
                                              const CallExpr &ActiveMask,
                                              ASTContext &Ctx) {
  const Expr *Other = Compare.getLHS()->IgnoreParenImpCasts() == &ActiveMask
                          ? Compare.getRHS()
                          : Compare.getLHS();
  if (!isFullMaskConstant(Other, Ctx))
    return;
  report(ActiveMask.getBeginLoc(),
         "comparing __activemask() with the full mask assumes the warp runs in "
         "lockstep, which independent thread scheduling does not guarantee, "
         "not even right after __syncwarp() (Using CUDA Warp-Level Primitives, listing 14)")
      .note(Compare.getOperatorLoc(),
            "no automatic fix: decide which lanes must take part and use a "
            "*_sync primitive with that mask instead of checking convergence");
}

void WarpActivemaskMaskCheck::checkMask(const CallExpr &Call,
                                        ASTContext &Ctx) {
  const Expr *Mask = memberMaskArgument(Call, Ctx);
  llvm::StringRef Primitive = primitiveName(Call);
  // Finding the lanes that happen to be here is exactly what the
  // opportunistic pattern asks of __match_*_sync (Using CUDA Warp-Level Primitives, atomicAggInc).
  if (!Mask || Primitive.starts_with("__match_"))
    return;
  checkMaskValue(Mask, Call, Primitive, Ctx);
}

void WarpActivemaskMaskCheck::checkMaskValue(const Expr *Mask,
                                             const Stmt &Use,
                                             llvm::StringRef Primitive,
                                             ASTContext &Ctx) {
  Analyses &Shared = context().analyses(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  for (const MaskOrigin &Origin : maskOrigins(Mask, Ctx, &Shared.Calls)) {
    if (!isActiveMaskCall(Origin.Origin, Ctx))
      continue;
    Membership AtOrigin = Shared.Members.at(Origin.Origin);
    SourceLocation Taken = SM.getExpansionLoc(Origin.Origin->getBeginLoc());
    // The warp-aggregated atomic is right for whichever lanes are converged
    // (issue 15, item 6).
    if (Origin.ThroughVariable &&
        isAggregationIdiom(Origin.Origin, Ctx, Shared.Members))
      continue;
    FindingBuilder Finding = report(
        SM.getExpansionLoc(Mask->getBeginLoc()),
        ("__activemask() is the member mask of '" + Primitive +
         "': it says which lanes happen to be converged here, not which lanes "
         "should take part (Using CUDA Warp-Level Primitives, listing 5)")
            .str());
    if (Origin.ThroughVariable)
      Finding.note(Taken, "the mask is taken here");
    if (AtOrigin.Result == Membership::Unknown) {
      withoutFixFor(Finding, AtOrigin);
      continue;
    }
    if (Origin.ThroughVariable &&
        !sameLanes(AtOrigin, Shared.Members.at(&Use))) {
      Finding.withoutFix(Use.getBeginLoc(),
                         "no automatic fix: the mask is used under other "
                         "branches than the ones where it is taken");
      continue;
    }
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(
            Origin.Origin->IgnoreParenImpCasts()->getSourceRange()),
        SM, Ctx.getLangOpts());
    if (Range.isInvalid()) {
      Finding.withoutFix(Taken,
                         "no automatic fix: the __activemask() call is "
                         "assembled by a macro");
      continue;
    }
    // `__activemask() & C` where every lane arrives names the lanes of C.
    if (Origin.CombinedBy && !Origin.NarrowedAtUse &&
        AtOrigin.Result == Membership::AllLanes) {
      CharSourceRange Whole = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(Origin.CombinedBy->getSourceRange()),
          SM, Ctx.getLangOpts());
      CharSourceRange Constant = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(Origin.Constant->getSourceRange()),
          SM, Ctx.getLangOpts());
      if (Whole.isValid() && Constant.isValid()) {
        llvm::StringRef ConstantText =
            Lexer::getSourceText(Constant, SM, Ctx.getLangOpts());
        // Narrowed where it is stored, the value may have other uses.
        if (Origin.ThroughVariable &&
            !storedMaskIsExact(Finding, Origin.CombinedBy,
                               "'" + ConstantText.str() + "'", Ctx))
          continue;
        Finding.replace(Whole, ConstantText);
        explainMask(Finding, AtOrigin, Taken);
        Finding.note(Taken, "and-ed with the constant, the full mask is the "
                            "constant: the lanes it names");
        continue;
      }
    }
    // Kept in a variable where every lane is present: nothing guarantees
    // that the warp is converged there either (issue 15, item 4b).
    if (Origin.ThroughVariable && AtOrigin.Result == Membership::AllLanes &&
        !storedMaskIsExact(Finding, Origin.Origin, "the full mask", Ctx))
      continue;
    std::optional<std::string> Lanes =
        emitMask(AtOrigin, Taken, Finding,
                 maskStyle(), Ctx);
    if (!Lanes)
      continue;
    Finding.replace(Range, *Lanes);
    explainMask(Finding, AtOrigin, Taken);
  }
}

namespace {
/// Whether the other operand of And than Operand is an integer constant.
bool isConstantOperand(const BinaryOperator *And, const Expr *Operand,
                       const ASTContext &Ctx) {
  const Expr *Other = And->getLHS() == Operand ? And->getRHS() : And->getLHS();
  return !Other->isValueDependent() && Other->isIntegerConstantExpr(Ctx);
}
} // namespace

bool WarpActivemaskMaskCheck::storedMaskIsExact(FindingBuilder &Finding,
                                                const Expr *Stored,
                                                llvm::StringRef Written,
                                                ASTContext &Ctx) {
  // Where all lanes arrive, the legacy code saw every lane that exists; in a
  // partial warp that is fewer than the full mask (or a constant) names.
  // Shuffles and votes over lanes that do not exist behave the same either
  // way, but a count or a test of the mask does not: the mask is written
  // only where every use of the value is a member mask.
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Taken = SM.getExpansionLoc(Stored->getBeginLoc());
  std::optional<LocalSlot> Slot = slotStoredBy(Stored, Ctx);
  if (!Slot) {
    Finding.withoutFix(Taken, "no automatic fix: the mask is not stored by a "
                              "plain assignment to a local variable, so its "
                              "other uses cannot be followed");
    return false;
  }
  std::string Name = "'" + Slot->name() + "'";
  SlotAccesses Accesses = accessesOf(*Slot, Ctx);
  if (Accesses.Unmodelled) {
    Finding.withoutFix(Taken, "no automatic fix: " + Name +
                                  " is used in a way that is not followed "
                                  "(its address is taken, or it is copied or "
                                  "indexed as a whole), so the mask may reach "
                                  "other uses");
    return false;
  }
  if (Accesses.Stored.size() != 1) {
    Finding.withoutFix(Taken, "no automatic fix: " + Name +
                                  " is assigned more than once");
    return false;
  }
  MembershipAnalysis &Members = context().analyses(Ctx).Members;
  for (const Expr *Read : Accesses.Reads) {
    const Stmt *User = nullptr;
    const Expr *Operand = Read;
    // A mask narrowed by a constant where it is used names the constant's
    // lanes of it (`m & 0xff`).
    for (DynTypedNodeList Parents = parentsOf(Ctx, *Read); !Parents.empty();
         Parents = parentsOf(Ctx, *Operand)) {
      User = Parents[0].get<Stmt>();
      const auto *And = dyn_cast_or_null<BinaryOperator>(User);
      bool Narrowed = And && And->getOpcode() == BO_And &&
                      isConstantOperand(And, Operand, Ctx);
      if (!Narrowed && !isa_and_nonnull<ParenExpr, ImplicitCastExpr>(User))
        break;
      Operand = cast<Expr>(User);
    }
    const auto *Call = dyn_cast_or_null<CallExpr>(User);
    if (!Call || memberMaskArgument(*Call, Ctx) != Operand) {
      Finding.withoutFix(SM.getExpansionLoc(Read->getBeginLoc()),
                         "no automatic fix: " + Name +
                             " is also used here, not as a member mask, "
                             "and " + Written.str() +
                             " would change what this use computes in a "
                             "partial warp");
      return false;
    }
    if (Members.at(Call).Result != Membership::AllLanes) {
      Finding.withoutFix(SM.getExpansionLoc(Call->getBeginLoc()),
                         "no automatic fix: " + Name +
                             " is also the member mask of this call, which "
                             "not every lane reaches");
      return false;
    }
  }
  Finding.note(Taken, Name + " is used only as the member mask of primitives "
                      "that every lane reaches, so " + Written.str() +
                      " is written where it is taken");
  return true;
}

} // namespace warpfix
