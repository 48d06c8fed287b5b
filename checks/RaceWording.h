// How the checks of shared-memory races name what a race's witness shows:
// an element, and the block it was found in.
#ifndef WARPFIX_CHECKS_RACEWORDING_H
#define WARPFIX_CHECKS_RACEWORDING_H

#include "checks/analysis/SharedAccesses.h"
#include <string>

namespace clang {
class ASTContext;
class Expr;
class VarDecl;
} // namespace clang

namespace warpfix {

/// The element at Offset bytes into Var, spelt as the source would name it:
/// `tile[1][3]`, `slots[2].flag`, `smem.sum[16]`. Of a union's or struct's
/// fields, those the access names are followed.
std::string elementName(const clang::VarDecl &Var, int64_t Offset,
                        const clang::Expr &Access, clang::ASTContext &Ctx);

/// ", in its launch with blocks of 256 threads", or the model the race
/// between warps was found in; nothing where the kernel's one launch is the
/// only block it runs in.
std::string blockOfWitness(const Race &R,
                           const WarpAssumptions::Launches &Launches);

} // namespace warpfix

#endif
