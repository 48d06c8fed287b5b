#include "tool/run/ResultCache.h"
#include "support/FileIdentity.h"
#include "tool/BuildConfig.h"
#include "tool/input/LaunchChevrons.h"
#include "tool/input/RegularFile.h"
#include "tool/input/YamlInput.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/xxhash.h"
#include <map>
#include <set>
#include <tuple>

namespace warpfix {
namespace {

/// Bumped whenever the layout below changes, so that old entries are
/// recomputed rather than misread.
constexpr unsigned EntryFormat = 5;

/// An entry's first line: this, then the SHA-256 of the rest of the entry, a
/// hash that tests can compute too.
constexpr llvm::StringLiteral ChecksumPrefix =
    "# warpfix cache entry, sha256 ";

std::string checksum(llvm::StringRef Payload) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Payload)),
                     /*LowerCase=*/true);
}

/// TranslationUnitResult::SkippedText of one file: begin, end, begin, ...
struct SkippedInFile {
  std::string Path;
  std::vector<unsigned> Offsets;
};

struct CacheEntry {
  unsigned Format = 0;
  std::string Tool;
  std::string Key;
  bool SkippedByPrefilter = false;
  std::vector<FileDigest> Dependencies;
  std::vector<FileDigest> FileHashes;
  std::vector<clang::tooling::Diagnostic> Findings;
  std::vector<clang::tooling::Diagnostic> Suppressed;
  std::vector<ReplacedText> Replaced;
  std::vector<SkippedInFile> SkippedText;
  bool ArchRecorded = false, ArchOpaque = false;
  std::vector<unsigned> ArchNumbers;
  std::string ArchNvccOnlyMacro;
  // What a unit with errors needs (kept in results folders only).
  unsigned ErrorCount = 0;
  std::string FirstError;
  std::string CompilerMessages;
  std::vector<std::string> FilesWithErrors;
};

} // namespace
} // namespace warpfix

LLVM_YAML_IS_SEQUENCE_VECTOR(warpfix::FileDigest)
LLVM_YAML_IS_SEQUENCE_VECTOR(warpfix::ReplacedText)
LLVM_YAML_IS_SEQUENCE_VECTOR(warpfix::SkippedInFile)

namespace llvm::yaml {
template <> struct MappingTraits<warpfix::FileDigest> {
  static void mapping(IO &Io, warpfix::FileDigest &Digest) {
    Io.mapRequired("Path", Digest.Path);
    Io.mapRequired("Hash", Digest.Hash);
  }
};
template <> struct MappingTraits<warpfix::ReplacedText> {
  static void mapping(IO &Io, warpfix::ReplacedText &Replaced) {
    Io.mapRequired("Path", Replaced.Path);
    Io.mapRequired("Offset", Replaced.Offset);
    Io.mapRequired("Length", Replaced.Length);
    Io.mapRequired("Hash", Replaced.Hash);
  }
  static const bool flow = true;
};
template <> struct MappingTraits<warpfix::SkippedInFile> {
  static void mapping(IO &Io, warpfix::SkippedInFile &Skipped) {
    Io.mapRequired("Path", Skipped.Path);
    Io.mapRequired("Offsets", Skipped.Offsets);
  }
  static const bool flow = true;
};
template <> struct MappingTraits<warpfix::CacheEntry> {
  static void mapping(IO &Io, warpfix::CacheEntry &Entry) {
    Io.mapRequired("Format", Entry.Format);
    Io.mapRequired("Tool", Entry.Tool);
    Io.mapRequired("Key", Entry.Key);
    Io.mapRequired("SkippedByPrefilter", Entry.SkippedByPrefilter);
    Io.mapRequired("Dependencies", Entry.Dependencies);
    Io.mapRequired("FileHashes", Entry.FileHashes);
    Io.mapRequired("Findings", Entry.Findings);
    Io.mapRequired("Suppressed", Entry.Suppressed);
    Io.mapRequired("Replaced", Entry.Replaced);
    Io.mapRequired("SkippedText", Entry.SkippedText);
    Io.mapRequired("ArchRecorded", Entry.ArchRecorded);
    Io.mapRequired("ArchOpaque", Entry.ArchOpaque);
    Io.mapRequired("ArchNumbers", Entry.ArchNumbers);
    Io.mapRequired("ArchNvccOnlyMacro", Entry.ArchNvccOnlyMacro);
    Io.mapRequired("ErrorCount", Entry.ErrorCount);
    Io.mapRequired("FirstError", Entry.FirstError);
    Io.mapRequired("CompilerMessages", Entry.CompilerMessages);
    Io.mapRequired("FilesWithErrors", Entry.FilesWithErrors);
  }
};
} // namespace llvm::yaml

