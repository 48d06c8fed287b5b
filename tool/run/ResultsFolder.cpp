#include "tool/run/ResultsFolder.h"
#include "tool/input/CompileCommands.h"
#include "tool/input/RegularFile.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <set>

namespace warpfix {
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

std::string unitsDirectory(llvm::StringRef Folder) {
  llvm::SmallString<256> Dir(Folder);
  path::append(Dir, "units");
  return std::string(Dir);
}

llvm::Error failure(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

/// Text as the content of Directory/Name, written aside and renamed into
/// place: the launchers of a parallel build write the folder at once, and a
/// reader sees a whole record or none.
llvm::Error writeWhole(llvm::StringRef Directory, llvm::StringRef Name,
                       llvm::StringRef Text) {
  auto Fail = [&](std::error_code EC) {
    return failure("cannot write to '" + Directory + "': " + EC.message());
  };
  if (std::error_code EC = fs::create_directories(Directory))
    return Fail(EC);
  llvm::SmallString<256> Temporary;
  int FD;
  if (std::error_code EC = fs::createUniqueFile(
          Directory + "/.record-%%%%%%%%.tmp", FD, Temporary))
    return Fail(EC);
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  OS.close();
  std::error_code EC = OS.error();
  OS.clear_error();
  if (!EC)
    EC = fs::rename(Temporary, Directory + "/" + Name);
  if (EC) {
    fs::remove(Temporary);
    return Fail(EC);
  }
  return llvm::Error::success();
}

/// A unit's record: its file, and its command if it has one.
llvm::json::Object recordOf(llvm::StringRef File,
                            const clang::tooling::CompileCommand *Command) {
  llvm::json::Object Record{{"file", File}};
  if (Command) {
    Record["directory"] = Command->Directory;
    Record["arguments"] = llvm::json::Array(Command->CommandLine);
    if (!Command->Output.empty())
      Record["output"] = Command->Output;
  }
  return Record;
}

/// The database of Records, which all hold a command; an error says why
/// clang's reader refused them.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
databaseOf(llvm::json::Array Records) {
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::json::Value(std::move(Records));
  std::string Error;
  auto Database = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      Text, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Database)
    return failure(Error);
  return asDirectoryLoadsIt(std::move(Database));
}

} // namespace

llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
databaseOfCommands(llvm::ArrayRef<clang::tooling::CompileCommand> Commands) {
  llvm::json::Array Records;
  for (const clang::tooling::CompileCommand &Command : Commands)
    Records.push_back(recordOf(Command.Filename, &Command));
  return databaseOf(std::move(Records));
}

std::string resultsCacheDirectory(llvm::StringRef Folder) {
  llvm::SmallString<256> Dir(Folder);
  path::append(Dir, "results");
  return std::string(Dir);
}

llvm::Error recordUnit(llvm::StringRef Folder, llvm::StringRef File,
                       const clang::tooling::CompileCommand *Command) {
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::json::Value(recordOf(File, Command));
  std::string Name =
      llvm::utohexstr(llvm::xxh3_64bits(File), /*LowerCase=*/true) + ".json";
  return writeWhole(unitsDirectory(Folder), Name, Text + "\n");
}

llvm::Expected<RecordedUnits> readRecordedUnits(llvm::StringRef Folder) {
  std::string Units = unitsDirectory(Folder);
  std::vector<std::string> Records;
  std::error_code EC;
  for (fs::directory_iterator It(Units, EC), End; It != End && !EC;
       It.increment(EC))
    if (path::extension(It->path()) == ".json" &&
        !path::filename(It->path()).starts_with("."))
      Records.push_back(It->path());
  if (EC && EC != std::errc::no_such_file_or_directory)
    return failure("cannot read '" + Units + "': " + EC.message());
  if (Records.empty())
    return failure("'" + Folder +
                   "' holds no analysed unit: build with warpfix as the "
                   "compiler launcher, or run warpfix with --results=" +
                   Folder + ", first");
  llvm::sort(Records);
  RecordedUnits Recorded;
  llvm::json::Array Commands;
  std::set<std::string> Directories;
  for (const std::string &Record : Records) {
    auto Text = readRegularFile(Record, /*IsText=*/true);
    if (!Text)
      return failure("cannot read '" + Record +
                     "': " + toString(Text.takeError()));
    auto Parsed = llvm::json::parse((*Text)->getBuffer());
    if (!Parsed)
      return failure("'" + Record + "' is not a unit's record: " +
                     toString(Parsed.takeError()));
    const llvm::json::Object *Unit = Parsed->getAsObject();
    std::optional<llvm::StringRef> File =
        Unit ? Unit->getString("file") : std::nullopt;
    if (!File || !path::is_absolute(*File))
      return failure("'" + Record +
                     "' is not a unit's record: it names no absolute file");
    if (!fs::exists(*File)) {
      Recorded.Gone.push_back(File->str());
      continue;
    }
    Recorded.Files.push_back(File->str());
    if (!Unit->get("arguments"))
      continue;
    std::optional<llvm::StringRef> Directory = Unit->getString("directory");
    if (!Directory)
      return failure("'" + Record +
                     "' is not a unit's record: its command has no directory");
    Directories.insert(Directory->str());
    Commands.push_back(llvm::json::Object(*Unit));
  }
  llvm::sort(Recorded.Files);
  Recorded.Directories.assign(Directories.begin(), Directories.end());
  if (!Commands.empty()) {
    auto Database = databaseOf(std::move(Commands));
    if (!Database)
      return failure("the commands recorded in '" + Units +
                     "' do not make a compilation database: " +
                     toString(Database.takeError()));
    Recorded.Database = std::move(*Database);
  }
  return Recorded;
}

} // namespace warpfix
