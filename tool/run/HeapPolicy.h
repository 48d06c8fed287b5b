// How the C library's allocator treats large blocks during a run.
#ifndef WARPFIX_TOOL_RUN_HEAPPOLICY_H
#define WARPFIX_TOOL_RUN_HEAPPOLICY_H

namespace warpfix {

/// Makes every block of a mebibyte or more its own mapping, handed back to
/// the system when freed. A no-op where the C library is not glibc, or where
/// the user set MALLOC_MMAP_THRESHOLD_ or MALLOC_TRIM_THRESHOLD_ themselves.
void returnLargeBlocksWhenFreed();

} // namespace warpfix

#endif
