// Turning a compilation database, or none, into clang command lines for a
// device-side CUDA parse (the first two stages of a run).
#ifndef WARPFIX_TOOL_INPUT_COMPILECOMMANDS_H
#define WARPFIX_TOOL_INPUT_COMPILECOMMANDS_H

#include "tool/input/CudaToolkit.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <string>
#include <vector>

namespace warpfix {

/// Reads BuildDirectory/compile_commands.json. A file that is not valid JSON
/// is an error, never half a database.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadCompilationDatabase(llvm::StringRef BuildDirectory);

/// Database as loadCompilationDatabase gives it: response files expanded,
/// the driver mode and target taken from each compiler's name.
std::unique_ptr<clang::tooling::CompilationDatabase>
asDirectoryLoadsIt(std::unique_ptr<clang::tooling::CompilationDatabase> Database);

/// Whether a command's compiler (its argv[0]) is nvcc.
bool isNvcc(llvm::StringRef Argv0);

/// Rewrites an nvcc command line as the clang one it stands for: include
/// paths, macros, forced includes and the language standard are kept, and
/// relocatable device code (-rdc=true, -dc) becomes -fgpu-rdc; the
/// device architectures, each once and in order, are returned through
/// Archs; the rest is nvcc's own business and dropped.
std::vector<std::string>
translateNvccCommandLine(llvm::ArrayRef<std::string> Args,
                         std::vector<std::string> &Archs);

/// nvcc's --options-file (-optf) F[,F...] replaced by the options in each
/// file, read relative to Directory (the compile command's), as nvcc does;
/// CMake writes them for long include and macro lists. A file that cannot be
/// read is left out and named in Problems.
std::vector<std::string>
expandNvccOptionsFiles(llvm::ArrayRef<std::string> Args,
                       llvm::StringRef Directory,
                       std::vector<std::string> &Problems);

struct FrontEndSettings {
  CudaToolkit Toolkit;
  /// --cuda-gpu-arch; empty means the database's, else every architecture
  /// that nvcc 13 compiles for.
  std::vector<std::string> GpuArchs;
  std::vector<std::string> ExtraArgs;
  /// Before the command's own arguments (clang-tidy's --extra-arg-before).
  std::vector<std::string> ExtraArgsBefore;
};

/// A database whose every command is a clang device-side CUDA parse of one
/// file for one architecture: the first that its build compiles it for.
class CudaCompilationDatabase : public clang::tooling::CompilationDatabase {
public:
  /// The architectures File is built for, in the order named, never none:
  /// --cuda-gpu-arch's, else its command's, else every one that nvcc 13
  /// compiles for.
  virtual std::vector<std::string>
  architecturesOf(llvm::StringRef File) const = 0;
  /// File's command for Arch instead of its first architecture.
  virtual std::vector<clang::tooling::CompileCommand>
  commandsFor(llvm::StringRef File, llvm::StringRef Arch) const = 0;

  /// Problems met in the user's commands so far (an nvcc options file that
  /// cannot be read), each once.
  virtual std::vector<std::string> takeWarnings() = 0;

  /// How many more ways than one the build compiles File in: its commands
  /// that differ from the first in what a parse sees (macros, flags,
  /// architectures; not output files). Only the first is parsed.
  virtual unsigned otherCommandsOf(llvm::StringRef File) const = 0;
};

/// Wraps the user's database (or none) into a CudaCompilationDatabase. A file
/// that the database lacks borrows the command of the entry nearest by path
/// (clang's interpolation), read after its nvcc options are translated.
std::unique_ptr<CudaCompilationDatabase>
makeCudaCompilationDatabase(
    std::shared_ptr<clang::tooling::CompilationDatabase> Base,
    FrontEndSettings Settings);

/// Args less those that name outputs (`-o`, dependency files, `-c`): two
/// commands that differ only there compile the same code.
std::vector<std::string>
withoutOutputArguments(llvm::ArrayRef<std::string> Args);

/// Base's commands for Arch, for every file (CudaCompilationDatabase::
/// commandsFor); Base must outlive it.
std::unique_ptr<clang::tooling::CompilationDatabase>
commandsForArchitecture(const CudaCompilationDatabase &Base, std::string Arch);

} // namespace warpfix

#endif
