#include "tool/input/Includers.h"
#include "support/FileIdentity.h"
#include "tool/input/Paths.h"
#include "tool/input/RegularFile.h"
#include "tool/input/SourceFiles.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace warpfix {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

bool isHeaderName(llvm::StringRef File) {
  llvm::StringRef Extension = path::extension(File);
  return llvm::is_contained({".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl",
                             ".cuhpp", ".inc"},
                            Extension);
}

namespace {

/// The file names that File's #include lines write ("warp.cuh" for
/// `#include "x/warp.cuh"`); none if File cannot be read.
std::vector<std::string> includedNames(llvm::StringRef File) {
  std::vector<std::string> Names;
  auto Text = readRegularFile(File, /*IsText=*/true);
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return Names;
  }
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim();
    if (Line.empty() || (Line.front() != '"' && Line.front() != '<'))
      continue;
    char Close = Line.front() == '"' ? '"' : '>';
    size_t End = Line.find(Close, 1);
    if (End != llvm::StringRef::npos)
      Names.push_back(path::filename(Line.slice(1, End)).str());
  }
  return Names;
}

/// The headers under Tree, with the names they include. Hidden folders
/// (.git) are not entered, nor symbolic links, which may loop.
std::vector<std::pair<std::string, std::vector<std::string>>>
headersUnder(llvm::StringRef Tree) {
  std::vector<std::pair<std::string, std::vector<std::string>>> Headers;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Tree, EC, /*follow_symlinks=*/false),
       End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = path::filename(It->path());
    if (It->type() == fs::file_type::directory_file) {
      if (Name.starts_with("."))
        It.no_push();
      continue;
    }
    if (It->type() == fs::file_type::regular_file && isHeaderName(Name))
      Headers.emplace_back(It->path(), includedNames(It->path()));
  }
  return Headers;
}

bool includesOneOf(llvm::ArrayRef<std::string> Included,
                   const llvm::StringSet<> &Names) {
  return llvm::any_of(Included,
                      [&](const std::string &N) { return Names.contains(N); });
}

} // namespace

std::vector<std::string>
unitsIncluding(llvm::ArrayRef<std::string> Headers,
               llvm::ArrayRef<std::string> Candidates, llvm::StringRef Tree) {
  llvm::StringSet<> Names;
  for (const std::string &Header : Headers)
    Names.insert(path::filename(Header));
  // The names of the headers that include one of them, until none is added.
  auto Pool = headersUnder(Tree);
  std::vector<bool> Taken(Pool.size(), false);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (size_t I = 0; I < Pool.size(); ++I)
      if (!Taken[I] && includesOneOf(Pool[I].second, Names)) {
        Taken[I] = true;
        Grew |= Names.insert(path::filename(Pool[I].first)).second;
      }
  }
  std::vector<std::string> Units;
  for (const std::string &Unit : Candidates)
    if (includesOneOf(includedNames(Unit), Names))
      Units.push_back(Unit);
  return Units;
}

HeaderIncluders
findIncluders(llvm::ArrayRef<std::string> Files,
              const clang::tooling::CompilationDatabase *Database) {
  HeaderIncluders Found;
  for (const std::string &File : Files)
    if (isHeaderName(File))
      Found.Headers.push_back(File);
  if (Found.Headers.empty())
    return Found;
  Found.Tree = absolutePath(".");
  if (!llvm::all_of(Found.Headers, [&](const std::string &Header) {
        return isUnder(absolutePath(Header), Found.Tree);
      }))
    Found.Tree = path::parent_path(absolutePath(Found.Headers.front())).str();
  std::vector<std::string> Candidates;
  if (Database) {
    for (const std::string &File : Database->getAllFiles())
      if (path::extension(File) == ".cu")
        Candidates.push_back(File);
  } else {
    // The walk's warnings are about the user's own paths, not this search.
    std::vector<std::string> Ignored;
    auto Walked = collectSourceFiles({Found.Tree}, Ignored);
    if (Walked)
      Candidates = std::move(*Walked);
    else
      llvm::consumeError(Walked.takeError());
  }
  Found.Includers = unitsIncluding(Found.Headers, Candidates, Found.Tree);
  llvm::StringSet<> Listed;
  for (const std::string &File : Files)
    Listed.insert(absolutePath(File));
  for (const std::string &Unit : Found.Includers)
    if (Listed.insert(absolutePath(Unit)).second)
      Found.Added.push_back(Unit);
  return Found;
}

} // namespace warpfix
