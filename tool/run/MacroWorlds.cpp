#include "tool/run/MacroWorlds.h"
#include "tool/run/ArchConditions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace warpfix {

namespace {

std::vector<Token> rawTokens(llvm::StringRef Text, std::string &Storage) {
  Storage = Text.str();
  LangOptions Lang;
  Lang.CPlusPlus = true;
  Lexer Raw(SourceLocation(), Lang, Storage.data(), Storage.data(),
            Storage.data() + Storage.size());
  std::vector<Token> Tokens;
  Token Tok;
  while (true) {
    Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      return Tokens;
    Tokens.push_back(Tok);
  }
}

/// The directives of a stretch of a file, each as its tokens after the '#'.
/// From is the first token to read: the first line may be the rest of
/// a directive.
std::vector<std::vector<Token>> directiveLines(const std::vector<Token> &Tokens,
                                               bool &OtherText,
                                               size_t From = 0) {
  std::vector<std::vector<Token>> Lines;
  OtherText = false;
  for (size_t I = From; I < Tokens.size(); ++I) {
    if (!Tokens[I].isAtStartOfLine() && I != 0)
      continue;
    if (Tokens[I].isNot(tok::hash)) {
      OtherText = true;
      continue;
    }
    std::vector<Token> Line;
    for (size_t J = I + 1; J < Tokens.size() && !Tokens[J].isAtStartOfLine();
         ++J)
      Line.push_back(Tokens[J]);
    Lines.push_back(std::move(Line));
  }
  return Lines;
}

/// A literal's value where the preprocessor reads it as a signed integer:
/// an unsigned one (`0u`, or too large) compares otherwise.
std::optional<long long> integerValue(llvm::StringRef Spelling) {
  long long Value;
  if (Spelling.contains_insensitive('u') || Spelling.starts_with("0b") ||
      Spelling.starts_with("0B") || Spelling.contains('\'') ||
      Spelling.rtrim("lL").getAsInteger(0, Value))
    return std::nullopt;
  return Value;
}

} // namespace

bool isCompilerName(llvm::StringRef Name) {
  return Name.starts_with("__") ||
         llvm::is_contained({"_WIN32", "_WIN64", "_MSC_VER", "_MSC_FULL_VER",
                             "_OPENMP", "_M_X64", "_M_IX86", "_M_ARM64",
                             "_LP64", "_ILP32"},
                            Name);
}

