// cuda-removed-api: uses of what CUDA 12 and 13 removed (texture and surface
// references, their runtime calls, the thread-named runtime calls, and
// headers), which warpfix's compat headers declare so that the rest of the
// unit can be analysed and fixed. Each use is reported. Only the thread-named
// calls are rewritten, to the names CUDA 4 gave them; the rest changes what
// a kernel takes or how the host binds it, which is the project's call.
#ifndef WARPFIX_CHECKS_CUDA_REMOVED_API_H
#define WARPFIX_CHECKS_CUDA_REMOVED_API_H

#include "checks/Check.h"
#include "checks/analysis/SkippedCode.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// `true` writes the renames of the thread-named runtime calls that the
/// device's side finds no reason against (off by default: the host's side,
/// which warpfix does not parse, may mean otherwise).
inline constexpr CheckOptionInfo RenameThreadCallsOption{
    "RenameThreadCalls", "false", booleanProblem};
inline constexpr CheckOptionInfo CudaRemovedApiOptions[] = {
    RenameThreadCallsOption};

class CudaRemovedApiCheck : public Check {
public:
  CudaRemovedApiCheck(llvm::StringRef Name, CheckContext &Context)
      : Check(Name, Context) {}
  static llvm::ArrayRef<CheckOptionInfo> options() {
    return CudaRemovedApiOptions;
  }

  void onDeclRef(const clang::DeclRefExpr &Ref, clang::ASTContext &Ctx) override;
  void onCall(const clang::CallExpr &Call, clang::ASTContext &Ctx) override;
  void onVariable(const clang::VarDecl &Var, clang::ASTContext &Ctx) override;
  void onFunction(const clang::FunctionDecl &F, clang::ASTContext &Ctx) override;
  void onOtherDeclaration(const clang::NamedDecl &D,
                          clang::ASTContext &Ctx) override;
  /// The #includes of removed headers, which the compat folder stands in
  /// for.
  void onTranslationUnit(clang::ASTContext &Ctx) override;
  /// Decides the renames, once every declaration of the unit is known.
  void onEndOfTranslationUnit() override;

private:
  /// What the unit says of one place that names a thread-named call, over
  /// every instantiation that holds it.
  struct PendingRename {
    clang::SourceLocation At;
    /// The stand-in for the removed call that the name finds, if it does.
    const clang::FunctionDecl *Removed = nullptr;
    /// A project's own function of that name that it finds (in another
    /// instantiation, or in this unit instead of the stand-in).
    const clang::FunctionDecl *CallsOwnFunction = nullptr;
    /// The name's token in its file, once some reference may be renamed.
    clang::CharSourceRange Name;
    bool Qualified = false;
    bool SpaceBefore = false;
    /// The macros whose arguments carry the name to the call.
    std::vector<std::string> Macros;
    std::optional<std::string> Refusal;
  };

  void considerRename(const clang::DeclRefExpr &Ref,
                      const clang::FunctionDecl &Removed,
                      clang::ASTContext &Ctx);
  void vetoRename(const PendingRename &Rename);
  /// Why no call of OldName may be renamed in this unit, if none may.
  std::optional<std::string> unitRefusal(llvm::StringRef OldName);
  void reportUnparsedCalls(const clang::SourceManager &SM);
  /// Vetoes, in every unit of the run, the renames of an old name that this
  /// unit defines with external linkage.
  void vetoEverywhere(const clang::SourceManager &SM);
  /// Every identifier in code the preprocessor skipped, in the project's
  /// files: what a host-only branch may declare, define or redefine.
  const llvm::StringSet<> &skippedIdentifiers();
  /// Remembers the project's declarations of an old call's name.
  void noteDeclared(const clang::NamedDecl &D);

  clang::ASTContext *Context = nullptr;
  /// CheckOptions RenameThreadCalls.
  bool RenameWanted = false;
  std::map<unsigned, PendingRename> Renames;
  llvm::StringMap<const clang::NamedDecl *> OwnDeclarations;
  llvm::StringMap<clang::SourceLocation> OwnDefinitions;
  std::optional<llvm::StringSet<>> SkippedNames;
  std::vector<const clang::UsingDecl *> UsingDecls;
  llvm::StringMap<std::optional<std::string>> UnitRefusals;
  /// Where the AST names an old call (spelling locations).
  llvm::DenseSet<unsigned> SeenNames;
};

} // namespace warpfix

#endif
