// Prints merged findings the way clang prints diagnostics: location, message,
// check name, the source line with a caret, fix-it hints, then notes.
#ifndef WARPFIX_TOOL_OUTPUT_TEXTREPORT_H
#define WARPFIX_TOOL_OUTPUT_TEXTREPORT_H

#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace warpfix {

void printTextReport(const std::vector<clang::tooling::Diagnostic> &Findings,
                     llvm::raw_ostream &OS, bool Colors);

} // namespace warpfix

#endif
