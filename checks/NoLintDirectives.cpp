#include "checks/NoLintDirectives.h"
#include "checks/FindingSink.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/GlobPattern.h"
#include <optional>
#include <string>
#include <vector>

using namespace clang;

namespace warpfix {
namespace {

enum class Kind { NoLint, NextLine, Begin, End };

/// One directive, as written in a comment.
struct Directive {
  Kind Type;
  /// Offset of the 'N' of "NOLINT" in the file.
  unsigned Offset;
  /// The check list with the whitespace around each name removed, as written
  /// between the parentheses; none for a bare directive, which names every
  /// check. A NOLINTEND closes a NOLINTBEGIN only if their lists are equal.
  std::optional<std::string> Checks;
  /// The globs of the list. Negative ones ("-check") are dropped, as
  /// clang-tidy does: a suppression cannot un-suppress.
  std::vector<llvm::GlobPattern> Globs;
  /// Names that are not valid globs ("[x"), compared literally.
  std::vector<std::string> Literals;

  bool names(llvm::StringRef Check) const {
    if (!Checks)
      return true;
    return llvm::any_of(Globs,
                        [&](const llvm::GlobPattern &G) {
                          return G.match(Check);
                        }) ||
           llvm::is_contained(Literals, Check);
  }
};

Directive makeDirective(Kind Type, unsigned Offset,
                        std::optional<llvm::StringRef> List) {
  Directive D{Type, Offset, std::nullopt, {}, {}};
  if (!List)
    return D;
  llvm::SmallVector<llvm::StringRef, 4> Names;
  List->split(Names, ',');
  for (llvm::StringRef &Name : Names) {
    Name = Name.trim();
    if (Name.empty() || Name.starts_with("-"))
      continue;
    if (llvm::Expected<llvm::GlobPattern> Glob =
            llvm::GlobPattern::create(Name))
      D.Globs.push_back(std::move(*Glob));
    else {
      llvm::consumeError(Glob.takeError());
      D.Literals.push_back(Name.str());
    }
  }
  D.Checks = llvm::join(Names, ",");
  return D;
}

/// Appends the directives in the text of one comment that starts at Offset.
/// "NOLINT" followed by letters must spell one of the four kinds exactly; a
/// check list must open right after it and close on the same line, else the
/// directive is bare (clang-tidy reads "NOLINT(x" as "NOLINT").
void parseComment(llvm::StringRef Text, unsigned Offset,
                  std::vector<Directive> &Out) {
  static constexpr llvm::StringLiteral Word = "NOLINT";
  size_t Pos = 0;
  while ((Pos = Text.find(Word, Pos)) != llvm::StringRef::npos) {
    size_t Start = Pos;
    Pos += Word.size();
    while (Pos < Text.size() && llvm::isAlpha(Text[Pos]))
      ++Pos;
    std::optional<Kind> Type =
        llvm::StringSwitch<std::optional<Kind>>(Text.slice(Start, Pos))
            .Case("NOLINT", Kind::NoLint)
            .Case("NOLINTNEXTLINE", Kind::NextLine)
            .Case("NOLINTBEGIN", Kind::Begin)
            .Case("NOLINTEND", Kind::End)
            .Default(std::nullopt);
    if (!Type)
      continue;
    std::optional<llvm::StringRef> List;
    if (Pos < Text.size() && Text[Pos] == '(') {
      size_t Close = Text.find_first_of("\n)", Pos + 1);
      if (Close != llvm::StringRef::npos && Text[Close] == ')') {
        List = Text.slice(Pos + 1, Close);
        Pos = Close + 1;
      }
    }
    Out.push_back(makeDirective(*Type, Offset + Start, List));
  }
}

/// The half-open offsets [start, end) of the line holding Pos, without its
/// line break.
std::pair<size_t, size_t> lineAround(llvm::StringRef Buffer, size_t Pos) {
  size_t Start = Buffer.find_last_of('\n', Pos) + 1; // npos + 1 == 0
  size_t End = std::min(Buffer.find('\n', Pos), Buffer.size());
  return {Start, End};
}

} // namespace

struct NoLintDirectives::FileDirectives {
  struct Block {
    unsigned Begin, End;
    size_t Opener; // index of the NOLINTBEGIN in Directives
  };

  llvm::StringRef Buffer;
  std::vector<Directive> Directives;
  std::vector<Block> Blocks;
  /// Indices of the NOLINTBEGINs and NOLINTENDs that pair with nothing.
  std::vector<size_t> Unmatched;

  /// Pairs each NOLINTEND with the innermost open NOLINTBEGIN. Blocks nest
  /// and never overlap: an END whose list differs from the innermost open
  /// BEGIN's is unmatched, and that BEGIN stays open.
  void formBlocks() {
    std::vector<size_t> Open;
    for (size_t I = 0; I < Directives.size(); ++I) {
      const Directive &D = Directives[I];
      if (D.Type == Kind::Begin) {
        Open.push_back(I);
      } else if (D.Type == Kind::End) {
        if (!Open.empty() && Directives[Open.back()].Checks == D.Checks) {
          Blocks.push_back({Directives[Open.back()].Offset, D.Offset,
                            Open.back()});
          Open.pop_back();
        } else {
          Unmatched.push_back(I);
        }
      }
    }
    Unmatched.insert(Unmatched.end(), Open.begin(), Open.end());
    llvm::sort(Unmatched);
  }

