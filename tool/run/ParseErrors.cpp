#include "tool/run/ParseErrors.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace warpfix {

bool TolerantActionFactory::runInvocation(
    std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    DiagnosticConsumer *DiagConsumer) {
  prepare(*Invocation, *Files, PCHContainerOps);
  CompilerInstance Compiler(std::move(PCHContainerOps));
  Compiler.setInvocation(std::move(Invocation));
  Compiler.setFileManager(Files);
  Compiler.setVerboseOutputStream(Verbose);
  Compiler.createDiagnostics(DiagConsumer, /*ShouldOwnClient=*/false);
  if (!Compiler.hasDiagnostics())
    return false;
  Compiler.getDiagnostics().setFatalsAsError(true);
  Compiler.createSourceManager(*Files);
  std::unique_ptr<FrontendAction> Action = create();
  bool Success = Compiler.ExecuteAction(*Action);
  Files->clearStatCache();
  return Success;
}

void ErrorRecorder::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                     const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  Next.HandleDiagnostic(Level, Info);
  if (Level < DiagnosticsEngine::Error)
    return;
  llvm::SmallString<256> Message;
  Info.FormatDiagnostic(Message);
  ParseError E;
  E.Text = std::string(Message);
  E.MissingFile = Info.getID() == diag::err_pp_file_not_found;
  if (E.MissingFile && Info.getNumArgs() > 0 &&
      Info.getArgKind(0) == DiagnosticsEngine::ak_std_string)
    E.MissingName = Info.getArgStdStr(0);
  E.Lexical = Info.getID() >= diag::DIAG_START_LEX &&
              Info.getID() < diag::DIAG_START_PARSE;
  if (Info.hasSourceManager() && Info.getLocation().isValid()) {
    E.Loc = Info.getLocation();
    PresumedLoc At = Info.getSourceManager().getPresumedLoc(E.Loc);
    if (At.isValid()) {
      E.Text = llvm::formatv("{0}:{1}:{2}: {3}", At.getFilename(),
                             At.getLine(), At.getColumn(), Message);
      E.File = At.getFilename();
    }
  }
  Errors.push_back(std::move(E));
}

namespace {

/// Text holds nothing but white space and comments.
bool onlyCommentsAndSpace(llvm::StringRef Text) {
  while (true) {
    Text = Text.ltrim();
    if (Text.consume_front("//"))
      Text = Text.drop_until([](char C) { return C == '\n'; });
    else if (Text.consume_front("/*")) {
      size_t End = Text.find("*/");
      if (End == llvm::StringRef::npos)
        return true;
      Text = Text.drop_front(End + 2);
    } else
      return Text.empty();
  }
}

class UndefinedMacroRecorder : public PPCallbacks {
public:
  UndefinedMacroRecorder(UndefinedMacroTests &Out, Preprocessor &PP)
      : Out(Out), PP(PP), SM(PP.getSourceManager()) {}

