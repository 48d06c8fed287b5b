#include "checks/analysis/LaneDependence.h"
#include "checks/analysis/Parents.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/LocalDefinitions.h"
#include "checks/analysis/Loops.h"
#include "checks/analysis/PureAccessors.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"

using namespace clang;

namespace warpfix {

/// The value of a variable not computed yet, at the start of the fixed-point
/// iteration over a function's variables (solveFunction): a mark on a uniform
/// value, so that the lattice's users, which never see one, stay as they are.
/// It joins as nothing, and an operation on it is not computed either, so a
/// loop counter `i = threadIdx.x; i += 32` settles as a thread index instead
/// of joining a made-up "uniform". Never the final value of anything.
static constexpr unsigned UnsolvedMark = 1u << 31;

static LaneValue unsolved() {
  return {LaneValue::Uniform, true, true, UnsolvedMark};
}

static bool isUnsolved(const LaneValue &V) { return V.Relies & UnsolvedMark; }

/// The same kind of value, no longer known to be a multiple of 32.
static LaneValue notMultipleOf32(LaneValue V) {
  V.MultipleOf32 = V.MultipleOf32IfWholeWarps = false;
  return V;
}

LaneValue LaneValue::join(const LaneValue &Other) const {
  if (isUnsolved(*this))
    return Other;
  if (isUnsolved(Other))
    return *this;
  LaneValue Result;
  Result.Relies = Relies | Other.Relies;
  if (What == LaneDependent || Other.What == LaneDependent ||
      (What == ThreadIndex) != (Other.What == ThreadIndex)) {
    Result.What = LaneDependent;
    return Result;
  }
  Result.What = std::max(What, Other.What);
  Result.MultipleOf32 = MultipleOf32 && Other.MultipleOf32;
  Result.MultipleOf32IfWholeWarps =
      MultipleOf32IfWholeWarps && Other.MultipleOf32IfWholeWarps;
  Result.NonNegative = NonNegative && Other.NonNegative;
  return Result;
}

/// A value given under control flow that depends on Control: a lane-dependent
/// branch makes it lane-dependent, a warp-uniform one at least warp-uniform.
static LaneValue underControl(LaneValue Value, LaneValue Control) {
  if (!Control.isWarpUniform())
    return LaneValue::laneDependent();
  if (isUnsolved(Value) || isUnsolved(Control))
    return unsolved();
  Value.Relies |= Control.Relies;
  if (Control.What == LaneValue::WarpUniform && Value.What == LaneValue::Uniform)
    Value.What = LaneValue::WarpUniform;
  return Value;
}

/// A thread index used as data (an address, an operand of anything but an
/// affine step) is simply lane-dependent.
static LaneValue asData(LaneValue V) {
  if (V.What == LaneValue::ThreadIndex)
    return LaneValue::laneDependent();
  return V;
}

bool LaneDependence::hasGoto(const FunctionDecl *F) {
  auto [It, Inserted] = Gotos.try_emplace(F);
  if (Inserted) {
    const FunctionDecl *Definition = nullptr;
    It->second = F->getBody(Definition) && bodyContainsGoto(Ctx, *Definition);
  }
  return It->second;
}

const std::vector<const Stmt *> &LaneDependence::exits(const Stmt *S) {
  auto [It, Inserted] = ExitCache.try_emplace(S);
  if (Inserted)
    It->second = exitsOf(Ctx, S, /*CountContinue=*/true, &Exiting);
  return It->second;
}

LaneValue LaneDependence::controlDependence(const Stmt *S) {
  return controlDependenceWithin(S, nullptr);
}

/// The statement in Root that holds S as a direct child, or null.
static const Stmt *parentWithin(const Stmt *S, const Stmt *Root) {
  llvm::SmallVector<const Stmt *, 32> Work = {Root};
  while (!Work.empty()) {
    const Stmt *Next = Work.pop_back_val();
    for (const Stmt *Child : Next->children()) {
      if (Child == S)
        return Next;
      if (Child)
        Work.push_back(Child);
    }
  }
  return nullptr;
}

LaneValue LaneDependence::controlDependenceWithin(const Stmt *S,
                                                  const Stmt *Outer) {
  LaneValue Result;
  DynTypedNode Child = DynTypedNode::create(*S);
  // An instantiation of a template shares the pattern's break and continue
  // statements, whose first parent is then the pattern's: climbing from it
  // would read the pattern's conditions, and never meet Outer.
  std::optional<DynTypedNode> SharedParent;
  if (Outer && isa<BreakStmt, ContinueStmt>(S) && !isWithin(Ctx, S, Outer))
    if (const Stmt *Parent = parentWithin(S, Outer))
      SharedParent = DynTypedNode::create(*Parent);
  // A lane that leaves a loop or switch early skips what the rest of it
  // does, so the conditions of those exits count too.
  auto JoinExits = [&](const Stmt *Body, const Stmt *Construct) {
    for (const Stmt *Exit : exits(Body))
      if (Exit != Construct && Exit != S)
        Result = Result.join(controlDependenceWithin(Exit, Construct));
  };
  while (true) {
    DynTypedNodeList Parents =
        SharedParent ? DynTypedNodeList(*SharedParent) : parentsOf(Ctx, Child);
    SharedParent.reset();
    if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
        Parents[0].get<LambdaExpr>())
      return Result;
    const Stmt *Parent = Parents[0].get<Stmt>();
    const Stmt *ChildStmt = Child.get<Stmt>();
    Child = Parents[0];
    if (Parent && Parent == Outer)
      return Result;
    if (!Parent || !ChildStmt)
      continue;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (ChildStmt != If->getCond() && ChildStmt != If->getInit())
        Result = Result.join(asData(of(If->getCond())));
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(Parent)) {
      if (ChildStmt != Switch->getCond() && ChildStmt != Switch->getInit()) {
        Result = Result.join(asData(of(Switch->getCond())));
        JoinExits(Switch->getBody(), Switch);
      }
    } else if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(Parent)) {
      if (ChildStmt != Cond->getCond())
        Result = Result.join(asData(of(Cond->getCond())));
    } else if (const auto *Bin = dyn_cast<BinaryOperator>(Parent)) {
      if (Bin->isLogicalOp() && ChildStmt == Bin->getRHS())
        Result = Result.join(asData(of(Bin->getLHS())));
    } else if (isLoop(Parent)) {
      if (const auto *For = dyn_cast<ForStmt>(Parent);
          For && ChildStmt == For->getInit())
        continue;
      if (const Expr *Cond = loopCondition(Parent))
        Result = Result.join(asData(of(Cond)));
      JoinExits(loopBody(Parent), Parent);
    }
  }
}

