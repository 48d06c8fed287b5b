#include "checks/analysis/Exits.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warpfix {
namespace {

/// The statements (return, goto, break, continue, PTX exit) by which lanes
/// leave a statement early. Breaks and continues that stay inside a loop or
/// switch nested in it do not count.
class ExitFinder : public RecursiveASTVisitor<ExitFinder> {
public:
  ExitFinder(ASTContext &Ctx, bool CountContinue)
      : Ctx(Ctx), CountContinue(CountContinue) {}
  std::vector<const Stmt *> Exits;
  bool HasGoto = false;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *S) { return add(S); }
  bool VisitGotoStmt(GotoStmt *S) {
    HasGoto = true;
    return add(S);
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) {
    HasGoto = true;
    return add(S);
  }
  bool VisitBreakStmt(BreakStmt *S) { return Depth == 0 ? add(S) : true; }
  bool VisitContinueStmt(ContinueStmt *S) {
    return Depth == 0 && CountContinue ? add(S) : true;
  }
  bool VisitAsmStmt(AsmStmt *S) {
    if (S->generateAsmString(Ctx).find("exit") != std::string::npos)
      return add(S);
    return true;
  }
#define NESTED(Type)                                                           \
  bool Traverse##Type(Type *S) {                                               \
    ++Depth;                                                                   \
    bool Result = RecursiveASTVisitor::Traverse##Type(S);                      \
    --Depth;                                                                   \
    return Result;                                                             \
  }
  NESTED(ForStmt)
  NESTED(WhileStmt)
  NESTED(DoStmt)
  NESTED(CXXForRangeStmt)
  NESTED(SwitchStmt)
#undef NESTED

private:
  bool add(const Stmt *S) {
    Exits.push_back(S);
    return true;
  }
  ASTContext &Ctx;
  bool CountContinue;
  unsigned Depth = 0;
};

} // namespace

std::vector<const Stmt *> exitsOf(ASTContext &Ctx, const Stmt *S,
                                  bool CountContinue) {
  ExitFinder Finder(Ctx, CountContinue);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return Finder.Exits;
}

bool containsGoto(ASTContext &Ctx, const Stmt *S) {
  ExitFinder Finder(Ctx, true);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return Finder.HasGoto;
}

} // namespace warpfix
