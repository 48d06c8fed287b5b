#include "tool/input/Paths.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace warpfix {

std::optional<llvm::StringRef> belowCurrentDirectory(llvm::StringRef Path) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return std::nullopt;
  llvm::StringRef Rest = Path;
  if (!Rest.consume_front(Cwd) || !Rest.consume_front("/"))
    return std::nullopt;
  return Rest;
}

bool isUnder(llvm::StringRef Path, llvm::StringRef Root) {
  if (!Path.starts_with(Root))
    return false;
  return Path.size() == Root.size() || Root.ends_with("/") ||
         Path[Root.size()] == '/';
}

bool resolvesUnderAny(llvm::StringRef Path, llvm::ArrayRef<std::string> Roots) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return false;
  return llvm::any_of(Roots,
                      [&](const std::string &Root) { return isUnder(Real, Root); });
}

} // namespace warpfix
