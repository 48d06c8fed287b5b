// The command line: warpfix [options] <path>... [-- <compiler args>]
#include "checks/CheckRegistry.h"
#include "support/FileIdentity.h"
#include "tool/BuildConfig.h"
#include "tool/input/CompileCommands.h"
#include "tool/input/Config.h"
#include "tool/input/CudaToolkit.h"
#include "tool/input/GpuArchitectures.h"
#include "tool/input/HeadersByName.h"
#include "tool/input/Includers.h"
#include "tool/input/LaunchedCommand.h"
#include "tool/input/Paths.h"
#include "tool/input/Shards.h"
#include "tool/input/SourceFiles.h"
#include "tool/merge/FindingSet.h"
#include "tool/output/CheckDocs.h"
#include "tool/output/FixVerifier.h"
#include "tool/output/FixWriter.h"
#include "tool/output/JsonReport.h"
#include "tool/output/SarifReport.h"
#include "tool/output/Stats.h"
#include "tool/output/TextReport.h"
#include "tool/run/Analyser.h"
#include "tool/run/Architectures.h"
#include "tool/run/HeapPolicy.h"
#include "tool/run/ParallelRunner.h"
#include "tool/run/Profile.h"
#include "tool/run/ResultsFolder.h"
#include "tool/run/SharedPreambles.h"
#include "tool/run/UnreadHeaders.h"
#include "tool/run/WorkerThreads.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include <optional>

using namespace llvm;
using namespace warpfix;

