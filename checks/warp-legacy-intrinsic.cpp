#include "checks/warp-legacy-intrinsic.h"
#include "checks/MaskFix.h"
#include "checks/MaskParameter.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/FullMaskMacros.h"
#include "checks/analysis/IgnoredMaskArgument.h"
#include "checks/analysis/Membership.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/SkippedCode.h"
#include "checks/analysis/SystemHeaders.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace clang;

namespace warpfix {
struct LegacyIntrinsic {
  llvm::StringRef Legacy;
  llvm::StringRef Sync;
};

namespace {

constexpr LegacyIntrinsic Table[] = {
#define LEGACY_INTRINSIC(Legacy, Sync, Kind) {#Legacy, #Sync},
#include "checks/analysis/LegacyIntrinsics.def"
};

const LegacyIntrinsic *lookup(llvm::StringRef Name) {
  for (const LegacyIntrinsic &Entry : Table)
    if (Entry.Legacy == Name)
      return &Entry;
  return nullptr;
}

/// The entry of a function the toolkit declares under a legacy name. Only the
/// toolkit's functions count: a user's own function named `any`, a
/// compatibility shim called `__shfl_down`, or cooperative groups' `tile.any()`
/// is not a legacy intrinsic. The name first: this sees every call of the
/// user's code, and the system-header test asks the source manager. Calls
/// inside the toolkit's own headers are not the user's to fix; the caller
/// tests that.
const LegacyIntrinsic *toolkitIntrinsic(const NamedDecl *D,
                                        const SourceManager &SM) {
  const auto *F = dyn_cast_or_null<FunctionDecl>(D);
  const IdentifierInfo *Id = F ? F->getIdentifier() : nullptr;
  const LegacyIntrinsic *Entry = Id ? lookup(Id->getName()) : nullptr;
  return Entry && isExpansionInSystemHeader(*F, SM) ? Entry : nullptr;
}

/// The nearest function declaration above S, as the matcher
/// hasAncestor(functionDecl()) found it, though by first parents only;
/// enclosingFunction() stops at a lambda instead.
const FunctionDecl *functionAround(ASTContext &Ctx, const Stmt &S) {
  DynTypedNodeList Parents = parentsOf(Ctx, S);
  while (!Parents.empty()) {
    if (const auto *F = Parents[0].get<FunctionDecl>())
      return F;
    Parents = parentsOf(Ctx, Parents[0]);
  }
  return nullptr;
}

/// The '(' that follows the callee's name where the name is spelled, or an
/// invalid location when the name and its parenthesis are written in different
/// places (a macro that expands to the bare name, say).
SourceLocation parenAfterName(SourceLocation NameSpelling,
                              llvm::StringRef Name, const SourceManager &SM,
                              const LangOptions &LangOpts) {
  // The usual spelling, `name(`, read straight from the buffer: no identifier
  // character follows the name, so the token there is the name itself, and
  // the parenthesis is the next token. Lexing finds it otherwise.
  auto [File, Offset] = SM.getDecomposedLoc(NameSpelling);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (!Invalid && Buffer.substr(Offset).starts_with(Name) &&
      Buffer.substr(Offset + Name.size()).starts_with("("))
    return NameSpelling.getLocWithOffset(Name.size());
  std::optional<Token> Next =
      Lexer::findNextToken(NameSpelling, SM, LangOpts);
  if (!Next || !Next->is(tok::l_paren))
    return {};
  return Next->getLocation();
}

} // namespace

/// In a template as written, a call whose arguments depend on a template
/// parameter stays an unresolved name: each instantiation picks among the
/// declarations found. The rewrite names the toolkit's `_sync` form, so it is
/// right for every instantiation only when all of them are the toolkit's
/// (identifiers with a double underscore are reserved to the implementation,
/// so argument-dependent lookup cannot add a user's own).
static const NamedDecl *userDeclarationFound(const UnresolvedLookupExpr &Lookup,
                                             const SourceManager &SM) {
  for (const NamedDecl *D : Lookup.decls())
    if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return D;
  return nullptr;
}

void WarpLegacyIntrinsicCheck::onEndOfTranslationUnit() {
  // Code that `#if __CUDA_ARCH__` hid from this parse: scanned for the legacy
  // names, since it could not be analysed.
  const SourceManager &SM = context().Sink.sourceManager();
  for (const SkippedCode::Region &Region : context().Skipped.regions())
    reportLexically(Region, /*Parsed=*/false, SM);
  // Code that clang's recovery may have dropped: the names the AST lacks.
  for (const SkippedCode::Region &Region : context().Skipped.dropped())
    reportLexically(Region, /*Parsed=*/true, SM);
}

/// Whether the raw token before a legacy name makes it the name of a
/// declaration rather than a call: a type or a specifier comes before it
/// (`uint4 __shfl(uint4 v, int lane)`, a project's own overload, or the
/// toolkit's `__half2 __shfl(...)` in a copy of cuda_fp16.h). Only the
/// keywords that can stand before an expression say otherwise.
static bool declaresName(const Token &Before) {
  if (!Before.is(tok::raw_identifier))
    return false;
  static constexpr llvm::StringLiteral BeforeExpressions[] = {
      "return", "else",   "do",    "case",   "throw",  "co_return", "co_yield",
      "co_await", "and",  "or",    "not",    "xor",    "bitand",    "bitor",
      "compl",  "not_eq", "and_eq", "or_eq", "xor_eq"};
  return !llvm::is_contained(BeforeExpressions, Before.getRawIdentifier());
}

void WarpLegacyIntrinsicCheck::reportLexically(
    const SkippedCode::Region &Region, bool Parsed, const SourceManager &SM) {
  std::vector<Token> Tokens = SkippedCode::rawTokens(Region, SM);
  bool InDirective = false;
  for (size_t I = 0; I + 1 < Tokens.size(); ++I) {
    // A macro's body is only code where it expands, which the AST holds.
    if (Tokens[I].isAtStartOfLine())
      InDirective = Parsed && Tokens[I].is(tok::hash);
    if (InDirective)
      continue;
    const LegacyIntrinsic *Entry =
        Tokens[I].is(tok::raw_identifier)
            ? lookup(Tokens[I].getRawIdentifier())
            : nullptr;
    // Without a parse, names cannot be resolved: a member (`utils::any(`,
    // `w.all(`) or an unprefixed alias, which is also an everyday name,
    // cannot be told from the toolkit's intrinsic, so only the reserved
    // `__` names, unqualified, are taken for it.
    bool Member =
        I > 0 && (Tokens[I - 1].isOneOf(tok::period, tok::arrow) ||
                  (Tokens[I - 1].is(tok::coloncolon) && I > 1 &&
                   Tokens[I - 2].isOneOf(tok::raw_identifier, tok::greater)));
    if (!Entry || !Tokens[I + 1].is(tok::l_paren) || Member ||
        !Entry->Legacy.starts_with("__") ||
        (I > 0 && declaresName(Tokens[I - 1])))
      continue;
    SourceLocation At = Tokens[I].getLocation();
    if (Parsed && (NamesInAst.contains(At.getRawEncoding()) ||
                   !LexicallyReported.insert(At.getRawEncoding()).second ||
                   context().Skipped.hides(At, SM)))
      continue;
    report(At, message(*Entry))
        .withoutFix(Parsed ? At : Region.Range.getBegin(),
                    "not analysed: " + Region.Reason);
  }
}

/// `__popc(__ballot(1))` counts the lanes that are active right there; its
/// faithful rewrite is `__popc(__activemask())`, not a ballot over a mask.
static bool countsActiveLanes(const CallExpr &Call, const LegacyIntrinsic &Entry,
                              ASTContext &Ctx) {
  if (Entry.Sync != "__ballot_sync" || Call.getNumArgs() != 1 ||
      Call.getArg(0)->isValueDependent())
    return false;
  Expr::EvalResult Value;
  if (!Call.getArg(0)->EvaluateAsInt(Value, Ctx) || Value.Val.getInt() == 0)
    return false;
  DynTypedNodeList Parents = parentsOf(Ctx, Call);
  while (!Parents.empty() && (Parents[0].get<ImplicitCastExpr>() ||
                              Parents[0].get<ParenExpr>()))
    Parents = parentsOf(Ctx, Parents[0]);
  const auto *Outer = Parents.empty() ? nullptr : Parents[0].get<CallExpr>();
  const FunctionDecl *Popc = Outer ? Outer->getDirectCallee() : nullptr;
  return Popc && Popc->getIdentifier() &&
         (Popc->getName() == "__popc" || Popc->getName() == "__popcll");
}

const LegacyIntrinsic *
WarpLegacyIntrinsicCheck::intrinsicCalled(const FunctionDecl *Callee,
                                          const SourceManager &SM) {
  auto [It, Inserted] = Intrinsics.try_emplace(Callee);
  if (Inserted)
    It->second = toolkitIntrinsic(Callee, SM);
  return It->second;
}

const std::string &
WarpLegacyIntrinsicCheck::messageFor(const LegacyIntrinsic &Entry) {
  auto [It, Inserted] = Messages.try_emplace(&Entry);
  if (Inserted)
    It->second = message(Entry);
  return It->second;
}

std::string WarpLegacyIntrinsicCheck::message(const LegacyIntrinsic &Entry) {
  return ("'" + Entry.Legacy + "' is a legacy warp intrinsic that CUDA 13 "
          "no longer compiles; use '" + Entry.Sync +
          "' with an explicit member mask")
      .str();
}

bool WarpLegacyIntrinsicCheck::passOnIgnoredMask(
    FindingBuilder &Finding, const IgnoredMaskParameter &Param,
    const Membership &Lanes, const LegacyIntrinsic &Entry, SourceLocation Name,
    SourceLocation Paren, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<std::string> Argument =
      maskArgumentText(Name, Param, SM, Ctx.getLangOpts());
  bool Full = Argument && isFullMaskArgument(*Argument, Name,
                                             context().FullMasks, SM);
  // The legacy call ignored the argument, so it is passed on only where it is
  // provably the set of lanes that reach the call.
  if (Full && Lanes.Result == Membership::AllLanes) {
    Finding.replace(CharSourceRange::getTokenRange(SM.getSpellingLoc(Name)),
                    Entry.Sync)
        .insertBefore(Paren.getLocWithOffset(1), Param.Name + ", ")
        .note(Name, "the macro takes the member mask from its caller in '" +
                        Param.Name + "', which is now passed on: the caller "
                        "passes '" + *Argument + "', and every lane of the "
                        "warp reaches this call");
    explainMask(Finding, Lanes, Name);
    return true;
  }
  if (!Argument)
    Finding.note(Name, "the macro's mask parameter '" + Param.Name +
                           "' is not passed on: the legacy intrinsic ignored "
                           "it, and its argument here cannot be read");
  else if (Full && Lanes.isPartial())
    Finding.note(Name, "the caller passes '" + *Argument + "' for '" +
                           Param.Name + "', which names every lane, but only "
                           "some lanes reach this call; the legacy intrinsic "
                           "ignored it, so it is not passed on");
  else
    Finding.note(Name, "the macro's mask parameter '" + Param.Name +
                           "' is not passed on: the legacy intrinsic ignored "
                           "it, and warpfix cannot prove that '" + *Argument +
                           "' names the lanes that reach this call");
  return false;
}

void WarpLegacyIntrinsicCheck::onCall(const CallExpr &TheCall,
                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const CallExpr *Call = &TheCall;
  // Every name a call spells, legacy or not, that the AST holds: what the
  // lexical reading of dropped code must not report again.
  if (!context().Skipped.dropped().empty()) {
    SourceLocation Spelled =
        SM.getSpellingLoc(Call->getCallee()->IgnoreImplicit()->getExprLoc());
    if (const auto *Member =
            dyn_cast<MemberExpr>(Call->getCallee()->IgnoreImplicit()))
      Spelled = SM.getSpellingLoc(Member->getMemberLoc());
    NamesInAst.insert(Spelled.getRawEncoding());
  }
  const LegacyIntrinsic *Entry = nullptr;
  SourceLocation Name;
  const NamedDecl *UserDeclaration = nullptr;
  if (const auto *Lookup =
          dyn_cast_or_null<UnresolvedLookupExpr>(Call->getCallee())) {
    // In a template as written, a call whose arguments depend on a template
    // parameter stays unresolved. Where the template is instantiated, each
    // instantiation is analysed instead; where it is not, the template as
    // written is (issue 15, item 7).
    if (!llvm::any_of(Lookup->decls(), [&](const NamedDecl *D) {
          return toolkitIntrinsic(D, SM);
        }) ||
        isExpansionInSystemHeader(*Call, SM))
      return;
    const FunctionDecl *Template = functionAround(Ctx, *Call);
    if (!Template || context().analyses(Ctx).Calls.isInstantiated(*Template))
      return;
    Entry = lookup(Lookup->getName().getAsString());
    Name = Lookup->getNameLoc();
    UserDeclaration = userDeclarationFound(*Lookup, SM);
  } else {
    const FunctionDecl *Callee = Call->getDirectCallee();
    Entry = intrinsicCalled(Callee, SM);
    if (!Entry || isExpansionInSystemHeader(*Call, SM))
      return;
    const auto *Ref =
        dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImpCasts());
    if (!Ref ||
        !Callee->getDeclContext()->getRedeclContext()->isTranslationUnit())
      return;
    // A template that is instantiated is judged in its instantiations, each
    // with its own copy of the call; the template as written would judge it
    // without the values of its parameters and veto the fix they agree on.
    if (context().analyses(Ctx).Calls.judgedInInstantiations(
            enclosingFunction(Ctx, Call)))
      return;
    Name = Ref->getLocation();
  }
  if (!Entry)
    return;
  FindingBuilder Finding = report(Name, messageFor(*Entry));
  if (SM.isMacroArgExpansion(Name) || Name.isMacroID())
    Finding.note(SM.getExpansionLoc(Name), "in this expansion of a macro");
  if (UserDeclaration) {
    Finding
        .withoutFix(UserDeclaration->getLocation(),
                    "no automatic fix: in this template the call's arguments "
                    "depend on a template parameter, and the name also finds "
                    "this declaration, which some instantiations may call "
                    "instead of the toolkit's intrinsic")
        .note(Name, "candidate rewrite: " + Entry->Sync.str() +
                        "(<mask>, ...) where <mask> names the lanes that "
                        "reach this call");
    return;
  }

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

