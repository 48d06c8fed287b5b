// The project's files by name, for an #include that the compile command's
// paths do not find: where exactly one file under the run's folders has the
// path the directive names, its folder is the one the build must have meant
// (a header that CMake generates next to the sources, a vendored library
// that a build script adds with -I). Two or more candidates are a guess, and
// none is taken.
#ifndef WARPFIX_TOOL_INPUT_HEADERSBYNAME_H
#define WARPFIX_TOOL_INPUT_HEADERSBYNAME_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

class HeadersByName {
public:
  /// Roots: the folders to search (the paths given, the build directory).
  explicit HeadersByName(std::vector<std::string> Roots)
      : Roots(std::move(Roots)) {}

  /// The folder F such that F/Written is the only file under the roots whose
  /// path ends with Written ("config.h", "af/version.h"), if there is one.
  /// The roots are walked on the first call; safe from several threads.
  std::optional<std::string> folderFor(llvm::StringRef Written) const;

  /// The candidate for Written had errors in a unit's parse: no unit of the
  /// run tries it again (each try costs two more parses).
  void reject(llvm::StringRef Written) const;

private:
  void walk() const;

  std::vector<std::string> Roots;
  mutable std::once_flag Walked;
  /// Every file under the roots, by its file name.
  mutable llvm::StringMap<std::vector<std::string>> ByFileName;
  mutable std::mutex RejectedMutex;
  mutable llvm::StringSet<> Rejected;
};

/// The arguments that make a parse search the folders of the headers Found
/// by name (name as written, folder) after every include path of its
/// command, as the last resort they are, and read those headers as the
/// project's own, not as system headers, whose code no check looks at.
std::vector<std::string>
searchedLast(llvm::ArrayRef<std::pair<std::string, std::string>> Found);

} // namespace warpfix

#endif
