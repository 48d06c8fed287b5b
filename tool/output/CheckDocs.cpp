#include "tool/output/CheckDocs.h"

namespace warpfix {
namespace {
struct EmbeddedDoc {
  const char *Check;
  const unsigned char *Text;
  unsigned long Size;
};
#include "tool/output/CheckDocs.inc"
} // namespace

std::optional<llvm::StringRef> checkDocumentation(llvm::StringRef Check) {
  for (const EmbeddedDoc &Doc : EmbeddedDocs)
    if (Check == Doc.Check)
      return llvm::StringRef(reinterpret_cast<const char *>(Doc.Text),
                             Doc.Size);
  return std::nullopt;
}

} // namespace warpfix