namespace {

bool isWord(const Token &T, llvm::StringRef Word) {
  return T.is(tok::raw_identifier) && T.getRawIdentifier() == Word;
}

/// A recursive descent over an #if condition's tokens.
class ConditionEvaluator {
public:
  ConditionEvaluator(const MacroWorlds::Condition &C,
                     const llvm::StringSet<> &World)
      : C(C), World(World) {
    Tokens = rawTokens(C.Text, Storage);
  }
  std::optional<long long> run() {
    std::optional<long long> Value = disjunction();
    if (!Value || Next != Tokens.size())
      return std::nullopt;
    return *Value;
  }

private:
  bool at(tok::TokenKind Kind) const {
    return Next < Tokens.size() && Tokens[Next].is(Kind);
  }
  bool take(tok::TokenKind Kind) {
    if (!at(Kind))
      return false;
    ++Next;
    return true;
  }
  std::optional<long long> disjunction() {
    std::optional<long long> L = conjunction();
    while (L && take(tok::pipepipe)) {
      std::optional<long long> R = conjunction();
      if (!R)
        return std::nullopt;
      L = *L || *R;
    }
    return L;
  }
  std::optional<long long> conjunction() {
    std::optional<long long> L = equality();
    while (L && take(tok::ampamp)) {
      std::optional<long long> R = equality();
      if (!R)
        return std::nullopt;
      L = *L && *R;
    }
    return L;
  }
  std::optional<long long> equality() {
    std::optional<long long> L = relation();
    while (L && (at(tok::equalequal) || at(tok::exclaimequal))) {
      bool Equal = Tokens[Next++].is(tok::equalequal);
      std::optional<long long> R = relation();
      if (!R)
        return std::nullopt;
      L = Equal ? *L == *R : *L != *R;
    }
    return L;
  }
  std::optional<long long> relation() {
    std::optional<long long> L = unary();
    while (L && Next < Tokens.size() &&
           Tokens[Next].isOneOf(tok::less, tok::lessequal, tok::greater,
                                tok::greaterequal)) {
      tok::TokenKind Op = Tokens[Next++].getKind();
      std::optional<long long> R = unary();
      if (!R)
        return std::nullopt;
      L = Op == tok::less        ? *L < *R
          : Op == tok::lessequal ? *L <= *R
          : Op == tok::greater   ? *L > *R
                                 : *L >= *R;
    }
    return L;
  }
  std::optional<long long> unary() {
    if (take(tok::exclaim)) {
      std::optional<long long> V = unary();
      return V ? std::optional<long long>(!*V) : std::nullopt;
    }
    if (take(tok::minus)) {
      std::optional<long long> V = unary();
      return V ? std::optional<long long>(-*V) : std::nullopt;
    }
    if (take(tok::plus))
      return unary();
    return primary();
  }
  std::optional<long long> primary() {
    if (take(tok::l_paren)) {
      std::optional<long long> V = disjunction();
      if (!V || !take(tok::r_paren))
        return std::nullopt;
      return V;
    }
    if (at(tok::numeric_constant)) {
      const Token &T = Tokens[Next++];
      return integerValue(llvm::StringRef(T.getLiteralData(), T.getLength()));
    }
    if (!at(tok::raw_identifier))
      return std::nullopt;
    llvm::StringRef Name = Tokens[Next++].getRawIdentifier();
    if (Name == "defined") {
      bool Paren = take(tok::l_paren);
      if (!at(tok::raw_identifier))
        return std::nullopt;
      llvm::StringRef Tested = Tokens[Next++].getRawIdentifier();
      if (Paren && !take(tok::r_paren))
        return std::nullopt;
      std::optional<bool> Defined = definedIn(Tested);
      return Defined ? std::optional<long long>(*Defined) : std::nullopt;
    }
    if (Name == "true" || Name == "false")
      return Name == "true";
    // A function-like macro, __has_include and the like.
    if (at(tok::l_paren))
      return std::nullopt;
    auto State = C.Names.find(Name);
    if (State == C.Names.end() || State->second.Doubtful)
      return std::nullopt;
    if (State->second.Defined)
      return State->second.Value;
    // The value the header would give it is unknown.
    if (State->second.Free() && World.contains(Name))
      return std::nullopt;
    return 0;
  }
  std::optional<bool> definedIn(llvm::StringRef Name) const {
    auto State = C.Names.find(Name);
    if (State == C.Names.end() || State->second.Doubtful)
      return std::nullopt;
    return State->second.Defined ||
           (State->second.Free() && World.contains(Name));
  }

  const MacroWorlds::Condition &C;
  const llvm::StringSet<> &World;
  std::string Storage;
  std::vector<Token> Tokens;
  size_t Next = 0;
};

} // namespace

std::optional<long long> evaluateCondition(const MacroWorlds::Condition &C,
                                           const llvm::StringSet<> &World) {
  std::optional<long long> Value = ConditionEvaluator(C, World).run();
  if (Value && C.Negated)
    return !*Value;
  return Value;
}

