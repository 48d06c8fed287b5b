#include "tool/input/LaunchChevrons.h"
#include "support/FileIdentity.h"
#include "tool/input/AsmRegisters.h"
#include "tool/input/RawTokens.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/MemoryBuffer.h"
#include <vector>

namespace warpfix {
namespace {

bool onlySpaceBetween(llvm::StringRef Text, const RawToken &A,
                      const RawToken &B) {
  size_t From = A.Offset + A.Length;
  return B.Offset > From &&
         Text.slice(From, B.Offset).find_first_not_of(" \t\r\n") ==
             llvm::StringRef::npos;
}

/// Whether Tokens[I], Tokens[I + 1] are `<<` and `<` split by spaces, where a
/// launch may start: after a name, a template's `>`, or `)`.
bool spacedOpening(llvm::StringRef Text, const std::vector<RawToken> &Tokens,
                   size_t I) {
  if (I == 0 || I + 1 >= Tokens.size() ||
      Tokens[I].Kind != clang::tok::lessless ||
      Tokens[I + 1].Kind != clang::tok::less ||
      !onlySpaceBetween(Text, Tokens[I], Tokens[I + 1]))
    return false;
  const RawToken &Before = Tokens[I - 1];
  if (Before.Kind == clang::tok::raw_identifier)
    return Before.Spelling != "operator";
  return Before.Kind == clang::tok::greater ||
         Before.Kind == clang::tok::greatergreater ||
         Before.Kind == clang::tok::r_paren;
}

/// Joins `XX ws X` at Tokens[I], Tokens[I + 1] into `XXX ws`.
void join(std::string &Out, const std::vector<RawToken> &Tokens, size_t I,
          char Chevron) {
  size_t From = Tokens[I].Offset, To = Tokens[I + 1].Offset + 1;
  std::string Joined(3, Chevron);
  Joined.append(To - From - 3, ' ');
  Out.replace(From, To - From, Joined);
}

} // namespace

std::optional<std::string> joinSpacedLaunchChevrons(llvm::StringRef Text) {
  // Not text: a shared preamble's precompiled header, tens of megabytes,
  // is read through the same file system. First, since scanning it for
  // chevrons cost a tenth of a run over CUB-heavy units.
  if (Text.contains('\0'))
    return std::nullopt;
  // Almost no file has `<<` or `>>` followed by spaces and a third chevron;
  // only those are lexed. A search for one character is a memchr; one for
  // two characters rebuilt a skip table at every `<<` of a shift.
  auto MaySplit = [&](char Chevron) {
    for (size_t At = Text.find(Chevron); At != llvm::StringRef::npos;
         At = Text.find(Chevron, At + 1)) {
      if (At + 1 >= Text.size() || Text[At + 1] != Chevron)
        continue;
      size_t Next = Text.find_first_not_of(" \t\r\n", At + 2);
      if (Next != At + 2 && Next != llvm::StringRef::npos &&
          Text[Next] == Chevron)
        return true;
      ++At;
    }
    return false;
  };
  if (!MaySplit('<') && !MaySplit('>'))
    return std::nullopt;
  // A buffer need not end in a NUL; a string does.
  std::string Source = Text.str();
  std::vector<RawToken> Tokens = rawTokens(Source);
  std::string Out;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    bool OpenSpaced = spacedOpening(Text, Tokens, I);
    if (!OpenSpaced && Tokens[I].Kind != clang::tok::lesslessless)
      continue;
    size_t Open = I;
    size_t AfterOpen = OpenSpaced ? I + 2 : I + 1;
    // The closing chevrons: at bracket depth 0, then `(`. A `;` or `{` at
    // depth 0 first means this was no launch.
    int Depth = 0;
    std::optional<size_t> Close;
    bool CloseSpaced = false;
    for (size_t J = AfterOpen; J < Tokens.size(); ++J) {
      clang::tok::TokenKind K = Tokens[J].Kind;
      if (K == clang::tok::l_paren || K == clang::tok::l_square)
        ++Depth;
      else if (K == clang::tok::r_paren || K == clang::tok::r_square) {
        if (--Depth < 0)
          break;
      } else if (Depth == 0 &&
                 (K == clang::tok::semi || K == clang::tok::l_brace ||
                  K == clang::tok::r_brace || K == clang::tok::lesslessless))
        break;
      else if (Depth == 0 && K == clang::tok::greatergreatergreater) {
        Close = J;
        break;
      } else if (Depth == 0 && K == clang::tok::greatergreater &&
                 J + 1 < Tokens.size() &&
                 Tokens[J + 1].Kind == clang::tok::greater &&
                 onlySpaceBetween(Text, Tokens[J], Tokens[J + 1])) {
        Close = J;
        CloseSpaced = true;
        break;
      }
    }
    if (!Close)
      continue;
    size_t Next = *Close + (CloseSpaced ? 2 : 1);
    if (Next >= Tokens.size() || Tokens[Next].Kind != clang::tok::l_paren)
      continue;
    if (!OpenSpaced && !CloseSpaced)
      continue;
    if (Out.empty())
      Out = Text.str();
    if (OpenSpaced)
      join(Out, Tokens, Open, '<');
    if (CloseSpaced)
      join(Out, Tokens, *Close, '>');
    I = Next;
  }
  if (Out.empty())
    return std::nullopt;
  return Out;
}

