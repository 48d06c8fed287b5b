// nvcc hands an asm template to ptxas as written, so old code (CUB 1.x's
// util_ptx.cuh, and code copied from it) names PTX's special registers with
// a single '%' in extended asm: `asm("mov.u32 %0, %laneid;" : "=r"(lane))`.
// GCC's syntax wants `%%` there, and clang rejects the statement ("invalid %
// escape in inline assembly string"), which withholds the fixes of the
// function that holds it. warpfix shows clang such a template with each '%'
// doubled. To keep every offset, line and column that of the file on disk,
// each added '%' takes the place of a blank of the same string literal that
// PTX does not need (one after a comma, or one of two in a row); a literal
// with too few is left as it is. What clang sees of such a literal differs
// from the disk, so no fix may edit it (tool/run/Analyser.cpp).
#ifndef WARPFIX_TOOL_INPUT_ASMREGISTERS_H
#define WARPFIX_TOOL_INPUT_ASMREGISTERS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warpfix {

/// The byte ranges [begin, end) of the string literals that the rewrite
/// changes.
using ChangedLiterals = std::vector<std::pair<size_t, size_t>>;

/// Text with the special registers of its extended asm templates escaped as
/// above, or nothing when none is; Changed, if given, gets the literals that
/// differ.
std::optional<std::string>
escapeAsmSpecialRegisters(llvm::StringRef Text,
                          ChangedLiterals *Changed = nullptr);

} // namespace warpfix

#endif