namespace warpfix {

std::string FileDigests::hashOf(llvm::StringRef Path) {
  return Known.get(Path, [&] {
    auto Buffer = readRegularFile(Path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      llvm::consumeError(Buffer.takeError());
      return std::string();
    }
    // As clang's buffers hold it, which the dependencies were hashed from.
    return hashAsClangReadsIt((*Buffer)->getBuffer());
  });
}

std::string processCacheIdentity(const char *Argv0, void *MainAddress,
                                 bool WithWorkingDirectory) {
  std::string Identity =
      std::string("warpfix ") + WARPFIX_VERSION + ", LLVM " WARPFIX_LLVM_VERSION;
  std::string Executable = llvm::sys::fs::getMainExecutable(Argv0, MainAddress);
  if (auto Binary = llvm::MemoryBuffer::getFile(Executable, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false)) {
    llvm::XXH128_hash_t Hash =
        llvm::xxh3_128bits(llvm::arrayRefFromStringRef((*Binary)->getBuffer()));
    Identity += ", build " + llvm::utohexstr(Hash.high64) + "-" +
                llvm::utohexstr(Hash.low64);
  }
  if (WithWorkingDirectory) {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    Identity += std::string(1, '\0') + Cwd.str().str();
  }
  for (const char *Variable : {"CPATH", "CPLUS_INCLUDE_PATH"}) {
    Identity += std::string(1, '\0') + Variable + "=";
    if (std::optional<std::string> Value = llvm::sys::Process::GetEnv(Variable))
      Identity += *Value;
  }
  return Identity;
}

std::string defaultCacheDirectory() {
  llvm::SmallString<256> Dir;
  if (!llvm::sys::path::cache_directory(Dir))
    return "";
  llvm::sys::path::append(Dir, "warpfix");
  return std::string(Dir);
}

std::optional<std::string>
ResultCache::keyFor(llvm::StringRef File,
                    const clang::tooling::CompileCommand &Command) {
  std::string MainHash = Digests.hashOf(File);
  if (MainHash.empty())
    return std::nullopt;
  // NUL separates the parts: no argument or path contains one.
  std::string Material = Configuration;
  for (llvm::StringRef Part : {llvm::StringRef(File),
                               llvm::StringRef(Command.Directory),
                               llvm::StringRef(MainHash)}) {
    Material += '\0';
    Material += Part;
  }
  for (const std::string &Arg : Command.CommandLine) {
    Material += '\0';
    Material += Arg;
  }
  return contentHash(Material);
}

std::string ResultCache::entryPath(llvm::StringRef Key) const {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, Key + ".yaml");
  return std::string(Path);
}

void ResultCache::warn(std::string Message) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Warnings.push_back(std::move(Message));
}

std::vector<std::string> ResultCache::takeWarnings() {
  std::lock_guard<std::mutex> Lock(Mutex);
  // Sorted: the threads that met the problems finish in any order.
  llvm::sort(Warnings);
  return std::move(Warnings);
}

