#include "checks/analysis/WarpAssumptions.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/LocalDefinitions.h"
#include "checks/analysis/Loops.h"
#include "checks/analysis/Parents.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace warpfix {
namespace {

const Expr *peel(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temp->getSubExpr();
    else if (const auto *Full = dyn_cast<FullExpr>(E))
      E = Full->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr();
    else if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      E = Cast->getSubExpr();
    else
      return E;
  }
}

/// The block dimensions a launch's configuration argument provably has.
struct Dimensions {
  std::optional<int64_t> X, Y, Z;
  bool OneDimensional = false;
};

class BlockEvaluator {
public:
  explicit BlockEvaluator(ASTContext &Ctx) : Ctx(Ctx) {}

  Dimensions evaluate(const Expr *E, unsigned Depth = 0) {
    Dimensions Result;
    if (!E || Depth > 8 || E->isValueDependent())
      return Result;
    E = peel(E);
    if (E->getType()->isIntegralOrEnumerationType()) {
      Result.X = integer(E, Depth);
      Result.Y = Result.Z = 1;
      Result.OneDimensional = true;
      return Result;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (Ctor->isCopyOrMoveConstructor() && Construct->getNumArgs() >= 1)
        return evaluate(Construct->getArg(0), Depth + 1);
      const CXXRecordDecl *Record = Ctor->getParent();
      if (Record->getName() != "dim3" || Construct->getNumArgs() != 3 ||
          !Construct->getArg(0)->getType()->isIntegerType())
        return Result;
      Result.X = integer(Construct->getArg(0), Depth);
      Result.Y = integer(Construct->getArg(1), Depth);
      Result.Z = integer(Construct->getArg(2), Depth);
      Result.OneDimensional = Result.Y == 1 && Result.Z == 1;
      return Result;
    }
    if (const Expr *Value = singleValue(E))
      return evaluate(Value, Depth + 1);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return fieldwise(Ref, Depth);
    return Result;
  }

  /// The block of a launch through a cudaLaunchConfig_t (`&config`): its
  /// blockDim where the last store to it before the launch, or its
  /// initializer, is certain. Any other use of the config (its address
  /// taken elsewhere, a field of blockDim stored) leaves it unknown.
  Dimensions ofConfig(const Expr *ConfigAddress) {
    const auto *AddrOf = dyn_cast<UnaryOperator>(peel(ConfigAddress));
    const auto *Use =
        AddrOf && AddrOf->getOpcode() == UO_AddrOf
            ? dyn_cast<DeclRefExpr>(AddrOf->getSubExpr()->IgnoreParens())
            : nullptr;
    const auto *Var = Use ? dyn_cast<VarDecl>(Use->getDecl()) : nullptr;
    const RecordDecl *Record =
        Var ? Var->getType()->getAsRecordDecl() : nullptr;
    if (!Record || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
      return {};
    const FieldDecl *BlockDim = nullptr;
    for (const FieldDecl *Field : Record->fields())
      if (Field->getName() == "blockDim")
        BlockDim = Field;
    const auto *F =
        dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
    if (!BlockDim || !F || !F->getBody() || containsGoto(Ctx, F->getBody()))
      return {};
    std::vector<FieldStore> Stores;
    if (!configStores(F->getBody(), Var, BlockDim, Stores))
      return {};
    const Expr *Source = lastStore(Use, Var, Stores, 0);
    if (Source && Source == Var->getInit()) {
      const auto *List = dyn_cast<InitListExpr>(peel(Source));
      if (List && List->isSemanticForm() &&
          BlockDim->getFieldIndex() < List->getNumInits())
        Source = List->getInit(BlockDim->getFieldIndex());
      else
        Source = nullptr;
    }
    if (!Source || isa<ImplicitValueInitExpr>(peel(Source)))
      return {};
    return evaluate(Source);
  }

private:
  std::optional<int64_t> integer(const Expr *E, unsigned Depth) {
    if (!E || Depth > 8 || E->isValueDependent())
      return std::nullopt;
    Expr::EvalResult Result;
    if (E->EvaluateAsInt(Result, Ctx))
      return Result.Val.getInt().getExtValue();
    if (const Expr *Value = singleValue(peel(E)))
      return integer(Value, Depth + 1);
    return std::nullopt;
  }

  /// The initializer of a local variable that nothing else writes.
  const Expr *singleValue(const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
        !Var->getInit())
      return nullptr;
    const auto *F = dyn_cast_or_null<FunctionDecl>(
        Var->getParentFunctionOrMethod());
    if (!F || !F->getBody())
      return nullptr;
    const LocalDefinitions &Defs = localsOf(F);
    if (Defs.Escaped.contains(Var) ||
        llvm::count_if(Defs.Definitions, [&](const Definition &D) {
          return D.Var == Var;
        }) != 1)
      return nullptr;
    return Var->getInit();
  }

