// Functions that only compute a value: the accessors real code calls in its
// branch conditions (`shape[0]`, `dims.rows()`, `idx(i, j)`). A call to one is
// as lane-dependent as the object and arguments it reads, and the object is
// only read, where any other call would make both unknown.
#ifndef WARPFIX_CHECKS_ANALYSIS_PUREACCESSORS_H
#define WARPFIX_CHECKS_ANALYSIS_PUREACCESSORS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace warpfix {

/// Whether F's definition is one `return` of an expression over its
/// parameters (by value or const reference), the fields of its object, and
/// constants: no call, no store, no address taken, nothing virtual. Whatever
/// it returns, a reference included, names or holds what those read.
bool isPureAccessor(const clang::FunctionDecl *F);

/// Whether Call is a call of a pure accessor whose result is only read: a
/// value, or a reference that the caller loads at once rather than binds or
/// stores through.
bool isReadOnlyAccessorCall(clang::ASTContext &Ctx, const clang::CallExpr *Call);

/// Conversions between scalar values. A user-defined conversion is a call,
/// and a decay or a pointer conversion would hand out an address.
bool isValueConversion(clang::CastKind Kind);

} // namespace warpfix

#endif
