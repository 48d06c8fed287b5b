// The function bodies a unit's parse leaves out: those of the host functions
// that the toolchain's headers define.
//
// warpfix parses the device side of a unit. There the implicit CUDA wrapper
// headers, and the C++ library they include, define thousands of host
// functions whose bodies no device code runs. Parsing those bodies was a
// tenth of what a unit that includes nothing else costs (124 M of 1,415 M
// instructions, issue 18), in every unit and every preamble build.
//
// Only the toolchain's headers qualify: those under the CUDA toolkit,
// clang's resource directory, warpfix's compat headers, /usr/include and
// /usr/lib/gcc (systemHeaderRoots). They were written without the user's
// code and cannot name it, so no host body there calls, launches, declares or
// takes the address of the user's functions. A directory that the user marks
// -isystem, a vendored library say, is parsed whole: it may.
//
// What warpfix reports cannot depend on those bodies:
// - the checks walk the user's declarations, and reach toolchain code only
//   through its templates' instantiations, whose bodies are kept;
// - device code cannot call a host function. A __host__ __device__ one may,
//   in code that is then never compiled for the device; the callee then has
//   no body, which the analyses read as they read a toolkit function that is
//   only declared: not an accessor, of its arguments at most;
// - clang parses a constexpr body, or that of a function whose return type
//   is deduced, whatever it is told (Sema::canSkipFunctionBody). Templates,
//   their members, and every __device__, __host__ __device__ or __global__
//   function are parsed. An explicit specialization (`template <>`) is a
//   function of its own, not a template, and is skipped when host-only.
//
// A body left out is not parsed, so an error in it goes unreported, and no
// longer makes the unit "analysed with errors": its fixes are no longer
// withheld for it, and --strict-parse no longer drops the unit for it. The
// parse that checks the fixes compile skips the same bodies. With skipping
// on, clang also leaves out the body of a definition it could make no
// declaration of, even in the user's code (`void Incomplete::f() {...}`):
// that declaration's error is reported; those in its body are not.
#ifndef WARPFIX_TOOL_RUN_HOSTBODIES_H
#define WARPFIX_TOOL_RUN_HOSTBODIES_H

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <string>

namespace warpfix {

/// Makes Invocation's parse ask its AST consumer, for each function body,
/// whether to skip it.
void askWhichBodiesToSkip(clang::CompilerInvocation &Invocation);

/// Answers that question for one parse.
class HostBodySkipper {
public:
  /// ToolchainRoots: the directories whose headers may have bodies skipped.
  HostBodySkipper(llvm::ArrayRef<std::string> ToolchainRoots,
                  const clang::SourceManager &SM)
      : ToolchainRoots(ToolchainRoots), SM(SM) {}

  /// Whether a device-side parse may skip the body of D: a host function,
  /// no template nor part of one, written in a toolchain header.
  bool skips(const clang::Decl &D);

private:
  bool inToolchainHeader(clang::SourceLocation Loc);

  llvm::ArrayRef<std::string> ToolchainRoots;
  const clang::SourceManager &SM;
  llvm::DenseMap<clang::FileID, bool> FileIsToolchain;
};

/// A consumer that only skips those bodies: the parse that checks the fixes
/// parses what the analysis parsed.
class HostBodySkippingConsumer : public clang::ASTConsumer {
public:
  HostBodySkippingConsumer(llvm::ArrayRef<std::string> ToolchainRoots,
                           const clang::SourceManager &SM)
      : Skipper(ToolchainRoots, SM) {}
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return Skipper.skips(*D);
  }

private:
  HostBodySkipper Skipper;
};

} // namespace warpfix

#endif