/// The statement a local variable is declared in: lanes outside it never see
/// the variable, so conditions above it do not make its value lane-dependent.
static const Stmt *scopeOf(ASTContext &Ctx, const VarDecl *Var) {
  if (isa<ParmVarDecl>(Var))
    return nullptr;
  DynTypedNodeList Parents = parentsOf(Ctx, *Var);
  const Stmt *Decl = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (!Decl)
    return nullptr;
  DynTypedNodeList Up = parentsOf(Ctx, *Decl);
  return Up.empty() ? nullptr : Up[0].get<Stmt>();
}

const LaneDependence::FunctionLocals &
LaneDependence::localsOf(const FunctionDecl *F) {
  std::unique_ptr<FunctionLocals> &Entry = LocalsCache[F];
  if (!Entry) {
    Entry = std::make_unique<FunctionLocals>();
    Entry->Locals = *localDefinitionsOf(Ctx, F->getBody());
    for (const Definition &Def : Entry->Locals.Definitions)
      Entry->Defined.insert(Def.Var);
  }
  return *Entry;
}

void LaneDependence::solveFunction(const FunctionDecl *F) {
  if (Solved.count(F) || !F->getBody())
    return;
  Solved[F] = true;
  const FunctionLocals &Collected = localsOf(F);
  const LocalDefinitions &Locals = Collected.Locals;
  const llvm::SetVector<const VarDecl *> &Defined = Collected.Defined;
  for (const ParmVarDecl *Param : F->parameters())
    Variables[Param] = ofParameter(Param);
  for (const VarDecl *Var : Locals.Escaped)
    Variables[Var] = LaneValue::laneDependent();
  // A goto can skip or repeat a definition for some lanes only, in ways the
  // control dependence below does not see.
  if (hasGoto(F)) {
    for (const VarDecl *Var : Defined)
      Variables[Var] = LaneValue::laneDependent();
    return;
  }
  // Optimistic start: a variable not computed yet adds nothing to a join.
  for (const VarDecl *Var : Defined)
    if (!isa<ParmVarDecl>(Var) && !Locals.Escaped.contains(Var))
      Variables[Var] = unsolved();
  // Each round recomputes every variable from its definitions, reading the
  // previous round's values, until nothing changes.
  for (unsigned Round = 0; Round < 16; ++Round) {
    llvm::DenseMap<const VarDecl *, LaneValue> Next;
    for (const Definition &Def : Locals.Definitions) {
      if (Locals.Escaped.contains(Def.Var))
        continue;
      // x++ and x-- keep the kind of value x has, one away from a multiple
      // of 32.
      LaneValue Value = underControl(
          Def.Value ? of(Def.Value) : notMultipleOf32(Variables[Def.Var]),
          controlDependenceWithin(Def.Site, scopeOf(Ctx, Def.Var)));
      if (isa<ParmVarDecl>(Def.Var))
        Value = Value.join(ofParameter(cast<ParmVarDecl>(Def.Var)));
      auto [It, Inserted] = Next.try_emplace(Def.Var, Value);
      if (!Inserted)
        It->second = It->second.join(Value);
    }
    bool Changed = false;
    for (auto &[Var, Value] : Next) {
      if (!(Variables[Var] == Value)) {
        Variables[Var] = Value;
        Changed = true;
      }
    }
    if (Changed)
      continue;
    // Settled. A variable still unsolved is fed only by itself, read before
    // anything gave it a value: nothing to rely on, and neither on what was
    // computed from it.
    bool Unfed = false;
    for (const VarDecl *Var : Defined) {
      auto It = Variables.find(Var);
      if (It != Variables.end() && isUnsolved(It->second)) {
        It->second = LaneValue::laneDependent();
        Unfed = true;
      }
    }
    if (!Unfed)
      return;
  }
  // No fixed point in sight: give up on the variables of this function.
  for (const VarDecl *Var : Defined)
    Variables[Var] = LaneValue::laneDependent();
}

