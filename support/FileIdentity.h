// How every part of warpfix names a file and tells its versions apart: by its
// absolute path without dots, and by the hash of its content. The checks'
// findings, the result cache, the fix writer and the merge all compare files
// so, and must agree.
#ifndef WARPFIX_SUPPORT_FILEIDENTITY_H
#define WARPFIX_SUPPORT_FILEIDENTITY_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang {
class SourceManager;
} // namespace clang

namespace warpfix {

/// Hex XXH3-128 of a buffer.
std::string contentHash(llvm::StringRef Content);

/// Path made absolute against the process's working directory, without "."
/// or "..".
std::string absolutePath(llvm::StringRef Path);

/// Path made absolute against the TU's working directory, without dots.
std::string absolutePath(const clang::SourceManager &SM, llvm::StringRef Path);

} // namespace warpfix

#endif
