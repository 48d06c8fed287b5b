#include "tool/run/PreambleFolder.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace warpfix {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

constexpr llvm::StringLiteral Prefix = "warpfix-preambles-";
constexpr llvm::StringLiteral LockName = "lock";
/// createUniqueDirectory names its folder <this>-<random part>.
constexpr llvm::StringLiteral MakingPrefix = "warpfix-making";

/// The folders of runs that are over: their lock is free. A folder without a
/// lock file is left alone: no run of warpfix made it.
void removeAbandoned(llvm::StringRef Temporary) {
  std::error_code EC;
  for (fs::directory_iterator It(Temporary, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (!path::filename(It->path()).starts_with(Prefix))
      continue;
    llvm::SmallString<256> LockFile(It->path());
    path::append(LockFile, LockName);
    int FD;
    if (fs::openFileForReadWrite(LockFile, FD, fs::CD_OpenExisting,
                                 fs::OF_None))
      continue;
    bool Abandoned = !fs::tryLockFile(FD);
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
    if (Abandoned)
      fs::remove_directories(It->path(), /*IgnoreErrors=*/true);
  }
}

} // namespace

llvm::StringRef PreambleFolder::path() {
  std::call_once(Made, [this] {
    llvm::SmallString<128> Temporary;
    path::system_temp_directory(/*ErasedOnReboot=*/true, Temporary);
    removeAbandoned(Temporary);
    // Made under another name and renamed once locked, so that another run
    // never finds it with its lock free.
    llvm::SmallString<256> Making;
    if (fs::createUniqueDirectory(MakingPrefix, Making))
      return;
    llvm::SmallString<256> LockFile(Making);
    path::append(LockFile, LockName);
    llvm::SmallString<256> Final(Temporary);
    path::append(Final, Prefix + path::filename(Making).drop_front(
                                     MakingPrefix.size() + 1));
    if (fs::openFileForReadWrite(LockFile, Lock, fs::CD_CreateNew,
                                 fs::OF_None) ||
        fs::tryLockFile(Lock) || fs::rename(Making, Final)) {
      fs::remove_directories(Making, /*IgnoreErrors=*/true);
      return;
    }
    Path = std::string(Final);
  });
  return Path;
}

PreambleFolder::~PreambleFolder() {
  if (!Path.empty())
    fs::remove_directories(Path, /*IgnoreErrors=*/true);
  if (Lock >= 0)
    llvm::sys::Process::SafelyCloseFileDescriptor(Lock);
}

} // namespace warpfix
