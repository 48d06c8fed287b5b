// The interface every check implements. A check is created fresh for each
// translation unit, is shown the nodes it looks at, and reports through the
// sink.
#ifndef WARPFIX_CHECKS_CHECK_H
#define WARPFIX_CHECKS_CHECK_H

#include "checks/CheckOptions.h"
#include "checks/FindingSink.h"
#include "llvm/ADT/ArrayRef.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class AsmStmt;
class BinaryOperator;
class CallExpr;
class DeclRefExpr;
class FunctionDecl;
class NamedDecl;
class VarDecl;
} // namespace clang

namespace warpfix {

struct Analyses;
class CallSiteGatherer;
class FullMaskMacros;
struct MaskStyle;
class SkippedCode;

/// What a check sees of the translation unit it runs in.
class CheckContext {
public:
  CheckContext(const CheckOptions &Options, FindingSink &Sink,
               const FullMaskMacros &FullMasks, const SkippedCode &Skipped);
  ~CheckContext();

  const CheckOptions &Options;
  FindingSink &Sink;
  const FullMaskMacros &FullMasks;
  const SkippedCode &Skipped;

  /// The names of the checks that run in this unit, so that two checks
  /// that may see one defect report it once.
  std::vector<std::string> Running;
  bool runs(llvm::StringRef Check) const;
  /// The shared analyses, built once per translation unit on first use.
  Analyses &analyses(clang::ASTContext &Ctx);

  /// Gathers the call sites from the unit's walk, for analyses() to finish.
  CallSiteGatherer &gatherCallSites(clang::ASTContext &Ctx);

private:
  std::unique_ptr<CallSiteGatherer> Sites;
  std::unique_ptr<Analyses> Shared;
};

/// A check is shown the nodes of the user's code it may report on, in the
/// order of one pre-order walk of the unit (checks/CheckWalk.h), and only
/// after that walk: its analyses may then climb from any node, callers later
/// in the file included. A node the walk reaches twice (a child that both
/// forms of an InitListExpr share) is shown twice, as MatchFinder showed it.
/// The walk does no filtering; each hook tests its node, cheapest test
/// first, since it sees every node of its kind.
class Check {
public:
  /// Name is the check's name in the registry (checks/CheckRegistry.cpp),
  /// the one place where it is spelled.
  Check(llvm::StringRef Name, CheckContext &Context);
  virtual ~Check();

  /// The options the check reads, which the configuration is checked
  /// against. A check that reads some hides this with its own.
  static llvm::ArrayRef<CheckOptionInfo> options() { return {}; }

  virtual void onCall(const clang::CallExpr &, clang::ASTContext &) {}
  virtual void onAsm(const clang::AsmStmt &, clang::ASTContext &) {}
  virtual void onBinaryOperator(const clang::BinaryOperator &,
                                clang::ASTContext &) {}
  virtual void onDeclRef(const clang::DeclRefExpr &, clang::ASTContext &) {}
  virtual void onFunction(const clang::FunctionDecl &, clang::ASTContext &) {}
  virtual void onVariable(const clang::VarDecl &, clang::ASTContext &) {}
  /// Every other named declaration: fields, types, enumerators, using
  /// declarations, namespaces, templates.
  virtual void onOtherDeclaration(const clang::NamedDecl &,
                                  clang::ASTContext &) {}
  /// Before any node is shown.
  virtual void onTranslationUnit(clang::ASTContext &) {}
  /// After every node has been shown.
  virtual void onEndOfTranslationUnit() {}

  llvm::StringRef name() const { return Name; }

protected:
  FindingBuilder report(clang::SourceLocation Loc, llvm::StringRef Message) {
    return Context.Sink.report(Name, Loc, Message);
  }
  CheckContext &context() const { return Context; }
  /// The check's value of one of its options().
  std::string option(const CheckOptionInfo &Option) const {
    return Context.Options.get(Name, Option);
  }
  /// Read from the options once: every fix asks for it.
  const MaskStyle &maskStyle() const;

private:
  std::string Name;
  CheckContext &Context;
  mutable std::unique_ptr<MaskStyle> Style;
};

} // namespace warpfix

#endif
