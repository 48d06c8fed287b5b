#include "tool/input/SourceFiles.h"
#include "support/FileIdentity.h"
#include "tool/input/Paths.h"
#include "tool/input/RegularFile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>
#include <unistd.h>

namespace warpfix {
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

bool isCudaSource(llvm::StringRef File) {
  return path::extension(File) == ".cu";
}

bool isCudaHeader(llvm::StringRef File) {
  return path::extension(File) == ".cuh";
}

/// The names that C++ and CUDA projects give the files they include: .cuh,
/// .h and its C++ spellings, and the inline parts of templates (.inl, .inc,
/// .ipp, .tcc).
bool isHeader(llvm::StringRef File) {
  static constexpr llvm::StringLiteral Extensions[] = {
      ".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc", ".ipp", ".tcc"};
  return llvm::is_contained(Extensions, path::extension(File));
}

/// Where a symbolic link points, as written in it (llvm::sys::fs has no
/// readlink).
std::string linkTarget(llvm::StringRef Link) {
  char Target[4096];
  ssize_t Size = ::readlink(Link.str().c_str(), Target, sizeof(Target));
  return Size < 0 ? "" : std::string(Target, Size);
}

/// "a symbolic link to 'T', which does not exist", when Path is one, or
/// one in a loop of links.
std::optional<std::string> danglingLink(llvm::StringRef Path) {
  fs::file_status Link, Target;
  if (fs::status(Path, Link, /*Follow=*/false) || !fs::is_symlink_file(Link))
    return std::nullopt;
  std::error_code EC = fs::status(Path, Target);
  if (!EC)
    return std::nullopt;
  std::string Linked = "a symbolic link to '" + linkTarget(Path) + "'";
  if (EC == std::errc::too_many_symbolic_link_levels)
    return Linked + ", in a loop of links that never reaches a file";
  return Linked + ", which does not exist";
}

struct Found {
  std::string Path;
  /// Reached through a symbolic link: another name is better when found.
  bool ThroughLink;
  size_t Order;
};

/// Walks one directory given on the command line for the files Wanted
/// names.
class DirectoryWalk {
public:
  DirectoryWalk(std::map<fs::UniqueID, Found> &Files,
                std::vector<std::string> &Dangling,
                std::vector<std::string> &Warnings,
                bool (*Wanted)(llvm::StringRef) = isCudaSource)
      : Files(Files), Dangling(Dangling), Warnings(Warnings), Wanted(Wanted) {}

  llvm::Error walk(llvm::StringRef Root) {
    llvm::SmallString<256> RealRoot;
    if (std::error_code EC = fs::real_path(Root, RealRoot))
      return llvm::createStringError(EC, "cannot read '%s': %s",
                                     Root.str().c_str(), EC.message().c_str());
    this->Root = Root.str();
    this->RealRoot = std::string(RealRoot);
    return visitDirectory(Root, /*ThroughLink=*/false);
  }

private:
  llvm::Error visitDirectory(llvm::StringRef Directory, bool ThroughLink) {
    fs::UniqueID ID;
    if (std::error_code EC = fs::getUniqueID(Directory, ID))
      return cannotList(Directory, EC);
    if (!Walked.insert(ID).second)
      return llvm::Error::success(); // a loop, or a second name
    // Sorted, so that the name kept for a file reached twice, and the order
    // of everything, are the same on every file system.
    std::vector<std::string> Entries;
    std::error_code EC;
    for (fs::directory_iterator It(Directory, EC, /*FollowSymlinks=*/false),
         End;
         It != End && !EC; It.increment(EC))
      Entries.push_back(It->path());
    if (EC)
      return cannotList(Directory, EC);
    llvm::sort(Entries);
    for (const std::string &Entry : Entries)
      if (llvm::Error Err = visit(Entry, ThroughLink))
        return Err;
    return llvm::Error::success();
  }

  llvm::Error visit(llvm::StringRef Entry, bool ThroughLink) {
    fs::file_status Own;
    if (fs::status(Entry, Own, /*Follow=*/false))
      return llvm::Error::success(); // gone meanwhile
    bool IsLink = fs::is_symlink_file(Own);
    fs::file_status Status = Own;
    if (IsLink) {
      llvm::SmallString<256> Real;
      if (fs::status(Entry, Status) || fs::real_path(Entry, Real)) {
        // Listed all the same: unusableSourceFile tells the user, as for a
        // dangling link named on the command line.
        if (Wanted(Entry))
          Dangling.push_back(Entry.str());
        return llvm::Error::success();
      }
      if (!isUnder(Real, RealRoot) &&
          (fs::is_directory(Status) || Wanted(Entry))) {
        Warnings.push_back("'" + Entry.str() + "' is a symbolic link out of '" +
                           Root + "' (to '" + std::string(Real) +
                           "'); not followed: name it to analyse it");
        return llvm::Error::success();
      }
    }
    if (fs::is_directory(Status))
      return visitDirectory(Entry, ThroughLink || IsLink);
    if (Wanted(Entry) && !fs::is_regular_file(Status)) {
      // Reading a device never ends, and a FIFO blocks: name it to be told.
      Warnings.push_back("'" + Entry.str() + "' is " +
                         notRegularFile(Entry).value_or("a file of another kind") +
                         ", not a regular file; skipped");
      return llvm::Error::success();
    }
    if (Wanted(Entry)) {
      fs::UniqueID ID = Status.getUniqueID();
      Found Candidate{Entry.str(), ThroughLink || IsLink, Files.size()};
      auto [It, Inserted] = Files.try_emplace(ID, Candidate);
      if (!Inserted && It->second.ThroughLink && !Candidate.ThroughLink)
        It->second = {Candidate.Path, false, It->second.Order};
    }
    return llvm::Error::success();
  }

