// Statements as text of their file: where their lines begin and end, for
// fixes that wrap, move or delete whole statements and must leave every
// other line as it was.
#ifndef WARPFIX_CHECKS_STATEMENTTEXT_H
#define WARPFIX_CHECKS_STATEMENTTEXT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include <optional>

namespace warpfix {

/// The text of one file, in offsets: where lines start and end.
class FileText {
public:
  FileText(const clang::SourceManager &SM, clang::FileID File)
      : SM(SM), File(File), Buffer(SM.getBufferData(File)) {}

  unsigned offsetOf(clang::SourceLocation Loc) const {
    return SM.getFileOffset(Loc);
  }
  clang::SourceLocation at(unsigned Offset) const {
    return SM.getComposedLoc(File, Offset);
  }
  unsigned lineStart(unsigned Offset) const {
    size_t NewLine =
        Offset == 0 ? llvm::StringRef::npos : Buffer.rfind('\n', Offset - 1);
    return NewLine == llvm::StringRef::npos ? 0 : NewLine + 1;
  }
  /// Past the end of Offset's line, its line break included.
  unsigned nextLineStart(unsigned Offset) const {
    size_t NewLine = Buffer.find('\n', Offset);
    return NewLine == llvm::StringRef::npos ? Buffer.size() : NewLine + 1;
  }
  llvm::StringRef line(unsigned Start) const {
    return Buffer.slice(Start, Buffer.find('\n', Start)).rtrim('\r');
  }
  /// Whether only blanks stand between the start of Offset's line and it.
  bool startsLine(unsigned Offset) const {
    return Buffer.slice(lineStart(Offset), Offset).ltrim(" \t").empty();
  }
  /// Whether only blanks, or a line comment, follow Offset on its line,
  /// and the line does not go on into the next (a `\` at its end would
  /// take a line written after it into the comment).
  bool endsLine(unsigned Offset) const {
    llvm::StringRef Rest = line(Offset).ltrim(" \t");
    return (Rest.empty() || Rest.starts_with("//")) &&
           !Rest.rtrim(" \t").ends_with("\\");
  }
  /// Whether text written at Start, the start of a line, begins a line of
  /// its own: the line before does not go on into it.
  bool beginsLogicalLine(unsigned Start) const {
    return Start == 0 ||
           !line(lineStart(Start - 1)).rtrim(" \t").ends_with("\\");
  }
  llvm::StringRef slice(unsigned From, unsigned To) const {
    return Buffer.slice(From, To);
  }
  llvm::StringRef lineEnding() const {
    size_t NewLine = Buffer.find('\n');
    return NewLine != llvm::StringRef::npos && NewLine > 0 &&
                   Buffer[NewLine - 1] == '\r'
               ? "\r\n"
               : "\n";
  }

private:
  const clang::SourceManager &SM;
  clang::FileID File;
  llvm::StringRef Buffer;
};

/// Where a statement's text begins and ends in its file: past its `;` where
/// the statement is an expression, whose range leaves the `;` out.
struct StatementText {
  unsigned Begin, End;
};

/// S's text in File, or nothing where S is written by a macro, or in
/// another file.
std::optional<StatementText> textOf(const clang::Stmt *S, const FileText &Text,
                                    clang::FileID File, clang::ASTContext &Ctx);

/// Where the line of S begins, the `#pragma` lines right above it that
/// belong to it (`#pragma unroll`) included; nothing where S does not begin
/// its line.
std::optional<unsigned> firstLineOf(const clang::Stmt *S, unsigned Begin,
                                    const FileText &Text);

enum class Directives {
  /// `#if`, `#ifdef`, `#elif`, `#else`, `#endif`: a statement written among
  /// them lands in one configuration's arm.
  Conditional,
  /// Every directive but `#pragma`: statements wrapped around a `#define`
  /// or an `#include` would change what it applies to too.
  AllButPragma,
};

/// A line of the preprocessor of the kind Which on the lines from From's to
/// To.
bool directiveBetween(const FileText &Text, unsigned From, unsigned To,
                      Directives Which);

} // namespace warpfix

#endif