class MacroWorldsRecorder : public PPCallbacks {
public:
  MacroWorldsRecorder(MacroWorlds &Out, Preprocessor &PP)
      : Out(Out), PP(PP), SM(PP.getSourceManager()) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef,
                          bool, CharSourceRange, OptionalFileEntryRef File,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (File)
      return;
    if (Out.MissingAt.isInvalid())
      Out.MissingAt = HashLoc;
    Out.Missing.push_back(HashLoc);
  }
  void If(SourceLocation Loc, SourceRange, ConditionValueKind Value) override {
    if (!open(Loc))
      return;
    addBranch(Loc, conditionAt(Loc), /*Negated=*/false, Value == CVK_True);
  }
  void Ifdef(SourceLocation Loc, const Token &Name,
             const MacroDefinition &Definition) override {
    if (!open(Loc))
      return;
    addBranch(Loc, "defined " + spelling(Name), false, bool(Definition));
  }
  void Ifndef(SourceLocation Loc, const Token &Name,
              const MacroDefinition &Definition) override {
    if (!open(Loc))
      return;
    // An include guard: the model's missing header does not define it.
    if (opensItsFile(Loc, spelling(Name))) {
      Open.back().Settled = Open.back().IncludeGuard = true;
      return;
    }
    addBranch(Loc, "defined " + spelling(Name), true, !Definition);
  }
  void Elif(SourceLocation Loc, SourceRange, ConditionValueKind Value,
            SourceLocation IfLoc) override {
    if (OpenChain *C = chainOf(IfLoc))
      addBranch(Loc, conditionAt(Loc), false, Value == CVK_True, C);
  }
  void Elifdef(SourceLocation Loc, const Token &Name,
               const MacroDefinition &Definition) override {
    if (!Open.empty())
      addBranch(Loc, "defined " + spelling(Name), false, bool(Definition),
                &Open.back());
  }
  void Elifndef(SourceLocation Loc, const Token &Name,
                const MacroDefinition &Definition) override {
    if (!Open.empty())
      addBranch(Loc, "defined " + spelling(Name), true, !Definition,
                &Open.back());
  }
  void Else(SourceLocation Loc, SourceLocation IfLoc) override {
    OpenChain *C = chainOf(IfLoc);
    if (!C)
      return;
    LastEnded = {Loc, C->Index};
    if (C->Index < 0)
      return;
    MacroWorlds::Chain &Chain = Out.Chains[C->Index];
    Chain.HasElse = true;
    if (Chain.Taken < 0 && !C->TookOne)
      Chain.Taken = Chain.Branches.size();
  }
  void Endif(SourceLocation Loc, SourceLocation IfLoc) override {
    auto It =
        llvm::find_if(Open, [&](const OpenChain &C) { return C.If == IfLoc; });
    if (It == Open.end())
      return;
    int Index = It->Index;
    // Taken for an include guard, it was not one: what it held was not
    // judged.
    if (It->IncludeGuard && !closesItsFile(Loc))
      Out.Unmodelled = true;
    Open.erase(It, Open.end());
    LastEnded = {Loc, Index};
    if (Index < 0)
      return;
    MacroWorlds::Chain &Chain = Out.Chains[Index];
    Chain.Endif = Loc;
    Chain.Guard = Chain.Branches.size() == 1 && !Chain.HasElse &&
                  Chain.Taken < 0 && holdsOnlyErrors(Chain.If, Loc);
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation EndLoc) override {
    // The hook of the directive that ends the skip comes first.
    if (EndLoc != LastEnded.first || LastEnded.second < 0)
      return;
    MacroWorlds::Chain &Chain = Out.Chains[LastEnded.second];
    std::optional<FileStretch> Skipped = fileStretch(SM, Range);
    if (!Skipped)
      return;
    std::string Storage;
    bool OtherText;
    for (const std::vector<Token> &Line : directiveLines(
             rawTokens(Skipped->Buffer.slice(Skipped->Begin, Skipped->End),
                       Storage),
             OtherText)) {
      if (Line.empty())
        continue;
      if (isWord(Line[0], "include") || isWord(Line[0], "include_next") ||
          isWord(Line[0], "import"))
        Chain.SkippedInclude = true;
      else if ((isWord(Line[0], "define") || isWord(Line[0], "undef")) &&
               Line.size() > 1 && Line[1].is(tok::raw_identifier))
        Chain.SkippedNames.insert(Line[1].getRawIdentifier());
    }
    // Another build may compile what this one skipped.
    if (unsettledAround(/*Inner=*/&Chain)) {
      for (const auto &Name : Chain.SkippedNames)
        Doubtful.insert(Name.getKey());
      if (Chain.SkippedInclude && Out.UnsettledIncludeAt.isInvalid())
        Out.UnsettledIncludeAt = Chain.If;
    }
  }
  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind FileType, FileID) override {
    if (Reason != EnterFile || SrcMgr::isSystem(FileType) || !Loc.isFileID())
      return;
    FileID File = SM.getFileID(Loc);
    if (!Scanned.insert(File).second)
      return;
    bool Invalid = false;
    llvm::StringRef Text = SM.getBufferData(File, &Invalid);
    // `#pragma pop_macro("X")` brings back X's earlier definition, or none,
    // and no hook reports it; a missing header's X may vanish between a
    // guard and a block. However it is spelled (a splice, _Pragma, a
    // string that a macro pastes), the project's files are taken to hold
    // one if their text names it.
    if (!Invalid && Text.contains("pop_") && popsProjectMacro(Text))
      Out.PopsMacros = true;
  }
  /// Text names `pop_macro` of a name other than the compiler's (whose
  /// names the header is taken not to define), or pastes `pop_` to
  /// something.
  static bool popsProjectMacro(llvm::StringRef Text) {
    std::string Joined = withoutLineSplices(Text);
    llvm::StringRef Rest = Joined;
    for (size_t At = Rest.find("pop_"); At != llvm::StringRef::npos;
         At = Rest.find("pop_")) {
      Rest = Rest.drop_front(At + 4).ltrim(" \t");
      if (Rest.starts_with("##"))
        return true;
      if (!Rest.consume_front("macro"))
        continue;
      llvm::StringRef Name =
          Rest.ltrim(" \t")
              .drop_while([](char C) {
                return C == '(' || C == ' ' || C == '\\' || C == '"' ||
                       C == '\t';
              })
              .take_while([](char C) { return isalnum(C) || C == '_'; });
      if (Name.empty() || !isCompilerName(Name))
        return true;
    }
    return false;
  }
  /// `#if __has_include("x.h")` answered no: the run's include paths lack a
  /// file, as for an #include not found.
  void HasInclude(SourceLocation Loc, StringRef, bool,
                  OptionalFileEntryRef File,
                  SrcMgr::CharacteristicKind) override {
    if (File || SM.isInSystemHeader(Loc))
      return;
    SourceLocation At = SM.getExpansionLoc(Loc);
    if (Out.MissingAt.isInvalid())
      Out.MissingAt = At;
    Out.Missing.push_back(At);
  }
  void MacroDefined(const Token &Name, const MacroDirective *) override {
    if (unsettledAround())
      Doubtful.insert(spelling(Name));
  }
  void MacroUndefined(const Token &Name, const MacroDefinition &,
                      const MacroDirective *) override {
    if (Out.MissingAt.isValid())
      Out.Undefined.insert(spelling(Name));
    if (unsettledAround())
      Doubtful.insert(spelling(Name));
  }

