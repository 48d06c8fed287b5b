// A call's callee, matched without the cost of clang's callee().
#ifndef WARPFIX_CHECKS_ANALYSIS_CALLEEFUNCTION_H
#define WARPFIX_CHECKS_ANALYSIS_CALLEEFUNCTION_H

#include "clang/ASTMatchers/ASTMatchers.h"

namespace warpfix {

/// A test of a callee's name that is cheaper than a matcher of it: true for
/// every function that may match, and for every function without a plain
/// identifier (an operator, a conversion), which it leaves to the matcher.
using CalleeNameFilter = bool (*)(llvm::StringRef Name);

/// What callExpr(callee(functionDecl(Inner))) matches: a call whose callee
/// declaration is a function that Inner matches. Inner is asked only where
/// MayMatch accepts the callee's name, so MayMatch must accept every name
/// that Inner does.
///
/// The matchers run on every call of the user's code. clang's callee()
/// builds a callExpr(hasDeclaration(...)) matcher each time it is asked, and
/// each level of a matcher costs a dispatch: together they cost more than
/// the name test that rejects almost every call.
AST_MATCHER_P2(clang::CallExpr, calleeFunction, CalleeNameFilter, MayMatch,
               clang::ast_matchers::internal::Matcher<clang::FunctionDecl>,
               Inner) {
  const clang::FunctionDecl *Callee = Node.getDirectCallee();
  if (!Callee)
    return false;
  if (const clang::IdentifierInfo *Id = Callee->getIdentifier();
      Id && !MayMatch(Id->getName()))
    return false;
  return Inner.matches(*Callee, Finder, Builder);
}

} // namespace warpfix

#endif
