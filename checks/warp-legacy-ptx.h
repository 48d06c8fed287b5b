// warp-legacy-ptx: shfl and vote instructions without .sync in the inline PTX
// of device code, which ptxas rejects for sm_70 and later.
#ifndef WARPFIX_CHECKS_WARP_LEGACY_PTX_H
#define WARPFIX_CHECKS_WARP_LEGACY_PTX_H

#include "checks/Check.h"
#include "checks/MaskFix.h"
#include "checks/analysis/SkippedCode.h"
#include "llvm/ADT/DenseSet.h"

namespace warpfix {

struct InlinePtx;
namespace ptx {
struct Instruction;
struct LegacyForm;
} // namespace ptx

class WarpLegacyPtxCheck : public Check {
public:
  WarpLegacyPtxCheck(llvm::StringRef Name, CheckContext &Context)
      : Check(Name, Context) {}
  /// The masks it writes are spelled as these say.
  static llvm::ArrayRef<CheckOptionInfo> options() { return MaskStyleOptions; }

  void onAsm(const clang::AsmStmt &Asm, clang::ASTContext &Ctx) override;
  void onEndOfTranslationUnit() override;

private:
  void reportLexically(const SkippedCode::Region &Region, bool Parsed,
                       const clang::SourceManager &SM);
  void checkInstruction(const InlinePtx &Ptx, const ptx::Instruction &I,
                        const ptx::LegacyForm &Form, clang::ASTContext &Ctx);

  /// The file ranges of the asm statements that the syntax tree holds: code
  /// that clang's recovery may have dropped is read as text outside them.
  std::vector<clang::SourceRange> AsmInAst;
  llvm::DenseSet<unsigned> LexicallyReported;
};

} // namespace warpfix

#endif
