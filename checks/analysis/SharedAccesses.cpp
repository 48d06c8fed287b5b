#include "checks/analysis/SharedAccesses.h"
#include "checks/analysis/CallSites.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/LocalDefinitions.h"
#include "checks/analysis/SyncPrimitives.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "checks/analysis/Loops.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SaveAndRestore.h"
#include <map>
#include <limits>
#include <set>

using namespace clang;

namespace warpfix {
namespace {

/// The most threads a block can have: every warp of a launched block is
/// modelled, so a race in its last warps is seen too.
constexpr int64_t MaxBlockThreads = SharedAccessAnalysis::LargestBlock;
constexpr unsigned MaxIterations = 64;
/// Iterations whose condition no thread can evaluate teach nothing new after
/// the first few: their accesses repeat with another counter value, and the
/// back edge is already exposed. Unrolling them all made one tiled matmul
/// cost more than parsing its CUB includes.
constexpr unsigned MaxUndecidedIterations = 4;
constexpr size_t MaxEvents = 50000;
/// An access to bytes this model cannot tell: a range that overlaps every
/// element of its storage, with room to spare for sums that do not overflow.
constexpr int64_t AnyElementOffset = std::numeric_limits<int64_t>::min() / 4;
constexpr int64_t AnyElementBytes = std::numeric_limits<int64_t>::max() / 2;
/// How many steps a name for shared memory may take to its array: a field
/// of a reference parameter bound to a cast of an element of a pointer into
/// a cast of a byte array is ten. A shallower bound dropped such reads, and
/// with them the races they take part in.
constexpr unsigned MaxResolveDepth = 24;

/// The size of a cooperative-groups tile of a group of type T
/// (`thread_block_tile<16>`), or 32 for any other group: a block, a warp, or
/// a tile whose size is not in its type.
unsigned tileSizeOf(QualType T) {
  const auto *Tile = T.isNull() ? nullptr
                                : dyn_cast_or_null<ClassTemplateSpecializationDecl>(
                                      T->getAsCXXRecordDecl());
  if (!Tile || Tile->getName() != "thread_block_tile" ||
      Tile->getTemplateArgs().size() < 1 ||
      Tile->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return 32;
  uint64_t Size = Tile->getTemplateArgs()[0].getAsIntegral().getZExtValue();
  return Size >= 1 && Size <= 32 ? unsigned(Size) : 32;
}

std::optional<uint32_t> constantMask(const Expr *Mask, const ASTContext &Ctx) {
  if (Mask->isValueDependent())
    return std::nullopt;
  Expr::EvalResult Value;
  if (!Mask->EvaluateAsInt(Value, Ctx))
    return std::nullopt;
  return uint32_t(Value.Val.getInt().getZExtValue());
}

bool isBarrierCall(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  llvm::StringRef Name = Callee->getName();
  if (Name == "__syncwarp" || Name == "__syncthreads" ||
      Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
      Name == "__syncthreads_or" || Name == "__barrier_sync")
    return true;
  // Cooperative groups: g.sync() on a tile or block, cg::sync(g).
  return Name == "sync" &&
         (isa<CXXMemberCallExpr>(Call) ||
          Callee->getQualifiedNameAsString().find("cooperative_groups") !=
              std::string::npos);
}

/// The lanes a barrier call orders. A __syncwarp() orders the lanes of its
/// mask, a tile's sync() the lanes of each tile. A mask that is not a
/// constant is evaluated for each thread where the barrier is reached.
BarrierReach reachOf(const CallExpr &Call, const ASTContext &Ctx) {
  BarrierReach Reach;
  llvm::StringRef Name = Call.getDirectCallee()->getName();
  Reach.OfBlock = Name.starts_with("__syncthreads") || Name == "__barrier_sync";
  if (Name == "__syncwarp") {
    if (Call.getNumArgs() == 1 && !Call.getArg(0)->isDefaultArgument()) {
      if (std::optional<uint32_t> Mask = constantMask(Call.getArg(0), Ctx))
        Reach.Mask = *Mask;
      else
        Reach.MaskExpr = Call.getArg(0);
    }
  } else if (Name == "sync") {
    // The group's own type, not the base class that declares sync().
    // A tile's sync() is static: `tile.sync()` names it through a member
    // expression whose base is the tile all the same.
    const auto *Member =
        dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts());
    const Expr *Object = Member                   ? Member->getBase()
                         : Call.getNumArgs() == 1 ? Call.getArg(0)
                                                  : nullptr;
    QualType Group;
    if (Object) {
      Group = Object->IgnoreImpCasts()->getType().getNonReferenceType();
      if (Group->isPointerType())
        Group = Group->getPointeeType();
    }
    Reach.TileSize = tileSizeOf(Group);
    const CXXRecordDecl *Record =
        Group.isNull() ? nullptr : Group->getAsCXXRecordDecl();
    // A thread_group may be any group: not known to hold the whole block.
    Reach.OfBlock = Record && Record->getIdentifier() &&
                    llvm::is_contained({"thread_block", "grid_group",
                                        "multi_grid_group", "cluster_group"},
                                       Record->getName());
  }
  return Reach;
}

bool isBarrierAsm(const AsmStmt &Asm, const ASTContext &Ctx) {
  std::string Text = Asm.generateAsmString(Ctx);
  return Text.find("bar.sync") != std::string::npos ||
         Text.find("barrier.sync") != std::string::npos ||
         Text.find("bar.warp.sync") != std::string::npos ||
         Text.find("barrier.cta") != std::string::npos;
}

/// A named barrier's arrival or reduction in PTX: `bar.arrive 1, 64;` lets a
/// producer warp go on while the consumers wait at `bar.sync 1, 64;`.
bool arrivesAtBarrierAsm(const AsmStmt &Asm, const ASTContext &Ctx) {
  std::string Text = Asm.generateAsmString(Ctx);
  return !isBarrierAsm(Asm, Ctx) &&
         llvm::any_of(
             std::initializer_list<llvm::StringRef>{
                 "bar.arrive", "barrier.arrive", "bar.red", "barrier.red"},
             [&](llvm::StringRef Op) {
               return llvm::StringRef(Text).contains(Op);
             });
}

/// The waits of the barriers of libcu++ (`cuda::barrier::arrive_and_wait`,
/// `wait`) and of a cooperative group's split barrier (`barrier_wait`):
/// the threads that take part are set where the barrier is made.
bool waitsForOtherThreads(const FunctionDecl *Callee) {
  if (!Callee || !Callee->getIdentifier())
    return false;
  llvm::StringRef Name = Callee->getName();
  if (Name == "arrive_and_wait" || Name == "barrier_wait")
    return true;
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  return Name == "wait" && Method && Method->getParent()->getIdentifier() &&
         Method->getParent()->getName().contains("barrier");
}

/// Such a barrier orders threads of different warps, but which, warpfix
/// does not know: it parts the block's intervals, where a race it hides is
/// missed rather than one it does not have reported, and orders no lanes
/// within a warp, as before it was seen.
BarrierReach arrivalOnly() {
  BarrierReach Reach;
  Reach.Mask = 0;
  Reach.OfBlock = true;
  return Reach;
}

/// X op Y, as C computes it on 64 bits, where it is defined.
std::optional<int64_t> arithmetic(BinaryOperatorKind Op, int64_t X, int64_t Y,
                                  bool Unsigned) {
  switch (Op) {
  case BO_Add: return X + Y;
  case BO_Sub: return X - Y;
  case BO_Mul: return X * Y;
  case BO_Div:
    if (Y == 0)
      return std::nullopt;
    return Unsigned ? int64_t(uint64_t(X) / uint64_t(Y)) : X / Y;
  case BO_Rem:
    if (Y == 0)
      return std::nullopt;
    return Unsigned ? int64_t(uint64_t(X) % uint64_t(Y)) : X % Y;
  case BO_And: return X & Y;
  case BO_Or: return X | Y;
  case BO_Xor: return X ^ Y;
  case BO_Shl:
    if (Y < 0 || Y > 62)
      return std::nullopt;
    return X << Y;
  case BO_Shr:
    if (Y < 0 || Y > 62)
      return std::nullopt;
    return X >> Y;
  case BO_LT: return Unsigned ? uint64_t(X) < uint64_t(Y) : X < Y;
  case BO_GT: return Unsigned ? uint64_t(X) > uint64_t(Y) : X > Y;
  case BO_LE: return Unsigned ? uint64_t(X) <= uint64_t(Y) : X <= Y;
  case BO_GE: return Unsigned ? uint64_t(X) >= uint64_t(Y) : X >= Y;
  case BO_EQ: return X == Y;
  case BO_NE: return X != Y;
  case BO_LAnd: return X && Y;
  case BO_LOr: return X || Y;
  case BO_Comma: return Y;
  default: return std::nullopt;
  }
}

/// What the call or construction Site passes for Param. A member operator's
/// call lists its object first (`a += b` is operator+=(a, b)), static or
/// not, so its parameters are one place on.
const Expr *argumentOf(const Expr *Site, const ParmVarDecl *Param) {
  const auto *Operator = dyn_cast<CXXOperatorCallExpr>(Site);
  if (!Operator || !isa<CXXMethodDecl>(Param->getDeclContext()))
    return CallSites::argumentFor(Site, Param);
  unsigned Index = Param->getFunctionScopeIndex() + 1;
  return Index < Operator->getNumArgs() ? Operator->getArg(Index) : nullptr;
}

/// The variable an assignment or an increment stores to, if it is named.
const VarDecl *storedVariable(const Stmt *S) {
  const Expr *Target = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    Target = B->getLHS();
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp())
    Target = U->getSubExpr();
  const auto *Ref =
      Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParens()) : nullptr;
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Local variables whose only value is their initializer.
class Reassigned : public RecursiveASTVisitor<Reassigned> {
public:
  llvm::DenseSet<const VarDecl *> Vars;
  void note(const Expr *E) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        Vars.insert(Var);
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      note(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      note(U->getSubExpr());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      bool ByReference = !Callee || I >= Callee->getNumParams() ||
                         Callee->getParamDecl(I)->getType()->isReferenceType();
      if (ByReference)
        note(Call->getArg(I));
    }
    return true;
  }
};

int64_t fitToType(int64_t Value, QualType Type, const ASTContext &Ctx) {
  if (Type->isBooleanType())
    return Value != 0;
  if (!Type->isIntegerType())
    return Value;
  unsigned Width = Ctx.getTypeSize(Type);
  if (Width >= 64)
    return Value;
  uint64_t Mask = (uint64_t(1) << Width) - 1;
  uint64_t Bits = uint64_t(Value) & Mask;
  if (Type->isSignedIntegerType() && (Bits >> (Width - 1)))
    return int64_t(Bits | ~Mask);
  return int64_t(Bits);
}

/// An if's condition where it is a compile-time constant (a template
/// parameter): then only one arm runs.
std::optional<bool> constantCondition(const IfStmt &If,
                                      const ASTContext &Ctx) {
  Expr::EvalResult Constant;
  if (If.getCond()->isValueDependent() ||
      !If.getCond()->EvaluateAsInt(Constant, Ctx))
    return std::nullopt;
  return Constant.Val.getInt() != 0;
}

/// Whether every path through S ends in a return. An if with a constant
/// condition counts by the arm it takes.
bool alwaysReturns(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(Block->body(), [&](const Stmt *Child) {
      return alwaysReturns(Child, Ctx);
    });
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (std::optional<bool> Taken = constantCondition(*If, Ctx))
      return alwaysReturns(*Taken ? If->getThen() : If->getElse(), Ctx);
    return alwaysReturns(If->getThen(), Ctx) &&
           alwaysReturns(If->getElse(), Ctx);
  }
  return false;
}

} // namespace

bool SharedAccessAnalysis::isTracked(const VarDecl *Var) {
  QualType Type = Var->getType();
  if (!Var->hasLocalStorage() || !Type->isIntegralOrEnumerationType() ||
      Type.isVolatileQualified())
    return false;
  const auto *F = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!F || !F->getBody())
    return false;
  auto It = UntrackedIn.find(F);
  if (It == UntrackedIn.end()) {
    // The lane-dependence analysis' memory model says which locals have a
    // use it does not understand (an address taken, a reference bound, a
    // capture by reference); a goto may jump back over a store.
    std::optional<llvm::DenseSet<const VarDecl *>> Vars;
    if (!bodyContainsGoto(Ctx, *F))
      Vars = localDefinitionsOf(Ctx, F->getBody())->Escaped;
    It = UntrackedIn.try_emplace(F, std::move(Vars)).first;
  }
  return It->second && !It->second->contains(Var);
}

llvm::SmallVector<const VarDecl *, 4>
SharedAccessAnalysis::assignedIn(const Stmt *S) {
  class Stores : public RecursiveASTVisitor<Stores> {
  public:
    explicit Stores(SharedAccessAnalysis &Analysis) : Analysis(Analysis) {}
    llvm::SmallVector<const VarDecl *, 4> Vars;
    bool VisitStmt(Stmt *S) {
      if (const VarDecl *Var = storedVariable(S);
          Var && Analysis.isTracked(Var) && !llvm::is_contained(Vars, Var))
        Vars.push_back(Var);
      return true;
    }

  private:
    SharedAccessAnalysis &Analysis;
  };
  Stores Found(*this);
  Found.TraverseStmt(const_cast<Stmt *>(S));
  return Found.Vars;
}

