// A shared preamble is built in a process of its own (issue 18, part 2).
// Writing a PCH holds the headers' AST, the ASTWriter's tables and the PCH's
// bytes all at once: built inside a worker, that was the worker's peak, 13%
// above its peak without sharing on the bench's code base. A child process
// hands all of it back when it exits, and the worker reads the PCH from disk
// lazily, as it would have read its own.
//
// The child is warpfix itself, run with BuildPreambleCommand as its first
// argument: main() passes it straight to buildPreambleMain(). It rebuilds
// the unit's invocation from its -cc1 arguments and its file system from
// the working directory, exactly as the worker's (launch chevrons joined),
// and answers with a JSON file.
#ifndef WARPFIX_TOOL_RUN_PREAMBLEPROCESS_H
#define WARPFIX_TOOL_RUN_PREAMBLEPROCESS_H

#include "tool/run/Analyzer.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warpfix {

/// What the child built, and what it read to build it.
struct BuiltPreamble {
  /// Empty when the PCH was written and may be shared.
  std::string WhyNot;
  /// Every file it read, by the name clang opened it with (as the result
  /// cache names dependencies), with the SHA-256 of what it read.
  std::vector<FileDigest> Files;
  std::vector<std::string> ReadPaths;
  /// The same files with a fast hash of their content, compared before each
  /// use. PrecompiledPreamble::CanReuse compares sizes and modification
  /// times only, which miss an edit of the same size within a second.
  std::vector<std::pair<std::string, uint64_t>> Fingerprints;
  /// The length and xxh3 of the main file's leading text it covers: the
  /// worker checks that it read the same.
  size_t PreambleBytes = 0;
  uint64_t PreambleHash = 0;
};

/// The first argument that makes warpfix a preamble builder.
inline constexpr llvm::StringLiteral BuildPreambleCommand =
    "--internal-build-shared-preamble";

/// The child's main: Args are what follows BuildPreambleCommand. Returns the
/// process's exit code; 0 whenever it wrote its answer.
int buildPreambleMain(llvm::ArrayRef<const char *> Args);

/// Runs a child that builds the preamble of Invocation's main file, read
/// from WorkingDirectory, into PCHPath. WhyNot says why there is none to
/// share: the child failed, crashed or could not be started, clang reported
/// something, or a user header was read. Builder: the program to run in
/// place of warpfix itself, if not empty (for tests).
BuiltPreamble buildPreambleInChildProcess(
    const clang::CompilerInvocation &Invocation,
    llvm::StringRef WorkingDirectory, llvm::StringRef PCHPath,
    llvm::StringRef Builder = {});

} // namespace warpfix

#endif
