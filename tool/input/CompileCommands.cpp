#include "tool/input/CompileCommands.h"
#include "tool/input/GpuArchitectures.h"
#include "tool/input/RegularFile.h"
#include "tool/input/YamlInput.h"
#include "llvm/Support/FormatVariadic.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <algorithm>
#include <mutex>
#include <set>

namespace warpfix {
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using clang::tooling::CompileCommand;
using clang::tooling::CompilationDatabase;

llvm::Expected<std::unique_ptr<CompilationDatabase>>
loadCompilationDatabase(llvm::StringRef BuildDirectory) {
  auto Failure = [&](const llvm::Twine &Why) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "cannot load a compilation database from '" + BuildDirectory +
            "': " + Why);
  };
  llvm::SmallString<256> File(BuildDirectory);
  path::append(File, "compile_commands.json");
  auto Text = readRegularFile(File, /*IsText=*/true);
  if (!Text)
    return Failure("cannot read " + File + ": " + toString(Text.takeError()));
  if (std::optional<YamlProblem> Deep =
          findDeepNesting((*Text)->getBuffer()))
    return Failure(llvm::formatv("{0}:{1}:{2}: {3}", File, Deep->Line,
                                 Deep->Column, Deep->Message));
  // LLVM's reader parses JSON as YAML: it prints the first syntax error
  // itself and goes on with the entries read so far.
  llvm::Expected<llvm::json::Value> Parsed =
      llvm::json::parse((*Text)->getBuffer());
  if (!Parsed)
    return Failure(File + " is not valid JSON: " +
                   llvm::toString(Parsed.takeError()));
  std::string Error;
  std::unique_ptr<CompilationDatabase> Database =
      clang::tooling::JSONCompilationDatabase::loadFromFile(
          File, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Database)
    return Failure(Error);
  return asDirectoryLoadsIt(std::move(Database));
}

std::unique_ptr<CompilationDatabase>
asDirectoryLoadsIt(std::unique_ptr<CompilationDatabase> Database) {
  // What loadFromDirectory's JSON plugin wraps around it: @file response
  // files expanded, the driver mode and target taken from the compiler name.
  return clang::tooling::inferTargetAndDriverMode(
      clang::tooling::expandResponseFiles(std::move(Database),
                                          llvm::vfs::getRealFileSystem()));
}

namespace {

/// The nvcc options that take their value as the next argument; knowing them
/// keeps a dropped option from leaving its value behind as a stray input.
const llvm::StringSet<> NvccOptionsWithValue = {
    "-o", "--output-file", "-Xcompiler", "--compiler-options", "-Xptxas",
    "--ptxas-options", "-Xlinker", "--linker-options", "-Xnvlink",
    "--nvlink-options", "-Xfatbin", "--fatbin-options", "-Xarchive",
    "--archive-options", "-ccbin", "--compiler-bindir", "-x", "--x",
    "-maxrregcount", "--maxrregcount", "-diag-suppress", "--diag-suppress",
    "--diag-warn", "--diag-error", "-default-stream", "--default-stream",
    "-t", "--threads", "-MF", "--dependency-output", "-MT",
    "--dependency-target-name", "-odir", "--output-directory", "--keep-dir",
    "-rdc", "--relocatable-device-code", "-code", "--gpu-code", "-ftz",
    "-prec-div", "-prec-sqrt", "-fmad", "--options-file", "-optf",
    "-Werror", "--Werror", "-l", "-L", "-cudart", "--cudart",
    "-cudadevrt", "--cudadevrt", "-m", "--machine", "-ldir",
    "--library-path", "--library", "-lineinfo-file", "-split-compile",
    "--split-compile", "-Wno-deprecated-gpu-targets-file", "-ptxas-options",
    "-time", "--time", "-nvlink-options", "-Xcudafe", "--cudafe-options",
    "-dopt", "--dopt", "--optimize", "-idp", "--input-drive-prefix", "-ddp",
    "--dependency-drive-prefix", "-dp", "--drive-prefix"};

/// Options kept with their value, and the spelling clang uses for them.
struct KeptOption {
  llvm::StringRef Nvcc;
  llvm::StringRef Clang;
};
const KeptOption KeptOptions[] = {
    {"-I", "-I"},         {"--include-path", "-I"},
    {"-isystem", "-isystem"}, {"--system-include", "-isystem"},
    {"-D", "-D"},         {"--define-macro", "-D"},
    {"-U", "-U"},         {"--undefine-macro", "-U"},
    {"-include", "-include"}, {"--pre-include", "-include"},
    {"-std", "-std="},    {"--std", "-std="}};

/// The architecture whose __CUDA_ARCH__ an nvcc value compiles for:
/// "sm_80", "compute_80", and for "arch=compute_80,code=sm_86" the virtual
/// one, since __CUDA_ARCH__ follows it. Empty for "native", "all" and the
/// like, which name no one architecture.
std::string deviceArchFrom(llvm::StringRef Value) {
  if (size_t At = Value.find("arch="); At != llvm::StringRef::npos)
    Value = Value.substr(At + 5).split(',').first;
  for (llvm::StringRef Prefix : {"sm_", "compute_", "lto_"}) {
    size_t At = Value.find(Prefix);
    if (At == llvm::StringRef::npos)
      continue;
    llvm::StringRef Name = Value.substr(At);
    Name = Name.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
    if (std::optional<std::string> Arch = normalizedArchitecture(Name))
      return *Arch;
  }
  return "";
}

bool isArchOption(llvm::StringRef Name) {
  return Name == "-arch" || Name == "--gpu-architecture" ||
         Name == "-gencode" || Name == "--generate-code";
}

} // namespace

