#include "checks/analysis/LoopRewrite.h"
#include "checks/analysis/Loops.h"
#include "checks/analysis/Membership.h"
#include "checks/analysis/SkippedCode.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace warpfix {

namespace {

/// The file range E is written in, or an invalid one where a macro writes
/// part of it.
CharSourceRange fileRangeOf(const Expr *E, ASTContext &Ctx) {
  return Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
}

/// The case labels in S that a switch outside S jumps to.
bool hasCaseFromOutside(const Stmt *S) {
  llvm::SmallPtrSet<const SwitchCase *, 8> Inner;
  llvm::SmallVector<const SwitchCase *, 8> Labels;
  llvm::SmallVector<const Stmt *, 32> Work = {S};
  while (!Work.empty()) {
    const Stmt *Next = Work.pop_back_val();
    if (!Next || isa<LambdaExpr>(Next))
      continue;
    if (const auto *Switch = dyn_cast<SwitchStmt>(Next))
      for (const SwitchCase *Case = Switch->getSwitchCaseList(); Case;
           Case = Case->getNextSwitchCase())
        Inner.insert(Case);
    if (const auto *Case = dyn_cast<SwitchCase>(Next))
      Labels.push_back(Case);
    for (const Stmt *Child : Next->children())
      Work.push_back(Child);
  }
  return llvm::any_of(Labels,
                      [&](const SwitchCase *C) { return !Inner.contains(C); });
}

/// Why the increment, moved to the end of Body, could mean something else or
/// run at another time: a declaration at the top of Body that is not a plain
/// variable (a type, an enumerator, a using-directive, a structured binding
/// may all change what a name in it finds), a variable it names by a word of
/// its text, or a variable whose destructor, run at the end of the body,
/// would then run after it.
std::optional<std::string> incrementMoveRefusal(const Expr *Increment,
                                                const CompoundStmt *Body,
                                                ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = fileRangeOf(Increment, Ctx);
  if (Range.isInvalid())
    return std::string("its increment is written by a macro");
  llvm::StringSet<> Words;
  {
    auto [File, Begin] = SM.getDecomposedLoc(Range.getBegin());
    unsigned End = SM.getFileOffset(Range.getEnd());
    llvm::StringRef Buffer = SM.getBufferData(File);
    Lexer Raw(SM.getLocForStartOfFile(File), Ctx.getLangOpts(),
              Buffer.begin(), Buffer.begin() + Begin, Buffer.end());
    Token Tok;
    // A member's name (`blockDim.x`) finds no local.
    bool AfterAccess = false;
    while (!Raw.LexFromRawLexer(Tok) &&
           SM.getFileOffset(Tok.getLocation()) < End) {
      if (Tok.is(tok::raw_identifier) && !AfterAccess)
        Words.insert(Tok.getRawIdentifier());
      AfterAccess = Tok.isOneOf(tok::period, tok::arrow);
    }
  }
  for (const Stmt *S : Body->body()) {
    const auto *Declaration = dyn_cast<DeclStmt>(S);
    if (!Declaration)
      continue;
    for (const Decl *D : Declaration->decls()) {
      if (isa<StaticAssertDecl>(D))
        continue;
      const auto *Var = dyn_cast<VarDecl>(D);
      if (!Var || isa<DecompositionDecl>(Var))
        return std::string("its body declares something other than a plain "
                           "variable at its top, which the increment, moved "
                           "to the end of the body, might find instead of "
                           "what it finds now");
      if (Var->getIdentifier() && Words.contains(Var->getName()))
        return "its body declares '" + Var->getNameAsString() +
               "', which the increment, moved to the end of the body, would "
               "name instead of what it names now";
      if (Var->needsDestruction(Ctx))
        return "the destructor of '" + Var->getNameAsString() +
               "', declared at the top of its body, would run after the "
               "increment once it is moved to the end of the body";
    }
  }
  return std::nullopt;
}

/// Why a toolkit function may make the calling thread wait for others, or
/// call back into user code: nothing for those known not to. Free
/// functions of the CUDA runtime's global namespace are intrinsics that act
/// on the calling thread alone (math, loads, atomics, fences, texture
/// fetches), except the barriers and waits among them; any other toolkit
/// function (cooperative groups, cuda::barrier, cuda::std::invoke, an
/// atomic_ref's wait) is not known.
std::optional<std::string> toolkitCallRefusal(const FunctionDecl *Callee) {
  // Implicit and trivial members of the toolkit's types (uint4, float2).
  if (Callee->isTrivial())
    return std::nullopt;
  std::string Name = Callee->getNameAsString();
  // threadIdx.x and the like read a special register (clang's CUDA
  // headers).
  if (llvm::StringRef(Name).starts_with("__fetch_builtin_"))
    return std::nullopt;
  std::string Lower = llvm::StringRef(Name).lower();
  llvm::StringRef L = Lower;
  if (L.contains("sync") || L.contains("barrier") || L.contains("wait") ||
      L.contains("sleep") || L.contains("notify"))
    return "its body calls '" + Name + "', which waits for other threads";
  bool Global =
      Callee->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
      !isa<CXXMethodDecl>(Callee);
  if (!Global)
    return "its body calls '" + Callee->getQualifiedNameAsString() +
           "' from the toolkit, which warpfix does not know not to wait for "
           "other threads or call back into the code";
  return std::nullopt;
}

/// What in S, or in what S calls, synchronises or may synchronise with other
/// threads: a block barrier, a warp primitive with its own mask, a wait, a
/// loop that spins on memory other threads write, inline PTX, a virtual call
/// or one through a pointer, a call of a function whose body is not in
/// sight, an object whose destructor runs there, and, in a template as
/// written, an operator that an instantiation may make a call. The lanes
/// that the rewritten loop keeps waiting in its ballot would never reach
/// it, where in the original they had gone past the loop, and exited, or
/// reached the barrier elsewhere.
std::optional<std::string> synchronisationIn(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  constexpr llvm::StringLiteral Unseen =
      "its body calls a function through a pointer, a virtual function, or "
      "one whose body is not in sight";
  // Every function that S reaches is read, once; a call graph larger than
  // this is not followed.
  constexpr unsigned MostFunctions = 64;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  llvm::SmallVector<const Stmt *, 64> Work = {S};
  auto Follow = [&](const FunctionDecl *Callee) -> std::optional<std::string> {
    if (SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
      return toolkitCallRefusal(Callee);
    llvm::StringRef Name =
        Callee->getIdentifier() ? Callee->getName() : llvm::StringRef();
    if (Name.starts_with("__syncthreads") || Name == "__syncwarp" ||
        Name.ends_with("_sync"))
      return "its body calls '" + Name.str() +
             "', which waits for other threads";
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
        Method && Method->isVirtual())
      return std::string(Unseen);
    const FunctionDecl *Definition = nullptr;
    if (!Callee->getBody(Definition))
      return Callee->isTrivial() ? std::nullopt
                                 : std::optional<std::string>(Unseen);
    if (!Seen.insert(Definition).second)
      return std::nullopt;
    if (Seen.size() > MostFunctions)
      return std::string("its body calls more functions, directly or not, "
                         "than warpfix follows");
    Work.push_back(Definition->getBody());
    if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(Definition))
      for (const CXXCtorInitializer *Init : Constructor->inits())
        Work.push_back(Init->getInit());
    return std::nullopt;
  };
  while (!Work.empty()) {
    const Stmt *Next = Work.pop_back_val();
    if (!Next || isa<LambdaExpr>(Next))
      continue;
    if (isa<AsmStmt>(Next))
      return std::string("its body has inline PTX");
    // In a template as written, an operator on a value of dependent type
    // may be a call of the type's own operator, unseen until instantiated.
    if (const auto *E = dyn_cast<Expr>(Next);
        E && E->isTypeDependent() &&
        isa<BinaryOperator, UnaryOperator, ArraySubscriptExpr,
            CXXOperatorCallExpr, CXXDependentScopeMemberExpr,
            UnresolvedMemberExpr, CXXUnresolvedConstructExpr>(E))
      return std::string("its body has an operation on a value of a type "
                         "that depends on a template parameter, which an "
                         "instantiation may make a call of the type's own "
                         "operator");
    // A destructor runs where nothing in the code calls it.
    if (isa<CXXBindTemporaryExpr>(Next))
      return std::string("its body makes a temporary whose destructor runs "
                         "there");
    if (const auto *Declaration = dyn_cast<DeclStmt>(Next))
      for (const Decl *D : Declaration->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && Var->needsDestruction(Ctx))
          return "its body declares '" + Var->getNameAsString() +
                 "', whose destructor runs there";
    // A lane that waits for another in a loop of its own: `while (flag)`
    // on volatile or atomic memory.
    if (isLoop(Next))
      if (const Expr *Inner = loopCondition(Next);
          Inner && !isa<CXXForRangeStmt>(Next) && !isHoistable(Inner, Ctx))
        return std::string("its body has a loop whose condition has side "
                           "effects, volatile reads or calls, as a loop "
                           "that waits for other threads has");
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Next))
      Work.push_back(Default->getExpr());
    if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(Next))
      Work.push_back(Default->getExpr());
    if (const auto *Call = dyn_cast<CallExpr>(Next)) {
      if (const FunctionDecl *Direct = Call->getDirectCallee()) {
        bool Qualified = false;
        if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
          if (const auto *ME = dyn_cast<MemberExpr>(
                  Member->getCallee()->IgnoreParenImpCasts()))
            Qualified = ME->hasQualifier();
        const auto *Method = dyn_cast<CXXMethodDecl>(Direct);
        if (Method && Method->isVirtual() && !Qualified)
          return std::string(Unseen);
        if (std::optional<std::string> Why = Follow(Direct))
          return Why;
      } else if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(
                     Call->getCallee()->IgnoreParenImpCasts())) {
        // A call that its dependent arguments leave unresolved: any of the
        // functions the name finds.
        for (const NamedDecl *D : Lookup->decls()) {
          const auto *F = D->getAsFunction();
          if (!F)
            return std::string(Unseen);
          if (std::optional<std::string> Why = Follow(F))
            return Why;
        }
      } else {
        return std::string(Unseen);
      }
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next)) {
      if (std::optional<std::string> Why = Follow(Construct->getConstructor()))
        return Why;
    }
    for (const Stmt *Child : Next->children())
      Work.push_back(Child);
  }
  return std::nullopt;
}