namespace {

bool isText(llvm::StringRef S) { return llvm::json::isUTF8(S); }

bool isText(const clang::tooling::DiagnosticMessage &M) {
  if (!isText(M.Message) || !isText(M.FilePath))
    return false;
  for (const auto &Entry : M.Fix) {
    if (!isText(Entry.getKey()))
      return false;
    for (const clang::tooling::Replacement &R : Entry.second)
      if (!isText(R.getFilePath()) || !isText(R.getReplacementText()))
        return false;
  }
  return llvm::all_of(M.Ranges, [](const clang::tooling::FileByteRange &R) {
    return isText(R.FilePath);
  });
}

/// YAML output replaces a byte that is not UTF-8, and drops the rest of the
/// string, so such a result would come back changed: a fix that copies a
/// Latin-1 comment would be replayed as broken code.
bool isText(const CacheEntry &Entry) {
  for (const auto *Findings : {&Entry.Findings, &Entry.Suppressed})
    for (const clang::tooling::Diagnostic &D : *Findings)
      if (!isText(D.DiagnosticName) || !isText(D.BuildDirectory) ||
          !isText(D.Message) || !llvm::all_of(D.Notes, [](const auto &N) {
            return isText(N);
          }))
        return false;
  for (const auto *Digests : {&Entry.Dependencies, &Entry.FileHashes})
    for (const FileDigest &Digest : *Digests)
      if (!isText(Digest.Path) || !isText(Digest.Hash))
        return false;
  if (!llvm::all_of(Entry.FilesWithErrors,
                    [](const std::string &S) { return isText(S); }))
    return false;
  return isText(Entry.FirstError) && isText(Entry.CompilerMessages) &&
         llvm::all_of(Entry.Replaced, [](const ReplacedText &R) {
           return isText(R.Path) && isText(R.Hash);
         });
}

/// Calls Visit on every edit of Result's findings, their notes' included.
void forEachEdit(
    const TranslationUnitResult &Result,
    llvm::function_ref<void(const clang::tooling::Replacement &)> Visit) {
  auto OfMessage = [&](const clang::tooling::DiagnosticMessage &M) {
    for (const auto &Entry : M.Fix)
      for (const clang::tooling::Replacement &R : Entry.second)
        Visit(R);
  };
  for (const auto *Findings : {&Result.Findings, &Result.Suppressed})
    for (const clang::tooling::Diagnostic &D : *Findings) {
      OfMessage(D.Message);
      for (const clang::tooling::DiagnosticMessage &Note : D.Notes)
        OfMessage(Note);
    }
}

/// A file's content as clang is shown it (the text its offsets and hashes
/// are of), or nothing if it cannot be read.
std::optional<std::string> readAsClangReadsIt(llvm::StringRef Path) {
  auto Buffer = readRegularFile(Path, /*IsText=*/false,
                                /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    llvm::consumeError(Buffer.takeError());
    return std::nullopt;
  }
  llvm::StringRef Text = (*Buffer)->getBuffer();
  return asClangReadsIt(Text).value_or(Text.str());
}

/// The bytes of Text that Offset and Length name, if it holds them.
std::optional<llvm::StringRef> slice(llvm::StringRef Text, unsigned Offset,
                                     unsigned Length) {
  if (Offset > Text.size() || Length > Text.size() - Offset)
    return std::nullopt;
  return Text.substr(Offset, Length);
}

/// What each edit of Result replaces, read from the files, which must still
/// hold what was analysed; nothing if one does not.
std::optional<std::vector<ReplacedText>>
replacedTexts(const TranslationUnitResult &Result) {
  std::map<std::tuple<std::string, unsigned, unsigned>, std::string> Hashes;
  llvm::StringMap<std::optional<std::string>> Contents;
  bool Fits = true;
  forEachEdit(Result, [&](const clang::tooling::Replacement &R) {
    std::string Path = R.getFilePath().str();
    auto Place = std::make_tuple(Path, R.getOffset(), R.getLength());
    if (!Fits || Hashes.count(Place))
      return;
    auto [It, New] = Contents.try_emplace(Path);
    if (New) {
      It->second = readAsClangReadsIt(Path);
      auto Analysed = Result.FileHashes.find(Path);
      if (Analysed == Result.FileHashes.end() ||
          (It->second && contentHash(*It->second) != Analysed->second))
        It->second.reset();
    }
    std::optional<llvm::StringRef> Replaced =
        It->second ? slice(*It->second, R.getOffset(), R.getLength())
                   : std::nullopt;
    if (!Replaced) {
      Fits = false;
      return;
    }
    Hashes[Place] = contentHash(*Replaced);
  });
  if (!Fits)
    return std::nullopt;
  std::vector<ReplacedText> Replaced;
  for (auto &[Place, Hash] : Hashes)
    Replaced.push_back(
        {std::get<0>(Place), std::get<1>(Place), std::get<2>(Place), Hash});
  return Replaced;
}

/// Why the recorded edits do not replace, in the files as they are, the
/// text they were made for; nothing if they do.
std::optional<std::string> misfit(const std::vector<ReplacedText> &Replaced) {
  llvm::StringMap<std::optional<std::string>> Contents;
  for (const ReplacedText &R : Replaced) {
    auto [It, New] = Contents.try_emplace(R.Path);
    if (New)
      It->second = readAsClangReadsIt(R.Path);
    if (!It->second)
      return "cannot read '" + R.Path + "'";
    std::optional<llvm::StringRef> Text =
        slice(*It->second, R.Offset, R.Length);
    std::string Where = "an edit at offset " + std::to_string(R.Offset) +
                        " of '" + R.Path + "'";
    if (!Text)
      return Where + " lies outside the file";
    if (contentHash(*Text) != R.Hash)
      return Where + " does not replace the text it was made for";
  }
  return std::nullopt;
}

CacheEntry entryFor(llvm::StringRef Key, const TranslationUnitResult &Result) {
  CacheEntry Entry;
  Entry.Format = EntryFormat;
  Entry.Tool = WARPFIX_VERSION;
  Entry.Key = Key.str();
  Entry.SkippedByPrefilter = Result.SkippedByPrefilter;
  Entry.Dependencies = Result.Dependencies;
  for (const auto &Hash : Result.FileHashes)
    Entry.FileHashes.push_back({Hash.getKey().str(), Hash.getValue()});
  llvm::sort(Entry.FileHashes, [](const FileDigest &A, const FileDigest &B) {
    return A.Path < B.Path;
  });
  Entry.Findings = Result.Findings;
  Entry.Suppressed = Result.Suppressed;
  for (const auto &File : Result.SkippedText) {
    SkippedInFile &Skipped = Entry.SkippedText.emplace_back();
    Skipped.Path = File.getKey().str();
    for (auto [Begin, End] : File.getValue())
      llvm::append_range(Skipped.Offsets,
                         std::initializer_list<unsigned>{Begin, End});
  }
  llvm::sort(Entry.SkippedText,
             [](const SkippedInFile &A, const SkippedInFile &B) {
               return A.Path < B.Path;
             });
  Entry.ArchRecorded = Result.ArchRecorded;
  Entry.ArchOpaque = Result.ArchDependence.Opaque;
  Entry.ArchNumbers = Result.ArchDependence.Numbers;
  Entry.ArchNvccOnlyMacro = Result.ArchDependence.NvccOnlyMacro;
  Entry.ErrorCount = Result.ErrorCount;
  Entry.FirstError = Result.FirstError;
  Entry.CompilerMessages = Result.CompilerMessages;
  Entry.FilesWithErrors = Result.FilesWithErrors;
  return Entry;
}

std::string formatted(CacheEntry &Entry) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output Out(OS);
  Out << Entry;
  return Text;
}

} // namespace

