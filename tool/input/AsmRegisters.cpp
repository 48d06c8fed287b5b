#include "tool/input/AsmRegisters.h"
#include "tool/input/RawTokens.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace warpfix {
namespace {

bool isWordChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// The length of the PTX special register that Text starts with, or 0.
size_t specialRegisterAt(llvm::StringRef Text) {
  size_t Length = 0;
  while (Length < Text.size() && isWordChar(Text[Length]))
    ++Length;
  llvm::StringRef Name = Text.take_front(Length);
  // Numbered families: %pm0..7 (and _64), %envreg0..31.
  llvm::StringRef Family = Name.rtrim("0123456789");
  if (Family.ends_with("_64"))
    Family = Family.drop_back(3).rtrim("0123456789");
  bool Known =
      llvm::StringSwitch<bool>(Name)
          .Cases("laneid", "warpid", "nwarpid", "smid", "nsmid", "gridid", true)
          .Cases("lanemask_eq", "lanemask_le", "lanemask_lt", "lanemask_ge",
                 "lanemask_gt", true)
          .Cases("clock", "clock_hi", "clock64", "globaltimer",
                 "globaltimer_lo", "globaltimer_hi", true)
          .Cases("tid", "ntid", "ctaid", "nctaid", true)
          .Cases("total_smem_size", "dynamic_smem_size", "aggr_smem_size",
                 true)
          .Default(false) ||
      ((Family == "pm" || Family == "envreg") && Name.size() > Family.size());
  return Known ? Length : 0;
}

/// Whether the blank at I of a literal's content can go: PTX separates no
/// tokens by it alone.
bool spareBlank(llvm::StringRef Content, size_t I) {
  auto Blank = [&](size_t J) {
    return J < Content.size() && (Content[J] == ' ' || Content[J] == '\t');
  };
  if (!Blank(I))
    return false;
  return (I > 0 && (Content[I - 1] == ',' || Blank(I - 1))) || Blank(I + 1);
}

/// The literal's spelling with its single-'%' special registers doubled, the
/// same length, or nothing when none is or blanks are too few.
std::optional<std::string> escapedLiteral(llvm::StringRef Spelling) {
  if (Spelling.size() < 2 || Spelling.front() != '"' || Spelling.back() != '"')
    return std::nullopt;
  llvm::StringRef Content = Spelling.drop_front().drop_back();
  std::vector<size_t> Doubled;
  for (size_t I = 0; I < Content.size(); ++I) {
    if (Content[I] == '\\') {
      ++I;
      continue;
    }
    if (Content[I] != '%')
      continue;
    size_t Run = I;
    while (Run < Content.size() && Content[Run] == '%')
      ++Run;
    if ((Run - I) % 2 == 1 && specialRegisterAt(Content.substr(Run)))
      Doubled.push_back(Run - 1);
    I = Run - 1;
  }
  if (Doubled.empty())
    return std::nullopt;
  std::vector<size_t> Dropped;
  for (size_t I = 0; I < Content.size() && Dropped.size() < Doubled.size();
       ++I) {
    if (Content[I] == '\\') {
      ++I;
      continue;
    }
    // A blank whose neighbour went already is no longer spare.
    if (spareBlank(Content, I) && (Dropped.empty() || Dropped.back() + 1 < I))
      Dropped.push_back(I);
  }
  if (Dropped.size() < Doubled.size())
    return std::nullopt;
  std::string Out = "\"";
  size_t D = 0, B = 0;
  for (size_t I = 0; I < Content.size(); ++I) {
    if (B < Dropped.size() && Dropped[B] == I) {
      ++B;
      continue;
    }
    Out += Content[I];
    if (D < Doubled.size() && Doubled[D] == I) {
      Out += '%';
      ++D;
    }
  }
  Out += '"';
  return Out;
}

/// Whether Text holds a special register after a single '%' anywhere (in
/// code, comments or strings alike): a scan with no lexing.
bool mayNameSingleRegister(llvm::StringRef Text) {
  for (size_t I = Text.find('%'); I != llvm::StringRef::npos;
       I = Text.find('%', I + 1))
    if ((I == 0 || Text[I - 1] != '%') && specialRegisterAt(Text.substr(I + 1)))
      return true;
  return false;
}

bool isAsmKeyword(llvm::StringRef Word) {
  return Word == "asm" || Word == "__asm__" || Word == "__asm";
}

bool isAsmQualifier(llvm::StringRef Word) {
  return llvm::StringSwitch<bool>(Word)
      .Cases("volatile", "__volatile__", "__volatile", "inline", "__inline__",
             "goto", true)
      .Default(false);
}

/// Whether the statement whose operands start after Tokens[I] has an
/// operand section: a ':' before its closing ')'.
bool extendedAfter(const std::vector<RawToken> &Tokens, size_t I) {
  int Depth = 0;
  for (; I < Tokens.size(); ++I) {
    clang::tok::TokenKind K = Tokens[I].Kind;
    if (K == clang::tok::l_paren)
      ++Depth;
    else if (K == clang::tok::r_paren && --Depth < 0)
      return false;
    else if (Depth == 0 &&
             (K == clang::tok::colon || K == clang::tok::coloncolon))
      return true;
    else if (K == clang::tok::semi)
      return false;
  }
  return false;
}

} // namespace

std::optional<std::string>
escapeAsmSpecialRegisters(llvm::StringRef Text, ChangedLiterals *Changed) {
  // Cheap first: every file a parse reads comes through here, the toolkit's
  // headers too, and almost none names a register with a single '%'.
  if (!mayNameSingleRegister(Text))
    return std::nullopt;
  std::string Source = Text.str();
  std::vector<RawToken> Tokens = rawTokens(Source);
  std::optional<std::string> Out;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (Tokens[I].Kind != clang::tok::raw_identifier ||
        !isAsmKeyword(Tokens[I].Spelling))
      continue;
    size_t J = I + 1;
    while (J < Tokens.size() && Tokens[J].Kind == clang::tok::raw_identifier &&
           isAsmQualifier(Tokens[J].Spelling))
      ++J;
    if (J >= Tokens.size() || Tokens[J].Kind != clang::tok::l_paren)
      continue;
    size_t First = J + 1, End = First;
    while (End < Tokens.size() && Tokens[End].Kind == clang::tok::string_literal)
      ++End;
    if (End == First || !extendedAfter(Tokens, End))
      continue;
    for (size_t L = First; L < End; ++L) {
      std::optional<std::string> Escaped = escapedLiteral(Tokens[L].Spelling);
      if (!Escaped)
        continue;
      if (!Out)
        Out = Text.str();
      Out->replace(Tokens[L].Offset, Tokens[L].Length, *Escaped);
      if (Changed)
        Changed->emplace_back(Tokens[L].Offset,
                              Tokens[L].Offset + Tokens[L].Length);
    }
    I = End - 1;
  }
  return Out;
}

} // namespace warpfix
