// The interface every check implements. A check is created fresh for each
// translation unit, is shown the nodes it looks at, and reports through the
// sink.
#ifndef WARPFIX_CHECKS_CHECK_H
#define WARPFIX_CHECKS_CHECK_H

#include "checks/FindingSink.h"
#include "checks/MaskFix.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/FullMaskMacros.h"
#include "checks/analysis/SkippedCode.h"
#include "checks/analysis/SyncPrimitives.h"
#include "checks/analysis/SystemHeaders.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include <cassert>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// How far a fix may go when the membership of a call is not proven.
enum class MaskFallback { None, ActiveMask };

/// Written after each __activemask() that MaskFallback::ActiveMask puts in:
/// such a fix is a migration aid, not a resolved finding, and
/// warp-activemask-mask reports the mask until a person chooses one.
constexpr llvm::StringLiteral ReviewMaskMarker =
    "/* warpfix: legacy semantics, review this mask */";

/// Settings shared by all checks, fixed for the whole run.
struct CheckOptions {
  MaskFallback Fallback = MaskFallback::None;
  /// Treat blockDim.x as a multiple of 32, so that conditions such as
  /// `threadIdx.x < 32` select whole warps.
  bool AssumeWholeWarps = true;

  /// The CheckOptions of the configuration: "<check>.<Option>" for one
  /// check, "<Option>" for all.
  std::map<std::string, std::string> Values;

  /// A check's value of Option: its own, else the global one, else Default.
  std::string get(llvm::StringRef Check, llvm::StringRef Option,
                  llvm::StringRef Default) const {
    auto Own = Values.find((Check + "." + Option).str());
    if (Own != Values.end())
      return Own->second;
    auto Global = Values.find(Option.str());
    return Global != Values.end() ? Global->second : Default.str();
  }

  /// Changes whenever a setting that can change a finding does: part of the
  /// result cache's key.
  std::string fingerprint() const {
    std::string Text = std::to_string(int(Fallback)) + "," +
                       std::to_string(AssumeWholeWarps);
    for (const auto &[Key, Value] : Values)
      Text += ";" + Key + "=" + Value;
    return Text;
  }
};

/// The options every check that writes masks understands.
inline constexpr llvm::StringLiteral FullMaskSpellingOption = "FullMaskSpelling";
inline constexpr llvm::StringLiteral MaskNamePrefixOption = "MaskNamePrefix";
/// cuda-removed-api: `true` writes the renames of the thread-named runtime
/// calls that the device's side finds no reason against (off by default:
/// the host's side, which warpfix does not parse, may mean otherwise).
inline constexpr llvm::StringLiteral RenameThreadCallsOption =
    "RenameThreadCalls";

/// What a check sees of the translation unit it runs in.
class CheckContext {
public:
  CheckContext(const CheckOptions &Options, FindingSink &Sink,
               const FullMaskMacros &FullMasks, const SkippedCode &Skipped)
      : Options(Options), Sink(Sink), FullMasks(FullMasks), Skipped(Skipped) {}

  const CheckOptions &Options;
  FindingSink &Sink;
  const FullMaskMacros &FullMasks;
  const SkippedCode &Skipped;

  /// The shared analyses, built once per translation unit on first use.
  Analyses &analyses(clang::ASTContext &Ctx) {
    if (!Shared) {
      assert(Sites && "CheckWalk gathers the call sites before any check runs");
      Shared = std::make_unique<Analyses>(Ctx, Options.AssumeWholeWarps,
                                          Sites->finish());
      Sites.reset();
    }
    return *Shared;
  }

  /// Gathers the call sites from the unit's walk, for analyses() to finish.
  CallSites::Gatherer &gatherCallSites(clang::ASTContext &Ctx) {
    Sites = std::make_unique<CallSites::Gatherer>(Ctx);
    return *Sites;
  }

private:
  std::unique_ptr<CallSites::Gatherer> Sites;
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
  Check(llvm::StringRef Name, CheckContext &Context)
      : Name(Name), Context(Context) {}
  virtual ~Check() = default;

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
  /// Read from the options once: every fix asks for it.
  const MaskStyle &maskStyle() const {
    if (!Style) {
      const CheckOptions &Options = Context.Options;
      Style.emplace(MaskStyle{
          Context.FullMasks,
          Options.get(Name, FullMaskSpellingOption, "0xffffffff"),
          Options.get(Name, MaskNamePrefixOption, "warpfix_mask_")});
    }
    return *Style;
  }

private:
  std::string Name;
  CheckContext &Context;
  mutable std::optional<MaskStyle> Style;
};

} // namespace warpfix

#endif