  void If(SourceLocation Loc, SourceRange Condition,
          ConditionValueKind) override {
    open(Loc, undefinedIn(Condition));
    decide(Open.back());
  }
  void Elif(SourceLocation, SourceRange Condition, ConditionValueKind,
            SourceLocation IfLoc) override {
    addTo(IfLoc, undefinedIn(Condition));
    for (OpenBlock &B : Open)
      if (B.Tests.If == IfLoc)
        decide(B);
    InCondition.clear();
  }
  void Ifdef(SourceLocation Loc, const Token &Name,
             const MacroDefinition &Definition) override {
    open(Loc, Definition ? "" : spelling(Name));
  }
  void Ifndef(SourceLocation Loc, const Token &Name,
              const MacroDefinition &Definition) override {
    open(Loc, Definition ? "" : spelling(Name));
  }
  void Elifdef(SourceLocation, const Token &Name,
               const MacroDefinition &Definition) override {
    if (!Open.empty() && !Definition)
      addTo(Open.back().Tests.If, spelling(Name));
  }
  void Elifndef(SourceLocation, const Token &Name,
                const MacroDefinition &Definition) override {
    if (!Open.empty() && !Definition)
      addTo(Open.back().Tests.If, spelling(Name));
  }
  void MacroDefined(const Token &, const MacroDirective *MD) override {
    if (!MD || !MD->getMacroInfo())
      return;
    // The innermost open block that tests an undefined macro, or that a
    // default decides.
    for (auto B = Open.rbegin(); B != Open.rend(); ++B) {
      if (!B->Tests.Macro.empty()) {
        DefinedIn[MD->getMacroInfo()] = {B->Tests.If, SourceLocation(), ""};
        return;
      }
      if (!B->DecidedBy.empty()) {
        const UndefinedMacroTests::DefaultUse &By = B->DecidedBy.front();
        DefinedIn[MD->getMacroInfo()] = {By.BlockIf, B->Tests.If, By.Name};
        return;
      }
    }
  }
  void MacroExpands(const Token &Name, const MacroDefinition &Definition,
                    SourceRange Range, const MacroArgs *) override {
    auto Origin = DefinedIn.find(Definition.getMacroInfo());
    if (Origin == DefinedIn.end())
      return;
    UndefinedMacroTests::DefaultUse Use{Range.getBegin(),
                                        Origin->second.BlockIf, spelling(Name),
                                        Origin->second.ViaIf,
                                        Origin->second.ViaName};
    // In an #if or #elif, it decides which code is compiled, not what an
    // expression means.
    if (PP.isParsingIfOrElifDirective())
      InCondition.push_back(std::move(Use));
    else
      Out.DefaultUses.push_back(std::move(Use));
  }
  void Endif(SourceLocation Loc, SourceLocation IfLoc) override {
    auto It = llvm::find_if(
        Open, [&](const OpenBlock &B) { return B.Tests.If == IfLoc; });
    if (It == Open.end())
      return;
    OpenBlock Done = *It;
    Open.erase(It, Open.end());
    Done.Tests.Endif = Loc;
    if (!SM.isInSystemHeader(IfLoc))
      for (UndefinedMacroTests::DefaultUse &By : Done.DecidedBy)
        Out.Decided.push_back({IfLoc, Loc, std::move(By)});
    if (!Done.Tests.Macro.empty() && !isIncludeGuard(Done.Tests))
      Out.Blocks.push_back(std::move(Done.Tests));
  }

private:
  struct OpenBlock {
    UndefinedMacroTests::Block Tests;
    std::vector<UndefinedMacroTests::DefaultUse> DecidedBy;
  };
  struct Origin {
    SourceLocation BlockIf, ViaIf;
    std::string ViaName;
  };
  void open(SourceLocation Loc, std::string Macro) {
    // Only project files: the toolkit's own configuration tests are its own.
    if (SM.isInSystemHeader(Loc))
      Macro.clear();
    Open.push_back({{Loc, SourceLocation(), std::move(Macro)}, {}});
  }
  /// The defaults that the condition just read expanded.
  void decide(OpenBlock &B) {
    llvm::append_range(B.DecidedBy, InCondition);
    InCondition.clear();
  }
  void addTo(SourceLocation IfLoc, std::string Macro) {
    for (OpenBlock &B : Open)
      if (B.Tests.If == IfLoc && B.Tests.Macro.empty() &&
          !SM.isInSystemHeader(IfLoc))
        B.Tests.Macro = std::move(Macro);
  }
  static std::string spelling(const Token &Name) {
    const IdentifierInfo *Id = Name.getIdentifierInfo();
    return Id ? Id->getName().str() : "";
  }
  /// The first name in an #if condition that is not a macro here: it reads
  /// as 0. Names the compiler reserves (__CUDA_ARCH__ and the like) are the
  /// toolchain's, which a project header does not define.
  std::string undefinedIn(SourceRange Condition) {
    // To the end of the directive's line: the range's end may name the
    // start of its last token. (A condition continued with '\\' on the next
    // line is read in its first line only.)
    auto [File, Offset] = SM.getDecomposedLoc(Condition.getBegin());
    bool Invalid = false;
    llvm::StringRef Text = SM.getBufferData(File, &Invalid);
    if (Invalid || Condition.getBegin().isMacroID())
      return "";
    Text = Text.drop_front(Offset).take_until([](char C) { return C == '\n'; });
    Text = Text.take_front(std::min(Text.find("//"), Text.find("/*")));
    while (!Text.empty()) {
      Text = Text.drop_until([](char C) { return isalpha(C) || C == '_'; });
      llvm::StringRef Name =
          Text.take_while([](char C) { return isalnum(C) || C == '_'; });
      Text = Text.drop_front(Name.size());
      if (Name.empty() || Name == "defined" || isCompilerName(Name) ||
          Name.starts_with("has_") /* __has_include and friends */)
        continue;
      if (!PP.isMacroDefined(Name))
        return Name.str();
    }
    return "";
  }
  /// `#ifndef X` that opens its file's text and whose #endif closes it.
  bool isIncludeGuard(const UndefinedMacroTests::Block &B) const {
    auto [File, IfOffset] = SM.getDecomposedLoc(B.If);
    auto [EndFile, EndOffset] = SM.getDecomposedLoc(B.Endif);
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
    if (Invalid || File != EndFile)
      return false;
    size_t LineEnd = Buffer.find('\n', EndOffset);
    llvm::StringRef After =
        LineEnd == llvm::StringRef::npos ? "" : Buffer.drop_front(LineEnd);
    // The directive's '#' may stand before Loc (which names the keyword).
    llvm::StringRef Before = Buffer.take_front(IfOffset).rtrim(" \t#");
    return onlyCommentsAndSpace(Before) && onlyCommentsAndSpace(After);
  }

  UndefinedMacroTests &Out;
  Preprocessor &PP;
  const SourceManager &SM;
  std::vector<OpenBlock> Open;
  /// Macros defined inside an open block that tests an undefined macro, or
  /// that such a macro decides, and where their value comes from.
  llvm::DenseMap<const MacroInfo *, Origin> DefinedIn;
  /// The defaults expanded by the #if or #elif condition being read.
  std::vector<UndefinedMacroTests::DefaultUse> InCondition;
};

/// Every function with a body, template instantiations included, whose body
/// the checks may have analysed.
class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }
  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->doesThisDeclarationHaveABody())
      Found.push_back(F);
    return true;
  }
  std::vector<const FunctionDecl *> Found;
};

