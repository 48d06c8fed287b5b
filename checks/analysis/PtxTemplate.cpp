#include "checks/analysis/PtxTemplate.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace warpfix::ptx {
namespace {

/// What the assembler sees of the template, one unit at a time: a character
/// (`%%` is one '%'), an operand reference, or `%=` (a number unique to the
/// asm statement, used in labels).
struct Unit {
  enum Kind { Char, Ref, UniqueId };
  Kind K;
  char C = 0;
  Span Where;
  size_t RefIndex = 0;
};

/// The GCC layer: operand references and escapes, as clang's
/// GCCAsmStmt::AnalyzeAsmString reads them for a target without assembler
/// dialect variants (NVPTX): `%%`, `%{`, `%}`, `%=`, `%N`, `%[name]`, each of
/// the last two with an optional one-letter modifier.
bool readUnits(llvm::StringRef Text, Syntax S, std::vector<Unit> &Units,
               std::vector<OperandRef> &Refs) {
  unsigned N = Text.size();
  for (unsigned I = 0; I < N;) {
    char C = Text[I];
    if (S == Syntax::Basic || C != '%') {
      Units.push_back({Unit::Char, C, {I, I + 1}});
      ++I;
      continue;
    }
    if (I + 1 == N)
      return false;
    char E = Text[I + 1];
    if (E == '%' || E == '{' || E == '}') {
      Units.push_back({Unit::Char, E, {I, I + 2}});
      I += 2;
      continue;
    }
    if (E == '=') {
      Units.push_back({Unit::UniqueId, 0, {I, I + 2}});
      I += 2;
      continue;
    }
    unsigned J = I + 1;
    if (llvm::isAlpha(E)) {
      if (++J == N)
        return false;
      E = Text[J];
    }
    OperandRef Ref;
    if (llvm::isDigit(E)) {
      unsigned Number = 0;
      while (J < N && llvm::isDigit(Text[J])) {
        Number = Number * 10 + unsigned(Text[J] - '0');
        if (Number > 100000) // far beyond any operand count: not a reference
          return false;
        ++J;
      }
      Ref.Number = Number;
    } else if (E == '[') {
      size_t Close = Text.find(']', J + 1);
      if (Close == llvm::StringRef::npos || Close == J + 1)
        return false;
      Ref.Name = Text.slice(J + 1, Close).str();
      J = unsigned(Close) + 1;
    } else {
      return false;
    }
    Ref.Where = {I, J};
    Units.push_back({Unit::Ref, 0, Ref.Where, Refs.size()});
    Refs.push_back(std::move(Ref));
    I = J;
  }
  return true;
}

/// The PTX layer's tokens.
struct Token {
  enum Kind { Word, Ref, Punct };
  Kind K;
  Span Where;
  std::string Text; ///< as the assembler sees it (a Ref: as written)
  size_t RefIndex = 0;
};

bool isWordChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '.' || C == '$' || C == '%';
}

bool isSpace(char C) { return llvm::isSpace(C); }

std::vector<Token> tokenize(llvm::StringRef Text,
                            const std::vector<Unit> &Units) {
  std::vector<Token> Tokens;
  auto IsChar = [&](size_t I, char C) {
    return I < Units.size() && Units[I].K == Unit::Char && Units[I].C == C;
  };
  for (size_t I = 0; I < Units.size();) {
    const Unit &U = Units[I];
    if (U.K == Unit::Ref) {
      Tokens.push_back({Token::Ref, U.Where,
                        Text.slice(U.Where.Begin, U.Where.End).str(),
                        U.RefIndex});
      ++I;
      continue;
    }
    if (U.K == Unit::Char && isSpace(U.C)) {
      ++I;
      continue;
    }
    // Comments, which PTX takes from C: what they say is not code.
    if (IsChar(I, '/') && IsChar(I + 1, '/')) {
      while (I < Units.size() && !IsChar(I, '\n'))
        ++I;
      continue;
    }
    if (IsChar(I, '/') && IsChar(I + 1, '*')) {
      I += 2;
      while (I < Units.size() && !(IsChar(I, '*') && IsChar(I + 1, '/')))
        ++I;
      I = std::min(I + 2, Units.size());
      continue;
    }
    if (U.K == Unit::UniqueId || isWordChar(U.C)) {
      Token T{Token::Word, U.Where, ""};
      while (I < Units.size() &&
             (Units[I].K == Unit::UniqueId ||
              (Units[I].K == Unit::Char && isWordChar(Units[I].C)))) {
        T.Text += Units[I].K == Unit::UniqueId ? std::string("%=")
                                               : std::string(1, Units[I].C);
        T.Where.End = Units[I].Where.End;
        ++I;
      }
      Tokens.push_back(std::move(T));
      continue;
    }
    Tokens.push_back({Token::Punct, U.Where, std::string(1, U.C)});
    ++I;
  }
  return Tokens;
}

