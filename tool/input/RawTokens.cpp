#include "tool/input/RawTokens.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

namespace warpfix {

std::vector<RawToken> rawTokens(const std::string &Source) {
  llvm::StringRef Text(Source.c_str(), Source.size());
  clang::LangOptions Lang;
  Lang.CPlusPlus = Lang.CPlusPlus11 = Lang.CPlusPlus14 = Lang.CPlusPlus17 = 1;
  Lang.CUDA = 1;
  // Offsets are measured from a location of raw encoding 1.
  clang::SourceLocation Start = clang::SourceLocation::getFromRawEncoding(1);
  clang::Lexer Lex(Start, Lang, Text.begin(), Text.begin(), Text.end());
  std::vector<RawToken> Tokens;
  clang::Token Tok;
  for (;;) {
    Lex.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::eof))
      break;
    size_t Offset = Tok.getLocation().getRawEncoding() - 1;
    Tokens.push_back({Tok.getKind(), Offset, Tok.getLength(),
                      Text.substr(Offset, Tok.getLength())});
  }
  return Tokens;
}

} // namespace warpfix
