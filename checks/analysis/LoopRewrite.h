// When a loop whose trip count differs between the lanes of a warp can be
// rewritten so that the lanes that enter it stay in it until none has an
// iteration left (LaneCondition::Loop, written by MaskFix).
#ifndef WARPFIX_CHECKS_ANALYSIS_LOOPREWRITE_H
#define WARPFIX_CHECKS_ANALYSIS_LOOPREWRITE_H

#include "checks/analysis/Exits.h"
#include "clang/AST/ASTContext.h"
#include <optional>
#include <string>

namespace warpfix {

/// Why a loop whose condition is lane-dependent cannot be rewritten so that
/// its lanes stay together (LaneCondition::Loop), or nothing when it can: a
/// for or while loop with a braced body, whose condition a lane whose
/// condition has failed can evaluate again and get false again (it reads
/// only the thread's own registers and memory no device code writes, and
/// such a lane runs nothing else of the loop), and whose body has no exit
/// (break, return, goto, a thread exit) that the rewrite would move, nor a
/// continue that would skip the increment it moves into the body.
std::optional<std::string> loopRewriteRefusal(const clang::Stmt *Loop,
                                              clang::ASTContext &Ctx,
                                              ExitingFunctions &Exiting);

} // namespace warpfix

#endif
