// Replacing a file's content so that readers, and a run killed at any point,
// see the old file or the new one, never a mix: the new content goes to a
// temporary file beside it, which a rename puts in place. The file keeps its
// mode, owner and group; links are written through to their target.
#ifndef WARPFIX_TOOL_OUTPUT_ATOMICFILE_H
#define WARPFIX_TOOL_OUTPUT_ATOMICFILE_H

#include "llvm/Support/Error.h"

namespace warpfix {

/// Replaces the content of Path (or of the file a symbolic link Path leads
/// to) with Content. Refused, with the reason: a file nobody may write, a
/// file with several hard links (the rename would leave the other names with
/// the old content), and a file whose owner or group this process cannot
/// give the new one (it would change hands).
///
/// Where the file system allows it the temporary file has no name until it
/// is complete (O_TMPFILE), and a named one exists only between a link and a
/// rename. Named temporaries are `<file>.warpfix-XXXXXX`, locked (flock) for
/// as long as their writer lives; one that is unlocked and over a minute old
/// was left by a run that was killed, and the next run that writes the file
/// removes it.
llvm::Error replaceFileContent(llvm::StringRef Path, llvm::StringRef Content);

} // namespace warpfix

#endif
