// The parts of a loop statement, whatever its kind.
#ifndef WARPFIX_CHECKS_ANALYSIS_LOOPS_H
#define WARPFIX_CHECKS_ANALYSIS_LOOPS_H

#include "clang/AST/StmtCXX.h"

namespace warpfix {

inline bool isLoop(const clang::Stmt *S) {
  return clang::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                    clang::CXXForRangeStmt>(S);
}

/// The condition that decides the trip count (the range of a range-for).
inline const clang::Expr *loopCondition(const clang::Stmt *Loop) {
  if (const auto *For = clang::dyn_cast<clang::ForStmt>(Loop))
    return For->getCond();
  if (const auto *While = clang::dyn_cast<clang::WhileStmt>(Loop))
    return While->getCond();
  if (const auto *Do = clang::dyn_cast<clang::DoStmt>(Loop))
    return Do->getCond();
  if (const auto *Range = clang::dyn_cast<clang::CXXForRangeStmt>(Loop))
    return Range->getRangeInit();
  return nullptr;
}

inline const clang::Stmt *loopBody(const clang::Stmt *Loop) {
  if (const auto *For = clang::dyn_cast<clang::ForStmt>(Loop))
    return For->getBody();
  if (const auto *While = clang::dyn_cast<clang::WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Do = clang::dyn_cast<clang::DoStmt>(Loop))
    return Do->getBody();
  return clang::cast<clang::CXXForRangeStmt>(Loop)->getBody();
}

} // namespace warpfix

#endif
