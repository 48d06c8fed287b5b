// A compiler command that warpfix runs as the build's compiler launcher
// (`warpfix --launcher -- nvcc ...`): the compiler behind any cache wrapper,
// and the CUDA sources that the command compiles.
#ifndef WARPFIX_TOOL_INPUT_LAUNCHEDCOMMAND_H
#define WARPFIX_TOOL_INPUT_LAUNCHEDCOMMAND_H

#include "clang/Tooling/CompilationDatabase.h"
#include <string>
#include <vector>

namespace warpfix {

/// Command without the compiler caches in front of it (ccache, sccache,
/// distcc, icecc, buildcache): `sccache nvcc -c a.cu` compiles as
/// `nvcc -c a.cu` does.
std::vector<std::string>
withoutCompilerWrappers(llvm::ArrayRef<std::string> Command);

/// The compile commands, one per CUDA source, that Command (run in
/// Directory) stands for, as a compilation database would list them; none
/// for a command that compiles no CUDA source (a link, a host file, `-M` or
/// `-E`, which only write dependencies or preprocessed text). A
/// source is CUDA when it ends in `.cu`, or the command compiles every input
/// as CUDA (nvcc's `-x cu`, clang's `-x cuda`). A command that names several
/// inputs (`nvcc a.cu b.cu -o app`) gives each source's command without the
/// others, as a database lists them.
std::vector<clang::tooling::CompileCommand>
cudaCompileCommands(llvm::ArrayRef<std::string> Command,
                    llvm::StringRef Directory);

/// Runs Command as the build would have, with warpfix's standard streams,
/// and gives its exit code; an error when it cannot be run at all.
llvm::Expected<int> runCompiler(llvm::ArrayRef<std::string> Command);

} // namespace warpfix

#endif