std::optional<std::string>
formatCacheEntry(llvm::StringRef Key, const TranslationUnitResult &Result,
                 const std::vector<ReplacedText> &Replaced) {
  CacheEntry Entry = entryFor(Key, Result);
  Entry.Replaced = Replaced;
  if (!isText(Entry))
    return std::nullopt;
  return sealCacheEntry(formatted(Entry));
}

std::string sealCacheEntry(llvm::StringRef Payload) {
  return (ChecksumPrefix + checksum(Payload) + "\n" + Payload).str();
}

llvm::Expected<StoredResult> parseCacheEntry(llvm::MemoryBufferRef Text,
                                             llvm::StringRef Key) {
  auto Corrupt = [](const llvm::Twine &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Why);
  };
  // Whatever its bytes: a changed offset or mask replayed would be a wrong
  // fix, reported as fixed.
  auto [Checksum, Payload] = Text.getBuffer().split('\n');
  if (!Checksum.consume_front(ChecksumPrefix) ||
      Checksum != checksum(Payload))
    return Corrupt("its checksum does not match its content");
  CacheEntry Entry;
  if (std::optional<YamlProblem> Problem = readYaml(
          llvm::MemoryBufferRef(Payload, Text.getBufferIdentifier()), Entry))
    return Corrupt(Problem->Message);
  if (Entry.Format != EntryFormat)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "format %u, not %u", Entry.Format,
                                   EntryFormat);
  if (Entry.Key != Key)
    return Corrupt("it holds another key");
  StoredResult Stored;
  Stored.Tool = std::move(Entry.Tool);
  TranslationUnitResult &Result = Stored.Result;
  Result.Parsed = true;
  Result.FromCache = true;
  Result.SkippedByPrefilter = Entry.SkippedByPrefilter;
  Result.Findings = std::move(Entry.Findings);
  Result.Suppressed = std::move(Entry.Suppressed);
  for (FileDigest &Digest : Entry.FileHashes)
    Result.FileHashes[Digest.Path] = std::move(Digest.Hash);
  Result.Dependencies = std::move(Entry.Dependencies);
  Result.ArchRecorded = Entry.ArchRecorded;
  Result.ArchDependence.Opaque = Entry.ArchOpaque;
  Result.ArchDependence.Numbers = std::move(Entry.ArchNumbers);
  Result.ArchDependence.NvccOnlyMacro = std::move(Entry.ArchNvccOnlyMacro);
  Result.ErrorCount = Entry.ErrorCount;
  Result.FirstError = std::move(Entry.FirstError);
  Result.CompilerMessages = std::move(Entry.CompilerMessages);
  Result.FilesWithErrors = std::move(Entry.FilesWithErrors);
  for (const SkippedInFile &Skipped : Entry.SkippedText) {
    if (Skipped.Offsets.size() % 2)
      return Corrupt("a skipped range has no end");
    auto &Ranges = Result.SkippedText[Skipped.Path];
    for (size_t I = 0; I < Skipped.Offsets.size(); I += 2)
      Ranges.push_back({Skipped.Offsets[I], Skipped.Offsets[I + 1]});
  }
  std::set<std::tuple<llvm::StringRef, unsigned, unsigned>> Recorded;
  for (const ReplacedText &R : Entry.Replaced)
    Recorded.insert({R.Path, R.Offset, R.Length});
  bool Unrecorded = false;
  forEachEdit(Result, [&](const clang::tooling::Replacement &R) {
    Unrecorded |= !Recorded.count({R.getFilePath(), R.getOffset(),
                                   R.getLength()});
  });
  if (Unrecorded)
    return Corrupt("an edit has no record of the text it replaces");
  Stored.Replaced = std::move(Entry.Replaced);
  return Stored;
}