  SourceLocation Paren = parenAfterName(SM.getSpellingLoc(Name), Entry->Legacy,
                                        SM, Ctx.getLangOpts());
  Membership Lanes =
      context().analyses(Ctx).Members.at(Call, FixShapes::WithLoopsAndArms);
  if (Name.isMacroID() && !SM.isMacroArgExpansion(Name) && Paren.isValid()) {
    if (std::optional<IgnoredMaskParameter> Param =
            ignoredMaskParameter(SM.getSpellingLoc(Name), SM)) {
      if (passOnIgnoredMask(Finding, *Param, Lanes, *Entry, Name, Paren, Ctx))
        return;
    }
  }
  if (Lanes.Result == Membership::Unknown) {
    MaskParameter Threaded = planMaskParameter(
        *Call, Ctx, context().analyses(Ctx), context().Skipped, maskStyle());
    if (Threaded.Result == MaskParameter::Ready &&
        (Name.isMacroID() || Paren.isInvalid())) {
      Threaded.Result = MaskParameter::Refused;
      Threaded.WhyLoc = Name;
      Threaded.Why = "this call is written by a macro";
    }
    if (Threaded.Result == MaskParameter::Ready) {
      addMaskParameter(Threaded, Finding);
      Finding.replace(CharSourceRange::getTokenRange(Name), Entry->Sync)
          .insertBefore(Paren.getLocWithOffset(1), Threaded.Name + ", ");
      return;
    }
    if (Threaded.Result == MaskParameter::Refused)
      Finding.note(Threaded.WhyLoc, refusedMaskParameterNote(Threaded));
    if (context().Options.Fallback == MaskFallback::ActiveMask &&
        Paren.isValid()) {
      Finding
          .replace(CharSourceRange::getTokenRange(SM.getSpellingLoc(Name)),
                   Entry->Sync)
          .insertBefore(Paren.getLocWithOffset(1),
                        ("__activemask() " + ReviewMaskMarker + ", ").str());
      noteActiveMaskFallback(Finding, Lanes, Name, "this call", "intrinsic");
      return;
    }
    withoutFixFor(Finding, Lanes)
        .note(Name, ("candidate rewrite: " + Entry->Sync +
                     "(<mask>, ...) where <mask> names the lanes that reach "
                     "this call")
                        .str());
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
