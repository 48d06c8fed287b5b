#include "tool/run/HostBodies.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"

using namespace clang;

namespace warpfix {

void askWhichBodiesToSkip(CompilerInvocation &Invocation) {
  Invocation.getFrontendOpts().SkipFunctionBodies = true;
}

bool isSkippableHostBody(const Decl &D, const SourceManager &SM) {
  const FunctionDecl *F = D.getAsFunction();
  // The target attributes are the declaration's, merged from earlier ones
  // and from `#pragma clang force_cuda_host_device`, before its body.
  return F && D.getASTContext().getLangOpts().CUDAIsDevice &&
         !F->hasAttr<CUDADeviceAttr>() && !F->hasAttr<CUDAGlobalAttr>() &&
         !D.isTemplated() && SM.isInSystemHeader(D.getLocation());
}

} // namespace warpfix