LaneValue LaneDependence::ofParameter(const ParmVarDecl *Param) {
  const auto *F = dyn_cast<FunctionDecl>(Param->getDeclContext());
  if (!F)
    return LaneValue::laneDependent();
  if (F->hasAttr<CUDAGlobalAttr>())
    return LaneValue::uniform();
  auto Known = Parameters.find(Param);
  if (Known != Parameters.end())
    return Known->second;
  const auto &Sites = Calls.of(F);
  // A static member function takes its arguments as a free function does;
  // other methods also take their object, and a virtual one may be called
  // through a base.
  const auto *Method = dyn_cast<CXXMethodDecl>(F);
  if (Sites.empty() || Calls.callersUnseen(F) ||
      ParametersInProgress.contains(F) || (Method && !Method->isStatic()))
    return LaneValue::laneDependent();
  ParametersInProgress.insert(F);
  std::optional<LaneValue> Result;
  for (const Expr *Call : Sites) {
    const Expr *Argument = CallSites::argumentFor(Call, Param);
    if (!Argument) {
      Result = LaneValue::laneDependent();
      break;
    }
    LaneValue Here = underControl(of(Argument), controlDependence(Call));
    Result = Result ? Result->join(Here) : Here;
  }
  ParametersInProgress.erase(F);
  // A caller's variable read while that caller is being solved (recursion)
  // may not be computed yet: nothing to keep.
  if (isUnsolved(*Result))
    Result = LaneValue::laneDependent();
  Parameters[Param] = *Result;
  return *Result;
}

bool LaneDependence::keepsItsValue(const VarDecl *Var) {
  const auto *F = dyn_cast<FunctionDecl>(Var->getDeclContext());
  if (!F || !F->getBody())
    return false;
  const FunctionLocals &Locals = localsOf(F);
  return !Locals.Defined.contains(Var) && !Locals.Locals.Escaped.contains(Var);
}

LaneValue LaneDependence::ofVariable(const VarDecl *Var) {
  if (Var->hasAttr<CUDASharedAttr>() || Var->hasGlobalStorage())
    // The address of a shared array, a __device__ or __constant__ variable:
    // one object for everyone. What is read from it is as uniform as where
    // it is read (ofLoad).
    return LaneValue::uniform();
  const FunctionDecl *F = dyn_cast<FunctionDecl>(Var->getDeclContext());
  if (!F)
    return LaneValue::laneDependent();
  // Read for one construction (ofConstruction), a constructor's parameter
  // stands for an argument that the construction joins in itself. Nothing
  // of this reading is kept: the constructor's own variables are solved
  // when asked about from outside.
  if (ConstructorsBeingRead.contains(F))
    return isa<ParmVarDecl>(Var) ? LaneValue::uniform()
                                 : LaneValue::laneDependent();
  if (!Solved.count(F)) {
    // A kernel's parameter that the kernel never assigns, and whose address
    // never escapes, keeps what the launch passed: solveFunction would give
    // it ofParameter's value, which for a kernel reads nothing else. So the
    // kernel's other variables need not be solved for it (`if (i < n)`).
    if (const auto *Param = dyn_cast<ParmVarDecl>(Var);
        Param && F->hasAttr<CUDAGlobalAttr>() && keepsItsValue(Param))
      return ofParameter(Param);
    if (InProgress.contains(F))
      return LaneValue::laneDependent();
    InProgress.insert(F);
    solveFunction(F);
    InProgress.erase(F);
  }
  auto It = Variables.find(Var);
  if (It != Variables.end())
    return It->second;
  // Declared without a value and never assigned: nothing to rely on.
  return LaneValue::laneDependent();
}

/// Whether a for loop's init is `Var = e`.
static const Expr *assignedByInit(const ForStmt *For, const VarDecl *Var) {
  const auto *Assign = dyn_cast_or_null<BinaryOperator>(For->getInit());
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return nullptr;
  const auto *Target = dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParens());
  return Target && Target->getDecl() == Var ? Assign->getRHS() : nullptr;
}

/// The innermost for loop whose init `Var = e` gives Var the value that Ref
/// reads: Ref lies in its condition, increment or body, and no case label of
/// a switch around the loop lets lanes in past the init (a goto is ruled out
/// by the caller). Null where there is none, or Ref is in a lambda.
static const ForStmt *countingLoopOf(ASTContext &Ctx, const DeclRefExpr *Ref,
                                     const VarDecl *Var) {
  DynTypedNode Child = DynTypedNode::create(*Ref);
  const ForStmt *Loop = nullptr;
  while (!Loop) {
    DynTypedNodeList Parents = parentsOf(Ctx, Child);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
        Parents[0].get<LambdaExpr>() || Parents[0].get<BlockExpr>())
      return nullptr;
    if (const auto *For = Parents[0].get<ForStmt>();
        For && Child.get<Stmt>() != For->getInit() && assignedByInit(For, Var))
      Loop = For;
    Child = Parents[0];
  }
  for (DynTypedNodeList Up = parentsOf(Ctx, *Loop);
       !Up.empty() && !Up[0].get<FunctionDecl>(); Up = parentsOf(Ctx, Up[0]))
    if (const auto *Switch = Up[0].get<SwitchStmt>())
      for (const SwitchCase *Case = Switch->getSwitchCaseList(); Case;
           Case = Case->getNextSwitchCase())
        if (isWithin(Ctx, Case, Loop))
          return nullptr;
  return Loop;
}

