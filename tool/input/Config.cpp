#include "tool/input/Config.h"
#include "checks/CheckRegistry.h"
#include "support/FileIdentity.h"
#include "tool/input/Paths.h"
#include "tool/input/RegularFile.h"
#include "tool/input/YamlInput.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/YAMLTraits.h"

namespace llvm::yaml {

template <> struct ScalarEnumerationTraits<warpfix::MaskFallback> {
  static void enumeration(IO &Io, warpfix::MaskFallback &Value) {
    Io.enumCase(Value, "none", warpfix::MaskFallback::None);
    Io.enumCase(Value, "activemask", warpfix::MaskFallback::ActiveMask);
  }
};

/// One CheckOptions value, read with its key: a problem with either is told
/// at the value's line. An error that inputOne reports itself would point at
/// the mapping's first key, whichever key is wrong.
struct CheckOptionEntry {
  StringRef Key;
  std::string Value;
  std::string Problem;
};
template <> struct ScalarTraits<CheckOptionEntry> {
  static void output(const CheckOptionEntry &Entry, void *, raw_ostream &OS) {
    OS << Entry.Value;
  }
  static StringRef input(StringRef Scalar, void *, CheckOptionEntry &Entry) {
    Entry.Value = Scalar.str();
    Entry.Problem = warpfix::checkOptionProblem(Entry.Key, Scalar).value_or("");
    return Entry.Problem;
  }
  static QuotingType mustQuote(StringRef Scalar) { return needsQuotes(Scalar); }
};

/// CheckOptions is a mapping from "<check>.<Option>" or "<Option>" to a
/// value; names that no check understands are errors, not silently ignored.
template <> struct CustomMappingTraits<std::map<std::string, std::string>> {
  static void inputOne(IO &Io, StringRef Key,
                       std::map<std::string, std::string> &Options) {
    CheckOptionEntry Entry{Key, "", ""};
    Io.mapRequired(Key.str().c_str(), Entry);
    if (Entry.Problem.empty())
      Options[Key.str()] = Entry.Value;
  }
  static void output(IO &Io, std::map<std::string, std::string> &Options) {
    for (auto &[Key, Value] : Options)
      Io.mapRequired(Key.c_str(), Value);
  }
};

template <> struct MappingTraits<warpfix::ConfigFile> {
  static void mapping(IO &Io, warpfix::ConfigFile &File) {
    Io.mapOptional("Checks", File.Checks);
    Io.mapOptional("CheckOptions", File.CheckOptions);
    Io.mapOptional("HeaderFilterRegex", File.HeaderFilterRegex);
    Io.mapOptional("ExtraArgs", File.ExtraArgs);
    Io.mapOptional("ExtraArgsBefore", File.ExtraArgsBefore);
    Io.mapOptional("MaskFallback", File.Fallback);
    Io.mapOptional("AssumeWholeWarps", File.AssumeWholeWarps);
  }
  static std::string validate(IO &Io, warpfix::ConfigFile &File) {
    if (warpfix::inputHasFailed(Io))
      return "";
    if (File.Checks)
      if (auto Selected = warpfix::selectChecks(warpfix::layeredChecks(
              warpfix::DefaultChecks, *File.Checks));
          !Selected)
        return "Checks: " + toString(Selected.takeError());
    std::string Error;
    if (File.HeaderFilterRegex && !File.HeaderFilterRegex->empty() &&
        !Regex(*File.HeaderFilterRegex).isValid(Error))
      return "HeaderFilterRegex: " + Error;
    return "";
  }
};

/// What --dump-config writes: every key, with the values in force.
struct DumpedConfig {
  warpfix::EffectiveConfig &Config;
};
template <> struct MappingTraits<DumpedConfig> {
  static void mapping(IO &Io, DumpedConfig &Dump) {
    warpfix::EffectiveConfig &C = Dump.Config;
    Io.mapRequired("Checks", C.Checks);
    Io.mapRequired("CheckOptions", C.Options.Values);
    Io.mapRequired("HeaderFilterRegex", C.HeaderFilterRegex);
    Io.mapRequired("ExtraArgs", C.ExtraArgs);
    Io.mapRequired("ExtraArgsBefore", C.ExtraArgsBefore);
    Io.mapRequired("MaskFallback", C.Options.Fallback);
    Io.mapRequired("AssumeWholeWarps", C.Options.AssumeWholeWarps);
  }
};

} // namespace llvm::yaml

namespace warpfix {

llvm::Expected<ConfigFile> parseConfigFile(llvm::MemoryBufferRef Text) {
  ConfigFile File;
  File.Path = Text.getBufferIdentifier().str();
  if (std::optional<YamlProblem> Problem = readYaml(Text, File)) {
    std::string Where = File.Path;
    if (Problem->Line)
      Where += ":" + std::to_string(Problem->Line) + ":" +
               std::to_string(Problem->Column);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   Where + ": " + Problem->Message);
  }
  return File;
}