const Frame *SharedAccessAnalysis::withUnknown(
    const Frame *Before, llvm::ArrayRef<const VarDecl *> Vars) {
  if (Vars.empty())
    return Before;
  Frame After = Before ? *Before : Frame();
  for (const VarDecl *Var : Vars)
    After.Defined[Var] = {};
  return newFrame(std::move(After));
}

std::optional<llvm::SmallVector<std::pair<const VarDecl *, Frame::Definition>, 4>>
SharedAccessAnalysis::definitionsBy(const Stmt *S) {
  llvm::SmallVector<std::pair<const VarDecl *, Frame::Definition>, 4> Known;
  llvm::SmallVector<const VarDecl *, 4> Stored = assignedIn(S);
  if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
    if (!Stored.empty())
      return std::nullopt;
    // A reference, or a pointer that keeps its first value, is bound here:
    // the variables of its initializer have their values of this point.
    auto Bound = [&](const VarDecl *Var) {
      return Var->hasLocalStorage() && Var->getInit() &&
             (Var->getType()->isReferenceType() ||
              (Var->getType()->isPointerType() && hasSingleValue(Var)));
    };
    for (const clang::Decl *D : Decl->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D);
          Var && (isTracked(Var) || Bound(Var)))
        Known.push_back({Var, {Var->getInit(), nullptr}});
    return Known;
  }
  if (Stored.empty())
    return Known;
  const auto *Top = dyn_cast<Expr>(S);
  if (!Top)
    return std::nullopt;
  if (const auto *Full = dyn_cast<FullExpr>(Top))
    Top = Full->getSubExpr();
  Top = Top->IgnoreParens();
  // `t = e;`, `t ^= e;`, `++t;`: the statement stores t and nothing else.
  const VarDecl *Var = storedVariable(Top);
  const auto *B = dyn_cast<BinaryOperator>(Top);
  if (!Var || Stored.size() != 1 || Stored.front() != Var ||
      (B && !assignedIn(B->getRHS()).empty()))
    return std::nullopt;
  Known.push_back({Var, {Top, nullptr}});
  return Known;
}

std::optional<int64_t>
SharedAccessAnalysis::evaluateDefinition(const VarDecl *Var,
                                         const Frame::Definition &D,
                                         int64_t Tid, unsigned Depth) {
  if (!D.By)
    return std::nullopt;
  std::optional<int64_t> Value;
  if (const auto *B = dyn_cast<BinaryOperator>(D.By); B && B->isAssignmentOp()) {
    std::optional<int64_t> R = evaluate(B->getRHS(), D.Before, Tid, Depth + 1);
    if (B->getOpcode() == BO_Assign || !R) {
      Value = R;
    } else {
      std::optional<int64_t> L = evaluate(B->getLHS(), D.Before, Tid, Depth + 1);
      bool Unsigned = B->getLHS()->getType()->isUnsignedIntegerType() ||
                      B->getRHS()->getType()->isUnsignedIntegerType();
      if (L)
        Value = arithmetic(
            BinaryOperator::getOpForCompoundAssignment(B->getOpcode()), *L,
            *R, Unsigned);
    }
  } else if (const auto *U = dyn_cast<UnaryOperator>(D.By);
             U && U->isIncrementDecrementOp()) {
    if (std::optional<int64_t> Old =
            evaluate(U->getSubExpr(), D.Before, Tid, Depth + 1))
      Value = *Old + (U->isIncrementOp() ? 1 : -1);
  } else if (const auto *Init = dyn_cast<Expr>(D.By)) {
    Value = evaluate(Init, D.Before, Tid, Depth + 1);
  }
  if (!Value)
    return std::nullopt;
  return fitToType(*Value, Var->getType(), Ctx);
}

bool SharedAccessAnalysis::hasSingleValue(const VarDecl *Var) {
  return Var->getInit() && neverReassigned(Var);
}

bool SharedAccessAnalysis::neverReassigned(const VarDecl *Var) {
  const auto *F = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!F || !F->getBody())
    return false;
  auto It = ReassignedIn.find(F);
  if (It == ReassignedIn.end()) {
    Reassigned R;
    R.TraverseStmt(F->getBody());
    It = ReassignedIn.try_emplace(F, std::move(R.Vars)).first;
  }
  return !It->second.contains(Var);
}

std::optional<int64_t> SharedAccessAnalysis::evaluate(const Expr *E,
                                                      const Frame *Context,
                                                      int64_t Tid,
                                                      unsigned Depth) {
  // An unknown value is unknown in every block size: reading the size on
  // the way decided nothing.
  bool ReadShapeBefore = ReadShape;
  std::optional<int64_t> Value = evaluateExpression(E, Context, Tid, Depth);
  if (!Value)
    ReadShape = ReadShapeBefore;
  return Value;
}

std::optional<int64_t>
SharedAccessAnalysis::evaluateExpression(const Expr *E, const Frame *Context,
                                         int64_t Tid, unsigned Depth) {
  if (!E || Depth > 24 || Exhausted)
    return std::nullopt;
  if (++Evaluations > Budget && Budget) {
    Exhausted = true;
    return std::nullopt;
  }
  E = E->IgnoreParens();
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (E->getType()->isIntegralOrEnumerationType()) {
    // Whether an expression is a constant does not depend on the thread:
    // asked once, since clang's constant evaluator is the costly part.
    auto [It, New] = Constants.try_emplace(E);
    if (New) {
      Expr::EvalResult Result;
      if (E->EvaluateAsInt(Result, Ctx))
        It->second = Result.Val.getInt().getExtValue();
    }
    if (It->second)
      return It->second;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    std::optional<int64_t> V = evaluate(Cast->getSubExpr(), Context, Tid, Depth + 1);
    if (!V || !Cast->getType()->isIntegralOrEnumerationType())
      return V;
    return fitToType(*V, Cast->getType(), Ctx);
  }
  if (const auto *Full = dyn_cast<FullExpr>(E))
    return evaluate(Full->getSubExpr(), Context, Tid, Depth + 1);
  if (const auto *Pseudo = dyn_cast<PseudoObjectExpr>(E)) {
    const auto *Property =
        dyn_cast<MSPropertyRefExpr>(Pseudo->getSyntacticForm()->IgnoreParens());
    if (!Property)
      return std::nullopt;
    const Expr *Base = Property->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(Base))
      Base = Opaque->getSourceExpr()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(Base);
    if (!Ref)
      return std::nullopt;
    llvm::StringRef Var = Ref->getDecl()->getName();
    llvm::StringRef Field = Property->getPropertyDecl()->getName();
    if (Var == "blockIdx") {
      // In an index, the same for both threads of a pair: any value will
      // do. In a guard it picks the code that a block runs, and some block
      // may run any of it. gridDim stays 1: unknown in a guard, it made
      // `if (gridDim.x == 1) { tail(); return; }` and the code after it
      // both possible for one lane.
      // The search for races between warps takes its witnesses from the
      // block of index 0, which every launch has (OfBlockZero).
      if (InGuard && !OfBlockZero)
        return std::nullopt;
      return 0;
    }
    if (Var == "gridDim" || Var == "blockDim")
      ReadShape = true;
    if (Var == "gridDim")
      return 1;
    if (Block) {
      // Warps are cut from the linear thread index (CUDA C++ Programming Guide, SIMT Architecture).
      if (Var == "threadIdx") {
        ReadThread = true;
        return Field == "x"   ? Tid % Block->X
               : Field == "y" ? Tid / Block->X % Block->Y
                              : Tid / (Block->X * Block->Y);
      }
      if (Var == "blockDim")
        return Field == "x" ? Block->X : Field == "y" ? Block->Y : Block->Z;
      return std::nullopt;
    }
    // Otherwise the model is one block of Threads in x (BlockModels adds
    // blocks with rows where the kernel names threadIdx.y or z).
    if (Var == "threadIdx") {
      ReadThread = true;
      return Field == "x" ? Tid : 0;
    }
    if (Var == "blockDim")
      return Field == "x" ? Threads : 1;
    return std::nullopt;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return std::nullopt;
    if (Context) {
      auto Fixed = Context->Fixed.find(Var);
      if (Fixed != Context->Fixed.end()) {
        if (Context->FixedByShape.contains(Var))
          ReadShape = true;
        return Fixed->second;
      }
      auto Defined = Context->Defined.find(Var);
      if (Defined != Context->Defined.end())
        return evaluateDefinition(Var, Defined->second, Tid, Depth + 1);
    }
    // A parameter holds its argument until the function stores to it: a
    // tracked one's stores are in Defined, any other must have none.
    if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
      const Expr *Argument =
          Context && Context->Call &&
                  (isTracked(Param) || neverReassigned(Param))
              ? argumentOf(Context->Call, Param)
              : nullptr;
      if (!Argument)
        return std::nullopt;
      return evaluate(Argument, Context->Caller, Tid, Depth + 1);
    }
    if (Var->hasLocalStorage() && hasSingleValue(Var))
      return evaluate(Var->getInit(), Context, Tid, Depth + 1);
    return std::nullopt;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    std::optional<int64_t> V = evaluate(U->getSubExpr(), Context, Tid, Depth + 1);
    if (!V)
      return std::nullopt;
    switch (U->getOpcode()) {
    case UO_Minus:
      return fitToType(-*V, U->getType(), Ctx);
    case UO_Not:
      return fitToType(~*V, U->getType(), Ctx);
    case UO_LNot:
      return *V == 0;
    case UO_Plus:
      return *V;
    default:
      return std::nullopt;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return ballotOf(*Call, Context, Tid, Depth);
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
    std::optional<int64_t> C = evaluate(Cond->getCond(), Context, Tid, Depth + 1);
    if (!C)
      return std::nullopt;
    return evaluate(*C ? Cond->getTrueExpr() : Cond->getFalseExpr(), Context,
                    Tid, Depth + 1);
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  // The block's size counts only where the side that read it decides the
  // result (`blockIdx.x * blockDim.x` is 0 in an index, whatever the size).
  bool ReadShapeBefore = ReadShape;
  ReadShape = false;
  std::optional<int64_t> L = evaluate(B->getLHS(), Context, Tid, Depth + 1);
  bool LeftReadShape = ReadShape;
  ReadShape = false;
  auto DecidedBy = [&](bool Left, bool Right, int64_t Value) {
    ReadShape = ReadShapeBefore || (Left && LeftReadShape) || (Right && ReadShape);
    return std::optional<int64_t>(Value);
  };
  BinaryOperatorKind Op = B->getOpcode();
  if ((Op == BO_LAnd || Op == BO_Mul) && L && !*L)
    return DecidedBy(true, false, 0);
  if (Op == BO_LOr && L && *L)
    return DecidedBy(true, false, 1);
  std::optional<int64_t> R = evaluate(B->getRHS(), Context, Tid, Depth + 1);
  if ((Op == BO_LAnd || Op == BO_Mul) && R && !*R)
    return DecidedBy(false, true, 0);
  if (Op == BO_LOr && R && *R)
    return DecidedBy(false, true, 1);
  DecidedBy(true, true, 0);
  if (!L || !R)
    return std::nullopt;
  bool Unsigned = B->getLHS()->getType()->isUnsignedIntegerType() ||
                  B->getRHS()->getType()->isUnsignedIntegerType();
  std::optional<int64_t> Out = arithmetic(B->getOpcode(), *L, *R, Unsigned);
  if (!Out)
    return std::nullopt;
  return fitToType(*Out, B->getType(), Ctx);
}

static bool isBallotSync(const CallExpr &Call, const ASTContext &Ctx) {
  return isSyncPrimitiveCall(Call, Ctx.getSourceManager()) &&
         primitiveName(Call) == "__ballot_sync" && Call.getNumArgs() == 2;
}

/// `__ballot_sync(m, p)` in a defined program: every lane of m reaches it,
/// and its bit is p's value there. Lanes past the block have exited.
std::optional<int64_t> SharedAccessAnalysis::ballotOf(const CallExpr &Call,
                                                      const Frame *Context,
                                                      int64_t Tid,
                                                      unsigned Depth) {
  if (!isBallotSync(Call, Ctx))
    return std::nullopt;
  // Every lane of the caller's warp.
  ReadThread = true;
  std::optional<int64_t> Mask = evaluate(Call.getArg(0), Context, Tid, Depth + 1);
  if (!Mask)
    return std::nullopt;
  int64_t Size = Block ? Block->X * Block->Y * Block->Z : Threads;
  uint32_t Bits = 0;
  for (int64_t Lane = 0; Lane < 32; ++Lane) {
    int64_t Thread = Tid - Tid % 32 + Lane;
    if (!((*Mask >> Lane) & 1) || Thread >= Size)
      continue;
    std::optional<int64_t> Holds =
        evaluate(Call.getArg(1), Context, Thread, Depth + 1);
    if (!Holds)
      return std::nullopt;
    if (*Holds)
      Bits |= uint32_t(1) << Lane;
  }
  return Bits;
}

