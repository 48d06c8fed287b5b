// The interface every check implements. A check is created fresh for each
// translation unit, registers its matchers, and reports through the sink.
#ifndef WARPFIX_CHECKS_CHECK_H
#define WARPFIX_CHECKS_CHECK_H

#include "checks/FindingSink.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/FullMaskMacros.h"
#include "checks/analysis/MaskFix.h"
#include "checks/analysis/SkippedCode.h"
#include "checks/analysis/SyncPrimitives.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// How far a fix may go when the membership of a call is not proven.
enum class MaskFallback { None, ActiveMask };

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

/// One matcher that several checks want, added once: MatchFinder tests each
/// matcher it holds on every node of its kind, so two copies of one cost two
/// tests of every call in the unit. Subscribers get run() only; a check that
/// needs the unit's start or end adds a matcher of its own.
class SharedMatcher : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  explicit SharedMatcher(clang::ast_matchers::StatementMatcher Matcher)
      : Matcher(std::move(Matcher)) {}

  void subscribe(clang::ast_matchers::MatchFinder &Finder,
                 clang::ast_matchers::MatchFinder::MatchCallback &Check) {
    if (Subscribers.empty())
      Finder.addMatcher(Matcher, this);
    Subscribers.push_back(&Check);
  }

  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override {
    for (clang::ast_matchers::MatchFinder::MatchCallback *Check : Subscribers)
      Check->run(Result);
  }

private:
  clang::ast_matchers::StatementMatcher Matcher;
  std::vector<clang::ast_matchers::MatchFinder::MatchCallback *> Subscribers;
};

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
  /// syncPrimitiveCall(), for every check that looks at those calls.
  SharedMatcher SyncPrimitiveCalls{syncPrimitiveCall()};

  /// The shared analyses, built once per translation unit on first use.
  Analyses &analyses(clang::ASTContext &Ctx) {
    if (!Shared)
      Shared = std::make_unique<Analyses>(Ctx, Options.AssumeWholeWarps);
    return *Shared;
  }

private:
  std::unique_ptr<Analyses> Shared;
};

class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Check(llvm::StringRef Name, CheckContext &Context)
      : Name(Name), Context(Context) {}

  virtual void
  registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;

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