/// Why E, written in the loop's header and moved into its body by the
/// rewrite, might not mean the same there: a macro other than one that
/// names a number (it may name a local the body declares, or be redefined
/// in the body), or __LINE__ and the like, whose value is where they stand.
std::optional<std::string> movedTextRefusal(const Expr *E, llvm::StringRef What,
                                            ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = fileRangeOf(E, Ctx);
  if (Range.isInvalid())
    return "its " + What.str() + " is written by a macro";
  llvm::StringRef Text =
      Lexer::getSourceText(Range, SM, Ctx.getLangOpts());
  for (llvm::StringRef Position : {"__LINE__", "__COUNTER__", "__FILE__"})
    if (Text.contains(Position))
      return "its " + What.str() + " uses " + Position.str() +
             ", whose value is where it is written";
  llvm::SmallVector<const Stmt *, 16> Work = {E};
  while (!Work.empty()) {
    const Stmt *Next = Work.pop_back_val();
    if (!Next)
      continue;
    if (Next->getBeginLoc().isMacroID() || Next->getEndLoc().isMacroID()) {
      const Expr *Value = dyn_cast<Expr>(Next);
      Value = Value ? Value->IgnoreParenCasts() : nullptr;
      if (const auto *Minus = dyn_cast_or_null<UnaryOperator>(Value);
          Minus && Minus->getOpcode() == UO_Minus)
        Value = Minus->getSubExpr()->IgnoreParenCasts();
      if (isa_and_nonnull<IntegerLiteral, FloatingLiteral, CharacterLiteral,
                          CXXBoolLiteralExpr>(Value))
        continue;
      if (Next->getBeginLoc().isMacroID() && Next->getEndLoc().isMacroID())
        return "its " + What.str() +
               " uses a macro that stands for more than a number, which "
               "might mean something else where the rewrite moves it";
    }
    for (const Stmt *Child : Next->children())
      Work.push_back(Child);
  }
  return std::nullopt;
}