const Frame *SharedAccessAnalysis::newFrame(Frame F) {
  Frames.push_back(std::move(F));
  return &Frames.back();
}

bool SharedAccessAnalysis::resolve(const Expr *E, const Frame *Context,
                                   SharedAccess &Out, unsigned Depth,
                                   bool AsPointer) {
  if (Depth > MaxResolveDepth)
    return false;
  // A base class's field lies at the base's offset in the derived object.
  while (true) {
    E = E->IgnoreParens();
    // A cast between pointer types keeps the address:
    // `float *s = (float *)smem;` on `extern __shared__ char smem[]`.
    if (const auto *Explicit = dyn_cast<ExplicitCastExpr>(E)) {
      if (!AsPointer || !Explicit->getType()->isPointerType() ||
          !Explicit->getSubExpr()->getType()->isPointerType() ||
          (Explicit->getCastKind() != CK_BitCast &&
           Explicit->getCastKind() != CK_NoOp))
        return false;
      E = Explicit->getSubExpr();
      continue;
    }
    const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
    if (!Cast)
      break;
    if (Cast->getCastKind() == CK_DerivedToBase ||
        Cast->getCastKind() == CK_UncheckedDerivedToBase) {
      if (AsPointer || Cast->getSubExpr()->getType()->isPointerType())
        return false;
      const CXXRecordDecl *Derived =
          Cast->getSubExpr()->getType()->getAsCXXRecordDecl();
      if (!Derived || Derived->isInvalidDecl() || Derived->isDependentType())
        return false;
      for (const CXXBaseSpecifier *Step : Cast->path()) {
        const CXXRecordDecl *Base = Step->getType()->getAsCXXRecordDecl();
        if (Step->isVirtual() || !Base)
          return false;
        Out.Offset += Ctx.getASTRecordLayout(Derived)
                          .getBaseClassOffset(Base)
                          .getQuantity();
        Derived = Base;
      }
    }
    E = Cast->getSubExpr();
  }
  // A pointer loaded from memory (`rows[i][t]`, `(*pp)[t]`) points
  // somewhere this analysis does not know.
  if (AsPointer && E->getType()->isPointerType() &&
      (isa<ArraySubscriptExpr>(E) ||
       (isa<UnaryOperator>(E) &&
        cast<UnaryOperator>(E)->getOpcode() == UO_Deref)))
    return false;
  auto ElementBytes = [&](QualType T) -> int64_t {
    if (T->isIncompleteType() || T->isDependentType())
      return 0;
    return Ctx.getTypeSizeInChars(T).getQuantity();
  };
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    int64_t Scale = ElementBytes(Sub->getType());
    if (Scale == 0 || !resolve(Sub->getBase(), Context, Out, Depth + 1, true))
      return false;
    int64_t Extent = 0;
    if (const auto *Array = Ctx.getAsConstantArrayType(
            Sub->getBase()->IgnoreParenImpCasts()->getType()))
      Extent = Array->getSize().getLimitedValue(INT64_MAX);
    Out.Terms.push_back({Sub->getIdx(), Context, Scale, Extent});
    return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref)
      return resolve(U->getSubExpr(), Context, Out, Depth + 1, true);
    if (U->getOpcode() == UO_AddrOf)
      return resolve(U->getSubExpr(), Context, Out, Depth + 1, false);
    return false;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if ((B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub) ||
        !B->getLHS()->getType()->isPointerType())
      return false;
    int64_t Scale = ElementBytes(B->getLHS()->getType()->getPointeeType());
    if (Scale == 0 || !resolve(B->getLHS(), Context, Out, Depth + 1, true))
      return false;
    Out.Terms.push_back(
        {B->getRHS(), Context, B->getOpcode() == BO_Sub ? -Scale : Scale});
    return true;
  }
  // Where a pointer is followed, a pointer kept in shared memory
  // (`sh.row[i]`, `__shared__ int *p; p[i]`) points somewhere this analysis
  // does not know; only the pointer's own bytes are in shared memory.
  bool PointerValue = AsPointer && E->getType()->isPointerType();
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (PointerValue || !Field || Field->getParent()->isInvalidDecl() ||
        Field->getParent()->isDependentType() ||
        !resolve(Member->getBase(), Context, Out, Depth + 1, Member->isArrow()))
      return false;
    const RecordDecl *Record = Field->getParent();
    // A bit-field shares its bytes with its neighbours: it stands for the
    // whole record, so a store to it meets any access to the others.
    if (Field->isBitField()) {
      Out.Bytes = Ctx.getTypeSizeInChars(Ctx.getRecordType(Record)).getQuantity();
      return true;
    }
    Out.Offset += Ctx.toCharUnitsFromBits(Ctx.getFieldOffset(Field)).getQuantity();
    return true;
  }
  // `slot(s, t) = v;` with `int &slot(int *s, int i) { return s[i]; }`:
  // the element the callee's only statement returns, its parameters bound
  // to this call's arguments.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *Body =
        Callee && Callee->getReturnType()->isReferenceType() && !AsPointer
            ? dyn_cast_or_null<CompoundStmt>(Callee->getBody())
            : nullptr;
    const auto *Return =
        Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front())
                                  : nullptr;
    if (!Return || !Return->getRetValue() || isa<CXXMemberCallExpr>(Call) ||
        isa<CXXOperatorCallExpr>(Call))
      return false;
    Frame Inner;
    Inner.Caller = Context;
    Inner.Call = Call;
    return resolve(Return->getRetValue(), newFrame(std::move(Inner)), Out,
                   Depth + 1, false);
  }
  if (isa<CXXThisExpr>(E)) {
    if (!Context || !Context->This)
      return false;
    return resolve(Context->This, Context->Caller, Out, Depth + 1,
                   Context->ThisIsPointer);
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  // `auto &[flag, value] = slots[i];` names the fields of slots[i].
  if (const auto *Binding =
          Ref ? dyn_cast<BindingDecl>(Ref->getDecl()) : nullptr)
    return Binding->getBinding() &&
           resolve(Binding->getBinding(), Context, Out, Depth + 1, AsPointer);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var)
    return false;
  if (Var->hasAttr<CUDASharedAttr>()) {
    if (PointerValue)
      return false;
    Out.Array = Var;
    return true;
  }
  if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
    const Expr *Argument = Context && Context->Call
                               ? argumentOf(Context->Call, Param)
                               : nullptr;
    if (!Argument)
      return false;
    if (Param->getType()->isReferenceType() || neverReassigned(Param))
      return resolve(Argument, Context->Caller, Out, Depth + 1, AsPointer);
    // `s += 32;` in the callee moves a pointer parameter off its argument,
    // to somewhere this model does not follow: any byte of what the
    // argument pointed into.
    SharedAccess Base{};
    if (!AsPointer || !Param->getType()->isPointerType() ||
        !resolve(Argument, Context->Caller, Base, Depth + 1, true) ||
        !Base.Array)
      return false;
    Out.Array = Base.Array;
    Out.AnyElement = true;
    return true;
  }
  // A reference, or a pointer that keeps its first value, names what its
  // initializer named where it was declared: its indices are evaluated
  // there, not with the values their variables have at the access.
  if (!Var->hasLocalStorage() ||
      !(Var->getType()->isReferenceType() ||
        (Var->getType()->isPointerType() && hasSingleValue(Var))))
    return false;
  if (!Context)
    return false;
  auto Bound = Context->Defined.find(Var);
  if (Bound == Context->Defined.end() || !Bound->second.By ||
      Bound->second.By != Var->getInit())
    return false;
  return resolve(Var->getInit(), Bound->second.Before, Out, Depth + 1,
                 AsPointer);
}

/// The kernel's statement during which Leaf runs in Context: Leaf itself, or
/// the kernel's statement that makes the outermost call.
static const Stmt *kernelStatementOf(const Stmt *Leaf, const Frame *Context) {
  for (const Frame *F = Context; F; F = F->Caller)
    if (F->Call)
      Leaf = F->CallStatement;
  return Leaf;
}

bool SharedAccessAnalysis::reachesBarrier(const FunctionDecl &F) {
  const FunctionDecl *Definition = nullptr;
  if (!F.hasBody(Definition))
    return false;
  auto [Known, New] = BarrierCallers.try_emplace(Definition, false);
  if (!New)
    return Known->second; // also a call of itself, while it is searched
  class Search : public RecursiveASTVisitor<Search> {
  public:
    explicit Search(SharedAccessAnalysis &Analysis) : Analysis(Analysis) {}
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      Found |= (isBarrierCall(*Call) && reachOf(*Call, Analysis.Ctx).OfBlock) ||
               waitsForOtherThreads(Callee) ||
               (Callee && Analysis.reachesBarrier(*Callee));
      return !Found;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
      Found |= (isBarrierAsm(*Asm, Analysis.Ctx) &&
                Asm->generateAsmString(Analysis.Ctx).find("bar.warp.sync") ==
                    std::string::npos) ||
               arrivesAtBarrierAsm(*Asm, Analysis.Ctx);
      return !Found;
    }

  private:
    SharedAccessAnalysis &Analysis;
  } Searching(*this);
  Searching.TraverseStmt(Definition->getBody());
  BarrierCallers[Definition] = Searching.Found;
  return Searching.Found;
}

/// Where shared memory is passed to a call that is not followed (through a
/// pointer, past the depth followed, or with no body in sight), the call may
/// store anywhere in it: a write of every byte.
void SharedAccessAnalysis::addOpaqueCall(const CallExpr &Call,
                                         const Frame *Context,
                                         const std::vector<Guard> &Guards,
                                         const Stmt *Leaf) {
  llvm::SmallVector<const Expr *, 4> Passed(Call.arguments());
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
    Passed.push_back(Member->getImplicitObjectArgument());
  addOpaqueUse(Passed, Call, Context, Guards, Leaf);
}

/// A local object's destructor runs where its block ends (or returns), and
/// is not followed: what its constructor was given of shared memory, it may
/// have kept, and its destructor may touch.
void SharedAccessAnalysis::destroyLocals(const CompoundStmt &Block,
                                         const Frame *Context,
                                         const std::vector<Guard> &Guards) {
  for (const Stmt *Child : Block.body()) {
    const auto *Declaration = dyn_cast<DeclStmt>(Child);
    if (!Declaration)
      continue;
    for (const Decl *D : Declaration->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      const CXXRecordDecl *Record =
          Var && Var->hasLocalStorage()
              ? Var->getType()->getAsCXXRecordDecl()
              : nullptr;
      const CXXDestructorDecl *Destructor =
          Record && Record->hasDefinition() ? Record->getDestructor()
                                            : nullptr;
      const auto *Construct =
          Var ? dyn_cast_or_null<CXXConstructExpr>(Var->getInit()) : nullptr;
      if (!Destructor || Destructor->isTrivial() || !Construct)
        continue;
      llvm::SmallVector<const Expr *, 4> Passed(Construct->arguments());
      addOpaqueUse(Passed, *Construct, Context, Guards, &Block);
    }
  }
}

void SharedAccessAnalysis::addOpaqueUse(llvm::ArrayRef<const Expr *> Passed,
                                        const Expr &Use, const Frame *Context,
                                        const std::vector<Guard> &Guards,
                                        const Stmt *Leaf) {
  for (const Expr *Argument : Passed) {
    if (!Argument || Events.size() >= MaxEvents)
      continue;
    QualType Type = Argument->getType();
    bool Pointer = Type->isPointerType();
    if (!Pointer && !Argument->isGLValue())
      continue;
    SharedAccess A{};
    if (!resolve(Argument, Context, A, 0, Pointer) || !A.Array)
      continue;
    A.AnyElement = true;
    A.Access = &Use;
    A.IsWrite = true;
    record(std::move(A), Context, Guards, Leaf);
  }
}

void SharedAccessAnalysis::record(SharedAccess A, const Frame *Context,
                                  const std::vector<Guard> &Guards,
                                  const Stmt *Leaf) {
  if (A.AnyElement) {
    A.Terms.clear();
    A.Offset = AnyElementOffset;
    A.Bytes = AnyElementBytes;
  }
  A.Statement = Leaf;
  A.KernelStatement = kernelStatementOf(Leaf, Context);
  A.Guards = Guards;
  A.Sequence = Events.size();
  Events.push_back({std::move(A)});
}

