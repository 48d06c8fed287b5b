// nvcc reads a kernel launch whose chevrons are split by spaces,
// `k << < grid, block >> >(args)`, as Visual Studio's formatter writes it;
// clang needs `<<<` and `>>>` as single tokens and drops the launch, and with
// it often the whole translation unit. warpfix shows clang each file with
// such launches joined, `k <<<  grid, block >>> (args)`: the same length, so
// that every offset, line and column, of findings and of fixes, is that of
// the file on disk, and fixes are written to the bytes on disk.
#ifndef WARPFIX_TOOL_INPUT_LAUNCHCHEVRONS_H
#define WARPFIX_TOOL_INPUT_LAUNCHCHEVRONS_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <optional>
#include <string>

namespace warpfix {

/// Text with each spaced launch chevron joined, or nothing when it has none.
/// A `<< <` is a launch's only where a `>> >` or `>>>` at the same bracket
/// depth, followed by `(`, closes it, and `<<` does not follow `operator`;
/// a template's `>> >` is left alone.
std::optional<std::string> joinSpacedLaunchChevrons(llvm::StringRef Text);

/// Text as clang is shown it: launches joined as above, and asm templates'
/// special registers escaped (tool/input/AsmRegisters.h); both keep every
/// offset. Nothing when neither changes it.
std::optional<std::string> asClangReadsIt(llvm::StringRef Text);

/// The content hash of Text as clang is shown it. A file's hash is taken of
/// this on disk, and clang's buffers already hold it, so that both name the
/// same content.
std::string hashAsClangReadsIt(llvm::StringRef Text);

/// Base, with every file read through it shown as clang reads it (above).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
showingNvccDialect(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

} // namespace warpfix

#endif
