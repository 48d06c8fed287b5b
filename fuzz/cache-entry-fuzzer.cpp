// The result cache's entry reader: any bytes give a result or an error, never
// a crash; and a result that was read, written again, reads back to the same
// text.
#include "tool/run/ResultCache.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>

using namespace warpfix;

namespace {

/// The key the seeds are written under.
constexpr llvm::StringLiteral Key =
    "5d41402abc4b2a76b9719d911017c592a1b2c3d4e5f60718293a4b5c6d7e8f90";

[[noreturn]] void fail(const llvm::Twine &What, llvm::StringRef Text) {
  llvm::errs() << "cache-entry-fuzzer: " << What << "\n--- text ---\n" << Text
               << "\n------------\n";
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::unique_ptr<llvm::MemoryBuffer> Text = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size), "entry.yaml");
  llvm::Expected<StoredResult> Stored = parseCacheEntry(*Text, Key);
  if (!Stored) {
    llvm::consumeError(Stored.takeError());
    return 0;
  }
  std::optional<std::string> Written = formatCacheEntry(Key, Stored->Result);
  if (!Written)
    return 0; // text that is not UTF-8 is never cached
  std::unique_ptr<llvm::MemoryBuffer> WrittenText =
      llvm::MemoryBuffer::getMemBufferCopy(*Written, "written.yaml");
  llvm::Expected<StoredResult> Again = parseCacheEntry(*WrittenText, Key);
  if (!Again)
    fail("a written entry does not read back: " +
             llvm::toString(Again.takeError()),
         *Written);
  std::optional<std::string> Rewritten = formatCacheEntry(Key, Again->Result);
  if (!Rewritten || *Rewritten != *Written)
    fail("a written entry reads back differently", *Written);
  return 0;
}
