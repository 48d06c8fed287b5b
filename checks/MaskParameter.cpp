#include "checks/MaskParameter.h"
#include "checks/analysis/SkippedCode.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"
#include <map>

using namespace clang;

namespace warpfix {
namespace {

/// The parameter's name; fixed, not taken from a check's options, so that
/// the fixes of two checks in one helper add the same parameter.
constexpr llvm::StringLiteral ParameterName = "warpfix_mask";

bool isHeaderName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  for (llvm::StringRef Header :
       {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".ipp", ".tcc"})
    if (Ext.equals_insensitive(Header))
      return true;
  return false;
}

/// How often Name stands as an identifier in File, read by
/// the raw lexer: skipped `#if` branches and macro bodies count, comments and
/// strings do not.
unsigned countIdentifier(llvm::StringRef Name, FileID File,
                         const SourceManager &SM, const LangOptions &Opts) {
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return ~0u;
  Lexer Raw(SM.getLocForStartOfFile(File), Opts, Buffer.begin(),
            Buffer.begin(), Buffer.end());
  unsigned Count = 0;
  Token T;
  while (true) {
    bool AtEnd = Raw.LexFromRawLexer(T);
    if (T.is(tok::raw_identifier) && T.getRawIdentifier() == Name)
      ++Count;
    if (AtEnd || T.is(tok::eof))
      return Count;
  }
}

/// The text of [Begin, End) in one file, or nothing.
std::optional<llvm::StringRef> textBetween(SourceLocation Begin,
                                           SourceLocation End,
                                           const SourceManager &SM) {
  if (Begin.isMacroID() || End.isMacroID() ||
      SM.getFileID(Begin) != SM.getFileID(End))
    return std::nullopt;
  unsigned B = SM.getFileOffset(Begin), E = SM.getFileOffset(End);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Begin), &Invalid);
  if (Invalid || E < B)
    return std::nullopt;
  return Buffer.slice(B, E);
}

/// The edit that appends Text to a list closed by RParen whose last element
/// ends with the token at LastEnd (invalid for an empty list, opened by
/// LParen): it replaces the closing parenthesis, so that two fixes that
/// append different things clash rather than both being applied.
std::optional<MaskParameter::Edit>
appendToList(SourceLocation LParen, SourceLocation LastEnd,
             SourceLocation RParen, llvm::StringRef Text, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &Opts = Ctx.getLangOpts();
  if (RParen.isMacroID())
    return std::nullopt;
  CharSourceRange Close = CharSourceRange::getTokenRange(RParen, RParen);
  if (LastEnd.isInvalid()) {
    if (LParen.isInvalid() || LParen.isMacroID())
      return std::nullopt;
    std::optional<llvm::StringRef> Inside =
        textBetween(LParen.getLocWithOffset(1), RParen, SM);
    if (!Inside)
      return std::nullopt;
    llvm::StringRef Trimmed = Inside->trim();
    // `f()` or `f(void)`: the list becomes the one element.
    if (!Trimmed.empty() && Trimmed != "void")
      return std::nullopt;
    return MaskParameter::Edit{
        CharSourceRange::getTokenRange(LParen, RParen),
        ("(" + Text + ")").str()};
  }
  SourceLocation After = Lexer::getLocForEndOfToken(
      SM.getExpansionRange(LastEnd).getEnd(), 0, SM, Opts);
  std::optional<llvm::StringRef> Gap =
      After.isValid() ? textBetween(After, RParen, SM) : std::nullopt;
  if (Gap && Gap->trim().empty())
    // `f(a, b )` becomes `f(a, b, m )`: the new element right after the last.
    return MaskParameter::Edit{
        CharSourceRange::getTokenRange(After, RParen),
        (", " + Text + *Gap + ")").str()};
  return MaskParameter::Edit{Close, (", " + Text + ")").str()};
}

