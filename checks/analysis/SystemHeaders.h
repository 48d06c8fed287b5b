// Whether a node belongs to the toolkit's or the system's headers rather than
// to the user's code.
#ifndef WARPFIX_CHECKS_ANALYSIS_SYSTEMHEADERS_H
#define WARPFIX_CHECKS_ANALYSIS_SYSTEMHEADERS_H

#include "clang/Basic/SourceManager.h"

namespace warpfix {

/// Whether Node is written in a system header, or expanded there from a
/// macro: what the matcher isExpansionInSystemHeader() tests.
template <typename NodeT>
bool isExpansionInSystemHeader(const NodeT &Node,
                               const clang::SourceManager &SM) {
  clang::SourceLocation Expansion = SM.getExpansionLoc(Node.getBeginLoc());
  return Expansion.isValid() && SM.isInSystemHeader(Expansion);
}

} // namespace warpfix

#endif