namespace {

cl::OptionCategory Category("warpfix options");

cl::list<std::string> Paths(cl::Positional,
                            cl::desc("<path>... [-- <compiler args>]"),
                            cl::cat(Category));
cl::list<std::string> ExtraArg(
    "extra-arg",
    cl::desc("An argument to append to every compile command, as after '--'"),
    cl::value_desc("arg"), cl::cat(Category));
cl::list<std::string> ExtraArgBefore(
    "extra-arg-before",
    cl::desc("An argument to put before the arguments of every compile "
             "command, which can override it"),
    cl::value_desc("arg"), cl::cat(Category));
cl::opt<bool> UseColor(
    "use-color",
    cl::desc("Colour the report and clang's messages (default: only on a "
             "terminal)"),
    cl::cat(Category));
cl::opt<std::string> BuildPath(
    "p", cl::desc("Build directory containing compile_commands.json"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> ChecksGlob(
    "checks", cl::desc("Comma-separated globs of checks to run; a leading '-' "
                       "disables, and a list that begins with one takes checks "
                       "away from those in force (default: warp-*,cuda-*). "
                       "warpfix-nolint, which reports unmatched "
                       "NOLINTBEGIN/NOLINTEND, is always on"),
    cl::init(DefaultChecks.str()), cl::cat(Category));
cl::opt<bool> ListChecks("list-checks",
                         cl::desc("List the enabled checks and exit"),
                         cl::cat(Category));
cl::opt<std::string> Explain("explain",
                             cl::desc("Print the documentation of a check "
                                      "and exit"),
                             cl::value_desc("check"), cl::cat(Category));
cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Regular expression for the headers whose findings are shown "
             "(default: headers under the folders given and beside the files "
             "given; findings in other headers are not shown but still count "
             "towards the exit code)"),
    cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA toolkit root (default: CUDA_PATH, "
                                       "CUDA_HOME, /usr/local/cuda, nvcc)"),
                              cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> GpuArch(
    "cuda-gpu-arch",
    cl::desc("Device architectures the build compiles for, as 'sm_75,sm_90' "
             "or '75;90' (default: each file's, from the compilation "
             "database, else every one nvcc 13 compiles for); a file is "
             "parsed for each whose #if branches differ"),
    cl::value_desc("archs"), cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply the fixes in place"),
                  cl::cat(Category));
cl::opt<bool> Diff("diff",
                   cl::desc("Print the fixes as a unified diff; write nothing"),
                   cl::cat(Category));
cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the findings and fixes as YAML for clang-apply-replacements"),
    cl::value_desc("file"), cl::cat(Category));

enum class OutputFormat { Text, Json, Sarif };
cl::opt<OutputFormat> Format(
    "format", cl::desc("How findings are reported"),
    cl::values(clEnumValN(OutputFormat::Text, "text",
                          "clang-style, on standard output (default)"),
               clEnumValN(OutputFormat::Json, "json",
                          "JSON (docs/json-format.md) on standard output"),
               clEnumValN(OutputFormat::Sarif, "sarif",
                          "SARIF 2.1.0 on standard output")),
    cl::init(OutputFormat::Text), cl::cat(Category));
enum class StatsFormat { None, Text, Csv };
/// LLVM registers a -stats of its own (pass statistics, which mean nothing
/// here), so warpfix's is registered once that one has given way. A string,
/// not an enum: llvm::cl prints an enum whose value may be left out oddly.
cl::opt<std::string> &statsOption() {
  static bool LLVMStatsRemoved = [] {
    if (cl::Option *LLVMStats = cl::getRegisteredOptions().lookup("stats"))
      LLVMStats->removeArgument();
    return true;
  }();
  (void)LLVMStatsRemoved;
  static cl::opt<std::string> Stats(
      "stats",
      cl::desc("Print counts per check: findings, fixed, fixable, unfixable "
               "by reason. --stats (or =text): a table on standard error; "
               "=csv: CSV on standard output, unless --diff or "
               "--format=json|sarif holds it, then on standard error"),
      cl::ValueOptional, cl::value_desc("text|csv"), cl::cat(Category));
  return Stats;
}

Expected<StatsFormat> statsFormat(const cl::opt<std::string> &Stats) {
  if (!Stats.getNumOccurrences())
    return StatsFormat::None;
  if (Stats.empty() || Stats == "text")
    return StatsFormat::Text;
  if (Stats == "csv")
    return StatsFormat::Csv;
  return createStringError(inconvertibleErrorCode(),
                           "--stats takes 'text' or 'csv', not '%s'",
                           Stats.c_str());
}

cl::opt<MaskFallback> MaskFallbackOption(
    "mask-fallback",
    cl::desc("What to do when the lanes that reach a call are unknown"),
    cl::values(clEnumValN(MaskFallback::None, "none",
                          "report it and leave the code as it is (default)"),
               clEnumValN(MaskFallback::ActiveMask, "activemask",
                          "rewrite with __activemask(), the legacy "
                          "semantics, marked for review in the code")),
    cl::init(MaskFallback::None), cl::cat(Category));
cl::opt<bool> AssumeWholeWarps(
    "assume-whole-warps",
    cl::desc("Take blockDim.x to be a multiple of 32, so that conditions "
             "such as threadIdx.x < 32 select whole warps (default: true)"),
    cl::init(true), cl::cat(Category));

cl::opt<unsigned> Jobs(
    "j",
    cl::desc("Translation units analysed in parallel (default: the number of "
             "cores)"),
    cl::value_desc("N"), cl::init(0), cl::Prefix, cl::cat(Category));
cl::opt<bool> Quiet("quiet",
                    cl::desc("No progress line and no summary on stderr"),
                    cl::cat(Category));

cl::opt<std::string> ConfigFilePath(
    "config-file",
    cl::desc("Read the configuration from this file instead of the "
             ".warpfix.yaml found above each source file"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> DumpConfig(
    "dump-config",
    cl::desc("Print the configuration in force for the first path (or the "
             "current directory) and exit"),
    cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Where results are cached between runs (default: "
             "$XDG_CACHE_HOME/warpfix, else ~/.cache/warpfix)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoCache("no-cache",
                      cl::desc("Neither read nor write the result cache"),
                      cl::cat(Category));
cl::opt<bool> NoPrefilter(
    "no-prefilter",
    cl::desc("Parse every translation unit, even those in whose user files "
             "no check finds anything to look at"),
    cl::cat(Category));
cl::opt<bool> NoSharedPreambles(
    "no-shared-preambles",
    cl::desc("Parse each translation unit's leading system headers itself, "
             "instead of once per run for all units that begin with the same "
             "ones"),
    cl::cat(Category));

cl::opt<bool> Launcher(
    "launcher",
    cl::desc("Run as the build's compiler launcher (CMake's "
             "CMAKE_CUDA_COMPILER_LAUNCHER): `warpfix --launcher -- nvcc "
             "<args>` runs the compiler unchanged, then analyses each CUDA "
             "source it compiles with its exact flags and records it in "
             "--results for --merge. Exits with the compiler's code"),
    cl::cat(Category));
cl::opt<std::string> ResultsPath(
    "results",
    cl::desc("Record each unit analysed, its command and its result, in this "
             "folder for a later --merge (default with --launcher: "
             "warpfix-results in the build directory, the nearest above "
             "the compile's that holds CMakeCache.txt)"),
    cl::value_desc("folder"), cl::cat(Category));
cl::opt<std::string> MergePath(
    "merge",
    cl::desc("Report and fix the units recorded in this folder by launchers "
             "or shards, as one run of their commands would; a unit whose "
             "files changed since is analysed again"),
    cl::value_desc("folder"), cl::cat(Category));
cl::opt<std::string> ShardOption(
    "shard",
    cl::desc("Analyse only the i-th of n shares of the files, and record "
             "them in --results, for a CI matrix whose last job runs --merge"),
    cl::value_desc("i/n"), cl::cat(Category));
cl::opt<bool> FailOnFindings(
    "fail-on-findings",
    cl::desc("With --launcher: print the unit's findings, and fail the "
             "compile (exit 1) when the compiler succeeded and any remain"),
    cl::cat(Category));

cl::opt<std::string> OnlyUnit(
    "only-unit",
    cl::desc("Of the files that the paths (or -p) name, analyse only this "
             "one, with the rest of the run as it was: the folders searched "
             "for headers by name, and the preambles shared between units. "
             "The command printed for a unit that crashed uses it"),
    cl::value_desc("file"), cl::cat(Category));

cl::opt<bool> StrictParse(
    "strict-parse",
    cl::desc("Drop every translation unit in which clang reports an error, "
             "as warpfix did before it analysed code that does not compile "
             "(default: analyse it, and fix only what no error can have "
             "misled)"),
    cl::cat(Category));

// Makes the analysis of a file whose path ends with this crash, so that a
// test can show that the crash is contained.
cl::opt<std::string> TestingCrashIn("testing-crash-in", cl::Hidden,
                                    cl::cat(Category));

// Lets a test change a header between two translation units, to show that a
// shared preamble that read it is built again. Run by /bin/sh with the unit's
// path as $1.
cl::opt<std::string> TestingBeforeUnit("testing-run-before-unit", cl::Hidden,
                                       cl::cat(Category));

// The baseline of bench/real-world/unit-speed.py: each unit parsed as this
// run would parse it (overlays, headers found by name, shared preambles),
// and no check run on it.
cl::opt<bool> ParseOnly("parse-only", cl::Hidden, cl::cat(Category));

// Says for each unit whether its preamble was built, reused or not shared.
cl::opt<bool> TestingReportPreambles("testing-report-preambles", cl::Hidden,
                                     cl::cat(Category));

// Lets a test edit a file between analysis and writing, to show that the
// content hash catches it.
cl::opt<std::string> TestingBeforeWrite("testing-run-before-write", cl::Hidden,
                                        cl::cat(Category));

constexpr int ExitClean = 0, ExitFindings = 1, ExitError = 2, ExitCrash = 3;

int fail(const Twine &Message) {
  WithColor::error(errs(), "warpfix") << Message << "\n";
  return ExitError;
}

Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadDatabase() {
  if (BuildPath.empty())
    return nullptr;
  return loadCompilationDatabase(BuildPath);
}

/// Whether File's command in Database compiles it as CUDA whatever its name
/// (CMake's LANGUAGE CUDA on a .cpp file gives nvcc `-x cu`).
bool compiledAsCuda(const clang::tooling::CompilationDatabase &Database,
                    StringRef File) {
  SmallString<256> Wanted(File);
  sys::path::remove_dots(Wanted);
  for (const clang::tooling::CompileCommand &Command :
       Database.getCompileCommands(File))
    for (const clang::tooling::CompileCommand &Unit :
         cudaCompileCommands(Command.CommandLine, Command.Directory))
      if (Unit.Filename == Wanted)
        return true;
  return false;
}

/// Files named on the command line, or, with -p and no paths, every CUDA file
/// of the compilation database.
Expected<std::vector<std::string>>
filesToAnalyse(const clang::tooling::CompilationDatabase *Database) {
  if (Paths.empty() && Database) {
    std::vector<std::string> Files;
    std::vector<std::string> All = Database->getAllFiles();
    for (const std::string &File : All)
      if (sys::path::extension(File) == ".cu" ||
          compiledAsCuda(*Database, File))
        Files.push_back(File);
    // Nothing to analyse is not a clean result: CMake's FindCUDA
    // (cuda_add_library) builds .cu files through custom commands, which
    // compile_commands.json does not list.
    if (Files.empty())
      return createStringError(
          inconvertibleErrorCode(),
          "the compilation database in '" + BuildPath + "' has no .cu file (" +
              std::to_string(All.size()) +
              " entries); CMake's FindCUDA (cuda_add_library, "
              "cuda_add_executable) compiles CUDA through commands that it "
              "does not list there. Name the source folders as well: "
              "warpfix -p " + BuildPath + " <folders>");
    llvm::sort(Files);
    return Files;
  }
  std::vector<std::string> Warnings;
  auto Files = collectSourceFiles(Paths, Warnings);
  for (const std::string &Warning : Warnings)
    WithColor::warning(errs(), "warpfix") << Warning << "\n";
  return Files;
}

/// The build directory of a compile that warpfix launches: the nearest one
/// above the compile's that holds a CMakeCache.txt (CMake's Makefiles run
/// each target's compiles in its own directory), else the compile's.
std::string launchedBuildDirectory() {
  SmallString<256> Compile;
  sys::fs::current_path(Compile);
  for (StringRef Dir = Compile; !Dir.empty(); Dir = sys::path::parent_path(Dir))
    if (sys::fs::exists(Dir + "/CMakeCache.txt"))
      return Dir.str();
  return std::string(Compile);
}

/// The results folder that the run reads (--merge) or writes (--results,
/// --launcher), absolute; empty for none.
std::string resultsFolder() {
  if (!MergePath.empty())
    return absolutePath(MergePath);
  if (!ResultsPath.empty())
    return absolutePath(ResultsPath);
  if (!Launcher)
    return "";
  SmallString<256> Folder(launchedBuildDirectory());
  sys::path::append(Folder, "warpfix-results");
  return std::string(Folder);
}

/// What a run analyses: the database of its commands (none: each file gets a
/// plain CUDA command), the files named or recorded, and for --merge the
/// recording runs' folders.
struct RunInput {
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  std::vector<std::string> Files;
  /// --merge: the folders of the runs that recorded the units.
  RunFolders Recorders;
};

/// --merge: the units recorded in its folder. Those whose source is gone
/// since are said in a note.
Expected<RunInput> mergeInput() {
  std::string Folder = resultsFolder();
  auto Recorded = readRecordedUnits(Folder);
  if (!Recorded)
    return Recorded.takeError();
  size_t Gone = Recorded->Gone.size();
  if (Gone && !Quiet)
    WithColor::note(errs(), "warpfix")
        << Gone << (Gone == 1 ? " unit" : " units") << " recorded in '"
        << Folder << "' left out: " << (Gone == 1 ? "its" : "their")
        << " source no longer exists ('" << Recorded->Gone.front() << "'"
        << (Gone > 1 ? ", ..." : "") << ")\n";
  return RunInput{std::move(Recorded->Database), std::move(Recorded->Files),
                  std::move(Recorded->Folders)};
}

Expected<RunInput> runInput() {
  if (!MergePath.empty())
    return mergeInput();
  auto Database = loadDatabase();
  if (!Database)
    return Database.takeError();
  auto Files = filesToAnalyse(Database->get());
  if (!Files)
    return Files.takeError();
  return RunInput{std::move(*Database), std::move(*Files), {}};
}

/// --shard: the run's share of Files, said on stderr.
std::vector<std::string> shareOf(std::vector<std::string> Files) {
  Shard Of = cantFail(parseShard(ShardOption));
  size_t All = Files.size();
  Files = filesOfShard(std::move(Files), Of);
  if (!Quiet)
    errs() << "warpfix: shard " << Of.Index << "/" << Of.Count << ": "
           << Files.size() << " of " << All << " files\n";
  return Files;
}

/// --results: each file of the run recorded in the folder, with its command
/// in Database if it has one there. False after saying why one could not be.
bool recordUnits(ArrayRef<std::string> Files,
                 const clang::tooling::CompilationDatabase *Database,
                 const RunFolders &Folders) {
  std::string Folder = resultsFolder();
  for (const std::string &File : Files) {
    std::vector<clang::tooling::CompileCommand> Commands;
    if (Database)
      Commands = Database->getCompileCommands(File);
    if (Error Err = recordUnit(Folder, File,
                               Commands.empty() ? nullptr : &Commands.front(),
                               Folders)) {
      fail(toString(std::move(Err)));
      return false;
    }
  }
  return true;
}

/// Files, and the units that include the headers among them (Includers.h),
/// said on stderr.
std::vector<std::string>
withIncluders(const std::vector<std::string> &Files,
              const clang::tooling::CompilationDatabase *Database,
              std::string &Tree) {
  HeaderIncluders Found = findIncluders(Files, Database);
  Tree = Found.Tree;
  std::vector<std::string> Units = Files;
  llvm::append_range(Units, Found.Added);
  if (Quiet || Found.Headers.empty() ||
      (!Found.Includers.empty() && Found.Added.empty()))
    return Units;
  std::string Where = Database ? "the compilation database" : "'" + Tree + "'";
  bool One = Found.Headers.size() == 1;
  std::string Named = One ? "the header '" + Found.Headers.front() + "'"
                          : "the " + std::to_string(Found.Headers.size()) +
                                " headers named";
  size_t Added = Found.Added.size();
  if (Added)
    errs() << "warpfix: " << Named << (One ? " is" : " are")
           << " analysed through the " << Added << " unit"
           << (Added == 1 ? "" : "s") << " of " << Where << " that include"
           << (Added == 1 ? "s " : " ") << (One ? "it" : "them") << "\n";
  else
    errs() << "warpfix: no unit of " << Where << " includes " << Named
           << ": code there that nothing calls is reported without a fix\n";
  return Units;
}

/// The folders whose headers' findings are shown by default: each folder
/// given, and the folder of each file given, since `warpfix k.cu` asks about
/// the headers beside it as much as about k.cu.
std::vector<std::string> shownRoots() {
  std::vector<std::string> Roots;
  for (const std::string &Path : Paths) {
    std::string Root = absolutePath(Path);
    if (!sys::fs::is_directory(Root))
      Root = sys::path::parent_path(Root).str();
    if (!llvm::is_contained(Roots, Root))
      Roots.push_back(std::move(Root));
  }
  return Roots;
}

/// Whose findings are shown, by absolute path: the files analysed always;
/// a header when it matches --header-filter, else the HeaderFilterRegex of the
/// configuration in force in its directory, else when it lies under Roots.
/// A configuration that cannot be read lands in Errors.
std::function<Visibility(StringRef)>
headerFilter(const std::vector<std::string> &MainFiles, ConfigFinder &Configs,
             std::vector<std::string> &Errors,
             std::vector<std::string> Roots = shownRoots()) {
  if (Roots.empty())
    Roots.push_back(absolutePath("."));
  StringSet<> Mains;
  for (const std::string &File : MainFiles)
    Mains.insert(absolutePath(File));
  auto Patterns = std::make_shared<std::map<std::string, Regex>>();
  auto patternFor = [&Configs, &Errors, Patterns](StringRef Path) -> Regex * {
    std::string Text = HeaderFilter;
    if (!HeaderFilter.getNumOccurrences()) {
      auto Config = Configs.find(Path);
      if (!Config) {
        Errors.push_back(toString(Config.takeError()));
        return nullptr;
      }
      if (!*Config || !(*Config)->HeaderFilterRegex ||
          (*Config)->HeaderFilterRegex->empty())
        return nullptr;
      Text = *(*Config)->HeaderFilterRegex;
    }
    return &Patterns->try_emplace(Text, Text).first->second;
  };
  return [Roots, Mains, patternFor](StringRef Path) {
    if (Mains.contains(Path))
      return Visibility::Shown;
    if (Regex *Pattern = patternFor(Path))
      return Pattern->match(Path) ? Visibility::Shown : Visibility::FilteredOut;
    return llvm::any_of(Roots,
                        [&](const std::string &R) { return isUnder(Path, R); })
               ? Visibility::Shown
               : Visibility::OutsidePaths;
  };
}

CommandLineSettings commandLineSettings(std::vector<std::string> CompilerArgs) {
  CommandLineSettings Settings;
  if (ChecksGlob.getNumOccurrences())
    Settings.Checks = ChecksGlob;
  if (HeaderFilter.getNumOccurrences())
    Settings.HeaderFilterRegex = HeaderFilter;
  if (MaskFallbackOption.getNumOccurrences())
    Settings.Fallback = MaskFallbackOption;
  if (AssumeWholeWarps.getNumOccurrences())
    Settings.AssumeWholeWarps = AssumeWholeWarps;
  Settings.CompilerArgs = std::move(CompilerArgs);
  llvm::append_range(Settings.CompilerArgs, ExtraArg);
  Settings.CompilerArgsBefore = ExtraArgBefore;
  return Settings;
}

/// Whether to colour what goes to OS: --use-color, else a terminal's.
bool colors(raw_ostream &OS) {
  return UseColor.getNumOccurrences() ? bool(UseColor) : OS.has_colors();
}

/// Arg as a POSIX shell reads it: as it is where that is safe, else quoted.
std::string shellWord(StringRef Arg) {
  if (!Arg.empty() && Arg.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789_-+=/.,:@%") ==
                          StringRef::npos)
    return Arg.str();
  std::string Quoted = "'";
  for (char C : Arg)
    Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Quoted + "'";
}

/// The command that analyses File alone, with the options that shape a
/// parse and its analysis, to reproduce a crash.
std::string reproducingCommand(StringRef File, StringRef Arch,
                               ArrayRef<std::string> CompilerArgs) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "warpfix --no-cache -j1";
  auto Option = [&](StringRef Name, StringRef Value) {
    OS << " " << shellWord(("--" + Name + "=" + Value).str());
  };
  // A rewrite makes the analysis parse its unit once more.
  if (Fix || Diff || !ExportFixes.empty())
    OS << " --diff";
  if (!BuildPath.empty())
    Option("p", BuildPath);
  if (!MergePath.empty())
    Option("merge", MergePath);
  if (ChecksGlob.getNumOccurrences())
    Option("checks", ChecksGlob);
  if (!ConfigFilePath.empty())
    Option("config-file", ConfigFilePath);
  if (!CudaPath.empty())
    Option("cuda-path", CudaPath);
  if (!Arch.empty())
    Option("cuda-gpu-arch", Arch);
  else if (!GpuArch.empty())
    Option("cuda-gpu-arch", GpuArch);
  if (MaskFallbackOption.getNumOccurrences())
    Option("mask-fallback", MaskFallbackOption == MaskFallback::ActiveMask
                                ? "activemask"
                                : "none");
  if (AssumeWholeWarps.getNumOccurrences())
    Option("assume-whole-warps", AssumeWholeWarps ? "true" : "false");
  if (StrictParse)
    OS << " --strict-parse";
  if (NoSharedPreambles)
    OS << " --no-shared-preambles";
  if (!TestingCrashIn.empty())
    Option("testing-crash-in", TestingCrashIn);
  for (const std::string &Arg : ExtraArgBefore)
    Option("extra-arg-before", Arg);
  for (const std::string &Arg : ExtraArg)
    Option("extra-arg", Arg);
  // The unit among the same paths: the same headers found by name, and the
  // same preambles shared, as where it crashed.
  Option("only-unit", File);
  for (const std::string &Path : Paths)
    OS << " " << shellWord(Path);
  if (!CompilerArgs.empty()) {
    OS << " --";
    for (const std::string &Arg : CompilerArgs)
      OS << " " << shellWord(Arg);
  }
  return Text;
}

/// --only-unit: the one of Files it names, or an error.
Expected<std::string> onlyUnit(ArrayRef<std::string> Files) {
  std::string Wanted = absolutePath(OnlyUnit);
  for (const std::string &File : Files)
    if (absolutePath(File) == Wanted)
      return File;
  return createStringError(inconvertibleErrorCode(),
                           "--only-unit: '%s' is not one of the source files "
                           "that the paths name",
                           OnlyUnit.c_str());
}

void printVersion(raw_ostream &OS) {
  OS << "warpfix " << WARPFIX_VERSION << " (LLVM " << WARPFIX_LLVM_VERSION
     << ")\n";
}

void printErrors(ArrayRef<std::string> Errors) {
  for (const std::string &Error : Errors)
    WithColor::error(errs(), "warpfix") << Error << "\n";
}

/// Parses warpfix's own options; everything after "--" goes to the compiler,
/// as with clang-tidy. False when the command line is wrong (llvm::cl has
/// said why).
bool parseCommandLine(int argc, const char **argv,
                      std::vector<std::string> &CompilerArgs) {
  std::vector<const char *> OwnArgs;
  bool AfterDashDash = false;
  for (int I = 0; I < argc; ++I) {
    if (!AfterDashDash && StringRef(argv[I]) == "--") {
      AfterDashDash = true;
      continue;
    }
    if (AfterDashDash)
      CompilerArgs.push_back(argv[I]);
    else
      OwnArgs.push_back(argv[I]);
  }
  statsOption();
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  return cl::ParseCommandLineOptions(
      OwnArgs.size(), OwnArgs.data(),
      "warpfix: finds and fixes CUDA warp code that assumes lockstep "
      "execution\n\nExit codes: 0 no findings remain, 1 findings remain (or a "
      "unit had errors, which may hide some), "
      "2 error, 3 warpfix crashed on a translation unit (the others were "
      "analysed); --launcher exits with the compiler's code\n",
      &errs());
}

/// --explain: the check's documentation on standard output.
int explainCheck() {
  auto Info = findCheck(Explain);
  if (!Info)
    return fail(toString(Info.takeError()));
  std::optional<StringRef> Doc = checkDocumentation((*Info)->Name);
  if (!Doc)
    return fail("no documentation for '" + Explain + "' was built in");
  outs() << *Doc;
  return ExitClean;
}

/// The options whose values can be wrong on their own: a typo on the command
/// line is an error before anything else happens. The --stats format if none
/// is.
Expected<StatsFormat> checkOptionValues() {
  Expected<StatsFormat> Stats = statsFormat(statsOption());
  if (!Stats)
    return Stats.takeError();
  if (ChecksGlob.getNumOccurrences())
    if (auto Checked = selectChecks(layeredChecks(DefaultChecks, ChecksGlob));
        !Checked)
      return Checked.takeError();
  // Each worker parses a unit of its own: far past the cores, only memory
  // runs out, and from 2^31 on the thread pool's count overflows.
  constexpr unsigned MaxJobs = 1024;
  if (Jobs > MaxJobs)
    return createStringError(inconvertibleErrorCode(),
                             "-j " + Twine(Jobs) + ": at most " +
                                 Twine(MaxJobs) +
                                 " translation units can be analysed at once");
  if (!GpuArch.empty())
    if (auto Archs = parseArchitectureList(GpuArch); !Archs)
      return Archs.takeError();
  std::string RegexError;
  if (!HeaderFilter.empty() && !Regex(HeaderFilter).isValid(RegexError))
    return createStringError(inconvertibleErrorCode(),
                             "invalid --header-filter: " + RegexError);
  if (!ShardOption.empty())
    if (auto Parsed = parseShard(ShardOption); !Parsed)
      return Parsed.takeError();
  return Stats;
}

/// --dump-config, else --list-checks: for the configuration in force for the
/// first path, else the build directory, else the current directory.
int describeConfiguration(ConfigFinder &Configs,
                          const CommandLineSettings &CommandLine) {
  std::string Reference = !Paths.empty()      ? Paths.front()
                          : !BuildPath.empty() ? BuildPath.getValue()
                                               : std::string(".");
  auto Config = Configs.find(Reference);
  if (!Config)
    return fail(toString(Config.takeError()));
  EffectiveConfig Effective = effectiveConfig(*Config, CommandLine);
  auto Checks = selectChecks(Effective.Checks);
  if (!Checks)
    return fail(toString(Checks.takeError()));
  if (DumpConfig) {
    dumpConfig(Effective, outs());
    return ExitClean;
  }
  outs() << "Enabled checks:\n";
  for (const CheckInfo *Info : *Checks)
    outs() << "    " << Info->Name << " - " << Info->Summary << "\n";
  return ExitClean;
}

/// Whether the run analyses every unit of the project: its folders, a whole
/// build (-p without file names), or every unit a build recorded (--merge).
/// A file named alone may leave out units that share its headers, and so may
/// the includers of a header named, found by the names in #include lines.
bool wholeProjectRun(bool ThroughIncluders) {
  if (!OnlyUnit.empty() || !ShardOption.empty() || Launcher || ThroughIncluders)
    return false;
  return llvm::all_of(Paths, [](const std::string &Path) {
    return sys::fs::is_directory(Path);
  });
}

/// The options of a run that cannot stand together, or a run without input.
Error checkRunOptions(ArrayRef<std::string> CompilerArgs) {
  auto Wrong = [](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(), Message);
  };
  bool Rewrites = Fix || Diff || !ExportFixes.empty();
  if (Launcher) {
    if (!Paths.empty() || !BuildPath.empty() || !MergePath.empty() ||
        !ShardOption.empty() || !OnlyUnit.empty())
      return Wrong("--launcher analyses the sources of the compiler command "
                   "after '--': no paths, -p, --merge, --shard or --only-unit");
    if (CompilerArgs.empty())
      return Wrong("--launcher: no compiler command after '--' (as in "
                   "warpfix --launcher -- nvcc -c a.cu -o a.o)");
    if (Rewrites || Format != OutputFormat::Text)
      return Wrong("--launcher records each unit for --merge, which reports "
                   "and fixes them all: give --fix, --diff, --export-fixes "
                   "and --format to --merge");
    if (!CacheDir.empty() || NoCache)
      return Wrong("--launcher keeps its units' results in --results: "
                   "--cache-dir and --no-cache do not apply");
    return Error::success();
  }
  if (FailOnFindings)
    return Wrong("--fail-on-findings is for --launcher; a run's exit code "
                 "says whether findings remain");
  if (!MergePath.empty()) {
    if (!Paths.empty() || !BuildPath.empty() || !ShardOption.empty() ||
        !ResultsPath.empty())
      return Wrong("--merge runs the units recorded in its folder, with "
                   "their commands: no paths, -p, --shard or --results");
    if (!CacheDir.empty())
      return Wrong("--merge replays the results in its folder: --cache-dir "
                   "does not apply");
  } else if (Paths.empty() && BuildPath.empty()) {
    return Wrong("no input: name files or directories, or a build directory "
                 "with -p (see --help)");
  }
  if (!ShardOption.empty() && ResultsPath.empty())
    return Wrong("--shard needs --results=<folder>, where the shard's units "
                 "wait for --merge");
  if (!ShardOption.empty() && Rewrites)
    return Wrong("--shard analyses a share of the code base, and a fix must "
                 "suit every unit that runs the code: give --fix, --diff or "
                 "--export-fixes to --merge");
  if (!ResultsPath.empty() && (!CacheDir.empty() || NoCache))
    return Wrong("--results keeps the units' results itself: --cache-dir and "
                 "--no-cache do not apply");
  if (Fix && Diff)
    return Wrong("--fix and --diff exclude each other: --diff writes nothing");
  if (Diff && Format != OutputFormat::Text)
    return Wrong("--diff prints the patch on standard output, where "
                 "--format=json and --format=sarif print the report; use "
                 "--export-fixes or run twice");
  return Error::success();
}

/// What the command line says about every profile of the run.
ProfileSettings profileSettings(const CudaToolkit &Toolkit,
                                const char *Argv0) {
  ProfileSettings Settings{Toolkit, {}};
  // Checked at start-up (checkOptionValues).
  if (!GpuArch.empty())
    Settings.GpuArchs = cantFail(parseArchitectureList(GpuArch));
  // A unit parsed and not analysed has no result to keep.
  if (!NoCache && !ParseOnly) {
    std::string Results = resultsFolder();
    Settings.CacheIsResults = !Results.empty();
    Settings.CacheDirectory = Settings.CacheIsResults
                                  ? resultsCacheDirectory(Results)
                              : CacheDir.empty() ? defaultCacheDirectory()
                                                 : std::string(CacheDir);
    Settings.CacheIdentity =
        processCacheIdentity(Argv0, reinterpret_cast<void *>(&fail),
                             /*WithWorkingDirectory=*/!Settings.CacheIsResults);
  }
  Settings.UsePrefilter = !NoPrefilter;
  Settings.ColoredMessages = colors(errs());
  Settings.Parse.Strict = StrictParse;
  Settings.Parse.TestingCrashFile = TestingCrashIn;
  Settings.Parse.TestingBeforeUnit = TestingBeforeUnit;
  Settings.Parse.ParseOnly = ParseOnly;
  // A rewrite is checked by parsing the rewritten code.
  Settings.Parse.NoParseAfterAnalysis = !Fix && !Diff && ExportFixes.empty();
  Settings.Parse.ToolchainRoots = systemHeaderRoots(Toolkit);
  return Settings;
}

/// Where an #include that no include path finds is looked for by name: the
/// folders given (a file's own folder), the build directory, and the tree
/// searched for the includers of a header named (IncludersTree).
std::vector<std::string>
headerSearchRoots(StringRef IncludersTree,
                  ArrayRef<std::string> RecordedRoots = {}) {
  std::vector<std::string> Roots;
  for (const std::string &Path : Paths) {
    std::string Root = absolutePath(Path);
    if (!sys::fs::is_directory(Root))
      Root = sys::path::parent_path(Root).str();
    if (!llvm::is_contained(Roots, Root))
      Roots.push_back(Root);
  }
  if (!BuildPath.empty())
    Roots.push_back(absolutePath(BuildPath));
  if (!IncludersTree.empty() && !llvm::is_contained(Roots, IncludersTree))
    Roots.push_back(IncludersTree.str());
  for (const std::string &Root : RecordedRoots)
    if (!llvm::is_contained(Roots, Root))
      Roots.push_back(Root);
  return Roots;
}

/// Each file by its profile, Workers at a time, under a progress line where
/// one is worth drawing; then each file again for every further architecture
/// of its build whose `#if`s take other branches; then the profiles'
/// warnings.
AnalysedUnits analyseFiles(ArrayRef<std::string> Files, ProfileSet &Profiles,
                           unsigned Workers,
                           ArrayRef<std::string> ToolchainRoots,
                           raw_ostream &Messages = errs()) {
  // A line per file is only worth drawing when there are a few of them.
  constexpr size_t FilesWorthAProgressLine = 4;
  auto Analyse = [&](ArrayRef<std::string> Names, const AnalyseOne &One) {
    ProgressLine Progress(errs(), Names.size(),
                          !Quiet && sys::Process::StandardErrIsDisplayed() &&
                              Names.size() >= FilesWorthAProgressLine);
    return analyseAll(Names, Workers, One, Progress, Messages);
  };
  AnalysedUnits Units;
  Units.Results = Analyse(
      Files, [&](size_t I) { return Profiles.of(I).run(Files[I]); });
  parseFurtherArchitectures(Units, Files, Profiles, ToolchainRoots, Analyse);
  for (const std::string &Warning : Profiles.takeWarnings())
    WithColor::warning(Messages, "warpfix") << Warning << "\n";
  return Units;
}

/// Adds to Results what a lexical reading finds in the headers under the
/// folders given that no unit read, and says how many there were. Not with
/// --only-unit, which leaves the other units out on purpose.
Error addUnreadHeaders(std::vector<TranslationUnitResult> &Results,
                       ConfigFinder &Configs,
                       const CommandLineSettings &CommandLine) {
  if (!OnlyUnit.empty() || ParseOnly)
    return Error::success();
  auto Unread = scanUnreadHeaders(collectHeadersUnder(Paths), Results, Configs,
                                  CommandLine);
  if (!Unread)
    return Unread.takeError();
  size_t WithNames = Unread->Scans.size();
  if (!Quiet && Unread->Count)
    errs() << "warpfix: " << Unread->Count << " header"
           << (Unread->Count == 1 ? "" : "s")
           << " under the folders given " << (Unread->Count == 1 ? "was" : "were")
           << " read by no translation unit; " << WithNames << " of them "
           << (WithNames == 1 ? "holds" : "hold")
           << " names that CUDA 13 rejects, reported without analysis\n";
  for (TranslationUnitResult &Scan : Unread->Scans)
    Results.push_back(std::move(Scan));
  return Error::success();
}

/// --fix: writes the fixes under which the code still compiles, and records
/// in Run which findings they fixed. False when a file could not be written.
/// The rewrite --fix would make: every fix applied, and each file whose
/// fixes break a translation unit taken out. --diff and --export-fixes show
/// no more than this, so that what they offer compiles too.
FixPlan verifiedPlan(const FindingSet &Set, ArrayRef<VerifiableUnit> Units,
                     unsigned Workers) {
  FixPlan Plan = planFixes(Set);
  refuseFixesThatBreak(Plan, Units, Workers);
  return Plan;
}

bool fixFiles(FixPlan Plan, RunReport &Run,
              std::vector<std::string> &ToolErrors) {
  if (!TestingBeforeWrite.empty() && !Plan.Files.empty()) {
    StringRef Argv[] = {"/bin/sh", "-c", TestingBeforeWrite};
    sys::ExecuteAndWait("/bin/sh", Argv);
  }
  ApplyOutcome Outcome = writeFixes(std::move(Plan));
  printErrors(Outcome.Errors);
  llvm::append_range(ToolErrors, Outcome.Errors);
  Run.FixRequested = true;
  Run.Fixed = fixedFindings(Run.Set, Outcome);
  if (!Quiet)
    printFixSummary(Run, Outcome.FilesWritten, errs());
  return Outcome.Errors.empty();
}

/// --format=json|sarif on standard output, then --stats.
void writeReports(const RunReport &Run, SourcePositions &Positions,
                  StatsFormat Stats, bool CsvOnStdout) {
  if (Format == OutputFormat::Json)
    writeJsonReport(Run, Positions, outs());
  if (Format == OutputFormat::Sarif)
    writeSarifReport(Run, Positions, outs());
  if (Stats != StatsFormat::None) {
    outs().flush();
    RunStats Counts = computeStats(Run);
    if (Stats == StatsFormat::Csv)
      printStatsCsv(Counts, CsvOnStdout ? outs() : errs());
    else
      printStatsText(Counts, errs());
  }
}

/// The run's exit code, from what it found and what went wrong.
int exitCode(const RunReport &Run, bool HadErrors) {
  if (!Run.Crashes.empty())
    return ExitCrash;
  if (HadErrors)
    return ExitError;
  // Where clang reported errors, its recovery may have dropped code whose
  // findings nobody sees: such a run never says that none remain.
  if (!Run.UnitsWithErrors.empty())
    return ExitFindings;
  // A header outside the paths given is still compiled with them: what no
  // one chose to hide still remains.
  return Run.remainingCount() || Run.Set.HiddenOutsidePaths ? ExitFindings
                                                            : ExitClean;
}

/// --merge: how many of its units were replayed, and how many analysed again.
void printReplays(ArrayRef<TranslationUnitResult> Results, raw_ostream &OS) {
  size_t Units = 0, Replayed = 0, Parses = 0, ParsesReplayed = 0;
  for (const TranslationUnitResult &Result : Results) {
    size_t &Count = Result.ExtraArchitecture ? Parses : Units;
    size_t &FromFolder = Result.ExtraArchitecture ? ParsesReplayed : Replayed;
    ++Count;
    FromFolder += Result.FromCache;
  }
  OS << "warpfix: " << Replayed << " of " << Units << " units replayed from '"
     << resultsFolder() << "'";
  if (Parses)
    OS << " (and " << ParsesReplayed << " of " << Parses
       << " parses for other architectures)";
  if (Replayed < Units || ParsesReplayed < Parses)
    OS << "; the others were analysed again (a file they read changed, "
          "their result was not kept, or the options differ from those "
          "they were recorded with)";
  OS << "\n";
}

/// --launcher: Units, the CUDA sources of one compile, analysed with its
/// command and recorded in the results folder. The exit code that
/// --fail-on-findings gives the compile.
int analyseLaunched(ArrayRef<clang::tooling::CompileCommand> Units,
                    ConfigFinder &Configs, const char *Argv0) {
  // The build goes on unless it was asked to stop.
  auto Problem = [](const Twine &Message) {
    if (FailOnFindings)
      return fail(Message);
    WithColor::warning(errs(), "warpfix")
        << Message << "; the unit is left to --merge\n";
    return ExitError;
  };
  // Headers are looked for by name under the build directory, as a -p run
  // does.
  std::string Root = launchedBuildDirectory();
  std::vector<std::string> Files;
  for (const clang::tooling::CompileCommand &Unit : Units) {
    if (Error Err =
            recordUnit(resultsFolder(), Unit.Filename, &Unit, {{Root}, {}}))
      return Problem(toString(std::move(Err)));
    Files.push_back(Unit.Filename);
  }
  auto Toolkit = locateCudaToolkit(CudaPath, Argv0);
  if (!Toolkit)
    return Problem(toString(Toolkit.takeError()));
  auto Database = databaseOfCommands(Units);
  if (!Database)
    return Problem(toString(Database.takeError()));
  ProfileSettings Settings = profileSettings(*Toolkit, Argv0);
  HeadersByName Headers({Root});
  Settings.Parse.Headers = &Headers;
  auto Profiles = ProfileSet::create(Files, Configs, commandLineSettings({}),
                                     std::move(*Database), Settings);
  if (!Profiles)
    return Problem(toString(Profiles.takeError()));
  // The build runs as many compiles at once as it has cores. clang's
  // messages and the commands' warnings are the merge's to show, once.
  AnalysedUnits Analysed =
      analyseFiles(Files, *Profiles, Jobs ? Jobs : 1,
                   Settings.Parse.ToolchainRoots,
                   FailOnFindings ? errs() : nulls());
  UnitOutcomes Outcomes = countUnits(
      Analysed.Results, [&](StringRef File, StringRef) {
        return "warpfix --merge " + shellWord(resultsFolder()) +
               " --only-unit " + shellWord(File);
      });
  printCrashes(Outcomes.Crashes, errs());
  if (!FailOnFindings)
    return ExitClean;
  // The unit's findings in every header of the project: the build directory
  // says nothing of where its sources lie.
  std::vector<std::string> ConfigErrors;
  FindingSet Set =
      mergeFindings(std::move(Analysed.Results),
                    headerFilter(Files, Configs, ConfigErrors, {"/"}),
                    /*WholeProject=*/false);
  if (!ConfigErrors.empty())
    return fail(ConfigErrors.front());
  printTextReport(Set.Findings, errs(), colors(errs()));
  RunReport Run(Set, Profiles->enabledChecks());
  Run.setUnits(Outcomes);
  return exitCode(Run, /*HadErrors=*/false);
}

/// --launcher: the compiler first, exactly as the build runs it; then each
/// CUDA source that it compiles, analysed and recorded for --merge. The
/// compile fails where the compiler fails, and, with --fail-on-findings,
/// where findings remain.
int launch(ArrayRef<std::string> Command, ConfigFinder &Configs,
           const char *Argv0) {
  Expected<int> Compiled = runCompiler(Command);
  if (!Compiled)
    return fail(toString(Compiled.takeError()));
  SmallString<256> Directory;
  sys::fs::current_path(Directory);
  std::vector<clang::tooling::CompileCommand> Units =
      cudaCompileCommands(Command, Directory);
  if (Units.empty())
    return *Compiled;
  int Analysis = analyseLaunched(Units, Configs, Argv0);
  if (*Compiled)
    return *Compiled;
  return FailOnFindings ? Analysis : ExitClean;
}

} // namespace

static int runWarpfix(int argc, const char **argv) {
  // Each TU runs inside a CrashRecoveryContext (Analyser.cpp): a crash in one
  // costs that TU, not the run.
  enableCrashRecovery();
  std::vector<std::string> CompilerArgs;
  if (!parseCommandLine(argc, argv, CompilerArgs))
    return ExitError;
  if (UseColor.getNumOccurrences())
    WithColor::setAutoDetectFunction(
        [](const raw_ostream &) { return bool(UseColor); });
  if (Explain.getNumOccurrences())
    return explainCheck();
  Expected<StatsFormat> Stats = checkOptionValues();
  if (!Stats)
    return fail(toString(Stats.takeError()));
  ConfigFinder Configs(ConfigFilePath);
  CommandLineSettings CommandLine = commandLineSettings(CompilerArgs);
  if (DumpConfig || ListChecks)
    return describeConfiguration(Configs, CommandLine);
  if (Error Err = checkRunOptions(CompilerArgs))
    return fail(toString(std::move(Err)));
  if (Launcher)
    return launch(CompilerArgs, Configs, argv[0]);

  // Input: the toolkit, the compile commands, the files.
  auto Toolkit = locateCudaToolkit(CudaPath, argv[0]);
  if (!Toolkit)
    return fail(toString(Toolkit.takeError()));
  auto Input = runInput();
  if (!Input)
    return fail(toString(Input.takeError()));
  std::vector<std::string> &Files = Input->Files;
  std::vector<std::string> ToolErrors; // for the json and sarif reports
  std::string IncludersTree;
  std::vector<std::string> SourceFiles = usableSourceFiles(
      withIncluders(Files, Input->Database.get(), IncludersTree), ToolErrors);
  printErrors(ToolErrors);
  bool HadErrors = !ToolErrors.empty();
  bool SeveralUnits = SourceFiles.size() > 1;
  if (!OnlyUnit.empty()) {
    auto Only = onlyUnit(SourceFiles);
    if (!Only)
      return fail(toString(Only.takeError()));
    SourceFiles = {*Only};
  }
  if (!ShardOption.empty())
    SourceFiles = shareOf(std::move(SourceFiles));
  // A results folder's units are found by their absolute paths, from
  // wherever --merge runs.
  if (!ResultsPath.empty()) {
    for (std::string &File : SourceFiles)
      File = absolutePath(File);
    if (!recordUnits(SourceFiles, Input->Database.get(),
                     {headerSearchRoots(IncludersTree), shownRoots()}))
      return ExitError;
  }
  fitLargeBlocksTo(SourceFiles.size());

  // Run: each file analysed by the profile of the configuration in force.
  ProfileSettings Settings = profileSettings(*Toolkit, argv[0]);
  SharedPreambles Preambles(Settings.Parse.ToolchainRoots,
                            TestingReportPreambles ? &errs() : nullptr);
  // One unit has no one to share with, and building a preamble costs more
  // than the parse it saves (0.2 s and 8 MiB on a single 250-kernel file).
  if (!NoSharedPreambles && SeveralUnits)
    Settings.Parse.Preambles = &Preambles;
  HeadersByName Headers(
      headerSearchRoots(IncludersTree, Input->Recorders.SearchedByName));
  Settings.Parse.Headers = &Headers;
  auto Profiles = ProfileSet::create(SourceFiles, Configs, CommandLine,
                                     std::move(Input->Database), Settings);
  if (!Profiles)
    return fail(toString(Profiles.takeError()));
  unsigned Workers =
      Jobs ? unsigned(Jobs) : hardware_concurrency().compute_thread_count();
  AnalysedUnits Analysed = analyseFiles(SourceFiles, *Profiles, Workers,
                                        Settings.Parse.ToolchainRoots);
  std::vector<TranslationUnitResult> &Results = Analysed.Results;
  if (!MergePath.empty() && !Quiet)
    printReplays(Results, errs());
  UnitOutcomes Units =
      countUnits(Results, [&](StringRef File, StringRef Arch) {
        return reproducingCommand(File, Arch, CompilerArgs);
      });
  printCrashes(Units.Crashes, errs());
  std::vector<VerifiableUnit> Verifiable;
  bool Rewrites = Fix || Diff || !ExportFixes.empty();
  if (Rewrites)
    Verifiable = verifiableUnits(
        Results,
        [&](size_t I) -> const clang::tooling::CompilationDatabase & {
          return Analysed.commandsOf(I, *Profiles, SourceFiles.size());
        },
        Settings.Parse.ToolchainRoots);

  if (Error Err = addUnreadHeaders(Results, Configs, CommandLine))
    return fail(toString(std::move(Err)));

  // Merge: code that several translation units see is reported once.
  std::vector<std::string> ConfigErrors;
  // Never freed: the process ends after the reports, and destroying each
  // finding's strings cost 0.5% of a run of 12,000 findings (clang's
  // -disable-free buries its AST for the same reason).
  FindingSet &Set = *new FindingSet(mergeFindings(
      std::move(Results),
      headerFilter(Files, Configs, ConfigErrors,
                   MergePath.empty() ? shownRoots() : Input->Recorders.Shown),
      wholeProjectRun(!IncludersTree.empty())));
  llvm::BuryPointer(&Set);
  if (!ConfigErrors.empty())
    return fail(ConfigErrors.front());
  HadErrors |= printUnparsedFiles(Set, Units.CrashedFiles, StrictParse, errs());

  // Output. Standard output carries one thing: the patch (--diff), the json
  // or sarif report, the CSV of --stats=csv, or else the text findings.
  bool StdoutTaken = Diff || Format != OutputFormat::Text;
  bool CsvOnStdout = *Stats == StatsFormat::Csv && !StdoutTaken;
  raw_ostream &Report = Diff || CsvOnStdout ? errs() : outs();
  SourcePositions Positions;
  if (Format == OutputFormat::Text) {
    printTextReport(Set.Findings, Report, colors(Report));
    Report.flush();
  } else {
    Positions.load(Set.Findings); // before --fix changes the files
  }
  if (!Quiet)
    printRunSummary(Set, Units, errs());
  std::optional<FixPlan> Plan;
  if (Rewrites)
    Plan = verifiedPlan(Set, Verifiable, Workers);
  if (!ExportFixes.empty())
    if (Error Err = exportFixes(Set, *Plan, ExportFixes))
      return fail(toString(std::move(Err)));
  if (Diff) {
    writeUnifiedDiff(Set, *Plan, outs());
    std::string Advice = diffApplyingAdvice(*Plan);
    if (!Advice.empty() && !Quiet)
      WithColor::note(errs(), "warpfix") << Advice << "\n";
  }
  // --fix says why it left files alone as it writes the others.
  if (Plan && !Fix && !Plan->Errors.empty()) {
    printErrors(Plan->Errors);
    llvm::append_range(ToolErrors, Plan->Errors);
    HadErrors = true;
  }
  RunReport Run(Set, Profiles->enabledChecks());
  Run.setUnits(Units);
  if (Fix)
    HadErrors |= !fixFiles(std::move(*Plan), Run, ToolErrors);
  llvm::sort(ToolErrors);
  Run.Errors = ToolErrors;
  writeReports(Run, Positions, *Stats, CsvOnStdout);
  return exitCode(Run, HadErrors);
}

int main(int argc, const char **argv) {
  InitLLVM Init(argc, argv);
  int Code = runWarpfix(argc, argv);
  // A report that could not be written (standard output on a full disk) is
  // an error, not "findings remain": left alone, LLVM ends the process with
  // exit code 1 when it destroys outs().
  outs().flush();
  if (outs().has_error()) {
    WithColor::error(errs(), "warpfix")
        << "cannot write to standard output: " << outs().error().message()
        << "\n";
    outs().clear_error();
    if (Code != ExitCrash)
      Code = ExitError;
  }
  return Code;
}