/// The functions a body refers to: all of them, or only those named inside
/// an expression that holds an error (a call clang could not resolve, a
/// launch whose arguments are wrong), and whether it holds a RecoveryExpr.
class Callees : public RecursiveASTVisitor<Callees> {
public:
  explicit Callees(bool OnlyInErrors) : OnlyInErrors(OnlyInErrors) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseStmt(Stmt *S) {
    const auto *E = dyn_cast_or_null<Expr>(S);
    bool Erroneous = E && E->containsErrors();
    InError += Erroneous;
    bool Go = RecursiveASTVisitor::TraverseStmt(S);
    InError -= Erroneous;
    return Go;
  }
  bool VisitRecoveryExpr(RecoveryExpr *) {
    HasRecovery = true;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    add(dyn_cast<FunctionDecl>(E->getDecl()));
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    add(dyn_cast<FunctionDecl>(E->getMemberDecl()));
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    add(E->getConstructor());
    return true;
  }

  std::vector<const FunctionDecl *> Found;
  bool HasRecovery = false;

private:
  void add(const FunctionDecl *F) {
    if (F && (!OnlyInErrors || InError))
      Found.push_back(F);
  }
  bool OnlyInErrors;
  unsigned InError = 0;
};

/// The declarations of a scope by the file their text begins in, in the
/// order of their start (ties in the scope's order): declarationHolding asks
/// once per error outside every function, and a unit whose headers are
/// missing may have tens of thousands.
class ScopeIndex {
public:
  struct Entry {
    unsigned Begin;
    const Decl *D;
    SourceLocation End;
  };

  explicit ScopeIndex(const SourceManager &SM) : SM(SM) {}

  llvm::ArrayRef<Entry> in(const DeclContext &Scope, FileID File) {
    auto [Files, New] = Built.try_emplace(&Scope);
    if (New) {
      for (const Decl *D : Scope.decls()) {
        if (D->isImplicit())
          continue;
        CharSourceRange Range = SM.getExpansionRange(D->getSourceRange());
        SourceLocation Begin = Range.getBegin(), End = Range.getEnd();
        if (Begin.isInvalid() || End.isInvalid())
          continue;
        Files->second[SM.getFileID(Begin)].push_back(
            {SM.getFileOffset(Begin), D, End});
      }
      for (auto &Entries : Files->second)
        llvm::stable_sort(Entries.second, [](const Entry &A, const Entry &B) {
          return A.Begin < B.Begin;
        });
    }
    auto Entries = Files->second.find(File);
    if (Entries == Files->second.end())
      return {};
    return Entries->second;
  }

private:
  const SourceManager &SM;
  llvm::DenseMap<const DeclContext *,
                 llvm::DenseMap<FileID, std::vector<Entry>>>
      Built;
};

/// The declaration at namespace scope whose text holds the error E, looking
/// inside namespaces and linkage specifications. Where clang's recovery
/// dropped part of a declaration (an initializer that does not compile), its
/// range ends early: a parse error after a declaration's start and before
/// the next one's is that declaration's. Null for a preprocessor error
/// between declarations (an #error, a bad directive).
const Decl *declarationHolding(const DeclContext &Scope, SourceLocation At,
                               bool Lexical, const SourceManager &SM,
                               ScopeIndex &Index) {
  FileID File = SM.getFileID(At);
  unsigned Offset = SM.getFileOffset(At);
  // The last to begin at or before At.
  llvm::ArrayRef<ScopeIndex::Entry> Entries = Index.in(Scope, File);
  auto After = llvm::upper_bound(
      Entries, Offset, [](unsigned Offset, const ScopeIndex::Entry &E) {
        return Offset < E.Begin;
      });
  if (After == Entries.begin())
    return nullptr;
  const ScopeIndex::Entry &Preceding = *std::prev(After);
  bool Holds = SM.getFileID(Preceding.End) != File ||
               SM.getFileOffset(Preceding.End) >= Offset;
  if (!Holds && Lexical)
    return nullptr;
  if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(Preceding.D))
    if (const Decl *Inner = declarationHolding(*cast<DeclContext>(Preceding.D),
                                               At, Lexical, SM, Index))
      return Inner;
  return Preceding.D;
}

/// The declaration at namespace scope that is the first to begin after At,
/// looking inside namespaces and linkage specifications: for a macro in the
/// gap before it, which gave it specifiers (`EXPORT __global__ void k()`,
/// with an EXPORT defined to nothing, where the kernel's range begins after
/// EXPORT).
const Decl *declarationFollowing(const DeclContext &Scope, SourceLocation At,
                                 const SourceManager &SM) {
  const Decl *Next = nullptr;
  SourceLocation NextBegin;
  for (const Decl *D : Scope.decls()) {
    if (D->isImplicit())
      continue;
    CharSourceRange Range = SM.getExpansionRange(D->getSourceRange());
    SourceLocation Begin = Range.getBegin(), End = Range.getEnd();
    if (Begin.isInvalid() || End.isInvalid() ||
        SM.isBeforeInTranslationUnit(End, At))
      continue;
    if (!SM.isBeforeInTranslationUnit(At, Begin)) {
      // At is inside it: only a namespace holds declarations to look into.
      if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D))
        return declarationFollowing(*cast<DeclContext>(D), At, SM);
      return nullptr;
    }
    if (!Next || SM.isBeforeInTranslationUnit(Begin, NextBegin)) {
      Next = D;
      NextBegin = Begin;
    }
  }
  return Next;
}

