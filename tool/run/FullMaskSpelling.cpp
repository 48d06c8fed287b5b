#include "tool/run/FullMaskSpelling.h"
#include "checks/MaskFix.h"
#include "tool/input/Config.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using clang::tooling::DiagnosticMessage;
using clang::tooling::Replacement;
using clang::tooling::Replacements;

namespace warpfix {
namespace {

/// The value of an object-like macro's expansion at a place, where it is made
/// of integer literals, parentheses, unary + - ~ and other object-like
/// macros; in 64 bits, whose low 32 are what a mask parameter receives.
/// Anything else (a cast, a binary operator, a variable) is not evaluated.
class MacroValue {
public:
  MacroValue(Preprocessor &PP, SourceLocation At) : PP(PP), At(At) {}

  std::optional<uint64_t> of(const IdentifierInfo *Name) {
    const MacroInfo *Info = PP.getMacroDefinitionAtLoc(Name, At).getMacroInfo();
    // The definition must be the unit's last: a fix in a macro body takes
    // the name's meaning at each expansion, after the edit's place.
    constexpr size_t MaxDepth = 8, MaxTokens = 64;
    if (!Info || Info != PP.getMacroInfo(Name) || Info->isFunctionLike() ||
        Info->getNumTokens() > MaxTokens || Expanding.size() == MaxDepth ||
        llvm::is_contained(Expanding, Name))
      return std::nullopt;
    Expanding.push_back(Name);
    size_t Next = 0;
    llvm::ArrayRef<Token> Tokens = Info->tokens();
    std::optional<uint64_t> Value = unary(Tokens, Next);
    Expanding.pop_back();
    return Value && Next == Tokens.size() ? Value : std::nullopt;
  }

private:
  std::optional<uint64_t> unary(llvm::ArrayRef<Token> Tokens, size_t &Next) {
    if (Next == Tokens.size())
      return std::nullopt;
    const Token &T = Tokens[Next++];
    std::optional<uint64_t> Value;
    switch (T.getKind()) {
    case tok::plus:
      return unary(Tokens, Next);
    case tok::minus:
      if ((Value = unary(Tokens, Next)))
        *Value = 0 - *Value;
      return Value;
    case tok::tilde:
      if ((Value = unary(Tokens, Next)))
        *Value = ~*Value;
      return Value;
    case tok::l_paren:
      Value = unary(Tokens, Next);
      if (!Value || Next == Tokens.size() || Tokens[Next++].isNot(tok::r_paren))
        return std::nullopt;
      return Value;
    case tok::numeric_constant:
      return integerLiteralValue(PP.getSpelling(T));
    case tok::identifier:
      return of(T.getIdentifierInfo());
    default:
      return std::nullopt;
    }
  }

  Preprocessor &PP;
  SourceLocation At;
  llvm::SmallVector<const IdentifierInfo *, 4> Expanding;
};

/// Why Name, written at At, would not be the full mask; nothing if it is.
std::optional<std::string> whyNotFullMask(Preprocessor &PP,
                                          llvm::StringRef Name,
                                          SourceLocation At) {
  const IdentifierInfo *II = PP.getIdentifierInfo(Name);
  const MacroInfo *Info = PP.getMacroDefinitionAtLoc(II, At).getMacroInfo();
  if (!Info)
    return std::string("it is not defined as a macro here");
  if (Info->isFunctionLike())
    return std::string("it is a function-like macro here");
  if (Info != PP.getMacroInfo(II))
    return std::string("it is defined again or undefined later in the "
                       "translation unit");
  std::string Body;
  for (const Token &T : Info->tokens())
    Body += (Body.empty() || !T.hasLeadingSpace() ? "" : " ") +
            PP.getSpelling(T);
  std::optional<uint64_t> Value = MacroValue(PP, At).of(II);
  if (!Value)
    return "it expands to '" + Body +
           "' here, which warpfix cannot show to be 0xffffffff";
  // Both have the 32 low bits set: ~0u, -1 and 0xffffffff pass.
  if (*Value != 0xffffffff && *Value != ~uint64_t(0))
    return "it expands to '" + Body + "' here, whose value is 0x" +
           llvm::utohexstr(*Value, /*LowerCase=*/true) + ", not 0xffffffff";
  return std::nullopt;
}

/// Where Name stands as an identifier in Text, read as code.
std::vector<size_t> namesIn(llvm::StringRef Text, llvm::StringRef Name,
                            const LangOptions &LangOpts) {
  std::string Code = Text.str(); // the lexer reads up to a NUL
  Lexer Lex(SourceLocation(), LangOpts, Code.data(), Code.data(),
            Code.data() + Code.size());
  std::vector<size_t> Offsets;
  Token T;
  do {
    Lex.LexFromRawLexer(T);
    if (T.is(tok::raw_identifier) && T.getRawIdentifier() == Name)
      Offsets.push_back(T.getRawIdentifier().data() - Code.data());
  } while (T.isNot(tok::eof));
  return Offsets;
}

/// The FileIDs of every inclusion of each file in the unit, by path as the
/// findings name it.
class Inclusions {
public:
  explicit Inclusions(const SourceManager &SM) : SM(SM) {}

