// Everything that analyses the files one configuration applies to: its checks
// and options, its compile commands, its cache entries and prefilter tokens.
// A run has one profile per .warpfix.yaml in force, and one for none.
#ifndef WARPFIX_TOOL_RUN_PROFILE_H
#define WARPFIX_TOOL_RUN_PROFILE_H

#include "tool/input/CompileCommands.h"
#include "tool/input/Config.h"
#include "tool/run/Pipeline.h"
#include "tool/run/UnitResult.h"
#include <mutex>

namespace warpfix {

struct ProfileSettings {
  const CudaToolkit &Toolkit;
  /// --cuda-gpu-arch, parsed; empty: each file's build's.
  std::vector<std::string> GpuArchs;
  /// Empty: no cache.
  std::string CacheDirectory;
  /// The cache is a results folder's (ResultsFolder.h): it keeps units with
  /// errors too.
  bool CacheIsResults = false;
  /// processCacheIdentity(): part of every cache key.
  std::string CacheIdentity;
  bool UsePrefilter = true;
  bool ColoredMessages = false;
  ParseSettings Parse;
};

class Profile {
public:
  static llvm::Expected<std::unique_ptr<Profile>>
  create(EffectiveConfig Config,
         std::shared_ptr<clang::tooling::CompilationDatabase> UserDatabase,
         const ProfileSettings &Settings, FileDigests &Digests);

  TranslationUnitResult run(llvm::StringRef File) const {
    TranslationUnitResult Result = Pipeline->run(File);
    Result.OtherCommands = Database->otherCommandsOf(File);
    return Result;
  }
  /// File parsed for Arch rather than its first architecture.
  TranslationUnitResult run(llvm::StringRef File, llvm::StringRef Arch) const;
  const EffectiveConfig &config() const { return Config; }
  const std::vector<const CheckInfo *> &checks() const { return Checks; }
  /// The commands this profile parses with.
  const CudaCompilationDatabase &database() const { return *Database; }
  /// The commands this profile parses with for Arch.
  const clang::tooling::CompilationDatabase &
  database(llvm::StringRef Arch) const;
  /// Problems with the cache or the compile commands, each worth a warning.
  std::vector<std::string> takeWarnings();

private:
  Profile(EffectiveConfig Config) : Config(std::move(Config)) {}

  /// What parses for one architecture other than each file's first.
  struct ArchitectureParse {
    std::unique_ptr<clang::tooling::CompilationDatabase> Commands;
    std::unique_ptr<Analyser> Analysis;
    std::unique_ptr<TranslationUnitPipeline> Pipeline;
  };
  const ArchitectureParse &parseFor(llvm::StringRef Arch) const;

  EffectiveConfig Config;
  std::vector<const CheckInfo *> Checks;
  std::unique_ptr<CudaCompilationDatabase> Database;
  std::unique_ptr<Analyser> Analysis;
  // Mutable: the parses for further architectures, made by const workers,
  // share them.
  mutable std::optional<ResultCache> Cache;
  mutable std::optional<Prefilter> Filter;
  std::unique_ptr<TranslationUnitPipeline> Pipeline;
  std::optional<CheckOptions> Options;
  ParseSettings Parse;
  bool ColoredMessages = false;
  /// Made when first asked for, by any worker.
  mutable std::mutex ArchitectureParsesMutex;
  mutable llvm::StringMap<std::unique_ptr<ArchitectureParse>>
      ArchitectureParses;
};

/// The profiles of a run: one per configuration in force, and each file
/// analysed by the profile of its own.
class ProfileSet {
public:
  /// Finds the configuration in force for each of Files, and makes a profile
  /// for each configuration found. Fails when a configuration cannot be read
  /// or its settings are wrong.
  static llvm::Expected<ProfileSet>
  create(llvm::ArrayRef<std::string> Files, ConfigFinder &Configs,
         const CommandLineSettings &CommandLine,
         std::shared_ptr<clang::tooling::CompilationDatabase> UserDatabase,
         const ProfileSettings &Settings);

  /// The profile of Files[I].
  const Profile &of(size_t I) const { return *FileProfiles[I]; }
  /// The checks enabled anywhere in the run, in the registry's order.
  std::vector<const CheckInfo *> enabledChecks() const;
  /// Every profile's warnings, sorted.
  std::vector<std::string> takeWarnings();

private:
  /// Shared by every profile's cache and prefilter: a file is hashed once.
  std::unique_ptr<FileDigests> Digests = std::make_unique<FileDigests>();
  std::vector<std::unique_ptr<Profile>> Profiles;
  std::vector<Profile *> FileProfiles;
};

} // namespace warpfix

#endif
