// The command line: warpfix [options] <path>... [-- <compiler args>]
#include "checks/CheckRegistry.h"
#include "tool/run/Analyzer.h"
#include "tool/BuildConfig.h"
#include "tool/output/CheckDocs.h"
#include "tool/input/CompileCommands.h"
#include "tool/input/CudaToolkit.h"
#include "tool/merge/FindingSet.h"
#include "tool/output/FixVerifier.h"
#include "tool/output/FixWriter.h"
#include "tool/run/ParallelRunner.h"
#include "tool/input/Paths.h"
#include "tool/input/Config.h"
#include "tool/run/Profile.h"
#include "tool/input/SourceFiles.h"
#include "tool/output/JsonReport.h"
#include "tool/output/SarifReport.h"
#include "tool/output/Stats.h"
#include "tool/output/TextReport.h"
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

using namespace llvm;
using namespace warpfix;

namespace {

cl::OptionCategory Category("warpfix options");

cl::list<std::string> Paths(cl::Positional, cl::desc("<path>..."),
                            cl::cat(Category));
cl::opt<std::string> BuildPath(
    "p", cl::desc("Build directory containing compile_commands.json"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> ChecksGlob(
    "checks", cl::desc("Comma-separated globs of checks to run; a leading '-' "
                       "disables (default: warp-*). warpfix-nolint, which "
                       "reports unmatched NOLINTBEGIN/NOLINTEND, is always on"),
    cl::init("warp-*"), cl::cat(Category));
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
             "(default: headers under the given paths)"),
    cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path",
                              cl::desc("CUDA toolkit root (default: CUDA_PATH, "
                                       "CUDA_HOME, /usr/local/cuda, nvcc)"),
                              cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> GpuArch(
    "cuda-gpu-arch",
    cl::desc("Device architecture of the parse (default: the compilation "
             "database's, else sm_70)"),
    cl::value_desc("sm_XX"), cl::cat(Category));
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
  if (cl::Option *LLVMStats = cl::getRegisteredOptions().lookup("stats"))
    LLVMStats->removeArgument();
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
  auto Database = loadCompilationDatabase(BuildPath);
  if (!Database)
    return Database.takeError();
  return clang::tooling::inferMissingCompileCommands(std::move(*Database));
}

/// Files named on the command line, or, with -p and no paths, every CUDA file
/// of the compilation database.
Expected<std::vector<std::string>>
filesToAnalyse(const clang::tooling::CompilationDatabase *Database) {
  if (Paths.empty() && Database) {
    std::vector<std::string> Files;
    for (const std::string &File : Database->getAllFiles())
      if (sys::path::extension(File) == ".cu")
        Files.push_back(File);
    llvm::sort(Files);
    return Files;
  }
  std::vector<std::string> Warnings;
  auto Files = collectSourceFiles(Paths, Warnings);
  for (const std::string &Warning : Warnings)
    WithColor::warning(errs(), "warpfix") << Warning << "\n";
  return Files;
}

/// Whose findings are shown, by absolute path: the files analysed always;
/// a header when it matches --header-filter, else the HeaderFilterRegex of the
/// configuration in force in its directory, else when it lies under the given
/// paths. A configuration that cannot be read lands in Errors.
std::function<bool(StringRef)>
headerFilter(const std::vector<std::string> &MainFiles, ConfigFinder &Configs,
             std::vector<std::string> &Errors) {
  std::vector<std::string> Roots;
  for (const std::string &Path : Paths)
    Roots.push_back(absolutePath(Path));
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
      return true;
    if (Regex *Pattern = patternFor(Path))
      return Pattern->match(Path);
    return llvm::any_of(Roots,
                        [&](const std::string &R) { return isUnder(Path, R); });
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
  return Settings;
}

/// The checks enabled anywhere in the run, in the registry's order.
std::vector<const CheckInfo *>
enabledChecks(ArrayRef<std::unique_ptr<Profile>> Profiles) {
  std::vector<const CheckInfo *> Union;
  for (const CheckInfo &Info : allChecks())
    for (const auto &P : Profiles)
      if (llvm::is_contained(P->checks(), &Info)) {
        Union.push_back(&Info);
        break;
      }
  return Union;
}

/// The command that analyses File alone, with the options that shape a
/// parse and its analysis, to reproduce a crash.
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

std::string reproducingCommand(StringRef File,
                               ArrayRef<std::string> CompilerArgs) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "warpfix --no-cache -j1";
  auto Option = [&](StringRef Name, StringRef Value) {
    OS << " " << shellWord(("--" + Name + "=" + Value).str());
  };
  if (!BuildPath.empty())
    Option("p", BuildPath);
  if (ChecksGlob.getNumOccurrences())
    Option("checks", ChecksGlob);
  if (!ConfigFilePath.empty())
    Option("config-file", ConfigFilePath);
  if (!CudaPath.empty())
    Option("cuda-path", CudaPath);
  if (!GpuArch.empty())
    Option("cuda-gpu-arch", GpuArch);
  if (StrictParse)
    OS << " --strict-parse";
  OS << " " << shellWord(File);
  if (!CompilerArgs.empty()) {
    OS << " --";
    for (const std::string &Arg : CompilerArgs)
      OS << " " << shellWord(Arg);
  }
  return Text;
}

