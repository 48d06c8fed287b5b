#include "tool/output/AtomicFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <chrono>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace warpfix {
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

constexpr llvm::StringLiteral TemporaryInfix = ".warpfix-";
constexpr size_t TemporarySuffixLength = 6; // the %%%%%% of the model
/// Younger than this, an unlocked temporary may be one whose writer has
/// created it and not yet locked it.
constexpr std::chrono::minutes StaleAfter(1);

std::string temporaryModel(llvm::StringRef Target) {
  return (Target + TemporaryInfix + std::string(TemporarySuffixLength, '%'))
      .str();
}

bool isTemporaryOf(llvm::StringRef Candidate, llvm::StringRef TargetName) {
  if (!Candidate.consume_front(TargetName) ||
      !Candidate.consume_front(TemporaryInfix))
    return false;
  return Candidate.size() == TemporarySuffixLength &&
         llvm::all_of(Candidate, [](char C) { return llvm::isHexDigit(C); });
}

/// Removes Target's temporaries that no live writer holds.
void removeStaleTemporaries(llvm::StringRef Target) {
  llvm::StringRef Name = path::filename(Target);
  llvm::SmallString<256> Directory(path::parent_path(Target));
  if (Directory.empty())
    Directory = ".";
  std::error_code EC;
  auto Now = std::chrono::system_clock::now();
  for (fs::directory_iterator It(Directory, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (!isTemporaryOf(path::filename(It->path()), Name))
      continue;
    fs::file_status Status;
    if (fs::status(It->path(), Status, /*Follow=*/false) ||
        !fs::is_regular_file(Status) ||
        Now - Status.getLastModificationTime() < StaleAfter)
      continue;
    int FD = ::open(It->path().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (FD < 0)
      continue;
    if (::flock(FD, LOCK_EX | LOCK_NB) == 0)
      fs::remove(It->path());
    ::close(FD);
  }
}

/// The temporary file that becomes the target by a rename.
class Temporary {
public:
  explicit Temporary(std::string Target) : Target(std::move(Target)) {}
  ~Temporary() {
    if (FD >= 0)
      ::close(FD);
    if (!Name.empty())
      fs::remove(Name);
  }

  std::error_code open(unsigned Mode) {
    llvm::StringRef Directory = path::parent_path(Target);
#ifdef O_TMPFILE
    // The unnamed file is linked in through /proc; without it, a name it is.
    if (fs::is_directory("/proc/self/fd")) {
      FD = ::open(Directory.empty() ? "." : Directory.str().c_str(),
                  O_TMPFILE | O_WRONLY | O_CLOEXEC, Mode);
      if (FD >= 0)
        return lock();
      // A file system without O_TMPFILE; other errors are met again below.
    }
#endif
    llvm::SmallString<256> Created;
    if (std::error_code EC =
            fs::createUniqueFile(temporaryModel(Target), FD, Created))
      return EC;
    Name = std::string(Created);
    return lock();
  }

  int fd() const { return FD; }

  /// Gives the file a name, if it has none yet, and renames it over Target.
  std::error_code commit() {
#ifdef O_TMPFILE
    if (Name.empty())
      if (std::error_code EC = linkUnnamed())
        return EC;
#endif
    if (std::error_code EC = fs::rename(Name, Target))
      return EC;
    Name.clear();
    return {};
  }

private:
  std::error_code lock() {
    if (::flock(FD, LOCK_EX) != 0)
      return std::error_code(errno, std::generic_category());
    return {};
  }

#ifdef O_TMPFILE
  std::error_code linkUnnamed() {
    std::string Self = "/proc/self/fd/" + std::to_string(FD);
    for (int Attempt = 0; Attempt < 64; ++Attempt) {
      llvm::SmallString<256> Candidate;
      fs::createUniquePath(temporaryModel(Target), Candidate,
                           /*MakeAbsolute=*/false);
      if (::linkat(AT_FDCWD, Self.c_str(), AT_FDCWD, Candidate.c_str(),
                   AT_SYMLINK_FOLLOW) == 0) {
        Name = std::string(Candidate);
        return {};
      }
      if (errno != EEXIST)
        return std::error_code(errno, std::generic_category());
    }
    return std::make_error_code(std::errc::file_exists);
  }
#endif

  std::string Target;
  std::string Name; // empty while unnamed, and once renamed
  int FD = -1;
};

llvm::Error failure(std::error_code EC, const llvm::Twine &What,
                    llvm::StringRef Path) {
  return llvm::createStringError(EC, "cannot %s '%s': %s; not rewritten",
                                 What.str().c_str(), Path.str().c_str(),
                                 EC.message().c_str());
}

llvm::Error writeAll(int FD, llvm::StringRef Content) {
  while (!Content.empty()) {
    ssize_t Written = ::write(FD, Content.data(), Content.size());
    if (Written < 0) {
      if (errno == EINTR)
        continue;
      return llvm::errorCodeToError(
          std::error_code(errno, std::generic_category()));
    }
    Content = Content.drop_front(Written);
  }
  // On disk before the rename, so that a crash cannot leave an empty file
  // under the old name.
  if (::fsync(FD) != 0)
    return llvm::errorCodeToError(
        std::error_code(errno, std::generic_category()));
  return llvm::Error::success();
}

} // namespace

llvm::Error replaceFileContent(llvm::StringRef Path, llvm::StringRef Content) {
  // Through a link to the file itself: replacing the link would leave the
  // real file with the old code.
  llvm::SmallString<256> Target;
  if (std::error_code EC = fs::real_path(Path, Target))
    return failure(EC, "resolve", Path);
  fs::file_status Status;
  if (std::error_code EC = fs::status(Target, Status))
    return failure(EC, "stat", Path);
  // The mode bits are checked as well as access(): root may write anywhere,
  // but a file nobody may write is one its owner meant to keep as it is.
  if (fs::access(Target, fs::AccessMode::Write) ||
      (Status.permissions() & fs::all_write) == 0)
    return llvm::createStringError(
        std::make_error_code(std::errc::permission_denied),
        "'%s' is not writable; not rewritten", Path.str().c_str());
  if (Status.getLinkCount() > 1)
    return llvm::createStringError(
        std::make_error_code(std::errc::too_many_links),
        "'%s' has %u hard links, which a rewrite would split (the other names "
        "would keep the old code); not rewritten. To fix it, give it a "
        "content of its own first: cp '%s' tmp && mv tmp '%s'",
        Path.str().c_str(), Status.getLinkCount(), Path.str().c_str(),
        Path.str().c_str());
  removeStaleTemporaries(Target);

  Temporary Temp{std::string(Target)};
  if (std::error_code EC = Temp.open(Status.permissions()))
    return failure(EC, "create a temporary file next to", Path);
  if (Status.getUser() != ::geteuid() || Status.getGroup() != ::getegid())
    if (std::error_code EC = fs::changeFileOwnership(
            Temp.fd(), Status.getUser(), Status.getGroup()))
      return llvm::createStringError(
          EC,
          "'%s' belongs to user %u and group %u, which this process cannot "
          "give the rewritten file (%s); not rewritten",
          Path.str().c_str(), Status.getUser(), Status.getGroup(),
          EC.message().c_str());
  // After the owner: a change of owner clears the set-user-ID and
  // set-group-ID bits.
  if (std::error_code EC = fs::setPermissions(Temp.fd(), Status.permissions()))
    return failure(EC, "set the mode of the rewrite of", Path);
  if (llvm::Error Err = writeAll(Temp.fd(), Content))
    return failure(llvm::errorToErrorCode(std::move(Err)), "write", Path);
  if (std::error_code EC = Temp.commit())
    return failure(EC, "replace", Path);
  return llvm::Error::success();
}

} // namespace warpfix