std::vector<std::string>
translateNvccCommandLine(llvm::ArrayRef<std::string> Args,
                         std::vector<std::string> &Archs) {
  std::vector<std::string> Out = {"clang++"};
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    // An empty argument (a quoted empty variable in a build script) names no
    // file; passed on, clang would look for an input called "".
    if (Arg.empty())
      continue;
    // Split "--opt=value" and "-opt=value" into name and value.
    llvm::StringRef Name = Arg, Value;
    bool HasInlineValue = false;
    if (Arg.starts_with("-") && Arg.contains('=')) {
      std::tie(Name, Value) = Arg.split('=');
      HasInlineValue = true;
    }
    auto TakeValue = [&]() -> llvm::StringRef {
      if (HasInlineValue)
        return Value;
      return I + 1 < Args.size() ? llvm::StringRef(Args[++I]) : "";
    };
    if (isArchOption(Name)) {
      std::string Found = deviceArchFrom(TakeValue());
      if (!Found.empty() && !llvm::is_contained(Archs, Found))
        Archs.push_back(Found);
      continue;
    }
    // Relocatable device code lets other units call this one's device
    // functions: a fix that changes a function's parameters must know.
    if (Name == "-rdc" || Name == "--relocatable-device-code") {
      if (TakeValue().trim().equals_insensitive("true"))
        Out.push_back("-fgpu-rdc");
      continue;
    }
    if (Name == "-dc" || Name == "--device-c") {
      Out.push_back("-fgpu-rdc");
      continue;
    }
    bool Kept = false;
    for (const KeptOption &Option : KeptOptions) {
      if (Name == Option.Nvcc) {
        llvm::StringRef V = TakeValue();
        // Without its value, "-I" or "-isystem" would take clang's next
        // argument as one.
        if (V.empty()) {
          Kept = true;
          break;
        }
        if (Option.Clang.ends_with("=") || Option.Clang.size() == 2)
          Out.push_back((Option.Clang + V).str());
        else {
          Out.push_back(Option.Clang.str());
          Out.push_back(V.str());
        }
        Kept = true;
        break;
      }
      // Joined short forms: -Ifoo, -DNAME=1, -UNAME.
      if (Option.Nvcc.size() == 2 && Arg.size() > 2 &&
          Arg.starts_with(Option.Nvcc)) {
        Out.push_back((Option.Clang + Arg.substr(2)).str());
        Kept = true;
        break;
      }
    }
    if (Kept)
      continue;
    if (Name.starts_with("-isystem") && Name.size() > 8) {
      Out.push_back(Arg.str());
      continue;
    }
    if (!Arg.starts_with("-")) {
      // Inputs stay; compile commands name exactly one source.
      Out.push_back(Arg.str());
      continue;
    }
    if (!HasInlineValue && NvccOptionsWithValue.contains(Name))
      ++I;
  }
  return Out;
}

