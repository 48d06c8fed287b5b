#include "checks/warp-legacy-intrinsic.h"
#include "checks/analysis/Membership.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warpfix {
namespace {

struct LegacyIntrinsic {
  llvm::StringRef Legacy;
  llvm::StringRef Sync;
};

constexpr LegacyIntrinsic Table[] = {
#define LEGACY_INTRINSIC(Legacy, Sync, Kind) {#Legacy, #Sync},
#include "checks/LegacyIntrinsics.def"
};

const LegacyIntrinsic *lookup(llvm::StringRef Name) {
  for (const LegacyIntrinsic &Entry : Table)
    if (Entry.Legacy == Name)
      return &Entry;
  return nullptr;
}

std::vector<llvm::StringRef> legacyNames() {
  std::vector<llvm::StringRef> Names;
  for (const LegacyIntrinsic &Entry : Table)
    Names.push_back(Entry.Legacy);
  return Names;
}

/// The '(' that follows the callee's name where the name is spelled, or an
/// invalid location when the name and its parenthesis are written in different
/// places (a macro that expands to the bare name, say).
SourceLocation parenAfterName(SourceLocation NameSpelling,
                              const SourceManager &SM,
                              const LangOptions &LangOpts) {
  std::optional<Token> Next =
      Lexer::findNextToken(NameSpelling, SM, LangOpts);
  if (!Next || !Next->is(tok::l_paren))
    return {};
  return Next->getLocation();
}

} // namespace

void WarpLegacyIntrinsicCheck::registerMatchers(MatchFinder &Finder) {
  // Only the toolkit's global functions count: a user's own function named
  // `any`, a compatibility shim called `__shfl_down`, or cooperative groups'
  // `tile.any()` is not a legacy intrinsic. Calls inside the toolkit's own
  // headers are not the user's to fix.
  Finder.addMatcher(
      callExpr(unless(isExpansionInSystemHeader()),
               callee(functionDecl(hasAnyName(legacyNames()),
                                   isExpansionInSystemHeader())
                          .bind("callee")))
          .bind("call"),
      this);
}

void WarpLegacyIntrinsicCheck::run(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Callee = Result.Nodes.getNodeAs<FunctionDecl>("callee");
  const LegacyIntrinsic *Entry = lookup(Callee->getName());
  const auto *Ref = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
  if (!Entry || !Ref ||
      !Callee->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Name = Ref->getLocation();
  FindingBuilder Finding = report(
      Name, ("'" + Entry->Legacy + "' is a legacy warp intrinsic that CUDA 13 "
             "no longer compiles; use '" + Entry->Sync +
             "' with an explicit member mask")
                .str());

  std::string Candidate =
      (Entry->Sync + "(<mask>, ...) where <mask> names the lanes that reach "
                     "this call")
          .str();
  Membership Lanes = membershipAt(*Call, *Result.Context);
  if (Lanes.Result != Membership::AllLanes) {
    Finding.withoutFix(Lanes.ReasonLoc, "no automatic fix: " + Lanes.Reason)
        .note(Name, "candidate rewrite: " + Candidate);
    return;
  }
  SourceLocation NameSpelling = SM.getSpellingLoc(Name);
  SourceLocation Paren =
      parenAfterName(NameSpelling, SM, Result.Context->getLangOpts());
  if (Paren.isInvalid()) {
    Finding.withoutFix(Name, "no automatic fix: the intrinsic's name and its "
                             "argument list are written in different places")
        .note(Name, "candidate rewrite: " + Candidate);
    return;
  }
  std::string Mask = context().FullMasks.spellingAt(Name, SM);
  Finding.replace(CharSourceRange::getTokenRange(NameSpelling), Entry->Sync)
      .insertBefore(Paren.getLocWithOffset(1), Mask + ", ")
      .note(Name, "every lane of the warp reaches this call, so the full mask "
                  "is exact");
}

} // namespace warpfix
