#include "tool/input/LaunchedCommand.h"
#include "tool/input/CompileCommands.h"
#include "clang/Driver/Options.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace warpfix {
namespace path = llvm::sys::path;

std::vector<std::string>
withoutCompilerWrappers(llvm::ArrayRef<std::string> Command) {
  static const llvm::StringSet<> Wrappers = {"ccache", "sccache", "distcc",
                                             "icecc", "buildcache"};
  size_t Compiler = 0;
  while (Compiler + 1 < Command.size() &&
         Wrappers.contains(path::filename(Command[Compiler])))
    ++Compiler;
  return Command.drop_front(Compiler).vec();
}

namespace {

/// A command's inputs, which of them are CUDA sources, and the command they
/// were read from (nvcc's with its options files expanded).
struct Inputs {
  std::vector<std::string> All;
  std::vector<std::string> Cuda;
  std::vector<std::string> Command;
};

/// nvcc's inputs: what its command keeps as inputs once translated, each
/// CUDA where `-x cu` makes all of them so, or its name does.
Inputs nvccInputs(llvm::ArrayRef<std::string> Command,
                  llvm::StringRef Directory) {
  std::vector<std::string> Problems;
  std::vector<std::string> Args =
      expandNvccOptionsFiles(Command, Directory, Problems);
  // Only dependencies or preprocessed text: FindCUDA runs `nvcc -M` before
  // each compile, which is the one to analyse.
  static const llvm::StringSet<> CompilesNothing = {
      "-M",      "--generate-dependencies",
      "-MM",     "--generate-nonsystem-dependencies",
      "-E",      "--preprocess",
      "-dryrun", "--dryrun"};
  bool AllCuda = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (CompilesNothing.contains(Arg))
      return {};
    if ((Arg == "-x" || Arg == "--x") && I + 1 < Args.size())
      AllCuda = Args[++I] == "cu";
    else if (Arg.consume_front("-x=") || Arg.consume_front("--x="))
      AllCuda = Arg == "cu";
  }
  std::vector<std::string> Archs;
  std::vector<std::string> Translated = translateNvccCommandLine(Args, Archs);
  Inputs Found;
  Found.Command = Args;
  for (size_t I = 1; I < Translated.size(); ++I) {
    llvm::StringRef Arg = Translated[I];
    // The options that translateNvccCommandLine keeps with a separate value.
    if (Arg == "-isystem" || Arg == "-include") {
      ++I;
      continue;
    }
    if (Arg.starts_with("-"))
      continue;
    Found.All.push_back(Arg.str());
    if (AllCuda || path::extension(Arg) == ".cu")
      Found.Cuda.push_back(Arg.str());
  }
  return Found;
}

/// clang's inputs, read by its own driver's option table, each CUDA when the
/// `-x` in force before it says so, or its name does.
Inputs clangInputs(llvm::ArrayRef<std::string> Command) {
  std::vector<const char *> Args;
  for (size_t I = 1; I < Command.size(); ++I)
    Args.push_back(Command[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed = clang::driver::getDriverOptTable().ParseArgs(
      Args, MissingIndex, MissingCount,
      llvm::opt::Visibility(clang::driver::options::ClangOption));
  Inputs Found;
  Found.Command = Command.vec();
  if (Parsed.hasArg(clang::driver::options::OPT_M,
                    clang::driver::options::OPT_MM,
                    clang::driver::options::OPT_E))
    return Found;
  llvm::StringRef Language;
  for (const llvm::opt::Arg *A : Parsed) {
    if (A->getOption().matches(clang::driver::options::OPT_x))
      Language = A->getValue();
    else if (A->getOption().getKind() == llvm::opt::Option::InputClass) {
      llvm::StringRef Input = A->getValue();
      Found.All.push_back(Input.str());
      if (Language == "cuda" || ((Language.empty() || Language == "none") &&
                                 path::extension(Input) == ".cu"))
        Found.Cuda.push_back(Input.str());
    }
  }
  return Found;
}

/// Command for Source alone: `nvcc a.cu b.cu -o app` compiles each source on
/// its own, and a parse takes one input. Every argument that names another
/// input is left out.
std::vector<std::string> commandFor(llvm::StringRef Source,
                                    llvm::ArrayRef<std::string> Command,
                                    llvm::ArrayRef<std::string> AllInputs) {
  std::vector<std::string> Own = {Command.front()};
  for (const std::string &Arg : Command.drop_front())
    if (Arg == Source || !llvm::is_contained(AllInputs, Arg))
      Own.push_back(Arg);
  return Own;
}

} // namespace

std::vector<clang::tooling::CompileCommand>
cudaCompileCommands(llvm::ArrayRef<std::string> Command,
                    llvm::StringRef Directory) {
  std::vector<std::string> Compiler = withoutCompilerWrappers(Command);
  if (Compiler.empty())
    return {};
  Inputs Found = isNvcc(Compiler.front()) ? nvccInputs(Compiler, Directory)
                                          : clangInputs(Compiler);
  std::vector<clang::tooling::CompileCommand> Commands;
  for (const std::string &Source : Found.Cuda) {
    llvm::SmallString<256> File(Source);
    llvm::sys::fs::make_absolute(Directory, File);
    // `..` after a link is the link target's parent, as the compiler opens
    // it: resolved by the file system, never by the text.
    llvm::SmallString<256> Real;
    if (std::find(path::begin(File), path::end(File), "..") !=
            path::end(File) &&
        !llvm::sys::fs::real_path(File, Real))
      File = Real;
    path::remove_dots(File);
    // Alone, a source keeps the command as it is; split from others, each
    // gets the command they were read from, options files expanded, so that
    // none names the others through a file.
    Commands.emplace_back(Directory, File,
                          Found.All.size() == 1
                              ? Compiler
                              : commandFor(Source, Found.Command, Found.All),
                          "");
  }
  return Commands;
}

llvm::Expected<int> runCompiler(llvm::ArrayRef<std::string> Command) {
  auto Failure = [&](const llvm::Twine &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot run the compiler '" +
                                       (Command.empty() ? "" : Command[0]) +
                                       "': " + Why);
  };
  if (Command.empty())
    return Failure("the launcher was given no command after '--'");
  std::string Program = Command[0];
  if (!llvm::StringRef(Program).contains('/')) {
    llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program);
    if (!Found)
      return Failure("it is not on PATH");
    Program = *Found;
  }
  std::vector<llvm::StringRef> Args(Command.begin(), Command.end());
  std::string Message;
  bool Failed = false;
  int Code = llvm::sys::ExecuteAndWait(Program, Args, /*Env=*/std::nullopt,
                                       /*Redirects=*/{}, /*SecondsToWait=*/0,
                                       /*MemoryLimit=*/0, &Message, &Failed);
  if (Failed)
    return Failure(Message);
  // Killed by a signal: ExecuteAndWait says -2, and a build must see a
  // failure.
  if (Code < 0) {
    llvm::errs() << "warpfix: the compiler '" << Command[0]
                 << "' ended abnormally: " << Message << "\n";
    return 1;
  }
  return Code;
}

} // namespace warpfix
