#include "tool/input/YamlInput.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Format.h"

namespace warpfix {

std::optional<YamlProblem> findNonYamlText(llvm::StringRef Text) {
  for (llvm::StringRef Mark : {llvm::StringRef("\x00\x00\xFE\xFF", 4),
                               llvm::StringRef("\xFF\xFE\x00\x00", 4),
                               llvm::StringRef("\xFE\xFF"),
                               llvm::StringRef("\xFF\xFE")})
    if (Text.starts_with(Mark))
      return YamlProblem{1, 1,
                         "the file is UTF-16 or UTF-32 (it starts with a "
                         "byte-order mark); save it as UTF-8"};
  unsigned Line = 1, Column = 1;
  const auto *Byte = reinterpret_cast<const llvm::UTF8 *>(Text.begin());
  const auto *End = reinterpret_cast<const llvm::UTF8 *>(Text.end());
  while (Byte < End) {
    unsigned char C = *Byte;
    if (C < 0x20 && C != '\t' && C != '\n' && C != '\r') {
      std::string Message;
      llvm::raw_string_ostream(Message)
          << "control character " << llvm::format_hex(C, 4)
          << (C == 0 ? " (NUL)" : "") << " is not allowed in YAML";
      return YamlProblem{Line, Column, Message};
    }
    unsigned Size = llvm::getNumBytesForUTF8(C);
    if (Size > size_t(End - Byte) ||
        !llvm::isLegalUTF8Sequence(Byte, Byte + Size)) {
      std::string Message;
      llvm::raw_string_ostream(Message)
          << "byte " << llvm::format_hex(C, 4)
          << " is not UTF-8; save the file as UTF-8";
      return YamlProblem{Line, Column, Message};
    }
    if (C == '\n') {
      ++Line;
      Column = 1;
    } else {
      ++Column;
    }
    Byte += Size;
  }
  return std::nullopt;
}

std::optional<YamlProblem> findDeepNesting(llvm::StringRef Text) {
  // A real file nests a few levels; far below where the parsers fail.
  constexpr unsigned Limit = 1000;
  unsigned Open = 0, Line = 1;
  while (!Text.empty()) {
    llvm::StringRef Row = Text.take_until([](char C) { return C == '\n'; });
    Text = Text.drop_front(std::min(Text.size(), Row.size() + 1));
    llvm::StringRef Rest = Row.ltrim(' ');
    unsigned Block = Row.size() - Rest.size();
    while (Rest.consume_front("-") || Rest.consume_front("?")) {
      ++Block;
      Rest = Rest.ltrim(' ');
    }
    auto TooDeep = [&](size_t Column) {
      return YamlProblem{Line, unsigned(Column + 1),
                         "nested more than " + std::to_string(Limit) +
                             " levels deep"};
    };
    if (Block + Open > Limit)
      return TooDeep(0);
    for (size_t Column = 0; Column < Row.size(); ++Column)
      if (Row[Column] == '[' || Row[Column] == '{') {
        if (Block + ++Open > Limit)
          return TooDeep(Column);
      } else if ((Row[Column] == ']' || Row[Column] == '}') && Open > 0)
        --Open;
    ++Line;
  }
  return std::nullopt;
}

std::string clearYamlMessage(llvm::StringRef Message) {
  if (Message == "unexpected scalar")
    return "expected a single value here (a string, a number or a boolean), "
           "not a list, a mapping or nothing";
  if (Message == "not a sequence")
    return "expected a list here, such as [a, b]";
  if (Message == "not a mapping")
    return "expected a mapping here, of keys to values";
  return Message.str();
}

} // namespace warpfix
