#include "tool/input/Shards.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace warpfix {

llvm::Expected<Shard> parseShard(llvm::StringRef Text) {
  auto [IndexText, CountText] = Text.split('/');
  Shard Parsed;
  // Each job of a matrix of at most this many.
  constexpr unsigned MostShards = 100000;
  if (IndexText.getAsInteger(10, Parsed.Index) ||
      CountText.getAsInteger(10, Parsed.Count) || Parsed.Count == 0 ||
      Parsed.Count > MostShards || Parsed.Index == 0 ||
      Parsed.Index > Parsed.Count)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "--shard=%s: expected i/n, the i-th of n shares, with 1 <= i <= n "
        "(as in --shard=2/4)",
        Text.str().c_str());
  return Parsed;
}

std::vector<std::string> filesOfShard(std::vector<std::string> Files,
                                      Shard Of) {
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  std::vector<std::string> Share;
  for (size_t I = Of.Index - 1; I < Files.size(); I += Of.Count)
    Share.push_back(std::move(Files[I]));
  return Share;
}

} // namespace warpfix
