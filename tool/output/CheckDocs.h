// The check docs (docs/checks/<check>.md), embedded at build time so that
// --explain works wherever the binary is, with nothing else installed.
#ifndef WARPFIX_TOOL_OUTPUT_CHECKDOCS_H
#define WARPFIX_TOOL_OUTPUT_CHECKDOCS_H

#include "llvm/ADT/StringRef.h"
#include <optional>

namespace warpfix {

/// The text of docs/checks/<Check>.md as it was when the binary was built.
std::optional<llvm::StringRef> checkDocumentation(llvm::StringRef Check);

} // namespace warpfix

#endif