/// A for loop's init `i = e` gives i a value that every lane inside the loop
/// shares, whatever i held before: there, only the init and the loop's own
/// definitions of i reach a use. A counter that earlier code assigned under
/// a lane-dependent branch (`int i; ... for (i = 0; i < 4; i++)`) is then
/// uniform in the loop, where the whole function's join says otherwise.
std::optional<LaneValue> LaneDependence::ofLoopCounter(const DeclRefExpr *Ref,
                                                       const VarDecl *Var) {
  if (!Var->hasLocalStorage())
    return std::nullopt;
  const auto *F = dyn_cast<FunctionDecl>(Var->getDeclContext());
  if (!F || !F->getBody() || hasGoto(F) ||
      localsOf(F).Locals.Escaped.contains(Var))
    return std::nullopt;
  // Most variables are no loop's counter: a look at their definitions spares
  // the climb from every use.
  auto [Known, Inserted] = AssignedByForInit.try_emplace(Var, false);
  if (Inserted)
    for (const Definition &Def : localsOf(F).Locals.Definitions) {
      if (Def.Var != Var)
        continue;
      DynTypedNodeList Up = parentsOf(Ctx, *Def.Site);
      const auto *For = Up.empty() ? nullptr : Up[0].get<ForStmt>();
      if (For && For->getInit() == Def.Site) {
        Known->second = true;
        break;
      }
    }
  if (!Known->second)
    return std::nullopt;
  const ForStmt *Loop = countingLoopOf(Ctx, Ref, Var);
  if (!Loop)
    return std::nullopt;
  CounterKey Key = {Var, Loop};
  if (auto It = Counters.find(Key); It != Counters.end())
    return It->second;
  // Asked again while being solved: the approximation so far.
  if (auto It = CountersInProgress.find(Key); It != CountersInProgress.end())
    return It->second;
  std::vector<const Definition *> Inside;
  for (const Definition &Def : localsOf(F).Locals.Definitions)
    if (Def.Var == Var && Def.Site != Loop->getInit() &&
        isWithin(Ctx, Def.Site, Loop))
      Inside.push_back(&Def);
  // In progress before the exits' conditions are asked: they may read the
  // counter (`if (i == lane) break;`).
  LaneValue Value = unsolved();
  CountersInProgress[Key] = Value;
  // A lane that leaves an iteration early skips the rest of it.
  LaneValue Exits;
  for (const Stmt *Exit : exits(Loop->getBody()))
    if (Exit != Loop)
      Exits = Exits.join(controlDependenceWithin(Exit, Loop));
  const Expr *Init = assignedByInit(Loop, Var);
  for (unsigned Round = 0;; ++Round) {
    LaneValue Next = of(Init);
    for (const Definition *Def : Inside)
      Next = Next.join(underControl(
          Def->Value ? of(Def->Value) : notMultipleOf32(Value),
          controlDependenceWithin(Def->Site, Loop).join(Exits)));
    if (Next == Value)
      break;
    Value = Next;
    CountersInProgress[Key] = Value;
    if (Round == 16) {
      Value = LaneValue::laneDependent();
      break;
    }
  }
  CountersInProgress.erase(Key);
  if (InProgress.empty() && ParametersInProgress.empty() &&
      CountersInProgress.empty()) {
    if (isUnsolved(Value))
      Value = LaneValue::laneDependent();
    Counters[Key] = Value;
  }
  return Value;
}

LaneValue LaneDependence::ofLoad(const Expr *Lvalue) {
  // A volatile object may change between two lanes' reads: that is what
  // volatile says (and how spin flags and the legacy warp-synchronous
  // reductions use it).
  if (Lvalue->getType().isVolatileQualified())
    return LaneValue::laneDependent();
  // Otherwise the lanes that read one location in one barrier interval read
  // the same value, unless another thread writes it meanwhile: a data race,
  // which warp-missing-syncwarp reports. A thread's own objects are followed
  // through their definitions (ofVariable), and escape when their address
  // does.
  return of(Lvalue);
}

LaneValue LaneDependence::ofBuiltinVariable(const Expr *E, bool &Matched) {
  Matched = false;
  const auto *Property = dyn_cast<MSPropertyRefExpr>(E->IgnoreParens());
  if (!Property)
    return {};
  const Expr *Base = Property->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(Base))
    Base = Opaque->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  if (!Ref)
    return {};
  llvm::StringRef Var = Ref->getDecl()->getName();
  llvm::StringRef Field = Property->getPropertyDecl()->getName();
  Matched = true;
  if (Var == "threadIdx")
    // Only x is an affine thread index. Warps are cut from the linear index
    // x + y * blockDim.x + ..., so y and z split a warp unless blockDim.x is
    // a multiple of 32 (CUDA C++ Programming Guide, SIMT Architecture).
    return Field == "x" ? LaneValue{LaneValue::ThreadIndex, true, true,
                                    NoAssumption, true}
                        : LaneValue{LaneValue::WarpUniform, false, false,
                                    WholeWarpRows, true};
  if (Var == "blockDim" && Field == "x")
    return LaneValue{LaneValue::Uniform, false, true, NoAssumption, true};
  if (Var == "blockIdx" || Var == "blockDim" || Var == "gridDim")
    return LaneValue{LaneValue::Uniform, false, false, NoAssumption, true};
  Matched = false;
  return {};
}

static bool calleeNamed(const FunctionDecl *F,
                        std::initializer_list<llvm::StringRef> Names) {
  if (!F->getIdentifier())
    return false;
  return llvm::is_contained(Names, F->getName());
}

/// The join of the conditions under which a lane that enters S's function
/// may not reach S: the branches and loops around it, and the exits before
/// it.
static LaneValue reachCondition(LaneDependence &Lanes, ASTContext &Ctx,
                                const Stmt *S) {
  const FunctionDecl *F = enclosingFunction(Ctx, S);
  if (!F || !F->getBody() || Lanes.hasGoto(F))
    return LaneValue::laneDependent();
  LaneValue Result = Lanes.controlDependence(S);
  DynTypedNode Child = DynTypedNode::create(*S);
  while (true) {
    DynTypedNodeList Parents = parentsOf(Ctx, Child);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
        Parents[0].get<LambdaExpr>())
      return Result;
    const auto *Block = Parents[0].get<CompoundStmt>();
    const Stmt *ChildStmt = Child.get<Stmt>();
    Child = Parents[0];
    if (!Block || !ChildStmt)
      continue;
    for (const Stmt *Earlier : Block->body()) {
      if (Earlier == ChildStmt)
        break;
      for (const Stmt *Exit : Lanes.exits(Earlier)) {
        if (isa<GotoStmt, IndirectGotoStmt, AsmStmt, CallExpr>(Exit))
          return LaneValue::laneDependent();
        Result = Result.join(Lanes.controlDependenceWithin(Exit, Block));
      }
    }
  }
}

