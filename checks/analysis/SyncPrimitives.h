// The *_sync warp primitives and where their member mask comes from.
#ifndef WARPFIX_CHECKS_ANALYSIS_SYNCPRIMITIVES_H
#define WARPFIX_CHECKS_ANALYSIS_SYNCPRIMITIVES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <vector>

namespace warpfix {
class CallSites;
}

namespace warpfix {

/// The test of a function's own name that isSyncPrimitiveCall() makes first:
/// false only where that is false too.
inline bool mayBeSyncPrimitiveName(llvm::StringRef Name) {
  return Name.ends_with("_sync") || Name == "__syncwarp";
}

/// A call, outside the toolkit's headers, of one of the toolkit's *_sync
/// primitives or __syncwarp: a function declared in a system header whose
/// qualified name, with a leading "::", matches ^::__.*_sync$|^::__syncwarp$.
/// It sees every call of the user's code, so it tests the callee's own name
/// before building a qualified one.
bool isSyncPrimitiveCall(const clang::CallExpr &Call,
                         const clang::SourceManager &SM);

/// The member-mask argument of a call of a toolkit warp primitive that takes
/// one (__shfl*_sync, __ballot_sync, __any/__all/__uni_sync, __match_*_sync,
/// __reduce_*_sync, __syncwarp), or null for any other call.
const clang::Expr *memberMaskArgument(const clang::CallExpr &Call,
                                      const clang::ASTContext &Ctx);

/// The name of the primitive that Call invokes ("__shfl_down_sync").
llvm::StringRef primitiveName(const clang::CallExpr &Call);

/// Where a mask value is produced, following local variables and small
/// wrapper functions (`unsigned ACTIVE_MASK() { return __activemask(); }`).
struct MaskOrigin {
  /// The expression that produces the value: the one a fix would replace.
  const clang::Expr *Origin;
  /// The value reached the mask through a local variable.
  bool ThroughVariable;
  /// The value is and-ed with a constant before it becomes the mask
  /// (`__activemask() & 0xffff`): the expression that combines them, and the
  /// constant's side. Null when the value is the mask itself.
  const clang::BinaryOperator *CombinedBy = nullptr;
  const clang::Expr *Constant = nullptr;
  /// CombinedBy narrows a variable that holds the value (`m & 0xff`), not
  /// the value where it is produced.
  bool NarrowedAtUse = false;
};
/// With Calls, a parameter of a helper is followed into what its callers
/// pass (a mask taken in the caller and used in the helper).
std::vector<MaskOrigin> maskOrigins(const clang::Expr *Mask,
                                    clang::ASTContext &Ctx,
                                    const CallSites *Calls = nullptr);

/// A call of __activemask(), directly or through a wrapper function.
bool isActiveMaskCall(const clang::Expr *E, clang::ASTContext &Ctx);

/// A constant whose low 32 bits are all ones: 0xffffffff, ~0u, -1, UINT_MAX,
/// or a macro or constant equal to one of them.
bool isFullMaskConstant(const clang::Expr *E, const clang::ASTContext &Ctx);

/// A toolkit function whose result depends on its arguments alone and which
/// changes nothing (`fmaxf`, `__popc`, `min`): evaluating it again, or
/// earlier, gives the same value. An allow-list: `printf`, `malloc`, atomics,
/// clocks and warp primitives are not in it.
bool isPureToolkitCall(const clang::CallExpr &Call,
                       const clang::SourceManager &SM);

} // namespace warpfix

#endif
