// What one run found and did, as the machine-readable reports and --stats see
// it: the merged findings, the enabled checks, which findings this run's
// --fix wrote, and the errors that are not findings.
#ifndef WARPFIX_TOOL_OUTPUT_RUNREPORT_H
#define WARPFIX_TOOL_OUTPUT_RUNREPORT_H

#include "checks/CheckRegistry.h"
#include "tool/merge/FindingSet.h"
#include "tool/output/FixWriter.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <optional>

namespace warpfix {

struct UnitOutcomes;

/// The #includes of a run's units that clang did not find, and those that
/// warpfix found by name (tool/input/HeadersByName.h): which -I or
/// configured build directory (-p) unlocks the most.
struct HeaderOutcomes {
  /// Each #include that clang did not find, by the name it gives: the units
  /// it broke, and their findings that errors left without a fix.
  struct Missing {
    size_t Units = 0, Withheld = 0;
  };
  std::map<std::string, Missing> MissingHeaders;
  /// Each #include found by name, with its folder: how many units used it.
  std::map<std::pair<std::string, std::string>, size_t> FoundByName;
  /// The same for those found by name that had errors, and were not used.
  std::map<std::pair<std::string, std::string>, size_t> RejectedByName;

  /// The missing ones, those that broke the most units first.
  std::vector<std::pair<std::string, Missing>> missingByUnits() const;
  /// As the JSON report's "headers" (docs/json-format.md), which SARIF's
  /// invocation properties repeat.
  llvm::json::Object toJson() const;
};

struct RunReport {
  const FindingSet &Set;
  /// The enabled checks, in registry order.
  std::vector<const CheckInfo *> Checks;
  /// Whether --fix ran.
  bool FixRequested = false;
  /// Parallel to Set.Findings: true where this run's --fix wrote every file
  /// of the finding's fix. All false without --fix.
  std::vector<bool> Fixed;
  /// The translation units that did not parse: absolute paths, sorted.
  std::vector<std::string> FailedFiles;
  /// Errors other than files that did not parse:
  /// binary files skipped, fixes that could not be written.
  std::vector<std::string> Errors;
  /// Translation units the prefilter (run/Prefilter) decided not to parse:
  /// none of their user files holds a token any check looks at.
  size_t SkippedTUs = 0;
  /// Translation units by what became of them (the prefilter's are apart):
  /// analysed without an error, analysed despite errors (findings in every
  /// function, fixes only where no error can have misled them), not analysed
  /// (no AST, or dropped by --strict-parse), crashed.
  struct UnitCounts {
    size_t Clean = 0, WithErrors = 0, NotAnalysed = 0, Crashed = 0;
  } Units;
  /// A TU on which warpfix crashed: its main file (absolute), the stage, and
  /// the command that reproduces the crash.
  struct Crash {
    std::string File, Stage, Command;
  };
  std::vector<Crash> Crashes;
  /// A TU that clang reported errors in, and that was analysed all the same:
  /// its main file (absolute), how many, and the first. Those that were not
  /// analysed are among FailedFiles.
  struct CompilerErrors {
    std::string File;
    unsigned Count = 0;
    std::string First;
  };
  std::vector<CompilerErrors> UnitsWithErrors;
  HeaderOutcomes Headers;

  RunReport(const FindingSet &Set, std::vector<const CheckInfo *> Checks);
  size_t fixedCount() const;
  /// Of those, the fixes that wrote a mask for a person to review
  /// (ReviewMaskMarker): the next run reports them again.
  size_t fixedForReviewCount() const;
  /// What the next run will report: the findings not fixed, and those fixed
  /// for review. The exit code looks at this.
  size_t remainingCount() const;
  /// Takes the skipped, the counts and the crashes from Units; a crashed TU
  /// is told as a crash, not as a file that did not parse.
  void setUnits(const UnitOutcomes &Units);
};

/// What became of the translation units of a run, counted from their results
/// before these are merged.
struct UnitOutcomes {
  /// Those the prefilter skipped; they are in no count.
  size_t Skipped = 0;
  /// Further parses of units for other architectures (in no count either),
  /// and how many units had them.
  size_t ExtraArchitectureParses = 0, UnitsParsedForSeveral = 0;
  RunReport::UnitCounts Counts;
  std::vector<RunReport::Crash> Crashes;
  /// Sorted by file.
  std::vector<RunReport::CompilerErrors> UnitsWithErrors;
  /// The main files of the crashed ones, as named in the results.
  llvm::StringSet<> CrashedFiles;
  HeaderOutcomes Headers;
};

/// ReproducingCommand gives the command that reproduces a crash on a file
/// (parsed for Arch, where it is not empty).
UnitOutcomes
countUnits(llvm::ArrayRef<TranslationUnitResult> Results,
           llvm::function_ref<std::string(llvm::StringRef MainFile,
                                           llvm::StringRef Arch)>
               ReproducingCommand);

/// Which findings --fix wrote: those whose every file was written.
std::vector<bool> fixedFindings(const FindingSet &Set,
                                const ApplyOutcome &Outcome);

/// The edits of a finding's fix, by file, in path order (StringMap's own
/// order depends on hashing).
std::vector<std::pair<llvm::StringRef, const clang::tooling::Replacements *>>
fixByFile(const clang::tooling::Diagnostic &D);

/// Why a finding has no fix: the cause of an abstention (every unit
/// abstained), else the text after "no automatic fix: " in its first such
/// note, else after "not analysed: " (code in an #if branch this parse's
/// architecture skips).
std::optional<std::string> noFixReason(const clang::tooling::Diagnostic &D);

/// The reason cut to its first clause (up to the first ',', ';', ':' or
/// " (" outside quotes), with each quoted name ('foo', 'a.cu') replaced by
/// '...', so that the same reason about different functions or files counts
/// once in --stats.
std::string reasonGroup(llvm::StringRef Reason);

} // namespace warpfix

#endif
