#include "tool/run/ArchDependence.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include <algorithm>

using namespace clang;

namespace warpfix {
namespace {

/// Whether a name is one of the architecture's own macros: __CUDA_ARCH__
/// and the feature macros (__CUDA_ARCH_FEAT_SM90_ALL). __CUDA_ARCH_LIST__
/// names every architecture of the build, the same in each parse.
bool isArchitectureMacro(llvm::StringRef Name) {
  return Name.starts_with("__CUDA_ARCH") && Name != "__CUDA_ARCH_LIST__";
}

/// What nvcc defines for sm_90a or sm_100f and clang 19 does not.
bool isNvccOnlyMacro(llvm::StringRef Name) {
  return Name == "__CUDA_ARCH_SPECIFIC__" ||
         Name == "__CUDA_ARCH_FAMILY_SPECIFIC__" ||
         Name.starts_with("__CUDA_ARCH_FEAT_") ||
         Name == "__CUDA_ARCH_HAS_FEATURE__";
}

} // namespace

ArchDependenceRecorder::ArchDependenceRecorder(Preprocessor &PP,
                                               llvm::ArrayRef<std::string> Seed,
                                               bool UserCode)
    : PP(PP), UserCode(UserCode) {
  for (const std::string &Name : Seed)
    Tainted.insert(Name);
}

std::vector<std::string> ArchDependenceRecorder::archMacros() const {
  std::vector<std::string> Names;
  for (const auto &Name : Tainted)
    Names.push_back(Name.getKey().str());
  llvm::sort(Names);
  return Names;
}

const MacroInfo *
ArchDependenceRecorder::macroNamed(llvm::StringRef Name) const {
  // Looked up, never added: an identifier made here would take memory from
  // clang's own table, which a sanitized warpfix and the uninstrumented
  // libclang-cpp then disagree about (a false use-after-poison).
  auto &Identifiers = PP.getIdentifierTable();
  auto Found = Identifiers.find(Name);
  if (Found == Identifiers.end() || !Found->getValue())
    return nullptr;
  return PP.getMacroInfo(Found->getValue());
}

std::optional<unsigned> ArchDependenceRecorder::numberIn(const Token &T) const {
  if (T.isNot(tok::numeric_constant))
    return std::nullopt;
  // Through the preprocessor: a token of a macro read from a shared
  // preamble's PCH has no literal data of its own.
  bool Invalid = false;
  std::string Spelling = PP.getSpelling(T, &Invalid);
  unsigned Value;
  if (Invalid || llvm::StringRef(Spelling).rtrim("uUlL").getAsInteger(0, Value))
    return std::nullopt;
  return Value;
}

void ArchDependenceRecorder::readCandidates(const MacroInfo *List) {
  Candidates.clear();
  if (!List)
    return;
  for (const Token &T : List->tokens())
    if (std::optional<unsigned> Value = numberIn(T))
      Candidates.push_back(*Value);
}

bool ArchDependenceRecorder::splitsCandidates(
    llvm::ArrayRef<unsigned> Numbers) const {
  if (Candidates.empty())
    return true;
  auto [Low, High] = std::minmax_element(Candidates.begin(), Candidates.end());
  return llvm::any_of(Numbers,
                      [&](unsigned N) { return *Low <= N && N <= *High; });
}

bool ArchDependenceRecorder::tainted(llvm::StringRef Name) const {
  return isArchitectureMacro(Name) || Tainted.contains(Name);
}

bool ArchDependenceRecorder::inUserFile(SourceLocation Loc) const {
  if (!UserCode || Loc.isInvalid())
    return false;
  const SourceManager &SM = PP.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  return SM.getFileEntryRefForID(SM.getFileID(Loc)) &&
         !SM.isInSystemHeader(Loc);
}

void ArchDependenceRecorder::noteNvccOnly(const Token &Name) {
  llvm::StringRef Macro = Name.getIdentifierInfo()->getName();
  if (User.NvccOnlyMacro.empty() && isNvccOnlyMacro(Macro) &&
      inUserFile(Name.getLocation()))
    User.NvccOnlyMacro = Macro.str();
}

void ArchDependenceRecorder::MacroExpands(const Token &Name,
                                          const MacroDefinition &,
                                          SourceRange Range,
                                          const MacroArgs *) {
  noteNvccOnly(Name);
  llvm::StringRef Macro = Name.getIdentifierInfo()->getName();
  if (PP.isParsingIfOrElifDirective()) {
    ConditionTainted |= tainted(Macro);
    return;
  }
  // In code, an #include's name, a #pragma: the text the user's file
  // compiles differs between architectures.
  if (tainted(Macro) && inUserFile(Range.getBegin()))
    User.Opaque = true;
}

void ArchDependenceRecorder::Defined(const Token &Name, const MacroDefinition &,
                                     SourceRange) {
  noteNvccOnly(Name);
  llvm::StringRef Macro = Name.getIdentifierInfo()->getName();
  // Whether __CUDA_ARCH__ is defined tells the host from the device, the
  // same in every device parse.
  if (Macro != "__CUDA_ARCH__" && tainted(Macro))
    ConditionTainted = true;
}

void ArchDependenceRecorder::MacroDefined(const Token &Name,
                                          const MacroDirective *MD) {
  llvm::StringRef Macro = Name.getIdentifierInfo()->getName();
  // The build's architectures, which warpfix defines on the command line
  // as nvcc does: a condition that they all answer alike splits nothing.
  if (Macro == "__CUDA_ARCH_LIST__") {
    readCandidates(MD ? MD->getMacroInfo() : nullptr);
    return;
  }
  bool Depends = OpenTainted > 0;
  if (const MacroInfo *Info = MD ? MD->getMacroInfo() : nullptr)
    for (const Token &T : Info->tokens())
      if (const IdentifierInfo *II = T.getIdentifierInfo())
        Depends |= tainted(II->getName());
  // An editor's `#define __CUDA_ARCH__ 500` under `#ifndef __CUDA_ARCH__`
  // is the host's; the architecture's own names are tainted anyway.
  if (Depends)
    Tainted.insert(Macro);
}

void ArchDependenceRecorder::MacroUndefined(const Token &Name,
                                            const MacroDefinition &,
                                            const MacroDirective *) {
  if (OpenTainted > 0)
    Tainted.insert(Name.getIdentifierInfo()->getName());
  // `#undef __CUDA_ARCH__` in the user's code makes what follows the same
  // for every architecture, or not: unknown.
  else if (isArchitectureMacro(Name.getIdentifierInfo()->getName()) &&
           inUserFile(Name.getLocation()))
    User.Opaque = true;
}

bool ArchDependenceRecorder::finishCondition(SourceLocation Loc,
                                             SourceRange Condition) {
  bool Depends = ConditionTainted;
  ConditionTainted = false;
  const SourceManager &SM = PP.getSourceManager();
  bool Invalid = false;
  llvm::StringRef Text =
      Lexer::getSourceText(CharSourceRange::getTokenRange(Condition), SM,
                           PP.getLangOpts(), &Invalid);
  // Read as written: a name that this parse leaves undefined, and that
  // another architecture's branch defines, is expanded by no hook here.
  std::vector<std::string> Names;
  std::optional<std::vector<unsigned>> Numbers;
  if (!Invalid)
    Numbers = literalComparison(
        Text,
        [&](llvm::StringRef Name) -> std::optional<unsigned> {
          return valueOf(Name);
        },
        &Names);
  // Whether __CUDA_ARCH__ is defined tells the host from the device, the
  // same in every device parse; any other name that depends on the
  // architecture makes the condition more than a comparison with numbers.
  bool OtherNames = false;
  for (llvm::StringRef Name : Names) {
    bool Tested = Name.consume_front("defined ");
    if (Name == "__CUDA_ARCH__")
      Depends |= !Tested;
    else if (tainted(Name))
      Depends = OtherNames = true;
  }
  if (!Depends)
    return false;
  if (Invalid || OtherNames)
    Numbers.reset();
  // A shared preamble defined the list where no hook saw it.
  if (Candidates.empty())
    readCandidates(macroNamed("__CUDA_ARCH_LIST__"));
  // `__CUDA_ARCH__ >= 200`, all through the toolkit's headers, is true for
  // every architecture the build compiles for.
  if (Numbers && !splitsCandidates(*Numbers))
    return false;
  if (inUserFile(Loc)) {
    if (Numbers)
      llvm::append_range(User.Numbers, *Numbers);
    else
      User.Opaque = true;
  }
  return true;
}

std::optional<unsigned>
ArchDependenceRecorder::valueOf(llvm::StringRef Name) const {
  if (tainted(Name))
    return std::nullopt;
  const MacroInfo *Info = macroNamed(Name);
  // Undefined in every architecture's parse: #if reads it as 0.
  if (!Info)
    return 0u;
  if (!Info->isObjectLike() || Info->getNumTokens() != 1)
    return std::nullopt;
  return numberIn(Info->getReplacementToken(0));
}

void ArchDependenceRecorder::If(SourceLocation Loc, SourceRange Condition,
                                ConditionValueKind) {
  bool Depends = finishCondition(Loc, Condition);
  Open.push_back(Depends);
  OpenTainted += Depends;
}

void ArchDependenceRecorder::Elif(SourceLocation Loc, SourceRange Condition,
                                  ConditionValueKind Value, SourceLocation) {
  // Not evaluated: a branch before it was taken, and decides the chain.
  if (Value == CVK_NotEvaluated) {
    ConditionTainted = false;
    return;
  }
  bool Depends = finishCondition(Loc, Condition);
  if (!Open.empty() && Depends && !Open.back()) {
    Open.back() = true;
    ++OpenTainted;
  }
}

void ArchDependenceRecorder::namedTest(SourceLocation Loc, const Token &Name,
                                       bool Push) {
  noteNvccOnly(Name);
  llvm::StringRef Macro = Name.getIdentifierInfo()->getName();
  bool Depends = Macro != "__CUDA_ARCH__" && tainted(Macro);
  if (Depends && inUserFile(Loc))
    User.Opaque = true;
  if (Push) {
    Open.push_back(Depends);
    OpenTainted += Depends;
  } else if (!Open.empty() && Depends && !Open.back()) {
    Open.back() = true;
    ++OpenTainted;
  }
}

void ArchDependenceRecorder::Ifdef(SourceLocation Loc, const Token &Name,
                                   const MacroDefinition &) {
  namedTest(Loc, Name, /*Push=*/true);
}
void ArchDependenceRecorder::Ifndef(SourceLocation Loc, const Token &Name,
                                    const MacroDefinition &) {
  namedTest(Loc, Name, /*Push=*/true);
}
void ArchDependenceRecorder::Elifdef(SourceLocation Loc, const Token &Name,
                                     const MacroDefinition &) {
  namedTest(Loc, Name, /*Push=*/false);
}
void ArchDependenceRecorder::Elifndef(SourceLocation Loc, const Token &Name,
                                      const MacroDefinition &) {
  namedTest(Loc, Name, /*Push=*/false);
}

void ArchDependenceRecorder::Endif(SourceLocation Loc, SourceLocation) {
  if (Open.empty())
    return;
  if (Open.back())
    EndedTainted = Loc;
  OpenTainted -= Open.back();
  Open.pop_back();
}

void ArchDependenceRecorder::SourceRangeSkipped(SourceRange Range,
                                                SourceLocation EndLoc) {
  // What a branch that this architecture skips defines, another one's parse
  // defines: a macro that exists for some architectures only.
  if (OpenTainted == 0 && !(EndedTainted.isValid() && EndLoc == EndedTainted))
    return;
  const SourceManager &SM = PP.getSourceManager();
  std::optional<FileStretch> Skipped = fileStretch(SM, Range);
  if (!Skipped)
    return;
  // To the buffer's end, which holds the null the lexer wants; tokens past
  // the skipped range are not read.
  Lexer Raw(SM.getLocForStartOfFile(Skipped->File), PP.getLangOpts(),
            Skipped->Buffer.begin(), Skipped->Buffer.begin() + Skipped->Begin,
            Skipped->Buffer.end());
  Token Tok;
  std::vector<Token> Line;
  auto Judge = [&] {
    if (Line.size() > 2 && Line[0].is(tok::hash) &&
        Line[1].is(tok::raw_identifier) &&
        (Line[1].getRawIdentifier() == "define" ||
         Line[1].getRawIdentifier() == "undef") &&
        Line[2].is(tok::raw_identifier))
      Tainted.insert(Line[2].getRawIdentifier());
    Line.clear();
  };
  while (true) {
    Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof) || SM.getFileOffset(Tok.getLocation()) >= Skipped->End)
      break;
    if (Tok.isAtStartOfLine())
      Judge();
    Line.push_back(Tok);
  }
  Judge();
}

} // namespace warpfix