private:
  struct OpenChain {
    SourceLocation If;
    /// Into Out.Chains; -1 for a chain that is not recorded (the toolkit's,
    /// or one opened before the missing header).
    int Index = -1;
    bool TookOne = false;
    /// An include guard, or a chain before the missing header.
    bool Settled = false;
    bool IncludeGuard = false;
  };

  /// Opens a chain; whether it is recorded.
  bool open(SourceLocation Loc) {
    OpenChain C{Loc};
    bool Recorded =
        Out.MissingAt.isValid() && !SM.isInSystemHeader(Loc) && Loc.isFileID();
    C.Settled = Out.MissingAt.isInvalid();
    if (Recorded) {
      C.Index = Out.Chains.size();
      MacroWorlds::Chain Chain;
      Chain.If = Loc;
      Chain.InUnsettled = unsettledAround();
      Out.Chains.push_back(std::move(Chain));
    }
    Open.push_back(C);
    return Recorded;
  }
  OpenChain *chainOf(SourceLocation IfLoc) {
    for (auto C = Open.rbegin(); C != Open.rend(); ++C)
      if (C->If == IfLoc)
        return &*C;
    return nullptr;
  }
  void addBranch(SourceLocation Loc, std::string Text, bool Negated, bool Taken,
                 OpenChain *C = nullptr) {
    if (!C)
      C = &Open.back();
    // An #elif ends the skip of the branches before it.
    LastEnded = {Loc, C->Index};
    if (C->Index < 0)
      return;
    MacroWorlds::Chain &Chain = Out.Chains[C->Index];
    MacroWorlds::Condition Condition;
    Condition.Text = withoutLineSplices(Text);
    Condition.Negated = Negated;
    std::string Storage;
    std::vector<Token> Tokens = rawTokens(Condition.Text, Storage);
    bool AfterDefined = false;
    for (size_t I = 0; I < Tokens.size(); ++I) {
      const Token &T = Tokens[I];
      if (T.is(tok::l_paren) && AfterDefined)
        continue;
      bool Tested = AfterDefined;
      AfterDefined = isWord(T, "defined");
      if (T.isNot(tok::raw_identifier) || AfterDefined || isWord(T, "true") ||
          isWord(T, "false"))
        continue;
      MacroWorlds::NameState State = stateOf(T.getRawIdentifier());
      bool Called = I + 1 < Tokens.size() && Tokens[I + 1].is(tok::l_paren);
      if (!Tested && (Called || (State.Defined && !State.Value)))
        Condition.Opaque = true;
      Condition.Names.try_emplace(T.getRawIdentifier(), State);
    }
    if (Taken && !C->TookOne) {
      Chain.Taken = Chain.Branches.size();
      C->TookOne = true;
    }
    Chain.Branches.push_back(std::move(Condition));
  }
  MacroWorlds::NameState stateOf(llvm::StringRef Name) const {
    MacroWorlds::NameState State;
    State.Reserved = isCompilerName(Name);
    State.Doubtful = Doubtful.contains(Name);
    const IdentifierInfo *II = PP.getIdentifierInfo(Name);
    const MacroInfo *Info = II ? PP.getMacroInfo(II) : nullptr;
    State.Defined = Info != nullptr;
    if (Info && Info->isObjectLike() && Info->getNumTokens() == 1 &&
        Info->getReplacementToken(0).is(tok::numeric_constant)) {
      llvm::SmallString<16> Buffer;
      bool Invalid = false;
      llvm::StringRef Spelling =
          PP.getSpelling(Info->getReplacementToken(0), Buffer, &Invalid);
      if (!Invalid)
        State.Value = integerValue(Spelling);
    }
    return State;
  }
  /// Whether another build may not be inside the open chains (below Inner,
  /// which is left out), or inside other branches of them.
  bool unsettledAround(const MacroWorlds::Chain *Inner = nullptr) const {
    for (const OpenChain &C : Open) {
      if (C.Settled || C.Index < 0)
        continue;
      const MacroWorlds::Chain &Chain = Out.Chains[C.Index];
      if (&Chain != Inner &&
          (MacroWorlds::unsettled(Chain) || Chain.InUnsettled))
        return true;
    }
    return Inner && (MacroWorlds::unsettled(*Inner) || Inner->InUnsettled);
  }
  /// The condition of the directive whose keyword is at Keyword, read from
  /// the file to the end of the directive: the range clang gives does not
  /// cover `__has_include("x.h")`. Unreadable: a text no evaluation accepts.
  std::string conditionAt(SourceLocation Keyword) const {
    if (!Keyword.isFileID())
      return "(";
    auto [File, Offset] = SM.getDecomposedLoc(Keyword);
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
    if (Invalid)
      return "(";
    llvm::StringRef Rest = Buffer.drop_front(Offset);
    Rest = Rest.drop_while([](char C) { return isalnum(C) || C == '_'; });
    // To the first line end outside a block comment and not spliced.
    size_t End = 0;
    bool InComment = false;
    for (; End < Rest.size(); ++End) {
      if (InComment) {
        if (Rest.substr(End).starts_with("*/"))
          InComment = false, ++End;
        continue;
      }
      if (Rest.substr(End).starts_with("/*")) {
        InComment = true;
        ++End;
        continue;
      }
      if (Rest[End] == '\n' &&
          !Rest.take_front(End).rtrim(" \t\r").ends_with("\\"))
        break;
    }
    return Rest.take_front(End).str();
  }
  static std::string spelling(const Token &Name) {
    const IdentifierInfo *Id = Name.getIdentifierInfo();
    return Id ? Id->getName().str() : "";
  }
  /// `#ifndef X` with nothing but comments before it in its file, and
  /// `#define X` on the next line.
  bool opensItsFile(SourceLocation Loc, llvm::StringRef Name) const {
    auto [File, Offset] = SM.getDecomposedLoc(Loc);
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
    if (Invalid)
      return false;
    std::string Storage;
    std::vector<Token> Before =
        rawTokens(Buffer.take_front(Offset).rtrim(" \t"), Storage);
    if (Before.size() != 1 || Before[0].isNot(tok::hash))
      return false;
    std::vector<Token> After = rawTokens(Buffer.drop_front(Offset), Storage);
    size_t Next = 1;
    while (Next < After.size() && !After[Next].isAtStartOfLine())
      ++Next;
    return Next + 2 < After.size() && After[Next].is(tok::hash) &&
           isWord(After[Next + 1], "define") && isWord(After[Next + 2], Name);
  }
  /// Nothing but comments after the directive at Loc in its file.
  bool closesItsFile(SourceLocation Loc) const {
    auto [File, Offset] = SM.getDecomposedLoc(Loc);
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
    if (Invalid)
      return false;
    std::string Storage;
    std::vector<Token> After = rawTokens(Buffer.drop_front(Offset), Storage);
    // The `endif` itself, then nothing at the start of a line.
    return llvm::none_of(llvm::drop_begin(After),
                         [](const Token &T) { return T.isAtStartOfLine(); });
  }
  /// The text from the #if at If to the #endif at Endif is one line of
  /// #if and lines of #error.
  bool holdsOnlyErrors(SourceLocation If, SourceLocation Endif) const {
    std::optional<FileStretch> Stretch =
        fileStretch(SM, SourceRange(If, Endif));
    if (!Stretch)
      return false;
    std::string Storage;
    bool OtherText;
    // From the keyword `if`: the first line's tokens are not a directive's.
    std::vector<Token> Tokens = rawTokens(Stretch->text(), Storage);
    size_t SecondLine = 1;
    while (SecondLine < Tokens.size() && !Tokens[SecondLine].isAtStartOfLine())
      ++SecondLine;
    std::vector<std::vector<Token>> Lines =
        directiveLines(Tokens, OtherText, SecondLine);
    // The last '#' is the #endif's.
    if (OtherText || Lines.size() < 2 || !Lines.back().empty())
      return false;
    Lines.pop_back();
    return llvm::all_of(Lines, [](const std::vector<Token> &Line) {
      return !Line.empty() && isWord(Line[0], "error");
    });
  }

  MacroWorlds &Out;
  Preprocessor &PP;
  const SourceManager &SM;
  std::vector<OpenChain> Open;
  llvm::StringSet<> Doubtful;
  std::pair<SourceLocation, int> LastEnded{SourceLocation(), -1};
  llvm::DenseSet<FileID> Scanned;
};

