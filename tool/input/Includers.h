// A header named on the command line (by a pre-commit hook, by a user) is
// analysed through the units that include it: alone it has no callers, so
// its code abstains, and the parse that takes it alone knows none of the
// macros and types its includers define before it.
#ifndef WARPFIX_TOOL_INPUT_INCLUDERS_H
#define WARPFIX_TOOL_INPUT_INCLUDERS_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace warpfix {

/// Whether File's name is a C, C++ or CUDA header's (.cuh, .h, .hpp, ...).
bool isHeaderName(llvm::StringRef File);

/// The units of Candidates that include one of Headers, directly or through
/// the headers under Tree. Found by the file names that #include lines
/// write, whatever their folder: more units than clang would include the
/// header in (two headers of one name), never fewer, save an #include
/// whose name a macro computes. The parse of each tells which really did.
std::vector<std::string>
unitsIncluding(llvm::ArrayRef<std::string> Headers,
               llvm::ArrayRef<std::string> Candidates, llvm::StringRef Tree);

struct HeaderIncluders {
  /// The headers among the files named.
  std::vector<std::string> Headers;
  /// Every unit found that includes one of them.
  std::vector<std::string> Includers;
  /// Those of them that were not named already.
  std::vector<std::string> Added;
  /// Where they were looked for: the current folder, or the first header's
  /// folder for a header outside it.
  std::string Tree;
};

/// The units that include the headers among Files: among the .cu files of
/// Database, else among those under the Tree.
HeaderIncluders
findIncluders(llvm::ArrayRef<std::string> Files,
              const clang::tooling::CompilationDatabase *Database);

} // namespace warpfix

#endif
