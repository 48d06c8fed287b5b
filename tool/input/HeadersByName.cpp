#include "tool/input/HeadersByName.h"
#include "support/FileIdentity.h"
#include "tool/input/Paths.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace warpfix {

/// A bound on the walk: a root that holds more files than this is not a
/// project's source tree (a home folder, /), and the rest is not searched.
static constexpr size_t MostFiles = 400'000;

void HeadersByName::walk() const {
  size_t Seen = 0;
  for (const std::string &Root : Roots) {
    std::error_code Error;
    for (llvm::sys::fs::recursive_directory_iterator It(Root, Error), End;
         It != End && !Error && Seen < MostFiles; It.increment(Error)) {
      llvm::StringRef Name = llvm::sys::path::filename(It->path());
      // Version control and build trees of other tools hold copies.
      if (It->type() == llvm::sys::fs::file_type::directory_file) {
        if (Name.starts_with("."))
          It.no_push();
        continue;
      }
      ++Seen;
      std::vector<std::string> &Paths = ByFileName[Name];
      std::string Path = absolutePath(It->path());
      if (!llvm::is_contained(Paths, Path))
        Paths.push_back(std::move(Path));
    }
  }
}

void HeadersByName::reject(llvm::StringRef Written) const {
  std::lock_guard<std::mutex> Lock(RejectedMutex);
  Rejected.insert(Written);
}

std::optional<std::string>
HeadersByName::folderFor(llvm::StringRef Written) const {
  std::call_once(Walked, [this] { walk(); });
  {
    std::lock_guard<std::mutex> Lock(RejectedMutex);
    if (Rejected.contains(Written))
      return std::nullopt;
  }
  llvm::SmallString<128> Normal(Written);
  llvm::sys::path::remove_dots(Normal, /*remove_dot_dot=*/true);
  llvm::StringRef Wanted = Normal;
  if (Wanted.empty() || llvm::sys::path::is_absolute(Wanted) ||
      Wanted.starts_with(".."))
    return std::nullopt;
  auto Named = ByFileName.find(llvm::sys::path::filename(Wanted));
  if (Named == ByFileName.end())
    return std::nullopt;
  std::optional<std::string> Folder;
  for (llvm::StringRef Path : Named->second) {
    if (Path.size() <= Wanted.size() || !Path.ends_with(Wanted) ||
        Path.drop_back(Wanted.size()).back() != '/')
      continue;
    if (Folder)
      return std::nullopt;
    Folder = Path.drop_back(Wanted.size() + 1).str();
  }
  return Folder;
}

std::vector<std::string>
searchedLast(llvm::ArrayRef<std::pair<std::string, std::string>> Found) {
  std::vector<std::string> Arguments, Folders;
  for (const auto &[Name, Folder] : Found) {
    if (!llvm::is_contained(Folders, Folder)) {
      Folders.push_back(Folder);
      Arguments.push_back("-idirafter");
      Arguments.push_back(Folder);
    }
    // -idirafter folders are system folders: what clang reads through an
    // #include spelled with this prefix is not.
    Arguments.push_back("--no-system-header-prefix=" + Name);
  }
  return Arguments;
}

} // namespace warpfix
