// The GPU architectures a file is parsed for. A build compiles each file for
// every architecture it names, and `#if __CUDA_ARCH__ ...` makes those
// programs differ; a fix is right only if it is right in each of them.
#ifndef WARPFIX_TOOL_INPUT_GPUARCHITECTURES_H
#define WARPFIX_TOOL_INPUT_GPUARCHITECTURES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// "sm_90" for "sm_90", "90", "compute_90" or "lto_90"; "sm_90a" keeps its
/// suffix. None for anything else ("native", "all", "sm_x").
std::optional<std::string> normalizedArchitecture(llvm::StringRef Name);

/// A list as users write it, CMake's "75;90" or clang's "sm_75,sm_90", each
/// normalized and told once. An error names the entry that is not an
/// architecture, or one older than clang can parse for.
llvm::Expected<std::vector<std::string>>
parseArchitectureList(llvm::StringRef List);

/// __CUDA_ARCH__ for an architecture: 900 for "sm_90" and "sm_90a".
unsigned cudaArchValue(llvm::StringRef Arch);

/// The clang options that parse for Arch. An architecture newer than clang 19
/// knows (sm_100, sm_120) is parsed as the newest one it knows, with
/// __CUDA_ARCH__ set to Arch's value: the user's `#if`s take the branches
/// the real build takes.
std::vector<std::string> clangArchitectureOptions(llvm::StringRef Arch);

/// What nvcc 13 compiles for (nvcc --list-gpu-arch), oldest first: the
/// architectures a file may be built for when nothing says which.
llvm::ArrayRef<llvm::StringRef> cuda13Architectures();

/// nvcc 13's architecture when the command names none.
constexpr llvm::StringLiteral DefaultArchitecture = "sm_75";

/// Archs, a build's, with each that CUDA 13 no longer compiles for (older
/// than sm_75: a legacy Makefile's sm_20, sm_35) replaced by sm_75, once:
/// code for them builds for no architecture that the migrated build can
/// target, and clang 19 cannot parse for most of them with CUDA 13's
/// headers. The names replaced go to Retired.
std::vector<std::string>
withoutRetiredArchitectures(llvm::ArrayRef<std::string> Archs,
                            std::vector<std::string> &Retired);

} // namespace warpfix

#endif