  /// A local dim3 built up field by field, as the SDK samples do
  /// (`dim3 block; block.x = 32; block.y = 2;`): each field as Use reads it,
  /// where one store to it, or the declaration, is certain to be the last
  /// before Use. A store that may or may not come between (under a branch,
  /// in a loop around Use, past a case label or a goto) leaves it unknown.
  Dimensions fieldwise(const DeclRefExpr *Use, unsigned Depth) {
    Dimensions Result;
    const auto *Var = dyn_cast<VarDecl>(Use->getDecl());
    const auto *Record =
        Var ? Var->getType()->getAsCXXRecordDecl() : nullptr;
    if (!Record || Record->getName() != "dim3" || !Var->hasLocalStorage() ||
        isa<ParmVarDecl>(Var) || !Var->getInit())
      return Result;
    const auto *F =
        dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
    if (!F || !F->getBody() || containsGoto(Ctx, F->getBody()))
      return Result;
    const LocalDefinitions &Defs = localsOf(F);
    if (Defs.Escaped.contains(Var))
      return Result;
    std::vector<FieldStore> Stores;
    for (const Definition &D : Defs.Definitions)
      if (D.Var == Var && D.Site != Var->getInit() &&
          llvm::none_of(Stores, [&](const FieldStore &S) {
            return S.Site == D.Site;
          }))
        Stores.push_back(storeAt(D.Site, Var));
    std::optional<int64_t> *Fields[] = {&Result.X, &Result.Y, &Result.Z};
    for (unsigned Field = 0; Field < 3; ++Field) {
      const Expr *Source = lastStore(Use, Var, Stores, Field);
      if (!Source)
        return Dimensions{};
      if (Source == Var->getInit() ||
          !Source->getType()->isIntegralOrEnumerationType()) {
        Dimensions Whole = evaluate(Source, Depth + 1);
        *Fields[Field] = Field == 0 ? Whole.X : Field == 1 ? Whole.Y : Whole.Z;
      } else {
        *Fields[Field] = integer(Source, Depth + 1);
      }
    }
    Result.OneDimensional = Result.Y == 1 && Result.Z == 1;
    return Result;
  }

  /// One store to a dim3: to field 0, 1 or 2 (x, y, z), or to all of them
  /// (Field 3). Value is null where the stored value cannot be told.
  struct FieldStore {
    const Stmt *Site;
    unsigned Field;
    const Expr *Value;
    bool writes(unsigned F) const { return Field == 3 || Field == F; }
  };