/// __shfl(x, k) and __shfl_sync(m, x, k) over the whole warp (width 32),
/// with k the same for every lane: each lane that takes part gets lane k's x,
/// the same value, provided lane k takes part too. That is certain where
/// every lane that enters the function makes the call; anywhere else the
/// source lane may have left, and what the others read is undefined. The
/// other shuffles (up, down, xor) read a different lane for each lane.
static LaneValue ofBroadcast(LaneDependence &Lanes, ASTContext &Ctx,
                             const CallExpr *Call, unsigned SourceLane) {
  if (Call->getNumArgs() <= SourceLane)
    return LaneValue::laneDependent();
  if (Call->getNumArgs() > SourceLane + 1) {
    const Expr *Width = Call->getArg(SourceLane + 1);
    Expr::EvalResult Result;
    if (!isa<CXXDefaultArgExpr>(Width) &&
        (Width->isValueDependent() || !Width->EvaluateAsInt(Result, Ctx) ||
         Result.Val.getInt() != 32))
      return LaneValue::laneDependent();
  }
  const Expr *SourceExpr = Call->getArg(SourceLane);
  LaneValue Source = asData(Lanes.of(SourceExpr));
  if (isUnsolved(Source))
    return unsolved();
  if (!Source.isWarpUniform())
    return LaneValue::laneDependent();
  LaneValue Reach = reachCondition(Lanes, Ctx, Call);
  if (isUnsolved(Reach))
    return unsolved();
  if (!Reach.isWarpUniform())
    return LaneValue::laneDependent();
  unsigned Relies = Source.Relies | Reach.Relies;
  // Lane 0 is in every warp; another lane only in a warp that is whole.
  Expr::EvalResult Zero;
  if (SourceExpr->isValueDependent() ||
      !SourceExpr->EvaluateAsInt(Zero, Ctx) || Zero.Val.getInt().getExtValue() % 32 != 0)
    Relies |= WholeWarpBlocks;
  return {LaneValue::WarpUniform, false, false, Relies};
}

LaneValue LaneDependence::ofCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  // An accessor computes its result from what it reads, its object and its
  // arguments, as the same expression written in place would.
  if (isReadOnlyAccessorCall(Ctx, Call)) {
    LaneValue Result;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      Result = asData(of(Member->getImplicitObjectArgument()));
    for (const Expr *Arg : Call->arguments())
      Result = Result.join(asData(of(Arg)));
    return notMultipleOf32(Result);
  }
  if (!Callee || !Callee->getIdentifier() || isa<CXXMemberCallExpr>(Call))
    return LaneValue::laneDependent();
  llvm::StringRef Name = Callee->getName();
  if (Name == "__shfl" || Name == "__shfl_sync") {
    // Its own value decides whether it is reached again: not followed.
    if (!BroadcastsInProgress.insert(Call).second)
      return LaneValue::laneDependent();
    LaneValue Result = ofBroadcast(*this, Ctx, Call, Name == "__shfl" ? 1 : 2);
    BroadcastsInProgress.erase(Call);
    return Result;
  }
  // A block's barrier gives every thread of the block the same result.
  if (Name.starts_with("__syncthreads_"))
    return LaneValue::uniform();
  // Collective results that every participating lane receives alike.
  if (calleeNamed(Callee, {"__ballot", "__any", "__all", "ballot", "any", "all",
                           "__ballot_sync", "__any_sync", "__all_sync",
                           "__uni_sync"}) ||
      Name.starts_with("__reduce_"))
    return LaneValue{LaneValue::WarpUniform, false, false, NoAssumption};
  // Atomics in every spelling the toolkit has (atomicAdd, __iAtomicAdd,
  // __uAtomicInc, __fAtomicAdd, __nv_atomic_*).
  if (Name.contains("shfl") || Name.contains_insensitive("atomic") ||
      Name.contains("activemask") || Name.starts_with("__match") ||
      Name.starts_with("clock") || Name.starts_with("__lane"))
    return LaneValue::laneDependent();
  // Toolkit functions of their arguments (__popc, min, __ffs, math). Not one
  // that returns a pointer: malloc gives each thread its own memory.
  const SourceManager &SM = Ctx.getSourceManager();
  if (Call->getNumArgs() > 0 && SM.isInSystemHeader(Callee->getLocation()) &&
      !Call->getType()->isPointerType()) {
    LaneValue Result;
    for (const Expr *Arg : Call->arguments())
      Result = Result.join(asData(of(Arg)));
    Result.MultipleOf32 = Result.MultipleOf32IfWholeWarps = false;
    Result.NonNegative = false;
    return Result;
  }
  return LaneValue::laneDependent();
}

/// Whether R, the right operand of a shift, is a constant of at least 5: the
/// shifted value is then a multiple of 32.
static bool shiftsByFiveOrMore(const Expr *R, ASTContext &Ctx) {
  if (R->isValueDependent())
    return false;
  Expr::EvalResult Result;
  if (!R->EvaluateAsInt(Result, Ctx))
    return false;
  int64_t V = Result.Val.getInt().getExtValue();
  return V >= 5 && V < 64;
}