bool isPunct(const Token &T, char C) {
  return T.K == Token::Punct && T.Text[0] == C;
}

/// Reads one instruction from Tokens[At], whose opcode is Tokens[Opcode];
/// leaves At after its ';' (or at a '}' that closes its scope early).
Instruction readInstruction(const std::vector<Token> &Tokens, size_t &At,
                            size_t Opcode, std::optional<Span> Guard) {
  Instruction I;
  I.Guard = Guard;
  I.Opcode = Tokens[Opcode].Where;
  I.OpcodeText = Tokens[Opcode].Text;
  I.Whole = {Guard ? Guard->Begin : I.Opcode.Begin, I.Opcode.End};
  At = Opcode + 1;
  // Brackets and braces inside an instruction are addresses and vector
  // operands (`[%1+4]`, `{%0, %1}`), whose commas do not separate operands.
  int Depth = 0;
  std::vector<const Token *> Current;
  auto Flush = [&] {
    if (Current.empty())
      return;
    Operand Op;
    Op.Where = {Current.front()->Where.Begin, Current.back()->Where.End};
    for (const Token *T : Current)
      Op.Text += T->Text;
    if (Current.size() == 1 && Current[0]->K == Token::Ref)
      Op.Reference = Current[0]->RefIndex;
    I.Operands.push_back(std::move(Op));
    Current.clear();
  };
  for (; At < Tokens.size(); ++At) {
    const Token &T = Tokens[At];
    if (Depth == 0 && isPunct(T, ';')) {
      Flush();
      I.Semicolon = T.Where.Begin;
      I.Whole.End = T.Where.End;
      ++At;
      return I;
    }
    if (Depth == 0 && isPunct(T, '}'))
      break; // the scope ends without a ';': ptxas will say so
    if (Depth == 0 && isPunct(T, ',')) {
      Flush();
      continue;
    }
    if (isPunct(T, '[') || isPunct(T, '{') || isPunct(T, '('))
      ++Depth;
    else if (isPunct(T, ']') || isPunct(T, '}') || isPunct(T, ')'))
      Depth = std::max(0, Depth - 1);
    Current.push_back(&T);
    I.Whole.End = T.Where.End;
  }
  Flush();
  return I;
}

} // namespace

std::optional<Template> parse(llvm::StringRef Text, Syntax S) {
  Template Result;
  std::vector<Unit> Units;
  if (!readUnits(Text, S, Units, Result.References))
    return std::nullopt;
  std::vector<Token> Tokens = tokenize(Text, Units);
  size_t At = 0;
  auto SkipStatement = [&] {
    while (At < Tokens.size() && !isPunct(Tokens[At], ';'))
      ++At;
    ++At;
  };
  while (At < Tokens.size()) {
    const Token &T = Tokens[At];
    // Scopes and empty statements.
    if (isPunct(T, '{') || isPunct(T, '}') || isPunct(T, ';')) {
      ++At;
      continue;
    }
    // A label: `L1:` (or `L%=:`).
    if (T.K == Token::Word && At + 1 < Tokens.size() &&
        isPunct(Tokens[At + 1], ':')) {
      At += 2;
      continue;
    }
    // A directive: `.reg .pred p;`, `.loc ...;`.
    if (T.K == Token::Word && T.Text[0] == '.') {
      SkipStatement();
      continue;
    }
    std::optional<Span> Guard;
    size_t Opcode = At;
    if (isPunct(T, '@')) {
      size_t P = At + 1;
      if (P < Tokens.size() && isPunct(Tokens[P], '!'))
        ++P;
      if (P + 1 >= Tokens.size() || Tokens[P].K == Token::Punct ||
          Tokens[P + 1].K != Token::Word) {
        SkipStatement();
        continue;
      }
      Guard = Span{T.Where.Begin, Tokens[P].Where.End};
      Opcode = P + 1;
    }
    if (Tokens[Opcode].K != Token::Word) {
      SkipStatement();
      continue;
    }
    Result.Instructions.push_back(readInstruction(Tokens, At, Opcode, Guard));
  }
  return Result;
}

