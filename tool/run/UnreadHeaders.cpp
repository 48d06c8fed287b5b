#include "tool/run/UnreadHeaders.h"
#include "tool/run/Analyser.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include <set>

namespace warpfix {

namespace {

/// The files that some unit read, by device and inode: a header reached
/// through a link, or by another spelling of its path, is still the one read.
std::set<llvm::sys::fs::UniqueID>
filesRead(llvm::ArrayRef<TranslationUnitResult> Units) {
  llvm::StringSet<> Paths;
  for (const TranslationUnitResult &Unit : Units) {
    Paths.insert(Unit.MainFile);
    for (const FileDigest &Read : Unit.Dependencies)
      Paths.insert(Read.Path);
    for (const std::string &Read : Unit.FilesRead)
      Paths.insert(Read);
    // A header that a unit read lexically (one that only a skipped branch
    // includes) holds its findings.
    for (const clang::tooling::Diagnostic &D : Unit.Findings)
      Paths.insert(D.Message.FilePath);
  }
  std::set<llvm::sys::fs::UniqueID> IDs;
  for (const auto &Path : Paths) {
    llvm::sys::fs::UniqueID ID;
    if (!llvm::sys::fs::getUniqueID(Path.getKey(), ID))
      IDs.insert(ID);
  }
  return IDs;
}

} // namespace

llvm::Expected<UnreadHeaders>
scanUnreadHeaders(llvm::ArrayRef<std::string> Headers,
                  llvm::ArrayRef<TranslationUnitResult> Units,
                  ConfigFinder &Configs,
                  const CommandLineSettings &CommandLine) {
  UnreadHeaders Unread;
  if (Headers.empty())
    return Unread;
  std::set<llvm::sys::fs::UniqueID> Read = filesRead(Units);
  for (const std::string &Header : Headers) {
    llvm::sys::fs::UniqueID ID;
    if (llvm::sys::fs::getUniqueID(Header, ID) || Read.count(ID))
      continue;
    ++Unread.Count;
    auto Config = Configs.find(Header);
    if (!Config)
      return Config.takeError();
    EffectiveConfig Effective = effectiveConfig(*Config, CommandLine);
    auto Checks = selectChecks(Effective.Checks);
    if (!Checks)
      return Checks.takeError();
    TranslationUnitResult Scan;
    Scan.MainFile = Header;
    Scan.UnreadHeader = true;
    // A lexer's crash on one odd header must not lose the run.
    llvm::CrashRecoveryContext Recovery;
    if (!Recovery.RunSafely([&] {
          scanLexically(Header, *Checks, Effective.Options,
                        "no translation unit of this run read this header "
                        "(none includes it, or only through a header that "
                        "was not found or a branch that this parse skips); "
                        "name a file that includes it, or give the include "
                        "paths that it needs",
                        Scan);
        }))
      continue;
    if (!Scan.Findings.empty())
      Unread.Scans.push_back(std::move(Scan));
  }
  return Unread;
}

} // namespace warpfix
