#include "checks/StatementText.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace warpfix {

std::optional<StatementText> textOf(const Stmt *S, const FileText &Text,
                                    FileID File, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid() || SM.getFileID(Range.getBegin()) != File)
    return std::nullopt;
  unsigned Begin = Text.offsetOf(Range.getBegin());
  unsigned End = Text.offsetOf(Range.getEnd());
  if (isa<CompoundStmt, DeclStmt, NullStmt>(S))
    return StatementText{Begin, End};
  // An expression, a return, or an if or loop whose body is one: the `;`
  // after the last token ends it.
  llvm::StringRef After = Text.slice(End, End + 256);
  size_t Semicolon = After.find_first_not_of(" \t");
  bool Ended = Semicolon != llvm::StringRef::npos && After[Semicolon] == ';';
  if (Ended)
    End += Semicolon + 1;
  else if (isa<Expr, DoStmt, ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
    return std::nullopt;
  return StatementText{Begin, End};
}

std::optional<unsigned> firstLineOf(const Stmt *S, unsigned Begin,
                                    const FileText &Text) {
  // A loop under `#pragma unroll` begins, for clang, at the pragma's tokens.
  if (!Text.startsLine(Begin) && !isa<AttributedStmt>(S))
    return std::nullopt;
  unsigned Start = Text.lineStart(Begin);
  while (Start > 0) {
    unsigned Previous = Text.lineStart(Start - 1);
    if (!Text.line(Previous).ltrim().starts_with("#pragma"))
      break;
    Start = Previous;
  }
  return Start;
}

bool directiveBetween(const FileText &Text, unsigned From, unsigned To,
                      Directives Which) {
  for (unsigned Line = Text.lineStart(From); Line < To;
       Line = Text.nextLineStart(Line)) {
    llvm::StringRef Directive = Text.line(Line).ltrim();
    if (!Directive.consume_front("#"))
      continue;
    Directive = Directive.ltrim();
    if (Which == Directives::AllButPragma
            ? !Directive.starts_with("pragma")
            : Directive.starts_with("if") || Directive.starts_with("el") ||
                  Directive.starts_with("endif"))
      return true;
  }
  return false;
}

} // namespace warpfix
