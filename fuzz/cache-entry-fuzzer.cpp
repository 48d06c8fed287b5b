// The result cache's entry reader: any bytes give a result or an error, never
// a crash; and a result that was read, written again, reads back the same.
// The input is an entry without its first line, the checksum, which is made
// for it here: the reader turns away every entry whose checksum does not
// match before it reads a byte of YAML.
#include "tool/run/ResultCache.h"
#include "llvm/ADT/STLExtras.h"
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

void describe(llvm::raw_ostream &OS,
              const clang::tooling::DiagnosticMessage &M) {
  OS << M.Message << '|' << M.FilePath << '|' << M.FileOffset << '\n';
  // A fix's files come out of a StringMap, whose order is its hash's: by
  // name here, so that only what the entry means is compared.
  std::vector<llvm::StringRef> Files;
  for (const auto &Entry : M.Fix)
    Files.push_back(Entry.getKey());
  llvm::sort(Files);
  for (llvm::StringRef File : Files)
    for (const clang::tooling::Replacement &R : M.Fix.find(File)->second)
      OS << "  fix " << File << '|' << R.toString() << '\n';
  for (const clang::tooling::FileByteRange &R : M.Ranges)
    OS << "  range " << R.FilePath << '|' << R.FileOffset << '|' << R.Length
       << '\n';
}

/// What a result means, in a text that two equal results share.
std::string meaning(const TranslationUnitResult &Result) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << Result.SkippedByPrefilter << '\n';
  for (const FileDigest &D : Result.Dependencies)
    OS << "dependency " << D.Path << '|' << D.Hash << '\n';
  std::vector<std::string> Hashes;
  for (const auto &Entry : Result.FileHashes)
    Hashes.push_back(Entry.getKey().str() + "|" + Entry.getValue());
  llvm::sort(Hashes);
  for (const std::string &H : Hashes)
    OS << "hash " << H << '\n';
  OS << "errors " << Result.ErrorCount << '|' << Result.FirstError << '|'
     << Result.CompilerMessages << '\n';
  for (const auto *Names : {&Result.FilesWithErrors, &Result.MissingHeaders})
    for (const std::string &Name : *Names)
      OS << "named " << Name << '\n';
  for (const auto *Found : {&Result.FoundByName, &Result.RejectedByName})
    for (const auto &[Header, Folder] : *Found)
      OS << "by name " << Header << '|' << Folder << '\n';
  for (const auto *Findings : {&Result.Findings, &Result.Suppressed})
    for (const clang::tooling::Diagnostic &D : *Findings) {
      OS << "finding " << D.DiagnosticName << '|' << D.BuildDirectory << '|'
         << int(D.DiagLevel) << '\n';
      describe(OS, D.Message);
      for (const clang::tooling::DiagnosticMessage &Note : D.Notes)
        describe(OS, Note);
    }
  return Text;
}

std::string meaning(const StoredResult &Stored) {
  std::string Text = meaning(Stored.Result);
  llvm::raw_string_ostream OS(Text);
  for (const ReplacedText &R : Stored.Replaced)
    OS << "replaced " << R.Path << '|' << R.Offset << '|' << R.Length << '|'
       << R.Hash << '\n';
  return Text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::unique_ptr<llvm::MemoryBuffer> Text = llvm::MemoryBuffer::getMemBufferCopy(
      sealCacheEntry(
          llvm::StringRef(reinterpret_cast<const char *>(Data), Size)),
      "entry.yaml");
  llvm::Expected<StoredResult> Stored = parseCacheEntry(*Text, Key);
  if (!Stored) {
    llvm::consumeError(Stored.takeError());
    return 0;
  }
  std::optional<std::string> Written =
      formatCacheEntry(Key, Stored->Result, Stored->Replaced);
  if (!Written)
    return 0; // text that is not UTF-8 is never cached
  std::unique_ptr<llvm::MemoryBuffer> WrittenText =
      llvm::MemoryBuffer::getMemBufferCopy(*Written, "written.yaml");
  llvm::Expected<StoredResult> Again = parseCacheEntry(*WrittenText, Key);
  if (!Again)
    fail("a written entry does not read back: " +
             llvm::toString(Again.takeError()),
         *Written);
  if (meaning(*Again) != meaning(*Stored))
    fail("a written entry reads back differently:\n" + meaning(*Stored) +
             "--- read back ---\n" + meaning(*Again),
         *Written);
  return 0;
}
