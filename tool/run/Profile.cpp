#include "tool/run/Profile.h"
#include <map>

namespace warpfix {
namespace {

/// Everything besides the TU's own command line that changes its result:
/// the build of warpfix and its surroundings, the checks and their options,
/// and whether the prefilter may skip the TU (a skipped TU's errors are
/// unknown, so its result must not stand in for a parse).
/// test/tool/cache-key.test lists the options and checks each.
std::string cacheConfiguration(const ProfileSettings &Settings,
                               llvm::ArrayRef<const CheckInfo *> Checks,
                               const CheckOptions &Options) {
  std::string Configuration = Settings.CacheIdentity + '\0';
  for (const CheckInfo *Info : Checks)
    Configuration += "," + Info->Name.str();
  Configuration += ";" + Options.fingerprint();
  Configuration += Settings.UsePrefilter ? ";prefilter" : ";no-prefilter";
  Configuration += Settings.Parse.Strict ? ";strict-parse" : ";tolerant-parse";
  return Configuration;
}

/// Comments are where suppressions live; a file with one is always parsed, so
/// that an unmatched NOLINTBEGIN is still reported.
std::vector<std::string>
triggerTokens(llvm::ArrayRef<const CheckInfo *> Checks) {
  std::vector<std::string> Tokens = {"NOLINT*"};
  for (const CheckInfo *Info : Checks) {
    llvm::SmallVector<llvm::StringRef, 8> Parts;
    Info->TriggerTokens.split(Parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Part : Parts)
      Tokens.push_back(Part.str());
  }
  return Tokens;
}

} // namespace

llvm::Expected<std::unique_ptr<Profile>>
Profile::create(EffectiveConfig Config,
                std::shared_ptr<clang::tooling::CompilationDatabase> UserDatabase,
                const ProfileSettings &Settings, FileDigests &Digests) {
  std::unique_ptr<Profile> P(new Profile(std::move(Config)));
  const EffectiveConfig &C = P->Config;
  // Both the file's Checks and --checks were validated when read.
  auto Checks = selectChecks(C.Checks);
  if (!Checks)
    return Checks.takeError();
  P->Checks = std::move(*Checks);
  FrontEndSettings FrontEnd{Settings.Toolkit, Settings.GpuArchs, C.ExtraArgs,
                            C.ExtraArgsBefore};
  P->Database = makeCudaCompilationDatabase(std::move(UserDatabase),
                                            std::move(FrontEnd));
  P->Analysis =
      std::make_unique<Analyser>(*P->Database, P->Checks, C.Options,
                                 Settings.ColoredMessages, Settings.Parse);
  if (!Settings.CacheDirectory.empty())
    P->Cache.emplace(Settings.CacheDirectory,
                     cacheConfiguration(Settings, P->Checks, C.Options), Digests,
                     Settings.CacheIsResults);
  if (Settings.UsePrefilter)
    P->Filter.emplace(triggerTokens(P->Checks),
                      systemHeaderRoots(Settings.Toolkit), Digests);
  P->Pipeline = std::make_unique<TranslationUnitPipeline>(
      *P->Analysis, P->Cache ? &*P->Cache : nullptr,
      P->Filter ? &*P->Filter : nullptr);
  P->Options = C.Options;
  P->Parse = Settings.Parse;
  P->ColoredMessages = Settings.ColoredMessages;
  return P;
}

const Profile::ArchitectureParse &
Profile::parseFor(llvm::StringRef Arch) const {
  std::lock_guard<std::mutex> Lock(ArchitectureParsesMutex);
  std::unique_ptr<ArchitectureParse> &Parse = ArchitectureParses[Arch];
  if (!Parse) {
    Parse = std::make_unique<ArchitectureParse>();
    Parse->Commands = commandsForArchitecture(*Database, Arch.str());
    Parse->Analysis = std::make_unique<Analyser>(
        *Parse->Commands, Checks, *Options, ColoredMessages, this->Parse);
    // The cache and the prefilter take the command, architecture and all.
    Parse->Pipeline = std::make_unique<TranslationUnitPipeline>(
        *Parse->Analysis, Cache ? &*Cache : nullptr,
        Filter ? &*Filter : nullptr);
  }
  return *Parse;
}

TranslationUnitResult Profile::run(llvm::StringRef File,
                                   llvm::StringRef Arch) const {
  TranslationUnitResult Result = parseFor(Arch).Pipeline->run(File);
  Result.OtherCommands = Database->otherCommandsOf(File);
  Result.Arch = Arch.str();
  Result.ExtraArchitecture = true;
  return Result;
}

const clang::tooling::CompilationDatabase &
Profile::database(llvm::StringRef Arch) const {
  return *parseFor(Arch).Commands;
}

std::vector<std::string> Profile::takeWarnings() {
  std::vector<std::string> Warnings = Database->takeWarnings();
  if (Cache)
    llvm::append_range(Warnings, Cache->takeWarnings());
  return Warnings;
}

llvm::Expected<ProfileSet> ProfileSet::create(
    llvm::ArrayRef<std::string> Files, ConfigFinder &Configs,
    const CommandLineSettings &CommandLine,
    std::shared_ptr<clang::tooling::CompilationDatabase> UserDatabase,
    const ProfileSettings &Settings) {
  ProfileSet Set;
  std::map<const ConfigFile *, Profile *> ProfileOf;
  for (const std::string &File : Files) {
    auto Config = Configs.find(File);
    if (!Config)
      return Config.takeError();
    Profile *&Chosen = ProfileOf[*Config];
    if (!Chosen) {
      auto Created = Profile::create(effectiveConfig(*Config, CommandLine),
                                     UserDatabase, Settings, *Set.Digests);
      if (!Created)
        return Created.takeError();
      Set.Profiles.push_back(std::move(*Created));
      Chosen = Set.Profiles.back().get();
    }
    Set.FileProfiles.push_back(Chosen);
  }
  return Set;
}

std::vector<const CheckInfo *> ProfileSet::enabledChecks() const {
  std::vector<const CheckInfo *> Union;
  for (const CheckInfo &Info : allChecks())
    for (const auto &P : Profiles)
      if (llvm::is_contained(P->checks(), &Info)) {
        Union.push_back(&Info);
        break;
      }
  return Union;
}

std::vector<std::string> ProfileSet::takeWarnings() {
  std::vector<std::string> Warnings;
  for (auto &P : Profiles)
    llvm::append_range(Warnings, P->takeWarnings());
  llvm::sort(Warnings);
  return Warnings;
}

} // namespace warpfix