void MacroWorlds::attach(Preprocessor &PP) {
  SM = &PP.getSourceManager();
  PP.addPPCallbacks(std::make_unique<MacroWorldsRecorder>(*this, PP));
}

bool MacroWorlds::unsettled(const Chain &C) {
  size_t Upto = C.Taken < 0 ? C.Branches.size()
                            : std::min<size_t>(C.Taken + 1, C.Branches.size());
  for (size_t I = 0; I < Upto; ++I)
    if (C.Branches[I].Opaque ||
        llvm::any_of(C.Branches[I].Names, [](const auto &Name) {
          return Name.second.Free() || Name.second.Doubtful;
        }))
      return true;
  return false;
}

std::optional<int> MacroWorlds::branchIn(const Chain &C,
                                         const llvm::StringSet<> &World) {
  for (size_t I = 0; I < C.Branches.size(); ++I) {
    std::optional<long long> Value = evaluateCondition(C.Branches[I], World);
    if (!Value)
      return std::nullopt;
    if (*Value)
      return I;
  }
  return C.HasElse ? int(C.Branches.size()) : -1;
}

bool MacroWorlds::sameBranchInEveryBuild(SourceLocation If) const {
  const Chain *Target = nullptr;
  for (const Chain &C : Chains)
    if (C.If == If)
      Target = &C;
  if (Unmodelled || PopsMacros || !Target || Target->InUnsettled ||
      Target->Endif.isInvalid())
    return false;
  auto Before = [&](const Chain &C) {
    return UnsettledIncludeAt.isInvalid() || C.If == UnsettledIncludeAt ||
           SM->isBeforeInTranslationUnit(C.If, UnsettledIncludeAt);
  };
  if (!Before(*Target))
    return false;
  // The names the chain reads, which the header may define.
  llvm::StringSet<> Names;
  auto Read = [&](const Chain &C) {
    for (const Condition &B : C.Branches)
      for (const auto &Name : B.Names) {
        if (Name.second.Doubtful ||
            (Name.second.Free() && Undefined.contains(Name.getKey())))
          return false;
        if (Name.second.Free())
          Names.insert(Name.getKey());
      }
    return true;
  };
  if (!Read(*Target))
    return false;
  // The guards that read one of them.
  std::vector<const Chain *> Guards;
  llvm::StringSet<> Shared = Names;
  // A header not found between a guard and the chain may define a name
  // after the guard read it, before the chain does.
  auto MissingBetween = [&](const Chain &G) {
    auto [First, Last] = SM->isBeforeInTranslationUnit(G.If, If)
                             ? std::pair(G.If, If)
                             : std::pair(If, G.If);
    return llvm::any_of(Missing, [&](SourceLocation M) {
      return SM->isBeforeInTranslationUnit(First, M) &&
             SM->isBeforeInTranslationUnit(M, Last);
    });
  };
  for (const Chain &C : Chains) {
    if (!C.Guard || C.InUnsettled || !Before(C) || MissingBetween(C) ||
        llvm::none_of(C.Branches[0].Names, [&](const auto &Name) {
          return Name.second.Free() && Shared.contains(Name.getKey());
        }))
      continue;
    llvm::StringSet<> Saved = Names;
    if (Read(C))
      Guards.push_back(&C);
    else
      Names = std::move(Saved);
  }
  std::vector<llvm::StringRef> Free;
  for (const auto &Name : Names)
    Free.push_back(Name.getKey());
  if (Free.size() > 16)
    return false;
  for (unsigned Mask = 0; Mask < (1u << Free.size()); ++Mask) {
    llvm::StringSet<> World;
    for (size_t I = 0; I < Free.size(); ++I)
      if (Mask & (1u << I))
        World.insert(Free[I]);
    // A build that stops at an #error compiles nothing.
    if (llvm::any_of(Guards, [&](const Chain *G) {
          std::optional<long long> Fires =
              evaluateCondition(G->Branches[0], World);
          return Fires && *Fires;
        }))
      continue;
    std::optional<int> Branch = branchIn(*Target, World);
    if (!Branch || *Branch != Target->Taken)
      return false;
  }
  return true;
}

} // namespace warpfix