  bool suppresses(llvm::StringRef Check, unsigned Pos) const {
    if (Directives.empty())
      return false;
    auto [LineStart, LineEnd] = lineAround(Buffer, Pos);
    std::optional<std::pair<size_t, size_t>> Previous;
    if (LineStart > 0)
      Previous = lineAround(Buffer, LineStart - 1);
    // Directives are in file order: only those on this line and the one
    // before are looked at, not every directive of the file per finding.
    size_t From = Previous ? Previous->first : LineStart;
    auto It = llvm::partition_point(
        Directives, [&](const Directive &D) { return D.Offset < From; });
    for (; It != Directives.end() && It->Offset < LineEnd; ++It) {
      const Directive &D = *It;
      if (D.Type == Kind::NoLint && LineStart <= D.Offset &&
          D.Offset < LineEnd && D.names(Check))
        return true;
      if (D.Type == Kind::NextLine && Previous &&
          Previous->first <= D.Offset && D.Offset < Previous->second &&
          D.names(Check))
        return true;
    }
    return llvm::any_of(Blocks, [&](const Block &B) {
      return B.Begin < Pos && Pos < B.End && Directives[B.Opener].names(Check);
    });
  }
};

NoLintDirectives::NoLintDirectives(const SourceManager &SM,
                                   const LangOptions &LangOpts)
    : SM(SM), LangOpts(LangOpts) {}

NoLintDirectives::~NoLintDirectives() = default;

const NoLintDirectives::FileDirectives *
NoLintDirectives::directivesOf(FileID File) {
  // Findings come in the order of the walk, mostly many in one file in a row.
  if (File == LastFile)
    return LastDirectives;
  LastFile = File;
  LastDirectives = scanned(File);
  return LastDirectives;
}

const NoLintDirectives::FileDirectives *
NoLintDirectives::scanned(FileID File) {
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry)
    return nullptr;
  std::unique_ptr<FileDirectives> &Slot = Cache[&Entry->getFileEntry()];
  if (Slot)
    return Slot.get();
  Slot = std::make_unique<FileDirectives>();
  std::optional<llvm::MemoryBufferRef> Buffer = SM.getBufferOrNone(File);
  if (!Buffer)
    return Slot.get();
  Slot->Buffer = Buffer->getBuffer();
  if (!Slot->Buffer.contains("NOLINT"))
    return Slot.get();
  // The raw lexer knows string, character and raw string literals, so a
  // "// NOLINT" inside one is not taken for a comment.
  Lexer Lex(File, *Buffer, SM, LangOpts);
  Lex.SetCommentRetentionState(true);
  Token Tok;
  while (!Lex.LexFromRawLexer(Tok)) {
    if (!Tok.is(tok::comment))
      continue;
    unsigned Offset = SM.getFileOffset(Tok.getLocation());
    parseComment(Slot->Buffer.substr(Offset, Tok.getLength()), Offset,
                 Slot->Directives);
  }
  // The last token may be a comment that ends the file.
  if (Tok.is(tok::comment)) {
    unsigned Offset = SM.getFileOffset(Tok.getLocation());
    parseComment(Slot->Buffer.substr(Offset, Tok.getLength()), Offset,
                 Slot->Directives);
  }
  Slot->formBlocks();
  return Slot.get();
}

bool NoLintDirectives::isSuppressed(llvm::StringRef Check,
                                    SourceLocation Loc) {
  if (Check == NoLintCheckName)
    return false;
  while (Loc.isValid()) {
    auto [File, Offset] = SM.getDecomposedSpellingLoc(Loc);
    if (const FileDirectives *Directives = directivesOf(File))
      if (Directives->suppresses(Check, Offset))
        return true;
    if (!Loc.isMacroID())
      return false;
    // For a macro argument this is where the parameter stands in the body,
    // whose own expansion leads on to the place the macro was used.
    Loc = SM.getImmediateExpansionRange(Loc).getBegin();
  }
  return false;
}

void NoLintDirectives::reportUnmatched(FindingSink &Sink) {
  // Cheap test first: most files, and nearly all system headers, never
  // mention NOLINT, and translateFile walks the whole entry table. Taken
  // from the table before translating: translating a file may load a
  // preamble's entries into that same table, which would move it under the
  // loop.
  std::vector<FileEntryRef> Mentioning;
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
    std::optional<llvm::MemoryBufferRef> Buffer =
        It->second->getBufferIfLoaded();
    if (Buffer && Buffer->getBuffer().contains("NOLINT"))
      Mentioning.push_back(It->first);
  }
  for (FileEntryRef Entry : Mentioning) {
    FileID File = SM.translateFile(Entry);
    if (File.isInvalid() ||
        SrcMgr::isSystem(SM.getFileCharacteristic(SM.getLocForStartOfFile(File))))
      continue;
    const FileDirectives *Directives = directivesOf(File);
    if (!Directives)
      continue;
    for (size_t I : Directives->Unmatched) {
      const Directive &D = Directives->Directives[I];
      Sink.report(NoLintCheckName, SM.getComposedLoc(File, D.Offset),
                  D.Type == Kind::Begin
                      ? "unmatched 'NOLINTBEGIN' comment without a "
                        "subsequent 'NOLINTEND' comment"
                      : "unmatched 'NOLINTEND' comment without a previous "
                        "'NOLINTBEGIN' comment");
    }
  }
}

} // namespace warpfix
