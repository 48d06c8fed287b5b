// The folder in which a run leaves its units' results for a later
// `warpfix --merge`: the build's compiler launcher, one compile at a time, or
// the shards of a run spread over a CI matrix. For each unit, `units/` holds
// its compile command (a compilation database's entry, or only its file in a
// run without one), and `results/` its result, in the result cache's format;
// --merge is then the run of those commands, whose units are replayed.
#ifndef WARPFIX_TOOL_RUN_RESULTSFOLDER_H
#define WARPFIX_TOOL_RUN_RESULTSFOLDER_H

#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <string>
#include <vector>

namespace warpfix {

/// Where Folder keeps the units' results: a result cache (ResultCache.h)
/// that keeps units with errors too.
std::string resultsCacheDirectory(llvm::StringRef Folder);

/// What else of the recording run --merge must know to run the unit as it
/// did: the folders searched for headers by name, and the folders whose
/// headers' findings are shown (the paths the run was given; none: the
/// working directory's, as for -p).
struct RunFolders {
  std::vector<std::string> SearchedByName;
  std::vector<std::string> Shown;
};

/// Records that the run analyses File with Command, or with no command of a
/// database (nullptr), replacing what an earlier compile of File recorded:
/// the build's latest flags for it are the ones that count.
llvm::Error recordUnit(llvm::StringRef Folder, llvm::StringRef File,
                       const clang::tooling::CompileCommand *Command,
                       const RunFolders &Folders);

/// Commands as a compilation database, read as --merge will read them once
/// recorded.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
databaseOfCommands(llvm::ArrayRef<clang::tooling::CompileCommand> Commands);

struct RecordedUnits {
  /// Every file recorded that still exists, sorted.
  std::vector<std::string> Files;
  /// The commands recorded; nullptr when no unit had one.
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  /// The recording runs' folders, together.
  RunFolders Folders;
  /// Files recorded that no longer exist (a source removed from the build),
  /// or whose command's directory no longer does (a build tree removed).
  std::vector<std::string> Gone;
};

/// What recordUnit left in Folder. An error for a folder that holds no unit,
/// a record that is not one (no absolute file, a command without arguments
/// or without an absolute directory), or units that are all gone.
llvm::Expected<RecordedUnits> readRecordedUnits(llvm::StringRef Folder);

} // namespace warpfix

#endif