/// The declarations at namespace scope, looking inside namespaces and
/// linkage specifications, whose text lies in [If, Endif], in part or in
/// whole, other than function definitions (whose own code is judged by the
/// functions that hold it).
std::vector<const Decl *> declarationsWithin(const DeclContext &Scope,
                                             SourceLocation If,
                                             SourceLocation Endif,
                                             const SourceManager &SM) {
  std::vector<const Decl *> Found;
  for (const Decl *D : Scope.decls()) {
    if (D->isImplicit())
      continue;
    CharSourceRange Range = SM.getExpansionRange(D->getSourceRange());
    if (Range.getBegin().isInvalid() || Range.getEnd().isInvalid() ||
        SM.isBeforeInTranslationUnit(Range.getEnd(), If) ||
        SM.isBeforeInTranslationUnit(Endif, Range.getBegin()))
      continue;
    if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D)) {
      llvm::append_range(Found, declarationsWithin(*cast<DeclContext>(D), If,
                                                   Endif, SM));
      continue;
    }
    const FunctionDecl *F = D->getAsFunction();
    if (!F || !F->doesThisDeclarationHaveABody())
      Found.push_back(D);
  }
  return Found;
}

/// The calls of project functions that a declaration the unit lacks could
/// take over: a free function called with an argument that needs a
/// conversion, a default argument, or a template's deduction, where another
/// overload may match better. What lies between the last argument (or the
/// '(') and the ')' of each: where a fix would add an argument.
class OverloadableCalls : public RecursiveASTVisitor<OverloadableCalls> {
public:
  OverloadableCalls(const SourceManager &SM, SourceLocation After)
      : SM(SM), After(After) {}
  // A template's calls are resolved in its instantiations.
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXMethodDecl>(Callee) || isa<CXXMemberCallExpr>(Call) ||
        isa<CXXOperatorCallExpr>(Call) ||
        SM.isInSystemHeader(Callee->getLocation()))
      return true;
    SourceLocation Close = SM.getExpansionLoc(Call->getRParenLoc());
    if (Close.isInvalid() || SM.isInSystemHeader(Close) ||
        !SM.isBeforeInTranslationUnit(After, Close) || !mayChoose(*Call))
      return true;
    SourceLocation Open = SM.getExpansionLoc(Call->getBeginLoc());
    for (const Expr *Arg : Call->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg) && Arg->getEndLoc().isValid())
        Open = SM.getExpansionLoc(Arg->getEndLoc());
    Found.push_back({Open, Close, Callee});
    return true;
  }
  struct Call {
    SourceLocation Open, Close;
    const FunctionDecl *Callee;
  };
  std::vector<Call> Found;

private:
  static bool mayChoose(const CallExpr &Call) {
    if (Call.getDirectCallee()->getTemplateSpecializationInfo())
      return true;
    for (const Expr *Arg : Call.arguments()) {
      if (isa<CXXDefaultArgExpr>(Arg))
        return true;
      const auto *Cast = dyn_cast<ImplicitCastExpr>(Arg);
      while (Cast && (Cast->getCastKind() == CK_LValueToRValue ||
                      Cast->getCastKind() == CK_NoOp ||
                      Cast->getCastKind() == CK_ArrayToPointerDecay ||
                      Cast->getCastKind() == CK_FunctionToPointerDecay))
        Cast = dyn_cast<ImplicitCastExpr>(Cast->getSubExpr());
      if (Cast)
        return true;
    }
    return false;
  }
  const SourceManager &SM;
  SourceLocation After;
};

/// The declarations that a function's signature and body name: variables,
/// functions, fields, enumerators, and the types they spell.
class NamedDeclarations : public RecursiveASTVisitor<NamedDeclarations> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *E) { return add(E->getDecl()); }
  bool VisitMemberExpr(MemberExpr *E) { return add(E->getMemberDecl()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    return add(E->getConstructor());
  }
  bool VisitTagTypeLoc(TagTypeLoc T) { return add(T.getDecl()); }
  bool VisitTypedefTypeLoc(TypedefTypeLoc T) {
    return add(T.getTypedefNameDecl());
  }
  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc T) {
    return add(T.getTypePtr()->getTemplateName().getAsTemplateDecl());
  }
  std::vector<const Decl *> Found;

private:
  bool add(const Decl *D) {
    if (D)
      Found.push_back(D);
    return true;
  }
};

bool isDeviceSide(const FunctionDecl &F) {
  return F.hasAttr<CUDADeviceAttr>() || F.hasAttr<CUDAGlobalAttr>();
}

std::string nameOf(const FunctionDecl &F) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  F.printQualifiedName(OS);
  return Name;
}

} // namespace

