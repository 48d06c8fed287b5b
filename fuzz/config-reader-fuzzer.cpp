// The .warpfix.yaml reader: any bytes give a configuration or an error that
// names the file, never a crash; and a configuration that was read, written
// out as --dump-config writes it, reads back to the same dump.
#include "tool/input/Config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>

using namespace warpfix;

namespace {

[[noreturn]] void fail(const llvm::Twine &What, llvm::StringRef Text) {
  llvm::errs() << "config-reader-fuzzer: " << What << "\n--- text ---\n"
               << Text << "\n------------\n";
  std::abort();
}

/// The dump without its first line, which names the file it came from.
std::string dumped(const ConfigFile &File) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  dumpConfig(effectiveConfig(&File, CommandLineSettings()), OS);
  return Text.substr(Text.find('\n') + 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // As a file is read: a copy with a terminating NUL after the end.
  std::unique_ptr<llvm::MemoryBuffer> Text = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size),
      "fuzz.yaml");
  llvm::Expected<ConfigFile> File = parseConfigFile(*Text);
  if (!File) {
    std::string Message = llvm::toString(File.takeError());
    if (!llvm::StringRef(Message).starts_with("fuzz.yaml"))
      fail("an error that does not name the file: " + Message,
           Text->getBuffer());
    return 0;
  }
  std::string Dump = dumped(*File);
  std::unique_ptr<llvm::MemoryBuffer> DumpText =
      llvm::MemoryBuffer::getMemBufferCopy(Dump, "dump.yaml");
  llvm::Expected<ConfigFile> Again = parseConfigFile(*DumpText);
  if (!Again)
    fail("the dump does not read back: " + llvm::toString(Again.takeError()),
         Dump);
  if (dumped(*Again) != Dump)
    fail("the dump reads back differently", Dump);
  return 0;
}