  static FieldStore storeAt(const Stmt *Site, const VarDecl *Var) {
    auto NamesVar = [&](const Expr *E) {
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == Var;
    };
    if (const auto *Assign = dyn_cast<BinaryOperator>(Site);
        Assign && Assign->getOpcode() == BO_Assign) {
      const auto *Member =
          dyn_cast<MemberExpr>(Assign->getLHS()->IgnoreParenImpCasts());
      if (Member && !Member->isArrow() && NamesVar(Member->getBase())) {
        llvm::StringRef Name = Member->getMemberDecl()->getName();
        unsigned Field = Name == "x" ? 0 : Name == "y" ? 1 : Name == "z" ? 2 : 3;
        return {Site, Field, Field == 3 ? nullptr : Assign->getRHS()};
      }
    }
    if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(Site);
        Call && Call->getOperator() == OO_Equal && Call->getNumArgs() == 2 &&
        NamesVar(Call->getArg(0)))
      return {Site, 3, Call->getArg(1)};
    return {Site, 3, nullptr};
  }

  /// The stores to Config.blockDim, where every use of Config is one of:
  /// a store to one of its fields, a read of one, or its address passed to
  /// a cudaLaunchKernelEx.
  bool configStores(const Stmt *Body, const VarDecl *Config,
                    const FieldDecl *BlockDim, std::vector<FieldStore> &Out) {
    class Uses : public RecursiveASTVisitor<Uses> {
    public:
      Uses(ASTContext &Ctx, const VarDecl *Config, const FieldDecl *BlockDim,
           std::vector<FieldStore> &Out)
          : Ctx(Ctx), Config(Config), BlockDim(BlockDim), Out(Out) {}
      bool Understood = true;
      bool VisitDeclRefExpr(DeclRefExpr *Ref) {
        // A lambda that names the config may store to it wherever it is
        // called.
        if (Ref->getDecl() == Config &&
            (Ref->refersToEnclosingVariableOrCapture() || !understood(Ref)))
          Understood = false;
        return Understood;
      }

    private:
      bool understood(const DeclRefExpr *Ref) {
        const Stmt *Parent = parentStmt(Ctx, Ref);
        while (Parent && isa<ParenExpr, ImplicitCastExpr>(Parent))
          Parent = parentStmt(Ctx, Parent);
        if (const auto *U = dyn_cast_or_null<UnaryOperator>(Parent);
            U && U->getOpcode() == UO_AddrOf) {
          const Stmt *Call = parentStmt(Ctx, U);
          while (Call && isa<ParenExpr, ImplicitCastExpr>(Call))
            Call = parentStmt(Ctx, Call);
          const auto *Launch = dyn_cast_or_null<CallExpr>(Call);
          const FunctionDecl *Callee =
              Launch ? Launch->getDirectCallee() : nullptr;
          return Callee && Callee->getIdentifier() &&
                 (Callee->getName() == "cudaLaunchKernelEx" ||
                  Callee->getName() == "cudaLaunchKernelExC");
        }
        const auto *Member = dyn_cast_or_null<MemberExpr>(Parent);
        if (!Member || Member->isArrow())
          return false;
        const Stmt *Above = parentStmt(Ctx, Member);
        while (Above && isa<ParenExpr>(Above))
          Above = parentStmt(Ctx, Above);
        const Expr *Stored = nullptr;
        if (const auto *B = dyn_cast_or_null<BinaryOperator>(Above);
            B && B->getOpcode() == BO_Assign &&
            B->getLHS()->IgnoreParens() == Member)
          Stored = B->getRHS();
        if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Above);
            Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
            Op->getArg(0)->IgnoreParens() == Member)
          Stored = Op->getArg(1);
        if (Stored) {
          if (Member->getMemberDecl() == BlockDim)
            Out.push_back({Above, 3, Stored});
          return true;
        }
        // A read: loaded at once, or copied into a value by a trivial
        // constructor. A reference bound to it, even to const, may be
        // written through.
        auto IsCopy = [](const Stmt *S) {
          const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(S);
          return Construct && Construct->getConstructor()->isTrivial() &&
                 Construct->getConstructor()->isCopyOrMoveConstructor();
        };
        if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Above))
          return Cast->getCastKind() == CK_LValueToRValue ||
                 (Cast->getCastKind() == CK_NoOp &&
                  IsCopy(parentStmt(Ctx, Cast)));
        return IsCopy(Above);
      }
      ASTContext &Ctx;
      const VarDecl *Config;
      const FieldDecl *BlockDim;
      std::vector<FieldStore> &Out;
    };
    Uses Visitor(Ctx, Config, BlockDim, Out);
    Visitor.TraverseStmt(const_cast<Stmt *>(Body));
    return Visitor.Understood;
  }

  /// The expression whose value Field has at Use: the value of the one store
  /// certain to come last, or the declaration's initializer; null if unknown.
  const Expr *lastStore(const DeclRefExpr *Use, const VarDecl *Var,
                        const std::vector<FieldStore> &Stores,
                        unsigned Field) {
    auto StoresWithin = [&](const Stmt *Region, const Stmt *Except) {
      return llvm::any_of(Stores, [&](const FieldStore &S) {
        return S.writes(Field) && isWithin(Ctx, S.Site, Region) &&
               !(Except && isWithin(Ctx, S.Site, Except));
      });
    };
    const Stmt *Child = Use;
    while (true) {
      DynTypedNodeList Parents = parentsOf(Ctx, *Child);
      if (Parents.empty())
        return nullptr;
      if (Parents[0].get<VarDecl>() == Var)
        return nullptr; // the declaration reads itself
      const Stmt *Parent = Parents[0].get<Stmt>();
      if (!Parent) {
        // The top of Var's own function: no store comes before Use. (A
        // lambda's body is the top of another function.)
        const auto *Owner = Parents[0].get<FunctionDecl>();
        return Owner && Owner == Var->getParentFunctionOrMethod() &&
                       Owner->getBody() == Child
                   ? Var->getInit()
                   : nullptr;
      }
      if (isa<LambdaExpr, SwitchCase, LabelStmt, SwitchStmt>(Parent))
        return nullptr;
      if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
        auto It = llvm::find(Block->body(), Child);
        while (It != Block->body_begin()) {
          const Stmt *Earlier = *--It;
          // A case label or a label anywhere in it lets control in after
          // the stores before it.
          if (holdsLabel(Earlier))
            return nullptr;
          for (const FieldStore &S : Stores)
            if (S.writes(Field) && isWholeStatement(S.Site, Earlier))
              return S.Value;
          if (StoresWithin(Earlier, nullptr))
            return nullptr;
          if (declares(Earlier, Var))
            return Var->getInit();
        }
      } else if (const auto *If = dyn_cast<IfStmt>(Parent)) {
        // Of an `if`, only what comes before both arms precedes an arm.
        const Stmt *Preceding[] = {If->getInit(),
                                   If->getConditionVariableDeclStmt(),
                                   If->getCond()};
        for (const Stmt *Before : Preceding)
          if (Before && Before != Child && StoresWithin(Before, nullptr))
            return nullptr;
      } else if (isLoop(Parent) ? StoresWithin(Parent, nullptr)
                                : StoresWithin(Parent, Child)) {
        // A loop brings its later stores round to Use; any other statement
        // may run its other parts before Child.
        return nullptr;
      }
      Child = Parent;
    }
  }

  static bool holdsLabel(const Stmt *S) {
    if (!S)
      return false;
    if (isa<SwitchCase, LabelStmt>(S))
      return true;
    return llvm::any_of(S->children(),
                        [](const Stmt *Child) { return holdsLabel(Child); });
  }

  /// Whether the statement Earlier is the store Site and nothing more.
  static bool isWholeStatement(const Stmt *Site, const Stmt *Earlier) {
    if (const auto *Full = dyn_cast<FullExpr>(Earlier))
      Earlier = Full->getSubExpr();
    if (const auto *E = dyn_cast<Expr>(Earlier))
      Earlier = E->IgnoreParens();
    return Site == Earlier;
  }

  static bool declares(const Stmt *S, const VarDecl *Var) {
    const auto *Decls = dyn_cast<DeclStmt>(S);
    return Decls && llvm::is_contained(Decls->decls(), Var);
  }

  const LocalDefinitions &localsOf(const FunctionDecl *F) {
    std::shared_ptr<const LocalDefinitions> &Known = Locals[F];
    if (!Known)
      Known = localDefinitionsOf(Ctx, F->getBody());
    return *Known;
  }

  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, std::shared_ptr<const LocalDefinitions>>
      Locals;
};