/// L op R, for a binary operator or a compound assignment's arithmetic.
static LaneValue ofArithmetic(LaneDependence &Lanes, ASTContext &Ctx,
                              BinaryOperatorKind Op, const Expr *LHS,
                              const Expr *RHS) {
  LaneValue L = Lanes.of(LHS), R = Lanes.of(RHS);
  if (isUnsolved(L) || isUnsolved(R))
    return unsolved();
  auto Constant = [&](const Expr *E) -> std::optional<llvm::APSInt> {
    if (E->isValueDependent())
      return std::nullopt;
    Expr::EvalResult Result;
    if (E->EvaluateAsInt(Result, Ctx))
      return Result.Val.getInt();
    return std::nullopt;
  };
  using K = LaneValue;
  unsigned Relies = L.Relies | R.Relies;
  bool LIndex = L.What == K::ThreadIndex, RIndex = R.What == K::ThreadIndex;
  const BinaryOperatorKind Opcode = Op;
  // The conclusion that a split falls on warp boundaries: always on a linear
  // thread index, and on whole-warp blocks when a multiple of 32 came from
  // blockDim.x.
  auto WarpUniform = [&](bool Proven) {
    return LaneValue{K::WarpUniform, false, false,
                     Relies | LinearThreadIndex |
                         (Proven ? NoAssumption : WholeWarpBlocks)};
  };
  switch (Opcode) {
  case BO_Add:
  case BO_Sub: {
    const LaneValue *Index = LIndex ? &L : (RIndex && Opcode == BO_Add
                                                ? &R
                                                : nullptr);
    const LaneValue *Offset = Index == &L ? &R : &L;
    if (Index && Offset->What == K::Uniform)
      return {K::ThreadIndex, Index->MultipleOf32 && Offset->MultipleOf32,
              Index->MultipleOf32IfWholeWarps &&
                  Offset->MultipleOf32IfWholeWarps,
              Relies,
              Opcode == BO_Add && Index->NonNegative && Offset->NonNegative};
    break;
  }
  case BO_Mul:
    if (L.What == K::Uniform && R.What == K::Uniform)
      return {K::Uniform, L.MultipleOf32 || R.MultipleOf32,
              L.MultipleOf32IfWholeWarps || R.MultipleOf32IfWholeWarps,
              Relies, L.NonNegative && R.NonNegative};
    break;
  case BO_Div:
  case BO_Shr:
    // A shift rounds down, a signed division toward zero.
    if (LIndex && L.MultipleOf32IfWholeWarps &&
        (Opcode == BO_Shr || L.NonNegative ||
         LHS->getType()->isUnsignedIntegerType())) {
      // threadIdx.x / 32 and threadIdx.x >> 5 are the warp id.
      if (auto C = Constant(RHS)) {
        int64_t V = C->getExtValue();
        bool WholeWarp = Opcode == BO_Div ? (V > 0 && V % 32 == 0)
                                                  : (V >= 5 && V < 32);
        if (WholeWarp)
          return WarpUniform(L.MultipleOf32);
      }
    }
    break;
  case BO_LT:
  case BO_GE:
  case BO_LE:
  case BO_GT: {
    // threadIdx.x < 32*k splits the block at a warp boundary.
    const LaneValue *Index = LIndex ? &L : (RIndex ? &R : nullptr);
    const LaneValue *Bound = LIndex ? &R : (RIndex ? &L : nullptr);
    const Expr *BoundExpr = LIndex ? RHS : LHS;
    if (!Index || !Index->MultipleOf32IfWholeWarps || Bound->What != K::Uniform)
      break;
    if (RIndex) // K < tid is tid > K
      Op = Op == BO_LT ? BO_GT : Op == BO_GT ? BO_LT : Op == BO_LE ? BO_GE : BO_LE;
    if (auto C = Constant(BoundExpr)) {
      int64_t V = C->getExtValue();
      bool Boundary = (Op == BO_LT || Op == BO_GE) ? V % 32 == 0
                                                   : (V + 1) % 32 == 0;
      if (Boundary)
        return WarpUniform(Index->MultipleOf32);
    } else if (Bound->MultipleOf32IfWholeWarps && (Op == BO_LT || Op == BO_GE)) {
      return WarpUniform(Index->MultipleOf32 && Bound->MultipleOf32);
    }
    break;
  }
  default:
    break;
  }
  LaneValue Result = asData(L).join(asData(R));
  if (Result.What == K::LaneDependent)
    return Result;
  // Which results stay multiples of 32: sums and products of multiples (the
  // join keeps a fact only where both operands have it), `x & ~31`, and
  // `x << 5`.
  // Which results stay non-negative: the join keeps it where both operands
  // are, which holds for sums, products, quotients and bitwise results, and
  // not for differences and shifts to the left.
  if (Opcode == BO_Sub || Opcode == BO_Shl)
    Result.NonNegative = false;
  switch (Opcode) {
  case BO_Add:
  case BO_Sub:
  case BO_Mul:
    break;
  case BO_And:
    Result.MultipleOf32 = L.MultipleOf32 || R.MultipleOf32;
    Result.MultipleOf32IfWholeWarps =
        L.MultipleOf32IfWholeWarps || R.MultipleOf32IfWholeWarps;
    break;
  case BO_Shl: {
    bool ByFive = shiftsByFiveOrMore(RHS, Ctx);
    Result.MultipleOf32 = L.MultipleOf32 || ByFive;
    Result.MultipleOf32IfWholeWarps = L.MultipleOf32IfWholeWarps || ByFive;
    break;
  }
  default:
    Result = notMultipleOf32(Result);
  }
  return Result;
}

