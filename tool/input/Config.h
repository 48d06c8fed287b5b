// .warpfix.yaml: the settings a team keeps with its code, found by walking up
// from each source file as .clang-tidy is, or named with --config-file.
// Command-line flags override what a file says.
#ifndef WARPFIX_TOOL_INPUT_CONFIG_H
#define WARPFIX_TOOL_INPUT_CONFIG_H

#include "checks/CheckOptions.h"
#include "checks/CheckRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// What one file says; a key it leaves out is empty.
struct ConfigFile {
  std::string Path;
  std::optional<std::string> Checks;
  std::optional<std::string> HeaderFilterRegex;
  std::optional<std::vector<std::string>> ExtraArgs;
  std::optional<std::vector<std::string>> ExtraArgsBefore;
  std::optional<MaskFallback> Fallback;
  std::optional<bool> AssumeWholeWarps;
  std::map<std::string, std::string> CheckOptions;
};

/// Reads one file. Errors name the file, line and column.
llvm::Expected<ConfigFile> readConfigFile(llvm::StringRef Path);
/// Reads a file's content; Text's identifier names the file.
llvm::Expected<ConfigFile> parseConfigFile(llvm::MemoryBufferRef Text);

/// The settings in force for a file, every key filled in.
struct EffectiveConfig {
  /// The file they come from; empty for the defaults.
  std::string Source;
  std::string Checks = DefaultChecks.str();
  std::string HeaderFilterRegex;
  std::vector<std::string> ExtraArgs;
  /// Placed before the command's own arguments, so that they can override
  /// these.
  std::vector<std::string> ExtraArgsBefore;
  CheckOptions Options;
};

/// The settings given on the command line, which win over any file's.
struct CommandLineSettings {
  std::optional<std::string> Checks;
  std::optional<std::string> HeaderFilterRegex;
  std::optional<MaskFallback> Fallback;
  std::optional<bool> AssumeWholeWarps;
  /// After "--", then --extra-arg; they follow the file's ExtraArgs.
  std::vector<std::string> CompilerArgs;
  /// --extra-arg-before; they follow the file's ExtraArgsBefore.
  std::vector<std::string> CompilerArgsBefore;
};

/// Defaults, overridden by File (which may be null), overridden by the
/// command line.
EffectiveConfig effectiveConfig(const ConfigFile *File,
                                const CommandLineSettings &CommandLine);

/// Writes Config as a .warpfix.yaml would say it.
void dumpConfig(const EffectiveConfig &Config, llvm::raw_ostream &OS);

/// Finds and reads the configuration of each file, once per directory.
class ConfigFinder {
public:
  /// ExplicitFile: --config-file, used for every file when given.
  explicit ConfigFinder(std::string ExplicitFile)
      : ExplicitFile(std::move(ExplicitFile)) {}

  /// The file that applies to Path (a file or a directory), or null when
  /// none does.
  llvm::Expected<const ConfigFile *> find(llvm::StringRef Path);

private:
  llvm::Expected<const ConfigFile *> inDirectory(llvm::StringRef Directory);
  llvm::Expected<const ConfigFile *> load(llvm::StringRef File);

  std::string ExplicitFile;
  llvm::StringMap<const ConfigFile *> ByDirectory;
  std::map<std::string, std::unique_ptr<ConfigFile>> Loaded;
};

} // namespace warpfix

#endif