std::string kernelName(const FunctionDecl *F) {
  return "'" + F->getNameAsString() + "'";
}

} // namespace

BlockShape BlockShape::weakest(const BlockShape &Other) const {
  BlockShape Result;
  Result.WholeWarps = std::max(WholeWarps, Other.WholeWarps);
  Result.OneDimensional = std::max(OneDimensional, Other.OneDimensional);
  bool Mine = WholeWarps == Contradicted || OneDimensional == Contradicted;
  Result.Where = Mine ? Where : Other.Where;
  Result.Why = Mine ? Why : Other.Why;
  Result.ShownOtherwise = ShownOtherwise || Other.ShownOtherwise;
  Result.FullWarps = std::max(FullWarps, Other.FullWarps);
  bool MinePartial = FullWarps == Contradicted;
  Result.PartialWhere = MinePartial ? PartialWhere : Other.PartialWhere;
  Result.PartialWhy = MinePartial ? PartialWhy : Other.PartialWhy;
  bool MineElsewhere = !ElsewhereWhy.empty();
  Result.ElsewhereWhere = MineElsewhere ? ElsewhereWhere : Other.ElsewhereWhere;
  Result.ElsewhereWhy = MineElsewhere ? ElsewhereWhy : Other.ElsewhereWhy;
  return Result;
}