llvm::Expected<ConfigFile> readConfigFile(llvm::StringRef Path) {
  auto Buffer = readRegularFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(), "cannot read the configuration '%s': %s",
        Path.str().c_str(), llvm::toString(Buffer.takeError()).c_str());
  return parseConfigFile(**Buffer);
}

EffectiveConfig effectiveConfig(const ConfigFile *File,
                                const CommandLineSettings &CommandLine) {
  EffectiveConfig Config;
  if (File) {
    Config.Source = File->Path;
    if (File->Checks)
      Config.Checks = warpfix::layeredChecks(Config.Checks, *File->Checks);
    Config.HeaderFilterRegex = File->HeaderFilterRegex.value_or("");
    Config.ExtraArgs = File->ExtraArgs.value_or(std::vector<std::string>());
    Config.ExtraArgsBefore =
        File->ExtraArgsBefore.value_or(std::vector<std::string>());
    Config.Options.Fallback = File->Fallback.value_or(Config.Options.Fallback);
    Config.Options.AssumeWholeWarps =
        File->AssumeWholeWarps.value_or(Config.Options.AssumeWholeWarps);
    Config.Options.Values = File->CheckOptions;
  }
  if (CommandLine.Checks)
    Config.Checks = warpfix::layeredChecks(Config.Checks, *CommandLine.Checks);
  Config.HeaderFilterRegex =
      CommandLine.HeaderFilterRegex.value_or(Config.HeaderFilterRegex);
  Config.Options.Fallback =
      CommandLine.Fallback.value_or(Config.Options.Fallback);
  Config.Options.AssumeWholeWarps =
      CommandLine.AssumeWholeWarps.value_or(Config.Options.AssumeWholeWarps);
  llvm::append_range(Config.ExtraArgs, CommandLine.CompilerArgs);
  llvm::append_range(Config.ExtraArgsBefore, CommandLine.CompilerArgsBefore);
  return Config;
}

void dumpConfig(const EffectiveConfig &Config, llvm::raw_ostream &OS) {
  EffectiveConfig Copy = Config;
  llvm::yaml::DumpedConfig Dump{Copy};
  if (!Config.Source.empty())
    OS << "# from " << Config.Source << " and the command line\n";
  else
    OS << "# defaults and the command line; no .warpfix.yaml applies\n";
  llvm::yaml::Output Out(OS);
  Out << Dump;
}

llvm::Expected<const ConfigFile *> ConfigFinder::load(llvm::StringRef File) {
  auto It = Loaded.find(File.str());
  if (It != Loaded.end())
    return It->second.get();
  auto Read = readConfigFile(File);
  if (!Read)
    return Read.takeError();
  auto Owned = std::make_unique<ConfigFile>(std::move(*Read));
  const ConfigFile *Result = Owned.get();
  Loaded[File.str()] = std::move(Owned);
  return Result;
}

llvm::Expected<const ConfigFile *>
ConfigFinder::inDirectory(llvm::StringRef Directory) {
  auto Known = ByDirectory.find(Directory);
  if (Known != ByDirectory.end())
    return Known->second;
  const ConfigFile *Found = nullptr;
  llvm::SmallString<256> Candidate(Directory);
  llvm::sys::path::append(Candidate, ".warpfix.yaml");
  // One that is there but cannot be read as a file is not passed over: the
  // user meant it to apply.
  llvm::sys::fs::file_status Own;
  if (!llvm::sys::fs::status(Candidate, Own, /*Follow=*/false) &&
      !llvm::sys::fs::is_regular_file(Candidate))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the configuration '%s' is %s, not a regular file; fix or remove it",
        Candidate.c_str(),
        notRegularFile(Candidate)
            .value_or("a symbolic link that leads to no file")
            .c_str());
  if (llvm::sys::fs::is_regular_file(Candidate)) {
    auto Loaded = load(Candidate);
    if (!Loaded)
      return Loaded.takeError();
    Found = *Loaded;
  } else if (llvm::StringRef Parent = llvm::sys::path::parent_path(Directory);
             !Parent.empty() && Parent != Directory) {
    auto Inherited = inDirectory(Parent);
    if (!Inherited)
      return Inherited.takeError();
    Found = *Inherited;
  }
  ByDirectory[Directory] = Found;
  return Found;
}

llvm::Expected<const ConfigFile *> ConfigFinder::find(llvm::StringRef Path) {
  if (!ExplicitFile.empty())
    return load(ExplicitFile);
  llvm::SmallString<256> Absolute(absolutePath(Path));
  if (!llvm::sys::fs::is_directory(Absolute))
    llvm::sys::path::remove_filename(Absolute);
  return inDirectory(Absolute);
}

} // namespace warpfix