LaneValue LaneDependence::ofBinary(const BinaryOperator *B) {
  if (B->getOpcode() == BO_Assign || B->getOpcode() == BO_Comma)
    return of(B->getRHS());
  // x op= v gives x the value of x op v: `i += blockDim.x` steps a thread
  // index by a multiple of 32 (in whole-warp blocks).
  if (B->isCompoundAssignmentOp())
    return ofArithmetic(
        *this, Ctx, BinaryOperator::getOpForCompoundAssignment(B->getOpcode()),
        B->getLHS(), B->getRHS());
  return ofArithmetic(*this, Ctx, B->getOpcode(), B->getLHS(), B->getRHS());
}

/// In a template as written, `blockSize >= 64` is no constant yet, but it
/// is the same for every thread of every instantiation: an expression of
/// non-type template parameters, enumerators, literals and sizeof only.
bool LaneDependence::ofTemplateConstant(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<IntegerLiteral, CXXBoolLiteralExpr, CharacterLiteral,
          FloatingLiteral, UnaryExprOrTypeTraitExpr, SizeOfPackExpr>(E))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return isa<NonTypeTemplateParmDecl, EnumConstantDecl>(Ref->getDecl());
  if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return ofTemplateConstant(Subst->getReplacement());
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return Cast->getCastKind() != CK_LValueToRValue &&
           ofTemplateConstant(Cast->getSubExpr());
  if (const auto *Cast = dyn_cast<CXXUnresolvedConstructExpr>(E))
    return Cast->getNumArgs() == 1 && ofTemplateConstant(Cast->getArg(0));
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return !U->isIncrementDecrementOp() && U->getOpcode() != UO_Deref &&
           U->getOpcode() != UO_AddrOf && ofTemplateConstant(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
           ofTemplateConstant(B->getLHS()) && ofTemplateConstant(B->getRHS());
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return ofTemplateConstant(C->getCond()) &&
           ofTemplateConstant(C->getTrueExpr()) &&
           ofTemplateConstant(C->getFalseExpr());
  return false;
}

/// False where clang's constant folder is sure to fail, which it takes a
/// fresh evaluation context to find out: every operand of every expression
/// asked about would pay it. A parameter or a local variable that is
/// neither constexpr nor const has no value outside a run, and nor has a
/// special register such as threadIdx.x.
///
/// The same holds of an arithmetic, bitwise or comparison operator, a sign,
/// or a conversion between numbers, once an operand is known not to fold:
/// the folder needs the values of both operands of such an operator. So
/// `blockIdx.x * blockDim.x + threadIdx.x` is known not to fold without
/// asking at each of its levels. Not so for `&&`, `||`, `?:` and `,`, whose
/// folding may skip an operand, nor for a conversion that takes an address
/// (an array's decay), which folds without reading the variable.
static bool mayFold(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    CastKind Kind = Cast->getCastKind();
    if (!isValueConversion(Kind) && Kind != CK_PointerToBoolean)
      return true;
    return mayFold(Cast->getSubExpr());
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isMultiplicativeOp() || B->isAdditiveOp() || B->isShiftOp() ||
        B->isBitwiseOp() || B->isComparisonOp())
      return mayFold(B->getLHS()) && mayFold(B->getRHS());
    return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    switch (U->getOpcode()) {
    case UO_Minus:
    case UO_Plus:
    case UO_Not:
    case UO_LNot:
      return mayFold(U->getSubExpr());
    default:
      return true;
    }
  }
  if (isa<PseudoObjectExpr>(E))
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var)
    return true;
  if (isa<ParmVarDecl>(Var))
    return false;
  QualType Type = Var->getType();
  return !Var->hasLocalStorage() || Var->isConstexpr() ||
         Type.isConstQualified() || Type->isReferenceType();
}

/// The object a construction makes: its arguments, and whatever else the
/// constructor stores. A constructor that is not trivial may store a
/// lane-dependent value however it is called (a default member initializer
/// `int id = threadIdx.x & 31;`, a body that stores threadIdx), so its
/// initializers and body are read too: the implicit ones, base and member
/// constructors included. A body that does anything but assign fields, or
/// one that is not visible, leaves the object unknown.
LaneValue LaneDependence::ofConstruction(const CXXConstructExpr *Construct) {
  LaneValue Result;
  for (const Expr *Arg : Construct->arguments())
    Result = Result.join(asData(of(Arg)));
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  if (!Ctor || Ctor->isTrivial())
    return Result;
  const FunctionDecl *Definition = nullptr;
  if (!Ctor->hasBody(Definition) || Definition->isInvalidDecl() ||
      ConstructorsBeingRead.contains(Definition))
    return LaneValue::laneDependent();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Definition->getBody());
  if (!Body)
    return LaneValue::laneDependent(); // a function-try-block
  ConstructorsBeingRead.insert(Definition);
  for (const CXXCtorInitializer *Init :
       cast<CXXConstructorDecl>(Definition)->inits())
    Result = Result.join(asData(of(Init->getInit())));
  for (const Stmt *S : Body->body()) {
    if (const auto *Full = dyn_cast<FullExpr>(S))
      S = Full->getSubExpr();
    const auto *Assign = dyn_cast<BinaryOperator>(S);
    const auto *Field =
        Assign && Assign->isAssignmentOp()
            ? dyn_cast<MemberExpr>(Assign->getLHS()->IgnoreParenImpCasts())
            : nullptr;
    if (!Field || !isa<FieldDecl>(Field->getMemberDecl()) ||
        !isa<CXXThisExpr>(Field->getBase()->IgnoreParenImpCasts())) {
      Result = LaneValue::laneDependent();
      break;
    }
    Result = Result.join(asData(of(Assign->getRHS())));
  }
  ConstructorsBeingRead.erase(Definition);
  return Result;
}

