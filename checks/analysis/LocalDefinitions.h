// Where a function's local variables get their values, and which of them
// escape: the memory model of the lane-dependence analysis. A variable whose
// every use is understood (read, assigned, an element or field assigned) is
// followed through its definitions; any other use (its address taken, an
// array decaying to a pointer, a non-const reference bound to it, a
// non-const method called on it) may write it behind the analysis' back, so
// it escapes and its value is unknown.
#ifndef WARPFIX_CHECKS_ANALYSIS_LOCALDEFINITIONS_H
#define WARPFIX_CHECKS_ANALYSIS_LOCALDEFINITIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <vector>

namespace warpfix {

/// One place that gives a local variable (or parameter) a value.
struct Definition {
  const clang::VarDecl *Var;
  /// The value given, or null when the variable keeps its own (x++). An
  /// element or field store also records the assigned expression itself,
  /// whose index chooses the element.
  const clang::Expr *Value;
  const clang::Stmt *Site;
};

struct LocalDefinitions {
  std::vector<Definition> Definitions;
  /// Locals with a use the analysis does not model.
  llvm::DenseSet<const clang::VarDecl *> Escaped;
};

/// The definitions and escapes of the locals and parameters of the function
/// whose body is Body. Lambdas inside are functions of their own: only their
/// by-reference captures count here, as escapes.
LocalDefinitions collectLocalDefinitions(clang::ASTContext &Ctx,
                                         const clang::Stmt *Body);

/// collectLocalDefinitions(Ctx, Body), from the LocalDefinitionsMemo in use on
/// this thread for Ctx where there is one.
std::shared_ptr<const LocalDefinitions>
localDefinitionsOf(clang::ASTContext &Ctx, const clang::Stmt *Body);

/// The definitions of each function body asked for, kept for one translation
/// unit's analysis. The analyses ask for the same functions again and again:
/// a host function once per launch it holds, a kernel once per block model;
/// and the walk of a long function climbs to the parents of every name in it.
class LocalDefinitionsMemo {
public:
  explicit LocalDefinitionsMemo(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  LocalDefinitionsMemo(const LocalDefinitionsMemo &) = delete;
  LocalDefinitionsMemo &operator=(const LocalDefinitionsMemo &) = delete;

  /// Makes localDefinitionsOf() answer from Memo for its context, on this
  /// thread, for as long as the guard lives.
  class Use {
  public:
    explicit Use(LocalDefinitionsMemo &Memo);
    ~Use();
    Use(const Use &) = delete;
    Use &operator=(const Use &) = delete;

  private:
    LocalDefinitionsMemo *Previous;
  };

private:
  friend std::shared_ptr<const LocalDefinitions>
  localDefinitionsOf(clang::ASTContext &Ctx, const clang::Stmt *Body);
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::Stmt *, std::shared_ptr<const LocalDefinitions>>
      Known;
};

/// The local variable or parameter that a store to the lvalue E writes, when
/// E names it or one of its elements or fields; null for memory reached
/// through a pointer, and for anything else.
const clang::VarDecl *assignedLocal(const clang::Expr *E);

} // namespace warpfix

#endif
