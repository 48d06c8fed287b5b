#include "checks/CheckOptions.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Regex.h"

namespace warpfix {

std::string CheckOptions::get(llvm::StringRef Check,
                              const CheckOptionInfo &Option) const {
  auto Own = Values.find((Check + "." + Option.Name).str());
  if (Own != Values.end())
    return Own->second;
  auto Global = Values.find(Option.Name.str());
  return Global != Values.end() ? Global->second : Option.Default.str();
}

std::string CheckOptions::fingerprint() const {
  std::string Text =
      std::to_string(int(Fallback)) + "," + std::to_string(AssumeWholeWarps);
  for (const auto &[Key, Value] : Values)
    Text += ";" + Key + "=" + Value;
  return Text;
}

std::optional<uint64_t> integerLiteralValue(llvm::StringRef Text) {
  static const llvm::Regex Literal(
      "^(0[xX][0-9a-fA-F]+|[0-9]+)([uU](l|L|ll|LL)?|(l|L|ll|LL)[uU]?)?$");
  llvm::SmallVector<llvm::StringRef, 2> Parts;
  if (!Literal.match(Text, &Parts))
    return std::nullopt;
  llvm::StringRef Digits = Parts[1];
  unsigned Radix = 10;
  if (Digits.consume_front_insensitive("0x"))
    Radix = 16;
  else if (Digits.size() > 1 && Digits.consume_front("0"))
    Radix = 8;
  uint64_t Value;
  if (Digits.getAsInteger(Radix, Value))
    return std::nullopt; // an 8 or 9 in octal, or more than 64 bits
  return Value;
}

std::optional<std::string> booleanProblem(llvm::StringRef Option,
                                          llvm::StringRef Value) {
  if (Value == "true" || Value == "false")
    return std::nullopt;
  return (Option + " must be true or false, not '" + Value + "'").str();
}

std::optional<std::string> identifierPrefixProblem(llvm::StringRef Option,
                                                   llvm::StringRef Value) {
  if (clang::isValidAsciiIdentifier(Value))
    return std::nullopt;
  return (Option + " must start an identifier, not '" + Value + "'").str();
}

} // namespace warpfix
