// Where a new input operand goes in a GCC-style asm statement: after the last
// input, so that no `%n` of the template changes meaning, opening the input
// section where there is none. A pure function of a token list: the tokens
// here come from a small reader of the statement's text.
#include "checks/analysis/AsmOperands.h"
#include "gtest/gtest.h"
#include <cctype>

namespace warpfix::asmops {
namespace {

/// The statement's tokens as the check's lexer gives them: punctuation
/// kinds, everything else (keywords, names, string literals) Other.
std::vector<Token> tokensOf(llvm::StringRef Text) {
  std::vector<Token> Tokens;
  for (unsigned I = 0; I < Text.size();) {
    char C = Text[I];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++I;
      continue;
    }
    if (C == '"') {
      unsigned End = Text.find('"', I + 1);
      Tokens.push_back({Token::Other, I, End + 1 - I});
      I = End + 1;
      continue;
    }
    if (C == ':' && I + 1 < Text.size() && Text[I + 1] == ':') {
      Tokens.push_back({Token::ColonColon, I, 2});
      I += 2;
      continue;
    }
    Token::Kind Kind = C == '('   ? Token::LParen
                       : C == ')' ? Token::RParen
                       : C == '[' ? Token::LSquare
                       : C == ']' ? Token::RSquare
                       : C == ':' ? Token::Colon
                       : C == ',' ? Token::Comma
                                  : Token::Other;
    unsigned Length = 1;
    if (Kind == Token::Other)
      while (I + Length < Text.size() &&
             (std::isalnum(static_cast<unsigned char>(Text[I + Length])) ||
              Text[I + Length] == '_'))
        ++Length;
    Tokens.push_back({Kind, I, Length});
    I += Length;
  }
  return Tokens;
}

/// The statement with "r"(m) appended as its last input, or "refused: why".
std::string appended(llvm::StringRef Text, unsigned Outputs, unsigned Inputs) {
  std::string Why;
  std::optional<Insertion> Insert =
      appendInput(tokensOf(Text), Outputs, Inputs, "\"r\"(m)", Why);
  if (!Insert)
    return "refused: " + Why;
  std::string Result = Text.str();
  Result.insert(Insert->Offset, Insert->Text);
  return Result;
}

TEST(AsmOperands, AfterTheLastInput) {
  EXPECT_EQ("asm(\"t\" : \"=r\"(x) : \"r\"(y), \"r\"(a[i]), \"r\"(m))",
            appended("asm(\"t\" : \"=r\"(x) : \"r\"(y), \"r\"(a[i]))", 1, 2));
}

TEST(AsmOperands, OpensTheInputSectionAfterTheOutputs) {
  EXPECT_EQ("asm volatile(\"t\" : \"=r\"(x) : \"r\"(m))",
            appended("asm volatile(\"t\" : \"=r\"(x))", 1, 0));
}

TEST(AsmOperands, InputsAfterADoubleColon) {
  EXPECT_EQ("asm(\"t\" :: \"r\"(y), \"r\"(m))",
            appended("asm(\"t\" :: \"r\"(y))", 0, 1));
}

TEST(AsmOperands, EmptyInputsBetweenOutputsAndClobbers) {
  // `::` joins the inputs' colon and the clobbers': the input goes between.
  EXPECT_EQ("asm volatile(\"t\" : \"=r\"(x) : \"r\"(m) : \"memory\")",
            appended("asm volatile(\"t\" : \"=r\"(x) :: \"memory\")", 1, 0));
  // `:::`, no outputs and no inputs.
  EXPECT_EQ("asm volatile(\"t\" :: \"r\"(m) :\"memory\")",
            appended("asm volatile(\"t\" :::\"memory\")", 0, 0));
}

TEST(AsmOperands, BasicAsmIsRefused) {
  // A new operand would make every '%' of its template an operand reference.
  EXPECT_EQ("refused: a basic asm statement has no operands, and giving it one "
            "would change what each '%' in its template means",
            appended("asm(\"exit;\")", 0, 0));
}

TEST(AsmOperands, OperandsThatAMacroWritesAreRefused) {
  // The compiler saw two outputs; the text shows one.
  EXPECT_EQ(0u, appended("asm(\"t\" : OUTS : \"r\"(y))", 2, 1)
                    .find("refused: some operands"));
}

TEST(AsmOperands, AsmGotoIsRefused) {
  EXPECT_EQ(0u, appended("asm goto(\"t\" :: \"r\"(y) :: done)", 0, 1)
                    .find("refused: the labels of an asm goto"));
}

TEST(AsmOperands, UnbalancedParenthesesAreRefused) {
  EXPECT_EQ(0u, appended("asm(\"t\" : \"=r\"(x) : \"r\"(y)", 1, 1)
                    .find("refused: the parentheses"));
}

} // namespace
} // namespace warpfix::asmops
