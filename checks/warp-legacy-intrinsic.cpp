#include "checks/warp-legacy-intrinsic.h"
#include "checks/analysis/MaskFix.h"
#include "checks/analysis/Membership.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warpfix {
struct LegacyIntrinsic {
  llvm::StringRef Legacy;
  llvm::StringRef Sync;
};

namespace {

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

/// For a legacy call written in the body of a function-like macro that takes
/// a mask parameter it never uses (`#define WARP_SHFL(x, l, mask) __shfl(x,
/// l)`), the name of that parameter: the caller already says which lanes take
/// part, and the rewrite only has to pass it on.
std::optional<std::string> unusedMaskParameter(SourceLocation NameSpelling,
                                               const SourceManager &SM) {
  auto [File, Offset] = SM.getDecomposedLoc(NameSpelling);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  // The start of the (possibly continued) line holding the name.
  size_t Start = Offset;
  while (true) {
    size_t LineStart = Buffer.rfind('\n', Start == 0 ? 0 : Start - 1);
    LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
    Start = LineStart;
    llvm::StringRef Before = Buffer.substr(0, Start).rtrim("\r\n");
    if (Start == 0 || !Before.ends_with("\\"))
      break;
    Start = Before.size();
  }
  static const llvm::Regex Define(
      "^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*\\(([^)]*)\\)");
  llvm::SmallVector<llvm::StringRef, 2> Match;
  if (!Define.match(Buffer.substr(Start), &Match))
    return std::nullopt;
  size_t BodyStart = Start + Match[0].size();
  llvm::StringRef Body = Buffer.substr(BodyStart);
  // The body ends at the first line end without a continuation.
  for (size_t I = 0; I < Body.size(); ++I)
    if (Body[I] == '\n' && (I == 0 || llvm::StringRef(Body.data(), I)
                                            .rtrim("\r")
                                            .back() != '\\')) {
      Body = Body.take_front(I);
      break;
    }
  llvm::SmallVector<llvm::StringRef, 4> Params;
  Match[1].split(Params, ',');
  for (llvm::StringRef Param : Params) {
    Param = Param.trim();
    if (!llvm::StringRef(Param.lower()).contains("mask"))
      continue;
    bool Used = false;
    for (size_t At = Body.find(Param); At != llvm::StringRef::npos;
         At = Body.find(Param, At + 1)) {
      bool LeftEdge = At == 0 || !(llvm::isAlnum(Body[At - 1]) || Body[At - 1] == '_');
      size_t End = At + Param.size();
      bool RightEdge = End >= Body.size() ||
                       !(llvm::isAlnum(Body[End]) || Body[End] == '_');
      Used |= LeftEdge && RightEdge;
    }
    if (!Used && Offset >= BodyStart)
      return Param.str();
  }
  return std::nullopt;
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
  // In a template that is never instantiated the call stays unresolved; it
  // is reported all the same, so that nothing is passed over in silence.
  Finder.addMatcher(
      callExpr(unless(isExpansionInSystemHeader()),
               callee(unresolvedLookupExpr(hasAnyDeclaration(
                   functionDecl(hasAnyName(legacyNames()),
                                isExpansionInSystemHeader())))),
               hasAncestor(functionDecl().bind("template")))
          .bind("dependent"),
      this);
}

/// True when some instantiation of the template around F exists, whose calls
/// are analysed on their own.
static bool isInstantiated(const FunctionDecl &F) {
  if (const FunctionTemplateDecl *T = F.getDescribedFunctionTemplate())
    if (!T->specializations().empty())
      return true;
  for (const DeclContext *DC = F.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *Record = dyn_cast<CXXRecordDecl>(DC))
      if (const ClassTemplateDecl *T = Record->getDescribedClassTemplate())
        if (!T->specializations().empty())
          return true;
  return false;
}

void WarpLegacyIntrinsicCheck::reportUninstantiated(
    const CallExpr &Call, const FunctionDecl &Template) {
  if (isInstantiated(Template))
    return;
  const auto *Lookup =
      cast<UnresolvedLookupExpr>(Call.getCallee()->IgnoreImpCasts());
  const LegacyIntrinsic *Entry = lookup(Lookup->getName().getAsString());
  if (!Entry)
    return;
  report(Lookup->getNameLoc(), message(*Entry))
      .withoutFix(Template.getLocation(),
                  "no automatic fix: the template is not instantiated in this "
                  "translation unit, so who reaches the call is unknown");
}

void WarpLegacyIntrinsicCheck::onEndOfTranslationUnit() {
  // Code that `#if __CUDA_ARCH__` hid from this parse: scanned for the legacy
  // names, since it could not be analysed.
  const SourceManager &SM = context().Sink.sourceManager();
  LangOptions LangOpts;
  LangOpts.CPlusPlus = true;
  for (const SkippedCode::Region &Region :
       context().Skipped.architectureRegions()) {
    auto [File, Begin] = SM.getDecomposedLoc(Region.Range.getBegin());
    unsigned End = SM.getFileOffset(Region.Range.getEnd());
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
    if (Invalid || End <= Begin)
      continue;
    Lexer Raw(SM.getLocForStartOfFile(File), LangOpts, Buffer.begin(),
              Buffer.begin() + Begin, Buffer.end());
    Token Tok;
    while (!Raw.LexFromRawLexer(Tok) &&
           SM.getFileOffset(Tok.getLocation()) < End) {
      if (!Tok.is(tok::raw_identifier))
        continue;
      const LegacyIntrinsic *Entry = lookup(Tok.getRawIdentifier());
      Token Next;
      if (!Entry || Raw.LexFromRawLexer(Next) || !Next.is(tok::l_paren))
        continue;
      report(Tok.getLocation(), message(*Entry))
          .withoutFix(Region.Range.getBegin(),
                      "not analysed: this parse's architecture skips this "
                      "branch of an #if on the architecture ('" +
                          Region.Condition +
                          "'); run warpfix again with --cuda-gpu-arch set to "
                          "an architecture that compiles it");
    }
  }
}

/// `__popc(__ballot(1))` counts the lanes that are active right there; its
/// faithful rewrite is `__popc(__activemask())`, not a ballot over a mask.
static bool countsActiveLanes(const CallExpr &Call, const LegacyIntrinsic &Entry,
                              ASTContext &Ctx) {
  if (Entry.Sync != "__ballot_sync" || Call.getNumArgs() != 1)
    return false;
  Expr::EvalResult Value;
  if (!Call.getArg(0)->EvaluateAsInt(Value, Ctx) || Value.Val.getInt() == 0)
    return false;
  DynTypedNodeList Parents = Ctx.getParents(Call);
  while (!Parents.empty() && (Parents[0].get<ImplicitCastExpr>() ||
                              Parents[0].get<ParenExpr>()))
    Parents = Ctx.getParents(Parents[0]);
  const auto *Outer = Parents.empty() ? nullptr : Parents[0].get<CallExpr>();
  const FunctionDecl *Popc = Outer ? Outer->getDirectCallee() : nullptr;
  return Popc && Popc->getIdentifier() &&
         (Popc->getName() == "__popc" || Popc->getName() == "__popcll");
}

std::string WarpLegacyIntrinsicCheck::message(const LegacyIntrinsic &Entry) {
  return ("'" + Entry.Legacy + "' is a legacy warp intrinsic that CUDA 13 "
          "no longer compiles; use '" + Entry.Sync +
          "' with an explicit member mask")
      .str();
}

void WarpLegacyIntrinsicCheck::run(const MatchFinder::MatchResult &Result) {
  if (const auto *Dependent = Result.Nodes.getNodeAs<CallExpr>("dependent")) {
    reportUninstantiated(*Dependent,
                         *Result.Nodes.getNodeAs<FunctionDecl>("template"));
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Callee = Result.Nodes.getNodeAs<FunctionDecl>("callee");
  const LegacyIntrinsic *Entry = lookup(Callee->getName());
  const auto *Ref = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
  if (!Entry || !Ref ||
      !Callee->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  SourceLocation Name = Ref->getLocation();
  FindingBuilder Finding = report(Name, message(*Entry));
  if (SM.isMacroArgExpansion(Name) || Name.isMacroID())
    Finding.note(SM.getExpansionLoc(Name), "in this expansion of a macro");

  if (countsActiveLanes(*Call, *Entry, Ctx)) {
    Finding
        .replace(Lexer::makeFileCharRange(
                     CharSourceRange::getTokenRange(Call->getSourceRange()),
                     SM, Ctx.getLangOpts()),
                 "__activemask()")
        .note(Name, "__popc(__ballot(1)) counts the lanes active at this "
                    "point, which is what __activemask() returns");
    return;
  }

  std::string Candidate = (Entry->Sync + "(<mask>, ...)").str();
  SourceLocation Paren =
      parenAfterName(SM.getSpellingLoc(Name), SM, Ctx.getLangOpts());
  if (Name.isMacroID() && !SM.isMacroArgExpansion(Name) && Paren.isValid()) {
    if (std::optional<std::string> Param =
            unusedMaskParameter(SM.getSpellingLoc(Name), SM)) {
      Finding
          .replace(CharSourceRange::getTokenRange(SM.getSpellingLoc(Name)),
                   Entry->Sync)
          .insertBefore(Paren.getLocWithOffset(1), *Param + ", ")
          .note(Name, "the macro takes the member mask from its caller in '" +
                          *Param + "', which is now passed on");
      return;
    }
  }
  Membership Lanes = context().analyses(Ctx).Members.at(Call);
  if (Lanes.Result == Membership::Unknown) {
    if (context().Options.Fallback == MaskFallback::ActiveMask &&
        Paren.isValid()) {
      Finding.replace(CharSourceRange::getTokenRange(SM.getSpellingLoc(Name)),
                      Entry->Sync)
          .insertBefore(Paren.getLocWithOffset(1),
                        "__activemask() /* warpfix: legacy semantics, review "
                        "this mask */, ")
          .note(Lanes.ReasonLoc, "the lanes that reach this call are "
                                 "unknown: " + Lanes.Reason)
          .note(Name, "--mask-fallback=activemask: rewritten with "
                      "__activemask(), which is what the legacy intrinsic "
                      "did; replace it with the lanes that should take part");
      return;
    }
    Finding.withoutFix(Lanes.ReasonLoc, "no automatic fix: " + Lanes.Reason)
        .note(Name, "candidate rewrite: " + Candidate +
                        " where <mask> names the lanes that reach this call");
    return;
  }
  if (Paren.isInvalid()) {
    Finding.withoutFix(Name, "no automatic fix: the intrinsic's name and its "
                             "argument list are written in different places")
        .note(Name, "candidate rewrite: " + Entry->Sync.str() + "(" +
                        describeMask(Lanes, Name, maskStyle(), Ctx) +
                        ", ...)");
    return;
  }
  std::optional<std::string> Mask =
      emitMask(Lanes, Name, Finding, maskStyle(), Ctx);
  if (!Mask)
    return;
  Finding.replace(CharSourceRange::getTokenRange(SM.getSpellingLoc(Name)),
                  Entry->Sync)
      .insertBefore(Paren.getLocWithOffset(1), *Mask + ", ");
  explainMask(Finding, Lanes, Name);
}

} // namespace warpfix
