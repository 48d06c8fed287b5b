#include "checks/SharedMemoryKernels.h"
#include "checks/analysis/SystemHeaders.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace warpfix {

void SharedMemoryKernels::onFunction(const FunctionDecl &Function,
                                     ASTContext &Ctx) {
  if (!Function.isThisDeclarationADefinition() ||
      !Function.hasAttr<CUDAGlobalAttr>() ||
      isExpansionInSystemHeader(Function, Ctx.getSourceManager()) ||
      Function.isDependentContext() || !Function.getBody())
    return;
  Kernels.push_back(&Function);
  Context = &Ctx;
}

void SharedMemoryKernels::onDeclRef(const DeclRefExpr &Ref) {
  const auto *Var = dyn_cast<VarDecl>(Ref.getDecl());
  if (Var && Var->hasAttr<CUDASharedAttr>())
    NamesSharedMemory = true;
}

void SharedMemoryKernels::analyse(
    llvm::function_ref<void(const FunctionDecl &, ASTContext &)> Analyse) {
  if (NamesSharedMemory)
    for (const FunctionDecl *Kernel : Kernels)
      Analyse(*Kernel, *Context);
  Kernels.clear();
  NamesSharedMemory = false;
}

} // namespace warpfix