namespace {

bool isOptionsFileOption(llvm::StringRef Name) {
  return Name == "--options-file" || Name == "-optf";
}

/// Appends Args to Out with each options file in place of the option that
/// names it; Depth and Open stop a file that names itself.
void expandOptionsFiles(llvm::ArrayRef<std::string> Args,
                        llvm::StringRef Directory, std::vector<std::string> &Out,
                        std::vector<std::string> &Problems,
                        std::vector<std::string> &Open) {
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    auto [Name, Value] = Arg.split('=');
    if (!isOptionsFileOption(Name)) {
      Out.push_back(Args[I]);
      continue;
    }
    if (!Arg.contains('='))
      Value = I + 1 < Args.size() ? llvm::StringRef(Args[++I]) : "";
    llvm::SmallVector<llvm::StringRef, 4> Files;
    Value.split(Files, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Named : Files) {
      llvm::SmallString<256> File(Named);
      fs::make_absolute(Directory, File);
      path::remove_dots(File, /*remove_dot_dot=*/true);
      if (llvm::is_contained(Open, File)) {
        Problems.push_back("the nvcc options file '" + File.str().str() +
                           "' includes itself; read once");
        continue;
      }
      auto Text = readRegularFile(File, /*IsText=*/true);
      if (!Text) {
        Problems.push_back("cannot read the nvcc options file '" +
                           File.str().str() + "': " +
                           toString(Text.takeError()) +
                           "; the options in it are left out");
        continue;
      }
      llvm::BumpPtrAllocator Allocator;
      llvm::StringSaver Saver(Allocator);
      llvm::SmallVector<const char *, 32> Tokens;
      llvm::cl::TokenizeGNUCommandLine((*Text)->getBuffer(), Saver, Tokens);
      std::vector<std::string> Nested(Tokens.begin(), Tokens.end());
      Open.push_back(std::string(File));
      expandOptionsFiles(Nested, Directory, Out, Problems, Open);
      Open.pop_back();
    }
  }
}

} // namespace

std::vector<std::string>
expandNvccOptionsFiles(llvm::ArrayRef<std::string> Args,
                       llvm::StringRef Directory,
                       std::vector<std::string> &Problems) {
  std::vector<std::string> Out, Open;
  expandOptionsFiles(Args, Directory, Out, Problems, Open);
  return Out;
}

bool isNvcc(llvm::StringRef Argv0) {
  llvm::StringRef Base = path::stem(Argv0);
  return Base == "nvcc";
}

namespace {

/// Removes what would make clang run more than one device compilation, or
/// something other than a parse, or parse in another language: we pick the
/// architecture ourselves. The architectures named go to Archs.
std::vector<std::string>
withoutClangArchFlags(llvm::ArrayRef<std::string> Args,
                      std::vector<std::string> &Archs) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    for (llvm::StringRef Flag : {"--cuda-gpu-arch=", "--offload-arch="}) {
      if (Arg.consume_front(Flag)) {
        llvm::SmallVector<llvm::StringRef, 2> Named;
        Arg.split(Named, ',');
        for (llvm::StringRef One : Named) {
          std::string Arch = deviceArchFrom(One);
          if (!Arch.empty() && !llvm::is_contained(Archs, Arch))
            Archs.push_back(Arch);
        }
        Arg = "";
        break;
      }
    }
    if (Arg.empty() || Arg == "--cuda-device-only" ||
        Arg == "--cuda-host-only" || Arg == "--cuda-compile-host-device")
      continue;
    // Every file is parsed as CUDA: a language that the command gives (a
    // header's command borrowed from a .cpp file says -x c++-header) would
    // override the -x cuda put before it.
    if (Arg == "-x" || Arg == "--language") {
      ++I;
      continue;
    }
    if (Arg.starts_with("-x") || Arg.starts_with("--language="))
      continue;
    Out.push_back(Args[I]);
  }
  return Out;
}