std::vector<std::pair<SourceRange, std::string>>
rangesRecoveryMayHaveDropped(ASTContext &Ctx,
                             const std::vector<ParseError> &Errors) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<std::pair<SourceRange, std::string>> Ranges;
  // The declarations at namespace scope of each file that holds an error,
  // as [begin, last] offsets in order: a unit may have a thousand errors.
  llvm::DenseMap<FileID, std::vector<std::pair<unsigned, unsigned>>> Spans;
  for (const ParseError &E : Errors)
    if (E.Loc.isValid() && !E.MissingFile)
      Spans.try_emplace(SM.getFileID(SM.getExpansionLoc(E.Loc)));
  std::vector<const DeclContext *> Scopes = {Ctx.getTranslationUnitDecl()};
  while (!Scopes.empty()) {
    const DeclContext *Scope = Scopes.back();
    Scopes.pop_back();
    for (const Decl *D : Scope->decls()) {
      if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
        Scopes.push_back(cast<DeclContext>(D));
        continue;
      }
      if (D->isImplicit() || SM.isInSystemHeader(D->getLocation()))
        continue;
      CharSourceRange Range = SM.getExpansionRange(D->getSourceRange());
      if (Range.getBegin().isInvalid() || Range.getEnd().isInvalid())
        continue;
      auto File = Spans.find(SM.getFileID(Range.getBegin()));
      if (File == Spans.end())
        continue;
      unsigned Begin = SM.getFileOffset(Range.getBegin());
      unsigned Last = SM.getFileID(Range.getEnd()) == File->first
                          ? SM.getFileOffset(Range.getEnd())
                          : Begin;
      File->second.push_back({Begin, Last});
    }
  }
  for (auto &Entry : Spans)
    llvm::sort(Entry.second);
  for (const ParseError &E : Errors) {
    if (E.Loc.isInvalid() || E.MissingFile)
      continue;
    SourceLocation At = SM.getExpansionLoc(E.Loc);
    if (SM.isInSystemHeader(At))
      continue;
    FileID File = SM.getFileID(At);
    unsigned Offset = SM.getFileOffset(At);
    const auto &Decls = Spans.find(File)->second;
    // To the next declaration's start: past the end of the one holding At,
    // recovery may have skipped text that belonged to no declaration (the
    // rest of a body nested too deep, a definition swallowed whole).
    auto Next = llvm::upper_bound(Decls, std::make_pair(Offset, ~0u));
    std::optional<unsigned> End;
    if (Next != Decls.end())
      End = Next->first;
    SourceLocation Until = End ? SM.getComposedLoc(File, *End)
                               : SM.getLocForEndOfFile(File);
    // Errors in one declaration (a thousand of them, at times) give one
    // range: each would be read again.
    if (!Ranges.empty()) {
      SourceRange &Last = Ranges.back().first;
      if (SM.getFileID(Last.getBegin()) == File &&
          SM.getFileOffset(Last.getBegin()) <= Offset &&
          Offset <= SM.getFileOffset(Last.getEnd())) {
        if (SM.getFileOffset(Last.getEnd()) < SM.getFileOffset(Until))
          Last.setEnd(Until);
        continue;
      }
    }
    Ranges.push_back({SourceRange(At, Until), E.Text});
  }
  return Ranges;
}

void UndefinedMacroTests::attach(Preprocessor &PP) {
  PP.addPPCallbacks(std::make_unique<UndefinedMacroRecorder>(*this, PP));
  Worlds.attach(PP);
}