void WarpAssumptions::addLaunch(BlockShape &Shape,
                                const CallSites::Launch &Launch,
                                SourceLocation At) {
  BlockEvaluator Evaluate(Ctx);
  Dimensions D = Launch.ThroughConfig ? Evaluate.ofConfig(Launch.Block)
                                      : Evaluate.evaluate(Launch.Block);
  auto Contradict = [&](BlockShape::State &Fact, const std::string &Why) {
    if (Shape.WholeWarps != BlockShape::Contradicted &&
        Shape.OneDimensional != BlockShape::Contradicted) {
      Shape.Where = At;
      Shape.Why = Why;
    }
    Fact = BlockShape::Contradicted;
  };
  if (!D.X)
    Contradict(Shape.WholeWarps,
               "it is launched here with a block size that warpfix cannot "
               "evaluate");
  else if (*D.X % 32 != 0) {
    // `dim3(4, 8)` is a block of 32 threads: say so, and which extent is
    // not a multiple of 32.
    std::string Shape2D;
    if (D.Y && D.Z && (*D.Y != 1 || *D.Z != 1))
      Shape2D = std::to_string(*D.X) + "x" + std::to_string(*D.Y) +
                (*D.Z != 1 ? "x" + std::to_string(*D.Z) : std::string()) +
                " threads, ";
    Contradict(Shape.WholeWarps, "it is launched here with blocks of " +
                                     Shape2D + std::to_string(*D.X) +
                                     (Shape2D.empty() ? " threads" : "") +
                                     " in x, not a multiple of 32");
    Shape.ShownOtherwise = true;
  }
  if (!D.OneDimensional) {
    Contradict(Shape.OneDimensional,
               "it is launched here with blocks that may have more than one "
               "dimension");
    Shape.ShownOtherwise |= D.Y && D.Z && (*D.Y != 1 || *D.Z != 1);
  }
  auto Partial = [&](const std::string &Why) {
    if (Shape.FullWarps != BlockShape::Contradicted) {
      Shape.PartialWhere = At;
      Shape.PartialWhy = Why;
    }
    Shape.FullWarps = BlockShape::Contradicted;
  };
  if (!D.X || !D.Y || !D.Z)
    Partial("it is launched here with a block size that warpfix cannot "
            "evaluate");
  else if ((*D.X * *D.Y * *D.Z) % 32 != 0)
    Partial("it is launched here with blocks of " +
            std::to_string(*D.X * *D.Y * *D.Z) + " threads");
}

