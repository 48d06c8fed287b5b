// Reading a file that a user, a build or a cache names. Only a regular file
// is read: a device such as /dev/zero has no end and would be read until
// memory runs out, and a FIFO blocks until someone writes to it.
#ifndef WARPFIX_TOOL_INPUT_REGULARFILE_H
#define WARPFIX_TOOL_INPUT_REGULARFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <optional>
#include <string>

namespace warpfix {

/// What Path is when it is there but is not a regular file, as "a FIFO" or
/// "a character device", after links are followed; nothing otherwise.
std::optional<std::string> notRegularFile(llvm::StringRef Path);

/// The file's content; an error for a file that is not regular ("it is a
/// FIFO, not a regular file"), or that cannot be read (the system's
/// message, with its error code).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readRegularFile(llvm::StringRef Path, bool IsText,
                bool RequiresNullTerminator = true);

} // namespace warpfix

#endif