void SharedAccessAnalysis::addAccess(const Expr *Lvalue, bool IsWrite,
                                     const Frame *Context,
                                     const std::vector<Guard> &Guards,
                                     const Stmt *Leaf, const Expr *Stored) {
  if (Events.size() >= MaxEvents)
    return;
  // Only an element counts: reading a pointer to shared memory is not an
  // access to it.
  const Expr *Element = Lvalue->IgnoreParens();
  const auto *Ref = dyn_cast<DeclRefExpr>(Element);
  bool IsElement =
      isa<ArraySubscriptExpr>(Element) || isa<MemberExpr>(Element) ||
      (isa<UnaryOperator>(Element) &&
       cast<UnaryOperator>(Element)->getOpcode() == UO_Deref) ||
      (Ref && Ref->getDecl()->hasAttr<CUDASharedAttr>() &&
       !Ref->getType()->isArrayType()) ||
      // A name for an element: a reference, or a structured binding.
      (Ref && (isa<BindingDecl>(Ref->getDecl()) ||
               (isa<VarDecl>(Ref->getDecl()) &&
                cast<VarDecl>(Ref->getDecl())->getType()->isReferenceType()))) ||
      // An element a function returns by reference.
      (isa<CallExpr>(Element) &&
       cast<CallExpr>(Element)->getCallReturnType(Ctx)->isReferenceType());
  QualType Type = Lvalue->getType();
  if (!IsElement || Type->isIncompleteType() || Type->isDependentType())
    return;
  SharedAccess A{};
  A.Bytes = std::max<int64_t>(Ctx.getTypeSizeInChars(Type).getQuantity(), 1);
  if (!resolve(Lvalue, Context, A, 0) || !A.Array)
    return;
  A.Access = Lvalue->IgnoreParens();
  A.IsWrite = IsWrite;
  A.Stored = Stored;
  record(std::move(A), Context, Guards, Leaf);
}

void SharedAccessAnalysis::walkExpression(const Stmt *S, const Frame *Context,
                                          std::vector<Guard> &Guards,
                                          const Stmt *Leaf, unsigned Depth) {
  class Visitor : public RecursiveASTVisitor<Visitor> {
  public:
    Visitor(SharedAccessAnalysis &Analysis, const Frame *Context,
            std::vector<Guard> &Guards, const Stmt *Leaf, unsigned Depth)
        : Analysis(Analysis), Context(Context), Guards(Guards), Leaf(Leaf),
          Depth(Depth) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    // The arms of `c ? a : b`, and the right operand of `&&` and `||`, run
    // only in the lanes their condition lets through.
    bool TraverseConditionalOperator(ConditionalOperator *C) {
      TraverseStmt(C->getCond());
      Guards.push_back({C->getCond(), false, Context});
      TraverseStmt(C->getTrueExpr());
      Guards.back().Negated = true;
      TraverseStmt(C->getFalseExpr());
      Guards.pop_back();
      return true;
    }
    bool TraverseBinaryOperator(BinaryOperator *B) {
      if (!B->isLogicalOp())
        return RecursiveASTVisitor::TraverseBinaryOperator(B);
      TraverseStmt(B->getLHS());
      Guards.push_back({B->getLHS(), B->getOpcode() == BO_LOr, Context});
      TraverseStmt(B->getRHS());
      Guards.pop_back();
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp()) {
        if (B->isCompoundAssignmentOp())
          Analysis.addAccess(B->getLHS(), false, Context, Guards, Leaf);
        Analysis.addAccess(B->getLHS(), true, Context, Guards, Leaf,
                           B->isCompoundAssignmentOp() ? nullptr
                                                       : B->getRHS());
      }
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp()) {
        Analysis.addAccess(U->getSubExpr(), false, Context, Guards, Leaf);
        Analysis.addAccess(U->getSubExpr(), true, Context, Guards, Leaf);
      }
      return true;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        read(Cast->getSubExpr());
      return true;
    }
    // `c ? s[i] : s[j]` as an lvalue: the load reads the arm its lanes take.
    void read(const Expr *Lvalue) {
      const auto *Choice =
          dyn_cast<ConditionalOperator>(Lvalue->IgnoreParens());
      if (!Choice) {
        Analysis.addAccess(Lvalue, false, Context, Guards, Leaf);
        return;
      }
      Guards.push_back({Choice->getCond(), false, Context});
      read(Choice->getTrueExpr());
      Guards.back().Negated = true;
      read(Choice->getFalseExpr());
      Guards.pop_back();
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (isBarrierCall(*Call)) {
        Analysis.addBarrier(reachOf(*Call, Analysis.Ctx), Guards, Context);
        return true;
      }
      // `slots[i] = slot;` on a struct calls its assignment operator: a
      // trivial one copies the bytes, a store of the whole element.
      if (const auto *Method =
              dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
          Method && isa<CXXOperatorCallExpr>(Call) && Method->isTrivial() &&
          (Method->isCopyAssignmentOperator() ||
           Method->isMoveAssignmentOperator()) &&
          Call->getNumArgs() == 2) {
        Analysis.addAccess(Call->getArg(1)->IgnoreImplicit(), false, Context,
                           Guards, Leaf);
        Analysis.addAccess(Call->getArg(0), true, Context, Guards, Leaf);
        return true;
      }
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Callee && Analysis.Ctx.getSourceManager().isInSystemHeader(
                        Callee->getLocation())) {
        if (waitsForOtherThreads(Callee))
          Analysis.addBarrier(arrivalOnly(), Guards, Context);
        return true;
      }
      if (!Callee || !Callee->getBody() || Depth >= 4) {
        Analysis.addOpaqueCall(*Call, Context, Guards, Leaf);
        if (Callee && Analysis.reachesBarrier(*Callee))
          Analysis.addBarrier(arrivalOnly(), Guards, Context);
        return true;
      }
      // Enter the callee with its parameters bound to this call's arguments,
      // and `this` to the object it is called on.
      Frame Inner;
      Inner.Caller = Context;
      Inner.Call = Call;
      Inner.CallStatement = Leaf;
      const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
        Inner.This = Member->getImplicitObjectArgument();
        Inner.ThisIsPointer =
            Inner.This && Inner.This->getType()->isPointerType();
      } else if (Method && Method->isInstance() &&
                 isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() >= 1) {
        Inner.This = Call->getArg(0);
      }
      Analysis.walk(Callee->getBody(), Analysis.newFrame(std::move(Inner)),
                    Guards, Depth + 1);
      return true;
    }
    // `Slot s = slots[i];` copies the whole element through a trivial
    // constructor: a read of all its bytes.
    bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
      const CXXConstructorDecl *Constructor = Construct->getConstructor();
      if (!Constructor)
        return true;
      if (Constructor->isTrivial() && Constructor->isCopyOrMoveConstructor() &&
          Construct->getNumArgs() >= 1) {
        Analysis.addAccess(Construct->getArg(0)->IgnoreImplicit(), false,
                           Context, Guards, Leaf);
        return true;
      }
      // A constructor written by the user reads its arguments in its member
      // initializers and its body. What it stores into the object being
      // built is not followed: `this` is unknown there.
      const FunctionDecl *Definition = nullptr;
      if (!Constructor->getBody(Definition) || Depth >= 4 ||
          Analysis.Ctx.getSourceManager().isInSystemHeader(
              Definition->getLocation()))
        return true;
      Frame Inner;
      Inner.Caller = Context;
      Inner.Call = Construct;
      Inner.CallStatement = Leaf;
      const Frame *Entered = Analysis.newFrame(std::move(Inner));
      for (const CXXCtorInitializer *Init :
           cast<CXXConstructorDecl>(Definition)->inits())
        if (Init->isWritten() && Init->getInit())
          Analysis.walkExpression(Init->getInit(), Entered, Guards,
                                  Init->getInit(), Depth + 1);
      Analysis.walk(Definition->getBody(), Entered, Guards, Depth + 1);
      return true;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
      if (arrivesAtBarrierAsm(*Asm, Analysis.Ctx)) {
        Analysis.addBarrier(arrivalOnly(), Guards, Context);
        return true;
      }
      if (!isBarrierAsm(*Asm, Analysis.Ctx))
        return true;
      // `bar.warp.sync %0;` orders the lanes of its operand; the other
      // barriers the block's threads, or as many as their count names,
      // which is taken to be the block.
      BarrierReach Reach;
      bool OfWarp =
          Asm->generateAsmString(Analysis.Ctx).find("bar.warp.sync") !=
          std::string::npos;
      if (OfWarp && Asm->getNumInputs() > 0)
        Reach.MaskExpr = Asm->getInputExpr(0);
      Reach.OfBlock = !OfWarp;
      Analysis.addBarrier(std::move(Reach), Guards, Context);
      return true;
    }

  private:
    SharedAccessAnalysis &Analysis;
    const Frame *Context;
    std::vector<Guard> &Guards;
    const Stmt *Leaf;
    unsigned Depth;
  };
  Visitor V(*this, Context, Guards, Leaf, Depth);
  V.TraverseStmt(const_cast<Stmt *>(S));
}

void SharedAccessAnalysis::walk(const Stmt *S, const Frame *Context,
                                std::vector<Guard> &Guards, unsigned Depth) {
  if (!S || Events.size() >= MaxEvents)
    return;
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    // After `if (c) { ...; return; }` only the lanes where c is false go on.
    size_t GuardsBefore = Guards.size();
    // Locals are followed from statement to statement, unless a case label
    // lets control enter the block in the middle.
    bool Sequential = llvm::none_of(Block->body(), [](const Stmt *Child) {
      return isa<SwitchCase>(Child);
    });
    const Frame *Current = Context;
    for (const Stmt *Child : Block->body()) {
      // A statement that only gives locals new values (a declaration,
      // `t ^= 1;`) is followed by them. In any other that stores a local (a
      // branch, a loop, `s[t++]`), the local is unknown from its start: on a
      // second iteration or after the store it is not what it was before.
      std::optional<llvm::SmallVector<std::pair<const VarDecl *, Frame::Definition>, 4>>
          Known;
      if (Sequential)
        Known = definitionsBy(Child);
      // A branch's arms start from the values before it, where each arm is
      // a block or stores nothing (a lone `s[(t ^= 1, t)] = 0;` has no block
      // to follow it in); after the branch, what an arm stores is unknown.
      const auto *If = dyn_cast<IfStmt>(Child);
      auto Followed = [&](const Stmt *Part) {
        return !Part || isa<CompoundStmt>(Part) || assignedIn(Part).empty();
      };
      bool Branch = If && !If->getInit() && !If->getConditionVariable() &&
                    assignedIn(If->getCond()).empty() &&
                    Followed(If->getThen()) && Followed(If->getElse());
      const Frame *Walked =
          Known || Branch ? Current : withUnknown(Current, assignedIn(Child));
      walk(Child, Walked, Guards, Depth);
      Current = Branch && !Known ? withUnknown(Walked, assignedIn(Child)) : Walked;
      if (Known && !Known->empty()) {
        Frame After = Walked ? *Walked : Frame();
        for (auto &[Var, Definition] : *Known)
          After.Defined[Var] = {Definition.By, Walked};
        Current = newFrame(std::move(After));
      }
      if (alwaysReturns(Child, Ctx))
        break;
      if (!If)
        continue;
      if (constantCondition(*If, Ctx))
        continue; // only the taken arm was walked, and it does not return
      if (alwaysReturns(If->getThen(), Ctx))
        Guards.push_back({If->getCond(), true, Walked});
      else if (alwaysReturns(If->getElse(), Ctx))
        Guards.push_back({If->getCond(), false, Walked});
    }
    Guards.resize(GuardsBefore);
    destroyLocals(*Block, Current, Guards);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    walkExpression(If->getCond(), Context, Guards, If, Depth);
    // Compile-time conditions (template parameters) pick one arm outright.
    if (std::optional<bool> Taken = constantCondition(*If, Ctx)) {
      walk(*Taken ? If->getThen() : If->getElse(), Context, Guards, Depth);
      return;
    }
    Guards.push_back({If->getCond(), false, Context});
    walk(If->getThen(), Context, Guards, Depth);
    Guards.back().Negated = true;
    walk(If->getElse(), Context, Guards, Depth);
    Guards.pop_back();
    return;
  }
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
    walkLoop(S, Context, Guards, Depth);
    return;
  }
  if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
    walkExpression(Switch->getCond(), Context, Guards, Switch, Depth);
    if (!walkCases(*Switch, Context, Guards, Depth))
      walk(Switch->getBody(), Context, Guards, Depth);
    return;
  }
  if (const auto *Case = dyn_cast<SwitchCase>(S)) {
    walk(Case->getSubStmt(), Context, Guards, Depth);
    return;
  }
  if (const auto *Label = dyn_cast<LabelStmt>(S)) {
    walk(Label->getSubStmt(), Context, Guards, Depth);
    return;
  }
  if (const auto *Attributed = dyn_cast<AttributedStmt>(S)) {
    walk(Attributed->getSubStmt(), Context, Guards, Depth);
    return;
  }
  if (isa<BreakStmt, ContinueStmt, GotoStmt, NullStmt>(S))
    return;
  walkExpression(S, Context, Guards, S, Depth);
}

