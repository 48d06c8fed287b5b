// warp-legacy-intrinsic: calls of the pre-CUDA-9 warp intrinsics, which
// assume lockstep execution and which CUDA 13 no longer compiles.
#ifndef WARPFIX_CHECKS_WARP_LEGACY_INTRINSIC_H
#define WARPFIX_CHECKS_WARP_LEGACY_INTRINSIC_H

#include "checks/Check.h"
#include "checks/MaskFix.h"
#include "checks/analysis/SkippedCode.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace warpfix {

struct LegacyIntrinsic;
struct IgnoredMaskParameter;
struct Membership;

class WarpLegacyIntrinsicCheck : public Check {
public:
  WarpLegacyIntrinsicCheck(llvm::StringRef Name, CheckContext &Context)
      : Check(Name, Context) {}
  /// The masks it writes are spelled as these say.
  static llvm::ArrayRef<CheckOptionInfo> options() { return MaskStyleOptions; }

  void onCall(const clang::CallExpr &Call, clang::ASTContext &Ctx) override;
  void onEndOfTranslationUnit() override;

private:
  /// Reports the legacy names in Region's text, without a fix. In code that
  /// was Parsed (with errors), only those the AST does not hold.
  void reportLexically(const SkippedCode::Region &Region, bool Parsed,
                       const clang::SourceManager &SM);
  llvm::DenseSet<unsigned> NamesInAst, LexicallyReported;
  static std::string message(const LegacyIntrinsic &Entry);
  /// message(Entry), made once per intrinsic that the unit calls; valid
  /// until the next call.
  const std::string &messageFor(const LegacyIntrinsic &Entry);
  llvm::DenseMap<const LegacyIntrinsic *, std::string> Messages;
  /// The toolkit intrinsic Callee is, if any, asked once per function of
  /// this translation unit: every call of the user's code comes here.
  const LegacyIntrinsic *intrinsicCalled(const clang::FunctionDecl *Callee,
                                         const clang::SourceManager &SM);
  llvm::DenseMap<const clang::FunctionDecl *, const LegacyIntrinsic *>
      Intrinsics;
  /// Rewrites a wrapper macro's legacy call to pass on the mask parameter it
  /// ignored, when that is provably right at this expansion; otherwise says
  /// why not, and leaves the call to the usual rewrite.
  bool passOnIgnoredMask(FindingBuilder &Finding,
                         const IgnoredMaskParameter &Param,
                         const Membership &Lanes, const LegacyIntrinsic &Entry,
                         clang::SourceLocation Name,
                         clang::SourceLocation Paren, clang::ASTContext &Ctx);
};

} // namespace warpfix

#endif