  llvm::ArrayRef<FileID> of(llvm::StringRef Path) {
    auto [It, New] = ByPath.try_emplace(Path);
    if (!New)
      return It->second;
    llvm::Expected<FileEntryRef> Entry =
        SM.getFileManager().getFileRef(Path, /*OpenFile=*/false);
    if (!Entry) {
      llvm::consumeError(Entry.takeError());
      return It->second;
    }
    if (ByEntry.empty())
      indexFileIDs();
    auto Found = ByEntry.find(&Entry->getFileEntry());
    if (Found != ByEntry.end())
      It->second = Found->second;
    return It->second;
  }

private:
  void indexFileIDs() {
    // Entry 0 is a sentinel. The files of a precompiled preamble are loaded
    // entries: system headers, which no fix edits.
    for (unsigned I = 1; I < SM.local_sloc_entry_size(); ++I) {
      const SrcMgr::SLocEntry &Entry = SM.getLocalSLocEntry(I);
      if (!Entry.isFile())
        continue;
      if (OptionalFileEntryRef File =
              Entry.getFile().getContentCache().OrigEntry)
        // A file's start location is encoded as its offset.
        ByEntry[&File->getFileEntry()].push_back(SM.getFileID(
            SourceLocation::getFromRawEncoding(Entry.getOffset())));
    }
  }

  const SourceManager &SM;
  llvm::StringMap<std::vector<FileID>> ByPath;
  llvm::DenseMap<const FileEntry *, std::vector<FileID>> ByEntry;
};

/// Why Name, written by R, would not be the full mask in some inclusion of
/// R's file (at each end of R); nothing if it is in all.
std::optional<std::string> whyNotFullMask(Preprocessor &PP,
                                          Inclusions &Files,
                                          llvm::StringRef Name,
                                          const Replacement &R) {
  const SourceManager &SM = PP.getSourceManager();
  llvm::ArrayRef<FileID> IDs = Files.of(R.getFilePath());
  if (IDs.empty())
    return std::string("its file is not found among the unit's");
  for (FileID ID : IDs) {
    SourceLocation Start = SM.getLocForStartOfFile(ID);
    for (unsigned Offset : {R.getOffset(), R.getOffset() + R.getLength()})
      if (std::optional<std::string> Why =
              whyNotFullMask(PP, Name, Start.getLocWithOffset(Offset)))
        return Why;
  }
  return std::nullopt;
}

DiagnosticMessage noteAt(const Replacement &R, std::string Text) {
  DiagnosticMessage Note(Text);
  Note.FilePath = R.getFilePath().str();
  Note.FileOffset = R.getOffset();
  return Note;
}

} // namespace

void reviewFullMaskSpellings(std::vector<tooling::Diagnostic> &Findings,
                             Preprocessor &PP, const CheckOptions &Options) {
  const SourceManager &SM = PP.getSourceManager();
  Inclusions Files(SM);
  for (tooling::Diagnostic &D : Findings) {
    std::string Name = Options.get(D.DiagnosticName, FullMaskSpellingOption);
    // A literal's value was checked with the configuration.
    if (D.Message.Fix.empty() || !isValidAsciiIdentifier(Name))
      continue;
    llvm::StringMap<Replacements> Reviewed;
    std::optional<DiagnosticMessage> Note;
    bool Refused = false;
    for (const auto &Entry : D.Message.Fix) {
      if (Refused)
        break;
      for (const Replacement &R : Entry.second) {
        std::string Text = R.getReplacementText().str();
        std::vector<size_t> Written = namesIn(Text, Name, PP.getLangOpts());
        std::optional<std::string> Why =
            Written.empty() ? std::nullopt
                            : whyNotFullMask(PP, Files, Name, R);
        if (Why) {
          llvm::ArrayRef<FileID> IDs = Files.of(R.getFilePath());
          llvm::StringRef Replaced =
              IDs.empty() ? llvm::StringRef()
                          : SM.getBufferData(IDs.front())
                                .substr(R.getOffset(), R.getLength());
          // Names the fix copies from the code are the code's; only those
          // it adds are known to mean the full mask.
          bool Copied = !namesIn(Replaced, Name, PP.getLangOpts()).empty();
          if (IDs.empty() || Copied) {
            Refused = true;
            Note = noteAt(R, "no automatic fix: FullMaskSpelling '" + Name +
                                 "' cannot be written here (" + *Why + ")" +
                                 (Copied ? ", and the code the fix replaces "
                                           "names it"
                                         : ""));
            break;
          }
          for (auto It = Written.rbegin(); It != Written.rend(); ++It)
            Text.replace(*It, Name.size(), "0xffffffff");
          if (!Note)
            Note = noteAt(R, "the full mask is written 0xffffffff, not "
                             "FullMaskSpelling '" + Name + "': " + *Why);
        }
        // In the fix's order, which the texts do not change.
        llvm::cantFail(Reviewed[Entry.getKey()].add(Replacement(
            R.getFilePath(), R.getOffset(), R.getLength(), Text)));
      }
    }
    if (Refused)
      D.Message.Fix.clear();
    else
      D.Message.Fix = std::move(Reviewed);
    if (Note)
      D.Notes.push_back(std::move(*Note));
  }
}

} // namespace warpfix