ErrorTaint::ErrorTaint(ASTContext &Ctx, const std::vector<ParseError> &Errors,
                       const UndefinedMacroTests &Tests)
    : SM(Ctx.getSourceManager()), Errors(Errors) {
  FunctionCollector Collector;
  Collector.TraverseAST(Ctx);
  for (const FunctionDecl *F : Collector.Found) {
    CharSourceRange Range = SM.getExpansionRange(F->getSourceRange());
    if (Range.getBegin().isValid() && Range.getEnd().isValid())
      Functions.push_back({F, Range.getBegin(), Range.getEnd()});
  }
  indexFunctions();
  ScopeIndex Scopes(SM);
  std::vector<const FunctionDecl *> Work;
  // Where the errors are.
  for (const ParseError &E : Errors) {
    SourceLocation At =
        E.Loc.isValid() ? SM.getExpansionLoc(E.Loc) : SourceLocation();
    bool InFunction = false;
    if (At.isValid())
      for (const Function *F : functionsHolding(At)) {
        InFunction = true;
        taint(F->Decl, {nameOf(*F->Decl), E.Text, "which holds this code"},
              Work);
      }
    if (InFunction || E.MissingFile || !At.isValid())
      continue;
    // Outside every function: the declaration it is in is wrong, and so is
    // the code that uses it; other code is what it was.
    if (const Decl *D = declarationHolding(*Ctx.getTranslationUnitDecl(), At,
                                           E.Lexical, SM, Scopes))
      Broken.try_emplace(D->getCanonicalDecl(), "has an error: " + E.Text);
    else if (SM.isInSystemHeader(At))
      // A toolkit header's #error: its own declarations are in doubt.
      BrokenFiles.try_emplace(SM.getFileID(At), "has an error: " + E.Text);
    else if (!Everywhere)
      Everywhere = count(Errors) +
                   ", one of them outside every function, which "
                   "may change what any code means: " +
                   E.Text;
  }
  // A header that is missing may define a macro that a later #if tests:
  // then other code would be compiled in the block and around it.
  auto Missing = llvm::find_if(Errors, [](const ParseError &E) {
    return E.MissingFile && E.Loc.isValid();
  });
  if (Missing != Errors.end()) {
    SourceLocation After = SM.getExpansionLoc(Missing->Loc);
    // A `__has_include` that answered no before it: the file it asked for
    // may be there in the user's build, as the missing one is.
    if (Tests.Worlds.MissingAt.isValid() &&
        SM.isBeforeInTranslationUnit(Tests.Worlds.MissingAt, After))
      After = Tests.Worlds.MissingAt;
    OverloadableCalls Calls(SM, After);
    Calls.TraverseAST(Ctx);
    for (const OverloadableCalls::Call &C : Calls.Found)
      ArgumentEnds.push_back(
          {C.Open, C.Close,
           "'" + nameOf(*C.Callee) +
               "' is called here with an argument that needs a conversion, "
               "a default argument or a deduced template argument: a header "
               "that is missing may declare an overload that this call "
               "would choose instead, so no argument is added to it: " +
               Missing->Text});
    auto Place = [&](SourceLocation Loc) {
      PresumedLoc Where = SM.getPresumedLoc(Loc);
      return Where.isValid() ? std::string(llvm::sys::path::filename(
                                   Where.getFilename())) +
                                   ":" + std::to_string(Where.getLine())
                             : std::string("?");
    };
    // Other code may be compiled in the block: the functions in and around
    // it are in doubt, and so is what it declares, for the code that uses it.
    auto DoubtBlock = [&](SourceLocation If, SourceLocation Endif,
                          const std::string &Why) {
      for (const Function &F : Functions)
        if (!SM.isBeforeInTranslationUnit(F.End, If) &&
            !SM.isBeforeInTranslationUnit(Endif, F.Begin) &&
            !SM.isInSystemHeader(F.Decl->getLocation()))
          taint(F.Decl, {nameOf(*F.Decl), Why, "which holds this code"},
                Work);
      for (const Decl *D :
           declarationsWithin(*Ctx.getTranslationUnitDecl(), If, Endif, SM))
        Broken.try_emplace(D->getCanonicalDecl(),
                           "depends on a macro: " + Why);
    };
    // What a default of `#ifndef BLOCK` / `#define BLOCK 256` means where
    // the header defines the tested macro: another value.
    auto DefaultValue = [&](const UndefinedMacroTests::DefaultUse &Use,
                            const std::string &Tested) {
      if (Use.ViaIf.isInvalid())
        return "'" + Use.Name + "' has the value that the block of " + Tested;
      return "'" + Use.Name + "' is defined in the block of the #if at " +
             Place(Use.ViaIf) + ", which tests '" + Use.ViaName +
             "', which has the value that the block of " + Tested;
    };
    // The worlds were recorded from the first #include not found on.
    bool WorldsFromHere =
        Tests.Worlds.MissingAt.isValid() &&
        !SM.isBeforeInTranslationUnit(
            After, SM.getExpansionLoc(Tests.Worlds.MissingAt));
    for (const UndefinedMacroTests::Block &B : Tests.Blocks) {
      if (!SM.isBeforeInTranslationUnit(After, B.If))
        continue;
      // A header that changed the branch would stop the build at an #error.
      if (WorldsFromHere && Tests.Worlds.sameBranchInEveryBuild(B.If))
        continue;
      std::string Tested = "the #if at " + Place(B.If) + " tests '" + B.Macro +
                          "', which is not defined there; a header that is "
                          "missing may define it: " +
                          Missing->Text;
      DoubtBlock(B.If, B.Endif, Tested);
      for (const UndefinedMacroTests::DefaultUse &Use : Tests.DefaultUses) {
        SourceLocation At = SM.getExpansionLoc(Use.At);
        if (Use.BlockIf != B.If || SM.isInSystemHeader(At))
          continue;
        std::string Why = DefaultValue(Use, Tested);
        bool InFunction = false;
        for (const Function *F : functionsHolding(At)) {
          InFunction = true;
          taint(F->Decl, {nameOf(*F->Decl), Why, "which holds this code"},
                Work);
        }
        // `__shared__ float tile[TILE];`: the code that uses the
        // declaration is in doubt.
        if (InFunction)
          continue;
        const Decl *D = declarationHolding(*Ctx.getTranslationUnitDecl(), At,
                                           /*Lexical=*/true, SM, Scopes);
        if (!D)
          D = declarationFollowing(*Ctx.getTranslationUnitDecl(), At, SM);
        if (const FunctionDecl *F = D ? D->getAsFunction() : nullptr;
            F && F->doesThisDeclarationHaveABody())
          taint(F, {nameOf(*F), Why, "which holds this code"}, Work);
        else if (D)
          Broken.try_emplace(D->getCanonicalDecl(),
                             "depends on a macro: " + Why);
        else if (!Everywhere)
          Everywhere = count(Errors) + ": " + Why + "; and " + Use.Name +
                       " is used outside every declaration, at " + Place(At) +
                       ", which may change what any code means";
      }
      // `#if USE_ASM == 1`: where the default is not the value compiled,
      // another branch is.
      for (const UndefinedMacroTests::DecidedBlock &D : Tests.Decided)
        if (D.By.BlockIf == B.If)
          DoubtBlock(D.If, D.Endif,
                     "the condition at " + Place(SM.getExpansionLoc(D.By.At)) +
                         " decides which code of the #if at " + Place(D.If) +
                         " is compiled, and " + DefaultValue(D.By, Tested));
    }
    // Blocks the scan above does not see: a condition that reads a macro
    // whose definition reads other names (`#define USE_HALF defined(HALF)`,
    // `#if USE_HALF`), __has_include, a name defined where another build may
    // not define it, or a name on a continued line.
    if (WorldsFromHere)
      for (const MacroWorlds::Chain &C : Tests.Worlds.Chains) {
        if (C.Endif.isInvalid() || !MacroWorlds::unsettled(C) ||
            llvm::any_of(Tests.Blocks,
                         [&](const UndefinedMacroTests::Block &B) {
                           return B.If == C.If;
                         }) ||
            Tests.Worlds.sameBranchInEveryBuild(C.If))
          continue;
        DoubtBlock(C.If, C.Endif,
                   "the #if at " + Place(C.If) +
                       " reads what a header that is missing may change (a "
                       "macro it does not define here, one defined where "
                       "another build may not, or __has_include): " +
                       Missing->Text);
      }
  }
  if (!Broken.empty() || !BrokenFiles.empty())
    for (const Function &F : Functions) {
      if (SM.isInSystemHeader(F.Decl->getLocation()))
        continue;
      NamedDeclarations Names;
      Names.Found.push_back(F.Decl); // a member of a broken class
      Names.TraverseDecl(const_cast<FunctionDecl *>(F.Decl));
      for (const Decl *Used : Names.Found)
        if (std::optional<std::string> Why = brokenDeclaration(Used, 0)) {
          taint(F.Decl, {nameOf(*F.Decl), *Why, "which holds this code"},
                Work);
          break;
        }
    }
  // What clang's recovery left in the AST, where an error lay elsewhere (an
  // instantiation whose error is reported at the template); and who calls
  // whom.
  for (const Function &F : Functions) {
    Callees Body(/*OnlyInErrors=*/false);
    Body.TraverseDecl(const_cast<FunctionDecl *>(F.Decl));
    for (const FunctionDecl *G : Body.Found)
      Callers[G->getCanonicalDecl()].push_back(F.Decl);
    if (F.Decl->isInvalidDecl() || Body.HasRecovery)
      taint(F.Decl,
            {nameOf(*F.Decl),
             F.Decl->isInvalidDecl()
                 ? "its declaration is invalid"
                 : "clang could not make sense of an expression in it",
             "which holds this code"},
            Work);
  }
  // Down the calls: a device function's call sites decide who reaches its
  // code. A host function's correct calls and launches mislead nothing; only
  // those inside an erroneous expression are suspect. Up the calls: the
  // analyses of a device function follow its calls into their callees.
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    bool Device = isDeviceSide(*F);
    Callees Body(/*OnlyInErrors=*/!Device);
    Body.TraverseDecl(const_cast<FunctionDecl *>(F));
    Taint Why = Tainted.find(F->getCanonicalDecl())->second;
    Taint Down = Why, Up = Why;
    Down.Relation = "which decides who reaches this code";
    Down.Upward = false;
    Up.Relation = "which this code calls";
    for (const FunctionDecl *G : Body.Found) {
      taint(G, Down, Work);
      if (const FunctionDecl *Pattern = G->getTemplateInstantiationPattern())
        taint(Pattern, Down, Work);
    }
    if (!Device || !Why.Upward)
      continue;
    auto Calling = Callers.find(F->getCanonicalDecl());
    if (Calling != Callers.end())
      for (const FunctionDecl *C : Calling->second)
        taint(C, Up, Work);
  }
}

