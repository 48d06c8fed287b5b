#include "tool/output/FixVerifier.h"
#include "tool/input/HeadersByName.h"
#include "tool/input/LaunchChevrons.h"
#include "tool/run/HostBodies.h"
#include "tool/run/ParseErrors.h"
#include "tool/run/WorkerThreads.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>

using namespace clang;

namespace warpfix {
namespace {

struct CompilerError {
  /// "file:line:col: " or empty.
  std::string Where;
  std::string Message;
};

/// Keeps clang's errors, with their positions, while the source manager that
/// can tell them still exists.
class ErrorCollector : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> Message;
    Info.FormatDiagnostic(Message);
    std::string Where;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc Loc =
          Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (Loc.isValid())
        Where = llvm::formatv("{0}:{1}:{2}: ", Loc.getFilename(),
                              Loc.getLine(), Loc.getColumn());
    }
    Errors.push_back({Where, std::string(Message)});
  }

  std::vector<CompilerError> Errors;
};

/// A syntax-only parse, as tolerant as the analysis's (ParseErrors.h): a
/// missing #include must not hide the errors that a fix after it would add.
/// Its "N errors generated" line goes nowhere: the errors are reported, if at
/// all, as the verdict.
/// It skips the host bodies the analysis's parse skipped: an error there,
/// unseen by the analysis, would pass for one the fixes made.
class QuietSyntaxOnly : public TolerantActionFactory {
public:
  explicit QuietSyntaxOnly(llvm::ArrayRef<std::string> ToolchainRoots)
      : TolerantActionFactory(llvm::nulls()), ToolchainRoots(ToolchainRoots) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<SkippingAction>(ToolchainRoots);
  }

protected:
  void prepare(CompilerInvocation &Invocation, FileManager &,
               std::shared_ptr<PCHContainerOperations>) override {
    askWhichBodiesToSkip(Invocation);
  }

private:
  class SkippingAction : public ASTFrontendAction {
  public:
    explicit SkippingAction(llvm::ArrayRef<std::string> ToolchainRoots)
        : ToolchainRoots(ToolchainRoots) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                   llvm::StringRef) override {
      return std::make_unique<HostBodySkippingConsumer>(ToolchainRoots,
                                                        CI.getSourceManager());
    }

  private:
    llvm::ArrayRef<std::string> ToolchainRoots;
  };
  llvm::ArrayRef<std::string> ToolchainRoots;
};

/// clang's errors for a syntax-only parse of Unit, with Replaced (by the
/// names the TU uses) read from memory.
std::vector<CompilerError>
parseErrors(const VerifiableUnit &Unit,
            const std::map<std::string, const PlannedFile *> &Replaced) {
  // A file system of its own: ClangTool changes its working directory, which
  // must not move under the other threads (as in Analyser).
  auto Files = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  auto Fixed = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto &[Name, File] : Replaced)
    Fixed->addFile(Name, /*ModificationTime=*/0,
                   llvm::MemoryBuffer::getMemBufferCopy(File->Fixed, Name));
  Files->pushOverlay(Fixed);
  tooling::ClangTool Tool(*Unit.Commands, {Unit.MainFile},
                          std::make_shared<PCHContainerOperations>(),
                          showingNvccDialect(Files));
  Tool.setPrintErrorMessage(false);
  if (!Unit.FoundByName.empty())
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        searchedLast(Unit.FoundByName),
        tooling::ArgumentInsertPosition::BEGIN));
  ErrorCollector Collector;
  Tool.setDiagnosticConsumer(&Collector);
  QuietSyntaxOnly SyntaxOnly(Unit.ToolchainRoots);
  if (Tool.run(&SyntaxOnly) != 0 && Collector.Errors.empty())
    Collector.Errors.push_back({"", "the parse failed"});
  return std::move(Collector.Errors);
}

/// The first error of After that Before does not have; messages are compared
/// without their positions, which the fixes move.
std::optional<CompilerError>
firstNewError(const std::vector<CompilerError> &Before,
              const std::vector<CompilerError> &After) {
  std::map<std::string, unsigned> Known;
  for (const CompilerError &E : Before)
    ++Known[E.Message];
  for (const CompilerError &E : After)
    if (Known[E.Message]-- == 0)
      return E;
  return std::nullopt;
}

