// How the C library's allocator treats large blocks during a run.
#ifndef WARPFIX_TOOL_RUN_HEAPPOLICY_H
#define WARPFIX_TOOL_RUN_HEAPPOLICY_H

#include <cstddef>

namespace warpfix {

/// Fixes the size from which a block is its own mapping, handed back to the
/// system when freed: a mebibyte for a run of several translation units,
/// 32 MiB for a run of one. A no-op where the C library is not glibc, or
/// where the user set MALLOC_MMAP_THRESHOLD_ or MALLOC_TRIM_THRESHOLD_
/// themselves.
void fitLargeBlocksTo(size_t TranslationUnits);

} // namespace warpfix

#endif