bool SharedAccessAnalysis::walkCases(const SwitchStmt &Switch,
                                     const Frame *Context,
                                     std::vector<Guard> &Guards,
                                     unsigned Depth) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Switch.getBody());
  const Expr *Cond = Switch.getCond();
  if (!Body || !Cond || Switch.getConditionVariable() || Switch.getInit())
    return false;
  // Every label must be a statement of the body (not Duff's device), with a
  // constant value: then which lanes reach each statement is known.
  unsigned Labels = 0, Top = 0;
  for (const SwitchCase *Case = Switch.getSwitchCaseList(); Case;
       Case = Case->getNextSwitchCase())
    ++Labels;
  for (const Stmt *Child : Body->body())
    for (const Stmt *S = Child; isa<SwitchCase>(S);
         S = cast<SwitchCase>(S)->getSubStmt()) {
      ++Top;
      const auto *Case = dyn_cast<CaseStmt>(S);
      if (Case && (Case->caseStmtIsGNURange() ||
                   !Case->getLHS()->isIntegerConstantExpr(Ctx)))
        return false;
    }
  if (Top != Labels)
    return false;
  llvm::SmallVector<int64_t, 4> Values;
  for (const SwitchCase *Case = Switch.getSwitchCaseList(); Case;
       Case = Case->getNextSwitchCase())
    if (const auto *Valued = dyn_cast<CaseStmt>(Case))
      Values.push_back(
          Valued->getLHS()->EvaluateKnownConstInt(Ctx).getExtValue());
  llvm::SmallVector<int64_t, 4> Reaching;
  bool Default = false;
  const Frame *Current = Context;
  for (const Stmt *Child : Body->body()) {
    const Stmt *Inner = Child;
    while (const auto *Label = dyn_cast<SwitchCase>(Inner)) {
      if (const auto *Case = dyn_cast<CaseStmt>(Label))
        Reaching.push_back(
            Case->getLHS()->EvaluateKnownConstInt(Ctx).getExtValue());
      else
        Default = true;
      Inner = Label->getSubStmt();
    }
    if (!Default && Reaching.empty())
      continue; // after a break, before the next label: no lane runs it
    // Locals stored in one case are unknown in the others, which a lane
    // may enter without passing the store.
    const Frame *Walked = withUnknown(Current, assignedIn(Child));
    Current = Walked;
    Guards.push_back({Cond, false, Context});
    Guards.back().IsCase = true;
    Guards.back().Cases = Reaching;
    Guards.back().OrNoLabel = Default;
    Guards.back().Labels = Values;
    walk(Inner, Walked, Guards, Depth);
    Guards.pop_back();
    if (isa<BreakStmt, ContinueStmt, ReturnStmt>(Inner) ||
        alwaysReturns(Inner, Ctx)) {
      Reaching.clear();
      Default = false;
    }
  }
  return true;
}

void SharedAccessAnalysis::walkLoop(const Stmt *Loop, const Frame *Context,
                                    std::vector<Guard> &Guards,
                                    unsigned Depth) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  const Stmt *Body = loopBody(Loop);
  const Expr *Cond = isa<CXXForRangeStmt>(Loop) ? nullptr : loopCondition(Loop);
  // A counted loop `for (v = init; cond; v op= step)` is unrolled, with v
  // fixed in each iteration; the condition is a guard, since lanes may leave
  // at different iterations.
  const VarDecl *Counter = nullptr;
  const Expr *Init = nullptr;
  if (For && For->getInit()) {
    if (const auto *Decl = dyn_cast<DeclStmt>(For->getInit());
        Decl && Decl->isSingleDecl())
      if (const auto *Var = dyn_cast<VarDecl>(Decl->getSingleDecl())) {
        Counter = Var;
        Init = Var->getInit();
      }
    if (const auto *Assign = dyn_cast<BinaryOperator>(For->getInit());
        Assign && Assign->getOpcode() == BO_Assign)
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts())) {
        Counter = dyn_cast<VarDecl>(Ref->getDecl());
        Init = Assign->getRHS();
      }
  }
  // Only a counter that starts equal for every thread is unrolled; one that
  // starts at threadIdx.x (a block-stride loop) stays unknown.
  // Whether the block's size decides the counter's values: its init, its
  // condition (how many iterations) or its step read it.
  std::optional<int64_t> Value;
  bool CounterByShape = readsShape([&] {
    Value = Counter ? evaluate(Init, Context, 0) : std::nullopt;
    for (int64_t T = 1; Value && T < Threads; ++T)
      if (evaluate(Init, Context, T) != Value)
        Value = std::nullopt;
  });
  // The loop's own expressions access memory too: the init once, the
  // condition before each iteration and at the exit, the increment after
  // each iteration. Their accesses belong to the loop statement.
  auto Header = [&](const Stmt *Part, const Frame *Frame) {
    if (Part)
      walkExpression(Part, Frame, Guards, Loop, Depth);
  };
  const Expr *Inc = For ? For->getInc() : nullptr;
  if (For)
    Header(For->getInit(), Context);
  if (!For || !Cond || !Value || !Inc) {
    // Unknown trip count: two passes expose the back edge. A do loop's
    // first pass runs before any test.
    if (isa<DoStmt>(Loop))
      walk(Body, Context, Guards, Depth);
    Header(Cond, Context);
    Guards.push_back({Cond, false, Context});
    for (int Pass = 0; Pass < 2; ++Pass) {
      walk(Body, Context, Guards, Depth);
      Header(Inc, Context);
      Header(Cond, Context);
    }
    Guards.pop_back();
    return;
  }
  size_t GuardsBefore = Guards.size();
  unsigned Undecided = 0;
  bool CounterLost = false;
  for (unsigned I = 0; I < MaxIterations; ++I) {
    Frame Iteration = Context ? *Context : Frame();
    Iteration.Fixed[Counter] = *Value;
    const Frame *Current = newFrame(std::move(Iteration));
    Header(Cond, Current);
    bool AnyThread = false, AnyDecided = false;
    CounterByShape |= readsShape([&] {
      for (int64_t T = 0; T < Threads && !(AnyThread && AnyDecided); ++T) {
        std::optional<int64_t> Holds = evaluate(Cond, Current, T);
        AnyThread |= !Holds || *Holds;
        AnyDecided |= Holds.has_value();
      }
    });
    if (CounterByShape)
      const_cast<Frame *>(Current)->FixedByShape.insert(Counter);
    if (!AnyThread)
      break;
    if (!AnyDecided && ++Undecided > MaxUndecidedIterations)
      break;
    Guards.push_back({Cond, false, Current});
    walk(Body, Current, Guards, Depth);
    Header(Inc, Current);
    // The increment, evaluated in this iteration's frame.
    const Expr *Step = Inc->IgnoreParenImpCasts();
    std::optional<int64_t> Next;
    if (const auto *U = dyn_cast<UnaryOperator>(Step)) {
      if (U->isIncrementOp())
        Next = *Value + 1;
      else if (U->isDecrementOp())
        Next = *Value - 1;
    } else if (const auto *B = dyn_cast<BinaryOperator>(Step)) {
      std::optional<int64_t> By;
      CounterByShape |=
          readsShape([&] { By = evaluate(B->getRHS(), Current, 0); });
      if (By) {
        switch (B->getOpcode()) {
        case BO_Assign: Next = By; break;
        case BO_AddAssign: Next = *Value + *By; break;
        case BO_SubAssign: Next = *Value - *By; break;
        case BO_MulAssign: Next = *Value * *By; break;
        case BO_DivAssign: if (*By) Next = *Value / *By; break;
        case BO_ShrAssign: Next = *Value >> *By; break;
        case BO_ShlAssign: Next = *Value << *By; break;
        default: break;
        }
        if (Next && B->getOpcode() == BO_Assign)
          Next = evaluate(B->getRHS(), Current, 0);
      }
    }
    if (!Next) {
      CounterLost = true;
      break;
    }
    Value = fitToType(*Next, Counter->getType(), Ctx);
  }
  // An increment this model cannot follow (`++k, publish(s)`) leaves the
  // counter unknown, not the loop finished: one more pass with it unknown
  // exposes the back edge.
  if (CounterLost) {
    Guards.push_back({Cond, false, Context});
    walk(Body, Context, Guards, Depth);
    Header(Inc, Context);
    Header(Cond, Context);
  }
  Guards.resize(GuardsBefore);
}

void SharedAccessAnalysis::addBarrier(BarrierReach Reach,
                                      const std::vector<Guard> &Guards,
                                      const Frame *Context) {
  Reach.Guards = Guards;
  if (Reach.MaskExpr && !ballotOfReachingLanes(Reach.MaskExpr, Guards)) {
    // Each thread's own mask: `lane < 16 ? 0xffff : 0xffff0000` orders each
    // half-warp apart, though both halves reach the call. A mask that is
    // not known for a thread orders nothing for it.
    Reach.ThreadMasks.resize(Threads);
    for (int64_t Tid = 0; Tid < Threads; ++Tid)
      if (std::optional<int64_t> Mask = evaluate(Reach.MaskExpr, Context, Tid))
        Reach.ThreadMasks[Tid] = uint32_t(*Mask);
  }
  Reach.Whole = Reach.Mask == ~0u && Reach.TileSize == 32;
  for (int64_t Tid = 0; Reach.Whole && Tid < Threads; ++Tid)
    Reach.Whole = (passes(Guards, Tid) &&
                   (Reach.ThreadMasks.empty() ||
                    Reach.ThreadMasks[Tid] == ~0u)) ||
                  (Block && Tid >= Block->X * Block->Y * Block->Z);
  Events.push_back({std::nullopt, std::move(Reach)});
}

/// `m = __ballot_sync(c, taken); if (taken) { ... __syncwarp(m); }`, the
/// form of warpfix's own fixes where the condition reads memory: the mask is
/// exactly the lanes that reach the barrier, whatever `taken` is.
bool SharedAccessAnalysis::ballotOfReachingLanes(
    const Expr *Mask, const std::vector<Guard> &Guards) {
  if (Guards.empty() || Guards.back().Negated || Guards.back().IsCase)
    return false;
  auto VariableOf = [](const Expr *E) -> const VarDecl * {
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
        E ? E->IgnoreParenImpCasts() : nullptr);
    return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  };
  const VarDecl *Taken = VariableOf(Guards.back().Condition);
  const VarDecl *MaskVar = VariableOf(Mask);
  if (!Taken || !MaskVar || !hasSingleValue(Taken) ||
      !hasSingleValue(MaskVar))
    return false;
  const auto *Ballot =
      dyn_cast<CallExpr>(MaskVar->getInit()->IgnoreParenImpCasts());
  return Ballot && isBallotSync(*Ballot, Ctx) &&
         VariableOf(Ballot->getArg(1)) == Taken;
}

bool SharedAccessAnalysis::orderedBetween(const std::vector<size_t> &Partial,
                                          const SharedAccess &A, int64_t TA,
                                          const SharedAccess &B, int64_t TB) {
  unsigned First = std::min(A.Sequence, B.Sequence);
  unsigned Last = std::max(A.Sequence, B.Sequence);
  for (size_t I : Partial) {
    if (I <= First || I >= Last)
      continue;
    const BarrierReach &R = Events[I].Reach;
    int64_t LaneA = TA % 32, LaneB = TB % 32;
    uint32_t MaskA = R.ThreadMasks.empty() ? R.Mask : R.ThreadMasks[TA];
    uint32_t MaskB = R.ThreadMasks.empty() ? R.Mask : R.ThreadMasks[TB];
    if (((MaskA >> LaneB) & 1) && ((MaskB >> LaneA) & 1) &&
        LaneA / R.TileSize == LaneB / R.TileSize && passes(R.Guards, TA) &&
        passes(R.Guards, TB))
      return true;
  }
  return false;
}

bool SharedAccessAnalysis::executes(const SharedAccess &A, int64_t Tid,
                                    llvm::ArrayRef<GuardValues *> Values) {
  return passes(A.Guards, Tid, Values);
}

bool SharedAccessAnalysis::passes(const std::vector<Guard> &Guards, int64_t Tid,
                                  llvm::ArrayRef<GuardValues *> Values) {
  if (Block && Tid >= Block->X * Block->Y * Block->Z)
    return false; // a block smaller than two warps
  llvm::SaveAndRestore Guarding(InGuard, true);
  for (size_t I = 0; I < Guards.size(); ++I) {
    const Guard &G = Guards[I];
    if (!G.Condition)
      continue;
    std::optional<int64_t> Holds =
        guardValue(G, Tid, Values.empty() ? nullptr : Values[I]);
    if (G.IsCase) {
      if (Holds && !llvm::is_contained(G.Cases, *Holds) &&
          !(G.OrNoLabel && !llvm::is_contained(G.Labels, *Holds)))
        return false;
      continue;
    }
    if (Holds && (*Holds != 0) == G.Negated)
      return false;
  }
  return true;
}

std::optional<int64_t>
SharedAccessAnalysis::remembered(std::optional<int64_t> Value, size_t Cost,
                                 bool ReadsShape) {
  Evaluations += Cost;
  if (Budget && Evaluations > Budget) {
    Evaluations = Budget + 1;
    Exhausted = true;
    return std::nullopt;
  }
  ReadShape |= ReadsShape;
  return Value;
}

SharedAccessAnalysis::GuardValues &
SharedAccessAnalysis::guardValues(const Guard &G) {
  std::unique_ptr<GuardValues> &Values =
      RememberedGuards[{G.Condition, G.Context, unsigned(OfBlockZero)}];
  if (!Values)
    Values = std::make_unique<GuardValues>();
  return *Values;
}

