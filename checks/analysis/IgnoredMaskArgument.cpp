#include "checks/analysis/IgnoredMaskArgument.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace clang;

namespace warpfix {
namespace {

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

bool usesWord(llvm::StringRef Body, llvm::StringRef Word) {
  for (size_t At = Body.find(Word); At != llvm::StringRef::npos;
       At = Body.find(Word, At + 1)) {
    size_t End = At + Word.size();
    if ((At == 0 || !isIdentifierChar(Body[At - 1])) &&
        (End >= Body.size() || !isIdentifierChar(Body[End])))
      return true;
  }
  return false;
}

/// The offset where the logical line holding Offset starts, following
/// backslash continuations back.
size_t logicalLineStart(llvm::StringRef Buffer, size_t Offset) {
  size_t Start = Offset;
  while (true) {
    size_t LineStart = Buffer.rfind('\n', Start == 0 ? 0 : Start - 1);
    Start = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
    llvm::StringRef Before = Buffer.substr(0, Start).rtrim("\r\n");
    if (Start == 0 || !Before.ends_with("\\"))
      return Start;
    Start = Before.size();
  }
}

/// The text up to the first line end that is not continued.
llvm::StringRef untilLogicalLineEnd(llvm::StringRef Text) {
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n' &&
        (I == 0 || llvm::StringRef(Text.data(), I).rtrim("\r").back() != '\\'))
      return Text.take_front(I);
  return Text;
}

} // namespace

std::optional<IgnoredMaskParameter>
ignoredMaskParameter(SourceLocation NameSpelling, const SourceManager &SM) {
  auto [File, Offset] = SM.getDecomposedLoc(NameSpelling);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  size_t Start = logicalLineStart(Buffer, Offset);
  static const llvm::Regex Define("^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)"
                                  "\\(([^)]*)\\)");
  llvm::SmallVector<llvm::StringRef, 3> Match;
  if (!Define.match(Buffer.substr(Start), &Match))
    return std::nullopt;
  size_t BodyStart = Start + Match[0].size();
  if (Offset < BodyStart)
    return std::nullopt;
  llvm::StringRef Body = untilLogicalLineEnd(Buffer.substr(BodyStart));
  llvm::SmallVector<llvm::StringRef, 4> Params;
  Match[2].split(Params, ',');
  for (unsigned I = 0; I < Params.size(); ++I) {
    llvm::StringRef Param = Params[I].trim();
    if (llvm::StringRef(Param.lower()).contains("mask") &&
        !usesWord(Body, Param))
      return IgnoredMaskParameter{Match[1].str(), Param.str(), I};
  }
  return std::nullopt;
}

std::optional<std::string> maskArgumentText(SourceLocation Expanded,
                                            const IgnoredMaskParameter &Param,
                                            const SourceManager &SM,
                                            const LangOptions &LangOpts) {
  if (!Expanded.isMacroID())
    return std::nullopt;
  SourceLocation Invocation =
      SM.getSpellingLoc(SM.getImmediateExpansionRange(Expanded).getBegin());
  auto [File, Offset] = SM.getDecomposedLoc(Invocation);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  Lexer Raw(SM.getLocForStartOfFile(File), LangOpts, Buffer.begin(),
            Buffer.begin() + Offset, Buffer.end());
  Token T;
  Raw.LexFromRawLexer(T);
  if (!T.is(tok::raw_identifier) || T.getRawIdentifier() != Param.Macro)
    return std::nullopt;
  Raw.LexFromRawLexer(T);
  if (!T.is(tok::l_paren))
    return std::nullopt;
  unsigned Argument = 0;
  int Depth = 0;
  size_t ArgumentStart = SM.getFileOffset(T.getEndLoc());
  while (true) {
    Raw.LexFromRawLexer(T);
    if (T.is(tok::eof))
      return std::nullopt;
    bool Ends = Depth == 0 && T.isOneOf(tok::comma, tok::r_paren);
    if (Ends) {
      if (Argument == Param.Index) {
        size_t End = SM.getFileOffset(T.getLocation());
        return Buffer.slice(ArgumentStart, End).trim().str();
      }
      if (T.is(tok::r_paren))
        return std::nullopt;
      ++Argument;
      ArgumentStart = SM.getFileOffset(T.getEndLoc());
      continue;
    }
    if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Depth;
    else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace))
      --Depth;
  }
}

bool isFullMaskArgument(llvm::StringRef Text, SourceLocation Use,
                        const FullMaskMacros &FullMasks,
                        const SourceManager &SM) {
  if (isFullMaskSpelling(Text))
    return true;
  bool Identifier = !Text.empty() && !llvm::isDigit(Text[0]) &&
                    llvm::all_of(Text, isIdentifierChar);
  return Identifier && FullMasks.namesFullMask(Text, Use, SM);
}

} // namespace warpfix
