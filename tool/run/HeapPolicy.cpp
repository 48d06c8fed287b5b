#include "tool/run/HeapPolicy.h"
#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace warpfix {

// glibc raises its mmap threshold, up to 32 MiB, each time a mapped block is
// freed. After the first translation units, a preamble's serialisation buffer
// and the AST's largest slabs therefore come from the heap, and the pages
// they leave behind stay resident for the rest of the run. A fixed threshold
// of a mebibyte keeps them out: on the bench's code base the cold run's peak
// RSS fell from 288 to 254 MiB with shared preambles (224 without them,
// unchanged), at the same CPU time. Setting it also stops glibc from
// adapting the trim threshold.
//
// A run of one unit has no later unit to keep that memory from, and the
// mebibyte threshold, like glibc's own 128 KiB start, maps each of the
// unit's large blocks afresh and faults its pages in again: on a file of
// 4,000 kernels 27,200 page faults, against 24,100 with the threshold at
// glibc's ceiling from the start, at the same peak RSS.
void fitLargeBlocksTo(size_t TranslationUnits) {
#if defined(__GLIBC__)
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") ||
      std::getenv("MALLOC_TRIM_THRESHOLD_"))
    return;
  mallopt(M_MMAP_THRESHOLD, TranslationUnits > 1 ? 1 << 20 : 32 << 20);
#else
  (void)TranslationUnits;
#endif
}

} // namespace warpfix
