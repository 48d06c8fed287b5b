// cuda-removed-api: uses of what CUDA 12 and 13 removed (texture and surface
// references, their runtime calls, the thread-named runtime calls, and
// headers), which warpfix's compat headers declare so that the rest of the
// unit can be analysed and fixed. Each use is reported; none is rewritten.
#ifndef WARPFIX_CHECKS_CUDA_REMOVED_API_H
#define WARPFIX_CHECKS_CUDA_REMOVED_API_H

#include "checks/Check.h"

namespace warpfix {

class CudaRemovedApiCheck : public Check {
public:
  explicit CudaRemovedApiCheck(CheckContext &Context)
      : Check("cuda-removed-api", Context) {}

  void onDeclRef(const clang::DeclRefExpr &Ref, clang::ASTContext &Ctx) override;
  void onVariable(const clang::VarDecl &Var, clang::ASTContext &Ctx) override;
  /// The #includes of removed headers, which the compat folder stands in
  /// for.
  void onTranslationUnit(clang::ASTContext &Ctx) override;
};

} // namespace warpfix

#endif
