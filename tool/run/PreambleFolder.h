// Where the PCH files of shared preambles are written: a folder of this run's
// own in the temporary directory, locked while the run lives. clang removes
// each PCH when its preamble goes, but a run killed meanwhile (KILL, TERM or
// INT during a build) left its files behind, 6 MB each, and no later run
// removed them. Each run now removes the folders whose lock nobody holds: a
// process's locks end with it, however it ends.
#ifndef WARPFIX_TOOL_RUN_PREAMBLEFOLDER_H
#define WARPFIX_TOOL_RUN_PREAMBLEFOLDER_H

#include "llvm/ADT/StringRef.h"
#include <mutex>
#include <string>

namespace warpfix {

class PreambleFolder {
public:
  PreambleFolder() = default;
  PreambleFolder(const PreambleFolder &) = delete;
  PreambleFolder &operator=(const PreambleFolder &) = delete;
  /// Removes the folder and what is left in it.
  ~PreambleFolder();

  /// The folder, made on the first call, after the abandoned ones are
  /// removed; empty when it cannot be made (clang then writes to the
  /// temporary directory itself).
  llvm::StringRef path();

private:
  std::once_flag Made;
  std::string Path;
  int Lock = -1;
};

} // namespace warpfix

#endif