std::vector<SharedAccessAnalysis::GuardValues *>
SharedAccessAnalysis::guardValuesOf(const std::vector<Guard> &Guards) {
  std::vector<GuardValues *> Values;
  // During the walk, frames are still being made and marked (a counter
  // that the block's size decides): only afterwards is a value final.
  if (!RememberGuards)
    return Values;
  for (const Guard &G : Guards)
    Values.push_back(G.Condition ? &guardValues(G) : nullptr);
  return Values;
}

std::optional<int64_t> SharedAccessAnalysis::guardValue(const Guard &G,
                                                        int64_t Tid,
                                                        GuardValues *Values) {
  if (!RememberGuards || Tid >= Threads)
    return evaluate(G.Condition, G.Context, Tid);
  if (Exhausted)
    return std::nullopt;
  if (!Values)
    Values = &guardValues(G);
  const GuardValue *Known = Values->ForEveryThread.Known
                                ? &Values->ForEveryThread
                            : Values->ByThread.empty() ? nullptr
                                                       : &Values->ByThread[Tid];
  if (Known && Known->Known)
    return remembered(Known->HasValue ? std::optional<int64_t>(Known->Value)
                                      : std::nullopt,
                      Known->Evaluations, Known->ReadsShape);
  // What an evaluation adds to ReadShape depends only on the expression,
  // its frame and the thread: learnt from a clear flag, then added.
  size_t Before = Evaluations;
  bool ReadShapeBefore = ReadShape, ReadThreadBefore = ReadThread;
  ReadShape = ReadThread = false;
  std::optional<int64_t> Value = evaluate(G.Condition, G.Context, Tid);
  bool Reads = ReadShape, SameForEveryThread = !ReadThread;
  ReadShape = ReadShapeBefore || Reads;
  ReadThread = ReadThreadBefore || !SameForEveryThread;
  if (Exhausted)
    return Value;
  GuardValue Slot;
  Slot.Known = true;
  Slot.HasValue = Value.has_value();
  Slot.Value = Value.value_or(0);
  Slot.Evaluations = uint32_t(Evaluations - Before);
  Slot.ReadsShape = Reads;
  // An evaluation that never read the thread takes the same steps to the
  // same value in every thread (a step that depends on the thread must
  // read it first).
  if (SameForEveryThread) {
    Values->ForEveryThread = Slot;
  } else {
    if (Values->ByThread.empty())
      Values->ByThread.resize(Threads);
    Values->ByThread[Tid] = Slot;
  }
  return Value;
}

std::optional<int64_t> SharedAccessAnalysis::element(const SharedAccess &A,
                                                     int64_t Tid) {
  int64_t Sum = A.Offset;
  for (const SharedAccess::Term &T : A.Terms) {
    std::optional<int64_t> V = termValue(T, Tid);
    if (!V)
      return std::nullopt;
    Sum += *V * T.Scale;
  }
  return Sum;
}

std::optional<int64_t>
SharedAccessAnalysis::termValue(const SharedAccess::Term &T, int64_t Tid) {
  // As for guards, only values from after the walk are final.
  if (!RememberGuards)
    return evaluate(T.Index, T.Context, Tid);
  if (Exhausted)
    return std::nullopt;
  auto [It, New] = TermValues.try_emplace(std::make_tuple(
      T.Index, T.Context, unsigned(InGuard) | OfBlockZero << 1));
  TermValue &Known = It->second;
  if (!New) {
    if (Known.ReadsThread)
      return evaluate(T.Index, T.Context, Tid);
    return remembered(Known.Value, Known.Evaluations, Known.ReadsShape);
  }
  size_t Before = Evaluations;
  bool ReadShapeBefore = ReadShape, ReadThreadBefore = ReadThread;
  ReadShape = ReadThread = false;
  std::optional<int64_t> Value = evaluate(T.Index, T.Context, Tid);
  // Not kept where the budget ran out: the value was cut short.
  Known = {Value, Evaluations - Before, ReadShape, ReadThread || Exhausted};
  ReadShape = ReadShapeBefore || Known.ReadsShape;
  ReadThread = ReadThreadBefore || ReadThread;
  return Value;
}

/// The storage a __shared__ variable names: its own, or the block's one
/// dynamic allocation, which every `extern __shared__ T s[]` of a kernel
/// aliases, whatever its name, type or qualifiers.
static const VarDecl *storageOf(const VarDecl &Var) {
  if (Var.hasExternalStorage() && Var.getType()->isIncompleteArrayType())
    return nullptr;
  return &Var;
}

static bool sameStorage(const VarDecl &A, const VarDecl &B) {
  return storageOf(A) == storageOf(B);
}

/// Whether a lane's element in W overlaps another lane's in O, each list
/// sorted by element, then lane. One sweep: most pairs in unrolled code
/// overlap only lane by lane (`s[t]` and `s[t]` again), and trying each lane
/// apart cost more than the rest of the search.
static bool overlapAcrossLanes(llvm::ArrayRef<std::pair<int64_t, int64_t>> W,
                               int64_t WBytes,
                               llvm::ArrayRef<std::pair<int64_t, int64_t>> O,
                               int64_t OBytes) {
  size_t First = 0;
  for (auto [Element, Lane] : W) {
    while (First < O.size() && O[First].first <= Element - OBytes)
      ++First;
    for (size_t I = First; I < O.size() && O[I].first < Element + WBytes; ++I)
      if (O[I].second != Lane)
        return true;
  }
  return false;
}

/// Two stores of one constant to an element leave it the same in whatever
/// order the lanes make them (`flag = 0;` by every thread): no race to order.
bool SharedAccessAnalysis::storeTheSameConstant(const SharedAccess &A,
                                                const SharedAccess &B) {
  if (!A.IsWrite || !B.IsWrite || !A.Stored || !B.Stored ||
      !Ctx.hasSameType(A.Access->getType(), B.Access->getType()))
    return false;
  const std::optional<APValue> &ValueA = storedConstant(A.Stored);
  if (!ValueA)
    return false;
  const std::optional<APValue> &ValueB = storedConstant(B.Stored);
  if (!ValueB)
    return false;
  const APValue &X = *ValueA, &Y = *ValueB;
  if (X.isInt() && Y.isInt())
    return llvm::APSInt::isSameValue(X.getInt(), Y.getInt());
  if (X.isFloat() && Y.isFloat())
    return X.getFloat().bitwiseIsEqual(Y.getFloat());
  return false;
}

const std::optional<APValue> &
SharedAccessAnalysis::storedConstant(const Expr *E) {
  auto [It, New] = StoredConstants.try_emplace(E);
  if (New) {
    Expr::EvalResult Value;
    if (!E->isValueDependent() && E->EvaluateAsRValue(Value, Ctx) &&
        !Value.HasSideEffects)
      It->second = std::move(Value.Val);
  }
  return It->second;
}

using Touched = SharedAccessAnalysis::Touched;

/// A thread of one warp that writes through Interval[W] an element that a
/// thread of another warp touches through Interval[O], if any: the writer,
/// the other thread, and the element (the other's, if W may touch any). The
/// witness is the first in the order of the writer's warp, then the other's
/// warp and lane.
///
/// Asked for every race in every model: the writer's warp is found first,
/// by looking each element of O up once among all of W's in order, and only
/// that warp is searched for the witness. Trying every pair of warps cost
/// minutes on unrolled kernels, most of it to learn that no warps meet.
static std::optional<std::tuple<int64_t, int64_t, int64_t>>
meetAcross(const Touched &ByWarp,
           const std::vector<const SharedAccess *> &Interval, size_t W,
           size_t O) {
  int64_t Warps = ByWarp.size();
  int64_t WriteBytes = Interval[W]->Bytes, OtherBytes = Interval[O]->Bytes;
  std::vector<std::pair<int64_t, int64_t>> Written; // element, warp
  for (int64_t A = 0; A < Warps; ++A)
    for (const std::optional<int64_t> &E : *ByWarp[A][W])
      if (E)
        Written.push_back({*E, A});
  llvm::sort(Written);
  // The lowest warp that writes an element another warp's access overlaps.
  std::optional<int64_t> Writer;
  for (int64_t B = 0; B < Warps && Writer != 0; ++B)
    for (const std::optional<int64_t> &E : *ByWarp[B][O]) {
      if (!E)
        continue;
      // The writes that overlap this access: after its first byte less the
      // write's size, before its end; none can come from a warp below the
      // lowest other than B.
      int64_t Lowest = B == 0 ? 1 : 0;
      auto Low = llvm::upper_bound(
          Written, std::make_pair(*E - WriteBytes,
                                  std::numeric_limits<int64_t>::max()));
      for (auto It = Low; It != Written.end() && It->first < *E + OtherBytes &&
                          Writer != Lowest;
           ++It)
        if (It->second != B && (!Writer || It->second < *Writer))
          Writer = It->second;
      if (Writer == 0)
        break;
    }
  if (!Writer)
    return std::nullopt;
  int64_t A = *Writer;
  std::map<int64_t, int64_t> WrittenByA;
  for (int64_t Lane = 0; Lane < 32; ++Lane)
    if (const std::optional<int64_t> &E = (*ByWarp[A][W])[Lane])
      WrittenByA.try_emplace(*E, A * 32 + Lane);
  for (int64_t B = 0; B < Warps; ++B)
    if (B != A)
      for (int64_t Lane = 0; Lane < 32; ++Lane)
        if (const std::optional<int64_t> &E = (*ByWarp[B][O])[Lane]) {
          // The first write that starts after the last byte that could
          // still overlap this access.
          auto It = WrittenByA.upper_bound(*E - WriteBytes);
          if (It != WrittenByA.end() && It->first < *E + OtherBytes)
            return std::make_tuple(It->second, B * 32 + Lane,
                                   Interval[W]->AnyElement ? *E : It->first);
        }
  return std::nullopt;
}

unsigned
SharedAccessAnalysis::patternOf(std::vector<std::optional<int64_t>> Elements) {
  return Patterns.try_emplace(std::move(Elements), Patterns.size())
      .first->second;
}

SharedAccessAnalysis::Meeting SharedAccessAnalysis::meetAcrossOnce(
    const Touched &ByWarp, const std::vector<const SharedAccess *> &Interval,
    size_t W, size_t O, unsigned PatternW, unsigned PatternO) {
  auto Key = std::make_tuple(PatternW, Interval[W]->Bytes,
                             unsigned(Interval[W]->AnyElement), PatternO,
                             Interval[O]->Bytes);
  if (auto Known = Meetings.find(Key); Known != Meetings.end())
    return Known->second;
  Meeting Found = meetAcross(ByWarp, Interval, W, O);
  Meetings.try_emplace(Key, Found);
  return Found;
}

bool SharedAccessAnalysis::readsShape(llvm::function_ref<void()> Evaluate) {
  llvm::SaveAndRestore Outer(ReadShape, false);
  Evaluate();
  return ReadShape;
}

std::vector<std::pair<size_t, size_t>> SharedAccessAnalysis::intervals() const {
  std::vector<std::pair<size_t, size_t>> Out;
  size_t Start = 0;
  for (size_t End = 0; End <= Events.size(); ++End) {
    if (End < Events.size() &&
        (Events[End].Access || !Events[End].Reach.Whole))
      continue;
    Out.push_back({Start, End});
    Start = End + 1;
  }
  return Out;
}

std::vector<std::pair<size_t, size_t>>
SharedAccessAnalysis::blockIntervals() const {
  std::vector<std::pair<size_t, size_t>> Out;
  size_t Start = 0;
  for (size_t End = 0; End <= Events.size(); ++End) {
    // A barrier of the block that only some threads reach is
    // block-divergent-syncthreads' finding; here it is taken to order.
    if (End < Events.size() &&
        (Events[End].Access || !Events[End].Reach.OfBlock))
      continue;
    Out.push_back({Start, End});
    Start = End + 1;
  }
  return Out;
}

bool SharedAccessAnalysis::inBounds(const SharedAccess &A, int64_t Tid) {
  for (const SharedAccess::Term &T : A.Terms)
    if (T.Extent > 0)
      if (std::optional<int64_t> V = evaluate(T.Index, T.Context, Tid);
          V && (*V < 0 || *V >= T.Extent))
        return false;
  return true;
}

std::vector<std::optional<int64_t>>
SharedAccessAnalysis::lanesOf(const SharedAccess &A, int64_t Warp,
                              bool InBlockZero) {
  llvm::SaveAndRestore BlockZero(OfBlockZero, InBlockZero);
  std::vector<std::optional<int64_t>> PerLane(32);
  std::vector<GuardValues *> Guards = guardValuesOf(A.Guards);
  for (int64_t Lane = 0; Lane < 32; ++Lane) {
    if (!executes(A, Warp * 32 + Lane, Guards))
      continue;
    if (InBlockZero && !inBounds(A, Warp * 32 + Lane)) {
      IndexedOutside = true;
      continue;
    }
    PerLane[Lane] = element(A, Warp * 32 + Lane);
  }
  return PerLane;
}

