#include "support/FileIdentity.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace warpfix {

std::string contentHash(llvm::StringRef Content) {
  // It tells an edited file from the one analysed, not an adversary's
  // collision from the original: XXH3 does that at a tenth of SHA-256's cost,
  // which every run paid for every header a unit read.
  llvm::XXH128_hash_t Hash =
      llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Content));
  uint8_t Bytes[16];
  llvm::support::endian::write64be(Bytes, Hash.high64);
  llvm::support::endian::write64be(Bytes + 8, Hash.low64);
  return llvm::toHex(Bytes, /*LowerCase=*/true);
}

std::string absolutePath(llvm::StringRef Path) {
  llvm::SmallString<256> Absolute(Path);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

std::string absolutePath(const clang::SourceManager &SM, llvm::StringRef Path) {
  // Through the file manager: a TU's working directory is its compile
  // command's, which need not be the process's when TUs run in parallel.
  llvm::SmallString<256> Abs(Path);
  SM.getFileManager().makeAbsolutePath(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

} // namespace warpfix
