// Maps (file, byte offset) to line and column for the reports. The ASTs the
// findings came from are gone, so the files are opened again, each once, and
// kept: after --fix rewrites a file, its positions still describe the content
// that was analysed.
#ifndef WARPFIX_TOOL_OUTPUT_SOURCEPOSITIONS_H
#define WARPFIX_TOOL_OUTPUT_SOURCEPOSITIONS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// 1-based, like clang's diagnostics. Column counts bytes; the CodePoint
/// fields count Unicode code points (UTF-8 lead bytes), as SARIF's
/// "unicodeCodePoints" column kind wants, with CodePointOffset from the start
/// of the file.
struct SourcePosition {
  unsigned Line = 0;
  unsigned Column = 0;
  unsigned CodePointColumn = 0;
  unsigned CodePointOffset = 0;
};

class SourcePositions {
public:
  /// Errors opening a file go to Diags (the text report's engine), or are
  /// dropped when there is none: the position is then simply unknown.
  explicit SourcePositions(clang::DiagnosticsEngine *Diags = nullptr);

  /// Reads now every file the findings point at: their locations, notes and
  /// edits. Call it before --fix writes anything.
  void load(const std::vector<clang::tooling::Diagnostic> &Findings);

  /// An invalid location when the file cannot be read or is shorter.
  clang::SourceLocation locate(llvm::StringRef Path, unsigned Offset);
  std::optional<SourcePosition> position(llvm::StringRef Path, unsigned Offset);
  /// How many code points the Length bytes at Offset hold.
  std::optional<unsigned> codePointLength(llvm::StringRef Path, unsigned Offset,
                                          unsigned Length);

  clang::SourceManager &sources() { return *Sources; }

private:
  /// Code points in Text (File's content) before Offset.
  unsigned codePointsBefore(clang::FileID File, llvm::StringRef Text,
                            unsigned Offset);

  std::unique_ptr<clang::DiagnosticsEngine> OwnDiags;
  clang::FileManager Files;
  std::unique_ptr<clang::SourceManager> Sources;
  /// For each file, the code points before each block of CodePointBlock bytes.
  static constexpr unsigned CodePointBlock = 4096;
  llvm::DenseMap<clang::FileID, std::vector<unsigned>> CodePointsAtBlock;
  /// The file that locate() found last, by the path it was asked for.
  std::string LastPath;
  clang::FileID LastFile;
  unsigned LastSize = 0;
};

} // namespace warpfix

#endif