BlockShape WarpAssumptions::ofKernel(const FunctionDecl *Kernel) {
  BlockShape Shape;
  if (const auto *Bounds = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult Max;
    const Expr *MaxThreads = Bounds->getMaxThreads();
    if (MaxThreads && !MaxThreads->isValueDependent() &&
        MaxThreads->EvaluateAsInt(Max, Ctx) &&
        Max.Val.getInt().getExtValue() % 32 != 0) {
      Shape.WholeWarps = Shape.FullWarps = BlockShape::Contradicted;
      Shape.ShownOtherwise = true;
      Shape.Where = Shape.PartialWhere = Bounds->getLocation();
      Shape.Why = Shape.PartialWhy =
          "its __launch_bounds__ allows blocks of " +
          std::to_string(Max.Val.getInt().getExtValue()) +
          " threads, not a multiple of 32";
    }
  }
  bool Launched = false;
  for (const CallSites::Launch &L : Calls.launchesOf(Kernel)) {
    Launched = true;
    addLaunch(Shape, L, L.At);
  }
  // A kernel whose address escapes may be launched where warpfix does not
  // look (a pointer, a table, cudaLaunchKernelEx, a graph node), with any
  // block: its shape is unknown, which switches the assumption off.
  std::optional<SourceLocation> Unseen = Calls.escapesAt(Kernel);
  const char *UnseenWhy =
      "its address is taken here, and a launch through it (a pointer, a "
      "table, cudaLaunchKernelEx, a graph node) may use any block size";
  if (!Unseen) {
    Unseen = Calls.calledFromUnanalysedCode(Kernel);
    UnseenWhy = "code that warpfix does not analyse may launch it here, with "
                "any block size";
  }
  if (Unseen) {
    if (Shape.WholeWarps != BlockShape::Contradicted) {
      Shape.Where = *Unseen;
      Shape.Why = UnseenWhy;
    }
    if (Shape.FullWarps != BlockShape::Contradicted) {
      Shape.PartialWhere = *Unseen;
      Shape.PartialWhy = UnseenWhy;
    }
    Shape.WholeWarps = Shape.OneDimensional = Shape.FullWarps =
        BlockShape::Contradicted;
  }
  // Every launch the code shows agrees with a fact: it is proven, not merely
  // assumed, for this kernel, unless another unit may launch it as well
  // (a kernel's host stub links across units without -rdc).
  if (Launched && !Unseen) {
    BlockShape::State Shown = BlockShape::Proven;
    if (std::optional<SourceLocation> Elsewhere =
            launchableFromOtherUnits(Kernel)) {
      Shown = BlockShape::InUnit;
      Shape.ElsewhereWhere = *Elsewhere;
      Shape.ElsewhereWhy =
          "kernel " + kernelName(Kernel) +
          " has external linkage, so other translation units may launch "
          "it too; the block shape of its launches here is assumed of "
          "theirs unless --assume-whole-warps=false (make it static if no "
          "other unit launches it)";
    }
    for (BlockShape::State *Fact :
         {&Shape.WholeWarps, &Shape.OneDimensional, &Shape.FullWarps})
      if (*Fact == BlockShape::Assumed)
        *Fact = Shown;
  }
  if (Shape.WholeWarps == BlockShape::Contradicted ||
      Shape.OneDimensional == BlockShape::Contradicted)
    Shape.Why = "the whole-warp assumption is off for kernel " +
                kernelName(Kernel) + ": " + Shape.Why;
  if (Shape.FullWarps == BlockShape::Contradicted)
    Shape.PartialWhy = "the blocks of kernel " + kernelName(Kernel) +
                       " may end in a partial warp: " + Shape.PartialWhy;
  return Shape;
}