/// What the fix verifier needs of each TU that parsed, or was skipped.
std::vector<VerifiableUnit>
verifiableUnits(ArrayRef<TranslationUnitResult> Results,
                ArrayRef<Profile *> FileProfiles) {
  std::vector<VerifiableUnit> Units;
  for (size_t I = 0; I < Results.size(); ++I) {
    const TranslationUnitResult &R = Results[I];
    if (!R.Parsed)
      continue; // none of its files is rewritten
    VerifiableUnit Unit;
    Unit.MainFile = R.MainFile;
    Unit.Commands = &FileProfiles[I]->database();
    for (const FileDigest &Read : R.Dependencies)
      Unit.FilesRead.push_back(Read.Path);
    // A TU with errors is compared with its own errors before the fixes.
    Unit.ParsedCleanly = !R.SkippedByPrefilter && R.ErrorCount == 0;
    Units.push_back(std::move(Unit));
  }
  return Units;
}

/// Takes out of Plan the files of every TU that its fixes would break: fixed
/// code must compile, and if it does not, warpfix is wrong somewhere.
void refuseFixesThatBreak(FixPlan &Plan, ArrayRef<VerifiableUnit> Units,
                          unsigned Workers) {
  for (const BrokenUnit &Broken : findBrokenUnits(Units, Plan, Workers)) {
    std::string Files;
    for (const std::string &File : Broken.ChangedFiles)
      Files += (Files.empty() ? "'" : ", '") + File + "'";
    std::string Why =
        "internal error: the fixes would not compile (" +
        Broken.FirstNewError + ", in the translation unit of '" +
        Broken.MainFile + "'); " + Files +
        " not rewritten. This is a bug in warpfix, unless the configuration "
        "names a FullMaskSpelling that is not defined there";
    for (const std::string &File : Broken.ChangedFiles)
      Plan.refuse(File, Why);
  }
}

void printVersion(raw_ostream &OS) {
  OS << "warpfix " << WARPFIX_VERSION << " (LLVM " << WARPFIX_LLVM_VERSION
     << ")\n";
}

} // namespace