class Planner {
public:
  Planner(const CallExpr &Use, ASTContext &Ctx, Analyses &Shared,
          const SkippedCode &Skipped, const MaskStyle &Style)
      : Use(Use), Ctx(Ctx), SM(Ctx.getSourceManager()), Shared(Shared),
        Skipped(Skipped), Style(Style) {}

  MaskParameter plan() {
    if (!applies()) {
      if (Uncalled)
        vetoIfNamedOtherwise(*Uncalled);
      return std::move(Plan);
    }
    Plan.Result = MaskParameter::Refused;
    if (!helperIsEditable() || !callsAreEditable() || !declarationsEdited() ||
        !callsEdited() || !nothingElseNamesIt() || !editsAreDisjoint())
      return std::move(Plan);
    Plan.Result = MaskParameter::Ready;
    return std::move(Plan);
  }

private:
  /// The callers differ and every one of them is known.
  bool applies() {
    const FunctionDecl *F = enclosingFunction(Ctx, &Use);
    if (!F || F->hasAttr<CUDAGlobalAttr>() || !F->hasAttr<CUDADeviceAttr>())
      return false;
    Membership Inside = Shared.Members.withinFunction(&Use);
    if (Inside.Result != Membership::AllLanes)
      return false;
    Plan.Assumptions.add(Inside.Assumed);
    if (Shared.Calls.callersUnseen(F))
      return false;
    bool SomePartial = false, SomeJudged = false;
    for (const Expr *Site : Shared.Calls.of(F)) {
      // A constructor's call sites name no argument list to extend when
      // its object is made by a conversion or a default initialization.
      const auto *Call = dyn_cast<CallExpr>(Site);
      if (!Call)
        return false;
      const FunctionDecl *Caller = enclosingFunction(Ctx, Call);
      // A template instantiated here runs as its instantiations, each of
      // which has its own copy of the call.
      if (Shared.Calls.judgedInInstantiations(Caller))
        continue;
      Membership Lanes = Shared.Members.at(Call);
      bool CallerUncalled =
          Lanes.Result == Membership::Unknown && Lanes.NoCallerSeen;
      // A call in code that nothing here calls (a helper of a header that
      // other units use) passes what its own branches let through, as if
      // every lane entered the code: the units that do call it plan the
      // same edit where that holds, and the merge keeps it only if they
      // all agree.
      if (CallerUncalled)
        Lanes = Shared.Members.withinFunction(Call);
      if (Lanes.Result == Membership::Unknown)
        return false;
      SomeJudged |= !CallerUncalled;
      SomePartial |= Lanes.Result == Membership::Conditional;
      if (CallerUncalled)
        Plan.CallersUncalled.push_back(Call);
      Plan.Sites.push_back({Call, std::move(Lanes)});
    }
    // Called only from code that nothing here calls: the units that call
    // that code judge it, and this one abstains.
    if (!SomeJudged)
      Uncalled = F;
    if (!SomePartial || !SomeJudged)
      return false;
    Plan.Helper = F;
    Name = ("'" + F->getNameAsString() + "'");
    return true;
  }

  /// A unit that does not call a helper of a header abstains, and another
  /// unit may give the helper a parameter. That changes which function a
  /// call of its name chooses: where this unit declares another function of
  /// that name, or names it in its own file other than by the helper's
  /// declarations, its calls could go to the helper with a new argument
  /// that is not a mask. Such a unit vetoes instead.
  void vetoIfNamedOtherwise(const FunctionDecl &F) {
    auto InMainFile = [&](const FunctionDecl *D) {
      return SM.isWrittenInMainFile(SM.getExpansionLoc(D->getLocation()));
    };
    // No unit gives a template or a member function a parameter.
    if (llvm::all_of(F.redecls(), InMainFile) || F.isTemplated() ||
        F.isTemplateInstantiation() ||
        F.getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
        isa<CXXMethodDecl>(F))
      return;
    std::string Helper = "'" + F.getNameAsString() + "'";
    const DeclContext *Scope = F.getDeclContext()->getRedeclContext();
    for (const NamedDecl *Other : Scope->lookup(F.getDeclName())) {
      const auto *G = dyn_cast<FunctionDecl>(Other);
      if (!G || G->getCanonicalDecl() != F.getCanonicalDecl()) {
        refuse(Other->getLocation(),
               Helper + " shares its name with another declaration here, "
                        "whose calls a new parameter could take over");
        Plan.VetoesParameter = true;
        return;
      }
    }
    unsigned Named =
        countIdentifier(F.getName(), SM.getMainFileID(), SM, Ctx.getLangOpts());
    unsigned Declared = llvm::count_if(F.redecls(), InMainFile);
    if (Named != Declared) {
      refuse(SM.getLocForStartOfFile(SM.getMainFileID()),
             Helper + " is named in this file other than by its "
                      "declarations (a call that this parse skipped, a "
                      "macro, or another entity), which a new parameter "
                      "would not follow");
      Plan.VetoesParameter = true;
    }
  }