  llvm::Error cannotList(llvm::StringRef Directory, std::error_code EC) {
    return llvm::createStringError(EC, "cannot list '%s': %s",
                                   Directory.str().c_str(),
                                   EC.message().c_str());
  }

  std::map<fs::UniqueID, Found> &Files;
  std::vector<std::string> &Dangling;
  std::vector<std::string> &Warnings;
  bool (*Wanted)(llvm::StringRef);
  std::string Root, RealRoot;
  std::set<fs::UniqueID> Walked;
};

} // namespace

llvm::Expected<std::vector<std::string>>
collectSourceFiles(llvm::ArrayRef<std::string> Paths,
                   std::vector<std::string> &Warnings) {
  std::map<fs::UniqueID, Found> Files;
  std::vector<std::string> Dangling;
  for (const std::string &Given : Paths) {
    fs::file_status Status;
    if (std::error_code EC = fs::status(Given, Status)) {
      if (std::optional<std::string> Dangling = danglingLink(Given))
        return llvm::createStringError(EC, "cannot read '%s': it is %s",
                                       Given.c_str(), Dangling->c_str());
      return llvm::createStringError(EC, "cannot read '%s': %s", Given.c_str(),
                                     EC.message().c_str());
    }
    if (!fs::is_directory(Status)) {
      // Named: analysed even through a link, and by the name given.
      Found Named{Given, false, Files.size()};
      auto [It, Inserted] = Files.try_emplace(Status.getUniqueID(), Named);
      if (!Inserted && It->second.ThroughLink)
        It->second = {Given, false, It->second.Order};
      continue;
    }
    size_t Before = Files.size() + Dangling.size();
    DirectoryWalk Walk(Files, Dangling, Warnings);
    if (llvm::Error Err = Walk.walk(Given))
      return Err;
    if (Files.size() + Dangling.size() != Before)
      continue;
    // A folder of headers alone (include/): they are analysed, through the
    // units that include them, rather than nothing at all.
    DirectoryWalk Headers(Files, Dangling, Warnings, isCudaHeader);
    if (llvm::Error Err = Headers.walk(Given))
      return Err;
    size_t HeadersFound = Files.size() + Dangling.size() - Before;
    Warnings.push_back(
        "no CUDA source files (.cu) under '" + Given + "'" +
        (HeadersFound
             ? "; its " + std::to_string(HeadersFound) + " CUDA header" +
                   (HeadersFound == 1 ? " (.cuh) is" : "s (.cuh) are") +
                   " analysed through the units that include " +
                   (HeadersFound == 1 ? "it" : "them")
             : std::string()));
  }
  std::vector<std::string> Result = std::move(Dangling);
  for (const auto &Entry : Files)
    Result.push_back(Entry.second.Path);
  // Sorted so that a directory walk gives the same order on every machine.
  llvm::sort(Result);
  return Result;
}

std::vector<std::string>
collectHeadersUnder(llvm::ArrayRef<std::string> Paths) {
  std::map<fs::UniqueID, Found> Files;
  std::vector<std::string> Dangling, Warnings;
  for (const std::string &Given : Paths) {
    if (!fs::is_directory(Given))
      continue;
    // The walk for sources has already said what it could not read.
    DirectoryWalk Walk(Files, Dangling, Warnings, isHeader);
    llvm::consumeError(Walk.walk(Given));
  }
  std::vector<std::string> Result;
  for (const auto &Entry : Files)
    Result.push_back(Entry.second.Path);
  llvm::sort(Result);
  return Result;
}

std::optional<std::string> unusableSourceFile(llvm::StringRef File) {
  if (std::optional<std::string> Dangling = danglingLink(File))
    return "'" + File.str() + "' is " + *Dangling + "; skipped";
  fs::file_status Status;
  if (std::error_code EC = fs::status(File, Status))
    return "cannot read '" + File.str() + "': " + EC.message() + "; skipped";
  // ClangTool makes the path of each source "native", which on POSIX turns a
  // backslash into a slash: it would parse another file, or none.
  if (absolutePath(File).find('\\') != std::string::npos)
    return "'" + File.str() +
           "' has a backslash in its path, which clang's tooling takes for a "
           "directory separator; skipped (rename it to analyse it)";
  if (fs::is_directory(Status))
    return "'" + File.str() + "' is a directory, not a source file; skipped";
  auto Buffer = readRegularFile(File, /*IsText=*/false,
                                /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return "cannot read '" + File.str() + "': " + toString(Buffer.takeError()) +
           "; skipped";
  // A NUL byte in the first few KiB means a binary file; parsing it would
  // only bury the user in nonsense errors.
  if ((*Buffer)->getBuffer().take_front(8192).contains('\0'))
    return "'" + File.str() + "' is a binary file, not CUDA source; skipped";
  return std::nullopt;
}

std::vector<std::string>
usableSourceFiles(llvm::ArrayRef<std::string> Files,
                  std::vector<std::string> &Problems) {
  std::vector<std::string> Usable;
  for (const std::string &File : Files) {
    if (std::optional<std::string> Problem = unusableSourceFile(File))
      Problems.push_back(std::move(*Problem));
    else
      Usable.push_back(File);
  }
  return Usable;
}

} // namespace warpfix
