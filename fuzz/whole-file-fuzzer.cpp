// Whole .cu files through the analysis and --fix, as a run of
// `warpfix --fix k.cu` takes them: any text gives findings or a unit that did
// not parse, never a crash; the verifier's re-parse of the fixed text finds no
// new error in any planned fix (a fix that breaks the code is a warpfix bug
// even where the verifier catches it); and the fixed file, analysed again,
// has no finding that the first run did not leave (a second run finds
// nothing new). An input of odd length runs with --mask-fallback=activemask
// and --assume-whole-warps=false, so that both kinds of mask are written.
#include "tool/input/Config.h"
#include "tool/input/CudaToolkit.h"
#include "tool/merge/FindingSet.h"
#include "tool/output/FixVerifier.h"
#include "tool/output/FixWriter.h"
#include "tool/output/RunReport.h"
#include "tool/run/Pipeline.h"
#include "tool/run/Profile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>

using namespace warpfix;
namespace fs = llvm::sys::fs;

namespace {

std::string Text;

[[noreturn]] void fail(const llvm::Twine &What) {
  llvm::errs() << "whole-file-fuzzer: " << What << "\n--- input ---\n"
               << Text << "\n-------------\n";
  std::abort();
}

struct Setting {
  std::optional<CudaToolkit> Toolkit;
  /// Outlives every input: the verifier's units refer to it.
  std::vector<std::string> ToolchainRoots;
  std::string File;
};

Setting &setting() {
  static Setting S = [] {
    Setting S;
    // The compat headers are found beside the binary, as for warpfix.
    auto Toolkit = locateCudaToolkit("", "/proc/self/exe");
    if (!Toolkit) {
      llvm::errs() << "whole-file-fuzzer: " << toString(Toolkit.takeError())
                   << "\n";
      std::exit(1);
    }
    S.Toolkit = std::move(*Toolkit);
    S.ToolchainRoots = systemHeaderRoots(*S.Toolkit);
    llvm::SmallString<128> Folder;
    if (fs::createUniqueDirectory("whole-file-fuzzer", Folder)) {
      llvm::errs() << "whole-file-fuzzer: cannot make a temporary folder\n";
      std::exit(1);
    }
    llvm::sys::path::append(Folder, "k.cu");
    S.File = std::string(Folder);
    return S;
  }();
  return S;
}

void writeInput(const std::string &File) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(File, EC);
  OS << Text;
  OS.close();
  if (EC || OS.has_error())
    fail("cannot write " + File);
}

struct Analysed {
  FindingSet Set;
  std::vector<VerifiableUnit> Units;
};

/// One run's analysis of the file, as `warpfix --no-cache --no-prefilter`
/// makes it: a fresh profile each time, so that no state outlives an input.
Analysed analyse(const Setting &S, const CommandLineSettings &CommandLine,
                 std::unique_ptr<Profile> &Kept) {
  ProfileSettings Settings{*S.Toolkit, {}};
  Settings.UsePrefilter = false;
  Settings.Parse.ToolchainRoots = S.ToolchainRoots;
  FileDigests Digests;
  auto Made = Profile::create(effectiveConfig(nullptr, CommandLine), nullptr,
                              Settings, Digests);
  if (!Made)
    fail("no profile: " + toString(Made.takeError()));
  Kept = std::move(*Made);
  std::vector<TranslationUnitResult> Results;
  Results.push_back(Kept->run(S.File));
  if (Results.front().Crashed)
    fail("the unit crashed in the " + Results.front().CrashStage + " stage");
  Analysed Out;
  Out.Units = verifiableUnits(
      Results,
      [&](size_t) -> const clang::tooling::CompilationDatabase & {
        return Kept->database();
      },
      S.ToolchainRoots);
  Out.Set = mergeFindings(
      std::move(Results), [](llvm::StringRef) { return Visibility::Shown; },
      /*WholeProject=*/true);
  return Out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const Setting &S = setting();
  Text.assign(reinterpret_cast<const char *>(Data), Size);
  CommandLineSettings CommandLine;
  if (Size % 2) {
    CommandLine.Fallback = MaskFallback::ActiveMask;
    CommandLine.AssumeWholeWarps = false;
  }
  writeInput(S.File);
  std::unique_ptr<Profile> First;
  Analysed Before = analyse(S, CommandLine, First);
  FixPlan Plan = planFixes(Before.Set);
  if (Plan.Files.empty())
    return 0;
  for (const BrokenUnit &Broken : findBrokenUnits(Before.Units, Plan, 1))
    fail("a planned fix does not compile: " + Broken.FirstNewError);
  ApplyOutcome Outcome = writeFixes(std::move(Plan));
  if (!Outcome.Errors.empty())
    fail("the fixes were not written: " + Outcome.Errors.front());
  RunReport Run(Before.Set, First->checks());
  Run.Fixed = fixedFindings(Before.Set, Outcome);
  std::unique_ptr<Profile> Second;
  Analysed After = analyse(S, CommandLine, Second);
  if (After.Set.Findings.size() > Run.remainingCount())
    fail(llvm::Twine(After.Set.Findings.size()) +
         " findings after the fix, where the fixing run left " +
         llvm::Twine(Run.remainingCount()) + "; the first: " +
         After.Set.Findings.front().Message.Message);
  return 0;
}
