#include "checks/analysis/InlinePtx.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace warpfix {

SourceLocation InlinePtx::locationOf(unsigned Byte,
                                     const ASTContext &Ctx) const {
  return Asm->getAsmString()->getLocationOfByte(
      Byte, Ctx.getSourceManager(), Ctx.getLangOpts(), Ctx.getTargetInfo());
}

SourceLocation InlinePtx::insertionAfter(unsigned Byte,
                                         const ASTContext &Ctx) const {
  if (Byte == 0)
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Previous = SM.getSpellingLoc(locationOf(Byte - 1, Ctx));
  bool Invalid = false;
  const char *Spelled = SM.getCharacterData(Previous, &Invalid);
  char Expected = Asm->getAsmString()->getString()[Byte - 1];
  // The byte must be spelled as itself: after an escape sequence (`\x41`)
  // one character further is not the end of the byte.
  if (Invalid || *Spelled != Expected || Expected == '\\')
    return {};
  return Previous.getLocWithOffset(1);
}

std::string InlinePtx::rewritten(const ptx::Instruction &I,
                                 llvm::ArrayRef<ptx::Edit> Edits) const {
  llvm::StringRef Text = Asm->getAsmString()->getString().slice(
      I.Whole.Begin, I.Whole.End);
  std::vector<ptx::Edit> Shifted;
  for (const ptx::Edit &E : Edits)
    Shifted.push_back({E.Offset - I.Whole.Begin, E.Length, E.Text});
  return ptx::apply(Text, Shifted);
}

std::optional<InlinePtx> readInlinePtx(const GCCAsmStmt &Asm,
                                       const ASTContext &Ctx) {
  const StringLiteral *Literal = Asm.getAsmString();
  if (!Literal || !Literal->isOrdinary())
    return std::nullopt;
  std::optional<ptx::Template> Template = ptx::parse(
      Literal->getString(),
      Asm.isSimple() ? ptx::Syntax::Basic : ptx::Syntax::Extended);
  if (!Template)
    return std::nullopt;
  InlinePtx Result;
  Result.Asm = &Asm;
  Result.Template = std::move(*Template);
  for (const ptx::OperandRef &Ref : Result.Template.References) {
    int Number = Ref.Number ? int(*Ref.Number) : Asm.getNamedOperand(Ref.Name);
    Result.OperandNumbers.push_back(Number < 0 ? ~0u : unsigned(Number));
  }
  // Clang's reading is the authority: the same references, in order.
  llvm::SmallVector<GCCAsmStmt::AsmStringPiece, 8> Pieces;
  unsigned DiagOffset = 0;
  if (Asm.AnalyzeAsmString(Pieces, Ctx, DiagOffset) != 0)
    return Result;
  std::vector<unsigned> ClangNumbers;
  for (const GCCAsmStmt::AsmStringPiece &Piece : Pieces)
    if (Piece.isOperand())
      ClangNumbers.push_back(Piece.getOperandNo());
  Result.AgreesWithClang = ClangNumbers == Result.OperandNumbers;
  return Result;
}

bool isDeviceFunction(const FunctionDecl &F) {
  return F.hasAttr<CUDADeviceAttr>() || F.hasAttr<CUDAGlobalAttr>();
}

std::optional<std::vector<asmops::Token>>
asmStatementTokens(const GCCAsmStmt &Asm, const ASTContext &Ctx,
                   std::string &Why) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = Asm.getAsmLoc(), End = Asm.getRParenLoc();
  if (Begin.isMacroID() || End.isMacroID() ||
      SM.getFileID(Begin) != SM.getFileID(End)) {
    Why = "the asm statement is written by a macro, so no operand can be "
          "appended to it in one place";
    return std::nullopt;
  }
  auto [File, BeginOffset] = SM.getDecomposedLoc(Begin);
  unsigned EndOffset = SM.getFileOffset(End);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid) {
    Why = "the source of the asm statement could not be read";
    return std::nullopt;
  }
  Lexer Raw(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(),
            Buffer.begin() + BeginOffset, Buffer.end());
  std::vector<asmops::Token> Tokens;
  Token Tok;
  while (true) {
    bool AtEnd = Raw.LexFromRawLexer(Tok);
    unsigned Offset = SM.getFileOffset(Tok.getLocation());
    if (Offset > EndOffset || (AtEnd && Tok.is(tok::eof)))
      break;
    asmops::Token::Kind Kind = asmops::Token::Other;
    switch (Tok.getKind()) {
    case tok::l_paren: Kind = asmops::Token::LParen; break;
    case tok::r_paren: Kind = asmops::Token::RParen; break;
    case tok::l_square: Kind = asmops::Token::LSquare; break;
    case tok::r_square: Kind = asmops::Token::RSquare; break;
    case tok::colon: Kind = asmops::Token::Colon; break;
    case tok::coloncolon: Kind = asmops::Token::ColonColon; break;
    case tok::comma: Kind = asmops::Token::Comma; break;
    default: break;
    }
    Tokens.push_back({Kind, Offset, Tok.getLength()});
    if (Offset == EndOffset || AtEnd)
      break;
  }
  return Tokens;
}

} // namespace warpfix
