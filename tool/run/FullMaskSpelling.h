// A FullMaskSpelling that names a macro is a promise the configuration makes
// for every file it covers; a fix takes it at its word only where the macro
// is defined and its value is the full mask. Elsewhere (not defined, defined
// as 0 or as a subset of the lanes), writing it would give code that does not
// compile or, worse, a mask that leaves lanes out. The checks write the
// spelling; this reviews their edits, in the unit's preprocessor state,
// before the findings leave the unit.
#ifndef WARPFIX_TOOL_RUN_FULLMASKSPELLING_H
#define WARPFIX_TOOL_RUN_FULLMASKSPELLING_H

#include "checks/Check.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include <vector>

namespace warpfix {

/// For each finding whose check's FullMaskSpelling is a name: an edit that
/// writes the name where, in some inclusion of its file, it is not an
/// object-like macro whose value is 0xffffffff writes 0xffffffff instead,
/// and the finding says why in a note; if the text the edit replaces already
/// holds the name, the finding loses its fix instead, with the reason.
void reviewFullMaskSpellings(std::vector<clang::tooling::Diagnostic> &Findings,
                             clang::Preprocessor &PP,
                             const CheckOptions &Options);

} // namespace warpfix

#endif