std::optional<std::string>
ErrorTaint::brokenDeclaration(const Decl *D, unsigned Depth) const {
  // Through typedefs and the types of variables and fields, a few steps:
  // enough for `typedef struct broken_s broken_t; broken_t *p;`.
  if (!D || Depth > 4)
    return std::nullopt;
  auto Describe = [&](const Decl *Culprit, const std::string &Error) {
    std::string Name = "a declaration";
    if (const auto *Named = dyn_cast<NamedDecl>(Culprit))
      Name = "'" + Named->getQualifiedNameAsString() + "'";
    return "it uses " + Name + ", whose declaration " + Error;
  };
  // The declaration, or the one at namespace scope it is part of (a field's
  // record, an enumerator's enum, a member's class).
  for (const Decl *Part = D; Part;
       Part = dyn_cast_or_null<Decl>(Part->getDeclContext())) {
    if (isa<TranslationUnitDecl, NamespaceDecl, LinkageSpecDecl>(Part))
      break;
    auto It = Broken.find(Part->getCanonicalDecl());
    if (It != Broken.end())
      return Describe(Part, It->second);
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Part)) {
      auto Template =
          Broken.find(Spec->getSpecializedTemplate()->getCanonicalDecl());
      if (Template != Broken.end())
        return Describe(Part, Template->second);
    }
  }
  if (!BrokenFiles.empty()) {
    SourceLocation At = SM.getExpansionLoc(D->getLocation());
    auto File = At.isValid() ? BrokenFiles.find(SM.getFileID(At))
                             : BrokenFiles.end();
    if (File != BrokenFiles.end())
      return Describe(D, File->second);
  }
  if (D->isInvalidDecl() && !isa<FunctionDecl>(D))
    return Describe(D, "has an error: clang marked it invalid");
  QualType Declared;
  if (const auto *Typedef = dyn_cast<TypedefNameDecl>(D))
    Declared = Typedef->getUnderlyingType();
  else if (const auto *Value = dyn_cast<ValueDecl>(D);
           Value && !isa<FunctionDecl>(D))
    Declared = Value->getType();
  if (Declared.isNull())
    return std::nullopt;
  const clang::Type *Inner = Declared->getPointeeOrArrayElementType();
  if (const TagDecl *Tag = Inner->getAsTagDecl())
    return brokenDeclaration(Tag, Depth + 1);
  if (const auto *Typedef = Inner->getAs<TypedefType>())
    return brokenDeclaration(Typedef->getDecl(), Depth + 1);
  return std::nullopt;
}

