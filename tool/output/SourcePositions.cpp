#include "tool/output/SourcePositions.h"
#include "clang/Basic/DiagnosticOptions.h"

using namespace clang;

namespace warpfix {
namespace {

unsigned countCodePoints(llvm::StringRef Bytes) {
  return llvm::count_if(Bytes, [](char C) { return (C & 0xC0) != 0x80; });
}

} // namespace

SourcePositions::SourcePositions(DiagnosticsEngine *Diags)
    : Files(FileSystemOptions()) {
  if (!Diags) {
    OwnDiags = std::make_unique<DiagnosticsEngine>(
        new DiagnosticIDs(), new DiagnosticOptions(), new IgnoringDiagConsumer());
    Diags = OwnDiags.get();
  }
  Sources = std::make_unique<SourceManager>(*Diags, Files);
}

void SourcePositions::load(
    const std::vector<tooling::Diagnostic> &Findings) {
  for (const tooling::Diagnostic &D : Findings) {
    locate(D.Message.FilePath, 0);
    for (const tooling::DiagnosticMessage &Note : D.Notes)
      locate(Note.FilePath, 0);
    for (const auto &Entry : D.Message.Fix)
      locate(Entry.getKey(), 0);
  }
}

SourceLocation SourcePositions::locate(llvm::StringRef Path, unsigned Offset) {
  if (Path.empty())
    return {};
  // Findings come sorted by file, and each asks for its file a few times: the
  // file asked for last is kept (a failure is not, and is asked again).
  if (LastFile.isInvalid() || Path != LastPath) {
    LastFile = FileID();
    llvm::Expected<FileEntryRef> File = Files.getFileRef(Path);
    if (!File) {
      llvm::consumeError(File.takeError());
      return {};
    }
    FileID ID = Sources->getOrCreateFileID(*File, SrcMgr::C_User);
    std::optional<llvm::MemoryBufferRef> Buffer = Sources->getBufferOrNone(ID);
    if (!Buffer)
      return {};
    LastPath = Path.str();
    LastFile = ID;
    LastSize = Buffer->getBufferSize();
  }
  if (Offset > LastSize)
    return {};
  return Sources->getLocForStartOfFile(LastFile).getLocWithOffset(Offset);
}

std::optional<SourcePosition> SourcePositions::position(llvm::StringRef Path,
                                                        unsigned Offset) {
  SourceLocation Loc = locate(Path, Offset);
  if (Loc.isInvalid())
    return std::nullopt;
  bool Invalid = false;
  SourcePosition P;
  P.Line = Sources->getSpellingLineNumber(Loc, &Invalid);
  P.Column = Sources->getSpellingColumnNumber(Loc, &Invalid);
  if (Invalid)
    return std::nullopt;
  FileID File = Sources->getFileID(Loc);
  llvm::StringRef Text = Sources->getBufferData(File);
  P.CodePointOffset = codePointsBefore(File, Text, Offset);
  P.CodePointColumn =
      1 + countCodePoints(Text.slice(Offset - (P.Column - 1), Offset));
  return P;
}

unsigned SourcePositions::codePointsBefore(FileID File, llvm::StringRef Text,
                                           unsigned Offset) {
  // Counted once per file, by blocks: a finding then costs a block at most,
  // where counting from the start of the file made the reports quadratic.
  std::vector<unsigned> &Blocks = CodePointsAtBlock[File];
  if (Blocks.empty()) {
    Blocks.push_back(0);
    for (size_t At = 0; At + CodePointBlock <= Text.size(); At += CodePointBlock)
      Blocks.push_back(Blocks.back() +
                       countCodePoints(Text.substr(At, CodePointBlock)));
  }
  unsigned Block = Offset / CodePointBlock;
  return Blocks[Block] +
         countCodePoints(Text.slice(Block * CodePointBlock, Offset));
}

std::optional<unsigned> SourcePositions::codePointLength(llvm::StringRef Path,
                                                         unsigned Offset,
                                                         unsigned Length) {
  SourceLocation Loc = locate(Path, Offset + Length);
  if (Loc.isInvalid())
    return std::nullopt;
  llvm::StringRef Text = Sources->getBufferData(Sources->getFileID(Loc));
  return countCodePoints(Text.slice(Offset, Offset + Length));
}

} // namespace warpfix
