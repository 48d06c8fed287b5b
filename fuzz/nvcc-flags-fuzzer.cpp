// The nvcc-to-clang flag translator. The input is a command line, arguments
// separated by NUL bytes. Whatever it is, the translation starts with the
// driver, holds no empty argument and no option that lost its value (clang
// would take the next argument for it), and an architecture it finds is an
// sm_ one. The same command, run by nvcc or by clang under the launcher,
// gives units whose files are absolute.
#include "tool/input/CompileCommands.h"
#include "tool/input/LaunchedCommand.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>

using namespace warpfix;

namespace {

[[noreturn]] void fail(const llvm::Twine &What,
                       llvm::ArrayRef<std::string> Args) {
  llvm::errs() << "nvcc-flags-fuzzer: " << What << "\n--- arguments ---\n";
  for (const std::string &Arg : Args)
    llvm::errs() << "[" << Arg << "]\n";
  std::abort();
}

/// clang options that take the next argument as their value.
const llvm::StringSet<> TakesNext = {"-isystem", "-include", "-x", "-o"};
/// Joined options that mean nothing without a value.
const llvm::StringSet<> NeedsJoined = {"-I", "-D", "-U", "-std="};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::vector<std::string> Args = {"nvcc"};
  llvm::StringRef Rest(reinterpret_cast<const char *>(Data), Size);
  while (!Rest.empty()) {
    auto [Arg, Tail] = Rest.split('\0');
    Args.push_back(Arg.str());
    Rest = Tail;
  }
  std::vector<std::string> Archs;
  std::vector<std::string> Out = translateNvccCommandLine(Args, Archs);
  if (Out.empty() || Out.front() != "clang++")
    fail("the translation does not start with clang++", Out);
  for (size_t I = 1; I < Out.size(); ++I) {
    if (Out[I].empty())
      fail("an empty argument", Out);
    if (NeedsJoined.contains(Out[I]))
      fail("an option without its value: " + Out[I], Out);
    if (TakesNext.contains(Out[I])) {
      if (I + 1 == Out.size())
        fail("an option whose value is missing: " + Out[I], Out);
      // Its value may look like an option (`-isystem -include`, as nvcc
      // itself reads it); it is a value all the same.
      ++I;
    }
  }
  for (const std::string &Arch : Archs)
    if (!llvm::StringRef(Arch).starts_with("sm_"))
      fail("an architecture that is not sm_: " + Arch, Out);
  for (const char *Compiler : {"nvcc", "clang++"}) {
    Args.front() = Compiler;
    for (const clang::tooling::CompileCommand &Unit :
         cudaCompileCommands(Args, "/nonexistent-warpfix-fuzz"))
      if (!llvm::sys::path::is_absolute(Unit.Filename) ||
          Unit.CommandLine.empty())
        fail("a launched unit without an absolute file: " + Unit.Filename,
             Args);
  }
  return 0;
}