const SharedAccessAnalysis::AccessElements &
SharedAccessAnalysis::elementsOf(const SharedAccess &A, bool InBlockZero) {
  auto [Known, New] =
      (InBlockZero ? TouchedInBlockZeroBy : TouchedBy).try_emplace(&A);
  if (New) {
    llvm::SaveAndRestore Reading(ReadShape, false);
    std::vector<std::optional<int64_t>> Elements;
    for (int64_t Warp = 0; Warp < Threads / 32; ++Warp) {
      Known->second.ByWarp.push_back(lanesOf(A, Warp, InBlockZero));
      llvm::append_range(Elements, Known->second.ByWarp.back());
    }
    Known->second.Pattern = patternOf(std::move(Elements));
    Known->second.ReadsShape = ReadShape;
  }
  return Known->second;
}

Touched
SharedAccessAnalysis::touched(const std::vector<const SharedAccess *> &Interval,
                              std::vector<unsigned> &Pattern,
                              std::vector<bool> &ByShape, bool InBlockZero) {
  Touched ByWarp(Threads / 32);
  for (const SharedAccess *A : Interval) {
    const AccessElements &Elements = elementsOf(*A, InBlockZero);
    for (int64_t Warp = 0; Warp < Threads / 32; ++Warp)
      // A view: the lanes live in ByWarp's buffer, which stays where it is
      // when TouchedBy grows and moves the vector that owns it.
      ByWarp[Warp].push_back(&Elements.ByWarp[Warp]);
    Pattern.push_back(Elements.Pattern);
    ByShape.push_back(Elements.ReadsShape);
  }
  return ByWarp;
}

std::optional<std::tuple<int64_t, int64_t, int64_t>>
SharedAccessAnalysis::meetAcrossWarps(const Expr *Write,
                                      const Stmt *WriteStatement,
                                      const Expr *Other,
                                      const Stmt *OtherStatement) {
  // The walk's budget is spent or not; these few evaluations must not be
  // cut short, or a meeting would go unseen.
  llvm::SaveAndRestore Unbounded(Budget, size_t(0));
  // Asked for every race of a kernel, in every model: the events of the two
  // accesses are looked up, not searched for, and what an access touches
  // is evaluated once.
  if (EventsOf.empty())
    for (size_t I = 0; I < Events.size(); ++I)
      if (const std::optional<SharedAccess> &A = Events[I].Access)
        EventsOf[{A->Access, A->KernelStatement}].push_back(I);
  std::vector<size_t> Mine;
  for (auto Key : {std::make_pair(Write, WriteStatement),
                   std::make_pair(Other, OtherStatement)})
    if (auto It = EventsOf.find(Key); It != EventsOf.end())
      Mine.insert(Mine.end(), It->second.begin(), It->second.end());
  llvm::sort(Mine);
  Mine.erase(std::unique(Mine.begin(), Mine.end()), Mine.end());
  auto Next = Mine.begin();
  for (auto [Start, End] : Intervals) {
    std::vector<const SharedAccess *> Interval;
    for (; Next != Mine.end() && *Next < End; ++Next)
      if (const std::optional<SharedAccess> &A = Events[*Next].Access;
          *Next >= Start && A &&
          ((A->Access == Write && A->KernelStatement == WriteStatement &&
            A->IsWrite) ||
           (A->Access == Other && A->KernelStatement == OtherStatement)))
        Interval.push_back(&*A);
    if (Interval.size() < 2 && !(Interval.size() == 1 && Write == Other))
      continue;
    std::vector<unsigned> Pattern;
    std::vector<bool> ByShape;
    Touched ByWarp = touched(Interval, Pattern, ByShape);
    for (size_t W = 0; W < Interval.size(); ++W)
      for (size_t O = 0; O < Interval.size(); ++O)
        if (Interval[W]->Access == Write && Interval[W]->IsWrite &&
            Interval[O]->Access == Other &&
            sameStorage(*Interval[W]->Array, *Interval[O]->Array))
          if (auto Across = meetAcrossOnce(ByWarp, Interval, W, O, Pattern[W],
                                           Pattern[O]))
            return Across;
  }
  return std::nullopt;
}

/// Above this many classes of accesses in one interval, the table of
/// which classes meet (a byte per pair) would cost more than it saves.
static constexpr size_t MaxClassesRemembered = 4096;

std::vector<Race> SharedAccessAnalysis::findRaces() {
  std::vector<Race> Races;
  // One witness per pair of accesses and direction: the other access before
  // the write, or after it (a later statement, or the next iteration).
  // A helper's access is one expression made from each statement of the
  // kernel that calls it: each such pair of statements is a pair of its own.
  std::set<std::tuple<const Expr *, const Expr *, bool, const Stmt *,
                      const Stmt *>>
      Seen;
  auto SeenKey = [](const SharedAccess &Write, const SharedAccess &Other,
                    bool OtherFirst) {
    return std::make_tuple(Write.Access, Other.Access, OtherFirst,
                           Write.KernelStatement, Other.KernelStatement);
  };
  for (auto [Start, End] : Intervals) {
    // [Start, End) is one barrier interval: no barrier in it orders every
    // lane, and those that order some (Partial) are checked pair by pair.
    std::vector<const SharedAccess *> Interval;
    std::vector<size_t> Partial;
    for (size_t I = Start; I < End; ++I)
      if (Events[I].Access)
        Interval.push_back(&*Events[I].Access);
      else
        Partial.push_back(I);
    std::vector<unsigned> Pattern;
    std::vector<bool> ByShape;
    Touched ByWarp = touched(Interval, Pattern, ByShape);
    // Whether two lanes overlap depends only on what the accesses touch,
    // and unrolled code repeats a few patterns over thousands of accesses:
    // each (pattern, size) is a class, and each pair of classes is tried
    // once per warp.
    std::vector<unsigned> Class;
    std::vector<size_t> Representative; // whose lanes stand for the class's
    llvm::DenseMap<std::pair<unsigned, int64_t>, unsigned> ClassOf;
    for (size_t I = 0; I < Interval.size(); ++I) {
      auto [It, New] =
          ClassOf.try_emplace({Pattern[I], Interval[I]->Bytes}, ClassOf.size());
      if (New)
        Representative.push_back(I);
      Class.push_back(It->second);
    }
    const size_t Classes = ClassOf.size();
    // The pairs a write makes, grouped by the other access's statement,
    // which is what a witness is kept once for: an unrolled kernel repeats
    // a few statements thousands of times, and once a pair of statements
    // has its witness, or its classes never meet, its repetitions are
    // passed over as a whole.
    struct Site {
      std::vector<size_t> Accesses; // in order
      llvm::SmallVector<unsigned, 4> Classes;
    };
    std::vector<Site> Sites;
    // A write pairs only with accesses of its own array, so a site is a
    // statement's accesses to one array (a helper's statement, called twice
    // in one of the kernel's, may reach two).
    std::vector<std::vector<size_t>> SitesOfStorage;
    llvm::DenseMap<const VarDecl *, unsigned> StorageIds;
    llvm::DenseMap<std::tuple<unsigned, const Expr *, const Stmt *>, size_t>
        SiteIds;
    std::vector<unsigned> StorageOf;
    for (size_t I = 0; I < Interval.size(); ++I) {
      auto [Storage, NewStorage] = StorageIds.try_emplace(
          storageOf(*Interval[I]->Array), SitesOfStorage.size());
      if (NewStorage)
        SitesOfStorage.emplace_back();
      StorageOf.push_back(Storage->second);
      auto [It, NewSite] = SiteIds.try_emplace(
          {Storage->second, Interval[I]->Access, Interval[I]->KernelStatement},
          Sites.size());
      if (NewSite) {
        Sites.emplace_back();
        SitesOfStorage[Storage->second].push_back(It->second);
      }
      Site &Of = Sites[It->second];
      Of.Accesses.push_back(I);
      if (!llvm::is_contained(Of.Classes, Class[I]))
        Of.Classes.push_back(Class[I]);
    }
    for (int64_t Warp = 0; Warp < Threads / 32; ++Warp) {
      const auto &Elements = ByWarp[Warp];
      std::vector<std::vector<int8_t>> Meets(
          Classes <= MaxClassesRemembered ? Classes : 0);
      // Each class's elements with the lanes that touch them, in order: the
      // lanes that may overlap a lane's element are found by a search, not
      // by trying all 32 (an unrolled kernel has thousands of pairs).
      std::vector<std::vector<std::pair<int64_t, int64_t>>> SortedOfClass(
          Classes);
      for (size_t C = 0; C < Classes; ++C) {
        const Lanes &Touching = *Elements[Representative[C]];
        for (int64_t Lane = 0; Lane < 32; ++Lane)
          if (Touching[Lane])
            SortedOfClass[C].push_back({*Touching[Lane], Lane});
        llvm::sort(SortedOfClass[C]);
      }
      auto ClassesMeet = [&](unsigned WriteClass, unsigned OtherClass) {
        auto Overlap = [&] {
          return overlapAcrossLanes(
              SortedOfClass[WriteClass],
              Interval[Representative[WriteClass]]->Bytes,
              SortedOfClass[OtherClass],
              Interval[Representative[OtherClass]]->Bytes);
        };
        if (Meets.empty())
          return Overlap();
        std::vector<int8_t> &Row = Meets[WriteClass];
        if (Row.empty())
          Row.assign(Classes, -1);
        int8_t &Known = Row[OtherClass];
        if (Known < 0)
          Known = Overlap();
        return Known == 1;
      };
      // W and O's race in this warp, if they have one: the writer's lowest
      // lane whose bytes another lane of O touches with no barrier between
      // them, and the lowest such lane.
      auto Witness = [&](size_t W, size_t O) -> std::optional<Race> {
        const SharedAccess *Write = Interval[W], *Other = Interval[O];
        llvm::ArrayRef<std::pair<int64_t, int64_t>> OtherSorted =
            SortedOfClass[Class[O]];
        for (int64_t Lane = 0; Lane < 32; ++Lane) {
          if (!(*Elements[W])[Lane])
            continue;
          // Any lane but this one touching the same element races with
          // it: the lanes whose element overlaps this one's, lowest first.
          int64_t Element = *(*Elements[W])[Lane];
          llvm::SmallVector<int64_t, 32> Overlapping;
          for (auto It = llvm::upper_bound(
                   OtherSorted,
                   std::make_pair(Element - Other->Bytes, int64_t(32)));
               It != OtherSorted.end() && It->first < Element + Write->Bytes;
               ++It)
            Overlapping.push_back(It->second);
          llvm::sort(Overlapping);
          for (int64_t OtherLane : Overlapping) {
            if (OtherLane == Lane ||
                orderedBetween(Partial, *Write, Warp * 32 + Lane, *Other,
                               Warp * 32 + OtherLane))
              continue;
            // Named by the access whose element is known, if one is.
            Race Found{Write, Other, Warp * 32 + Lane, Warp * 32 + OtherLane,
                       Write->AnyElement ? *(*Elements[O])[OtherLane]
                                         : *(*Elements[W])[Lane]};
            Found.ModelThreads = Threads;
            Found.ModelShape = Block ? *Block : BlockSize{Threads, 1, 1};
            Found.ShapeDependent = ByShape[W] || ByShape[O];
            // With no launch to go by, the default model's second warp
            // stands for the others: a kernel launched in blocks of one
            // warp has none, but nothing shows that it is, and a
            // __syncwarp() is no fix where another warp may take part.
            if (auto Across = meetAcrossOnce(ByWarp, Interval, W, O, Pattern[W],
                                             Pattern[O])) {
              Found.AcrossWarps = true;
              std::tie(Found.AcrossWriter, Found.AcrossOther,
                       Found.AcrossElement) = *Across;
            }
            return Found;
          }
        }
        return std::nullopt;
      };
      for (size_t W = 0; W < Interval.size(); ++W) {
        const SharedAccess *Write = Interval[W];
        if (!Write->IsWrite)
          continue;
        // A pair's witness is the first in the order of the accesses; the
        // sites are visited in another, so this write's are sorted after.
        std::vector<std::pair<size_t, Race>> Found;
        for (size_t SiteId : SitesOfStorage[StorageOf[W]]) {
          const Site &Others = Sites[SiteId];
          const SharedAccess &First = *Interval[Others.Accesses.front()];
          if (llvm::none_of(
                  Others.Classes,
                  [&](unsigned C) { return ClassesMeet(Class[W], C); }) ||
              (Seen.count(SeenKey(*Write, First, true)) &&
               Seen.count(SeenKey(*Write, First, false))))
            continue;
          for (size_t O : Others.Accesses) {
            const SharedAccess *Other = Interval[O];
            // The filters are pure: the cheapest first.
            bool OtherFirst = Other->Sequence < Write->Sequence;
            if (!ClassesMeet(Class[W], Class[O]) ||
                storeTheSameConstant(*Write, *Other) ||
                Seen.count(SeenKey(*Write, *Other, OtherFirst)))
              continue;
            if (std::optional<Race> Race = Witness(W, O)) {
              Found.push_back({O, *Race});
              Seen.insert(SeenKey(*Write, *Other, OtherFirst));
            }
          }
        }
        llvm::sort(Found, [](const auto &A, const auto &B) {
          return A.first < B.first;
        });
        for (auto &[O, Race] : Found)
          Races.push_back(std::move(Race));
      }
    }
  }
  return Races;
}