std::optional<std::string> asClangReadsIt(llvm::StringRef Text) {
  std::optional<std::string> Joined = joinSpacedLaunchChevrons(Text);
  std::optional<std::string> Escaped =
      escapeAsmSpecialRegisters(Joined ? llvm::StringRef(*Joined) : Text);
  return Escaped ? Escaped : Joined;
}

std::string hashAsClangReadsIt(llvm::StringRef Text) {
  std::optional<std::string> Shown = asClangReadsIt(Text);
  return contentHash(Shown ? llvm::StringRef(*Shown) : Text);
}

namespace {

class JoiningFile : public llvm::vfs::File {
public:
  explicit JoiningFile(std::unique_ptr<llvm::vfs::File> Inner)
      : Inner(std::move(Inner)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return Inner->status(); }
  llvm::ErrorOr<std::string> getName() override { return Inner->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
  getBuffer(const llvm::Twine &Name, int64_t FileSize,
            bool RequiresNullTerminator, bool IsVolatile) override {
    auto Buffer =
        Inner->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (!Buffer)
      return Buffer;
    std::optional<std::string> Shown = asClangReadsIt((*Buffer)->getBuffer());
    if (Shown)
      return llvm::MemoryBuffer::getMemBufferCopy(
          *Shown, (*Buffer)->getBufferIdentifier());
    // A mapped file that grows while it is parsed loses the NUL that ends
    // its buffer (the last page's tail becomes the new text) and the lexer
    // runs off the end: a file saved during a run crashed its unit and
    // filled stderr with garbage. The text is copied into memory of its
    // own; before writing a fix, the file is checked against it.
    if ((*Buffer)->getBufferKind() == llvm::MemoryBuffer::MemoryBuffer_MMap)
      return llvm::MemoryBuffer::getMemBufferCopy(
          (*Buffer)->getBuffer(), (*Buffer)->getBufferIdentifier());
    return Buffer;
  }
  std::error_code close() override { return Inner->close(); }

private:
  std::unique_ptr<llvm::vfs::File> Inner;
};

class JoiningFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    auto File = ProxyFileSystem::openFileForRead(Path);
    if (!File)
      return File;
    return std::unique_ptr<llvm::vfs::File>(
        std::make_unique<JoiningFile>(std::move(*File)));
  }
};

} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
showingNvccDialect(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base) {
  return llvm::makeIntrusiveRefCnt<JoiningFileSystem>(std::move(Base));
}

} // namespace warpfix
