// The function bodies a unit's parse leaves out: those of the host functions
// that system headers define.
//
// warpfix parses the device side of a unit. There the implicit CUDA wrapper
// headers, and the C++ library they include, define thousands of host
// functions whose bodies no device code runs. Parsing those bodies was a
// tenth of what a unit that includes nothing else costs (124 M of 1,415 M
// instructions, issue 18), in every unit and every preamble build.
//
// What warpfix reports cannot depend on them:
// - the checks, and the walk that feeds them, see the user's code alone
//   (UserCodeConsumer); the call graph enters system headers only through
//   the instantiations of their templates, whose bodies are kept;
// - device code cannot call a host function. A __host__ __device__ one may,
//   in code that is then never compiled for the device; there the analyses
//   find no body, as for a toolkit function that is only declared, and
//   answer as they do for one;
// - clang parses a constexpr body, or that of a function whose return type
//   is deduced, whatever the consumer says (Sema::canSkipFunctionBody).
//
// A body left out is not parsed, so an error in it goes unreported: it could
// only have made the unit "analysed with errors" for code that no device
// runs. With skipping on, clang also leaves out the body of a definition it
// could make no declaration of (`void Incomplete::f() {...}`); that
// declaration's own error is reported, the errors in the body are not.
#ifndef WARPFIX_TOOL_RUN_HOSTBODIES_H
#define WARPFIX_TOOL_RUN_HOSTBODIES_H

#include "clang/AST/DeclBase.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInvocation.h"

namespace warpfix {

/// Makes Invocation's parse ask its AST consumer, for each function body,
/// whether to skip it.
void askWhichBodiesToSkip(clang::CompilerInvocation &Invocation);

/// Whether a device-side parse may skip the body of D: a host function, no
/// template nor part of one, written in a system header.
bool isSkippableHostBody(const clang::Decl &D, const clang::SourceManager &SM);

} // namespace warpfix

#endif
