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

/// A unit's record: its file, its command if it has one, and the recording
/// run's folders.
llvm::json::Object recordOf(llvm::StringRef File,
                            const clang::tooling::CompileCommand *Command,
                            const RunFolders &Folders = {}) {
  llvm::json::Object Record{{"file", File}};
  if (!Folders.SearchedByName.empty())
    Record["searched"] = llvm::json::Array(Folders.SearchedByName);
  if (!Folders.Shown.empty())
    Record["shown"] = llvm::json::Array(Folders.Shown);
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

/// The strings of Value, a JSON list of them; false for anything else.
bool stringsOf(const llvm::json::Value &Value, std::vector<std::string> &Out) {
  const llvm::json::Array *List = Value.getAsArray();
  if (!List)
    return false;
  for (const llvm::json::Value &Each : *List) {
    std::optional<llvm::StringRef> String = Each.getAsString();
    if (!String)
      return false;
    Out.push_back(String->str());
  }
  return true;
}

/// One record per file and way of compiling it: the same compile again
/// replaces its record, and one with other macros or flags (a file that two
/// targets build) is kept beside it, so that the merge knows of both.
std::string recordName(llvm::StringRef File,
                       const clang::tooling::CompileCommand *Command) {
  std::string Key = File.str();
  if (Command) {
    Key += '\0' + Command->Directory;
    for (const std::string &Arg : withoutOutputArguments(Command->CommandLine))
      Key += '\0' + Arg;
  }
  return llvm::utohexstr(llvm::xxh3_64bits(Key), /*LowerCase=*/true) +
         ".json";
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
                       const clang::tooling::CompileCommand *Command,
                       const RunFolders &Folders) {
  std::string Text;
  llvm::raw_string_ostream(Text)
      << llvm::json::Value(recordOf(File, Command, Folders));
  return writeWhole(unitsDirectory(Folder), recordName(File, Command),
                    Text + "\n");
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
  std::set<std::string> Searched, Shown;
  for (const std::string &Record : Records) {
    auto Text = readRegularFile(Record, /*IsText=*/true);
    if (!Text)
      return failure("cannot read '" + Record +
                     "': " + toString(Text.takeError()));
    auto Parsed = llvm::json::parse((*Text)->getBuffer());
    if (!Parsed)
      return failure("'" + Record + "' is not a unit's record: " +
                     toString(Parsed.takeError()));
    auto NotARecord = [&](const llvm::Twine &Why) {
      return failure("'" + Record + "' is not a unit's record: " + Why);
    };
    const llvm::json::Object *Unit = Parsed->getAsObject();
    std::optional<llvm::StringRef> File =
        Unit ? Unit->getString("file") : std::nullopt;
    if (!File || !path::is_absolute(*File))
      return NotARecord("it names no absolute file");
    std::vector<std::string> Folders[2];
    const char *FolderKeys[2] = {"searched", "shown"};
    for (int K = 0; K < 2; ++K)
      if (const llvm::json::Value *List = Unit->get(FolderKeys[K])) {
        if (!stringsOf(*List, Folders[K]) ||
            !llvm::all_of(Folders[K], [](const std::string &F) {
              return path::is_absolute(F);
            }))
          return NotARecord(llvm::Twine("its '") + FolderKeys[K] +
                            "' is not a list of absolute folders");
      }
    const llvm::json::Value *Arguments = Unit->get("arguments");
    std::optional<llvm::StringRef> Directory = Unit->getString("directory");
    if (Arguments) {
      std::vector<std::string> Args;
      if (!stringsOf(*Arguments, Args) || Args.empty())
        return NotARecord("its command's arguments are not a list of "
                          "strings that names the compiler");
      if (!Directory || !path::is_absolute(*Directory))
        return NotARecord("its command has no absolute directory");
    }
    if (!fs::exists(*File) || (Directory && !fs::is_directory(*Directory))) {
      Recorded.Gone.push_back(File->str());
      continue;
    }
    Recorded.Files.push_back(File->str());
    Searched.insert(Folders[0].begin(), Folders[0].end());
    Shown.insert(Folders[1].begin(), Folders[1].end());
    // The database entry alone: clang's reader takes no key whose value is
    // not a string.
    if (Arguments) {
      llvm::json::Object Entry;
      for (llvm::StringRef Key : {"file", "directory", "arguments", "output"})
        if (const llvm::json::Value *Value = Unit->get(Key))
          Entry[Key] = *Value;
      Commands.push_back(std::move(Entry));
    }
  }
  if (Recorded.Files.empty())
    return failure("none of the " + llvm::Twine(Records.size()) +
                   " units recorded in '" + Folder +
                   "' can be analysed: their sources, or the directories "
                   "their commands ran in, no longer exist (the first: '" +
                   Recorded.Gone.front() + "')");
  Recorded.Folders.SearchedByName.assign(Searched.begin(), Searched.end());
  Recorded.Folders.Shown.assign(Shown.begin(), Shown.end());
  // A file compiled in several ways has a record for each.
  llvm::sort(Recorded.Files);
  Recorded.Files.erase(std::unique(Recorded.Files.begin(), Recorded.Files.end()),
                       Recorded.Files.end());
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