std::optional<BrokenUnit>
verifyUnit(const VerifiableUnit &Unit,
           const std::map<std::string, const PlannedFile *> &Replaced) {
  std::vector<CompilerError> After = parseErrors(Unit, Replaced);
  if (After.empty())
    return std::nullopt;
  std::vector<CompilerError> Before;
  if (!Unit.ParsedCleanly)
    Before = parseErrors(Unit, {});
  std::optional<CompilerError> New = firstNewError(Before, After);
  if (!New)
    return std::nullopt;
  BrokenUnit Broken{Unit.MainFile, {}, New->Where + New->Message};
  for (const auto &Entry : Replaced)
    if (!llvm::is_contained(Broken.ChangedFiles, Entry.second->Path))
      Broken.ChangedFiles.push_back(Entry.second->Path);
  llvm::sort(Broken.ChangedFiles);
  return Broken;
}

} // namespace

std::vector<BrokenUnit> findBrokenUnits(llvm::ArrayRef<VerifiableUnit> Units,
                                        const FixPlan &Plan, unsigned Jobs) {
  // Files are matched by device and inode: a TU may reach a changed header
  // by another name than the plan's (through a link, or "..").
  std::map<llvm::sys::fs::UniqueID, const PlannedFile *> Changed;
  for (const PlannedFile &File : Plan.Files) {
    llvm::sys::fs::UniqueID ID;
    if (!llvm::sys::fs::getUniqueID(File.Path, ID))
      Changed[ID] = &File;
  }
  llvm::StringMap<const PlannedFile *> ChangedByName;
  auto changedFile = [&](llvm::StringRef Name) -> const PlannedFile * {
    auto [It, Inserted] = ChangedByName.try_emplace(Name, nullptr);
    llvm::sys::fs::UniqueID ID;
    if (Inserted && !llvm::sys::fs::getUniqueID(Name, ID)) {
      auto Found = Changed.find(ID);
      It->second = Found == Changed.end() ? nullptr : Found->second;
    }
    return It->second;
  };
  // Each unit with what it must read from memory, under both names.
  std::vector<std::pair<const VerifiableUnit *,
                        std::map<std::string, const PlannedFile *>>>
      Work;
  for (const VerifiableUnit &Unit : Units) {
    std::map<std::string, const PlannedFile *> Replaced;
    for (const std::string &Name : Unit.FilesRead)
      if (const PlannedFile *File = changedFile(Name)) {
        Replaced[Name] = File;
        Replaced[File->Path] = File;
      }
    if (!Replaced.empty())
      Work.push_back({&Unit, std::move(Replaced)});
  }

  std::vector<std::optional<BrokenUnit>> Verdicts(Work.size());
  auto Verify = [&](size_t I) {
    // A crash of clang here costs this unit's files their fixes, not the run.
    llvm::CrashRecoveryContext Recovery;
    if (!Recovery.RunSafely(
            [&] { Verdicts[I] = verifyUnit(*Work[I].first, Work[I].second); })) {
      BrokenUnit Broken{Work[I].first->MainFile, {},
                        "the parse of the fixed code crashed"};
      for (const auto &Entry : Work[I].second)
        if (!llvm::is_contained(Broken.ChangedFiles, Entry.second->Path))
          Broken.ChangedFiles.push_back(Entry.second->Path);
      llvm::sort(Broken.ChangedFiles);
      Verdicts[I] = std::move(Broken);
    }
  };
  runOnWorkers(Work.size(), Jobs, Verify);
  std::vector<BrokenUnit> Broken;
  for (std::optional<BrokenUnit> &Verdict : Verdicts)
    if (Verdict)
      Broken.push_back(std::move(*Verdict));
  return Broken;
}

std::vector<VerifiableUnit>
verifiableUnits(llvm::ArrayRef<TranslationUnitResult> Results,
                llvm::function_ref<const clang::tooling::CompilationDatabase &(
                    size_t)>
                    CommandsOf,
                llvm::ArrayRef<std::string> ToolchainRoots) {
  std::vector<VerifiableUnit> Units;
  for (size_t I = 0; I < Results.size(); ++I) {
    const TranslationUnitResult &R = Results[I];
    if (!R.Parsed)
      continue; // none of its files is rewritten
    VerifiableUnit Unit;
    Unit.MainFile = R.MainFile;
    Unit.Commands = &CommandsOf(I);
    Unit.ToolchainRoots = ToolchainRoots;
    Unit.FoundByName = R.FoundByName;
    for (const FileDigest &Read : R.Dependencies)
      Unit.FilesRead.push_back(Read.Path);
    // A TU with errors is compared with its own errors before the fixes.
    Unit.ParsedCleanly = !R.SkippedByPrefilter && R.ErrorCount == 0;
    Units.push_back(std::move(Unit));
  }
  return Units;
}

void refuseFixesThatBreak(FixPlan &Plan, llvm::ArrayRef<VerifiableUnit> Units,
                          unsigned Jobs) {
  for (const BrokenUnit &Broken : findBrokenUnits(Units, Plan, Jobs)) {
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

} // namespace warpfix