/// Problems met in the user's commands, each told once; commands are asked
/// for from several threads, and more than once per file.
class WarningSet {
public:
  void add(std::string Message) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Warnings.insert(std::move(Message));
  }
  std::vector<std::string> take() {
    std::lock_guard<std::mutex> Lock(Mutex);
    std::vector<std::string> Taken(Warnings.begin(), Warnings.end());
    Warnings.clear();
    return Taken;
  }

private:
  std::mutex Mutex;
  std::set<std::string> Warnings;
};

/// The user's database with each nvcc command read as the clang command it
/// stands for. Below clang's interpolation, which lends a neighbour's command
/// to a file that the database lacks: it knows clang's options, not nvcc's,
/// and would keep `--options-file` while dropping its file as an input.
class NvccAsClang : public CompilationDatabase {
public:
  NvccAsClang(std::shared_ptr<CompilationDatabase> Base,
              std::shared_ptr<WarningSet> Warnings)
      : Base(std::move(Base)), Warnings(std::move(Warnings)) {}

  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<CompileCommand> Commands = Base->getCompileCommands(File);
    for (CompileCommand &Command : Commands) {
      if (Command.CommandLine.empty() || !isNvcc(Command.CommandLine[0]))
        continue;
      std::vector<std::string> Problems;
      std::vector<std::string> Archs;
      Command.CommandLine = translateNvccCommandLine(
          expandNvccOptionsFiles(Command.CommandLine, Command.Directory,
                                 Problems),
          Archs);
      for (const std::string &Arch : Archs)
        Command.CommandLine.push_back("--cuda-gpu-arch=" + Arch);
      for (std::string &Problem : Problems)
        Warnings->add("in the compile command of '" + Command.Filename +
                      "', " + std::move(Problem));
    }
    return Commands;
  }

  std::vector<std::string> getAllFiles() const override {
    return Base->getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    std::vector<CompileCommand> Commands;
    for (const std::string &File : getAllFiles())
      llvm::append_range(Commands, getCompileCommands(File));
    return Commands;
  }

private:
  std::shared_ptr<CompilationDatabase> Base;
  std::shared_ptr<WarningSet> Warnings;
};

class CudaCommands : public CudaCompilationDatabase {
public:
  CudaCommands(std::shared_ptr<CompilationDatabase> User,
               FrontEndSettings Settings)
      : Warnings(std::make_shared<WarningSet>()),
        Settings(std::move(Settings)) {
    if (User)
      Base = clang::tooling::inferMissingCompileCommands(
          std::make_unique<NvccAsClang>(std::move(User), Warnings));
  }

  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    return commandsFor(File, architecturesOf(File).front());
  }

  std::vector<std::string>
  architecturesOf(llvm::StringRef File) const override {
    if (!Settings.GpuArchs.empty())
      return Settings.GpuArchs;
    std::vector<std::string> Named, Retired;
    withoutClangArchFlags(userCommand(File).CommandLine, Named);
    std::vector<std::string> Archs =
        withoutRetiredArchitectures(Named, Retired);
    for (const std::string &Arch : Retired)
      Warnings->add("the compile commands name " + Arch +
                    ", which CUDA 13 no longer compiles for: their files are "
                    "parsed for " + cuda13Architectures().front().str() +
                    ", the oldest architecture that it does; update the "
                    "build's architectures too");
    if (Archs.empty())
      for (llvm::StringRef Arch : cuda13Architectures())
        Archs.push_back(Arch.str());
    return Archs;
  }

  std::vector<CompileCommand> commandsFor(llvm::StringRef File,
                                          llvm::StringRef Arch) const override {
    CompileCommand Command = userCommand(File);
    Command.CommandLine = cudaCommandLine(Command.CommandLine, Arch);
    // nvcc names every architecture of the build in each compilation; clang
    // defines nothing of the kind.
    std::vector<unsigned> Values;
    for (const std::string &Each : architecturesOf(File))
      Values.push_back(cudaArchValue(Each));
    llvm::sort(Values);
    Values.erase(std::unique(Values.begin(), Values.end()), Values.end());
    std::string List;
    for (unsigned Value : Values)
      List += (List.empty() ? "" : ",") + std::to_string(Value);
    Command.CommandLine.insert(Command.CommandLine.begin() + 1,
                               "-D__CUDA_ARCH_LIST__=" + List);
    return {std::move(Command)};
  }

  std::vector<std::string> getAllFiles() const override {
    return Base ? Base->getAllFiles() : std::vector<std::string>();
  }

  std::vector<std::string> takeWarnings() override { return Warnings->take(); }

  unsigned otherCommandsOf(llvm::StringRef File) const override {
    if (!Base)
      return 0;
    std::set<std::vector<std::string>> Distinct;
    for (const CompileCommand &Command : Base->getCompileCommands(File))
      Distinct.insert(whatAParseSees(Command));
    return Distinct.size() > 1 ? Distinct.size() - 1 : 0;
  }

