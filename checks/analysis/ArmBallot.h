// When the lanes that take one arm of a `?:` can be named by a ballot of its
// condition taken before the statement the `?:` is part of.
#ifndef WARPFIX_CHECKS_ANALYSIS_ARMBALLOT_H
#define WARPFIX_CHECKS_ANALYSIS_ARMBALLOT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <optional>
#include <string>

namespace warpfix {

/// Why a ballot of Cond's condition, taken right before the statement Cond
/// is part of, might not name the lanes that take each arm; or nothing, and
/// Statement is that statement. The statement must be an expression
/// statement, a single declaration or a return in a block; the condition
/// must read only the thread's own registers and objects; and nothing the
/// statement evaluates may change anything before its value is stored but
/// the warp intrinsics it calls.
std::optional<std::string>
armBallotRefusal(const clang::AbstractConditionalOperator *Cond,
                 clang::ASTContext &Ctx, const clang::Stmt *&Statement);

} // namespace warpfix

#endif
