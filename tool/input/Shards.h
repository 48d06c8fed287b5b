// --shard=i/n: one of n shares of a run's files, for a CI matrix that spreads
// a large code base over jobs and merges their results at the end.
#ifndef WARPFIX_TOOL_INPUT_SHARDS_H
#define WARPFIX_TOOL_INPUT_SHARDS_H

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace warpfix {

struct Shard {
  unsigned Index = 1; // 1 to Count
  unsigned Count = 1;
};

/// "i/n" with 1 <= i <= n; anything else is an error that says why.
llvm::Expected<Shard> parseShard(llvm::StringRef Text);

/// The files of Shard: every Count-th of Files from its Index-th on, so that
/// shares differ by one file at most, and the n shares of one list cover it
/// once whatever order a job lists them in.
std::vector<std::string> filesOfShard(std::vector<std::string> Files, Shard Of);

} // namespace warpfix

#endif
