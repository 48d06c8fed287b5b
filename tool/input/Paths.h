// Path helpers shared by the driver's parts: every file is compared by its
// absolute, dot-free name.
#ifndef WARPFIX_TOOL_INPUT_PATHS_H
#define WARPFIX_TOOL_INPUT_PATHS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace warpfix {

/// Path made absolute against the process's working directory, without "."
/// or "..".
std::string absolutePath(llvm::StringRef Path);

/// Whether Path is Root or lies below it.
bool isUnder(llvm::StringRef Path, llvm::StringRef Root);

} // namespace warpfix

#endif