private:
  /// A command as the parse of its file sees it: its directory and its
  /// arguments, less those that name outputs.
  static std::vector<std::string> whatAParseSees(const CompileCommand &C) {
    std::vector<std::string> Seen = {C.Directory};
    if (!C.CommandLine.empty()) // the compiler's name is not compared
      llvm::append_range(Seen, withoutOutputArguments(
                                   llvm::ArrayRef(C.CommandLine).drop_front()));
    return Seen;
  }

  /// The user's command for File (NvccAsClang has translated nvcc's), or a
  /// plain one where there is none. One parse per file: the first command
  /// names its flags.
  CompileCommand userCommand(llvm::StringRef File) const {
    std::vector<CompileCommand> Commands;
    if (Base)
      Commands = Base->getCompileCommands(File);
    // An entry whose arguments are an empty list names no compiler.
    if (!Commands.empty() && Commands.front().CommandLine.empty()) {
      Warnings->add("the compile command of '" + File.str() +
                    "' is empty; it is parsed as a file of no database");
      Commands.clear();
    }
    if (Commands.empty()) {
      llvm::SmallString<256> Cwd;
      fs::current_path(Cwd);
      Commands.emplace_back(Cwd, File,
                            std::vector<std::string>{"clang++", "-std=c++17",
                                                     File.str()},
                            "");
    }
    return std::move(Commands.front());
  }

  /// A clang command line as a device-side parse of its file for Arch.
  std::vector<std::string> cudaCommandLine(llvm::ArrayRef<std::string> Original,
                                           llvm::StringRef Arch) const {
    std::vector<std::string> Named;
    std::vector<std::string> Args = withoutClangArchFlags(Original, Named);
    if (!Args.empty())
      Args[0] = "clang++";
    // Right after the driver name, so that "-x cuda" covers the input.
    std::vector<std::string> Front = {"-x", "cuda", "--cuda-device-only"};
    llvm::append_range(Front, clangArchitectureOptions(Arch));
    llvm::append_range(Front, std::initializer_list<std::string>{
        "--cuda-path=" + Settings.Toolkit.Root,
        "-resource-dir=" + Settings.Toolkit.ClangResourceDir,
        "-isystem", Settings.Toolkit.CompatInclude,
        "-include",
        Settings.Toolkit.CompatInclude + "/warpfix_legacy_intrinsics.h",
        "-include",
        Settings.Toolkit.CompatInclude + "/warpfix_surface_functions.h",
        "-include", Settings.Toolkit.CompatInclude + "/warpfix_host_min_max.h",
        "-include",
        Settings.Toolkit.CompatInclude + "/warpfix_removed_apis.h",
        "-isystem", Settings.Toolkit.Root + "/include/cccl",
        // Clang 19 knows CUDA up to 12.5; the newer toolkit parses fine.
        "-Wno-unknown-cuda-version",
        // Compiler warnings are the build's business, not this tool's.
        "-w",
        // Every error is worth seeing: the analysis goes on after errors,
        // and each one withholds the fixes of the code it is in.
        "-ferror-limit=0",
        // Errors by default in clang 19 that nvcc accepts: `X::template
        // f(args)` without a template argument list (all of CUB 1.x),
        // `register` in C++17, narrowing in braces (a warning in nvcc).
        "-Wno-missing-template-arg-list-after-template-kw", "-Wno-register",
        "-Wno-c++11-narrowing"});
    // What nvcc predefines and clang does not, for the toolkit in use, so
    // that `#if __CUDACC_VER_MAJOR__ >= 9` takes the branch nvcc compiles.
    // Before the user's flags, so that their -D or -U wins (docs/usage.md,
    // "nvcc's dialect").
    if (Settings.Toolkit.Major) {
      const CudaToolkit &T = Settings.Toolkit;
      for (auto [Name, Value] :
           {std::pair<const char *, unsigned>{"MAJOR", T.Major},
            {"MINOR", T.Minor},
            {"BUILD", T.Build}})
        Front.push_back(
            ("-D__CUDACC_VER_" + llvm::Twine(Name) + "__=" + llvm::Twine(Value))
                .str());
    }
    bool HasStd = llvm::any_of(Args, [](llvm::StringRef A) {
      return A.starts_with("-std=") || A.starts_with("--std=");
    });
    if (!HasStd)
      Front.push_back("-std=c++17");
    llvm::append_range(Front, Settings.ExtraArgsBefore);
    Args.insert(Args.begin() + 1, Front.begin(), Front.end());
    Args.insert(Args.end(), Settings.ExtraArgs.begin(),
                Settings.ExtraArgs.end());
    return Args;
  }

  std::shared_ptr<WarningSet> Warnings;
  std::unique_ptr<CompilationDatabase> Base;
  FrontEndSettings Settings;
};

