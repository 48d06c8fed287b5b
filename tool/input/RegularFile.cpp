#include "tool/input/RegularFile.h"
#include "llvm/Support/FileSystem.h"

namespace warpfix {

namespace fs = llvm::sys::fs;

std::optional<std::string> notRegularFile(llvm::StringRef Path) {
  fs::file_status Status;
  if (fs::status(Path, Status))
    return std::nullopt;
  switch (Status.type()) {
  case fs::file_type::regular_file:
  case fs::file_type::file_not_found:
  case fs::file_type::status_error:
    return std::nullopt;
  case fs::file_type::directory_file:
    return "a directory";
  case fs::file_type::block_file:
    return "a block device";
  case fs::file_type::character_file:
    return "a character device";
  case fs::file_type::fifo_file:
    return "a FIFO";
  case fs::file_type::socket_file:
    return "a socket";
  default:
    return "a file of another kind";
  }
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readRegularFile(llvm::StringRef Path, bool IsText,
                bool RequiresNullTerminator) {
  if (std::optional<std::string> What = notRegularFile(Path))
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        "it is " + *What + ", not a regular file");
  auto Buffer =
      llvm::MemoryBuffer::getFile(Path, IsText, RequiresNullTerminator);
  if (!Buffer)
    return llvm::errorCodeToError(Buffer.getError());
  return std::move(*Buffer);
}

} // namespace warpfix
