#include "checks/analysis/AsmOperands.h"
#include <vector>

namespace warpfix::asmops {
namespace {

bool opens(const Token &T) {
  return T.K == Token::LParen || T.K == Token::LSquare;
}
bool closes(const Token &T) {
  return T.K == Token::RParen || T.K == Token::RSquare;
}

} // namespace

std::optional<Insertion> appendInput(llvm::ArrayRef<Token> Tokens,
                                     unsigned Outputs, unsigned Inputs,
                                     llvm::StringRef Operand,
                                     std::string &Why) {
  auto Refuse = [&](const char *Reason) -> std::optional<Insertion> {
    Why = Reason;
    return std::nullopt;
  };
  size_t Open = 0;
  while (Open < Tokens.size() && Tokens[Open].K != Token::LParen)
    ++Open;
  if (Open + 1 >= Tokens.size() || Tokens.back().K != Token::RParen)
    return Refuse("the parentheses of the asm statement could not be read");
  size_t Last = Tokens.size() - 1;
  // The colons that separate template, outputs, inputs, clobbers and labels:
  // a token index for each, `::` giving two.
  std::vector<size_t> Colons;
  int Depth = 0;
  for (size_t I = Open + 1; I < Last; ++I) {
    const Token &T = Tokens[I];
    if (opens(T))
      ++Depth;
    else if (closes(T) && --Depth < 0)
      return Refuse("the parentheses of the asm statement could not be read");
    else if (Depth == 0 && T.K == Token::Colon)
      Colons.push_back(I);
    else if (Depth == 0 && T.K == Token::ColonColon)
      Colons.insert(Colons.end(), {I, I});
  }
  if (Depth != 0)
    return Refuse("the parentheses of the asm statement could not be read");
  if (Colons.empty())
    return Refuse("a basic asm statement has no operands, and giving it one "
                  "would change what each '%' in its template means");
  if (Colons.size() > 3)
    return Refuse("the labels of an asm goto are numbered after its inputs, "
                  "so a new input would renumber them");

  // Section S holds the tokens in [Begin(S), End(S)).
  auto Begin = [&](size_t S) { return S == 0 ? Open + 1 : Colons[S - 1] + 1; };
  auto End = [&](size_t S) { return S < Colons.size() ? Colons[S] : Last; };
  auto OperandCount = [&](size_t S) {
    if (Begin(S) >= End(S))
      return 0u;
    unsigned Count = 1;
    int D = 0;
    for (size_t I = Begin(S); I < End(S); ++I) {
      if (opens(Tokens[I]))
        ++D;
      else if (closes(Tokens[I]))
        --D;
      else if (D == 0 && Tokens[I].K == Token::Comma)
        ++Count;
    }
    return Count;
  };
  unsigned InputsSeen = Colons.size() >= 2 ? OperandCount(2) : 0;
  if (OperandCount(1) != Outputs || InputsSeen != Inputs)
    return Refuse("some operands of the asm statement are not written where "
                  "it is (a macro writes them), so there is no place to "
                  "append one");
  auto EndOf = [&](size_t I) { return Tokens[I].Offset + Tokens[I].Length; };

  if (Colons.size() == 1) {
    // No input section yet: open one after the outputs.
    size_t After = End(1) - 1; // the last output's ')' or the colon itself
    return Insertion{EndOf(After), " : " + Operand.str()};
  }
  if (Inputs > 0) {
    size_t LastInput = End(2) - 1;
    if (Tokens[LastInput].K != Token::RParen)
      return Refuse("the last input operand of the asm statement does not end "
                    "with ')' where it is written");
    return Insertion{EndOf(LastInput), ", " + Operand.str()};
  }
  // An empty input section: right after its colon, which may be the second
  // character of a `::` (outputs and inputs both empty), or the first when
  // `::` joins the inputs and clobbers colons.
  const Token &Second = Tokens[Colons[1]];
  unsigned At = Second.K == Token::ColonColon && Colons[0] == Colons[1]
                    ? Second.Offset + 2
                : Second.K == Token::ColonColon ? Second.Offset + 1
                                                : EndOf(Colons[1]);
  // A space before the clobbers' colon where none separates it yet.
  bool Touching = false;
  if (Colons.size() >= 3) {
    unsigned Third = Tokens[Colons[2]].Offset + (Colons[2] == Colons[1]);
    Touching = Third == At;
  }
  return Insertion{At, " " + Operand.str() + (Touching ? " " : "")};
}

} // namespace warpfix::asmops
