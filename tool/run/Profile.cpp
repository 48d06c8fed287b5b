#include "tool/run/Profile.h"

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
  FrontEndSettings FrontEnd{Settings.Toolkit, Settings.GpuArch, C.ExtraArgs};
  P->Database = makeCudaCompilationDatabase(std::move(UserDatabase),
                                            std::move(FrontEnd));
  P->Analysis = std::make_unique<Analyzer>(*P->Database, P->Checks, C.Options,
                                           Settings.ColoredMessages,
                                           Settings.Parse);
  if (!Settings.CacheDirectory.empty())
    P->Cache.emplace(Settings.CacheDirectory,
                     cacheConfiguration(Settings, P->Checks, C.Options), Digests);
  if (Settings.UsePrefilter)
    P->Filter.emplace(triggerTokens(P->Checks),
                      systemHeaderRoots(Settings.Toolkit), Digests);
  P->Pipeline = std::make_unique<TranslationUnitPipeline>(
      *P->Analysis, P->Cache ? &*P->Cache : nullptr,
      P->Filter ? &*P->Filter : nullptr);
  return std::move(P);
}

std::vector<std::string> Profile::takeWarnings() {
  std::vector<std::string> Warnings = Database->takeWarnings();
  if (Cache)
    llvm::append_range(Warnings, Cache->takeWarnings());
  return Warnings;
}

} // namespace warpfix