void ErrorTaint::indexFunctions() {
  for (size_t I = 0; I < Functions.size(); ++I) {
    const Function &F = Functions[I];
    FileID File = SM.getFileID(F.Begin);
    if (File == SM.getFileID(F.End) && !SM.isLoadedSourceLocation(F.Begin))
      FunctionsInFile[File].push_back(I);
    else
      FunctionsAnywhere.push_back(I);
  }
}

std::vector<const ErrorTaint::Function *>
ErrorTaint::functionsHolding(SourceLocation At) const {
  std::vector<size_t> Candidates = FunctionsAnywhere;
  // A function whose text lies in one file holds At only if At's file is
  // that file or one it includes (between the function's braces). Where At
  // came from a precompiled preamble, every function is asked.
  if (SM.isLoadedSourceLocation(At))
    for (const auto &[File, InFile] : FunctionsInFile)
      llvm::append_range(Candidates, InFile);
  else
    for (FileID File = SM.getFileID(At); File.isValid();
         File = SM.getFileID(SM.getIncludeLoc(File))) {
      auto InFile = FunctionsInFile.find(File);
      if (InFile != FunctionsInFile.end())
        llvm::append_range(Candidates, InFile->second);
    }
  // In the order of Functions, as the reasons a function is given depend on
  // which error reaches it first.
  llvm::sort(Candidates);
  std::vector<const Function *> Holding;
  for (size_t I : Candidates) {
    const Function &F = Functions[I];
    if (!SM.isBeforeInTranslationUnit(At, F.Begin) &&
        !SM.isBeforeInTranslationUnit(F.End, At))
      Holding.push_back(&F);
  }
  return Holding;
}

void ErrorTaint::taint(const FunctionDecl *F, Taint Why,
                       std::vector<const FunctionDecl *> &Work) {
  // Toolkit code holds no finding, and what it calls back is analysed as
  // reached by unknown lanes anyway.
  if (SM.isInSystemHeader(F->getLocation()))
    return;
  auto [It, New] = Tainted.try_emplace(F->getCanonicalDecl(), Why);
  if (!New) {
    // Reached down first, then up: its callers must hear of it too.
    if (!Why.Upward || It->second.Upward)
      return;
    It->second = std::move(Why);
  }
  // The body is the definition's; a call may name another declaration.
  if (const FunctionDecl *Definition = F->getDefinition())
    Work.push_back(Definition);
}

std::string ErrorTaint::count(const std::vector<ParseError> &Errors) {
  return "this translation unit has " + std::to_string(Errors.size()) +
         " error" + (Errors.size() == 1 ? "" : "s");
}

std::string ErrorTaint::summary(const std::vector<ParseError> &Errors) {
  return count(Errors) + "; the first: " +
         (Errors.empty() ? std::string("(none)") : Errors.front().Text);
}

std::optional<std::string>
ErrorTaint::reasonFor(llvm::ArrayRef<SourceLocation> Places) const {
  if (Everywhere)
    return *Everywhere;
  for (SourceLocation Place : Places) {
    if (Place.isInvalid())
      continue;
    SourceLocation At = SM.getExpansionLoc(Place);
    for (const ArgumentEnd &Call : ArgumentEnds)
      if (!SM.isBeforeInTranslationUnit(At, Call.Open) &&
          !SM.isBeforeInTranslationUnit(Call.Close, At))
        return count(Errors) + ": " + Call.Why;
    for (const Function &F : Functions) {
      if (SM.isBeforeInTranslationUnit(At, F.Begin) ||
          SM.isBeforeInTranslationUnit(F.End, At))
        continue;
      auto It = Tainted.find(F.Decl->getCanonicalDecl());
      if (It == Tainted.end())
        continue;
      bool Own = It->second.Root == nameOf(*F.Decl);
      return count(Errors) + ", one of them in '" + It->second.Root + "', " +
             (Own ? "which holds this code" : It->second.Relation) + ": " +
             It->second.Error;
    }
  }
  return std::nullopt;
}

} // namespace warpfix
