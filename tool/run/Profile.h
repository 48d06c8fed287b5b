// Everything that analyses the files one configuration applies to: its checks
// and options, its compile commands, its cache entries and prefilter tokens.
// A run has one profile per .warpfix.yaml in force, and one for none.
#ifndef WARPFIX_TOOL_RUN_PROFILE_H
#define WARPFIX_TOOL_RUN_PROFILE_H

#include "tool/run/Analyzer.h"
#include "tool/input/CompileCommands.h"
#include "tool/input/Config.h"
#include "tool/run/Pipeline.h"

namespace warpfix {

struct ProfileSettings {
  const CudaToolkit &Toolkit;
  std::string GpuArch;
  /// Empty: no cache.
  std::string CacheDirectory;
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
    return Pipeline->run(File);
  }
  const EffectiveConfig &config() const { return Config; }
  const std::vector<const CheckInfo *> &checks() const { return Checks; }
  /// The commands this profile parses with.
  const clang::tooling::CompilationDatabase &database() const {
    return *Database;
  }
  /// Problems with the cache or the compile commands, each worth a warning.
  std::vector<std::string> takeWarnings();

private:
  Profile(EffectiveConfig Config) : Config(std::move(Config)) {}

  EffectiveConfig Config;
  std::vector<const CheckInfo *> Checks;
  std::unique_ptr<CudaCompilationDatabase> Database;
  std::unique_ptr<Analyzer> Analysis;
  std::optional<ResultCache> Cache;
  std::optional<Prefilter> Filter;
  std::unique_ptr<TranslationUnitPipeline> Pipeline;
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