class ArchitectureCommands : public CompilationDatabase {
public:
  ArchitectureCommands(const CudaCompilationDatabase &Base, std::string Arch)
      : Base(Base), Arch(std::move(Arch)) {}
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    return Base.commandsFor(File, Arch);
  }
  std::vector<std::string> getAllFiles() const override {
    return Base.getAllFiles();
  }

private:
  const CudaCompilationDatabase &Base;
  std::string Arch;
};

} // namespace

std::unique_ptr<CompilationDatabase>
commandsForArchitecture(const CudaCompilationDatabase &Base, std::string Arch) {
  return std::make_unique<ArchitectureCommands>(Base, std::move(Arch));
}

std::vector<std::string>
withoutOutputArguments(llvm::ArrayRef<std::string> Args) {
  std::vector<std::string> Kept;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "-o" || Arg == "--output-file" || Arg == "-MF" || Arg == "-MT" ||
        Arg == "-MQ" || Arg == "-odir" || Arg == "--output-directory") {
      ++I;
      continue;
    }
    // `-ofile` is clang's; nvcc's -optf and -odir name inputs and folders.
    bool JoinedOutput = Arg.starts_with("-o") && Arg.size() > 2 &&
                        !Arg.starts_with("-optf") && !Arg.starts_with("-odir");
    if (Arg == "-c" || Arg == "-MD" || Arg == "-MMD" || JoinedOutput ||
        Arg.starts_with("--output-file=") || Arg.starts_with("-MF") ||
        Arg.starts_with("-MT") || Arg.starts_with("-MQ"))
      continue;
    Kept.push_back(Args[I]);
  }
  return Kept;
}

std::unique_ptr<CudaCompilationDatabase> makeCudaCompilationDatabase(
    std::shared_ptr<CompilationDatabase> Base, FrontEndSettings Settings) {
  return std::make_unique<CudaCommands>(std::move(Base),
                                                   std::move(Settings));
}

} // namespace warpfix
