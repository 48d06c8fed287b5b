// Path helpers shared by the driver's parts: every file is compared by its
// absolute, dot-free name.
#ifndef WARPFIX_TOOL_INPUT_PATHS_H
#define WARPFIX_TOOL_INPUT_PATHS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace warpfix {

/// Path (absolute) relative to the process's working directory, when it lies
/// below it: how the reports name a file (the diff's a/ b/ names, SARIF's
/// %SRCROOT%, the progress line).
std::optional<llvm::StringRef> belowCurrentDirectory(llvm::StringRef Path);

/// Whether Path is Root or lies below it.
bool isUnder(llvm::StringRef Path, llvm::StringRef Root);

/// Whether the file at Path lies under one of Roots once the file system has
/// resolved it: the driver reaches libstdc++ through names such as
/// gcc/x86_64-linux-gnu/12/../../../../include, which only the file system
/// can resolve (/lib may be a link to usr/lib). False where it cannot be
/// resolved.
bool resolvesUnderAny(llvm::StringRef Path, llvm::ArrayRef<std::string> Roots);

} // namespace warpfix

#endif