int main(int argc, const char **argv) {
  InitLLVM Init(argc, argv);
  // Each TU runs inside a CrashRecoveryContext (Analyzer.cpp): a crash in one
  // costs that TU, not the run.
  CrashRecoveryContext::Enable();
  // Everything after "--" goes to the compiler, as with clang-tidy.
  std::vector<const char *> OwnArgs;
  std::vector<std::string> CompilerArgs;
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
  cl::opt<std::string> &StatsOption = statsOption();
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  if (!cl::ParseCommandLineOptions(
          OwnArgs.size(), OwnArgs.data(),
          "warpfix: finds and fixes CUDA warp code that assumes lockstep "
          "execution\n\nExit codes: 0 no findings remain, 1 findings remain, "
          "2 error, 3 warpfix crashed on a translation unit (the others were "
          "analysed)\n",
          &errs()))
    return ExitError;

  if (Explain.getNumOccurrences()) {
    auto Info = findCheck(Explain);
    if (!Info)
      return fail(toString(Info.takeError()));
    std::optional<StringRef> Doc = checkDocumentation((*Info)->Name);
    if (!Doc)
      return fail("no documentation for '" + Explain + "' was built in");
    outs() << *Doc;
    return ExitClean;
  }
  Expected<StatsFormat> Stats = statsFormat(StatsOption);
  if (!Stats)
    return fail(toString(Stats.takeError()));
  // A typo on the command line is an error before anything else happens.
  if (ChecksGlob.getNumOccurrences())
    if (auto Checked = selectChecks(ChecksGlob); !Checked)
      return fail(toString(Checked.takeError()));
  std::string RegexError;
  if (!HeaderFilter.empty() && !Regex(HeaderFilter).isValid(RegexError))
    return fail("invalid --header-filter: " + RegexError);
  ConfigFinder Configs(ConfigFilePath);
  CommandLineSettings CommandLine = commandLineSettings(CompilerArgs);
  if (DumpConfig || ListChecks) {
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
  if (Paths.empty() && BuildPath.empty())
    return fail("no input: name files or directories, or a build directory "
                "with -p (see --help)");
  if (Fix && Diff)
    return fail("--fix and --diff exclude each other: --diff writes nothing");
  if (Diff && Format != OutputFormat::Text)
    return fail("--diff prints the patch on standard output, where "
                "--format=json and --format=sarif print the report; use "
                "--export-fixes or run twice");

  auto Toolkit = locateCudaToolkit(CudaPath, argv[0]);
  if (!Toolkit)
    return fail(toString(Toolkit.takeError()));
  auto LoadedDatabase = loadDatabase();
  if (!LoadedDatabase)
    return fail(toString(LoadedDatabase.takeError()));
  std::shared_ptr<clang::tooling::CompilationDatabase> UserDatabase =
      std::move(*LoadedDatabase);
  auto Files = filesToAnalyse(UserDatabase.get());
  if (!Files)
    return fail(toString(Files.takeError()));

  bool HadErrors = false;
  std::vector<std::string> ToolErrors; // for the json and sarif reports
  std::vector<std::string> SourceFiles;
  for (const std::string &File : *Files) {
    if (std::optional<std::string> Problem = unusableSourceFile(File)) {
      ToolErrors.push_back(*Problem);
      WithColor::error(errs(), "warpfix") << ToolErrors.back() << "\n";
      HadErrors = true;
      continue;
    }
    SourceFiles.push_back(File);
  }

  // One profile per configuration in force; each file is analysed by its own.
  FileDigests Digests;
  ProfileSettings Settings{*Toolkit, GpuArch};
  if (!NoCache) {
    Settings.CacheDirectory =
        CacheDir.empty() ? defaultCacheDirectory() : std::string(CacheDir);
    Settings.CacheIdentity =
        processCacheIdentity(argv[0], reinterpret_cast<void *>(&fail));
  }
  Settings.UsePrefilter = !NoPrefilter;
  Settings.ColoredMessages = errs().has_colors();
  Settings.Parse.Strict = StrictParse;
  Settings.Parse.TestingCrashFile = TestingCrashIn;
  std::vector<std::unique_ptr<Profile>> Profiles;
  std::map<const warpfix::ConfigFile *, Profile *> ProfileOf;
  std::vector<Profile *> FileProfiles;
  for (const std::string &File : SourceFiles) {
    auto Config = Configs.find(File);
    if (!Config)
      return fail(toString(Config.takeError()));
    Profile *&Chosen = ProfileOf[*Config];
    if (!Chosen) {
      auto Created = Profile::create(effectiveConfig(*Config, CommandLine),
                                     UserDatabase, Settings, Digests);
      if (!Created)
        return fail(toString(Created.takeError()));
      Profiles.push_back(std::move(*Created));
      Chosen = Profiles.back().get();
    }
    FileProfiles.push_back(Chosen);
  }

  // A line per file is only worth drawing when there are a few of them.
  constexpr size_t FilesWorthAProgressLine = 4;
  ProgressLine Progress(errs(), SourceFiles.size(),
                        !Quiet && sys::Process::StandardErrIsDisplayed() &&
                            SourceFiles.size() >= FilesWorthAProgressLine);
  unsigned Workers =
      Jobs ? unsigned(Jobs) : hardware_concurrency().compute_thread_count();
  std::vector<TranslationUnitResult> Results = analyzeAll(
      SourceFiles, Workers,
      [&](size_t I) { return FileProfiles[I]->run(SourceFiles[I]); },
      Progress, errs());
  std::vector<std::string> RunWarnings;
  for (auto &P : Profiles)
    llvm::append_range(RunWarnings, P->takeWarnings());
  llvm::sort(RunWarnings);
  for (const std::string &Warning : RunWarnings)
    WithColor::warning(errs(), "warpfix") << Warning << "\n";
  size_t SkippedTUs = llvm::count_if(Results, [](const auto &R) {
    return R.SkippedByPrefilter;
  });
  RunReport::UnitCounts UnitCounts;
  std::vector<RunReport::Crash> Crashes;
  for (const TranslationUnitResult &R : Results) {
    if (R.SkippedByPrefilter)
      continue;
    if (R.Crashed) {
      ++UnitCounts.Crashed;
      Crashes.push_back({absolutePath(R.MainFile), R.CrashStage,
                         reproducingCommand(R.MainFile, CompilerArgs)});
    } else if (!R.Parsed) {
      ++UnitCounts.NotAnalysed;
    } else if (R.ErrorCount) {
      ++UnitCounts.WithErrors;
    } else {
      ++UnitCounts.Clean;
    }
  }
  for (const RunReport::Crash &C : Crashes)
    WithColor::error(errs(), "warpfix")
        << "warpfix crashed in the " << C.Stage << " stage of '" << C.File
        << "'; its legacy names were reported without analysis, and every "
           "other translation unit was analysed as usual. This is a bug in "
           "warpfix: please report it with the output of\n  "
        << C.Command << "\n";
  StringSet<> CrashedFiles;
  for (const TranslationUnitResult &R : Results)
    if (R.Crashed)
      CrashedFiles.insert(R.MainFile);
  std::vector<VerifiableUnit> Units;
  if (Fix)
    Units = verifiableUnits(Results, FileProfiles);
  std::vector<std::string> ConfigErrors;
  FindingSet Set = mergeFindings(std::move(Results),
                                 headerFilter(*Files, Configs, ConfigErrors));
  if (!ConfigErrors.empty())
    return fail(ConfigErrors.front());
  for (const std::string &Failed : Set.FailedFiles) {
    if (CrashedFiles.contains(Failed))
      continue;
    WithColor::error(errs(), "warpfix")
        << "could not parse '" << Failed
        << (StrictParse ? "'; nothing in it was analysed or changed"
                        : "'; clang built no syntax tree for it, so only its "
                          "legacy names were reported, and nothing in it "
                          "was changed")
        << ". If it needs include "
           "paths or macros, pass them after '--', or point -p at a build "
           "directory with compile_commands.json\n";
    HadErrors = true;
  }

  // Standard output carries one thing: the patch (--diff), the json or sarif
  // report, the CSV of --stats=csv, or else the text findings.
  bool StdoutTaken = Diff || Format != OutputFormat::Text;
  bool CsvOnStdout = *Stats == StatsFormat::Csv && !StdoutTaken;
  raw_ostream &Report = Diff || CsvOnStdout ? errs() : outs();
  SourcePositions Positions;
  if (Format == OutputFormat::Text) {
    printTextReport(Set.Findings, Report, Report.has_colors());
    Report.flush();
  } else {
    Positions.load(Set.Findings); // before --fix changes the files
  }
  size_t Fixable = Set.fixableCount();
  if (!Quiet && Set.FailedFiles.size() + UnitCounts.Clean +
                        UnitCounts.WithErrors >
                    0)
    errs() << "translation units: " << UnitCounts.Clean << " analysed clean"
           << (UnitCounts.WithErrors + UnitCounts.NotAnalysed +
                           UnitCounts.Crashed
                   ? ", " + std::to_string(UnitCounts.WithErrors) +
                         " analysed with errors, " +
                         std::to_string(UnitCounts.NotAnalysed) +
                         " not analysed, " +
                         std::to_string(UnitCounts.Crashed) + " crashed"
                   : std::string())
           << (SkippedTUs ? ", " + std::to_string(SkippedTUs) +
                                " skipped (nothing to check)"
                          : std::string())
           << "\n";
  if (!Quiet)
    errs() << Set.Findings.size() << " finding"
         << (Set.Findings.size() == 1 ? "" : "s") << " in " << Set.fileCount()
         << " file" << (Set.fileCount() == 1 ? "" : "s") << " (" << Fixable
         << " fixable)\n";

  if (!ExportFixes.empty())
    if (Error Err = exportFixes(Set, ExportFixes))
      return fail(toString(std::move(Err)));
  if (Diff)
    writeUnifiedDiff(Set, outs());

  RunReport Run(Set, enabledChecks(Profiles));
  Run.SkippedTUs = SkippedTUs;
  Run.Units = UnitCounts;
  Run.Crashes = Crashes;
  llvm::erase_if(Run.FailedFiles, [&](const std::string &F) {
    return llvm::any_of(Crashes, [&](const auto &C) { return C.File == F; });
  });
  if (Fix) {
    FixPlan Plan = planFixes(Set);
    refuseFixesThatBreak(Plan, Units, Workers);
    if (!TestingBeforeWrite.empty() && !Plan.Files.empty()) {
      StringRef Argv[] = {"/bin/sh", "-c", TestingBeforeWrite};
      sys::ExecuteAndWait("/bin/sh", Argv);
    }
    ApplyOutcome Outcome = writeFixes(std::move(Plan));
    for (const std::string &Error : Outcome.Errors)
      WithColor::error(errs(), "warpfix") << Error << "\n";
    HadErrors |= !Outcome.Errors.empty();
    llvm::append_range(ToolErrors, Outcome.Errors);
    Run.FixRequested = true;
    Run.Fixed = fixedFindings(Set, Outcome);
    size_t Applied = Run.fixedCount(), Remaining = Set.Findings.size() - Applied;
    if (!Quiet)
      errs() << "fixed " << Applied << " finding" << (Applied == 1 ? "" : "s")
           << " in " << Outcome.FilesWritten << " file"
           << (Outcome.FilesWritten == 1 ? "" : "s") << "; " << Remaining
           << " remain\n";
  }
  llvm::sort(ToolErrors);
  Run.Errors = ToolErrors;
  if (Format == OutputFormat::Json)
    writeJsonReport(Run, Positions, outs());
  if (Format == OutputFormat::Sarif)
    writeSarifReport(Run, Positions, outs());
  if (*Stats != StatsFormat::None) {
    outs().flush();
    RunStats Counts = computeStats(Run);
    if (*Stats == StatsFormat::Csv)
      printStatsCsv(Counts, CsvOnStdout ? outs() : errs());
    else
      printStatsText(Counts, errs());
  }
  if (!Crashes.empty())
    return ExitCrash;
  if (HadErrors)
    return ExitError;
  return Set.Findings.size() > Run.fixedCount() ? ExitFindings : ExitClean;
}
