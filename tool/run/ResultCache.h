// Per-TU results kept on disk, so that a re-run over an unchanged code base
// replays its findings instead of parsing again. An entry is found by the TU's
// configuration (flags, checks, options, warpfix version) and its main file's
// content, and used only when every file the TU read still hashes the same.
#ifndef WARPFIX_TOOL_RUN_RESULTCACHE_H
#define WARPFIX_TOOL_RUN_RESULTCACHE_H

#include "tool/run/PathMemo.h"
#include "tool/run/UnitResult.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <mutex>
#include <optional>

namespace warpfix {

/// Content hashes of files, each computed once per run however many TUs
/// include the file.
class FileDigests {
public:
  /// Empty when the file cannot be read.
  std::string hashOf(llvm::StringRef Path);

private:
  PathMemo<std::string> Known;
};

class ResultCache {
public:
  /// Configuration holds everything besides the TU's own command line that
  /// changes its result (see cacheConfiguration in Profile.cpp).
  /// KeepsUnitsWithErrors: a results folder (ResultsFolder.h), whose units
  /// are the run's input and not a shortcut: a unit with clang errors is
  /// kept as analysed, where a cache would analyse it again; not one that
  /// missed a header, or found one by name, which a header added anywhere
  /// may change.
  ResultCache(std::string Directory, std::string Configuration,
              FileDigests &Digests, bool KeepsUnitsWithErrors = false)
      : Directory(std::move(Directory)),
        Configuration(std::move(Configuration)), Digests(Digests),
        KeepsUnitsWithErrors(KeepsUnitsWithErrors) {}

  /// The key of File's entry, or nothing when File cannot be read.
  std::optional<std::string>
  keyFor(llvm::StringRef File, const clang::tooling::CompileCommand &Command);
  std::optional<TranslationUnitResult> lookup(llvm::StringRef Key);
  /// Keeps a parsed or prefiltered result; others are analysed again.
  void store(llvm::StringRef Key, const TranslationUnitResult &Result);

  /// Problems met so far (an unreadable entry, an unwritable directory),
  /// each worth one warning; the cache never fails a run.
  std::vector<std::string> takeWarnings();

private:
  std::string entryPath(llvm::StringRef Key) const;
  void warn(std::string Message);

  std::string Directory;
  std::string Configuration;
  FileDigests &Digests;
  bool KeepsUnitsWithErrors;
  std::mutex Mutex;
  std::vector<std::string> Warnings;
  bool StoreFailed = false;
};

/// Where an edit of a cached finding applies, and the hash of the bytes it
/// replaces there (as clang read them), taken when the entry was written: a
/// replayed edit must still replace those bytes.
struct ReplacedText {
  std::string Path;
  unsigned Offset = 0, Length = 0;
  std::string Hash;
};

/// An entry's text: Result under Key, with the text its edits replace. Its
/// first line holds a hash of the rest, so that an entry changed in any way
/// is never replayed. Nothing when the result holds text that is not UTF-8,
/// which YAML would not give back unchanged.
std::optional<std::string>
formatCacheEntry(llvm::StringRef Key, const TranslationUnitResult &Result,
                 const std::vector<ReplacedText> &Replaced);

/// Payload with the first line formatCacheEntry gives it: its hash.
std::string sealCacheEntry(llvm::StringRef Payload);

struct StoredResult {
  /// The version of warpfix that wrote it.
  std::string Tool;
  /// As analysed then; its Dependencies are still to be checked.
  TranslationUnitResult Result;
  /// One for each edit of Result's findings, still to be checked against the
  /// files.
  std::vector<ReplacedText> Replaced;
};
/// Reads an entry's text written under Key; an error says why it is corrupt.
llvm::Expected<StoredResult> parseCacheEntry(llvm::MemoryBufferRef Text,
                                             llvm::StringRef Key);

/// What changes every TU's result besides its checks, options and command
/// line: this build of warpfix (its version, LLVM's, and a hash of the
/// executable, so that a rebuilt warpfix never replays an older build's
/// findings), the working directory (the findings' build directory), and the
/// include paths clang takes from the environment. MainAddress is any
/// function of the executable, to find it where argv[0] does not. Without
/// WithWorkingDirectory for a results folder, which a launcher writes from
/// the build's directories and --merge reads from anywhere: its commands name
/// their own directory.
std::string processCacheIdentity(const char *Argv0, void *MainAddress,
                                 bool WithWorkingDirectory = true);

/// $XDG_CACHE_HOME/warpfix, else ~/.cache/warpfix; empty if neither exists.
std::string defaultCacheDirectory();

} // namespace warpfix

#endif