std::optional<LegacyForm> legacyForm(const Instruction &I) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(I.OpcodeText).split(Parts, '.');
  if (Parts[0] != "shfl" && Parts[0] != "vote")
    return std::nullopt;
  // ptxas takes the modifiers in any order: old CUB wrote
  // vote.ballot.sync.b32, which is already the sync form.
  if (llvm::is_contained(Parts, "sync"))
    return std::nullopt;
  LegacyForm Form;
  Form.Op = Parts[0] == "shfl" ? WarpOp::Shuffle : WarpOp::Vote;
  Form.Mode = Parts.size() > 1 ? Parts[1].str() : "";
  bool Known = false;
  size_t Operands = 0;
  if (Parts.size() == 3 && Form.Op == WarpOp::Shuffle) {
    Known = llvm::is_contained({"up", "down", "bfly", "idx"}, Parts[1]) &&
            Parts[2] == "b32";
    Operands = 4; // d[|p], a, b, c
  } else if (Parts.size() == 3) {
    Known = (llvm::is_contained({"all", "any", "uni"}, Parts[1]) &&
             Parts[2] == "pred") ||
            (Parts[1] == "ballot" && Parts[2] == "b32");
    Operands = 2; // d, {!}a
  }
  if (!Known) {
    Form.Problem = "'" + I.OpcodeText +
                   "' is not a form of " + Parts[0].str() +
                   " that warpfix knows how to rewrite";
    return Form;
  }
  Form.SyncOpcode = (Parts[0] + ".sync." + Parts[1] + "." + Parts[2]).str();
  if (I.Operands.size() != Operands)
    Form.Problem = "the instruction has " + std::to_string(I.Operands.size()) +
                   " operands where '" + I.OpcodeText + "' takes " +
                   std::to_string(Operands);
  else if (!I.Semicolon)
    Form.Problem = "the instruction has no closing ';' in this template";
  return Form;
}

std::vector<Edit> toSync(const Instruction &I, llvm::StringRef Mask) {
  // The opcode starts with the four plain characters "shfl" or "vote" (only
  // '%' takes two template bytes, and it is not one of them), so its first
  // '.' is four bytes in.
  return {{I.Opcode.Begin + 4, 0, ".sync"},
          {I.Operands.back().Where.End, 0, (", " + Mask).str()}};
}

std::string apply(llvm::StringRef Text, llvm::ArrayRef<Edit> Edits) {
  std::string Out;
  unsigned At = 0;
  for (const Edit &E : Edits) {
    Out += Text.slice(At, E.Offset);
    Out += E.Text;
    At = E.Offset + E.Length;
  }
  Out += Text.substr(At);
  return Out;
}

std::optional<size_t> memberMaskOperand(const Instruction &I) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(I.OpcodeText).split(Parts, '.');
  if (!llvm::is_contained(Parts, "sync"))
    return std::nullopt;
  // The member mask is the last operand of each of these.
  size_t Expected = llvm::StringSwitch<size_t>(Parts[0])
                        .Case("shfl", 5)  // d[|p], a, b, c, membermask
                        .Case("vote", 3)  // d, {!}a, membermask
                        .Case("match", 3) // d[|p], a, membermask
                        .Case("redux", 3) // d, a, membermask
                        .Case("bar", 1)   // bar.warp.sync membermask
                        .Default(0);
  if (Parts[0] == "bar" && (Parts.size() != 3 || Parts[1] != "warp"))
    return std::nullopt;
  if (Expected == 0 || I.Operands.size() != Expected)
    return std::nullopt;
  return Expected - 1;
}

std::optional<size_t> activeMaskWriter(const Template &T, size_t User,
                                       llvm::StringRef Register) {
  // Instructions write their first operand; the last such write before User
  // is the value User reads (a scope's shadowing register reads the same,
  // since it is written inside the scope).
  for (size_t K = User; K-- > 0;) {
    const Instruction &I = T.Instructions[K];
    if (!I.Operands.empty() && I.Operands.front().Text == Register) {
      if (I.OpcodeText == "activemask.b32")
        return K;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

} // namespace warpfix::ptx