std::optional<TranslationUnitResult>
ResultCache::lookup(llvm::StringRef Key) {
  std::string Path = entryPath(Key);
  auto Buffer = readRegularFile(Path, /*IsText=*/false);
  if (!Buffer) {
    std::error_code Code;
    std::string Why;
    llvm::handleAllErrors(Buffer.takeError(),
                          [&](const llvm::ErrorInfoBase &E) {
                            Code = E.convertToErrorCode();
                            Why = E.message();
                          });
    if (Code != std::errc::no_such_file_or_directory)
      warn("cannot read cache entry '" + Path + "': " + Why +
           "; analysing again");
    return std::nullopt;
  }
  llvm::Expected<StoredResult> Stored = parseCacheEntry(**Buffer, Key);
  if (!Stored) {
    warn("ignoring corrupt cache entry '" + Path +
         "': " + llvm::toString(Stored.takeError()) + "; analysing again");
    return std::nullopt;
  }
  if (Stored->Tool != WARPFIX_VERSION)
    return std::nullopt;
  for (const FileDigest &Dependency : Stored->Result.Dependencies)
    if (Digests.hashOf(Dependency.Path) != Dependency.Hash)
      return std::nullopt;
  if (std::optional<std::string> Why = misfit(Stored->Replaced)) {
    warn("ignoring corrupt cache entry '" + Path + "': " + *Why +
         "; analysing again");
    return std::nullopt;
  }
  return std::move(Stored->Result);
}

void ResultCache::store(llvm::StringRef Key,
                        const TranslationUnitResult &Result) {
  // A TU with errors is analysed again each time: its error count and
  // first error are not kept, and its header is likely to be fixed soon. So
  // is one that needed a header found by name: a file of the same name
  // added anywhere under the roots changes what is found, and no key sees it.
  // A results folder keeps a unit with errors, unless a header was missing
  // or found by name: a header that appears later, where no key looks,
  // changes the unit.
  if (!Result.Parsed || Result.Dependencies.empty() ||
      !Result.FoundByName.empty() || !Result.MissingHeaders.empty() ||
      (Result.ErrorCount && !KeepsUnitsWithErrors))
    return;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (StoreFailed)
      return;
  }
  // Nor one whose files changed since they were analysed.
  std::optional<std::vector<ReplacedText>> Replaced = replacedTexts(Result);
  if (!Replaced)
    return;
  std::optional<std::string> Text = formatCacheEntry(Key, Result, *Replaced);
  if (!Text)
    return;

  auto Fail = [&](const llvm::Twine &What, std::error_code EC) {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!StoreFailed)
      Warnings.push_back(("cannot " + What + ": " + EC.message() +
                          "; results are not cached")
                             .str());
    StoreFailed = true;
  };
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory))
    return Fail("create the cache directory '" + Directory + "'", EC);
  // Written aside and renamed into place, so that a reader (another warpfix
  // running at the same time) sees a whole entry or none.
  llvm::SmallString<256> Temporary;
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Directory + "/.entry-%%%%%%%%.tmp", FD, Temporary))
    return Fail("write to the cache directory '" + Directory + "'", EC);
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << *Text;
    OS.close();
    // A full disk must not leave a truncated entry behind for the next run.
    if (std::error_code EC = OS.error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temporary);
      return Fail("write to the cache directory '" + Directory + "'", EC);
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, entryPath(Key))) {
    llvm::sys::fs::remove(Temporary);
    Fail("write to the cache directory '" + Directory + "'", EC);
  }
}

} // namespace warpfix