  bool refuse(SourceLocation Where, std::string Why) {
    Plan.Result = MaskParameter::Refused;
    Plan.WhyLoc = Where;
    Plan.Why = std::move(Why);
    return false;
  }

  /// Why the name at Begin, or the text up to End, cannot be edited here
  /// ("by a macro", "in a system header"), or nothing. Text in a header of
  /// the project can be: the plan is then shared with the other units that
  /// include it, whose merge keeps it only where they all agree.
  std::optional<std::string> notEditable(SourceLocation Begin,
                                         SourceLocation End) {
    if (Begin.isMacroID() || End.isMacroID())
      return std::string("by a macro");
    if (SM.isInSystemHeader(Begin))
      return std::string("in a system header, which is not the project's");
    if (SM.getFileID(Begin) != SM.getFileID(End))
      return std::string("across two files");
    EditedFiles.insert(SM.getFileID(Begin));
    return std::nullopt;
  }

  bool helperIsEditable() {
    const FunctionDecl *F = Plan.Helper;
    SourceLocation At = F->getLocation();
    if (Ctx.getLangOpts().GPURelocatableDeviceCode)
      return refuse(At, "the translation unit is compiled as relocatable "
                        "device code (-rdc), so other units may call " +
                        Name);
    if (isHeaderName(SM.getFileEntryRefForID(SM.getMainFileID())
                         ? SM.getFileEntryRefForID(SM.getMainFileID())
                               ->getName()
                         : ""))
      return refuse(At, "the file is a header analysed on its own, so the "
                        "units that include it may call " + Name);
    if (F->hasAttr<CUDAHostAttr>())
      return refuse(At, Name + " is also host code, whose calls this "
                               "device-side parse does not all see");
    if (isa<CXXMethodDecl>(F))
      return refuse(At, Name + " is a member function");
    if (F->isTemplated() || F->isTemplateInstantiation() ||
        F->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
      return refuse(At, Name + " is a template");
    if (F->isExternC() || F->isInExternCContext())
      return refuse(At, Name + " is extern \"C\", an interface for code that "
                               "is not analysed here");
    if (F->isVariadic())
      return refuse(At, Name + " takes a variable number of arguments");
    for (const FunctionDecl *D : F->redecls()) {
      if (std::optional<std::string> Why =
              notEditable(D->getLocation(), D->getLocation()))
        return refuse(D->getLocation(), Name + " is declared " + *Why);
      if (D->getStorageClass() == SC_Extern)
        return refuse(D->getLocation(),
                      Name + " is declared extern, an interface for other "
                             "translation units");
      for (const ParmVarDecl *P : D->parameters())
        if (P->hasDefaultArg() || P->hasInheritedDefaultArg())
          return refuse(P->getLocation(),
                        Name + " has a default argument, after which a new "
                               "parameter would need one too");
    }
    const DeclContext *Scope = F->getDeclContext()->getRedeclContext();
    for (const NamedDecl *Other : Scope->lookup(F->getDeclName())) {
      const auto *G = dyn_cast<FunctionDecl>(Other);
      if (!G || G->getCanonicalDecl() != F->getCanonicalDecl())
        return refuse(Other->getLocation(),
                      Name + " is overloaded, or shares its name with "
                             "another declaration");
    }
    ParameterNameText = ParameterName.str();
    while (Ctx.Idents.find(ParameterNameText) != Ctx.Idents.end())
      ParameterNameText += "_";
    Plan.Name = ParameterNameText;
    return true;
  }

  bool callsAreEditable() {
    for (const auto &[Call, Lanes] : Plan.Sites) {
      if (!Call->getDirectCallee())
        return refuse(Call->getBeginLoc(),
                      "this call of " + Name + " is in a template, where its "
                      "arguments decide which function it calls");
      const auto *Ref =
          dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
      if (!Ref || isa<CXXMemberCallExpr>(Call))
        return refuse(Call->getBeginLoc(),
                      "this call of " + Name + " is not by its name");
      SourceLocation NameLoc = Ref->getLocation();
      if (std::optional<std::string> Why =
              notEditable(NameLoc, Call->getRParenLoc()))
        return refuse(Call->getBeginLoc(),
                      "this call of " + Name + " is " +
                          (*Why == "by a macro" ? "written by a macro" : *Why));
      CallNames.insert(NameLoc.getRawEncoding());
    }
    return true;
  }

  bool declarationsEdited() {
    std::string Parameter = "unsigned " + ParameterNameText;
    for (const FunctionDecl *D : Plan.Helper->redecls()) {
      FunctionTypeLoc Type = D->getFunctionTypeLoc();
      if (!Type)
        return refuse(D->getLocation(),
                      Name + " is declared through a typedef of its type");
      SourceLocation LastEnd;
      if (D->getNumParams())
        LastEnd = D->getParamDecl(D->getNumParams() - 1)->getEndLoc();
      std::optional<MaskParameter::Edit> Edit = appendToList(
          Type.getLParenLoc(), LastEnd, Type.getRParenLoc(), Parameter, Ctx);
      if (!Edit)
        return refuse(D->getLocation(), "the parameter list of " + Name +
                                            " cannot be extended here");
      Plan.Edits.push_back(std::move(*Edit));
      DeclarationNames.insert(D->getLocation().getRawEncoding());
    }
    return true;
  }

  /// The mask each call passes, with the ballots that compute it. The calls
  /// at one place (in the instantiations of one template) must agree.
  bool callsEdited() {
    std::map<unsigned, std::pair<std::string, std::vector<std::string>>>
        MaskAt;
    for (const auto &[Call, Lanes] : Plan.Sites) {
      std::optional<PlannedMask> Mask =
          planMask(Lanes, Call->getBeginLoc(), Style, Ctx);
      if (Mask && Mask->UnwritableAt.isValid() &&
          Mask->UnwritableWhy == ConditionReadsMemoryNote)
        return refuse(Mask->UnwritableAt,
                      "the branch that decides which lanes make this call "
                      "of " + Name + " reads memory that another lane may "
                      "write between a ballot taken before it and its own "
                      "test, so the ballot may not name the lanes that call");
      if (!Mask || Mask->UnwritableAt.isValid())
        return refuse(Mask ? Mask->UnwritableAt : Call->getBeginLoc(),
                      "the branch that decides which lanes make this call "
                      "of " + Name + " is written by a macro, so no mask "
                      "can be inserted before it");
      std::vector<std::string> Shape;
      for (const MaskInsertion &Insert : Mask->Statements)
        Shape.push_back(std::to_string(Insert.At.getRawEncoding()) + ":" +
                        std::to_string(Insert.Replaces.isValid()) + ":" +
                        Insert.Text);
      unsigned Key = Call->getRParenLoc().getRawEncoding();
      auto [It, First] = MaskAt.try_emplace(Key, Mask->Expression, Shape);
      if (!First) {
        if (It->second != std::make_pair(Mask->Expression, Shape))
          return refuse(Call->getBeginLoc(),
                        "this call of " + Name + " is in a template whose "
                        "instantiations need different masks");
        continue;
      }
      for (const MaskInsertion &Insert : Mask->Statements)
        Plan.Edits.push_back(
            {Insert.Replaces.isValid()
                 ? Insert.Replaces
                 : CharSourceRange::getCharRange(Insert.At, Insert.At),
             Insert.Text});
      SourceLocation LParen, LastEnd;
      if (Call->getNumArgs())
        LastEnd = Call->getArg(Call->getNumArgs() - 1)->getEndLoc();
      else if (std::optional<SourceLocation> Open = parenAfter(*Call))
        LParen = *Open;
      std::optional<MaskParameter::Edit> Edit =
          (LastEnd.isValid() || LParen.isValid())
              ? appendToList(LParen, LastEnd, Call->getRParenLoc(),
                             Mask->Expression, Ctx)
              : std::nullopt;
      if (!Edit)
        return refuse(Call->getBeginLoc(), "the arguments of this call of " +
                                               Name + " cannot be extended");
      Plan.Edits.push_back(std::move(*Edit));
    }
    return true;
  }

  /// The '(' right after the callee of a call with no arguments.
  std::optional<SourceLocation> parenAfter(const CallExpr &Call) {
    std::optional<Token> Next = Lexer::findNextToken(
        Call.getCallee()->getEndLoc(), SM, Ctx.getLangOpts());
    if (!Next || !Next->is(tok::l_paren))
      return std::nullopt;
    return Next->getLocation();
  }

  /// The declarations and calls are every place where the helper's name is
  /// written: no use in a macro, in code the preprocessor skipped, or as
  /// another entity, which the edits would miss.
  bool nothingElseNamesIt() {
    llvm::StringRef Identifier = Plan.Helper->getName();
    EditedFiles.insert(SM.getMainFileID());
    for (FileID File : EditedFiles) {
      unsigned Seen = countIdentifier(Identifier, File, SM, Ctx.getLangOpts());
      auto InFile = [&](unsigned Raw) {
        return SM.getFileID(SourceLocation::getFromRawEncoding(Raw)) == File;
      };
      unsigned Edited = llvm::count_if(DeclarationNames, InFile) +
                        llvm::count_if(CallNames, InFile);
      SourceLocation At = Plan.Helper->getLocation();
      if (SM.getFileID(At) != File)
        At = SM.getLocForStartOfFile(File);
      if (Seen != Edited)
        return refuse(
            At, Name + " is named " + std::to_string(Seen) +
                    " times in the file, but has " + std::to_string(Edited) +
                    " declarations and calls here: the others are in a "
                    "macro, in code that this parse skipped, or name "
                    "something else");
    }
    for (const SkippedCode::Region &Region : Skipped.regions()) {
      if (EditedFiles.count(
              SM.getFileID(SM.getExpansionLoc(Region.Range.getBegin()))))
        continue;
      for (const Token &T : SkippedCode::rawTokens(Region, SM))
        if (T.is(tok::raw_identifier) && T.getRawIdentifier() == Identifier)
          return refuse(T.getLocation(),
                        Name + " is named in code that this parse skipped");
    }
    return true;
  }

  /// Two calls in the two arms of one branch would need two ballots at one
  /// place; one fix cannot hold both.
  bool editsAreDisjoint() {
    std::vector<std::tuple<unsigned, unsigned, const MaskParameter::Edit *>>
        Spans;
    std::vector<MaskParameter::Edit> Unique;
    for (const MaskParameter::Edit &E : Plan.Edits) {
      CharSourceRange R = Lexer::makeFileCharRange(E.Range, SM,
                                                   Ctx.getLangOpts());
      if (R.isInvalid())
        return refuse(E.Range.getBegin(), "an edit of this change falls "
                                          "inside a macro");
      unsigned B = SM.getFileOffset(R.getBegin()),
               End = SM.getFileOffset(R.getEnd());
      bool Same = false;
      for (auto &[OB, OE, Other] : Spans) {
        if (OB == B && OE == End && Other->Text == E.Text) {
          Same = true;
          break;
        }
        if ((B < OE && OB < End) || (B == OB && (B == End || OB == OE)))
          return refuse(E.Range.getBegin(),
                        "two edits of this change fall on one place (the "
                        "calls of " + Name + " in the two arms of one "
                        "branch, say)");
      }
      if (Same)
        continue;
      if (!SM.isWrittenInMainFile(R.getBegin()))
        Plan.SharedFiles = true;
      Unique.push_back(E);
      Spans.push_back({B, End, &E});
    }
    Plan.Edits = std::move(Unique);
    return true;
  }

  const CallExpr &Use;
  ASTContext &Ctx;
  const SourceManager &SM;
  Analyses &Shared;
  const SkippedCode &Skipped;
  const MaskStyle &Style;
  MaskParameter Plan;
  std::string Name;
  std::string ParameterNameText;
  llvm::DenseSet<unsigned> DeclarationNames, CallNames;
  /// Every file (as included here) that holds a declaration or a call.
  llvm::DenseSet<FileID> EditedFiles;
  /// The helper, where nothing this unit runs calls it.
  const FunctionDecl *Uncalled = nullptr;
};

} // namespace