/// An `if constexpr` in S: in another instantiation of the template, its
/// branch that this one discarded may hold an exit the rewrite must refuse.
bool hasConstexprIf(const Stmt *S) {
  llvm::SmallVector<const Stmt *, 32> Work = {S};
  while (!Work.empty()) {
    const Stmt *Next = Work.pop_back_val();
    if (!Next)
      continue;
    if (const auto *If = dyn_cast<IfStmt>(Next); If && If->isConstexpr())
      return true;
    for (const Stmt *Child : Next->children())
      Work.push_back(Child);
  }
  return false;
}

} // namespace

std::optional<std::string> loopRewriteRefusal(const Stmt *Loop,
                                              ASTContext &Ctx,
                                              ExitingFunctions &Exiting) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  const auto *While = dyn_cast<WhileStmt>(Loop);
  if (!For && !While)
    return std::string(isa<DoStmt>(Loop)
                           ? "it is a do-while loop, which warpfix does not "
                             "rewrite"
                           : "it is a range-based for loop, which warpfix "
                             "does not rewrite");
  const auto *Body = dyn_cast<CompoundStmt>(loopBody(Loop));
  if (!Body)
    return std::string("its body has no braces; add them");
  if (For ? For->getConditionVariable() != nullptr
          : While->getConditionVariable() != nullptr)
    return std::string("its condition declares a variable");
  const Expr *Condition = loopCondition(Loop);
  if (Condition->containsErrors())
    return std::string("its condition has an error");
  if (Condition->isTypeDependent())
    return std::string("its condition's type depends on a template "
                       "parameter");
  QualType Type = Condition->IgnoreImpCasts()->getType();
  if (!Type->isScalarType() || Type->isNullPtrType())
    return std::string("its condition is not of a scalar type, so it cannot "
                       "be stored in a bool as written");
  // A lane whose condition has failed evaluates it again at every later
  // iteration; it must fail again, and do nothing else.
  if (!isHoistable(Condition, Ctx))
    return std::string("its condition has side effects, volatile reads or "
                       "calls, which a lane that has finished would repeat");
  if (!readsOnlyThreadPrivate(Condition, Ctx))
    return std::string("its condition reads memory that other lanes may "
                       "write, so a lane that has finished, evaluating it "
                       "again while the others go on, might find it true "
                       "again");
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation LoopBegin = Loop->getBeginLoc();
  SourceLocation FirstInBody = Body->body_empty()
                                   ? Body->getRBracLoc()
                                   : Body->body_front()->getBeginLoc();
  if (LoopBegin.isFileID() && FirstInBody.isFileID() &&
      Body->getRBracLoc().isFileID()) {
    // An #if in the header or around the braces: another configuration
    // has another loop, which the edits made for this one would break.
    if (directiveLineBetween(LoopBegin, FirstInBody, SM,
                         /*DefinitionsOnly=*/false))
      return std::string("a preprocessor directive stands in its header or "
                         "around its opening brace");
    if (directiveLineBetween(Body->getLBracLoc(), Body->getRBracLoc(), SM,
                         /*DefinitionsOnly=*/true))
      return std::string("its body defines or undefines a macro, which the "
                         "condition or increment moved into it might use");
  }
  if (std::optional<std::string> Refusal =
          movedTextRefusal(Condition, "condition", Ctx))
    return Refusal;
  std::vector<const Stmt *> Exits =
      exitsOf(Ctx, Body, /*CountContinue=*/true, &Exiting);
  const Expr *Increment = For ? For->getInc() : nullptr;
  for (const Stmt *Exit : Exits) {
    if (!isa<ContinueStmt>(Exit))
      return std::string(describeExit(Exit)) +
             " in its body leaves the loop early, which the rewritten loop "
             "would not do the same way";
    if (Increment)
      return std::string("a continue in its body would skip the increment, "
                         "which the rewrite moves to the end of the body");
  }
  if (hasCaseFromOutside(Body))
    return std::string("a case label of an enclosing switch is inside its "
                       "body");
  if (hasConstexprIf(Body))
    return std::string("its body has an if constexpr, whose branch that "
                       "this instantiation discards may leave the loop in "
                       "another");
  if (std::optional<std::string> Sync = synchronisationIn(Body, Ctx))
    return *Sync + "; the lanes that have finished wait in the loop's "
                   "ballot, and would never get to what synchronises there";
  if (Increment) {
    if (Increment->containsErrors() || Increment->isTypeDependent())
      return std::string("its increment has an error or depends on a "
                         "template parameter");
    if (std::optional<std::string> Refusal =
            movedTextRefusal(Increment, "increment", Ctx))
      return Refusal;
    if (std::optional<std::string> Refusal =
            incrementMoveRefusal(Increment, Body, Ctx))
      return Refusal;
  }
  return std::nullopt;
}

} // namespace warpfix