WarpAssumptions::Launches
WarpAssumptions::launchesOf(const FunctionDecl *Kernel) {
  Launches Out;
  Out.OthersPossible = Calls.callersUnseen(Kernel);
  BlockEvaluator Evaluate(Ctx);
  for (const CallSites::Launch &L : Calls.launchesOf(Kernel)) {
    Dimensions D = L.ThroughConfig ? Evaluate.ofConfig(L.Block)
                                   : Evaluate.evaluate(L.Block);
    if (!D.X || !D.Y || !D.Z || *D.X <= 0 || *D.Y <= 0 || *D.Z <= 0) {
      Out.OthersPossible = true;
      continue;
    }
    BlockSize Here{*D.X, *D.Y, *D.Z};
    if (!llvm::is_contained(Out.Sizes, Here))
      Out.Sizes.push_back(Here);
  }
  if (Out.Sizes.empty())
    Out.OthersPossible = true;
  if (!Out.OthersPossible && launchableFromOtherUnits(Kernel)) {
    if (!AssumeByDefault)
      Out.OthersPossible = true;
    BlockShape Shape = in(Kernel);
    Out.OtherUnits = Shape.ElsewhereWhy;
    Out.OtherUnitsLoc = Shape.ElsewhereWhere;
  }
  return Out;
}

BlockShape WarpAssumptions::in(const FunctionDecl *F) {
  F = F->getCanonicalDecl();
  auto Known = Shapes.find(F);
  if (Known != Shapes.end())
    return Known->second;
  static const BlockShape Default;
  if (InProgress.contains(F))
    return Default;
  InProgress.insert(F);
  BlockShape Shape;
  if (F->hasAttr<CUDAGlobalAttr>()) {
    Shape = ofKernel(F);
  } else {
    const auto &Sites = Calls.of(F);
    std::optional<BlockShape> Reached;
    if (Sites.empty() || Calls.callersUnseen(F))
      Reached = Default;
    for (const Expr *Call : Sites) {
      const FunctionDecl *Caller = enclosingFunction(Ctx, Call);
      BlockShape Outer = Caller ? in(Caller) : Default;
      Reached = Reached ? Reached->weakest(Outer) : Outer;
    }
    Shape = *Reached;
  }
  InProgress.erase(F);
  Shapes[F] = Shape;
  return Shape;
}

bool WarpAssumptions::holds(unsigned Relies, const FunctionDecl *F,
                            unsigned &AssumedOnly) {
  AssumedOnly = NoAssumption;
  if (Relies == NoAssumption)
    return true;
  BlockShape Shape = in(F);
  // A fact that only this unit's launches show holds as an assumption.
  auto ShownHere = [&](BlockShape::State S) {
    return S == BlockShape::InUnit && AssumeByDefault;
  };
  if (Relies & WholeWarpBlocks) {
    if (!isOk(Shape.WholeWarps))
      return false;
    if (Shape.WholeWarps == BlockShape::Assumed)
      AssumedOnly |= WholeWarpBlocks;
    if (Shape.WholeWarps == BlockShape::InUnit)
      AssumedOnly |= OtherUnitsLaunchAlike;
  }
  if (Relies & WholeWarpRows) {
    if (ShownHere(Shape.WholeWarps))
      AssumedOnly |= OtherUnitsLaunchAlike;
    else if (Shape.WholeWarps != BlockShape::Proven)
      return false;
  }
  if (Relies & LinearThreadIndex) {
    // Either fact makes threadIdx.x the linear index that warps are cut from.
    if (Shape.OneDimensional == BlockShape::Proven ||
        Shape.WholeWarps == BlockShape::Proven)
      return true;
    if (ShownHere(Shape.OneDimensional) || ShownHere(Shape.WholeWarps)) {
      AssumedOnly |= OtherUnitsLaunchAlike;
      return true;
    }
    if (!isOk(Shape.OneDimensional) && !isOk(Shape.WholeWarps))
      return false;
    AssumedOnly |= LinearThreadIndex;
  }
  return true;
}

std::optional<SourceLocation>
WarpAssumptions::launchableFromOtherUnits(const FunctionDecl *Kernel) {
  if (!Kernel->isExternallyVisible())
    return std::nullopt;
  return Kernel->getLocation();
}

} // namespace warpfix
