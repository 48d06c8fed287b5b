// Which files a run analyses: the paths given, directories walked for CUDA
// sources, and each file checked to be one clang can read.
#ifndef WARPFIX_TOOL_INPUT_SOURCEFILES_H
#define WARPFIX_TOOL_INPUT_SOURCEFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// Expands the given paths into the files to analyse: files as named, and
/// directories searched recursively for `.cu` files (for `.cuh` headers
/// where they hold no `.cu` file, as for a folder of headers). Each real file (device
/// and inode) is listed once, by a name that goes through no symbolic link
/// where it has one; a directory reached again through a link is not walked
/// again, so link loops end. A link that leads out of the directory given is
/// not followed, and said so in Warnings, as are directories without CUDA
/// files. A dangling link named `.cu` is listed, for unusableSourceFile to
/// report. A path that does not exist is an error.
llvm::Expected<std::vector<std::string>>
collectSourceFiles(llvm::ArrayRef<std::string> Paths,
                   std::vector<std::string> &Warnings);

/// The headers (.cuh, .h, .hpp, .inl and their kin) under the directories
/// among Paths, walked as collectSourceFiles walks them; a file named in
/// Paths is not one of them. Warnings of the walk are not repeated.
std::vector<std::string>
collectHeadersUnder(llvm::ArrayRef<std::string> Paths);

/// Why File cannot be analysed, in words for the user: it does not exist, is
/// a dangling symbolic link, cannot be read, is a directory, or is binary.
/// Nothing when it can be.
std::optional<std::string> unusableSourceFile(llvm::StringRef File);

/// Files without those that unusableSourceFile refuses; its reasons are added
/// to Problems, in the order of Files.
std::vector<std::string>
usableSourceFiles(llvm::ArrayRef<std::string> Files,
                  std::vector<std::string> &Problems);

} // namespace warpfix

#endif
