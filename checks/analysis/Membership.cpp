#include "checks/analysis/Membership.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warpfix {
namespace {

/// Finds the first statement that lets some lanes leave the function early.
class EarlyExitFinder : public RecursiveASTVisitor<EarlyExitFinder> {
public:
  const Stmt *Found = nullptr;
  const char *What = nullptr;

  bool VisitReturnStmt(ReturnStmt *S) { return found(S, "an early return"); }
  bool VisitGotoStmt(GotoStmt *S) { return found(S, "a goto"); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) {
    return found(S, "a computed goto");
  }
  bool VisitAsmStmt(AsmStmt *S) {
    if (S->generateAsmString(*Ctx).find("exit") != std::string::npos)
      return found(S, "inline PTX that may exit");
    return true;
  }
  // A lambda's returns leave the lambda, not the kernel.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  ASTContext *Ctx = nullptr;

private:
  bool found(const Stmt *S, const char *Kind) {
    Found = S;
    What = Kind;
    return false;
  }
};

/// Whether evaluating Parent may skip Child for some lanes; the condition of an
/// `if` is evaluated by every lane that reaches the `if`, its arms are not.
const char *divergenceBetween(const Stmt &Parent, const Stmt &Child) {
  if (const auto *If = dyn_cast<IfStmt>(&Parent))
    return (If->getCond() == &Child || If->getInit() == &Child ||
            If->getConditionVariableDeclStmt() == &Child)
               ? nullptr
               : "a branch";
  if (const auto *For = dyn_cast<ForStmt>(&Parent))
    return For->getInit() == &Child ? nullptr : "a loop";
  if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(Parent))
    return "a loop";
  if (const auto *Switch = dyn_cast<SwitchStmt>(&Parent))
    return (Switch->getCond() == &Child || Switch->getInit() == &Child)
               ? nullptr
               : "a switch";
  if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(&Parent))
    return Cond->getCond() == &Child ? nullptr : "a conditional expression";
  if (const auto *Bin = dyn_cast<BinaryOperator>(&Parent))
    return (Bin->isLogicalOp() && Bin->getRHS() == &Child)
               ? "a short-circuit operator"
               : nullptr;
  return nullptr;
}

} // namespace

Membership membershipAt(const CallExpr &Call, ASTContext &Ctx) {
  const Stmt *Child = &Call;
  const FunctionDecl *Function = nullptr;
  std::vector<std::pair<const CompoundStmt *, const Stmt *>> Blocks;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Child);
    if (Parents.empty())
      return Membership::unknown("the enclosing function was not found",
                                 Call.getBeginLoc());
    if ((Function = Parents[0].get<FunctionDecl>()))
      break;
    if (Parents[0].get<LambdaExpr>())
      return Membership::unknown("the call is inside a lambda",
                                 Call.getBeginLoc());
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent) {
      // Declarations (a local variable's initializer) sit between statements.
      if (const auto *Var = Parents[0].get<VarDecl>()) {
        DynTypedNodeList Up = Ctx.getParents(*Var);
        if (!Up.empty() && (Parent = Up[0].get<DeclStmt>())) {
          Child = Parent;
          continue;
        }
      }
      return Membership::unknown("the call is not inside a function body",
                                 Call.getBeginLoc());
    }
    if (const char *What = divergenceBetween(*Parent, *Child))
      return Membership::unknown(std::string("the call is inside ") + What +
                                     " whose lanes may diverge",
                                 Parent->getBeginLoc());
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent))
      Blocks.push_back({Block, Child});
    Child = Parent;
  }
  if (!Function->hasAttr<CUDAGlobalAttr>())
    return Membership::unknown(
        "the call is in a device function, whose callers are not analysed",
        Function->getLocation());
  // A goto anywhere can jump back over the call and make a loop of it.
  EarlyExitFinder Whole;
  Whole.Ctx = &Ctx;
  Whole.TraverseStmt(Function->getBody());
  if (Whole.Found && isa<GotoStmt, IndirectGotoStmt>(Whole.Found))
    return Membership::unknown("a goto in the kernel may repeat or skip the "
                               "call for some lanes",
                               Whole.Found->getBeginLoc());
  // Statements earlier in each enclosing block run first; one that can make
  // lanes leave the kernel shrinks the set of lanes that reach the call.
  for (auto [Block, Reached] : Blocks) {
    for (const Stmt *Earlier : Block->body()) {
      if (Earlier == Reached)
        break;
      EarlyExitFinder Finder;
      Finder.Ctx = &Ctx;
      Finder.TraverseStmt(const_cast<Stmt *>(Earlier));
      if (Finder.Found)
        return Membership::unknown(std::string(Finder.What) +
                                       " before the call may remove lanes",
                                   Finder.Found->getBeginLoc());
    }
  }
  return Membership::allLanes();
}

} // namespace warpfix
