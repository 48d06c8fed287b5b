// cuda-removed-api: uses of what CUDA 12 and 13 removed (texture and surface
// references, their runtime calls, the thread-named runtime calls, and
// headers), which warpfix's compat headers declare so that the rest of the
// unit can be analysed and fixed. Each use is reported. Only the thread-named
// calls are rewritten, to the names CUDA 4 gave them; the rest changes what
// a kernel takes or how the host binds it, which is the project's call.
#ifndef WARPFIX_CHECKS_CUDA_REMOVED_API_H
#define WARPFIX_CHECKS_CUDA_REMOVED_API_H

#include "checks/Check.h"
#include "llvm/ADT/StringMap.h"
#include <vector>

namespace warpfix {

class CudaRemovedApiCheck : public Check {
public:
  explicit CudaRemovedApiCheck(CheckContext &Context)
      : Check("cuda-removed-api", Context) {}

  void onDeclRef(const clang::DeclRefExpr &Ref, clang::ASTContext &Ctx) override;
  void onVariable(const clang::VarDecl &Var, clang::ASTContext &Ctx) override;
  void onFunction(const clang::FunctionDecl &F, clang::ASTContext &Ctx) override;
  void onOtherDeclaration(const clang::NamedDecl &D,
                          clang::ASTContext &Ctx) override;
  /// The #includes of removed headers, which the compat folder stands in
  /// for.
  void onTranslationUnit(clang::ASTContext &Ctx) override;
  /// Decides the renames, once every declaration of the unit is known: a
  /// declaration of the new name anywhere may be what the name finds there.
  void onEndOfTranslationUnit() override;

private:
  struct PendingRename {
    FindingBuilder Finding;
    clang::SourceLocation At;
    /// The name's token in its file.
    clang::CharSourceRange Name;
    llvm::StringRef NewName;
    std::optional<std::string> Refusal;
  };

  void reportRenamed(const clang::DeclRefExpr &Ref,
                     const clang::FunctionDecl &Removed,
                     llvm::StringRef NewName, clang::ASTContext &Ctx);
  /// Remembers the user's declarations that a new name could find.
  void noteDeclared(const clang::NamedDecl &D);

  clang::IdentifierTable *Idents = nullptr;
  std::vector<PendingRename> Renames;
  llvm::StringMap<clang::SourceLocation> DeclaredNames;
};

} // namespace warpfix

#endif
