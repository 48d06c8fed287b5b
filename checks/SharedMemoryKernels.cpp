#include "checks/SharedMemoryKernels.h"
#include "checks/analysis/SystemHeaders.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

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

std::vector<std::vector<const Race *>>
racesByWritingStatement(const std::vector<Race> &Races,
                        llvm::function_ref<bool(const Race &)> Keep) {
  std::vector<std::vector<const Race *>> Groups;
  llvm::DenseMap<const clang::Stmt *, size_t> GroupOf;
  for (const Race &R : Races) {
    if (!Keep(R))
      continue;
    auto [It, New] = GroupOf.try_emplace(R.Write->Statement, Groups.size());
    if (New)
      Groups.emplace_back();
    Groups[It->second].push_back(&R);
  }
  return Groups;
}

} // namespace warpfix