LaneValue LaneDependence::of(const Expr *E) {
  // Asked while no solve is under way, the answer is final: every variable
  // and parameter it reads is solved, or memoized, on the way. The calls
  // under one branch each ask for its condition.
  const Expr *Asked = E;
  bool Final = InProgress.empty() && ParametersInProgress.empty() &&
               CountersInProgress.empty() && ConstructorsBeingRead.empty();
  if (Final)
    if (auto It = Settled.find(Asked); It != Settled.end())
      return It->second;
  LaneValue Value = [&]() -> LaneValue {
    if (!E)
      return LaneValue::laneDependent();
    E = E->IgnoreParens();
    if (E->containsErrors())
      return LaneValue::laneDependent();
    // Before the template-constant test, which would take a literal 32 for a
    // uniform value with nothing more known of it.
    if (!E->isValueDependent() && !E->isTypeDependent() &&
        E->getType()->isIntegralOrEnumerationType() && mayFold(E)) {
      Expr::EvalResult Result;
      if (E->EvaluateAsInt(Result, Ctx) && !E->HasSideEffects(Ctx)) {
        LaneValue Constant =
            LaneValue::uniform(Result.Val.getInt().getExtValue() % 32 == 0);
        Constant.NonNegative = !Result.Val.getInt().isNegative();
        return Constant;
      }
    }
    if (ofTemplateConstant(E))
      return LaneValue::uniform();
    // A value that depends on a template parameter, in a template as written,
    // is analysed by its parts (`i < N`); one whose type is not known yet is
    // not understood.
    if (E->isTypeDependent())
      return LaneValue::laneDependent();
    if (isa<FloatingLiteral, CXXBoolLiteralExpr, CXXNullPtrLiteralExpr,
            StringLiteral, UnaryExprOrTypeTraitExpr, CharacterLiteral,
            IntegerLiteral>(E))
      return LaneValue::uniform();
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        return ofLoad(Cast->getSubExpr());
      LaneValue Converted = of(Cast->getSubExpr());
      // Narrowed into a smaller signed type, a value may turn negative (the
      // indices and sizes that are known non-negative fit an int).
      QualType From = Cast->getSubExpr()->getType(), To = Cast->getType();
      if (!To->isIntegralOrEnumerationType() ||
          !From->isIntegralOrEnumerationType() ||
          (To->isSignedIntegerOrEnumerationType() &&
           Ctx.getIntWidth(To) < Ctx.getIntWidth(From)))
        Converted.NonNegative = false;
      return Converted;
    }
    if (const auto *Full = dyn_cast<FullExpr>(E))
      return of(Full->getSubExpr());
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
      return of(Temp->getSubExpr());
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      return of(Bind->getSubExpr());
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
      return of(Default->getExpr());
    if (const auto *Pseudo = dyn_cast<PseudoObjectExpr>(E)) {
      bool Matched = false;
      LaneValue Builtin = ofBuiltinVariable(Pseudo->getSyntacticForm(), Matched);
      return Matched ? Builtin : LaneValue::laneDependent();
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
        if (std::optional<LaneValue> Counter = ofLoopCounter(Ref, Var))
          return *Counter;
        return ofVariable(Var);
      }
      if (isa<EnumConstantDecl, FunctionDecl, NonTypeTemplateParmDecl>(
              Ref->getDecl()))
        return LaneValue::uniform();
      return LaneValue::laneDependent();
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_AddrOf) {
        const Expr *Sub = U->getSubExpr()->IgnoreParenImpCasts();
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Sub))
          if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
            if (Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
              return LaneValue::laneDependent(); // each thread's own copy
      }
      LaneValue Operand = asData(of(U->getSubExpr()));
      // What x++ gives is the old x, and !x is 0 or 1; -x, ~x, --x and a
      // load through a pointer may be negative.
      if (U->getOpcode() != UO_Plus && U->getOpcode() != UO_PostInc &&
          U->getOpcode() != UO_PostDec && U->getOpcode() != UO_Extension &&
          U->getOpcode() != UO_PreInc && U->getOpcode() != UO_LNot)
        Operand.NonNegative = false;
      // -x and +x are multiples of 32 with x, and so is what x++ gives (the
      // old x); ~x, !x, ++x and a load through a pointer are not.
      switch (U->getOpcode()) {
      case UO_Minus:
      case UO_Plus:
      case UO_PostInc:
      case UO_PostDec:
      case UO_Extension:
        return Operand;
      default:
        return notMultipleOf32(Operand);
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return ofBinary(B);
    if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(E))
      return asData(of(Cond->getCond()))
          .join(asData(of(Cond->getTrueExpr())))
          .join(asData(of(Cond->getFalseExpr())));
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
      return asData(asData(of(Sub->getBase())).join(asData(of(Sub->getIdx()))));
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      return asData(of(Member->getBase()));
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return ofCall(Call);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
      return ofConstruction(Construct);
    if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
      return of(Default->getExpr());
    if (isa<ImplicitValueInitExpr>(E))
      return LaneValue::uniform();
    if (const auto *Init = dyn_cast<InitListExpr>(E)) {
      LaneValue Result;
      for (const Expr *Item : Init->inits())
        Result = Result.join(asData(of(Item)));
      return Result;
    }
    return LaneValue::laneDependent();
  }();
  // Only an integer is a multiple of 32: not `n * 0.5f`, nor a comparison.
  if (E && (!E->getType()->isIntegralOrEnumerationType() ||
            E->getType()->isBooleanType()))
    Value = notMultipleOf32(Value);
  if (Final)
    Settled[Asked] = Value;
  return Value;
}

} // namespace warpfix