std::vector<Race> SharedAccessAnalysis::racesAcrossWarps() {
  if (Exhausted)
    return {};
  // The walk's budget was not passed; the search that follows it is bounded
  // by what the walk recorded.
  llvm::SaveAndRestore Unbounded(Budget, size_t(0));
  std::vector<Race> Races;
  // One witness per pair of accesses and direction, as findRaces(): a fix
  // must order the next iteration's access as well as this one's.
  std::set<
      std::tuple<const Expr *, const Expr *, bool, const Stmt *, const Stmt *>>
      Seen;
  for (auto [Start, End] : blockIntervals()) {
    std::vector<const SharedAccess *> Interval;
    for (size_t I = Start; I < End; ++I)
      if (Events[I].Access)
        Interval.push_back(&*Events[I].Access);
    std::vector<unsigned> Pattern;
    std::vector<bool> ByShape;
    // The threads of one block, the one of index 0, so that a guard on the
    // grid's thread index (`if (idx == 0)`) names the threads it names
    // there; and not a thread that indexes outside an array's dimension, a
    // block larger than the kernel was written for.
    Touched ByWarp = touched(Interval, Pattern, ByShape, /*InBlockZero=*/true);
    if (ByWarp.size() < 2)
      continue;
    // Unrolled code repeats a statement's accesses thousands of times: the
    // pairs are tried per statement and array, and once a pair of
    // statements has its witness its repetitions are passed over.
    for (size_t W = 0; W < Interval.size(); ++W) {
      const SharedAccess &Write = *Interval[W];
      if (!Write.IsWrite)
        continue;
      for (size_t O = 0; O < Interval.size(); ++O) {
        const SharedAccess &Other = *Interval[O];
        auto Key = std::make_tuple(
            Write.Access, Other.Access, Other.Sequence < Write.Sequence,
            Write.KernelStatement, Other.KernelStatement);
        if (Seen.count(Key) || !sameStorage(*Write.Array, *Other.Array) ||
            storeTheSameConstant(Write, Other))
          continue;
        auto Across =
            meetAcrossOnce(ByWarp, Interval, W, O, Pattern[W], Pattern[O]);
        if (!Across)
          continue;
        Seen.insert(Key);
        Race Found{&Write, &Other, std::get<0>(*Across), std::get<1>(*Across),
                   std::get<2>(*Across)};
        Found.AcrossWarps = true;
        std::tie(Found.AcrossWriter, Found.AcrossOther, Found.AcrossElement) =
            *Across;
        Found.ModelThreads = Threads;
        Found.ModelShape = Block ? *Block : BlockSize{Threads, 1, 1};
        Found.ShapeDependent = ByShape[W] || ByShape[O];
        Races.push_back(Found);
      }
    }
  }
  return Races;
}

std::vector<Race>
SharedAccessAnalysis::racesIn(const FunctionDecl &Kernel,
                              std::optional<BlockSize> Launched,
                              int64_t Unlaunched) {
  Block = Launched;
  Threads = Unlaunched;
  if (Block)
    Threads = std::min<int64_t>(
        llvm::alignTo(Block->X * Block->Y * Block->Z, 32), MaxBlockThreads);
  Events.clear();
  EventsOf.clear();
  TouchedBy.clear();
  TouchedInBlockZeroBy.clear();
  IndexedOutside = false;
  Patterns.clear();
  Meetings.clear();
  Frames.clear();
  Evaluations = 0;
  Exhausted = false;
  RememberedGuards.clear();
  TermValues.clear();
  RememberGuards = false;
  std::vector<Guard> Guards;
  walk(Kernel.getBody(), newFrame(Frame()), Guards, 0);
  Intervals = intervals();
  if (Exhausted)
    return {};
  RememberGuards = true;
  std::vector<Race> Races = findRaces();
  if (Exhausted)
    return {};
  return Races;
}

namespace {
/// Which of the dimensions y and z of threadIdx and blockDim a kernel names,
/// in its body and the functions it calls. `dim3 t = threadIdx;` names all.
class DimensionsNamed : public RecursiveASTVisitor<DimensionsNamed> {
public:
  bool Rows = false, Layers = false;
  void visitFunction(const FunctionDecl *F, unsigned Depth) {
    const FunctionDecl *Definition = nullptr;
    if (!F || Depth > 8 || !F->hasBody(Definition) ||
        !Visited.insert(Definition).second)
      return;
    llvm::SaveAndRestore Deeper(CallDepth, Depth);
    TraverseStmt(Definition->getBody());
  }
  bool VisitCallExpr(CallExpr *Call) {
    visitFunction(Call->getDirectCallee(), CallDepth + 1);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    visitFunction(Construct->getConstructor(), CallDepth + 1);
    return true;
  }
  bool VisitMSPropertyRefExpr(MSPropertyRefExpr *Property) {
    if (const DeclRefExpr *Base = builtin(Property->getBaseExpr())) {
      Properties.insert(Base);
      llvm::StringRef Field = Property->getPropertyDecl()->getName();
      Rows |= Field == "y";
      Layers |= Field == "z";
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    // RecursiveASTVisitor visits a property before its base.
    if (builtin(Ref) && !Properties.count(Ref))
      Rows = Layers = true;
    return true;
  }

private:
  /// threadIdx or blockDim, if E names one (through the opaque value of a
  /// property's base).
  static const DeclRefExpr *builtin(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(E))
      E = Opaque->getSourceExpr()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    if (!Ref)
      return nullptr;
    llvm::StringRef Name = Ref->getDecl()->getName();
    return Name == "threadIdx" || Name == "blockDim" ? Ref : nullptr;
  }
  llvm::DenseSet<const FunctionDecl *> Visited;
  llvm::DenseSet<const DeclRefExpr *> Properties;
  unsigned CallDepth = 0;
};
} // namespace

/// Races seen in several shapes keep the first witness. A pair is one race
/// in each direction (the other access before the write, or after).
static void mergeRaces(std::vector<Race> &Races, std::vector<Race> Found) {
  auto Key = [](const Race &R) {
    return std::make_tuple(R.Write->Access, R.Other->Access,
                           R.Write->KernelStatement, R.Other->KernelStatement,
                           R.Other->Sequence < R.Write->Sequence);
  };
  // An unrolled kernel may have thousands of races: found by key, not by
  // a search through the others.
  std::map<decltype(Key(Races.front())), size_t> Index;
  for (size_t I = 0; I < Races.size(); ++I)
    Index.try_emplace(Key(Races[I]), I);
  for (Race &R : Found) {
    auto [At, New] = Index.try_emplace(Key(R), Races.size());
    if (New) {
      Races.push_back(R);
      continue;
    }
    Race *Kept = &Races[At->second];
    Kept->ShapeDependent |= R.ShapeDependent;
    if (R.AcrossWarps && !Kept->AcrossWarps) {
      bool ShapeDependent = Kept->ShapeDependent;
      *Kept = R;
      Kept->ShapeDependent = ShapeDependent;
    }
  }
}

std::vector<Race> BlockModels::model(const FunctionDecl &Kernel,
                                     std::optional<BlockSize> Block,
                                     bool FromLaunch, bool Largest) {
  SharedAccessAnalysis &Analysis = Models.emplace_back(Ctx);
  if (Largest)
    Analysis.limitWork(std::max<size_t>(LargestBudget - LargestSpent, 1));
  std::vector<Race> Found = Analysis.racesIn(
      Kernel, Block, Largest ? SharedAccessAnalysis::LargestBlock
                             : SharedAccessAnalysis::TwoWarps);
  if (Largest) {
    LargestSpent += Analysis.evaluations();
    LargestSkipped |= Analysis.exhausted();
  }
  Shapes.push_back(
      {Block ? *Block
             : BlockSize{Largest ? SharedAccessAnalysis::LargestBlock
                                 : SharedAccessAnalysis::TwoWarps,
                         1, 1},
       FromLaunch});
  for (Race &R : Found) {
    R.FromLaunch = FromLaunch;
    // A launch's size is exact.
    R.ShapeDependent = R.ShapeDependent && !FromLaunch;
  }
  return Found;
}

std::vector<Race>
BlockModels::racesIn(const FunctionDecl &Kernel,
                     const WarpAssumptions::Launches &Launches) {
  std::vector<Race> Races;
  for (const BlockSize &Size : Launches.Sizes)
    mergeRaces(Races, model(Kernel, Size, /*FromLaunch=*/true, false));
  if (Launches.OthersPossible)
    mergeRaces(Races, racesOfAnyShape(Kernel));
  // A pair that meets across warps in some shape, though only within a warp
  // in the one that found it, is a block-level race there too.
  for (Race &R : Races) {
    for (size_t M = 0; M < Models.size() && !R.AcrossWarps; ++M)
      if (auto Across = Models[M].meetAcrossWarps(
              R.Write->Access, R.Write->KernelStatement, R.Other->Access,
              R.Other->KernelStatement)) {
        R.AcrossWarps = true;
        std::tie(R.AcrossWriter, R.AcrossOther, R.AcrossElement) = *Across;
        R.ModelShape = Shapes[M].Size;
        R.ModelThreads = Shapes[M].Size.X * Shapes[M].Size.Y * Shapes[M].Size.Z;
        R.FromLaunch = Shapes[M].FromLaunch;
      }
  }
  return Races;
}

std::vector<Race> BlockModels::racesAcrossWarps() {
  std::vector<Race> Races;
  std::set<
      std::tuple<const Expr *, const Expr *, bool, const Stmt *, const Stmt *>>
      Kept;
  for (size_t M = 0; M < Models.size(); ++M) {
    // Rows of a width that no launch gave: an index written for rows of 16
    // (`16 * threadIdx.y + threadIdx.x`) names one element twice in rows of
    // 32, and a kernel that only names blockDim.y is given a second row it
    // may never have. Such a model tells warps apart; it shows no race.
    const BlockSize &Size = Shapes[M].Size;
    if (!Shapes[M].FromLaunch && (Size.Y > 1 || Size.Z > 1))
      continue;
    std::vector<Race> Found = Models[M].racesAcrossWarps();
    // Some thread of a model of a launch not in sight indexes outside an
    // array's dimension: the kernel was written for smaller blocks, whose
    // threads meet otherwise (`s[256 + 1]` and `if (tid == 0) s[256] = x;`,
    // which thread 256 of a 1024-thread block meets).
    if (!Shapes[M].FromLaunch && Models[M].indexedOutside())
      continue;
    for (Race &R : Found) {
      // A call that warpfix does not follow, given shared memory, touches
      // some element in some threads: unknown, which is no race.
      if (R.Write->AnyElement || R.Other->AnyElement)
        continue;
      if (!Kept.insert({R.Write->Access, R.Other->Access,
                        R.Other->Sequence < R.Write->Sequence,
                        R.Write->KernelStatement, R.Other->KernelStatement})
               .second)
        continue;
      R.ModelShape = Shapes[M].Size;
      R.ModelThreads = Shapes[M].Size.X * Shapes[M].Size.Y * Shapes[M].Size.Z;
      R.FromLaunch = Shapes[M].FromLaunch;
      R.ShapeDependent = R.ShapeDependent && !R.FromLaunch;
      Races.push_back(R);
    }
  }
  return Races;
}

std::vector<Race> BlockModels::racesOfAnyShape(const FunctionDecl &Kernel) {
  DimensionsNamed Named;
  Named.visitFunction(&Kernel, 0);
  using Shape = SharedAccessAnalysis;
  std::vector<Race> Races = model(Kernel, std::nullopt, false, false);
  // The models of the largest block cost about 16 times the first.
  bool Affordable = Models.back().evaluations() *
                        (Shape::LargestBlock / Shape::TwoWarps) <=
                    LargestBudget;
  LargestSkipped = !Affordable;
  // Where the kernel names threadIdx.y or z, blocks with rows of one warp
  // and of two: warps apart across rows, and within a row.
  RowsModelled = Named.Rows || Named.Layers;
  for (int64_t Row : {32, 64}) {
    if (Named.Rows)
      mergeRaces(Races, model(Kernel, BlockSize{Row, 2, 1}, false, false));
    if (Named.Layers)
      mergeRaces(Races, model(Kernel, BlockSize{Row, 1, 2}, false, false));
  }
  if (Affordable) {
    mergeRaces(Races, model(Kernel, std::nullopt, false, true));
    for (int64_t Row : {32, 64}) {
      if (Named.Rows)
        mergeRaces(Races, model(Kernel,
                                BlockSize{Row, Shape::LargestBlock / Row, 1},
                                false, true));
      if (Named.Layers)
        mergeRaces(Races, model(Kernel,
                                BlockSize{Row, 1, Shape::LargestBlock / Row},
                                false, true));
    }
  }
  return Races;
}

} // namespace warpfix