MaskParameter planMaskParameter(const CallExpr &Use, ASTContext &Ctx,
                                Analyses &Shared, const SkippedCode &Skipped,
                                const MaskStyle &Style) {
  return Planner(Use, Ctx, Shared, Skipped, Style).plan();
}

void addMaskParameter(const MaskParameter &Plan, FindingBuilder &Finding) {
  for (const MaskParameter::Edit &E : Plan.Edits)
    Finding.replace(E.Range, E.Text);
  const FunctionDecl *F = Plan.Helper;
  Finding.note(F->getLocation(),
               "'" + F->getNameAsString() +
                   "' does not know which lanes of the warp call it (only "
                   "some do, or different ones at different calls), so its "
                   "member mask comes in through a new last parameter '" +
                   Plan.Name + "', which every call passes");
  if (Plan.SharedFiles)
    Finding.note(F->getLocation(),
                 (SharedParameterPrefix +
                  "this fix is made only in a run over the whole project (its "
                  "folders, or -p with every unit of the build), where every "
                  "unit that calls '" +
                  F->getNameAsString() + "' agrees on it")
                     .str());
  DefaultAssumptions Assumed = Plan.Assumptions;
  llvm::DenseSet<unsigned> Told;
  for (const auto &[Call, Lanes] : Plan.Sites) {
    Assumed.add(Lanes.Assumed);
    if (!Told.insert(Call->getBeginLoc().getRawEncoding()).second)
      continue;
    if (llvm::is_contained(Plan.CallersUncalled, Call)) {
      Finding.note(Call->getBeginLoc(),
                   "nothing in this translation unit calls the function that "
                   "makes this call, so it passes the lanes that the "
                   "function's own branches let through, as if every lane "
                   "entered it; the units that call the function must plan "
                   "the same");
      continue;
    }
    Finding.note(Call->getBeginLoc(),
                 Lanes.Result == Membership::AllLanes
                     ? "every lane of the warp makes this call, so it passes "
                       "the full mask"
                     : "only some lanes make this call, so it passes a ballot "
                       "of the branch conditions, taken before the branch "
                       "(Using CUDA Warp-Level Primitives, listing 3)");
  }
  noteAssumptions(Finding, Assumed, F->getLocation());
}

std::string refusedMaskParameterNote(const MaskParameter &Plan) {
  if (Plan.VetoesParameter)
    return (ParameterVetoPrefix + Plan.Why).str();
  return "the mask cannot be passed in as a new parameter: " + Plan.Why;
}

} // namespace warpfix
